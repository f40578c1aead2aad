/* Private to the frame (step*.c): the stages of clv_arena_step and what they share. */
#ifndef CLEAVE_STEP_INTERNAL_H
#define CLEAVE_STEP_INTERNAL_H

#include "hit_internal.h"

/* An attack's placement: origin, facing as sine and cosine, mirrored across its x axis. */
typedef struct clv__pose {
    clv_vec2 o;
    float s, c;
    int32_t mirror;
} clv__pose;

/* The smaller and the larger of two floats (the second when they compare equal or one is NaN,
 * as minss and maxss have it). */
static inline float clv__min2f(float x, float y) { return x < y ? x : y; }
static inline float clv__max2f(float x, float y) { return x > y ? x : y; }

/* ---- step_place.c ---- */

/* v turned (and mirrored) by the pose, not moved. */
clv_vec2 clv__turn(const clv__pose *p, clv_vec2 v);
/* The shape's core: a capsule's segment or a circle's centre with radius 0, else a point. */
clv_shape clv__core_of(const clv_shape *s);
clv__pose clv__attack_pose(const clv_arena *a, const clv__attack *at);
/* A local shape placed at a pose. */
clv_shape clv__place_shape(const clv__pose *p, const clv_shape *local);
/* 1. Advances every attack and places its frame's hitboxes in a->placed. */
clv_hit_status clv__place(clv_arena *a);
/* b grown by g on every side, the lower bounds then moved one float down and the upper ones one
 * up (nextafterf toward -inf and +inf): a swept hitbox's bounds. */
clv_aabb clv__grown_out(clv_aabb b, float g);

/* ---- step_detect.c ---- */

/* 2. Appends every (placed hitbox, entity) pair whose bounds touch to a->cand. */
clv_hit_status clv__broadphase(clv_arena *a);
/* Radius of a swept hitbox at sub-step point k of n. */
static inline float clv__sub_radius(const clv__placed *pl, int32_t k) {
    return pl->r0 + (pl->r1 - pl->r0) * ((float)k / (float)pl->nsub);
}
/* The first sub-step before limit whose cover touches hs, or -1. */
int32_t clv__first_substep(const clv_arena *a, const clv__placed *pl, const clv_shape *hs,
                           int32_t limit);
/* The swept hitbox as it stood at sub-step point k. */
clv_shape clv__sub_shape(const clv_arena *a, const clv__placed *pl, int32_t k);
/* Contact, ranking gap and sweep_t of a swept hit first touching at sub-step k. */
void clv__swept_contact(const clv_arena *a, const clv__placed *pl, int32_t k, const clv_shape *hs,
                        clv__cand *c);
/* 3. Keeps the candidates that touch (or miss within the miss margin), with their contact. */
void clv__narrowphase(clv_arena *a);

/* ---- step_rules.c ---- */

/* The candidate's target is its attack's owner or on the owner's team: the rules refuse it
 * with CLV_MISS_TEAM whatever it touches. */
bool clv__own_side(const clv_arena *a, const clv__cand *c);
/* The swing already hit the candidate's target with its hitbox's group, too recently to hit it
 * again: the rules refuse it (with CLV_MISS_REHIT, or an earlier filter's reason) whatever it
 * touches. */
bool clv__rehit_refused(const clv_arena *a, const clv__cand *c);
/* The rules' order of two candidates (clv__cand), for qsort: by attack, then target, then
 * position (no two candidates share all three). */
int clv__cand_cmp(const void *pa, const void *pb);
/* Puts a->cand in that order. */
clv_hit_status clv__sort_cands(clv_arena *a);

/* ---- clash.c ---- */

/* 3b. Hitboxes of attacks on different teams that meet: clank, outprioritize, transcend, trade.
 * Fills a->meet (what happens to each attack) and the clash events. */
clv_hit_status clv__meet(clv_arena *a);
/* Whether placed hitboxes x (the lower team's) and y meet on this frame; fills m. */
bool clv__meets(const clv_arena *a, int32_t x, int32_t y, clv__meeting *m);
/* After filter(): hits on parrying targets stop their attacks (a->meet, parry events). */
clv_hit_status clv__parry(clv_arena *a);
/* 8b. Ends the attacks a meeting or a parry stopped, and stuns their owners. */
void clv__end_stopped(clv_arena *a);

/* ---- meet_search.c ---- */

