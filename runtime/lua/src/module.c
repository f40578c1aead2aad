/* luaopen_cleave: the one table `require "cleave"` returns. */
#include "internal.h"
#include "sandbox.h"

#ifndef CLEAVE_VERSION
#define CLEAVE_VERSION "0.0.0"
#endif

/* The API tables are shared by every script of a lua_State (and by the weapons a mod loads),
 * so a script that replaced cleave.overlaps would change the answers for everybody. Each table
 * is therefore handed out as an empty proxy whose metatable reads through to the real table
 * and refuses writes. rawset can still write to the proxy: the guard is against mistakes, not
 * against a script that sets out to break its own state. */
static int proxy_newindex(lua_State *L) {
    const char *key = luaL_tolstring(L, 2, NULL);
    return luaL_error(L, "attempt to set '%s' in read-only table '%s'", key,
                      lua_tostring(L, lua_upvalueindex(1)));
}

/* The iterator of pairs(proxy): next over the real table, without needing the global 'next'
 * (a sandbox may not have it). */
static int proxy_next(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1)) {
        return 2;
    }
    lua_pushnil(L);
    return 1;
}

static int proxy_pairs(lua_State *L) {
    lua_pushcfunction(L, proxy_next);
    luaL_getmetafield(L, 1, "__index");
    lua_pushnil(L);
    return 3;
}

/* Replaces the table on top of the stack by a read-only proxy of it named `name`. */
static void make_read_only(lua_State *L, const char *name) {
    lua_newtable(L);          /* real proxy */
    lua_createtable(L, 0, 4); /* real proxy meta */
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, name);
    lua_pushcclosure(L, proxy_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, proxy_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2); /* real proxy */
    lua_remove(L, -2);       /* proxy */
}

CLV_LUA_EXPORT int luaopen_cleave(lua_State *L) {
    luaL_checkversion(L);
    clv_lua_shape_meta(L);
    lua_pop(L, 1);
    clv_lua_weapon_meta(L);
    lua_pop(L, 1);
    clv_lua_arena_meta(L);

    lua_createtable(L, 0, 16);
    luaL_setfuncs(L, clv_lua_shape_funcs, 0);
    luaL_setfuncs(L, clv_lua_query_funcs, 0);
    luaL_setfuncs(L, clv_lua_weapon_funcs, 0);
    luaL_setfuncs(L, clv_lua_arena_funcs, 0);
    luaL_setfuncs(L, clv_lua_mod_funcs, 0);
    lua_pushliteral(L, "cleave " CLEAVE_VERSION);
    lua_setfield(L, -2, "_VERSION");

    lua_newtable(L);
    luaL_setfuncs(L, clv_lua_exact_funcs, 0);
    make_read_only(L, "cleave.exact");
    lua_setfield(L, -2, "exact");

    clv_lua_sandbox_register(L);
    make_read_only(L, "cleave");
    return 1;
}
