/* cleave body: what a target is made of, frame by frame, and how far a hit launches it.
 *
 * A body holds named animations; each frame of an animation has an ordered list of hurtboxes
 * in body-local space (the entity at (0, 0), facing +x), each with an id and a state. A body is
 * built like a weapon (create, add animations, add hurtboxes to frame ranges) and read back
 * through the getters below; every number is checked as it is added.
 *
 * The smash functions compute knockback the way platform fighters do (the community's formula,
 * see docs/hit-rules.md "Knockback as platform fighters compute it"): from the target's
 * accumulated damage (percent) and weight and the hitbox's base, growth and set knockback.
 */
#ifndef CLEAVE_BODY_H
#define CLEAVE_BODY_H

#include <stdbool.h>
#include <stdint.h>

#include "cleave/hit.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Hurtboxes of one frame of an animation, at most.
#define CLV_BODY_MAX_HURTBOXES 16
/// Frames of one animation, and of all animations of a body together, at most.
#define CLV_BODY_MAX_FRAMES 65535

/// How a hurtbox takes hits.
typedef enum clv_hurtbox_state {
    CLV_HURTBOX_NORMAL = 0,     ///< hits land
    CLV_HURTBOX_INVINCIBLE = 1, ///< hits connect and are used up; no damage, push or stun
    CLV_HURTBOX_INTANGIBLE = 2, ///< hits pass through and stay available
    CLV_HURTBOX_ARMOR = 3       ///< hits land with damage, without push or stun
} clv_hurtbox_state;

/// One hurtbox of one or more frames of an animation.
typedef struct clv_hurtbox_def {
    char id[CLV_HIT_NAME_MAX]; ///< non-empty name, e.g. "arm"; unique within a frame
    clv_shape shape;           ///< capsule, circle or obb in body-local space
    clv_hurtbox_state state;
    /// ARMOR: 0 is super armor (every hit lands without push or stun); > 0 is heavy armor, which
    /// takes so only hits whose push is slower than heavy (world units per frame).
    float heavy;
} clv_hurtbox_def;

/// A body's guard (clv_body_set_guard): its meter, and how it breaks.
typedef struct clv_guard_def {
    float meter;         ///< a full guard meter, > 0 (default 50)
    float regen;         ///< meter regained per frame while not guarding, >= 0 (default 0.1)
    int32_t guard_break; ///< frames of stun when a blocked hit empties it, 0..3600 (default 120)
    bool all_round;      ///< it blocks hits from behind its facing too (default false)
} clv_guard_def;

/// An animation: a name and its length in frames.
typedef struct clv_animation_def {
    char name[CLV_HIT_NAME_MAX]; ///< non-empty, unique within the body
    int32_t frames;              ///< 1..CLV_BODY_MAX_FRAMES
    bool loop;                   ///< after its last frame it starts again (else it holds it)
} clv_animation_def;

/// A body under construction or in use. Opaque.
typedef struct clv_body clv_body;

/// A hurtbox def with an empty id, a circle of radius 8 at the origin, state NORMAL.
clv_hurtbox_def clv_default_hurtbox_def(void);
/// Checks a hurtbox def on its own (id, shape, state); CLV_HIT_OK or the first fault in diag.
clv_hit_status clv_hurtbox_def_check(const clv_hurtbox_def *def, clv_hit_diag *diag);

/// Creates an empty body named name (non-empty, shorter than CLV_HIT_NAME_MAX). al may be
/// NULL (malloc). NULL and a message in diag on failure.
clv_body *clv_body_create(const char *name, const clv_allocator *al, clv_hit_diag *diag);
/// Frees the body. NULL is ignored.
void clv_body_destroy(clv_body *body);
/// Appends an animation; *out_index (may be NULL) receives its index.
clv_hit_status clv_body_add_animation(clv_body *body, const clv_animation_def *def,
                                      int32_t *out_index, clv_hit_diag *diag);
/// Appends a hurtbox to frames first..last (0-based, inclusive) of an animation; within a frame
/// hurtboxes keep the order they were added in. A frame holds at most CLV_BODY_MAX_HURTBOXES.
clv_hit_status clv_body_add_hurtbox(clv_body *body, int32_t animation, int32_t first_frame,
                                    int32_t last_frame, const clv_hurtbox_def *def,
                                    clv_hit_diag *diag);

