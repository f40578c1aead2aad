/* Private to the cleave.arena binding (arena*.c): the arena, entity and attack userdata and
 * the helpers its files share. */
#ifndef CLEAVE_LUA_ARENA_INTERNAL_H
#define CLEAVE_LUA_ARENA_INTERNAL_H

#include "cleave/body.h"
#include "internal.h"

#define DEG (180.0 / CLV_PI)
#define RAD (CLV_PI / 180.0)

/* Slots of the arena's user value table. */
enum {
    UV_WEAPONS = 1,  /* weapon userdata -> arena index1; index1 -> weapon userdata */
    UV_HANDLES = 2,  /* entity index1 -> cleave.Entity of the current generation */
    UV_ON_HIT = 3,   /* list of functions */
    UV_ON_ERROR = 4, /* function or nil */
    UV_ERRORS = 5,   /* messages of the last step */
    UV_BODIES = 6,   /* body userdata -> arena index1; index1 -> body userdata */
    UV_COUNT = 6
};

typedef struct larena {
    clv_arena *a;
    /* the hits and misses of the last step: hit_list and miss_list are the arena's own lists
     * after a step of one frame (until the next step or restore), hits and misses (A's copies)
     * after a step of several */
    const clv_hit_event *hit_list;
    const clv_miss_record *miss_list;
    clv_hit_event *hits;
    int32_t hit_count, hit_cap;
    clv_miss_record *misses;
    int32_t miss_count, miss_cap;
    clv_tick_event *ticks;
    int32_t tick_count, tick_cap;
    clv_lweapon **weapons; /* by arena index1 - 1 (anchored by the UV_WEAPONS table) */
    int32_t weapon_count, weapon_cap;
    int32_t callback_weapons; /* how many of weapons have a Lua callback (on_hit, on_tick...) */
    int32_t on_hit_count;     /* length of UV_ON_HIT */
    int32_t error_count;      /* length of UV_ERRORS */
    int32_t in_callbacks;     /* > 0 while the callbacks of a frame run */
    clv_lalloc alloc;         /* the state's: the arena and the event lists count against it */

    /* the clashes and projectile events of the last step (arena_meet.c) */
    clv_clash_event *clashes;
    int32_t clash_count, clash_cap;
    clv_projectile_event *pevents;
    int32_t pevent_count, pevent_cap;
} larena;

typedef struct lentity {
    clv_entity_id id;
} lentity;

typedef struct lattack {
    clv_attack_id id;
    larena *arena; /* kept alive by the handle's user value; read on every running() */
} lattack;

/// The last object of a type (arena, attack handle) whose self check passed, per state: upvalue
/// 2 of the type's methods (upvalue 1 is its metatable). The object a game calls every frame is
/// then recognized by one comparison instead of a trip of its metatable through the stack. Only
/// an object not yet collected is remembered (an open arena, a handle with its arena), and the
/// type's __gc forgets it, so the address never names another object. A light userdata of the
/// same address passes too; only C code can make one.
typedef struct clv_lmemo {
    const void *last;
} clv_lmemo;

/* arena.c */
/// The userdata at arg when its metatable is the one the running method was registered with.
void *clv_larena_self(lua_State *L, int arg);
/// The userdata at arg when it is the one the running method's memo holds, else NULL.
static inline void *clv_larena_recall(lua_State *L, int arg) {
    const clv_lmemo *m = (const clv_lmemo *)lua_touserdata(L, lua_upvalueindex(2));
    void *p = lua_touserdata(L, arg);
    return m != NULL && p != NULL && p == m->last ? p : NULL;
}
/// Makes p, just checked by clv_larena_self, the running method's memo.
void clv_larena_remember(lua_State *L, const void *p);
/// Empties the running function's memo when it holds p (the type's __gc).
void clv_larena_forget(lua_State *L, const void *p);
/// The open arena at arg; raises otherwise. Only for the arena's methods (their upvalues).
larena *clv_larena_check(lua_State *L, int arg);
/// Pushes slot `slot` of the arena's user value table.
void clv_larena_uv(lua_State *L, int arena_idx, int slot);
/// Pushes slot `slot` (bodies or weapons) and returns the arena id's index it holds for the
/// userdata at idx, 0 when it holds none; the table stays on the stack.
uint32_t clv_larena_cached(lua_State *L, int arena_idx, int slot, int idx);
/// Records index1 for the userdata at idx, both ways, in the table clv_larena_cached left on
/// the stack, and pops it.
void clv_larena_cache(lua_State *L, int idx, uint32_t index1);
/// A frame count argument: an integer in 0..hi; raises an argument error otherwise.
lua_Integer clv_larena_frames_arg(lua_State *L, int arg, lua_Integer hi);

