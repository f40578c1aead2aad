/* luaopen_cleave: the one table `require "cleave"` returns. */
#include "mod_internal.h"
#include "sandbox.h"

#ifndef CLEAVE_VERSION
#define CLEAVE_VERSION "0.0.0"
#endif

/* The module and cleave.exact are plain tables, as the standard libraries are: each lua_State
 * (and so each mod's sandbox) has its own, so a script that replaces a function changes only
 * its own state. cleave.exact is also registered as a loaded module of its own: luaL_argerror
 * finds a function's name in package.loaded when the call site has none (pcall(f, ...)), and
 * looks only one table deep. */
static void register_loaded(lua_State *L, const char *name) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

CLV_LUA_EXPORT int luaopen_cleave(lua_State *L) {
    luaL_checkversion(L);
    clv_lua_shape_meta(L);
    lua_pop(L, 1);
    clv_lua_weapon_meta(L);
    lua_pop(L, 1);
    clv_lua_arena_meta(L);
    clv_lua_body_meta(L);
    lua_pop(L, 1);

    lua_createtable(L, 0, 16);
    luaL_setfuncs(L, clv_lua_shape_funcs, 0);
    luaL_setfuncs(L, clv_lua_query_funcs, 0);
    luaL_setfuncs(L, clv_lua_weapon_funcs, 0);
    luaL_setfuncs(L, clv_lua_arena_funcs, 0);
    luaL_setfuncs(L, clv_lua_body_funcs, 0);
    luaL_setfuncs(L, clv_lua_frames_funcs, 0);
    luaL_setfuncs(L, clv_lua_mod_funcs, 0);
    lua_pushliteral(L, "cleave " CLEAVE_VERSION);
    lua_setfield(L, -2, "_VERSION");

    lua_newtable(L);
    luaL_setfuncs(L, clv_lua_exact_funcs, 0);
    register_loaded(L, "cleave.exact");
    lua_setfield(L, -2, "exact");

    clv_lua_sandbox_register(L);
    return 1;
}
