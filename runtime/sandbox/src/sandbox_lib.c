/* Library functions of the sandbox whose stock versions a mod could make loop in C, where the
 * count hook never fires, and the sandbox's setmetatable.
 *
 * - table.move, table.insert and table.remove loop over a range the mod chooses (a range of
 *   2^63 elements, or a length forged with __len), touching no memory: neither the deadline nor
 *   the memory budget would stop them. These versions count each element with
 *   clv_sandbox_tick. string.rep copies its string once per repetition (n one-byte copies
 *   between two looks at the clock for ('x'):rep(n)), and n times nothing for an empty string
 *   and separator; this one copies doubling blocks.
 * - Stock functions whose one call works through an input as large as the memory budget
 *   without asking for memory (table.sort, table.concat, utf8.len, tonumber, next...): a
 *   thousand such calls fit between two looks of the hook. They run the stock function and
 *   look at the deadline after it (sort with an order function that looks as it goes), and
 *   pack formats are bounded.
 * - A metatable's fields are read when setmetatable is called: the sandbox sets a copy of
 *   its metafields (a "sealed" metatable) whose __metatable is the mod's table, so
 *   getmetatable still answers the mod's table while later writes to it cannot change what Lua
 *   runs. That is what makes the checks below hold for good: __gc is refused (finalizers run
 *   with hooks off), __call must be a function (Lua resolves a chain of callable tables in C,
 *   moving every argument at each step: quadratic, minutes before "stack overflow"), and
 *   __mode may not hold 'k' (weak-keyed tables are ephemerons, which the collector marks in
 *   repeated passes: an adversarial chain of them makes every cycle quadratic).
 */
#include <limits.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "sandbox_internal.h"

/* The length of the table argument 1, read as the table library does (__len honoured). */
static lua_Integer table_length(lua_State *L) {
    if (lua_type(L, 1) != LUA_TTABLE) {
        luaL_checktype(L, 1, LUA_TTABLE);
    }
    return luaL_len(L, 1);
}

/* table.insert(t, [pos,] value) */
static int sb_insert(lua_State *L) {
    lua_Integer e = table_length(L);
    e = (lua_Integer)((lua_Unsigned)e + 1u); /* first empty slot, wrapping as stock Lua does */
    lua_Integer pos;
    switch (lua_gettop(L)) {
    case 2:
        pos = e;
        break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
        for (lua_Integer i = e; i > pos; i--) {
            clv_sandbox_tick(L);
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

/* table.remove(t [, pos]) */
static int sb_remove(lua_State *L) {
    lua_Integer size = table_length(L);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size) {
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    }
    lua_geti(L, 1, pos);
    for (; pos < size; pos++) {
        clv_sandbox_tick(L);
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

/* table.move(a1, f, e, t [, a2]) */
static int sb_move(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4);
    int tt = lua_isnoneornil(L, 5) ? 1 : 5;
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, tt, LUA_TTABLE);
    if (e >= f) {
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
        lua_Integer n = e - f + 1;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
        bool forward = t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ));
        for (lua_Integer i = 0; i < n; i++) {
            clv_sandbox_tick(L);
            lua_Integer k = forward ? i : n - 1 - i;
            lua_geti(L, 1, f + k);
            lua_seti(L, tt, t + k);
        }
    }
    lua_pushvalue(L, tt);
    return 1;
}

/* The largest string stock string.rep builds (its MAXSIZE). */
#define REP_MAX_SIZE (sizeof(size_t) < sizeof(int) ? (size_t)-1 : (size_t)INT_MAX)

/* string.rep(s, n [, sep]), the same string as stock Lua's. The stock function copies s and sep
 * once per repetition, so ('x'):rep(400000) is 400,000 one-byte copies between two looks at
 * the clock (about 3 ms under ASan, past a deadline that fell in between); here the first
 * repetition is copied and then the filled part doubles, a few large copies in all. An empty
 * string and separator give the empty result at once (stock Lua loops n times to copy nothing). */
static int sb_rep(lua_State *L) {
    size_t l, lsep;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || l + lsep == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    /* Stock Lua's check, raised from this frame: the message names the mod's file and line. */
    if (l + lsep < l || (lua_Unsigned)(l + lsep) > REP_MAX_SIZE / (lua_Unsigned)n) {
        return luaL_error(L, "resulting string too large");
    }
    size_t unit = l + lsep, body = unit * (size_t)(n - 1), total = body + l;
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, total);
    if (n > 1) {
        memcpy(p, s, l);
        memcpy(p + l, sep, lsep);
        /* The filled part is whole units, so a copy of its start continues the pattern. */
        for (size_t filled = unit; filled < body;) {
            size_t k = filled < body - filled ? filled : body - filled;
            memcpy(p + filled, p, k);
            filled += k;
        }
    }
    memcpy(p + body, s, l);
    luaL_pushresultsize(&b, total);
    return 1;
}

