/* cleave hit: weapons, hit rules and a deterministic arena for 2D melee games.
 *
 * The important parts, in the order a game meets them:
 *
 * 1. A WEAPON holds named ATTACKS; an attack is a number of frames, and each frame a list of
 *    HITBOXES in weapon-local space (the attacker at (0,0), facing +x). Build one with
 *    clv_weapon_create(), clv_weapon_add_attack() and clv_weapon_add_hitbox(); every call
 *    validates its definition and, on error, fills a clv_hit_diag naming the field.
 * 2. An ARENA owns everything that changes: entities with hurtboxes, attacks in progress, the
 *    hit bookkeeping of each swing, timers and status effects. clv_arena_add_weapon() copies a
 *    weapon into it (clv_arena_remove_weapon() frees that copy once no swing uses it);
 *    clv_arena_start_attack() swings one from an owner's pose.
 * 3. clv_arena_step() advances one fixed 60 Hz frame in the order documented in
 *    docs/hit-rules.md; afterwards clv_arena_hits(), clv_arena_misses() and clv_arena_ticks()
 *    give that frame's events, in a deterministic order.
 * 4. clv_arena_snapshot() / clv_arena_restore() copy the whole mutable state into a byte buffer
 *    and back (rollback netcode, tests); clv_arena_hash() digests it into 64 bits.
 *
 * Conventions are those of cleave/collide.h: world units, +y down, radians, an angle rotates
 * +x toward +y. Time is counted in frames. Ids are handles with a generation counter: a handle
 * to a removed object is refused with CLV_HIT_ERR_STALE_ID, never dereferenced.
 * No function keeps a pointer it was given; no global state; all memory comes from the
 * allocator of the owning object and is returned by its destroy function.
 */
#ifndef CLEAVE_HIT_H
#define CLEAVE_HIT_H

#include <stddef.h>
#include <stdint.h>

#include "cleave/collide.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Longest name (hitbox id, attack name, effect name) in bytes, including the final NUL.
#define CLV_HIT_NAME_MAX 32
/// Most hurtboxes one entity may have.
#define CLV_MAX_HURTBOXES 4
/// Most status effects one hitbox may apply.
#define CLV_HITBOX_MAX_EFFECTS 4
/// Most status effects running on one entity at once (the oldest is replaced when full).
#define CLV_ENTITY_MAX_EFFECTS 8
/// Longest attack, in frames.
#define CLV_ATTACK_MAX_FRAMES 65535
/// Most frames of all of a weapon's attacks together (four attacks of the longest length).
#define CLV_WEAPON_MAX_FRAMES 262144
/// Most placed hitboxes of a weapon: a hitbox counts once per frame it is active on, summed over
/// every attack. Copying a weapon into an arena takes time and memory in proportion to its
/// frames and placed hitboxes, so both are bounded when the weapon is built (the example mods
/// place at most 180; at the limit the copy takes milliseconds and about 6 MB).
#define CLV_WEAPON_MAX_PLACED 262144
/// Largest magnitude of an entity's position, velocity, hp and damage taken, and of every shape
/// number in a definition: values beyond are refused, and motion, knockback and damage are
/// clamped to it, so that the state always stays finite (and a snapshot of it restorable).
#define CLV_WORLD_LIMIT 1.0e9f
/// Last frame an arena reaches: clv_arena_step() refuses to go past it (CLV_HIT_ERR_NUMBER) and
/// clv_arena_restore() refuses a later one, so the frame counter never nears INT64_MAX (2^53
/// frames at 60 Hz are 4.7 million years; every frame is exact as a double and a Lua number).
#define CLV_ARENA_MAX_FRAME ((int64_t)1 << 53)
/// A hitlag or hitstun field set to this is computed from the hit (see docs/hit-rules.md).
#define CLV_FRAMES_AUTO (-1)
/// The group value of a hitbox that forms a group of its own (it never shares a hit).
#define CLV_GROUP_NONE (-1)

/// Result of every fallible call. 0 is success.
typedef enum clv_hit_status {
    CLV_HIT_OK = 0,
    CLV_HIT_ERR_NULL = 1,      ///< a required pointer argument is NULL
    CLV_HIT_ERR_NUMBER = 2,    ///< a number is NaN, infinite or out of its range
    CLV_HIT_ERR_SHAPE = 3,     ///< a shape is of a refused type or invalid
    CLV_HIT_ERR_NAME = 4,      ///< a name is empty, too long or already used
    CLV_HIT_ERR_INDEX = 5,     ///< an attack, frame or hitbox index is out of range
    CLV_HIT_ERR_STALE_ID = 6,  ///< an id names nothing (removed, ended or never made)
    CLV_HIT_ERR_NO_MEMORY = 7, ///< the allocator returned NULL
    CLV_HIT_ERR_SNAPSHOT = 8,  ///< a snapshot buffer is too small, corrupt or incompatible
    CLV_HIT_ERR_ENUM = 9,      ///< an enumeration value is out of range
    CLV_HIT_ERR_IN_USE = 10    ///< an attack in progress still uses the weapon
} clv_hit_status;

/// Where and why a call failed. Fields that do not apply are -1 (indices) or "" (strings).
/// message reads like "attack 'swing' frame 6 hitbox 2 ('blade'): shape.r must be >= 0 (got -3)".
typedef struct clv_hit_diag {
    clv_hit_status code;
    int32_t attack; ///< attack index in the weapon, or -1
    int32_t frame;  ///< first frame concerned, or -1
    int32_t hitbox; ///< position of the hitbox in its frame's list (0-based), or -1
    char field[32]; ///< the offending field, e.g. "shape.r", "max_hits"
    char message[224];
} clv_hit_diag;