/// Guard defaults: meter 50, regen 0.1, guard_break 120, facing only.
clv_guard_def clv_default_guard_def(void);
/// Sets the guard of the entities that play the body (checked; diag names the field).
clv_hit_status clv_body_set_guard(clv_body *body, const clv_guard_def *def, clv_hit_diag *diag);
/// The body's guard.
clv_guard_def clv_body_guard(const clv_body *body);

/// The body's name.
const char *clv_body_name(const clv_body *body);
/// Number of animations.
int32_t clv_body_animation_count(const clv_body *body);
/// Index of the animation named name, or -1.
int32_t clv_body_find_animation(const clv_body *body, const char *name);
/// The definition of animation index, or NULL for a bad index.
const clv_animation_def *clv_body_animation(const clv_body *body, int32_t index);
/// The frame an animation shows `elapsed` frames after it started (0 = its first frame): a
/// looping animation wraps, another holds its last frame. -1 for a bad index or elapsed < 0.
int32_t clv_body_frame_at(const clv_body *body, int32_t animation, int64_t elapsed);
/// The hurtboxes of one frame (0-based) and their number in *count; NULL and 0 for a bad
/// index or an empty frame. Valid until the body is changed or destroyed.
const clv_hurtbox_def *clv_body_hurtboxes(const clv_body *body, int32_t animation, int32_t frame,
                                          int32_t *count);

/* ---- hurtboxes an attack carries ---- */

/// Adds a hurtbox that attack `attack` of the weapon carries on frames first..last (0-based,
/// inclusive), in weapon-local space: while the attack is on such a frame its owner has it too,
/// placed from the attack's pose (the extended arm of a punch). At most CLV_BODY_MAX_HURTBOXES
/// per frame, ids unique within a frame; checked like a body's.
clv_hit_status clv_weapon_add_hurtbox(clv_weapon *weapon, int32_t attack, int32_t first,
                                      int32_t last, const clv_hurtbox_def *def, clv_hit_diag *diag);
/// The hurtboxes frame `frame` of an attack of an arena weapon carries, and their number in
/// *count; NULL and 0 when it carries none or for bad indices.
const clv_hurtbox_def *clv_arena_frame_hurtboxes(const clv_arena *arena, clv_weapon_id weapon,
                                                 int32_t attack, int32_t frame, int32_t *count);

/* ---- bodies in an arena (docs/hit-rules.md, "Bodies") ---- */

/// Handle of a body copied into an arena (index1 = slot + 1; bodies stay until the arena goes).
typedef struct clv_body_id {
    uint32_t index1;
    uint16_t gen;
} clv_body_id;

/// How an entity's armor takes hits (clv_arena_set_armor).
typedef enum clv_armor_kind {
    CLV_ARMOR_NONE = 0,
    CLV_ARMOR_SUPER = 1, ///< every hit lands with its damage, without push or stun
    CLV_ARMOR_HEAVY = 2  ///< so do hits whose push is slower than the threshold
} clv_armor_kind;

/// What an entity is doing beyond clv_entity_info: its body, facing, filters, guard and grabs.
typedef struct clv_entity_body_info {
    clv_body_id body;  ///< null when it plays no body (its own hurtboxes count)
    int32_t animation; ///< index in the body, -1 without one
    int32_t frame;     ///< the frame (0-based) the last step's hits met, 0 before it; -1 without
                       ///< a body
    int32_t elapsed;   ///< frames the animation has played
    float facing;      ///< radians: turns the body's hurtboxes and says where its front is
    bool mirror;       ///< flip body-local y before turning
    bool airborne;
    uint16_t layer, mask;
    clv_armor_kind armor;
    float heavy;           ///< HEAVY armor's threshold
    clv_guard_def guard;   ///< its body's (the defaults without one)
    float guard_meter;     ///< what is left of guard.meter
    clv_entity_id held_by; ///< the grabber that holds it, or null
    clv_entity_id holding; ///< the target it holds, or null
    clv_vec2 hold_offset;  ///< where it is held, relative to its grabber (world axes)
} clv_entity_body_info;

/// Copies a body (its current content) into the arena.
clv_hit_status clv_arena_add_body(clv_arena *arena, const clv_body *body, clv_body_id *out,
                                  clv_hit_diag *diag);
