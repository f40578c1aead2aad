/* cleave.load_mod and cleave.reload_mod: a mod of the C host (mod.c) as a Lua table whose
 * weapons and bodies borrow the mod's own, kept alive by a handle. */
#include "mod_internal.h"
#include "sandbox.h"

typedef struct lmod {
    clv_mod *mod;
} lmod;

static int lmod_gc(lua_State *L) {
    lmod *m = (lmod *)luaL_checkudata(L, 1, CLV_LUA_MOD);
    clv_mod_free(m->mod);
    m->mod = NULL;
    return 0;
}

/// mod:log() -> the lines the mod wrote with log()/print(), oldest first
static int lmod_log(lua_State *L) {
    lmod *m = (lmod *)luaL_checkudata(L, 1, CLV_LUA_MOD);
    lua_newtable(L);
    if (m->mod == NULL) {
        return 1;
    }
    int n = clv_sandbox_log_count(m->mod->sb);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, clv_sandbox_log_line(m->mod->sb, i));
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/// mod:memory() -> bytes the mod's state holds
static int lmod_memory(lua_State *L) {
    lmod *m = (lmod *)luaL_checkudata(L, 1, CLV_LUA_MOD);
    lua_pushinteger(L, m->mod != NULL ? (lua_Integer)clv_sandbox_bytes(m->mod->sb) : 0);
    return 1;
}

/* In the mod's state, protected: the sorted names of the mod table's effects, as a list. */
static int effect_names(lua_State *S) {
    lua_newtable(S); /* 2 */
    int n = 0;
    if (lua_getfield(S, 1, "effects") == LUA_TTABLE) {
        lua_pushnil(S);
        while (lua_next(S, 3)) {
            lua_pop(S, 1);
            if (lua_type(S, -1) == LUA_TSTRING) {
                lua_pushvalue(S, -1);
                lua_rawseti(S, 2, ++n);
            }
        }
    }
    lua_pop(S, 1);
    return 1;
}

static const luaL_Reg lmod_methods[] = {{"log", lmod_log}, {"memory", lmod_memory}, {NULL, NULL}};
static const luaL_Reg lmod_metamethods[] = {{"__gc", lmod_gc}, {NULL, NULL}};

static void mod_meta(lua_State *L) {
    clv_lua_createmeta(L, CLV_LUA_MOD, lmod_metamethods, lmod_methods, false);
    lua_pop(L, 1);
}

/* Pushes the mod table of the loaded handle at h: {name=, version=, dir=, weapons=, bodies=,
 * effects=, handle=}. */
static int push_mod_table(lua_State *L, int h) {
    h = lua_absindex(L, h);
    clv_mod *mod = ((lmod *)lua_touserdata(L, h))->mod;
    lua_createtable(L, 0, 6);
    int t = lua_gettop(L);
    lua_pushstring(L, mod->name);
    lua_setfield(L, t, "name");
    lua_pushstring(L, mod->version);
    lua_setfield(L, t, "version");
    lua_pushstring(L, mod->dir);
    lua_setfield(L, t, "dir");
    lua_pushvalue(L, h);
    lua_setfield(L, t, "handle");
    lua_createtable(L, 0, mod->weapon_count);
    for (int32_t i = 0; i < mod->weapon_count; i++) {
        if (mod->first[i] != i) {
            /* the same weapon under another name: the same Weapon, not a second copy */
            lua_getfield(L, -1, mod->weapon_names[mod->first[i]]);
            lua_setfield(L, -2, mod->weapon_names[i]);
            continue;
        }
        clv_lweapon *w = clv_lua_new_weapon(L);
        clv_lua_weapon_borrow(w, mod->weapons[i]);
        w->sandbox = mod->sb;
        lua_pushvalue(L, h); /* the weapon keeps the mod (its callbacks' state) alive */
        lua_setiuservalue(L, -2, 1);
        lua_setfield(L, -2, mod->weapon_names[i]);
    }
    lua_setfield(L, t, "weapons");
    lua_createtable(L, 0, mod->body_count);
    for (int32_t i = 0; i < mod->body_count; i++) {
        clv_lua_push_borrowed_body(L, mod->bodies[i], h);
        lua_setfield(L, -2, mod->body_names[i]);
    }
    lua_setfield(L, t, "bodies");
    /* the names of the mod's effects; read in the mod's state through its protected
     * path, as the table is the mod's */
    lua_newtable(L);
    lua_State *S = clv_sandbox_state(mod->sb);
    if (lua_checkstack(S, 4)) {
        lua_pushcfunction(S, effect_names);
        lua_rawgeti(S, LUA_REGISTRYINDEX, mod->table_ref);
        char err[256];
        if (clv_sandbox_call_load(mod->sb, 1, 1, err, sizeof err)) {
            int n = (int)lua_rawlen(S, -1);
            for (int i = 1; i <= n; i++) {
                lua_rawgeti(S, -1, i);
                lua_pushstring(L, lua_tostring(S, -1));
                lua_rawseti(L, -2, i);
                lua_pop(S, 1);
            }
            lua_pop(S, 1);
        }
    }
    lua_setfield(L, t, "effects");
    return 1;
}

