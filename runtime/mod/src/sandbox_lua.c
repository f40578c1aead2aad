/* cleave.sandbox: the mod sandbox from Lua, for scripts and for the abuse catalogue.
 *
 *   local sandbox = require "cleave.sandbox"  -- found in cleave.so (luaopen_cleave_sandbox)
 *   local sb = sandbox.new{memory = 1 << 20, load_ms = 50, callback_ms = 2}
 *   sb:run(source [, chunkname])   --> true, results... | nil, message, traceback
 *   sb:call(name, ...)             --> true, results... | nil, message, traceback
 *   sb:memory()                    --> bytes now, peak bytes, budget
 *   sb:faults()                    --> consecutive failed calls
 *   sb:log()                       --> { lines... }, dropped (then forgets them)
 *   sb:close()                     --> closes the state (memory() is then 0)
 *
 * Values cross the boundary as copies: nil, booleans, numbers, strings and plain tables of
 * those (no metatable, at most COPY_DEPTH deep). A copy is charged to the mod's memory budget
 * by its bytes: the values crossing in one call may take at most the mod's memory limit, so 40
 * references to one large string cannot make the host allocate 40 times the mod's budget.
 * Nothing is shared, so a mod can never hold a host table, nor the host a mod's.
 *
 * The two states are separate Lua universes. While the sandbox runs, the host state is only
 * read with operations that cannot raise (raw reads into stack room reserved beforehand),
 * since a host error thrown from inside the sandbox's protected call would unwind the wrong
 * state.
 */
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "cleave/lua.h"
#include "mod_internal.h"
#include "sandbox_internal.h"

#define SANDBOX_TYPE "cleave.Sandbox"
#define COPY_DEPTH 32
/* What a copy costs, close to what Lua allocates for it: a slot per value, a header per string
 * and table. */
#define COPY_VALUE_BYTES 16
#define COPY_STRING_BYTES 24
#define COPY_TABLE_BYTES 56
#define ERR_SIZE 4096

typedef struct lsandbox {
    clv_sandbox *sb;
} lsandbox;

static lsandbox *check_sandbox(lua_State *L) { return luaL_checkudata(L, 1, SANDBOX_TYPE); }

static clv_sandbox *check_open(lua_State *L) {
    lsandbox *u = check_sandbox(L);
    if (u->sb == NULL || !clv_sandbox_is_open(u->sb)) {
        luaL_error(L, "sandbox is closed");
    }
    return u->sb;
}

/* ---- Copies ---- */

/* The bytes a copy may take and has taken so far. */
typedef struct copy_budget {
    size_t limit;
    size_t used;
} copy_budget;

/* A budget of the sandbox's memory limit: what the mod could hold at most. (What is left of it
 * now would count garbage the collector has not freed yet.) */
static copy_budget budget_of(const clv_sandbox *sb) {
    copy_budget b = {clv_sandbox_get_limits(sb).memory_bytes, 0};
    return b;
}

/* Charges n bytes; false when the budget cannot take them. */
static bool charge(copy_budget *b, size_t n) {
    if (n > b->limit - b->used) {
        b->used = b->limit;
        return false;
    }
    b->used += n;
    return true;
}

/* Why the value at idx of state L cannot be copied, or NULL when it can. Raw reads only. */
static const char *uncopyable(lua_State *L, int idx, int depth, copy_budget *budget) {
    idx = lua_absindex(L, idx);
    size_t bytes = COPY_VALUE_BYTES;
    if (lua_type(L, idx) == LUA_TSTRING) {
        bytes += COPY_STRING_BYTES + lua_rawlen(L, idx);
    } else if (lua_type(L, idx) == LUA_TTABLE) {
        bytes += COPY_TABLE_BYTES;
    }
    if (!charge(budget, bytes)) {
        return "more bytes than the mod's memory limit";
    }
    switch (lua_type(L, idx)) {
    case LUA_TNIL:
    case LUA_TBOOLEAN:
    case LUA_TNUMBER:
    case LUA_TSTRING:
        return NULL;
    case LUA_TTABLE:
        break;
    default:
        return lua_typename(L, lua_type(L, idx));
    }
    if (depth >= COPY_DEPTH) {
        return "tables nested too deep (or a cycle)";
    }
    if (lua_getmetatable(L, idx)) {
        lua_pop(L, 1);
        return "table with a metatable";
    }
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        int kt = lua_type(L, -2);
        const char *why =
            kt == LUA_TTABLE ? "table used as a key" : uncopyable(L, -2, depth + 1, budget);
        if (why == NULL) {
            why = uncopyable(L, -1, depth + 1, budget);
        }
        if (why != NULL) {
            lua_pop(L, 2);
            return why;
        }
        lua_pop(L, 1);
    }
    return NULL;
}