/// A short, lowercase name for a status ("stale id").
const char *clv_hit_status_name(clv_hit_status status);

/* ------------------------------------------------------------------------------------------
 * Weapons
 * ------------------------------------------------------------------------------------------ */

/// How a hit pushes its target. The result is divided by the target's weight.
typedef enum clv_knockback_kind {
    CLV_KNOCKBACK_NONE = 0,    ///< no push
    CLV_KNOCKBACK_FIXED = 1,   ///< vector (weapon-local), turned with the attacker's pose
    CLV_KNOCKBACK_SCALING = 2, ///< base + growth * damage along angle (weapon-local radians)
    CLV_KNOCKBACK_RADIAL = 3,  ///< base + growth * damage away from the hitbox (contact normal)
    /// as platform fighters compute it (cleave/body.h, clv_smash_knockback): from the target's
    /// damage taken (its percent) and weight (100 x the entity's), base, growth (percent: 100 =
    /// 1.0) and set; along angle, or the Sakurai angle when sakurai is set. Not divided by the
    /// weight again; launch speed 0.03 x knockback, automatic hitstun floor(0.4 x knockback).
    CLV_KNOCKBACK_SMASH = 4
} clv_knockback_kind;

/// Knockback of a hitbox. Speeds are world units per frame.
typedef struct clv_knockback {
    clv_knockback_kind kind;
    clv_vec2 vector; ///< FIXED: the velocity given to a weight-1 target, weapon-local
    float angle;     ///< SCALING: launch direction, weapon-local radians
    float base;      ///< SCALING, RADIAL: speed at 0 damage, >= 0
    float growth;    ///< SCALING, RADIAL: extra speed per point of the hit's damage, >= 0
    float set;       ///< SMASH: set (fixed) knockback, >= 0; > 0 replaces the damage terms
    bool sakurai;    ///< SMASH: launch at the Sakurai angle instead of angle
} clv_knockback;

/// A status effect a hitbox applies (bleed, burn, slow...). C keeps its timer and emits a tick
/// every period frames while it lasts; a tick of a damaging effect removes magnitude hp.
typedef struct clv_effect_def {
    char name[CLV_HIT_NAME_MAX]; ///< non-empty; the same name on a target refreshes the effect
    int32_t duration;            ///< frames it lasts, >= 1
    int32_t period;              ///< frames between ticks, 1..duration
    float magnitude;             ///< per tick (hp for a damaging effect), finite, >= 0
    bool damages;                ///< ticks remove magnitude hp
} clv_effect_def;

/// How a hitbox meets the hitboxes of other attacks (docs/hit-rules.md, "Attacks that meet").
typedef enum clv_clash_rule {
    CLV_CLASH_NORMAL = 0,    ///< clanks within the arena's clank_range, else the stronger wins
    CLV_CLASH_TRANSCEND = 1, ///< never meets hitboxes: passes through them
    CLV_CLASH_TRADE = 2      ///< meets them but cancels nothing: both attacks go on
} clv_clash_rule;

/// What a hitbox does to a projectile of the other side that meets it.
typedef enum clv_hitbox_kind {
    CLV_HITBOX_HIT = 0,     ///< the clash rules, like any hitbox
    CLV_HITBOX_REFLECT = 1, ///< a reflectable projectile turns back and joins the reflector's side
    CLV_HITBOX_ABSORB = 2,  ///< an absorbable projectile is destroyed; its damage is reported
    /// a grab: beats guard, passes through other attacks' hitboxes, misses intangible and (unless
    /// `hits` says air) airborne targets, loses to a strike on the grabber on the same frame, and
    /// holds its target at grab_offset (docs/hit-rules.md, "Grabs")
    CLV_HITBOX_GRAB = 3
} clv_hitbox_kind;

/// Which targets a hitbox hits by their airborne flag (clv_arena_set_airborne).
typedef enum clv_hit_air {
    CLV_HITS_AUTO = 0,   ///< both, except a grab: ground only
    CLV_HITS_GROUND = 1, ///< only targets on the ground
    CLV_HITS_AIR = 2,    ///< only airborne targets
    CLV_HITS_BOTH = 3
} clv_hit_air;

/// Where a hitbox hits from, and where it sends.
typedef enum clv_facing_restrict {
    CLV_FACING_ANY = 0,   ///< no restriction
    CLV_FACING_AWAY = 1,  ///< the push's x always points away from the attack's origin
    CLV_FACING_FRONT = 2, ///< only targets in front of the attack's facing
    CLV_FACING_BEHIND = 3 ///< only targets behind it
} clv_facing_restrict;

