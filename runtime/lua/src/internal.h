/* Private to the Lua binding: the shape userdata and the argument checkers every function
 * shares, so that all messages have one shape: "bad argument #N to 'f' (<name> must <rule>,
 * got <value>)". */
#ifndef CLEAVE_LUA_INTERNAL_H
#define CLEAVE_LUA_INTERNAL_H

#include <stdbool.h>

#include <lauxlib.h>
#include <lua.h>

#include "cleave/body.h"
#include "cleave/collide.h"
#include "cleave/hit.h"
#include "cleave/lua.h"
#include "sandbox.h"

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

/// Creates the metatable of userdata type name and pushes it: the metamethods (NULL: none),
/// __index a table of the methods, and __metatable false. With self_upvalue each method gets the
/// metatable as upvalue 1, so that it can check its self by one comparison. When the state has
/// the metatable already, pushes it unchanged and returns false.
bool clv_lua_createmeta(lua_State *L, const char *name, const luaL_Reg *metamethods,
                        const luaL_Reg *methods, bool self_upvalue);

/// Raises an error when the call has more than n arguments ("no value expected, got ...").
void clv_lua_check_nargs(lua_State *L, int n);

/// The name in the NULL-terminated list `known` closest to `key` by edit distance, when it is
/// close enough to be a likely typo (at most half the key's length in edits, 1 to 3), else NULL.
const char *clv_lua_nearest(const char *key, const char *const *known);

/// true when the len bytes at s are printable UTF-8 without control bytes (what a name shown
/// in a terminal, a log or a file may hold); else false, with why the first bad byte is bad
/// ("holds a NUL byte (\0 at byte 2); ...") in why.
bool clv_lua_name_ok(const char *s, size_t len, char *why, size_t whylen);
/// Copies s into out with every byte that is not printable UTF-8 written as a Lua decimal
/// escape (the contract of clv_mod_escape in cleave/mod.h). Returns out.
const char *clv_lua_escape(const char *s, char *out, size_t outlen);

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
extern const luaL_Reg clv_lua_body_funcs[];
extern const luaL_Reg clv_lua_frames_funcs[];
/// Registry key of the folder whose frames/ cleave.frames reads; set by the mod host.
#define CLV_LUA_MOD_DIR "cleave.mod_dir"
/// Sets it for the state of a mod being loaded from dir; false when out of memory.
bool clv_lua_frames_set_dir(lua_State *L, const char *dir);

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
/// Makes room for need elements of elem bytes in the array *p of capacity *cap; false when the
/// allocator refuses (*p and *cap are then unchanged).
bool clv_lalloc_grow(const clv_lalloc *a, void **p, int32_t *cap, int32_t need, size_t elem);
/// A cleave_hit allocator hook over a (which must outlive every object made with the hook).
clv_allocator clv_lalloc_hook(clv_lalloc *a);

/* ---- table fields (fields.c) ---- */

/// Registry keys of the weak tables that tag a table with its call site ("file:line") and kind.
#define CLV_LUA_TAG_WHERE "cleave.where"
#define CLV_LUA_TAG_KIND "cleave.kind"

/// Pushes "file:line" of the nearest Lua function up the stack from the running C function.
void clv_lua_push_call_site(lua_State *L);
/// Tags the table at idx with the caller's line and a kind ("hitbox", "arc"...).
void clv_lua_tag_table(lua_State *L, int idx, const char *kind);
/// The tag (CLV_LUA_TAG_WHERE or CLV_LUA_TAG_KIND) of the table at idx, or NULL; the string
/// stays anchored in the weak table while the table lives.
const char *clv_lua_table_tag(lua_State *L, int idx, const char *key);

/// Where a reader is: the file and line of the innermost tagged table (or the function's name),
/// the field path ("attacks.swing.frames[6][2]") that every message names, and the name of the
/// table at the empty path ("weapon"; NULL when where already names it).
typedef struct clv_fctx {
    lua_State *L;
    char path[400];
    size_t plen;
    const char *where;
    const char *table;
    bool at_caller;     /* failures start with the calling Lua line's position (a method's table) */
    const char *remark; /* said after the path while it reaches remark_at (clv_f_remark) */
    size_t remark_at;
} clv_fctx;