/* Pushes onto `to` a copy of the value at idx of `from` (checked with uncopyable). Raises only
 * in `to` (memory); reads `from` rawly, in stack room its caller reserved. */
static void copy_value(lua_State *from, int idx, lua_State *to) {
    idx = lua_absindex(from, idx);
    switch (lua_type(from, idx)) {
    case LUA_TBOOLEAN:
        lua_pushboolean(to, lua_toboolean(from, idx));
        break;
    case LUA_TNUMBER:
        if (lua_isinteger(from, idx)) {
            lua_pushinteger(to, lua_tointeger(from, idx));
        } else {
            lua_pushnumber(to, lua_tonumber(from, idx));
        }
        break;
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(from, idx, &len);
        lua_pushlstring(to, s, len);
        break;
    }
    case LUA_TTABLE:
        luaL_checkstack(to, 4, "tables nested too deep");
        lua_newtable(to);
        lua_pushnil(from);
        while (lua_next(from, idx)) {
            copy_value(from, -2, to);
            copy_value(from, -1, to);
            lua_rawset(to, -3);
            lua_pop(from, 1);
        }
        break;
    default:
        lua_pushnil(to);
        break;
    }
}

/* Stack room for reading a value COPY_DEPTH deep: a key and a value per level. */
#define COPY_ROOM (2 * COPY_DEPTH + 8)

/* After a failed run or call: nil, message, traceback (or nil). */
static int push_failure(lua_State *L, const char *err) {
    lua_pushnil(L);
    const char *tb = strstr(err, "\nstack traceback:");
    if (tb != NULL) {
        lua_pushlstring(L, err, (size_t)(tb - err));
        lua_pushstring(L, tb + 1);
    } else {
        lua_pushstring(L, err);
        lua_pushnil(L);
    }
    return 3;
}

/* Moves the values above base of the sandbox stack to the host as true, copies... */
static int push_results(lua_State *L, clv_sandbox *sb, int base) {
    lua_State *S = clv_sandbox_state(sb);
    int n = lua_gettop(S) - base;
    if (!lua_checkstack(S, COPY_ROOM)) {
        lua_settop(S, base);
        return push_failure(L, "not enough memory");
    }
    copy_budget budget = budget_of(sb);
    for (int i = 1; i <= n; i++) {
        const char *why = uncopyable(S, base + i, 0, &budget);
        if (why != NULL) {
            char msg[160];
            snprintf(msg, sizeof msg, "cannot copy result %d out of the sandbox (%s)", i, why);
            lua_settop(S, base);
            return push_failure(L, msg);
        }
    }
    luaL_checkstack(L, n + COPY_ROOM, "too many results");
    lua_pushboolean(L, 1);
    for (int i = 1; i <= n; i++) {
        copy_value(S, base + i, L);
    }
    lua_settop(S, base);
    return n + 1;
}

/* ---- Methods ---- */

static int option_number(lua_State *L, const char *name, lua_Number *out) {
    int t = lua_getfield(L, 1, name);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    if (t != LUA_TNUMBER) {
        return luaL_error(L, "bad argument #1 to 'new' (%s must be a number, got %s)", name,
                          luaL_typename(L, -1));
    }
    *out = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return 1;
}

static lua_Integer option_integer(lua_State *L, const char *name, lua_Integer min,
                                  lua_Integer fallback) {
    int t = lua_getfield(L, 1, name);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return fallback;
    }
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < min) {
        return luaL_error(L, "bad argument #1 to 'new' (%s must be an integer >= %I, got %s)", name,
                          min, luaL_tolstring(L, -1, NULL));
    }
    lua_Integer v = lua_tointeger(L, -1);
    lua_pop(L, 1);
    return v;
}