/// One hitbox of one or more frames of an attack.
typedef struct clv_hitbox_def {
    char id[CLV_HIT_NAME_MAX]; ///< non-empty name, e.g. "blade"; unique within a frame
    clv_shape shape;           ///< capsule, circle or obb in weapon-local space
    int32_t group;             ///< >= 0 shares hits with the same group; CLV_GROUP_NONE alone
    float damage;              ///< >= 0
    clv_knockback knockback;
    int32_t max_hits;                 ///< distinct targets damaged per frame, 0 = no limit
    bool knockback_ignores_hit_count; ///< targets beyond max_hits are still pushed
    int32_t hitlag;                   ///< frames both sides freeze, or CLV_FRAMES_AUTO
    float hitlag_scale;               ///< multiplier of the automatic hitlag, >= 0 (default 1)
    int32_t hitstun;                  ///< frames the target stays stunned, or CLV_FRAMES_AUTO
    int32_t priority;                 ///< higher wins over list order; equal falls back to order
    bool sweep;                       ///< cover the path from the last frame (default true)
    int32_t effect_count;             ///< 0..CLV_HITBOX_MAX_EFFECTS
    clv_effect_def effects[CLV_HITBOX_MAX_EFFECTS];
    clv_clash_rule clash; ///< how it meets other attacks' hitboxes (default NORMAL)
    /// Frames the attacker is stunned when a parry stops this hitbox's hit, 0..3600, or
    /// CLV_FRAMES_AUTO for the arena's parry_stun.
    int32_t parry_stun;
    clv_hitbox_kind kind; ///< HIT, REFLECT or ABSORB (default HIT)
    float reflect_speed;  ///< REFLECT: the projectile's speed is multiplied by it, >= 0 (default 1)
    float reflect_damage; ///< REFLECT: its damage is multiplied by it, >= 0 (default 1)
    /// REFLECT: send it along the reflector's facing instead of mirroring its velocity about the
    /// contact normal (default false).
    bool reflect_along_facing;
    /* ---- against bodies that defend (docs/hit-rules.md, "Guard, armor, grabs, filters") ---- */
    float chip; ///< fraction of the damage a guarded hit still deals, 0..1 (default 0)
    /// Frames a guarding target is stunned by a blocked hit, 0..3600, or CLV_FRAMES_AUTO:
    /// floor(2 + 0.8 * damage).
    int32_t blockstun;
    float shield_damage; ///< guard meter a blocked hit takes beyond its damage, >= 0
    bool unblockable;    ///< guard does not stop it
    clv_hit_air hits;    ///< ground, air or both (default AUTO)
    clv_facing_restrict facing_restrict;
    /// Collision filter: it hits a target when (mask & target layer) and (target mask & layer)
    /// are both non-zero. Defaults: layer 1, mask 0xFFFF.
    uint16_t layer, mask;
    clv_vec2 grab_offset; ///< GRAB: where the target is held, weapon-local (default (24, 0))
} clv_hitbox_def;

/// An attack of a weapon: its length and its per-swing rules.
typedef struct clv_attack_def {
    char name[CLV_HIT_NAME_MAX]; ///< non-empty, unique in the weapon, e.g. "swing"
    int32_t frames;              ///< length, 1..CLV_ATTACK_MAX_FRAMES
    int32_t max_targets;         ///< distinct targets one swing may hit, 0 = no limit
    int32_t rehit;               ///< frames before a group may hit a target again, 0 = once
    int32_t lockout;             ///< frames a hit target is immune to the swing's other groups
    /// Frames of recovery (hitstun) its owner gets when it clanks or is outprioritized, 0..3600,
    /// or CLV_FRAMES_AUTO: floor(4 + damage / 2) of its hitbox that met the other attack.
    int32_t rebound;
} clv_attack_def;

/// Options of a new weapon.
typedef struct clv_weapon_def {
    char name[CLV_HIT_NAME_MAX]; ///< may be empty
    clv_allocator allocator;
} clv_weapon_def;

/// An editable weapon. Copy it into an arena with clv_arena_add_weapon().
typedef struct clv_weapon clv_weapon;

/// Defaults: a circle of radius 8 at the origin, group 0, damage 1, no knockback, no limits,
/// automatic hitlag (scale 1) and hitstun, priority 0, sweep on, no effects, clash NORMAL,
/// parry_stun CLV_FRAMES_AUTO.
clv_hitbox_def clv_default_hitbox_def(void);
/// Defaults: frames 1, no target limit, rehit 0 (once per swing), lockout 0, rebound
/// CLV_FRAMES_AUTO. Name empty.
clv_attack_def clv_default_attack_def(void);
/// Defaults: an effect named "", duration 60, period 10, magnitude 1, damaging.
clv_effect_def clv_default_effect_def(void);
/// Defaults: empty name, malloc/free.
clv_weapon_def clv_default_weapon_def(void);

/// Checks a hitbox definition alone; returns CLV_HIT_OK or fills diag (may be NULL).
clv_hit_status clv_hitbox_def_check(const clv_hitbox_def *def, clv_hit_diag *diag);
/// Checks an attack definition alone (not the uniqueness of its name).
clv_hit_status clv_attack_def_check(const clv_attack_def *def, clv_hit_diag *diag);

/// A new empty weapon, or NULL (diag says why). def may be NULL for the defaults.
clv_weapon *clv_weapon_create(const clv_weapon_def *def, clv_hit_diag *diag);
/// Frees the weapon and everything it owns. NULL is ignored.
void clv_weapon_destroy(clv_weapon *weapon);
/// Appends an attack; *out_index (may be NULL) receives its index (0, 1, ...).
clv_hit_status clv_weapon_add_attack(clv_weapon *weapon, const clv_attack_def *def,
                                     int32_t *out_index, clv_hit_diag *diag);
/// Appends a hitbox to frames first..last (0-based, inclusive) of an attack. In each frame the
/// hitboxes keep the order they were added in: that order is their precedence.
clv_hit_status clv_weapon_add_hitbox(clv_weapon *weapon, int32_t attack, int32_t first_frame,
                                     int32_t last_frame, const clv_hitbox_def *def,
                                     clv_hit_diag *diag);
