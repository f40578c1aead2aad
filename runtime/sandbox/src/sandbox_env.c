/* The environment a mod runs in: the allow-listed globals and libraries, the replacements of
 * the base functions whose originals would escape the sandbox's limits (load, xpcall,
 * coroutines, collectgarbage, print), and the check that the built environment holds nothing
 * else. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "sandbox_internal.h"

/* ---- Replacements for base functions ---- */

/* collectgarbage("count") only: the rest would let a mod steer the host's pauses. */
static int sb_collectgarbage(lua_State *L) {
    const char *opt = luaL_optstring(L, 1, "collect");
    if (strcmp(opt, "count") != 0) {
        return luaL_error(L, "collectgarbage: only \"count\" is allowed in mods (got \"%s\")", opt);
    }
    int kb = lua_gc(L, LUA_GCCOUNT);
    int rest = lua_gc(L, LUA_GCCOUNTB);
    lua_pushnumber(L, (lua_Number)kb + (lua_Number)rest / 1024.0);
    return 1;
}

/* load(chunk [, chunkname [, mode [, env]]]) in text mode only; a string chunk is parsed in
 * pieces under the deadline and at most CLV_SANDBOX_MAX_SOURCE bytes long. */
static int sb_load(lua_State *L) {
    if (!lua_isnoneornil(L, 3)) {
        const char *mode = luaL_checkstring(L, 3);
        if (strcmp(mode, "t") != 0) {
            lua_pushnil(L);
            lua_pushfstring(L, "load: mode \"%s\" is not allowed in mods (text chunks only)", mode);
            return 2;
        }
    }
    if (lua_gettop(L) < 3) {
        lua_settop(L, 3);
    }
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    if (lua_type(L, 1) == LUA_TSTRING) {
        if (lua_rawlen(L, 1) > CLV_SANDBOX_MAX_SOURCE) {
            lua_pushnil(L);
            lua_pushfstring(L, "load: source larger than %d bytes", CLV_SANDBOX_MAX_SOURCE);
            return 2;
        }
        if (lua_isnil(L, 2)) { /* the name stock load gives a string chunk: the string */
            lua_pushvalue(L, 1);
            lua_replace(L, 2);
        }
        lua_pushvalue(L, 1);
        lua_pushinteger(L, 0);
        lua_pushcclosure(L, clv_sandbox_string_pieces, 2);
        lua_replace(L, 1);
    }
    /* Without the host's message handler: an error of a reader function becomes load's plain
     * message, not one with a traceback built at each level of a nested load. */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    if (lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0) != LUA_OK) {
        return lua_error(L);
    }
    return lua_gettop(L);
}

/* xpcall(f, msgh, ...): stack during the call is [f, msgh, true, results...]. */
static int xpcall_handled(lua_State *L, int status, lua_KContext ctx) {
    (void)ctx;
    (void)status; /* false, then what the handler returned or the error it raised */
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
}

static int xpcall_done(lua_State *L, int status, lua_KContext ctx) {
    if (status == LUA_OK || status == LUA_YIELD) {
        return lua_gettop(L) - (int)ctx; /* true, results... */
    }
    /* The error has unwound and the hook is live again: run the handler under a pcall. */
    lua_pushvalue(L, 2);
    lua_insert(L, -2);
    int st = lua_pcallk(L, 1, 1, 0, 0, xpcall_handled);
    return xpcall_handled(L, st, 0);
}

static int sb_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2); /* [f, msgh, true, f, args...] */
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 0, 2, xpcall_done);
    return xpcall_done(L, status, 2);
}

/* A coroutine's body runs inside a protected call in the coroutine. An error raised by the
 * deadline's hook skips the hook's "hooks allowed again"; lua_resume does not put it back, but
 * a protected call does, so the body's to-be-closed variables are closed (and the error passed
 * on) with the hook live. Without it, a __close of a coroutine killed by the hook ran with
 * hooks off, where nothing could stop a loop. */
static int body_done(lua_State *L, int status, lua_KContext ctx) {
    (void)ctx;
    if (status != LUA_OK && status != LUA_YIELD) {
        return lua_error(L);
    }
    return lua_gettop(L); /* the body's results */
}

static int co_body(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    int status = lua_pcallk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, 0, body_done);
    return body_done(L, status, 0);
}

