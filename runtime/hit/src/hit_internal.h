/* Private to cleave_hit: the storage behind clv_weapon and clv_arena. */
#ifndef CLEAVE_HIT_INTERNAL_H
#define CLEAVE_HIT_INTERNAL_H

#include "cleave/body.h"
#include "cleave/broadphase.h"
#include "cleave/hit.h"
#include "cleave/motion.h"

#include <math.h>
#include <stdarg.h>

/* ---- allocation through the owner's hook ---- */

void *clv__alloc(const clv_allocator *al, size_t size);
void clv__free(const clv_allocator *al, void *ptr, size_t size);
/* Grows *ptr (count used, *cap slots of elem bytes) to hold at least need slots. */
bool clv__reserve(const clv_allocator *al, void **ptr, int32_t *cap, int32_t need, size_t elem);

/* ---- diagnostics ---- */

void clv__diag_clear(clv_hit_diag *diag);
clv_hit_status clv__diag_set(clv_hit_diag *diag, clv_hit_status code, const char *field,
                             const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Puts prefix before the message already in diag (keeps code and field). */
void clv__diag_prefix(clv_hit_diag *diag, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
bool clv__finite(float v);
/// Finite and within +-CLV_WORLD_LIMIT.
bool clv__in_world(float v);
/// v clamped to +-CLV_WORLD_LIMIT (NaN, from inf - inf or 0 * inf, becomes 0). Inline: every
/// moving entity's step takes two, and the usual case, within the limit, is tested first.
static inline float clv__clamp_world(float v) {
    if (fabsf(v) <= CLV_WORLD_LIMIT) { /* false for NaN */
        return v;
    }
    if (v != v) {
        return 0.0f;
    }
    return v < 0.0f ? -CLV_WORLD_LIMIT : CLV_WORLD_LIMIT;
}
/* true when s is NUL-terminated within CLV_HIT_NAME_MAX bytes and not empty. */
bool clv__name_ok(const char *s);
clv_hit_status clv__check_shape(const clv_shape *s, const char *field, clv_hit_diag *diag);
/* How far from the origin a local shape reaches, in any turn (circle, capsule, obb; else 0). */
float clv__shape_reach(const clv_shape *s);
/* Checks that a weapon has attack `attack` and that first..last lie within its frames. */
clv_hit_status clv__check_attack_frames(const clv_weapon *w, int32_t attack, int32_t first,
                                        int32_t last, clv_hit_diag *diag);

/* Index of the attack called name among count attacks, or -1 (also for a NULL name). */
int32_t clv__find_attack(const clv_attack_def *attacks, int32_t count, const char *name);

/* ---- the editable weapon ---- */

typedef struct clv__hitbox_entry {
    int32_t attack, first, last;
    clv_hitbox_def def;
} clv__hitbox_entry;

/* A hurtbox an attack carries on frames first..last (weapon_hurt.c). */
typedef struct clv__hurt_entry {
    int32_t attack, first, last;
    clv_hurtbox_def def;
} clv__hurt_entry;

struct clv_weapon {
    clv_allocator al;
    char name[CLV_HIT_NAME_MAX];
    clv_attack_def *attacks;
    int32_t attack_count, attack_cap;
    clv__hitbox_entry *boxes;
    int32_t box_count, box_cap;
    int32_t frame_total;  /* frames of all attacks, <= CLV_WEAPON_MAX_FRAMES */
    int32_t placed_total; /* placed hitboxes, <= CLV_WEAPON_MAX_PLACED */
    clv__hurt_entry *hurts;
    int32_t hurt_count, hurt_cap;
    int32_t hurt_placed; /* carried hurtboxes, one per hurtbox and frame */
};

/* ---- a weapon compiled into an arena: immutable ---- */

typedef struct clv__box {
    clv_hitbox_def def;
    int32_t group_key; /* def.group, or a negative key of its own for CLV_GROUP_NONE */
    int32_t filters;   /* a grab, or hits / facing_restrict / layer / mask not at their defaults */
    int32_t self;      /* its pair in the weapon's self_swept, or -1 */
} clv__box;

typedef struct clv__aweapon {
    int32_t attack_count;
    clv_attack_def *attacks;
    int32_t *frame_base; /* per attack: index of its frame 0 in frame_start */
    int32_t frame_total;
    int32_t *frame_start; /* frame_total + 1 offsets into list */
    int32_t *list;        /* indices into boxes, frame by frame, in precedence order */
    int32_t *prev;        /* per list entry: the box of the same id on the frame before, or -1 */
    int32_t list_count;
    clv__box *boxes;
    int32_t box_count;
    /* For each round box that can follow itself from frame to frame (clv__box.self), at
     * 2 * self + mirror: clv_swept_init of the box swept from itself under that mirror, which a
     * swing that turns reads every frame instead of building it. */
    clv_swept *self_swept;
    int32_t self_count;
    /* Hurtboxes its attacks carry (none: both NULL): frame_total + 1 offsets into hurts, and how
     * far from the pose's origin the farthest reaches. */
    int32_t *hurt_start;
    clv_hurtbox_def *hurts;
    int32_t hurt_total;
    float hurt_reach;
    uint64_t fingerprint;        /* clv__weapon_fingerprint: snapshots name the weapons they need */
    char name[CLV_HIT_NAME_MAX]; /* the weapon's, for events read without the weapon at hand */
    uint16_t gen;                /* removals from this slot; attack_count 0 marks an empty slot */
} clv__aweapon;

/* ---- a body compiled into an arena: immutable ---- */

typedef struct clv__abody {
    char name[CLV_HIT_NAME_MAX];
    int32_t anim_count;
    clv_animation_def *anims;
    int32_t *frame_base; /* per animation: index of its frame 0 in frame_start */
    int32_t frame_total;
    int32_t *frame_start; /* frame_total + 1 offsets into boxes */
    clv_hurtbox_def *boxes;
    int32_t box_count;
    float reach; /* no hurtbox of any frame reaches farther from the body's origin */
    clv_guard_def guard;
    uint64_t fingerprint;
} clv__abody;

/* A digest of everything the weapon does (attacks, hitboxes, frame lists), field by field. */
uint64_t clv__weapon_fingerprint(const clv__aweapon *w);
/* The first n weapon slots of the arena, in order (an empty slot counts as 0). */
uint64_t clv__weapons_fingerprint(const clv_arena *a, int32_t n);
/* The first n bodies of the arena, in order. */
uint64_t clv__bodies_fingerprint(const clv_arena *a, int32_t n);

/* The checksum a snapshot of size bytes (header included) carries, its own field read as 0:
 * restore compares it, and tests that forge snapshots reseal them with it. */
uint64_t clv__snapshot_check(const void *buffer, size_t size);

/* ---- arena state (everything below is copied by snapshots) ---- */

typedef struct clv__effect {
    char name[CLV_HIT_NAME_MAX];
    int32_t duration, period, elapsed;
    float magnitude;
    int32_t damages;
    clv_weapon_id weapon; /* whose hitbox applied it last: its on_tick hears the ticks */
} clv__effect;

/* What the careful part of every step reads (timers, effects, friction); positions and
 * velocities are arrays of the arena (clv_arena.pos, vel), which the move pass streams. */
typedef struct clv__entity {
    float friction;
    int32_t state_frames;
    int32_t hitlag, hitstun;
    int32_t effect_count;
    int32_t hurt_count;
    uint16_t gen;
    uint8_t used;
    uint8_t frozen; /* in hitlag on the current frame */
} clv__entity;

/* What only hits read (same slot as clv__entity). */
typedef struct clv__vitals {
    float weight, hp, damage_taken;
    int32_t team, state;
    uint64_t user;
} clv__vitals;

typedef struct clv__hurt {
    int32_t count;
    clv_shape shapes[CLV_MAX_HURTBOXES];
} clv__hurt;

typedef struct clv__attack {
    uint32_t weapon1;
    int32_t attack;
    clv_entity_id owner;
    int32_t frame, elapsed, targets_hit;
    clv_vec2 offset; /* pose as given */
    float facing;
    int32_t mirror, follow;
    uint16_t gen;
    uint8_t used;
    uint8_t active; /* advanced on the current frame (not frozen, not ended) */
    /* The pose of the last placement (world origin, facing, mirror): where a swept hitbox
     * starts on the next frame. Meaningful once frame >= 0. */
    clv_vec2 prev_o;
    float prev_facing;
    int32_t prev_mirror;
    /* A projectile flies on its own (offset is its world origin, follow 0) until its lifetime
     * (frames left to place) runs out, pierce (0 = no limit) targets are hit, or it is stopped. */
    uint8_t projectile, loop, destroy_on_clank, reflectable, absorbable;
    int32_t lifetime, pierce;
    clv_vec2 vel;
    float gravity;
    float damage_scale;  /* reflections multiply the damage it deals */
    clv_entity_id throw; /* a throw hits only this target (null: any) */
} clv__attack;

/* One (swing, target, group) that has hit: sorted by that key. */
typedef struct clv__record {
    uint32_t attack1;
    uint32_t target1;
    uint16_t attack_gen, target_gen;
    int32_t group_key;
    int32_t last; /* attack's elapsed count when it last hit */
} clv__record;

/* What an entity does beyond being hit: its body, facing, filters, armor, guard and grabs.
 * Allocated for every slot on the first call that sets one of these; without it every entity
 * has the defaults (clv__combat_default). */
typedef struct clv__combat {
    uint32_t body1; /* 0: its own hurtboxes */
    int32_t anim;
    int32_t elapsed; /* frames the animation has played */
    float facing;
    int32_t mirror, airborne;
    uint16_t layer, mask;
    int32_t armor;
    float heavy;
    float guard_meter, guard_regen; /* the guard (its body's): the full meter and regen... */
    int32_t guard_break, guard_all_round;
    float meter; /* ... and what is left */
    clv_entity_id held_by, holding;
    clv_vec2 hold; /* where it is held, relative to held_by */
} clv__combat;

/* ---- per-frame work buffers (not part of the state) ---- */

/* The sine and cosine of an attack's facing when ok: what it was last placed with. And, for a
 * projectile on this frame, the slack of its first hitbox's travel (step_place.c). */
typedef struct clv__facing_trig {
    float facing;
    int32_t ok;
    double s, c;
    double flight_slack;
} clv__facing_trig;

typedef struct clv__placed {
    uint32_t attack1; /* slot + 1 */
    int32_t pos;      /* position in the frame's list */
    int32_t box;      /* index into the weapon's boxes */
    clv_shape shape;  /* world */
    clv_aabb bounds;  /* world (swept when nsub > 0), grown by the miss margin */
    /* Swept hitboxes: nsub sub-steps, their nsub + 1 cores at sub[2 * sub0 ...] (a, b pairs),
     * the radius at both ends and the margin (bend + rounding) every sub-step cover adds. */
    int32_t nsub, sub0;
    float r0, r1, grow;
    int32_t rigid; /* the same box, travelling without a turn: its model is filled lazily */
} clv__placed;

typedef struct clv__cand {
    uint32_t attack1;
    uint32_t target1;
    int32_t pos;
    int32_t placed;  /* index into placed */
    float distance;  /* surface gap (0 when overlapping) */
    float core_dist; /* gap between the hitbox's core and the hurtbox: ranking */
    clv_contact contact;
    int32_t overlap;
    int32_t reason; /* -1 while alive */
    int32_t push_only;
    int32_t pending;   /* reason decided by select_hitboxes, applied after the pass */
    int32_t rehit;     /* the rehit rule's answer if the narrowphase asked (1: refused), or -1 */
    float sweep_t;     /* start of the first sub-step that touched (1: this frame's pose) */
    int16_t box_state; /* clv_hurtbox_state of the hurtbox it meets (the best touched) */
    int16_t hurt;      /* that hurtbox's position in the target's list (clv__hurt_world) */
    float box_heavy;   /* that hurtbox's heavy armor threshold */
} clv__cand;

/* Per attack slot, on this frame: whether a meeting or a parry stops it (not part of the state). */
typedef struct clv__stop {
    int32_t reason; /* -1, or a CLV_MISS_ reason: the attack hits nothing on this frame */
    int32_t stun;   /* hitstun its owner gets */
    /* REFLECTED, ABSORBED: the placed hitbox that did it, and the normal where they met */
    int32_t by;
    clv_vec2 normal;
    float damage; /* ABSORBED: the damage of the projectile's hitbox that met */
} clv__stop;

/* A placed hitbox's left bound, for the sweep over x that finds the hitboxes that meet. */
typedef struct clv__edge {
    float left;
    int32_t placed;
    int32_t team; /* its owner's, read once per frame */
    float right, top, bottom;
    uint32_t key; /* left as an unsigned key of the same order (set by the sort) */
} clv__edge;

/* A push of this frame on a target: the pushes on one target are summed in the order of their
 * values, so that no slot or spawn order changes the last bits of the sum. */
typedef struct clv__push {
    int32_t slot;
    uint32_t xb, yb; /* the push's bits, the sort key after the slot */
    clv_vec2 v;
} clv__push;

/* Two placed hitboxes that met (side 0 on the lower team). */
typedef struct clv__meeting {
    int32_t placed[2];
    clv_vec2 point, normal;
    float sweep_t;
} clv__meeting;

struct clv_arena {
    clv_allocator al;
    float miss_margin;
    uint64_t (*clock_ns)(void *ctx);
    void *clock_ctx;

    clv__aweapon *weapons;
    int32_t weapon_count, weapon_cap;
    clv__abody *bodies;
    int32_t body_count, body_cap;

    int64_t frame;
    clv__entity *ent;
    clv_vec2 *pos, *vel; /* per slot, part of the state (snapshots, digest) */
    /* Per slot (derived): the bounding square of the hurtboxes, its centre relative to pos and
     * its half side; and whether the entity is calm (see clv__entity_stir). */
    clv_vec2 *local_centre;
    float *local_half;
    uint8_t *calm;
    clv__vitals *vit;
    clv__hurt *hurt;
    clv__effect *fx;  /* CLV_ENTITY_MAX_EFFECTS per slot */
    clv__combat *cmb; /* NULL until an entity uses a body, a filter, armor, guard or a grab */
    /* Per slot on this frame: the attack (slot + 1) whose carried hurtboxes the entity has, and
     * the slots that have one (not part of the state: rebuilt after every placement). */
    int32_t *carry, *carried;
    int32_t carry_cap, carried_count, carried_cap;
    int32_t carrying_weapons; /* weapons in the arena whose attacks carry hurtboxes */
    /* Bounding squares of each slot's hurtboxes, centre (bx, by) and half side br (derived).
     * Free slots and entities without hurtboxes sit far away with br = 0: they touch nothing,
     * and the broadphase reads these three arrays alone. */
    float *bx, *by, *br;
    clv_grid *grid; /* NULL: the broadphase scans */
    /* The grid broadphase's scratch: the placed hitboxes' bounds, each one's first candidate,
     * the candidates (clv_grid_query_boxes). */
    clv_aabb *grid_boxes;
    uint32_t *grid_first, *grid_out;
    int32_t grid_boxes_cap, grid_first_cap, grid_out_cap;
    clv_grid_def grid_def;
    int32_t ent_count, ent_cap, ent_live, ent_free_hint;

    clv__attack *att;
    int32_t att_count, att_cap, att_free_hint;

    clv__record *rec;
    int32_t rec_count, rec_cap;

    clv__placed *placed;
    int32_t placed_count, placed_cap;
    clv_swept *swept; /* placed[i]'s motion from its last placement, while placing */
    int32_t swept_cap;
    clv__facing_trig *facing_trig; /* per attack slot */
    int32_t facing_trig_cap;
    float sweep_tol;
    clv_vec2 *sub; /* sub-step cores of swept hitboxes */
    int32_t sub_count, sub_cap;
    double *trig; /* one attack's sub-step sin, cos pairs */
    int32_t trig_cap;
    clv__cand *cand;
    int32_t cand_count, cand_cap;
    clv__record *new_rec;
    int32_t new_rec_count, new_rec_cap;
    int32_t *scratch;
    int32_t scratch_cap;
    /* Entities with a timed hurt state to count down on this frame (set by integrate; nothing
     * between it and count_states sets a state or freezes an entity). */
    int32_t timed_count;

    clv_hit_event *hits;
    int32_t hit_count, hit_cap;
    clv_miss_record *misses;
    int32_t miss_count, miss_cap;
    clv_tick_event *ticks;
    int32_t tick_count, tick_cap;
    clv_clash_event *clashes;
    int32_t clash_count, clash_cap;
    clv_projectile_event *pevents;
    int32_t pevent_count, pevent_cap;

    /* Attacks that meet (clash.c): the rules, and this frame's work. */
    float clank_range;
    int32_t parry_stun;
    clv__stop *stop; /* att_cap slots */
    int32_t stop_cap;
    clv__edge *meet_order; /* placed hitboxes by the left edge of their bounds */
    int32_t meet_order_cap;
    clv__meeting *meetings;
    int32_t meeting_count, meeting_cap;
    clv_miss_record *meet_misses; /* the meetings' misses, emitted before the candidates' */
    int32_t meet_miss_count, meet_miss_cap;
    clv__push *pushes; /* this frame's pushes, summed per target in a canonical order */
    int32_t push_count, push_cap;
    uint64_t *trade_keys; /* (attacker slot, target slot) of this frame's hits */
    int32_t trade_keys_cap;

    clv_arena_profile profile;
};

/* Internal steps of the frame (step.c); ent/attack helpers (arena.c). */
/* The live slot of an entity id, or -1 (arena.c). */
int32_t clv__entity_slot(const clv_arena *a, clv_entity_id id);
/* The weapon of an id, or NULL when it is not in the arena (arena.c). */
clv__aweapon *clv__weapon_get(const clv_arena *a, clv_weapon_id id);
/* The slot's world bounds from its position and local bounds (far away and empty for a free
 * slot, or one with no hurtbox and no body). Inline: every moving entity's step refreshes them. */
static inline void clv__entity_update_bounds(clv_arena *a, int32_t s) {
    const clv__entity *e = &a->ent[s];
    bool body = a->cmb != NULL && a->cmb[s].body1 != 0;
    if (!e->used || (e->hurt_count == 0 && !body)) {
        a->bx[s] = 3.0e38f;
        a->by[s] = 3.0e38f;
        a->br[s] = 0.0f;
        return;
    }
    a->bx[s] = a->pos[s].x + a->local_centre[s].x;
    a->by[s] = a->pos[s].y + a->local_centre[s].y;
    a->br[s] = a->local_half[s];
}
/* Values of clv_arena.calm. A calm entity is live, has no timer, effect or friction and is not
 * frozen: the move pass only adds its velocity, many at a time. */
enum { CLV__STIRRED = 0, CLV__CALM = 1, CLV__CALM_FAR = 2 /* calm, its bounds far away */ };
/* To be called by whatever may give slot s a timer, an effect, friction, a freeze or other
 * bounds (or free it): its next move takes the careful path, which tells whether it is calm. */
static inline void clv__entity_stir(clv_arena *a, int32_t s) { a->calm[s] = CLV__STIRRED; }
/* Recomputes the slot's local bounds from its hurtboxes, then its world bounds. */
void clv__entity_refresh_bounds(clv_arena *a, int32_t slot);
bool clv__entity_reserve(clv_arena *a, int32_t need);
void clv__attack_end(clv_arena *a, int32_t slot);
int32_t clv__record_find(const clv_arena *a, uint32_t attack1, uint16_t attack_gen,
                         uint32_t target1, uint16_t target_gen, int32_t group_key);
void clv__events_clear(clv_arena *a);
int clv__record_cmp(const clv__record *x, const clv__record *y);
/* Most sub-steps a swept hitbox uses (see docs/hit-rules.md). */
#define CLV__MAX_SUBSTEPS 4096
/* Sweep tolerance when the arena def leaves it at 0, world units. */
#define CLV__SWEEP_TOL_DEFAULT 1.0f

/* ---- bodies, guard, armor, filters, grabs (arena_body.c, step_body.c) ---- */

clv__combat clv__combat_default(void);
bool clv__combat_is_default(const clv__combat *c);
/* The slot's combat state, allocating the array on first use (NULL when out of memory). */
clv__combat *clv__combat_of(clv_arena *a, int32_t slot);
/* The bounding square of a slot that plays a body (false when it plays none). */
bool clv__body_bounds(const clv_arena *a, int32_t slot, clv_vec2 *centre, float *half);
/* The frame of its animation the slot's hurtboxes come from. */
int32_t clv__body_frame(const clv__abody *b, const clv__combat *c);
/* Ends the hold on slot s (it is held) on both sides. */
void clv__release_slot(clv_arena *a, int32_t s);
/* Releases what slot s holds or is held by and resets its state (the entity is removed). */
void clv__combat_forget(clv_arena *a, int32_t s);
/* The most hurtboxes an entity has on a frame: its body's (or its own) and an attack's. */
#define CLV__MAX_HURT_WORLD (2 * CLV_BODY_MAX_HURTBOXES)
/* Copies the hurtboxes src's attacks carry into w (frame lists); false when out of memory. */
bool clv__file_hurts(clv_arena *a, const clv_weapon *src, clv__aweapon *w);
/* Frees w's carried hurtboxes. */
void clv__free_hurts(clv_arena *a, clv__aweapon *w);
/* Bytes clv__file_hurts takes for src. */
size_t clv__hurts_bytes(const clv_weapon *src);
/* 1c. Which entities carry an attack's hurtboxes on this frame, and their bounds grown to them. */
clv_hit_status clv__carry(clv_arena *a);
/* Frees the arena's bodies. */
void clv__bodies_free(clv_arena *a);
/* A digest of a compiled body. */
uint64_t clv__body_fingerprint(const clv__abody *b);

/* A weapon-local hitbox shape placed at an attack's current pose. */
clv_shape clv__place_hitbox(const clv_arena *a, const clv__attack *at, const clv_shape *local);

#endif
