/* Private to the Lua binding: the shape userdata and the argument checkers every function
 * shares, so that all messages have one shape: "bad argument #N to 'f' (<name> must <rule>,
 * got <value>)". */
#ifndef CLEAVE_LUA_INTERNAL_H
#define CLEAVE_LUA_INTERNAL_H

#include <stdbool.h>

#include <lauxlib.h>
#include <lua.h>

#include "cleave/collide.h"
#include "cleave/hit.h"
#include "cleave/lua.h"
#include "cleave/mod.h"

/// A number exactly as Lua gave it: an integer stays an integer.
typedef struct clv_lnum {
    bool is_int;
    lua_Integer i; ///< the value when is_int
    lua_Number n;  ///< the value otherwise
} clv_lnum;

/// Most numbers a shape is made of (capsule and obb take five).
#define CLV_LUA_MAX_NUMS 5

/// The userdata behind cleave.Shape. Immutable once built.
typedef struct clv_lshape {
    clv_shape f;                  ///< float form, built once at construction
    int count;                    ///< how many numbers the constructor took
    clv_lnum v[CLV_LUA_MAX_NUMS]; ///< the constructor's arguments, as given
} clv_lshape;

/// Parameter names of each kind's constructor, indexed by clv_shape_type.
extern const char *const clv_lua_param_names[CLV_SHAPE_TYPE_COUNT][CLV_LUA_MAX_NUMS];

/// Lower-case name of a shape kind ("capsule").
const char *clv_lua_kind_name(clv_shape_type type);

/// luaL_argerror for methods: a function called through pcall(f, ...) has no name at its call
/// site, and luaL_argerror finds module functions in package.loaded but not methods, which this
/// looks up in the method table of the first argument.
int clv_lua_argerror(lua_State *L, int arg, const char *msg);
/// luaL_typeerror through clv_lua_argerror.
int clv_lua_typeerror(lua_State *L, int arg, const char *expected);

/// Raises an error when the call has more than n arguments ("no value expected, got ...").
void clv_lua_check_nargs(lua_State *L, int n);

/// The name in the NULL-terminated list `known` closest to `key` by edit distance, when it is
/// close enough to be a likely typo (at most half the key's length in edits, 1 to 3), else NULL.
const char *clv_lua_nearest(const char *key, const char *const *known);

/// true when the len bytes at s are printable UTF-8 without control bytes (what a name shown
/// in a terminal, a log or a file may hold); else false, with why the first bad byte is bad
/// ("holds a NUL byte (\0 at byte 2); ...") in why.
bool clv_lua_name_ok(const char *s, size_t len, char *why, size_t whylen);

/// Pushes a number as text: integers without ".0", floats with the fewest digits that read
/// back to the same value, "inf", "-inf", "nan".
void clv_lua_push_lnum(lua_State *L, clv_lnum v);

/// The number at arg, checked for the float API: a number (not a numeric string), not nan,
/// finite and within float range. `pname` names it in messages ("radius").
clv_lnum clv_lua_check_lnum(lua_State *L, int arg, const char *pname);

/// A checked number as a float (checks guarantee it fits).
float clv_lua_lnum_float(clv_lnum v);

/// A checked number as a Lua float (lua_Number).
lua_Number clv_lua_lnum_number(clv_lnum v);

/// The cleave.Shape at arg, or an argument error "cleave.Shape expected, got <type>".
clv_lshape *clv_lua_check_lshape(lua_State *L, int arg);

/// Registers the Shape metatable (idempotent) and leaves it on the stack.
void clv_lua_shape_meta(lua_State *L);

/// The module functions of each file, registered by luaopen_cleave.
extern const luaL_Reg clv_lua_shape_funcs[];
extern const luaL_Reg clv_lua_query_funcs[];
extern const luaL_Reg clv_lua_exact_funcs[];
extern const luaL_Reg clv_lua_weapon_funcs[];
extern const luaL_Reg clv_lua_arena_funcs[];
extern const luaL_Reg clv_lua_mod_funcs[];

/* ---- memory of userdata (lalloc.c) ---- */

/// A Lua state's allocator, kept in a userdata for the C memory that userdata owns: charged to
/// the state (in a sandbox, to the mod's budget) and given back through the same function.
typedef struct clv_lalloc {
    lua_Alloc f;
    void *ud;
} clv_lalloc;

/// The allocator of state L.
clv_lalloc clv_lua_lalloc(lua_State *L);
/// Resizes p from osize to nsize bytes (p NULL: allocates; nsize 0: frees and returns NULL).
/// NULL when the allocator refuses; p is then unchanged.
void *clv_lalloc_resize(const clv_lalloc *a, void *p, size_t osize, size_t nsize);
/// A cleave_hit allocator hook over a (which must outlive every object made with the hook).
clv_allocator clv_lalloc_hook(clv_lalloc *a);

