/* cleave mods from C: load a weapon mod folder (mods/<name>/mod.lua) in its own sandbox,
 * validated and compiled into cleave_hit weapons, for programs that drive the arena in C (the
 * demo, `cleave render`, `cleave check`). The same loader backs `cleave.load_mod` in Lua.
 *
 * A loaded mod owns its sandbox (the Lua state its callbacks live in) and its compiled
 * weapons; nothing of it is shared with another mod. Reloading is loading anew: keep the old
 * clv_mod until the new one loaded without error, then swap them at a frame boundary.
 */
#ifndef CLEAVE_MOD_H
#define CLEAVE_MOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cleave/hit.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A loaded mod.
typedef struct clv_mod clv_mod;

/// Loads the mod in folder dir (which holds mod.lua). Returns NULL on any error and writes a
/// message naming file, line and field to err (size errlen), e.g.
/// "mods/scythe/mod.lua:14: attacks.swing.frames[6][2].radius must be > 0 (got -3)".
clv_mod *clv_mod_load(const char *dir, char *err, size_t errlen);

/// Frees the mod, its sandbox and its weapons. NULL is ignored.
void clv_mod_free(clv_mod *mod);

/// The mod's name and version as its table gave them.
const char *clv_mod_name(const clv_mod *mod);
const char *clv_mod_version(const clv_mod *mod);

/// Number of weapons, and each one's name and compiled weapon (owned by the mod).
int32_t clv_mod_weapon_count(const clv_mod *mod);
const char *clv_mod_weapon_name(const clv_mod *mod, int32_t index);
const clv_weapon *clv_mod_weapon(const clv_mod *mod, int32_t index);

/// Runs the mod's Lua callbacks (on_hit, effect ticks) for the events of the frame the arena
/// just stepped, through the sandbox's protected path. Errors do not stop the game: they are
/// written to err (file:line: message) and true is returned only when every callback
/// succeeded. `weapon` is the arena id the program got when adding this mod's weapons.
bool clv_mod_run_callbacks(clv_mod *mod, clv_arena *arena, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
