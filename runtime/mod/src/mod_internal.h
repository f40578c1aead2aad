/* Private to the mod host (mod.c, sandbox_lua.c, module.c) and its tests. */
#ifndef CLEAVE_LUA_MOD_INTERNAL_H
#define CLEAVE_LUA_MOD_INTERNAL_H

#include "cleave/mod.h"
#include "internal.h"

/* A loaded mod (mod.c keeps it; mod_lua.c hands it to Lua). */
struct clv_mod {
    clv_sandbox *sb;
    char *dir;                 /* the folder as given, for clv_mod_reload */
    clv_sandbox_limits limits; /* a reload runs under the same */
    /* What the host keeps of the mod's data (names, the weapon list) is allocated through the
     * sandbox's allocator, so it counts against the mod's memory budget like its tables do. */
    clv_lalloc la;
    char *name;
    char *version;
    int32_t weapon_count;
    char **weapon_names;
    clv_lweapon **weapons; /* userdata of the sandbox state, anchored by table_ref */
    int32_t *first;        /* index of the first name of the same weapon (itself if none) */
    int32_t body_count;
    char **body_names;
    const clv_body **bodies; /* of cleave.Body userdata of the sandbox state, anchored likewise */
    int table_ref;
    /* the arena and ids of the weapons, after clv_mod_add_weapons */
    const clv_arena *arena;
    clv_weapon_id *arena_ids;
};

/// cleave.load_mod and cleave.reload_mod.
extern const luaL_Reg clv_lua_mod_funcs[];

/// clv_mod_load_with whose sandbox allocator refuses its fail_after-th growing request and every
/// one after it (0: never), for allocation-failure sweeps. limits are not checked.
clv_mod *clv_mod_load_failing(const char *dir, const clv_mod_limits *limits, long fail_after,
                              char *err, size_t errlen);

/// `require "cleave.sandbox"`: pushes the read-only sandbox API table (new) for scripts and
/// tests; see docs/reliability.md. Lua finds it inside cleave.so by its name.
CLV_LUA_EXPORT int luaopen_cleave_sandbox(lua_State *L);

/// Sets field "sandbox" of the table on top of the stack to the same table, for a
/// luaopen_cleave that wants to offer `cleave.sandbox` (mods never see it: the sandbox removes
/// it from the `cleave` table of every mod state).
void clv_lua_sandbox_register(lua_State *L);

#endif