/* Pushes the body a coroutine of f runs: f inside co_body. */
static void push_body(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_pushvalue(L, 1);
    lua_pushcclosure(L, co_body, 1);
}

/* coroutine.create / coroutine.wrap, putting the hook on the new thread. Lua copies the hook
 * into threads it creates, but a thread made while no hook was set would otherwise run free. */
static int sb_co_create(lua_State *L) {
    push_body(L);
    lua_replace(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    lua_State *co = lua_tothread(L, -1);
    if (co != NULL) {
        clv_sandbox_arm_hook(co);
    }
    return 1;
}

/* Does msg start with a position ("chunk:line: ")? */
static bool has_position(const char *msg) {
    const char *colon = strchr(msg, ':');
    const char *nl = strchr(msg, '\n');
    if (colon == NULL || (nl != NULL && nl < colon) || !isdigit((unsigned char)colon[1])) {
        return false;
    }
    const char *p = colon + 1;
    while (isdigit((unsigned char)*p)) {
        p++;
    }
    return p[0] == ':' && p[1] == ' ';
}

/* The function coroutine.wrap returns: resumes its coroutine (upvalue 1). Stock Lua adds the
 * caller's position to every error passing through, so an error of nested wraps (a recursion
 * ends in one) carried "mod:1: " once per level; here a position is added only to a message
 * that has none. */
static int sb_wrapped(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int n = lua_gettop(L);
    if (lua_status(co) == LUA_OK && lua_gettop(co) == 0) {
        return luaL_error(L, "cannot resume dead coroutine");
    }
    if (!lua_checkstack(co, n)) {
        return luaL_error(L, "too many arguments to resume");
    }
    lua_xmove(L, co, n);
    int nres;
    int status = lua_resume(co, L, n, &nres);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            return luaL_error(L, "too many results to resume");
        }
        lua_xmove(co, L, nres);
        return nres;
    }
    /* An error inside leaves the coroutine dead: close its to-be-closed variables. A refused
     * resume ("C stack overflow", "non-suspended") leaves it as it was, the message on its
     * stack: resetting a suspended coroutine then would move its top below its base. */
    int co_status = lua_status(co);
    if (co_status != LUA_OK && co_status != LUA_YIELD) {
#if LUA_VERSION_RELEASE_NUM >= 50406
        status = lua_closethread(co, L);
#else
        status = lua_resetthread(co);
#endif
    }
    lua_xmove(co, L, 1);
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING &&
        !has_position(lua_tostring(L, -1))) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/* coroutine.wrap(f), its coroutine hooked like every other. */
static int sb_co_wrap(lua_State *L) {
    push_body(L);
    lua_State *co = lua_newthread(L);
    clv_sandbox_arm_hook(co);
    lua_rotate(L, -2, 1); /* [body, co] -> [co, body] */
    lua_xmove(L, co, 1);
    lua_pushcclosure(L, sb_wrapped, 1);
    return 1;
}

/* log(...) / print(...): tab-joined, cut to one line's room, newest CLV_SANDBOX_LOG_LINES kept. */
static int sb_log(lua_State *L) {
    clv_sandbox *sb = clv_sandbox_of(L);
    int n = lua_gettop(L);
    char line[CLV_SANDBOX_LOG_LINE];
    size_t used = 0;
    for (int i = 1; i <= n; i++) {
        size_t len;
        const char *s = luaL_tolstring(L, i, &len); /* __tostring runs as mod code, hooked */
        if (i > 1 && used + 1 < sizeof line) {
            line[used++] = '\t';
        }
        size_t room = sizeof line - 1 - used;
        size_t take = len < room ? len : room;
        memcpy(line + used, s, take);
        used += take;
        lua_pop(L, 1);
    }
    line[used] = '\0';
    clv_sandbox_log_add(sb, line);
    return 0;
}

/* ---- Building and checking the environment ---- */

static const char *const allowed_globals[] = {
    "assert", "error",          "ipairs",       "next",     "pairs",    "pcall",
    "select", "tonumber",       "tostring",     "type",     "rawequal", "rawlen",
    "rawget", "getmetatable",   "setmetatable", "xpcall",   "print",    "log",
    "load",   "collectgarbage", "_G",           "_VERSION", "string",   "table",
    "math",   "utf8",           "coroutine",    "cleave",   NULL};