/* arena_defs.c: the definition tables of cleave.arena, arena:spawn and arena:attack */
int clv_larena_new(lua_State *L);
int clv_larena_spawn(lua_State *L);
int clv_larena_attack(lua_State *L);
/// arena:attack (throw false) and arena:throw (throw true): the same table, the same checks.
int clv_larena_start(lua_State *L, bool throw);

/* arena_body.c: bodies, facing, filters, armor, guard and grabs */
/// What arena:spawn reads beyond clv_entity_def, checked before the entity exists.
typedef struct clv_larena_spawn_extra {
    int body_idx;      /* stack index of the cleave.Body, or 0 */
    int32_t animation; /* its index in the body */
    float facing;      /* radians */
    bool mirror, airborne;
} clv_larena_spawn_extra;
/// Applies x to the entity just spawned (the arena at stack index 1); removes it and raises
/// when that fails.
void clv_larena_spawn_body(lua_State *L, larena *A, clv_entity_id id,
                           const clv_larena_spawn_extra *x);
/// The arena id of the body userdata at bidx, copying it into the arena on first use.
clv_body_id clv_larena_body(lua_State *L, int arena_idx, larena *A, int bidx);
/// Sets the body fields of entity id (body, animation, frame, facing...) in the table at the top.
void clv_larena_push_body_info(lua_State *L, int arena_idx, larena *A, clv_entity_id id);
extern const luaL_Reg clv_larena_body_methods[];
extern const luaL_Reg clv_larena_body_entity_methods[];

/* arena_events.c: event tables and the callbacks of a frame */
void clv_larena_set_num(lua_State *L, const char *k, double v);
void clv_larena_set_int(lua_State *L, const char *k, lua_Integer v);
void clv_larena_set_str(lua_State *L, const char *k, const char *v);
void clv_larena_set_bool(lua_State *L, const char *k, bool v);
void clv_larena_push_hit(lua_State *L, int arena_idx, const larena *A, const clv_hit_event *h);
void clv_larena_push_miss(lua_State *L, int arena_idx, const larena *A, const clv_miss_record *m);
void clv_larena_push_tick(lua_State *L, int arena_idx, const clv_tick_event *t);
/// Where the events of the frame just stepped begin in the arena's lists.
typedef struct clv_larena_marks {
    int32_t hits, ticks, clashes, pevents;
} clv_larena_marks;
/// Runs the callbacks of the frame just stepped (the events from the marks on).
void clv_larena_run_callbacks(lua_State *L, int arena_idx, larena *A, const clv_larena_marks *from);

/// The arena id of the weapon userdata at widx, adding it on first use.
clv_weapon_id clv_larena_weapon(lua_State *L, int arena_idx, larena *A, int widx);

/* arena_meet.c: attacks that meet, projectiles */
/// Keeps the clashes and projectile events of the frame just stepped.
void clv_larena_keep_meetings(lua_State *L, larena *A);
void clv_larena_free_meetings(larena *A);
/// Pushes a clash (sides = {side 1, side 2}) and a projectile event with entity handles.
void clv_larena_push_clash(lua_State *L, int arena_idx, const larena *A, const clv_clash_event *c);
void clv_larena_push_projectile_event(lua_State *L, int arena_idx, const larena *A,
                                      const clv_projectile_event *e);
extern const luaL_Reg clv_larena_meet_methods[];

/* arena_handles.c: cleave.Entity and cleave.Attack */
/// Entity state names by clv_entity_state, NULL-terminated.
extern const char *const clv_larena_states[];
int clv_larena_push_entity(lua_State *L, int arena_idx, clv_entity_id id);
/// Pushes a new cleave.Attack handle of attack id, which keeps the arena at arena_idx alive.
int clv_larena_push_attack(lua_State *L, int arena_idx, larena *A, clv_attack_id id);
/// The entity handle at arg; its arena in *out; raises when it is gone.
lentity *clv_larena_check_entity(lua_State *L, int arg, larena **out);
/// The name given at spawn, or NULL.
const char *clv_larena_entity_name(lua_State *L, int handle_idx);
extern const luaL_Reg clv_larena_entity_methods[];
extern const luaL_Reg clv_larena_entity_metamethods[];
extern const luaL_Reg clv_larena_attack_methods[];
/// __gc of cleave.Attack: forgets the handle (clv_lmemo).
int clv_larena_attack_gc(lua_State *L);

#endif