/// cleave.load_mod(dir) -> {name=, version=, dir=, weapons={name = cleave.Weapon},
/// bodies={name = cleave.Body}, effects={names}, handle=cleave.Mod}
static int l_load_mod(lua_State *L) {
    if (lua_type(L, 1) != LUA_TSTRING) {
        return luaL_typeerror(L, 1, "string");
    }
    const char *dir = lua_tostring(L, 1);
    clv_lua_check_nargs(L, 1);
    mod_meta(L);
    lmod *m = (lmod *)lua_newuserdatauv(L, sizeof *m, 0); /* 2 */
    m->mod = NULL;
    luaL_setmetatable(L, CLV_LUA_MOD);
    char err[2048];
    m->mod = clv_mod_load(dir, err, sizeof err);
    if (m->mod == NULL) {
        lua_pushstring(L, err);
        return lua_error(L);
    }
    return push_mod_table(L, 2);
}

/// cleave.reload_mod(mod) -> a new mod table, or raises the message: mod (a table from load_mod or
/// reload_mod, or its handle) loaded anew from its folder as one transaction (see
/// clv_mod_reload). mod itself is never changed: attacks started with its weapons finish with
/// them, and its callbacks keep running for them.
static int l_reload_mod(lua_State *L) {
    clv_lua_check_nargs(L, 1);
    lmod *cur = NULL;
    if (lua_type(L, 1) == LUA_TTABLE) {
        lua_getfield(L, 1, "handle");
        cur = (lmod *)luaL_testudata(L, -1, CLV_LUA_MOD);
        lua_pop(L, 1);
    } else {
        cur = (lmod *)luaL_testudata(L, 1, CLV_LUA_MOD);
    }
    if (cur == NULL) {
        return luaL_typeerror(L, 1, "mod table (from cleave.load_mod)");
    }
    if (cur->mod == NULL) {
        return luaL_argerror(L, 1, "the mod was freed");
    }
    lua_settop(L, 1);
    mod_meta(L);
    lmod *m = (lmod *)lua_newuserdatauv(L, sizeof *m, 0); /* 2 */
    m->mod = NULL;
    luaL_setmetatable(L, CLV_LUA_MOD);
    char err[2048];
    m->mod = clv_mod_reload(cur->mod, err, sizeof err);
    if (m->mod == NULL) {
        lua_pushstring(L, err); /* raised as load_mod does: one convention for both */
        return lua_error(L);
    }
    return push_mod_table(L, 2);
}

const luaL_Reg clv_lua_mod_funcs[] = {
    {"load_mod", l_load_mod},
    {"reload_mod", l_reload_mod},
    {NULL, NULL},
};