/// Index of the attack named name, or -1.
int32_t clv_weapon_find_attack(const clv_weapon *weapon, const char *name);
/// Number of attacks.
int32_t clv_weapon_attack_count(const clv_weapon *weapon);
/// Copies attack `index`'s definition (name, frames, rules) into *out.
clv_hit_status clv_weapon_attack(const clv_weapon *weapon, int32_t index, clv_attack_def *out);
/// Attack `index`'s definition, or NULL for a bad index; valid until the weapon is changed or
/// destroyed.
const clv_attack_def *clv_weapon_attack_def(const clv_weapon *weapon, int32_t index);
/// Number of hitboxes active on one frame of an attack (0 for bad indices).
int32_t clv_weapon_frame_hitbox_count(const clv_weapon *weapon, int32_t attack, int32_t frame);
/// The weapon's name ("" when it has none), valid while the weapon lives.
const char *clv_weapon_name(const clv_weapon *weapon);
/// The hitboxes active on one frame of an attack, in precedence order: writes min(count, cap)
/// pointers to out and returns the count (0 for bad indices). They stay valid until the weapon
/// is changed or destroyed. out may be NULL when cap is 0.
int32_t clv_weapon_frame_hitboxes(const clv_weapon *weapon, int32_t attack, int32_t frame,
                                  const clv_hitbox_def **out, int32_t cap);

/* ------------------------------------------------------------------------------------------
 * Arena
 * ------------------------------------------------------------------------------------------ */

/// Handle of an entity. index1 is the slot + 1 (0 is the null id); gen counts slot reuse.
typedef struct clv_entity_id {
    uint32_t index1;
    uint16_t gen;
} clv_entity_id;

/// Handle of an attack in progress; same scheme as clv_entity_id.
typedef struct clv_attack_id {
    uint32_t index1;
    uint16_t gen;
} clv_attack_id;

/// Handle of a weapon copied into an arena: index1 is the slot + 1 (0 is the null id); gen
/// counts the removals from that slot, so an id of a removed weapon stays stale after its slot
/// is reused. A slot never emptied has gen 0.
typedef struct clv_weapon_id {
    uint32_t index1;
    uint16_t gen;
} clv_weapon_id;

/// How an entity takes hits.
typedef enum clv_hurt_state {
    CLV_HURT_NORMAL = 0,     ///< hits land
    CLV_HURT_INVINCIBLE = 1, ///< hits connect and are used up; no damage, push, stun or effect
    CLV_HURT_INTANGIBLE = 2, ///< hits pass through and stay available
    CLV_HURT_PARRY = 3,      ///< a hit that would land is parried: its attack ends, the attacker
                             ///< is stunned, the target takes nothing
    /// hits from in front of its facing are blocked (from behind too with an all-round guard):
    /// chip damage, blockstun, and shield damage to its guard meter (cleave/body.h)
    CLV_HURT_GUARD = 4
} clv_hurt_state;

/// Why a candidate did not become a hit. Every rejected candidate gets exactly one.
typedef enum clv_miss_reason {
    CLV_MISS_OUT_OF_REACH = 0,    ///< the shapes do not overlap (near misses, see miss_margin)
    CLV_MISS_TEAM = 1,            ///< target is the owner or on the owner's team
    CLV_MISS_DEAD = 2,            ///< target has no hp left
    CLV_MISS_INTANGIBLE = 3,      ///< target is intangible
    CLV_MISS_REHIT = 4,           ///< this group already hit this target (rehit pending)
    CLV_MISS_LOCKOUT = 5,         ///< another group of the swing hit this target too recently
    CLV_MISS_PRECEDENCE = 6,      ///< a hitbox of higher precedence in the same group won
    CLV_MISS_MAX_HITS = 7,        ///< the hitbox already damaged max_hits targets this frame
    CLV_MISS_MAX_TARGETS = 8,     ///< the swing already hit max_targets targets
    CLV_MISS_CLANKED = 9,         ///< the attack clanked with another on this frame
    CLV_MISS_OUTPRIORITIZED = 10, ///< a stronger attack's hitbox met it on this frame
    CLV_MISS_TRANSCENDED = 11,    ///< hitboxes met and one passed through (a meeting, not a hit)
    CLV_MISS_PARRIED = 12,        ///< a parrying target stopped the attack on this frame
    CLV_MISS_REFLECTED = 13,      ///< the projectile was reflected on this frame
    CLV_MISS_ABSORBED = 14,       ///< the projectile was absorbed on this frame
    CLV_MISS_LAYER = 15,          ///< the hitbox's layer and mask do not meet the target's
    CLV_MISS_AIRBORNE = 16,       ///< the hitbox hits the ground only and the target is airborne
    CLV_MISS_GROUNDED = 17,       ///< the hitbox hits the air only and the target is on the ground
    CLV_MISS_FACING = 18,         ///< the target is on the side facing_restrict excludes
    CLV_MISS_INTERRUPTED = 19,    ///< a grab whose grabber was struck (or grabbed) on this frame
    CLV_MISS_NOT_THROWN = 20,     ///< a throw hits only the target its owner holds
    CLV_MISS_REASON_COUNT = 21
} clv_miss_reason;

/// A short lowercase name of a reason ("max_hits").
const char *clv_miss_reason_name(clv_miss_reason reason);

/// Options of a new arena.
typedef struct clv_arena_def {
    clv_allocator allocator;
    int32_t entity_capacity; ///< slots reserved up front (grows when needed), >= 0
    float miss_margin;       ///< record OUT_OF_REACH misses closer than this, >= 0; 0 = off
    /// Optional uniform grid for the broadphase (cleave/broadphase.h), rebuilt every step: cells
    /// of grid_cell_size > 0 units from grid_origin, grid_cols x grid_rows of them (product
    /// <= 2^24); entities outside it still work, only slower. 0 = scan every entity instead,
    /// which is faster below a few thousand entities.
    float grid_cell_size;
    clv_vec2 grid_origin;
    int32_t grid_cols, grid_rows;
    /// Optional clock for clv_arena_profile (nanoseconds, any origin). NULL = no profiling.
    uint64_t (*clock_ns)(void *ctx);
    void *clock_ctx;
    /// How far (world units) a swept hitbox may reach beyond the area it truly sweeps between
    /// two frames; sets the number of sub-steps (docs/hit-rules.md). > 0, finite; 0 = 1 unit.
    float sweep_tolerance;
    /// Hitboxes of two attacks that meet clank when their damages differ by at most this, >= 0;
    /// beyond it the stronger outprioritizes the weaker.
    float clank_range;
    /// Frames a parried attacker is stunned when its hitbox's parry_stun is CLV_FRAMES_AUTO.
    int32_t parry_stun;
} clv_arena_def;