/* ---- weapons (weapon.c) ---- */

/// Userdata type names of the weapon, arena and handle objects.
#define CLV_LUA_WEAPON "cleave.Weapon"
#define CLV_LUA_ARENA "cleave.Arena"
#define CLV_LUA_ENTITY "cleave.Entity"
#define CLV_LUA_ATTACK "cleave.Attack"
#define CLV_LUA_MOD "cleave.Mod"

/// One hitbox of a weapon's recipe: frames first..last (0-based) of an attack.
typedef struct clv_lentry {
    int32_t attack, first, last;
    clv_hitbox_def def;
} clv_lentry;

/// An effect's Lua on_tick callback (a registry reference in the weapon's callback state).
typedef struct clv_leffect_cb {
    char name[CLV_HIT_NAME_MAX];
    int ref;
} clv_leffect_cb;

/// The userdata behind cleave.Weapon: the validated recipe (kept so a weapon can be copied to
/// another Lua state and listed for coverage) and the clv_weapon compiled from it.
typedef struct clv_lweapon {
    char name[CLV_HIT_NAME_MAX];
    clv_attack_def *attacks;
    int32_t attack_count, attack_cap;
    clv_lentry *entries;
    int32_t entry_count, entry_cap;
    clv_leffect_cb *effects;
    int32_t effect_count, effect_cap;
    clv_weapon *compiled;
    bool borrowed;    ///< compiled belongs to another weapon userdata (kept alive by `host`)
    int on_hit_ref;   ///< registry reference of on_hit, or LUA_NOREF
    clv_mod *host;    ///< NULL: the callbacks live in this state; else in this mod's sandbox
    clv_lalloc alloc; ///< the state's allocator: recipe arrays and the compiled weapon
} clv_lweapon;

/// Registers the Weapon metatable (idempotent) and leaves it on the stack.
void clv_lua_weapon_meta(lua_State *L);
/// Pushes a new, empty weapon userdata.
clv_lweapon *clv_lua_new_weapon(lua_State *L);
/// Copies src's recipe into the empty dst and shares its compiled weapon (callback refs are
/// copied as numbers: the caller sets dst->host, which must keep src alive). false when out of
/// memory.
bool clv_lua_weapon_copy(lua_State *L, clv_lweapon *dst, const clv_lweapon *src);
/// The cleave.Weapon at arg, or an argument error.
clv_lweapon *clv_lua_check_weapon(lua_State *L, int arg);
/// Index of the attack named by the string at arg, or an argument error.
int32_t clv_lua_check_attack(lua_State *L, const clv_lweapon *w, int arg);
/// Pushes a table describing a compiled hitbox (id, shape, damage, ...).
void clv_lua_push_hitbox_def(lua_State *L, const clv_hitbox_def *d);

/* ---- arenas (arena.c) ---- */

/// Registers the Arena, Entity and Attack metatables (idempotent).
void clv_lua_arena_meta(lua_State *L);
/// Pushes a hit as a plain table (entities as integer ids): what a mod's callback receives.
void clv_lua_push_hit_plain(lua_State *L, const clv_hit_event *h, const clv_lweapon *w,
                            const clv_hitbox_def *d);
/// Pushes a status effect tick as a plain table.
void clv_lua_push_tick_plain(lua_State *L, const clv_tick_event *t);

/* ---- mods (mod.c) ---- */

/// clv_mod_load_with whose sandbox allocator refuses its fail_after-th growing request and every
/// one after it (0: never), for allocation-failure sweeps. limits are not checked.
clv_mod *clv_mod_load_failing(const char *dir, const clv_mod_limits *limits, long fail_after,
                              char *err, size_t errlen);
/// Calls the mod's callback ref (a registry reference in its state) with the event table of
/// hit h (with its weapon w and hitbox d) or, when h is NULL, of tick t, through the mod's
/// protected path; the table is built inside the protected call. false and a message in err on
/// failure.
bool clv_mod_call_event(clv_mod *mod, int ref, const clv_hit_event *h, const clv_lweapon *w,
                        const clv_hitbox_def *d, const clv_tick_event *t, char *err, size_t errlen);
/// The sandbox state of a mod, for calling its callbacks.
lua_State *clv_mod_state(clv_mod *mod);
/// Calls the function below nargs arguments on the mod's stack through its protected path;
/// false and a message in err on failure.
bool clv_mod_call(clv_mod *mod, int nargs, char *err, size_t errlen);

#endif
