/* cleave mods from C: load a weapon mod folder (mods/<name>/mod.lua) in its own sandbox,
 * validated and compiled into cleave_hit weapons, for programs that drive the arena in C (the
 * demo, `cleave render`, `cleave check`). The same loader backs `cleave.load_mod` in Lua.
 *
 * A loaded mod owns its sandbox (the Lua state its callbacks live in) and its compiled
 * weapons; nothing of it is shared with another mod. Reloading is a transaction
 * (clv_mod_reload): the folder loads anew in a fresh sandbox under the same limits, is
 * validated and runs the mod's selftest; only then does the caller swap it in, at a frame
 * boundary. On any failure the current version is untouched and keeps running.
 */
#ifndef CLEAVE_MOD_H
#define CLEAVE_MOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cleave/body.h"
#include "cleave/hit.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A loaded mod.
typedef struct clv_mod clv_mod;

/// Loads the mod in folder dir (which holds mod.lua). Returns NULL on any error and writes a
/// message naming file, line and field to err (size errlen), e.g.
/// "mods/scythe/mod.lua:13: attacks.swing.frames[6][2].radius must be > 0 (got -3)". The
/// message is one line (no traceback).
clv_mod *clv_mod_load(const char *dir, char *err, size_t errlen);

/// Limits of a mod's sandbox (see docs/reliability.md).
typedef struct clv_mod_limits {
    size_t memory_bytes; ///< allocator budget of the mod's Lua state (default 64 MiB)
    double load_ms;      ///< CPU deadline for running mod.lua, and again for its selftest (250)
    double callback_ms;  ///< CPU deadline for one callback (default 2 ms)
} clv_mod_limits;

/// The default limits: 64 MiB, 250 ms per load, 2 ms per callback; a mod's callbacks of one
/// frame share the sandbox's 5 ms of CPU, which these limits do not change.
clv_mod_limits clv_mod_default_limits(void);

/// clv_mod_load under the given limits (NULL: the defaults). Time limits must be finite and
/// > 0 ms, memory at least 65536 bytes, else NULL with "mod limits: ..." in err.
clv_mod *clv_mod_load_with(const char *dir, const clv_mod_limits *limits, char *err, size_t errlen);

/// Loads current's folder anew as one transaction: a fresh sandbox under current's limits,
/// mod.lua run under the load deadline, the table validated and the weapons compiled, then the
/// mod's `selftest` function (if its table has one) called with the mod table under a new load
/// deadline. Returns the new mod, or NULL with a one-line "file:line: message" in err; current
/// is never modified either way. Attacks already started keep the weapons they started with
/// (an arena copies a weapon when it is added), so the caller may free current once it has
/// swapped in the new mod; current's callbacks then no longer run.
clv_mod *clv_mod_reload(const clv_mod *current, char *err, size_t errlen);

/// The folder the mod was loaded from, as given (owned by the mod).
const char *clv_mod_dir(const clv_mod *mod);

/// The limits the mod was loaded under (the defaults for NULL).
clv_mod_limits clv_mod_get_limits(const clv_mod *mod);

/// Frees the mod, its sandbox and its weapons. NULL is ignored.
void clv_mod_free(clv_mod *mod);

/// The mod's name as its table gave it (owned by the mod).
const char *clv_mod_name(const clv_mod *mod);
/// The mod's version as its table gave it (owned by the mod).
const char *clv_mod_version(const clv_mod *mod);

/// Number of weapons of the mod.
int32_t clv_mod_weapon_count(const clv_mod *mod);
/// Name (the key in the mod's weapons table) of weapon index, 0-based in name order; NULL when
/// out of range.
const char *clv_mod_weapon_name(const clv_mod *mod, int32_t index);
/// Compiled weapon index (owned by the mod, valid until clv_mod_free); NULL when out of range.
const clv_weapon *clv_mod_weapon(const clv_mod *mod, int32_t index);
/// A weapon may be listed under several names: the index of the first name of the same weapon
/// (index itself when no earlier name lists it); -1 when out of range. The mod copies such a
/// weapon once (clv_mod_add_weapons gives every name of it the same id and its on_hit runs
/// once per hit).
int32_t clv_mod_weapon_first(const clv_mod *mod, int32_t index);

/// An allocator charged to the mod's memory budget, for an arena that holds only this mod's
/// weapons (cleave render and check): the arena's copies then count like the mod's own tables.
/// The arena must be destroyed before the mod.
clv_allocator clv_mod_allocator(clv_mod *mod);

/// Copies every weapon of the mod into arena (in clv_mod_weapon order, each weapon once however
/// many names list it) and remembers their
/// arena ids, so that clv_mod_run_callbacks knows which events are the mod's. out (may be NULL)
/// receives clv_mod_weapon_count ids. Calling it again (same or another arena) replaces the
/// remembered ids. false with a message in err on error.
bool clv_mod_add_weapons(clv_mod *mod, clv_arena *arena, clv_weapon_id *out, char *err,
                         size_t errlen);

/// Number of bodies of the mod (its table's optional `bodies`, cleave.body{...} by name).
int32_t clv_mod_body_count(const clv_mod *mod);
/// Name (the key in the mod's bodies table) of body index, 0-based in name order; NULL when out
/// of range.
const char *clv_mod_body_name(const clv_mod *mod, int32_t index);
/// Body index (owned by the mod, valid until clv_mod_free); NULL when out of range.
const clv_body *clv_mod_body(const clv_mod *mod, int32_t index);
/// Copies every body of the mod into arena, in clv_mod_body order; out (may be NULL) receives
/// clv_mod_body_count ids. Each call adds new copies (an arena keeps its bodies until it is
/// destroyed). false with a message in err on error; the bodies added before it stay.
bool clv_mod_add_bodies(const clv_mod *mod, clv_arena *arena, clv_body_id *out, char *err,
                        size_t errlen);

/// Runs the mod's Lua callbacks for the events of the frame the arena just stepped: each
/// weapon's on_hit for the hits of that weapon, and the on_tick of each effect the mod's
/// weapons define for the ticks of that name. They run in the mod's sandbox through its
/// protected path and receive plain tables (entities as integer ids). Errors do not stop the
/// game: each is written to err ("file:line: message" and a traceback, at most 1023 bytes)
/// followed by a NUL, and the list ends with an empty message, so that err read as a string is
/// the first; a message that no longer fits is left out (the first is cut to fit). The result
/// is true only when every callback succeeded. The arena must be the one given to the last
/// clv_mod_add_weapons.
bool clv_mod_run_callbacks(clv_mod *mod, clv_arena *arena, char *err, size_t errlen);

/// Copies text s into out (size outlen, always terminated, cut at a whole character) with every
/// byte that is not printable UTF-8 (control bytes, DEL, malformed sequences, C1 controls,
/// characters that reorder a terminal's text) written as a Lua decimal escape ("\27"), so that
/// text a mod provides cannot move a terminal's cursor or forge a line of output. Returns out.
const char *clv_mod_escape(const char *s, char *out, size_t outlen);

#ifdef __cplusplus
}
#endif

#endif