/// Defaults: malloc/free, capacity 64, miss_margin 0, no grid, no clock, sweep_tolerance 1,
/// clank_range 9, parry_stun 20.
clv_arena_def clv_default_arena_def(void);

/// An entity to spawn.
typedef struct clv_entity_def {
    clv_vec2 position;
    clv_vec2 velocity; ///< units per frame
    float weight;      ///< > 0; knockback is divided by it
    float friction;    ///< >= 0, speed lost per frame
    float hp;          ///< > 0
    int32_t team;      ///< targets on the attacker's team are refused
    clv_hurt_state state;
    int32_t hurtbox_count;                  ///< 0..CLV_MAX_HURTBOXES
    clv_shape hurtboxes[CLV_MAX_HURTBOXES]; ///< relative to position, not rotated; any type
    uint64_t user;                          ///< the game's tag, kept and returned as is
} clv_entity_def;

/// Defaults: at the origin, at rest, weight 1, friction 0, hp 100, team 0, normal, one circle
/// hurtbox of radius 8, user 0.
clv_entity_def clv_default_entity_def(void);

/// The state of an entity (read with clv_arena_entity()).
typedef struct clv_entity_info {
    clv_vec2 position;
    clv_vec2 velocity;
    float weight;
    float friction;
    float hp;
    float damage_taken; ///< total damage received
    int32_t team;
    clv_hurt_state state;
    int32_t state_frames; ///< frames until state returns to normal, 0 = until changed
    bool alive;           ///< hp > 0
    int32_t hitlag;       ///< frames it stays frozen
    int32_t hitstun;      ///< frames of stun left
    int32_t effect_count;
    int32_t hurtbox_count;
    uint64_t user;
} clv_entity_info;

/// Starting an attack: which one, by whom, from where.
typedef struct clv_attack_start_def {
    clv_weapon_id weapon;
    int32_t attack;      ///< index in the weapon (clv_arena_find_attack)
    clv_entity_id owner; ///< must be alive; its team is the swing's team
    clv_vec2 position;   ///< pose origin (an offset from the owner when follow_owner)
    float facing;        ///< radians
    bool mirror;         ///< flip weapon-local y before turning (a side view facing left)
    bool follow_owner;   ///< the pose moves with the owner's position
} clv_attack_start_def;

/// Defaults: no weapon, attack 0, no owner, pose at the origin facing +x, no mirror, follow.
clv_attack_start_def clv_default_attack_start_def(void);

/// The state of an attack in progress.
typedef struct clv_attack_info {
    clv_weapon_id weapon;
    int32_t attack;
    clv_entity_id owner;
    int32_t frame;       ///< current frame of the attack, -1 before its first step
    int32_t elapsed;     ///< frames advanced so far (hitlag frames excluded)
    int32_t targets_hit; ///< distinct targets hit by this swing
    clv_vec2 position;   ///< world pose of this frame
    float facing;
    bool mirror;
} clv_attack_info;

/// Flags of a hit event.
enum {
    CLV_HIT_FLAG_PUSH_ONLY = 1,  ///< beyond max_hits with knockback_ignores_hit_count: pushed only
    CLV_HIT_FLAG_INVINCIBLE = 2, ///< target was invincible: connected, used up, nothing applied
    CLV_HIT_FLAG_KILLED = 4,     ///< it did damage, and the frame's hits left the target dead
    CLV_HIT_FLAG_TRADE = 8,      ///< the target's own attack hit this hit's attacker on this frame
    CLV_HIT_FLAG_BLOCKED = 16,   ///< the target guarded: chip damage, blockstun, no push
    CLV_HIT_FLAG_ARMOR = 32,     ///< the target's armor took it: damage without push or stun
    CLV_HIT_FLAG_GRAB = 64,      ///< a grab: the target is now held
    CLV_HIT_FLAG_GUARD_BREAK = 128 ///< this blocked hit emptied the guard meter
};

/// A hit of one frame.
typedef struct clv_hit_event {
    int64_t frame; ///< arena frame (clv_arena_frame() after the step)
    clv_attack_id attack;
    clv_entity_id attacker;
    clv_entity_id target;
    clv_weapon_id weapon;
    int32_t attack_index; ///< attack in the weapon
    int32_t attack_frame; ///< frame of the attack
    int32_t hitbox;       ///< position of the hitbox in that frame's list
    int32_t group;
    float damage;       ///< hp removed (0 for push-only and invincible hits)
    clv_vec2 knockback; ///< velocity given to the target
    clv_vec2 point;     ///< contact point, world
    float blade_t;      ///< where on the hitbox's segment, 0..1 (0 for circles and boxes)
    int32_t hitlag;     ///< frames both sides freeze
    int32_t hitstun;    ///< frames the target is stunned
    uint32_t effects;   ///< bit i: the hitbox's effect i was applied
    uint32_t flags;     ///< CLV_HIT_FLAG_*
    /// Swept hits: where in the motion from the previous frame's placement (0) to this one's (1)
    /// the first sub-step that touched the target starts; point and blade_t come from that
    /// sub-step. 1 for a hit of this frame's placement alone (no sweep).
    float sweep_t;
    /// The hurtbox that took the hit: its position in the target's list as the hits of that
    /// frame met it (its body's hurtboxes or spawned shapes, then those its attack carries: the
    /// list clv_arena_entity_hurtboxes gives after the step, unless that attack ended in it),
    /// and its id ("" for a shape given to clv_arena_spawn, which has none). Of the hurtboxes
    /// touched (at the first touching sub-step) the one whose state decides the hit: normal,
    /// then armor, then invincible, ties to the first; the point may lie on another one.
    int32_t hurtbox;
    char hurtbox_id[CLV_HIT_NAME_MAX];
} clv_hit_event;