/// Raises "where: path msg" (the field at the path is at fault).
int clv_f_fail(clv_fctx *c, const char *fmt, ...);
/// Raises "where: path: msg" (the table at the path is at fault; "where: table: msg" or
/// "where: msg" when the path is empty).
int clv_f_fail_at(clv_fctx *c, const char *fmt, ...);
/// Extends the path by .key (or ["key"]) or by [i]; returns the length to give clv_f_pop.
size_t clv_f_key(clv_fctx *c, const char *key);
size_t clv_f_index(clv_fctx *c, lua_Integer i);
/// Says text (" (from the weapon's defaults)") after the path in messages about the field
/// just entered and the fields inside it; clv_f_pop back out of that field drops it.
void clv_f_remark(clv_fctx *c, const char *text);
void clv_f_pop(clv_fctx *c, size_t old);
/// Enters the table at idx: takes its call-site line when it has one. Returns the old where.
const char *clv_f_enter(clv_fctx *c, int idx);
/// The position of k in the NULL-terminated list known, or -1.
int clv_f_name_at(const char *k, const char *const *known);
/// true when k is in the NULL-terminated list known.
bool clv_f_in_list(const char *k, const char *const *known);
/// Every key of the table at idx must be a string in known (or, with allow_array, a positive
/// integer); else an error naming the nearest known field.
void clv_f_check_keys(clv_fctx *c, int idx, const char *const *known, bool allow_array);
/// The value at idx must be a table whose keys are all in known; enters it (clv_f_enter).
const char *clv_f_enter_fields(clv_fctx *c, int idx, const char *const *known);
/// The type of the value at idx as a message shows it ("integer", "cleave.Shape", "string").
const char *clv_f_type_name(lua_State *L, int idx);
/// The value at idx as a message quotes it (a number as written, a string in quotes).
const char *clv_f_value_text(lua_State *L, int idx);
/// The number at the top, finite and within float range; pops it.
double clv_f_number(clv_fctx *c);
/// The integer at the top (an integral float too), in lo..hi; pops it.
lua_Integer clv_f_integer(clv_fctx *c, lua_Integer lo, lua_Integer hi);
/// Pushes field key of the table at idx and extends the path (*old for clv_f_pop); its type.
int clv_f_get(clv_fctx *c, int idx, const char *key, size_t *old);
/// Optional fields: false when absent; else checked and stored in *out.
bool clv_f_opt_number(clv_fctx *c, int idx, const char *key, double lo, bool gt, double *out);
bool clv_f_opt_any_number(clv_fctx *c, int idx, const char *key, double *out);
bool clv_f_opt_integer(clv_fctx *c, int idx, const char *key, lua_Integer lo, lua_Integer hi,
                       lua_Integer *out);
bool clv_f_opt_bool(clv_fctx *c, int idx, const char *key, bool *out);
/// A required number field.
double clv_f_req_number(clv_fctx *c, int t, const char *key);
/// The value at the top must be a list of two values {x, y}; else an error that says what
/// the table holds instead.
void clv_f_check_pair(clv_fctx *c);
/// An optional {x, y} field (left unchanged when absent).
void clv_f_point(clv_fctx *c, int t, const char *key, double *x, double *y);
/// Copies the name at the top (printable, at most CLV_HIT_NAME_MAX - 1 bytes) to out; pops it.
void clv_f_name(clv_fctx *c, char out[CLV_HIT_NAME_MAX]);
/// The keys of the table at tab, which must be names ("keys must be <what> names", at least
/// one), sorted so that an order never depends on hashing; pushes the array's userdata.
const char **clv_f_sorted_names(clv_fctx *c, int tab, const char *what, int *count);
/// The field frames of the hitbox table at hb: a frame or {first, last}, 1-based, within
/// 1..length (any frame when length is 0) of its owner ("attack", "animation").
void clv_f_frames(clv_fctx *c, int hb, const char *owner, int32_t length, int32_t *first,
                  int32_t *last);