/* The frame's meetings (a->meetings, in no order): every pair of placed hitboxes of different
 * teams whose bounds overlap is tested with clv__meets. */
clv_hit_status clv__find_meetings(clv_arena *a);

/* ---- projectile.c ---- */

/* 1. Moves a projectile, counts its lifetime and advances its frame; false when it expired
 * (then it has ended) and places nothing. */
bool clv__projectile_advance(clv_arena *a, int32_t s);
/* 8b. What a stop, a reflection or its pierce does to a projectile at the end of the frame. */
void clv__projectile_settle(clv_arena *a, int32_t s, const clv__stop *st);

/* Whether clv__projectile_settle has anything to do for projectile at: a meeting or a parry
 * stopped it, or its pierce is used up. Most projectiles fly on, every frame. */
static inline bool clv__projectile_settles(const clv__attack *at, const clv__stop *st) {
    return st->reason >= 0 || (at->pierce > 0 && at->targets_hit >= at->pierce);
}
/* The damage placed hitbox p deals (a projectile's is scaled by its reflections). */
float clv__damage_of(const clv_arena *a, uint32_t attack1, const clv_hitbox_def *d);

/* ---- step_rules.c ---- */

const clv__box *clv__cand_box(const clv_arena *a, const clv__cand *c);
const clv_attack_def *clv__cand_attack_def(const clv_arena *a, const clv__cand *c);
clv__record clv__rec_key(uint32_t attack1, uint16_t attack_gen, uint32_t target1,
                         uint16_t target_gen, int32_t group_key);
/* First record not below the key. */
int32_t clv__rec_lower(const clv_arena *a, const clv__record *key);
/* Same (swing, target), any group. */
bool clv__same_pair(const clv__record *r, const clv__record *k);
/* 4-8. Sorts the candidates, gives each loser its reason, applies and reports the rest. */
clv_hit_status clv__rules(clv_arena *a);

/* ---- step_body.c ---- */

/* The slot's hurtboxes as the hits meet them (at most CLV__MAX_HURT_WORLD), with each one's
 * clv_hurtbox_state and heavy threshold: its body's current frame, or its own shapes, then
 * those its attack carries. */
int32_t clv__hurt_world(const clv_arena *a, int32_t s, clv_shape *out, int32_t *states,
                        float *heavy);
/* The hurtboxes of the attack slot s carries on this frame (weapon_hurt.c), appended by
 * clv__hurt_world; their number. */
int32_t clv__carried_world(const clv_arena *a, int32_t s, clv_shape *out, int32_t *states,
                           float *heavy);
/* The defs of those carried hurtboxes, in the same order, and their number in *n. */
const clv_hurtbox_def *clv__carried_defs(const clv_arena *a, int32_t s, int32_t *n);
/* The def of hurtbox k of clv__hurt_world's list for slot s: NULL for a spawned shape (which
 * has none) or k out of range; *count (unless NULL) the list's length. */
const clv_hurtbox_def *clv__hurt_def(const clv_arena *a, int32_t s, int32_t k, int32_t *count);
/* 0b. Animations, guard meters and held targets advance (after movement). */
void clv__combat_step(clv_arena *a);
/* 4. The reason a filtering hitbox (clv__box.filters) or a throw may not hit, or -1. */
int32_t clv__filter_combat(const clv_arena *a, const clv__cand *c);
/* 6b. Grabs whose grabber is struck on this frame miss; a swing holds one target. */
clv_hit_status clv__grab_rules(clv_arena *a);
/* The target guards against this candidate's hitbox. */
bool clv__blocks(const clv_arena *a, const clv__cand *c);
/* The armor threshold the candidate meets: pushes slower than it are armored (0 for none). */
float clv__armor_of(const clv_arena *a, const clv__cand *c);
/* A smash hitbox's push on the candidate's target, turned by the attack's pose; its knockback
 * units in *units. */
clv_vec2 clv__smash_push(const clv_arena *a, const clv__cand *c, const clv__pose *p, float damage,
                         float *units);
/* 8. A guard, armor, grab or throw hit's effect on the target's combat state. */
void clv__apply_combat(clv_arena *a, const clv__cand *c, clv_hit_event *ev);

/* ---- step_apply.c ---- */

/* 7-8. Computes every hit and miss from the unchanged state, then applies the hits. */
clv_hit_status clv__apply_and_emit(clv_arena *a);

#endif