/* ---- setmetatable ---- */

/* Marks a sealed metatable built for a mod's table without a __metatable of its own; a mod
 * never holds a sealed metatable, so it never sees this key. */
static const char sealed_key = 0;

/* Raises when metafield `name` with the value on top may not be set in a mod. */
static void check_metafield(lua_State *L, const char *name) {
    if (strcmp(name, "__gc") == 0) {
        luaL_error(L, "__gc metamethods are not allowed in mods");
    } else if (strcmp(name, "__call") == 0 && lua_type(L, -1) != LUA_TFUNCTION) {
        luaL_error(L, "__call must be a function in mods (got %s)", luaL_typename(L, -1));
    } else if (strcmp(name, "__mode") == 0 && lua_type(L, -1) == LUA_TSTRING &&
               strchr(lua_tostring(L, -1), 'k') != NULL) {
        luaL_error(L, "weak keys (__mode with 'k') are not allowed in mods");
    }
}

/* Pushes the sealed copy of the metafields of the table at mt. */
static void push_sealed(lua_State *L, int mt) {
    lua_createtable(L, 0, 4);
    int sealed = lua_gettop(L);
    bool protects = false;
    lua_pushnil(L);
    while (lua_next(L, mt)) {
        clv_sandbox_tick(L);
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        if (k != NULL && k[0] == '_' && k[1] == '_') {
            check_metafield(L, k);
            protects = protects || strcmp(k, "__metatable") == 0;
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, sealed);
        } else {
            lua_pop(L, 1);
        }
    }
    if (!protects) {
        lua_pushvalue(L, mt);
        lua_setfield(L, sealed, "__metatable");
        lua_pushboolean(L, 1);
        lua_rawsetp(L, sealed, &sealed_key);
    }
}

/* Is the metatable of the table at 1 one the mod may not replace? */
static bool metatable_protected(lua_State *L) {
    if (!lua_getmetatable(L, 1)) {
        return false;
    }
    bool sealed_by_us = lua_rawgetp(L, -1, &sealed_key) == LUA_TBOOLEAN;
    lua_pop(L, 2);
    return !sealed_by_us && luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL;
}

/* setmetatable(t, mt) for mods: mt's metafields are checked and sealed (see the top). */
static int sb_setmetatable(lua_State *L) {
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    lua_settop(L, 2);
    if (metatable_protected(L)) {
        return luaL_error(L, "cannot change a protected metatable");
    }
    if (t == LUA_TTABLE) {
        push_sealed(L, 2);
    } else {
        lua_pushnil(L);
    }
    lua_setmetatable(L, 1);
    lua_settop(L, 1);
    return 1;
}

/* ---- Stock functions that loop without asking for memory ---- */

/* utf8.len, table.concat of empty strings, tonumber of a long string...: work in proportion to
 * an input as large as the memory budget, in one instruction, asking for no memory, so neither
 * the allocator nor the count hook (a thousand such calls between two looks) notices the
 * deadline. These run the stock function (upvalue 1) in their own frame, so its argument
 * errors and positions read as from the stock function, and look at the deadline after it:
 * the overrun is one call. */
static int call_stock(lua_State *L) { return lua_tocfunction(L, lua_upvalueindex(1))(L); }

static int sb_then_check(lua_State *L) {
    int n = call_stock(L);
    clv_sandbox_check_deadline(L);
    return n;
}

/* Strings at least this long make one comparison long enough to look at the deadline after it;
 * shorter ones are counted with clv_sandbox_tick. */
#define LONG_STRING 4096

static bool is_long_string(lua_State *L, int i) {
    return lua_type(L, i) == LUA_TSTRING && lua_rawlen(L, i) >= LONG_STRING;
}

/* The order table.sort uses without a function: Lua's <, looking at the deadline now and then
 * (a look costs as much as a comparison of numbers). */
static int sort_less(lua_State *L) {
    if (is_long_string(L, 1) || is_long_string(L, 2)) {
        clv_sandbox_check_deadline(L);
    } else {
        clv_sandbox_tick(L);
    }
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
}

/* A C function given to table.sort as its order (math.ult, rawequal): called by sort in C, where
 * no hook runs; this calls it (upvalue 1) and looks at the deadline now and then. */