/* ---- weapons (weapon.c reads the table, weapon_object.c is the userdata) ---- */

/// Userdata type names of the weapon, arena and handle objects.
#define CLV_LUA_WEAPON "cleave.Weapon"
#define CLV_LUA_ARENA "cleave.Arena"
#define CLV_LUA_ENTITY "cleave.Entity"
#define CLV_LUA_ATTACK "cleave.Attack"
#define CLV_LUA_MOD "cleave.Mod"

/// An effect's Lua on_tick callback (a registry reference in the weapon's callback state).
typedef struct clv_leffect_cb {
    char name[CLV_HIT_NAME_MAX];
    int ref;
} clv_leffect_cb;

/// The userdata behind cleave.Weapon: the clv_weapon compiled from the table (its data lives
/// there alone) and the references of its Lua callbacks.
typedef struct clv_lweapon {
    clv_weapon *compiled;
    clv_leffect_cb *effects;
    int32_t effect_count, effect_cap;
    bool borrowed;  ///< compiled and effects are another userdata's (kept alive by the user value)
    int on_hit_ref; ///< registry reference of on_hit, or LUA_NOREF
    int on_clash_ref;     ///< of on_clash (one of its hitboxes met another attack's), or LUA_NOREF
    int on_reflect_ref;   ///< of on_reflect (one of its hitboxes turned a projectile back)
    clv_sandbox *sandbox; ///< NULL: the callbacks live in this state; else in this sandbox's
    clv_lalloc alloc;     ///< the state's allocator: the effect list and the compiled weapon
    size_t charged;       ///< bytes charged to the mod's sandbox for an arena's copy of compiled
} clv_lweapon;

/// The hit data fields every hitbox table takes, whatever makes its shape (hitbox, arc, thrust):
/// spliced into each kind's list of fields.
#define CLV_LUA_HIT_DATA_FIELDS                                                                    \
    "group", "damage", "knockback", "max_hits", "knockback_ignores_hit_count", "hitlag",           \
        "hitlag_scale", "hitstun", "priority", "sweep", "effects", "clash", "parry_stun", "kind",  \
        "reflect_speed", "reflect_damage", "reflect_along", "chip", "blockstun", "shield_damage",  \
        "unblockable", "hits", "facing_restrict", "layer", "mask", "grab_offset"
/// The fields a hitbox takes besides id and frames (those a `defaults` table may give).
extern const char *const *const clv_lua_hit_fields;

/// The index in names (NULL-terminated) of the string at the top, popped; raises "must be
/// <said>" at the field otherwise.
int clv_lua_one_of(clv_fctx *c, const char *const *names, const char *said);
/// Reads the knockback table at the top into k (cleave_hit checks its numbers); pops it.
void clv_lua_read_knockback(clv_fctx *c, clv_knockback *k);
/// Reads the effect table at the top into out (named given_name, or by its name field) and
/// records its on_tick callback on w; pops it.
void clv_lua_read_effect(clv_fctx *c, clv_lweapon *w, const char *given_name, clv_effect_def *out);
/// Raises clv_hitbox_def_check's verdict d at the Lua field that holds the value ("shape.r"
/// is the radius, or shape when the hitbox gave a cleave.Shape; effects count from 1).
typedef const char *(*clv_lua_remark_fn)(const char *key, void *ud);
/// from_default(key, ud) (may be NULL) gives the remark for the hitbox's field key, "" for none.
void clv_lua_fail_check(clv_fctx *c, const clv_hit_diag *d, bool from_shape,
                        clv_lua_remark_fn from_default, void *ud);

/// Called by clv_lua_expand_generator with each hitbox table it makes (at stack index hb),
/// active on one frame (1-based).
typedef void (*clv_lua_emit)(void *ud, int hb, int32_t frame);
/// Expands the cleave.arc (arc true) or cleave.thrust table at g, for an attack of `length`
/// frames, into one capsule hitbox table per frame and link: the generator's hit fields with
/// that frame's geometry, handed to emit in order.
void clv_lua_expand_generator(clv_fctx *c, int g, bool arc, int32_t length, clv_lua_emit emit,
                              void *ud);