static double option_ms(lua_State *L, const char *name, double fallback) {
    lua_Number v = 0;
    if (!option_number(L, name, &v)) {
        return fallback;
    }
    if (!(v > 0) || v > 1e9) {
        luaL_error(L, "bad argument #1 to 'new' (%s must be > 0 and finite, got %f)", name, v);
    }
    return (double)v;
}

/// cleave.sandbox.new([options]) -> sandbox | nil, message
static int l_new(lua_State *L) {
    static const char *const known[] = {"memory", "load_ms", "callback_ms", "fail_after", NULL};
    clv_sandbox_limits limits = clv_sandbox_default_limits();
    limits.api = luaopen_cleave;
    lua_Integer fail_after = 0;
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            bool ok = false;
            if (lua_type(L, -2) == LUA_TSTRING) {
                for (const char *const *k = known; *k != NULL; k++) {
                    ok = ok || strcmp(*k, lua_tostring(L, -2)) == 0;
                }
            }
            if (!ok) {
                return luaL_error(L, "bad argument #1 to 'new' (unknown option '%s')",
                                  luaL_tolstring(L, -2, NULL));
            }
            lua_pop(L, 1);
        }
        lua_Integer mem = option_integer(L, "memory", 65536, (lua_Integer)limits.memory_bytes);
        limits.memory_bytes = (size_t)mem;
        limits.load_ms = option_ms(L, "load_ms", limits.load_ms);
        limits.callback_ms = option_ms(L, "callback_ms", limits.callback_ms);
        fail_after = option_integer(L, "fail_after", 0, 0);
    }
    lsandbox *u = lua_newuserdatauv(L, sizeof *u, 0);
    u->sb = NULL;
    luaL_setmetatable(L, SANDBOX_TYPE);
    char err[ERR_SIZE];
    u->sb = clv_sandbox_create_failing(&limits, (long)fail_after, err, sizeof err);
    if (u->sb == NULL) {
        lua_pushnil(L);
        lua_pushstring(L, err);
        return 2;
    }
    return 1;
}

/// sb:run(source [, chunkname]) -> true, results... | nil, message, traceback
static int l_run(lua_State *L) {
    clv_sandbox *sb = check_open(L);
    size_t len;
    const char *source = luaL_checklstring(L, 2, &len);
    const char *chunkname = luaL_optstring(L, 3, "=mod");
    lua_State *S = clv_sandbox_state(sb);
    int base = lua_gettop(S);
    char err[ERR_SIZE];
    if (!clv_sandbox_run(sb, source, len, chunkname, LUA_MULTRET, err, sizeof err)) {
        return push_failure(L, err);
    }
    return push_results(L, sb, base);
}

typedef struct call_ctx {
    lua_State *host;
    const char *name;
    int first; /* host index of the first argument */
    int nargs;
} call_ctx;

/* Runs inside the sandbox's protected path: finds the global, copies the arguments in (a
 * memory error here is the mod's, inside its own budget) and calls it. */
static int invoke(lua_State *S) {
    call_ctx *ctx = lua_touserdata(S, 1);
    lua_pop(S, 1);
    luaL_checkstack(S, ctx->nargs + 4, "too many arguments");
    int t = lua_getglobal(S, ctx->name);
    if (t != LUA_TFUNCTION) {
        return luaL_error(S, "global '%s' is not a function (a %s value)", ctx->name,
                          lua_typename(S, t));
    }
    for (int i = 0; i < ctx->nargs; i++) {
        copy_value(ctx->host, ctx->first + i, S);
    }
    lua_call(S, ctx->nargs, LUA_MULTRET);
    return lua_gettop(S);
}