/// A candidate that did not become a hit, and why.
typedef struct clv_miss_record {
    int64_t frame;
    clv_attack_id attack;
    /// the attack's weapon and its owner when the frame began (the attack may have ended in
    /// this step; a projectile reflected on this frame is the reflector's only after it)
    clv_weapon_id weapon;
    clv_entity_id attacker;
    clv_entity_id target;
    int32_t attack_index;
    int32_t attack_frame;
    int32_t hitbox; ///< position in the frame's list
    int32_t group;
    clv_miss_reason reason;
    float distance; ///< gap between the hitbox and the nearest hurtbox (0 when touching)
} clv_miss_record;

/// A status effect tick (or the end of an effect without a tick on its last frame).
typedef struct clv_tick_event {
    int64_t frame;
    clv_entity_id target;
    clv_weapon_id weapon;        ///< the weapon whose hitbox applied the effect last
    char name[CLV_HIT_NAME_MAX]; ///< the effect's name in that weapon
    float magnitude;
    float damage; ///< hp removed by this tick
    bool expired; ///< the effect ended on this frame
    bool killed;  ///< this tick took the target's last hp
} clv_tick_event;

/// What came of two attacks that met (or of a hit that met a parry).
typedef enum clv_clash_kind {
    CLV_CLASH_CLANK = 0,         ///< damages within clank_range: both attacks end
    CLV_CLASH_OUTPRIORITIZE = 1, ///< side `winner` did more damage: the other attack ends
    CLV_CLASH_TRANSCENDED = 2,   ///< a transcendent hitbox passed through: both go on
    CLV_CLASH_TRADED = 3,        ///< a trade hitbox met the other: both go on and may hit
    CLV_CLASH_PARRY = 4,         ///< side 0's hit met side 1's parry: side 0's attack ends
    CLV_CLASH_REFLECT = 5,       ///< side `winner`'s REFLECT hitbox turned the other's projectile
    CLV_CLASH_ABSORB = 6         ///< side `winner`'s ABSORB hitbox took the other's projectile
} clv_clash_kind;

/// Two attacks whose hitboxes met on a frame, or an attack and the entity that parried it.
/// Side 0 is the attack of the lower id; for a parry it is the parried attack and side 1 the
/// parrying entity (attack and weapon null, hitbox -1).
typedef struct clv_clash_event {
    int64_t frame;
    clv_clash_kind kind;
    int32_t winner; ///< OUTPRIORITIZE, REFLECT, ABSORB: the side that goes on; -1 otherwise
    clv_attack_id attack[2];
    clv_entity_id owner[2];
    clv_weapon_id weapon[2];
    int32_t attack_index[2];
    int32_t attack_frame[2];
    int32_t hitbox[2]; ///< position of the hitbox that met, in its frame's list
    float damage[2];   ///< that hitbox's damage
    int32_t stun[2];   ///< frames of hitstun given to each owner (rebound, parry stun)
    clv_vec2 point;    ///< where they met, world
    /// Where in the motion from the previous frame's placements (0) to this one's (1) the first
    /// sub-step that met starts; 1 for hitboxes that do not sweep.
    float sweep_t;
} clv_clash_event;

/// Time spent in the last step, by phase, in the units of the def's clock_ns. Zeros without a
/// clock. Counts are filled in every case.
typedef struct clv_arena_profile {
    uint64_t integrate; ///< timers, movement, effects
    uint64_t place;     ///< advancing attacks and placing hitboxes
    uint64_t broadphase;
    uint64_t narrowphase;
    uint64_t rules;     ///< sort, filter, select, compute, apply, events
    int64_t candidates; ///< broadphase pairs
    int64_t contacts;   ///< overlapping pairs
} clv_arena_profile;

/// An arena: entities, attacks, weapons, events. Opaque.
typedef struct clv_arena clv_arena;

/// A new arena, or NULL (diag says why). def may be NULL for the defaults.
clv_arena *clv_arena_create(const clv_arena_def *def, clv_hit_diag *diag);
/// Frees the arena and everything it owns. NULL is ignored.
void clv_arena_destroy(clv_arena *arena);

/// Copies a weapon (its current content) into the arena, in the lowest slot a removal emptied,
/// or else a new one after the others: the other weapons keep their ids.
clv_hit_status clv_arena_add_weapon(clv_arena *arena, const clv_weapon *src, clv_weapon_id *out,
                                    clv_hit_diag *diag);