/// Registers the Weapon metatable (idempotent) and leaves it on the stack.
void clv_lua_weapon_meta(lua_State *L);
/// Pushes a new, empty weapon userdata.
clv_lweapon *clv_lua_new_weapon(lua_State *L);
/// Makes the empty dst share src's compiled weapon and callbacks (refs copied as numbers): the
/// caller sets dst->sandbox and a user value that keeps src alive.
void clv_lua_weapon_borrow(clv_lweapon *dst, const clv_lweapon *src);
/// The registry reference of the on_tick of w's effect `name`, or LUA_NOREF.
int clv_lua_effect_ref(const clv_lweapon *w, const char *name);
/* ---- bodies (body.c) ---- */

#define CLV_LUA_BODY "cleave.Body"
/// Registers the Body metatable (idempotent) and leaves it on the stack.
void clv_lua_body_meta(lua_State *L);
/// The body of the cleave.Body at idx, or NULL when idx holds none.
const clv_body *clv_lua_to_body(lua_State *L, int idx);
/// Reads the hurtbox table at t (id, state, heavy, shape; not frames) into def, checked by
/// cleave_hit's rule; raises at its field otherwise.
void clv_lua_read_hurtbox(clv_fctx *c, int t, clv_hurtbox_def *def);
/// Adds one hurtbox read by clv_lua_read_hurtbox_list over frames first..last (0-based);
/// raises at its field when refused.
typedef void (*clv_lua_add_hurtbox)(clv_fctx *c, void *ud, int32_t first, int32_t last,
                                    const clv_hurtbox_def *def);
/// The list at field "hurtboxes" of the table at `at`: each hurtbox over its `frames` (of the
/// `what`, "animation" or "attack", of `length` frames; default all of them), given to add.
void clv_lua_read_hurtbox_list(clv_fctx *c, int at, const char *what, int32_t length,
                               clv_lua_add_hurtbox add, void *ud);
/// Pushes a cleave.Body that reads body, a body of another state (a mod's) that the value at
/// keep keeps alive.
void clv_lua_push_borrowed_body(lua_State *L, const clv_body *body, int keep);

/// The weapon's name, and the name of its attack `attack` ("?" for a bad index).
const char *clv_lua_weapon_name(const clv_lweapon *w);
const char *clv_lua_attack_name(const clv_lweapon *w, int32_t attack);
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
/// One event a weapon callback hears, with what its plain table needs besides the event: exactly
/// one of hit, tick, clash and reflect is set.
typedef struct clv_lua_event {
    const clv_hit_event *hit; ///< with weapon (its weapon) and box[0] (its hitbox)
    const clv_tick_event *tick;
    const clv_clash_event *clash;        ///< with names and box of both sides, and side
    const clv_projectile_event *reflect; ///< a REFLECTED event, with names[0] (the projectile's)
    const clv_lweapon *weapon;
    const char *names[2]; ///< weapon names (NULL: "?")
    const clv_hitbox_def *box[2];
    int side; ///< clash: the callee's side, 0 or 1
} clv_lua_event;
/// Pushes the plain table of e (entities as integer ids): what a mod's callback receives.
void clv_lua_push_event_plain(lua_State *L, const clv_lua_event *e);
/// Pushes the plain table of a clash seen from side e->side, and of a reflection.
void clv_lua_push_clash_plain(lua_State *L, const clv_lua_event *e);
void clv_lua_push_reflect_plain(lua_State *L, const clv_lua_event *e);
/// Calls callback ref (a registry reference in sandbox sb's state) with the plain table of e
/// through the sandbox's callback path; the table is built inside the protected call, so
/// running out of memory is an error of that call. false and a message in err on failure.
bool clv_lua_call_event(clv_sandbox *sb, int ref, const clv_lua_event *e, char *err, size_t errlen);

#endif