/// sb:call(name, ...) -> true, results... | nil, message, traceback
static int l_call(lua_State *L) {
    clv_sandbox *sb = check_open(L);
    const char *name = luaL_checkstring(L, 2);
    int nargs = lua_gettop(L) - 2;
    luaL_checkstack(L, COPY_ROOM, "too many arguments");
    copy_budget budget = budget_of(sb);
    for (int i = 3; i <= lua_gettop(L); i++) {
        const char *why = uncopyable(L, i, 0, &budget);
        if (why != NULL) {
            return luaL_error(L, "bad argument #%d to 'call' (cannot copy a %s into a sandbox)",
                              i - 1, why);
        }
    }
    lua_State *S = clv_sandbox_state(sb);
    int base = lua_gettop(S);
    char err[ERR_SIZE];
    if (!lua_checkstack(S, 2)) {
        return push_failure(L, "not enough memory");
    }
    call_ctx ctx = {L, name, 3, nargs};
    lua_pushcfunction(S, invoke);
    lua_pushlightuserdata(S, &ctx);
    if (!clv_sandbox_call(sb, 1, LUA_MULTRET, err, sizeof err)) {
        return push_failure(L, err);
    }
    return push_results(L, sb, base);
}

/// sb:memory() -> bytes, peak, budget
static int l_memory(lua_State *L) {
    lsandbox *u = check_sandbox(L);
    if (u->sb == NULL) {
        lua_pushinteger(L, 0);
        lua_pushinteger(L, 0);
        lua_pushinteger(L, 0);
        return 3;
    }
    lua_pushinteger(L, (lua_Integer)clv_sandbox_bytes(u->sb));
    lua_pushinteger(L, (lua_Integer)clv_sandbox_peak(u->sb));
    lua_pushinteger(L, (lua_Integer)clv_sandbox_get_limits(u->sb).memory_bytes);
    return 3;
}

/// sb:faults() -> consecutive failed calls
static int l_faults(lua_State *L) {
    lsandbox *u = check_sandbox(L);
    lua_pushinteger(L, u->sb != NULL ? clv_sandbox_faults(u->sb) : 0);
    return 1;
}

/// sb:log() -> { lines... }, dropped; the log is emptied
static int l_log(lua_State *L) {
    lsandbox *u = check_sandbox(L);
    int n = u->sb != NULL ? clv_sandbox_log_count(u->sb) : 0;
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, clv_sandbox_log_line(u->sb, i));
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushinteger(L, u->sb != NULL ? (lua_Integer)clv_sandbox_log_dropped(u->sb) : 0);
    if (u->sb != NULL) {
        clv_sandbox_log_clear(u->sb);
    }
    return 2;
}

/// sb:close(): frees the mod's state; idempotent
static int l_close(lua_State *L) {
    lsandbox *u = check_sandbox(L);
    clv_sandbox_close(u->sb);
    return 0;
}

static int l_gc(lua_State *L) {
    lsandbox *u = check_sandbox(L);
    clv_sandbox_destroy(u->sb);
    u->sb = NULL;
    return 0;
}

static int l_tostring(lua_State *L) {
    lsandbox *u = check_sandbox(L);
    if (u->sb == NULL || !clv_sandbox_is_open(u->sb)) {
        lua_pushliteral(L, "cleave.Sandbox (closed)");
    } else {
        lua_pushfstring(L, "cleave.Sandbox (%I bytes)", (lua_Integer)clv_sandbox_bytes(u->sb));
    }
    return 1;
}

CLV_LUA_EXPORT int luaopen_cleave_sandbox(lua_State *L) {
    static const luaL_Reg methods[] = {{"run", l_run},       {"call", l_call}, {"memory", l_memory},
                                       {"faults", l_faults}, {"log", l_log},   {"close", l_close},
                                       {NULL, NULL}};
    static const luaL_Reg metamethods[] = {
        {"__gc", l_gc}, {"__close", l_close}, {"__tostring", l_tostring}, {NULL, NULL}};
    clv_lua_createmeta(L, SANDBOX_TYPE, metamethods, methods, false);
    lua_pop(L, 1);

    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, l_new);
    lua_setfield(L, -2, "new");
    return 1;
}

void clv_lua_sandbox_register(lua_State *L) {
    luaopen_cleave_sandbox(L);
    lua_setfield(L, -2, "sandbox");
}