/// Bytes the arena's copy of weapon (its current content) holds once clv_arena_add_weapon()
/// has made it, whatever arena it goes to; 0 for NULL. A host that pays for weapons by their
/// size (a mod's memory budget) charges this much per copy.
size_t clv_weapon_arena_bytes(const clv_weapon *weapon);
/// Frees the arena's copy of a weapon and empties its slot; its id becomes stale. Refused with
/// CLV_HIT_ERR_IN_USE while an attack in progress uses it (cancel or finish those first), and
/// with CLV_HIT_ERR_STALE_ID for an id that names nothing. The last step's events may still
/// name the weapon: clv_arena_hitbox() then returns NULL. A snapshot taken while the weapon was
/// in the arena is refused afterwards (the weapons' fingerprint counts the empty slot).
clv_hit_status clv_arena_remove_weapon(clv_arena *arena, clv_weapon_id id);
/// The name of an arena weapon ("" when it has none), or NULL for an id that names nothing.
const char *clv_arena_weapon_name(const clv_arena *arena, clv_weapon_id weapon);
/// Index of the attack called name in an arena weapon, or -1.
int32_t clv_arena_find_attack(const clv_arena *arena, clv_weapon_id weapon, const char *name);
/// The definition of an attack of an arena weapon (name, frames, rules), or NULL.
const clv_attack_def *clv_arena_attack_def(const clv_arena *arena, clv_weapon_id weapon,
                                           int32_t attack);
/// Number of hitboxes on one frame of an attack of an arena weapon (0 for bad indices).
int32_t clv_arena_frame_hitbox_count(const clv_arena *arena, clv_weapon_id weapon, int32_t attack,
                                     int32_t frame);
/// The definition of a hitbox of an arena weapon (for event ids), or NULL for bad indices.
const clv_hitbox_def *clv_arena_hitbox(const clv_arena *arena, clv_weapon_id weapon, int32_t attack,
                                       int32_t frame, int32_t hitbox);

/// Spawns an entity.
clv_hit_status clv_arena_spawn(clv_arena *arena, const clv_entity_def *def, clv_entity_id *out,
                               clv_hit_diag *diag);
/// Removes an entity and ends its attacks.
clv_hit_status clv_arena_remove(clv_arena *arena, clv_entity_id id);
/// true when id names a spawned, not removed, entity (alive or not).
bool clv_arena_entity_valid(const clv_arena *arena, clv_entity_id id);
/// Reads an entity.
clv_hit_status clv_arena_entity(const clv_arena *arena, clv_entity_id id, clv_entity_info *out);
/// Moves an entity (finite coordinates).
clv_hit_status clv_arena_set_position(clv_arena *arena, clv_entity_id id, clv_vec2 position);
/// Sets an entity's velocity (finite, units per frame).
clv_hit_status clv_arena_set_velocity(clv_arena *arena, clv_entity_id id, clv_vec2 velocity);
/// Sets how an entity takes hits, for frames frames (>= 0; 0 = until changed again).
clv_hit_status clv_arena_set_state(clv_arena *arena, clv_entity_id id, clv_hurt_state state,
                                   int32_t frames);
/// Sets hp (finite; <= 0 kills, > 0 revives).
clv_hit_status clv_arena_set_hp(clv_arena *arena, clv_entity_id id, float hp);
/// Replaces an entity's hurtboxes (count 0..CLV_MAX_HURTBOXES, valid shapes).
clv_hit_status clv_arena_set_hurtboxes(clv_arena *arena, clv_entity_id id, const clv_shape *shapes,
                                       int32_t count, clv_hit_diag *diag);
/// Number of entity slots in use.
int32_t clv_arena_entity_count(const clv_arena *arena);
/// Walks the entities in id order: start with *cursor = {0, 0}; each call moves it to the next
/// entity and returns true, or returns false at the end.
bool clv_arena_next_entity(const clv_arena *arena, clv_entity_id *cursor);
/// Walks the attacks in progress in id order, like clv_arena_next_entity.
bool clv_arena_next_attack(const clv_arena *arena, clv_attack_id *cursor);

/// A projectile: an attack whose pose flies on its own (docs/hit-rules.md, "Projectiles").
typedef struct clv_projectile_def {
    clv_weapon_id weapon;
    int32_t attack;      ///< its frames play while it flies
    clv_entity_id owner; ///< must be alive; its team is the projectile's team
    clv_vec2 position;   ///< world, where its first frame is placed
    clv_vec2 velocity;   ///< units per frame, within +-1e9
    float facing;        ///< radians: turns the attack's hitboxes
    bool mirror;
    int32_t lifetime;      ///< frames it flies, 1..CLV_ATTACK_MAX_FRAMES * 16
    int32_t pierce;        ///< distinct targets it hits before it is destroyed, 0 = no limit
    float gravity;         ///< added to velocity.y every frame, within +-1e9
    bool loop;             ///< the attack starts again after its last frame (else it expires)
    bool destroy_on_clank; ///< losing a meeting destroys it (else it flies on)
    bool reflectable;      ///< a REFLECT hitbox of the other side turns it back
    bool absorbable;       ///< an ABSORB hitbox of the other side destroys it
} clv_projectile_def;

/// Defaults: no weapon, attack 0, no owner, at the origin at rest facing +x, lifetime 60,
/// pierce 1, no gravity, no loop, destroyed on clank, reflectable, absorbable.
clv_projectile_def clv_default_projectile_def(void);

/// What happened to a projectile on a frame.
typedef enum clv_projectile_event_kind {
    CLV_PROJECTILE_SPAWNED = 0,   ///< its first frame was placed
    CLV_PROJECTILE_EXPIRED = 1,   ///< its lifetime (or its attack, without loop) ran out
    CLV_PROJECTILE_DESTROYED = 2, ///< pierce used up, or a meeting or parry stopped it
    CLV_PROJECTILE_REFLECTED = 3, ///< a REFLECT hitbox turned it: it is now `by`'s
    CLV_PROJECTILE_ABSORBED = 4   ///< an ABSORB hitbox took it (destroyed)
} clv_projectile_event_kind;