/// Index of the animation called name in an arena body, or -1.
int32_t clv_arena_find_animation(const clv_arena *arena, clv_body_id body, const char *name);
/// The entity plays animation of body from its first frame, which the next step's hits meet;
/// its hurtboxes are then the body's (turned by its facing), not those it was spawned with.
/// A new body also brings its guard, with a full meter.
clv_hit_status clv_arena_play(clv_arena *arena, clv_entity_id id, clv_body_id body,
                              int32_t animation);
/// Turns the entity (radians, finite) and mirrors it: its body's hurtboxes and its guard's front.
clv_hit_status clv_arena_set_facing(clv_arena *arena, clv_entity_id id, float facing, bool mirror);
/// Marks the entity as in the air (hitboxes' `hits` filter; grabs miss it).
clv_hit_status clv_arena_set_airborne(clv_arena *arena, clv_entity_id id, bool airborne);
/// Sets the entity's collision layer and mask (see clv_hitbox_def.layer).
clv_hit_status clv_arena_set_layers(clv_arena *arena, clv_entity_id id, uint16_t layer,
                                    uint16_t mask);
/// Sets the entity's armor; heavy (finite, > 0) is the threshold of HEAVY armor.
clv_hit_status clv_arena_set_armor(clv_arena *arena, clv_entity_id id, clv_armor_kind armor,
                                   float heavy);
/// Lets a held entity go (CLV_HIT_ERR_STALE_ID when it is not held).
clv_hit_status clv_arena_release(clv_arena *arena, clv_entity_id held);
/// Starts a throw: an attack of def->owner, who must hold a target, that hits that target only
/// (others get CLV_MISS_NOT_THROWN); its first hit releases the target before its push applies.
clv_hit_status clv_arena_throw(clv_arena *arena, const clv_attack_start_def *def,
                               clv_attack_id *out, clv_hit_diag *diag);
/// Reads what clv_entity_info does not hold.
clv_hit_status clv_arena_entity_body(const clv_arena *arena, clv_entity_id id,
                                     clv_entity_body_info *out);
/// The world shapes of the entity's hurtboxes on that frame, at its position now, and each one's
/// state (states may be NULL): min(count, cap) of them; returns the count, -1 for a stale id.
int32_t clv_arena_entity_hurtboxes(const clv_arena *arena, clv_entity_id id, clv_shape *out,
                                   clv_hurtbox_state *states, int32_t cap);
/// The id of hurtbox k of that list ("" for a shape given to clv_arena_spawn, which has none);
/// NULL for a stale id or k out of range. Valid until the next step or change to the entity.
const char *clv_arena_entity_hurtbox_id(const clv_arena *arena, clv_entity_id id, int32_t k);

/* ---- knockback as platform fighters compute it ---- */

/// The angle value that asks for the Sakurai angle: it depends on the knockback and on whether
/// the target is on the ground.
#define CLV_SMASH_SAKURAI_ANGLE 361.0f

/// A smash hit's numbers. Degrees, as move data lists them; 0 sends along the attacker's
/// facing, 90 straight up.
typedef struct clv_smash_hit {
    float damage; ///< the hit's damage, >= 0
    float base;   ///< base knockback, >= 0
    float growth; ///< knockback growth (scaling) in percent: 100 = 1.0, >= 0
    float set;    ///< set (fixed) knockback; > 0 replaces the damage terms (see below)
    float angle;  ///< launch angle in degrees 0..360, or CLV_SMASH_SAKURAI_ANGLE
} clv_smash_hit;

/// Knockback units of hit on a target of weight `weight` (> -100; 100 is a middleweight) whose
/// percent was `percent` before the hit. With p the percent after the hit and d the damage:
/// `((p/10 + p*d/20) * 200/(weight+100) * 1.4 + 18) * growth/100 + base`; with set > 0, p is 10
/// and d is set (weight-dependent set knockback). NaN for numbers outside the ranges above.
float clv_smash_knockback(const clv_smash_hit *hit, float percent, float weight);
/// The launch angle in degrees for knockback kb: the hit's own angle, or for the Sakurai angle
/// 45 in the air and on the ground 0 below 60 knockback, 37 from 88, linear between.
float clv_smash_angle(const clv_smash_hit *hit, float kb, bool grounded);
/// Launch speed (world units per frame, 1 unit = one unit of the games' launch speed):
/// 0.03 * kb.
float clv_smash_launch_speed(float kb);
/// Hitstun frames for knockback kb: floor(0.4 * kb).
int32_t clv_smash_hitstun(float kb);

#ifdef __cplusplus
}
#endif

#endif
