/* Private to the mod host (mod.c, sandbox_lua.c, module.c) and its tests. */
#ifndef CLEAVE_LUA_MOD_INTERNAL_H
#define CLEAVE_LUA_MOD_INTERNAL_H

#include "cleave/mod.h"
#include "internal.h"

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