static const char *const allowed_string[] = {
    "byte", "char",    "find", "format", "gmatch", "gsub",     "len",    "lower", "match",
    "rep",  "reverse", "sub",  "upper",  "pack",   "packsize", "unpack", NULL};

static const char *const allowed_table[] = {"concat", "insert", "move",   "pack",
                                            "remove", "sort",   "unpack", NULL};

static const char *const allowed_math[] = {
    "abs", "acos",       "asin", "atan",      "ceil", "cos",    "deg",
    "exp", "floor",      "fmod", "huge",      "log",  "max",    "maxinteger",
    "min", "mininteger", "modf", "pi",        "rad",  "random", "randomseed",
    "sin", "sqrt",       "tan",  "tointeger", "type", "ult",    NULL};

static const char *const allowed_utf8[] = {"char", "charpattern", "codepoint", "codes",
                                           "len",  "offset",      NULL};

static const char *const allowed_coroutine[] = {
    "close", "create", "isyieldable", "resume", "running", "status", "wrap", "yield", NULL};

/* Parts of the cleave API a mod must not reach: each makes a new sandbox with a budget of its
 * own, and load_mod/reload_mod read files. */
static const char *const hidden_api[] = {"sandbox", "load_mod", "reload_mod", NULL};

static const char *const removed_globals[] = {"dofile",  "loadfile", "rawset", "warn",  "require",
                                              "package", "io",       "os",     "debug", NULL};

static bool listed(const char *const *list, const char *name) {
    for (; *list != NULL; list++) {
        if (strcmp(*list, name) == 0) {
            return true;
        }
    }
    return false;
}

/* Raises unless the table at idx holds exactly the names of list (strings only). */
static void check_table(lua_State *L, int idx, const char *what, const char *const *list) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        luaL_error(L, "sandbox: '%s' is not a table", what);
    }
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING || !listed(list, lua_tostring(L, -2))) {
            const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
            luaL_error(L, "sandbox: '%s%s%s' is not on the allow-list", what,
                       *what != '\0' ? "." : "", key);
        }
        lua_pop(L, 1);
    }
    for (; *list != NULL; list++) {
        if (lua_getfield(L, idx, *list) == LUA_TNIL) {
            luaL_error(L, "sandbox: '%s%s%s' is missing", what, *what != '\0' ? "." : "", *list);
        }
        lua_pop(L, 1);
    }
}

/* The environment check, run after building and available to tests through a fresh state. */
static void check_environment(lua_State *L) {
    lua_pushglobaltable(L);
    check_table(L, -1, "", allowed_globals);
    static const struct {
        const char *name;
        const char *const *list;
    } libs[] = {{"string", allowed_string},
                {"table", allowed_table},
                {"math", allowed_math},
                {"utf8", allowed_utf8},
                {"coroutine", allowed_coroutine}};
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        lua_getfield(L, -1, libs[i].name);
        check_table(L, -1, libs[i].name, libs[i].list);
        lua_pop(L, 1);
    }
    /* The string metatable: hidden, and indexing the mod's string table. */
    lua_pushliteral(L, "");
    if (!lua_getmetatable(L, -1)) {
        luaL_error(L, "sandbox: strings have no metatable");
    }
    if (lua_getfield(L, -1, "__metatable") != LUA_TBOOLEAN || lua_toboolean(L, -1)) {
        luaL_error(L, "sandbox: the string metatable is readable");
    }
    lua_pop(L, 1);
    lua_getfield(L, -1, "__index");
    lua_getfield(L, -4, "string");
    if (!lua_rawequal(L, -1, -2)) {
        luaL_error(L, "sandbox: strings do not index the string table");
    }
    lua_pop(L, 4);
    /* cleave: the sandbox's own table (its limits' api), no sandbox inside. */
    int ct = lua_getfield(L, -1, "cleave");
    if (ct != LUA_TTABLE && (ct != LUA_TNIL || clv_sandbox_of(L)->limits.api != NULL)) {
        luaL_error(L, "sandbox: 'cleave' is not a table");
    }
    for (const char *const *name = hidden_api; ct == LUA_TTABLE && *name != NULL; name++) {
        if (lua_getfield(L, -1, *name) != LUA_TNIL) {
            luaL_error(L, "sandbox: 'cleave.%s' is reachable from a mod", *name);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    for (const char *const *name = removed_globals; *name != NULL; name++) {
        if (lua_getglobal(L, *name) != LUA_TNIL) {
            luaL_error(L, "sandbox: '%s' is reachable from a mod", *name);
        }
        lua_pop(L, 1);
    }
}

/* Pushes a new table with the function fields of the table at t. */
static void push_functions(lua_State *L, int t) {
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_isfunction(L, -1)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, -4);
        } else {
            lua_pop(L, 1);
        }
    }
}