typedef struct clv_projectile_event {
    int64_t frame;
    clv_projectile_event_kind kind;
    clv_attack_id projectile;
    clv_entity_id owner; ///< its owner when the frame began
    clv_weapon_id weapon;
    clv_vec2 position; ///< its pose's origin on this frame
    clv_vec2 velocity; ///< REFLECTED: the new velocity; else the current one
    /// REFLECTED, ABSORBED: the entity whose hitbox did it, and that hitbox's attack and position.
    clv_entity_id by;
    clv_attack_id by_attack;
    int32_t by_hitbox;
    float damage;   ///< ABSORBED: the damage of its hitbox that met (times its damage scale)
    int32_t reason; ///< DESTROYED: the clv_miss_reason that stopped it, or -1 for pierce
} clv_projectile_event;

/// The state of a projectile.
typedef struct clv_projectile_info {
    clv_entity_id owner;
    int32_t team;
    clv_vec2 position, velocity;
    int32_t lifetime;   ///< frames left
    int32_t hits;       ///< distinct targets hit
    float damage_scale; ///< product of the reflections' reflect_damage
} clv_projectile_info;

/// Spawns a projectile; *out (may be NULL) is its attack id (clv_arena_attack and
/// clv_arena_cancel_attack take it too). Its first frame is placed on the next step.
clv_hit_status clv_arena_spawn_projectile(clv_arena *arena, const clv_projectile_def *def,
                                          clv_attack_id *out, clv_hit_diag *diag);
/// Reads a projectile; CLV_HIT_ERR_STALE_ID when id names no projectile in flight.
clv_hit_status clv_arena_projectile(const clv_arena *arena, clv_attack_id id,
                                    clv_projectile_info *out);
/// Projectile events of the last step, in the order they happened, by projectile id within a
/// stage (spawns, then meetings, then hits, then expiries).
const clv_projectile_event *clv_arena_projectile_events(const clv_arena *arena, int32_t *count);

/// Starts an attack. Its first frame is active on the next clv_arena_step().
clv_hit_status clv_arena_start_attack(clv_arena *arena, const clv_attack_start_def *def,
                                      clv_attack_id *out, clv_hit_diag *diag);
/// Moves an attack's pose (position is an offset from the owner when it follows the owner).
clv_hit_status clv_arena_set_attack_pose(clv_arena *arena, clv_attack_id id, clv_vec2 position,
                                         float facing, bool mirror);
/// Ends an attack now.
clv_hit_status clv_arena_cancel_attack(clv_arena *arena, clv_attack_id id);
/// true while the attack runs (it ends after its last frame).
bool clv_arena_attack_valid(const clv_arena *arena, clv_attack_id id);
/// Reads an attack.
clv_hit_status clv_arena_attack(const clv_arena *arena, clv_attack_id id, clv_attack_info *out);
/// The world shapes of an attack's hitboxes on its current frame, placed from its current pose
/// (for drawing): writes min(count, cap) shapes to out (in the frame's order) and returns the
/// count, 0 before the first step; -1 for a stale id. out may be NULL when cap is 0.
int32_t clv_arena_attack_hitboxes(const clv_arena *arena, clv_attack_id id, clv_shape *out,
                                  int32_t cap);

/// Advances one frame (see docs/hit-rules.md for the order). Returns CLV_HIT_ERR_NO_MEMORY when
/// a candidate or event buffer could not grow: the frame is then left half done (restore a
/// snapshot to recover). Buffers only grow, so a steady game stops allocating.
clv_hit_status clv_arena_step(clv_arena *arena);
/// Frames stepped so far.
int64_t clv_arena_frame(const clv_arena *arena);

/// Hit events of the last step, sorted by (attack, target, hitbox). Valid until the next step.
const clv_hit_event *clv_arena_hits(const clv_arena *arena, int32_t *count);
/// Miss records of the last step, in candidate order.
const clv_miss_record *clv_arena_misses(const clv_arena *arena, int32_t *count);
/// Clashes and parries of the last step: meetings of hitboxes by (side 0, side 1) attack ids,
/// then parries by (attack, parrying entity). Valid until the next step.
const clv_clash_event *clv_arena_clashes(const clv_arena *arena, int32_t *count);
/// Status effect ticks of the last step, by entity id then effect slot.
const clv_tick_event *clv_arena_ticks(const clv_arena *arena, int32_t *count);
/// Timing and counts of the last step.
clv_arena_profile clv_arena_last_profile(const clv_arena *arena);

/// Bytes a snapshot of the current state needs.
size_t clv_arena_snapshot_size(const clv_arena *arena);
/// Writes the whole mutable state into buffer (capacity bytes); *written gets the size used.
clv_hit_status clv_arena_snapshot(const clv_arena *arena, void *buffer, size_t capacity,
                                  size_t *written);
/// Restores a snapshot. The arena's first weapon slots must hold the weapons the snapshot was
/// taken with, in the same order, and be empty where its slots were (it may hold more): the
/// snapshot carries a fingerprint of them. Every index,
/// count, free-slot hint, timer and number is checked against the invariants the arena keeps
/// (docs/hit-rules.md). Events of the last step are cleared. On error the arena is unchanged.
clv_hit_status clv_arena_restore(clv_arena *arena, const void *buffer, size_t size);
/// clv_arena_restore(), and on refusal diag (may be NULL) says why ("this arena's weapons
/// differ from those the snapshot was taken with: ...", "checksum mismatch: ...").
clv_hit_status clv_arena_restore_diag(clv_arena *arena, const void *buffer, size_t size,
                                      clv_hit_diag *diag);
/// A 64-bit digest of the state (frame, the weapons' fingerprint, entities, attacks, hit
/// records); equal states give equal hashes in every build.
uint64_t clv_arena_hash(const clv_arena *arena);

#ifdef __cplusplus
}
#endif

#endif