static int sort_calling(lua_State *L) {
    clv_sandbox_tick(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

/* Tables up to this long, of numbers and short strings only and without a metatable, are sorted
 * by stock sort's own comparisons (under 1 ms) and the deadline looked at after: a C call per
 * comparison would make them 2 to 3 times slower. */
#define SORT_PLAIN_MAX 4096

static bool plain_to_sort(lua_State *L) {
    if (lua_type(L, 1) != LUA_TTABLE || lua_getmetatable(L, 1)) {
        return false; /* (a metatable pushed is dropped by the caller's settop) */
    }
    lua_Unsigned n = lua_rawlen(L, 1);
    if (n > SORT_PLAIN_MAX) {
        return false;
    }
    for (lua_Unsigned i = 1; i <= n; i++) {
        int t = lua_rawgeti(L, 1, (lua_Integer)i);
        bool plain = t == LUA_TNUMBER || (t == LUA_TSTRING && !is_long_string(L, -1));
        lua_pop(L, 1);
        if (!plain) {
            return false;
        }
    }
    return true;
}

/* table.sort(t [, comp]): stock sort compares in C, and one call of it on a large table runs
 * for a second; given an order that looks at the deadline, it stops in time. A Lua comp runs
 * under the hook and is passed as it is. */
static int sb_sort(lua_State *L) {
    /* without arguments, stock sort says "table expected, got no value" */
    if (!lua_isnone(L, 1) && lua_isnoneornil(L, 2) && !plain_to_sort(L)) {
        lua_settop(L, 1);
        lua_pushcfunction(L, sort_less);
    } else if (lua_iscfunction(L, 2)) {
        lua_settop(L, 2);
        lua_pushcclosure(L, sort_calling, 1);
    }
    return sb_then_check(L);
}

/* Longest format string.pack, packsize and unpack take in a mod: stock Lua reads a format of
 * any length in one call, option by option (a 30 MB format of spaces: 20 s). */
#define MAX_FORMAT 4096

static int sb_format_checked(lua_State *L) {
    size_t len;
    luaL_checklstring(L, 1, &len);
    if (len > MAX_FORMAT) {
        return luaL_argerror(L, 1,
                             lua_pushfstring(L, "format longer than %d bytes in mods", MAX_FORMAT));
    }
    return sb_then_check(L);
}

/* utf8.codes: the stock function, its iterator (a stock C function without upvalues, which
 * skips continuation bytes in C) checked. */
static int sb_codes(lua_State *L) {
    int n = sb_then_check(L);
    lua_pushvalue(L, -n);
    lua_pushcclosure(L, sb_then_check, 1);
    lua_replace(L, -n - 1);
    return n;
}

/* pairs(t): without __pairs, the checked next (upvalue 2), t, nil, as stock pairs gives its
 * next; with __pairs, stock pairs (upvalue 1) calls it and returns what it returns. */
static int sb_pairs(lua_State *L) {
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pop(L, 1);
        return call_stock(L);
    }
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

void clv_sandbox_wrap_field(lua_State *L, const char *name, lua_CFunction f) {
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, -2, name);
}

void clv_sandbox_open_lib(lua_State *L) {
    lua_pushcfunction(L, sb_setmetatable);
    lua_setfield(L, -2, "setmetatable");

    lua_getfield(L, -1, LUA_TABLIBNAME);
    lua_pushcfunction(L, sb_insert);
    lua_setfield(L, -2, "insert");
    lua_pushcfunction(L, sb_remove);
    lua_setfield(L, -2, "remove");
    lua_pushcfunction(L, sb_move);
    lua_setfield(L, -2, "move");
    clv_sandbox_wrap_field(L, "sort", sb_sort);
    clv_sandbox_wrap_field(L, "concat", sb_then_check);
    lua_pop(L, 1);

    lua_getfield(L, -1, LUA_STRLIBNAME);
    lua_pushcfunction(L, sb_rep);
    lua_setfield(L, -2, "rep");
    clv_sandbox_wrap_field(L, "unpack", sb_format_checked);
    clv_sandbox_wrap_field(L, "pack", sb_format_checked);
    clv_sandbox_wrap_field(L, "packsize", sb_format_checked);
    lua_pop(L, 1);

    lua_getfield(L, -1, LUA_UTF8LIBNAME);
    clv_sandbox_wrap_field(L, "len", sb_then_check);
    clv_sandbox_wrap_field(L, "offset", sb_then_check);
    clv_sandbox_wrap_field(L, "codepoint", sb_then_check);
    clv_sandbox_wrap_field(L, "codes", sb_codes);
    lua_pop(L, 1);

    clv_sandbox_wrap_field(L, "tonumber", sb_then_check);
    clv_sandbox_wrap_field(L, "next", sb_then_check);
    lua_getfield(L, -1, "pairs");
    lua_getfield(L, -2, "next"); /* the checked next, which pairs returns */
    lua_pushcclosure(L, sb_pairs, 2);
    lua_setfield(L, -2, "pairs");
    clv_sandbox_wrap_field(L, "rawequal", sb_then_check);
}