int clv_sandbox_build_env(lua_State *L) {
    static const struct {
        const char *name;
        lua_CFunction open;
    } libs[] = {{LUA_GNAME, luaopen_base},       {LUA_STRLIBNAME, luaopen_string},
                {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
                {LUA_UTF8LIBNAME, luaopen_utf8}, {LUA_COLIBNAME, luaopen_coroutine}};
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        luaL_requiref(L, libs[i].name, libs[i].open, 1);
        lua_pop(L, 1);
    }
    lua_CFunction api = clv_sandbox_of(L)->limits.api;
    if (api != NULL) {
        luaL_requiref(L, "cleave", api, 1);
        lua_pop(L, 1);
    }

    lua_pushglobaltable(L);
    for (const char *const *name = removed_globals; *name != NULL; name++) {
        lua_pushnil(L);
        lua_setfield(L, -2, *name);
    }
    clv_sandbox_open_lib(L);
    clv_sandbox_wrap_field(L, "load", sb_load);
    lua_pushcfunction(L, sb_collectgarbage);
    lua_setfield(L, -2, "collectgarbage");
    lua_pushcfunction(L, sb_xpcall);
    lua_setfield(L, -2, "xpcall");
    lua_pushcfunction(L, sb_log);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "log");
    lua_setfield(L, -2, "print");

    lua_getfield(L, -1, LUA_STRLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    clv_sandbox_open_patterns(L);
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 3);

    /* Lua built with LUA_COMPAT_MATHLIB (Debian's is) adds the 5.2 math functions. */
    static const char *const math_compat[] = {"cosh",  "sinh",  "tanh",  "pow", "frexp",
                                              "ldexp", "log10", "atan2", NULL};
    lua_getfield(L, -1, LUA_MATHLIBNAME);
    for (const char *const *name = math_compat; *name != NULL; name++) {
        lua_pushnil(L);
        lua_setfield(L, -2, *name);
    }
    lua_pop(L, 1);

    lua_getfield(L, -1, LUA_COLIBNAME);
    clv_sandbox_wrap_field(L, "create", sb_co_create);
    lua_pushcfunction(L, sb_co_wrap);
    lua_setfield(L, -2, "wrap");
    lua_pop(L, 1);

    /* The module table mods see must not hand out more sandboxes, each with its own budget:
     * neither directly nor by loading mods (which also reads files). */
    if (lua_getfield(L, -1, "cleave") == LUA_TTABLE) {
        for (const char *const *name = hidden_api; *name != NULL; name++) {
            lua_pushnil(L);
            lua_setfield(L, -2, *name);
        }
    }
    lua_settop(L, 1);

    /* Nothing of the loaded-modules table is reachable without require. It keeps copies of the
     * functions of the libraries and the API, where luaL_argerror and tracebacks look up a
     * function's name ('string.rep', as stock Lua names it). Copies, not the tables the mod
     * sees: every error walks them, and a mod could grow its own to millions of fields. */
    static const char *const module_names[] = {
        "_G",          LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME, LUA_UTF8LIBNAME,
        LUA_COLIBNAME, "cleave",       "cleave.exact"};
    int count = (int)(sizeof module_names / sizeof module_names[0]);
    lua_createtable(L, 0, count);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    for (int k = 0; k < count; k++) {
        if (lua_getfield(L, -1, module_names[k]) == LUA_TTABLE) {
            push_functions(L, lua_gettop(L));
            lua_setfield(L, -4, module_names[k]);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);

    check_environment(L);
    lua_pop(L, 1);
    return 0;
}
