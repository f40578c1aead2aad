/* Bodies that defend, in the arena: animated and turned hurtboxes, guard, armor, grabs and
 * throws, hit filters, smash knockback, and their snapshots. Numbers are worked out by hand. */
#include "cleave/body.h"
#include "harness.h"

#include "../../../runtime/hit/src/hit_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The snapshot header's size and where its checksum lies (snapshot.c's layout). */
#define SNAP_HEADER 112
#define AT_CHECK 80

/* A weapon of one attack "strike" of `frames` frames (rehit every frame) with hitbox d on all. */
static clv_weapon_id add_weapon(clv_arena *a, clv_hitbox_def d, int32_t frames) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def ad = clv_default_attack_def();
    snprintf(ad.name, sizeof ad.name, "strike");
    ad.frames = frames;
    ad.rehit = 1;
    CHECK(clv_weapon_add_attack(w, &ad, NULL, NULL) == CLV_HIT_OK);
    clv_hit_diag diag;
    clv_hit_status st = clv_weapon_add_hitbox(w, 0, 0, frames - 1, &d, &diag);
    if (st != CLV_HIT_OK) {
        fprintf(stderr, "add_hitbox: %s\n", diag.message);
    }
    CHECK(st == CLV_HIT_OK);
    clv_weapon_id id = {0, 0};
    CHECK(clv_arena_add_weapon(a, w, &id, NULL) == CLV_HIT_OK);
    clv_weapon_destroy(w);
    return id;
}

/* A circle hitbox of radius r at weapon-local (x, 0), no lag or stun unless set later. */
static clv_hitbox_def hitbox(float x, float r, float damage) {
    clv_hitbox_def d = clv_default_hitbox_def();
    snprintf(d.id, sizeof d.id, "edge");
    d.shape = clv_shape_circle(x, 0.0f, r);
    d.damage = damage;
    d.hitlag = 0;
    d.hitstun = 0;
    return d;
}

static clv_entity_id spawn(clv_arena *a, float x, float r, int32_t team) {
    clv_entity_def e = clv_default_entity_def();
    e.position = clv_v2(x, 0.0f);
    e.team = team;
    e.hurtbox_count = r > 0.0f ? 1 : 0;
    e.hurtboxes[0] = clv_shape_circle(0.0f, 0.0f, r);
    clv_entity_id id = {0, 0};
    CHECK(clv_arena_spawn(a, &e, &id, NULL) == CLV_HIT_OK);
    return id;
}

static clv_attack_id swing(clv_arena *a, clv_weapon_id w, clv_entity_id owner, float facing) {
    clv_attack_start_def s = clv_default_attack_start_def();
    s.weapon = w;
    s.owner = owner;
    s.facing = facing;
    clv_attack_id id = {0, 0};
    CHECK(clv_arena_start_attack(a, &s, &id, NULL) == CLV_HIT_OK);
    return id;
}

/* The frame's only hit on target, or NULL. */
static const clv_hit_event *hit_on(const clv_arena *a, clv_entity_id target) {
    int32_t n = 0;
    const clv_hit_event *h = clv_arena_hits(a, &n);
    for (int32_t i = 0; i < n; i++) {
        if (h[i].target.index1 == target.index1) {
            return &h[i];
        }
    }
    return NULL;
}

/* Swings w of me (facing +x), steps once and returns the frame's hit on foe, or NULL. */
static const clv_hit_event *swing_hit(clv_arena *a, clv_weapon_id w, clv_entity_id me,
                                      clv_entity_id foe) {
    swing(a, w, me, 0.0f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    return hit_on(a, foe);
}

/* The reason of the frame's first miss on target, or -1. */
static int32_t miss_on(const clv_arena *a, clv_entity_id target) {
    int32_t n = 0;
    const clv_miss_record *m = clv_arena_misses(a, &n);
    for (int32_t i = 0; i < n; i++) {
        if (m[i].target.index1 == target.index1) {
            return (int32_t)m[i].reason;
        }
    }
    return -1;
}

static clv_entity_info info(const clv_arena *a, clv_entity_id id) {
    clv_entity_info e;
    CHECK(clv_arena_entity(a, id, &e) == CLV_HIT_OK);
    return e;
}

static clv_entity_body_info body_info(const clv_arena *a, clv_entity_id id) {
    clv_entity_body_info b;
    CHECK(clv_arena_entity_body(a, id, &b) == CLV_HIT_OK);
    return b;
}

static clv_hurtbox_def hurt(const char *id, float x, float r, clv_hurtbox_state state) {
    clv_hurtbox_def d = clv_default_hurtbox_def();
    snprintf(d.id, sizeof d.id, "%s", id);
    d.shape = clv_shape_circle(x, 0.0f, r);
    d.state = state;
    return d;
}

/* "punch", 12 frames: the torso (radius 10) on all; the arm (radius 4, 20 ahead) out on frames
 * 5-10 (1-based), intangible on 7-9. */
static clv_body_id add_fighter(clv_arena *a) {
    clv_body *b = clv_body_create("fighter", NULL, NULL);
    clv_animation_def an;
    memset(&an, 0, sizeof an);
    snprintf(an.name, sizeof an.name, "punch");
    an.frames = 12;
    CHECK(clv_body_add_animation(b, &an, NULL, NULL) == CLV_HIT_OK);
    clv_hurtbox_def torso = hurt("torso", 0, 10, CLV_HURTBOX_NORMAL);
    clv_hurtbox_def arm = hurt("arm", 20, 4, CLV_HURTBOX_NORMAL);
    clv_hurtbox_def ghost = hurt("arm", 20, 4, CLV_HURTBOX_INTANGIBLE);
    CHECK(clv_body_add_hurtbox(b, 0, 0, 11, &torso, NULL) == CLV_HIT_OK);
    CHECK(clv_body_add_hurtbox(b, 0, 4, 5, &arm, NULL) == CLV_HIT_OK);
    CHECK(clv_body_add_hurtbox(b, 0, 6, 8, &ghost, NULL) == CLV_HIT_OK);
    CHECK(clv_body_add_hurtbox(b, 0, 9, 9, &arm, NULL) == CLV_HIT_OK);
    clv_body_id id = {0, 0};
    CHECK(clv_arena_add_body(a, b, &id, NULL) == CLV_HIT_OK);
    clv_body_destroy(b);
    return id;
}

/* A body `name` of one animation "stand", one frame long, with the n hurtboxes in this order. */
static clv_body_id still_body(clv_arena *a, const char *name, const clv_hurtbox_def *boxes, int n) {
    clv_body *b = clv_body_create(name, NULL, NULL);
    clv_animation_def an;
    memset(&an, 0, sizeof an);
    snprintf(an.name, sizeof an.name, "stand");
    an.frames = 1;
    CHECK(clv_body_add_animation(b, &an, NULL, NULL) == CLV_HIT_OK);
    for (int i = 0; i < n; i++) {
        CHECK(clv_body_add_hurtbox(b, 0, 0, 0, &boxes[i], NULL) == CLV_HIT_OK);
    }
    clv_body_id id = {0, 0};
    CHECK(clv_arena_add_body(a, b, &id, NULL) == CLV_HIT_OK);
    clv_body_destroy(b);
    return id;
}

/* A fighter at x = 100 facing -x reaches its arm out to x = 80. A one-frame jab of radius 2
 * lands at x = 80 (the arm) or x = 95 (the torso) on the step the body shows frame `frame`. */
static void jab_on_frame(int32_t frame, float at, bool *hit, int32_t *reason) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_weapon_id w = add_weapon(a, hitbox(at, 2.0f, 5.0f), 1);
    clv_entity_id me = spawn(a, 0.0f, 0.0f, 1);
    clv_entity_id foe = spawn(a, 100.0f, 1.0f, 2);
    clv_body_id b = add_fighter(a);
    CHECK(clv_arena_find_animation(a, b, "punch") == 0);
    CHECK(clv_arena_play(a, foe, b, 0) == CLV_HIT_OK);
    CHECK(clv_arena_set_facing(a, foe, 3.14159265f, false) == CLV_HIT_OK);
    for (int32_t f = 1; f < frame; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
    }
    CHECK(body_info(a, foe).frame == (frame > 1 ? frame - 2 : 0)); /* the last step's, 0-based */
    swing(a, w, me, 0.0f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    *hit = hit_on(a, foe) != NULL;
    *reason = miss_on(a, foe);
    clv_arena_destroy(a);
}

static void test_arm_intangible_on_frames_7_to_9(void) {
    bool hit = false;
    int32_t reason = -1;
    jab_on_frame(5, 80.0f, &hit, &reason); /* arm out and tangible */
    CHECK(hit && reason == -1);
    jab_on_frame(8, 80.0f, &hit, &reason);
    CHECK(!hit && reason == CLV_MISS_INTANGIBLE);
    jab_on_frame(8, 95.0f, &hit, &reason); /* the same frame, on the torso */
    CHECK(hit && reason == -1);
    jab_on_frame(10, 80.0f, &hit, &reason);
    CHECK(hit && reason == -1);
    jab_on_frame(11, 80.0f, &hit, &reason); /* the arm is back in */
    CHECK(!hit && reason == -1);
}

/* The hurtboxes turn with the entity: facing +x puts the arm at x = 120, out of the jab. */
static void test_hurtboxes_turn_with_facing(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_entity_id foe = spawn(a, 100.0f, 1.0f, 2);
    clv_body_id b = add_fighter(a);
    CHECK(clv_arena_play(a, foe, b, 0) == CLV_HIT_OK);
    for (int i = 0; i < 5; i++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
    }
    clv_shape s[16];
    clv_hurtbox_state st[16];
    CHECK(clv_arena_entity_hurtboxes(a, foe, s, st, 16) == 2);
    CHECK_NEAR(s[1].u.circle.c.x, 120.0f, 1e-4);
    CHECK(clv_arena_set_facing(a, foe, 3.14159265f, false) == CLV_HIT_OK);
    CHECK(clv_arena_entity_hurtboxes(a, foe, s, st, 16) == 2);
    CHECK_NEAR(s[1].u.circle.c.x, 80.0f, 1e-4);
    CHECK(st[0] == CLV_HURTBOX_NORMAL && st[1] == CLV_HURTBOX_NORMAL);
    clv_body_id stale = {9, 0};
    CHECK(clv_arena_play(a, foe, stale, 0) == CLV_HIT_ERR_STALE_ID);
    CHECK(clv_arena_play(a, foe, b, 1) == CLV_HIT_ERR_INDEX);
    CHECK(clv_arena_set_facing(a, foe, NAN, false) == CLV_HIT_ERR_NUMBER);
    clv_arena_destroy(a);
}

/* A guard (meter 50) facing the attacker blocks 10-damage hits with chip 0.1 and shield damage
 * 5: each takes 1 hp and 15 meter, so the 4th (meter 5 - 15 < 0) breaks it: stun 120, the
 * meter full again, and the 5th hit lands whole. */
static void test_guard_breaks_on_the_fourth_hit(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_hitbox_def d = hitbox(30.0f, 5.0f, 10.0f);
    d.chip = 0.1f;
    d.shield_damage = 5.0f;
    d.blockstun = CLV_FRAMES_AUTO;
    d.knockback.kind = CLV_KNOCKBACK_FIXED;
    d.knockback.vector = clv_v2(5.0f, 0.0f);
    clv_weapon_id w = add_weapon(a, d, 10);
    clv_entity_id me = spawn(a, 0.0f, 0.0f, 1);
    clv_entity_id foe = spawn(a, 30.0f, 4.0f, 2);
    CHECK(clv_arena_set_state(a, foe, CLV_HURT_GUARD, 0) == CLV_HIT_OK);
    CHECK(clv_arena_set_facing(a, foe, 3.14159265f, false) == CLV_HIT_OK);
    swing(a, w, me, 0.0f);
    const float meters[3] = {35.0f, 20.0f, 5.0f};
    for (int i = 0; i < 3; i++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        const clv_hit_event *h = hit_on(a, foe);
        CHECK(h != NULL && h->flags == CLV_HIT_FLAG_BLOCKED);
        CHECK(h != NULL && h->hitstun == 10); /* floor(2 + 0.8 * 10) */
        CHECK_NEAR(h != NULL ? h->damage : -1.0f, 1.0f, 1e-6);
        CHECK_NEAR(body_info(a, foe).guard_meter, meters[i], 1e-4);
        CHECK(info(a, foe).velocity.x == 0.0f && info(a, foe).state == CLV_HURT_GUARD);
    }
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    const clv_hit_event *h = hit_on(a, foe);
    CHECK(h != NULL && h->flags == (CLV_HIT_FLAG_BLOCKED | CLV_HIT_FLAG_GUARD_BREAK));
    CHECK(info(a, foe).state == CLV_HURT_NORMAL && info(a, foe).hitstun == 120);
    CHECK_NEAR(body_info(a, foe).guard_meter, 50.0f, 0.0);
    CHECK_NEAR(info(a, foe).hp, 96.0f, 1e-4);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    h = hit_on(a, foe);
    CHECK(h != NULL && h->flags == 0 && h->damage == 10.0f && h->knockback.x == 5.0f);
    clv_arena_destroy(a);
}

/* Where the guard does not hold: a hit from behind, an unblockable one; an all-round guard
 * (its body's) holds from behind too. */
static void test_guard_direction_and_unblockable(void) {
    for (int kase = 0; kase < 3; kase++) {
        clv_arena *a = clv_arena_create(NULL, NULL);
        clv_hitbox_def d = hitbox(30.0f, 5.0f, 10.0f);
        d.unblockable = kase == 1;
        clv_weapon_id w = add_weapon(a, d, 1);
        clv_entity_id me = spawn(a, 0.0f, 0.0f, 1);
        clv_entity_id foe = spawn(a, 30.0f, 4.0f, 2);
        if (kase == 2) {
            clv_body *b = clv_body_create("turtle", NULL, NULL);
            clv_animation_def an;
            memset(&an, 0, sizeof an);
            snprintf(an.name, sizeof an.name, "idle");
            an.frames = 1;
            CHECK(clv_body_add_animation(b, &an, NULL, NULL) == CLV_HIT_OK);
            clv_hurtbox_def shell = hurt("shell", 0, 4, CLV_HURTBOX_NORMAL);
            CHECK(clv_body_add_hurtbox(b, 0, 0, 0, &shell, NULL) == CLV_HIT_OK);
            clv_guard_def g = clv_default_guard_def();
            g.all_round = true;
            CHECK(clv_body_set_guard(b, &g, NULL) == CLV_HIT_OK);
            clv_body_id bid;
            CHECK(clv_arena_add_body(a, b, &bid, NULL) == CLV_HIT_OK);
            clv_body_destroy(b);
            CHECK(clv_arena_play(a, foe, bid, 0) == CLV_HIT_OK);
        } else if (kase == 1) {
            CHECK(clv_arena_set_facing(a, foe, 3.14159265f, false) == CLV_HIT_OK);
        }
        /* kase 0 and 2: the foe faces +x, away from the attacker at x = 0 */
        CHECK(clv_arena_set_state(a, foe, CLV_HURT_GUARD, 0) == CLV_HIT_OK);
        const clv_hit_event *h = swing_hit(a, w, me, foe);
        CHECK(h != NULL);
        bool blocked = h != NULL && (h->flags & CLV_HIT_FLAG_BLOCKED) != 0;
        CHECK(blocked == (kase == 2));
        CHECK_NEAR(info(a, foe).hp, kase == 2 ? 100.0f : 90.0f, 1e-4);
        clv_arena_destroy(a);
    }
}

/* Heavy armor 5 against fixed pushes of 4, 5 and 6 (weight 1): only the push below the
 * threshold is armored; it still deals its damage. */
static void test_heavy_armor_at_the_threshold(void) {
    const float pushes[3] = {4.0f, 5.0f, 6.0f};
    for (int i = 0; i < 3; i++) {
        clv_arena *a = clv_arena_create(NULL, NULL);
        clv_hitbox_def d = hitbox(30.0f, 5.0f, 7.0f);
        d.knockback.kind = CLV_KNOCKBACK_FIXED;
        d.knockback.vector = clv_v2(pushes[i], 0.0f);
        d.hitstun = CLV_FRAMES_AUTO;
        clv_weapon_id w = add_weapon(a, d, 1);
        clv_entity_id me = spawn(a, 0.0f, 0.0f, 1);
        clv_entity_id foe = spawn(a, 30.0f, 4.0f, 2);
        CHECK(clv_arena_set_armor(a, foe, CLV_ARMOR_HEAVY, 5.0f) == CLV_HIT_OK);
        const clv_hit_event *h = swing_hit(a, w, me, foe);
        CHECK(h != NULL);
        bool armored = i == 0;
        CHECK(h != NULL && ((h->flags & CLV_HIT_FLAG_ARMOR) != 0) == armored);
        CHECK(h != NULL && h->damage == 7.0f);
        CHECK_NEAR(info(a, foe).velocity.x, armored ? 0.0f : pushes[i], 0.0);
        CHECK(info(a, foe).hitstun == (armored ? 0 : (int32_t)(0.4f * pushes[i])));
        CHECK_NEAR(info(a, foe).hp, 93.0f, 1e-4);
        clv_arena_destroy(a);
    }
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_entity_id foe = spawn(a, 30.0f, 4.0f, 2);
    CHECK(clv_arena_set_armor(a, foe, CLV_ARMOR_HEAVY, 0.0f) == CLV_HIT_ERR_NUMBER);
    CHECK(clv_arena_set_armor(a, foe, (clv_armor_kind)3, 1.0f) == CLV_HIT_ERR_ENUM);
    clv_arena_destroy(a);
}

/* A hurtbox of state armor with heavy 0 is super armor: a push of 100 is taken without moving. */
static void test_super_armor_hurtbox(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_hitbox_def d = hitbox(30.0f, 5.0f, 3.0f);
    d.knockback.kind = CLV_KNOCKBACK_FIXED;
    d.knockback.vector = clv_v2(100.0f, 0.0f);
    clv_weapon_id w = add_weapon(a, d, 1);
    clv_entity_id me = spawn(a, 0.0f, 0.0f, 1);
    clv_entity_id foe = spawn(a, 30.0f, 0.0f, 2);
    clv_hurtbox_def rock = hurt("rock", 0, 4, CLV_HURTBOX_ARMOR);
    clv_body_id bid = still_body(a, "golem", &rock, 1);
    CHECK(clv_arena_play(a, foe, bid, 0) == CLV_HIT_OK);
    const clv_hit_event *h = swing_hit(a, w, me, foe);
    CHECK(h != NULL && h->flags == CLV_HIT_FLAG_ARMOR && h->damage == 3.0f);
    CHECK(info(a, foe).velocity.x == 0.0f && info(a, foe).hp == 97.0f);
    clv_arena_destroy(a);
}

static clv_hitbox_def grab_box(void) {
    clv_hitbox_def d = hitbox(30.0f, 5.0f, 0.0f);
    snprintf(d.id, sizeof d.id, "hand");
    d.kind = CLV_HITBOX_GRAB;
    return d;
}

/* A grab beats a guard and holds the target 24 ahead of the grabber, moving with it; a throw
 * hits the held target only and lets it go flying. */
static void test_grab_beats_guard_and_throw_hits_the_held_only(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_weapon_id grab = add_weapon(a, grab_box(), 1);
    clv_hitbox_def t = hitbox(20.0f, 30.0f, 8.0f);
    t.knockback.kind = CLV_KNOCKBACK_FIXED;
    t.knockback.vector = clv_v2(6.0f, -3.0f);
    clv_weapon_id toss = add_weapon(a, t, 1);
    clv_entity_id me = spawn(a, 0.0f, 4.0f, 1);
    clv_entity_id foe = spawn(a, 30.0f, 4.0f, 2);
    clv_entity_id other = spawn(a, 36.0f, 4.0f, 2);
    CHECK(clv_arena_set_state(a, foe, CLV_HURT_GUARD, 0) == CLV_HIT_OK);
    CHECK(clv_arena_set_facing(a, foe, 3.14159265f, false) == CLV_HIT_OK);
    swing(a, grab, me, 0.0f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    const clv_hit_event *h = hit_on(a, foe);
    CHECK(h != NULL && h->flags == CLV_HIT_FLAG_GRAB);
    CHECK(hit_on(a, other) == NULL && miss_on(a, other) == CLV_MISS_MAX_TARGETS);
    CHECK(info(a, foe).state == CLV_HURT_NORMAL);
    CHECK(body_info(a, foe).held_by.index1 == me.index1);
    CHECK(body_info(a, me).holding.index1 == foe.index1);
    CHECK(clv_arena_set_velocity(a, me, clv_v2(0.0f, 2.0f)) == CLV_HIT_OK);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    CHECK_NEAR(info(a, foe).position.x, 24.0f, 1e-5);
    CHECK_NEAR(info(a, foe).position.y, 2.0f, 1e-5);
    CHECK(clv_arena_set_velocity(a, me, clv_v2(0.0f, 0.0f)) == CLV_HIT_OK);
    clv_attack_start_def s = clv_default_attack_start_def();
    s.weapon = toss;
    s.owner = foe; /* holds nothing */
    clv_hit_diag diag;
    CHECK(clv_arena_throw(a, &s, NULL, &diag) == CLV_HIT_ERR_STALE_ID);
    CHECK(strcmp(diag.field, "owner") == 0);
    s.owner = me;
    CHECK(clv_arena_throw(a, &s, NULL, &diag) == CLV_HIT_OK);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    h = hit_on(a, foe);
    CHECK(h != NULL && h->flags == 0 && h->damage == 8.0f);
    CHECK(hit_on(a, other) == NULL && miss_on(a, other) == CLV_MISS_NOT_THROWN);
    CHECK(body_info(a, foe).held_by.index1 == 0 && body_info(a, me).holding.index1 == 0);
    CHECK(info(a, foe).velocity.x == 6.0f && info(a, foe).velocity.y == -3.0f);
    CHECK(clv_arena_release(a, foe) == CLV_HIT_ERR_STALE_ID);
    clv_arena_destroy(a);
}

/* A grab loses to a strike landing on the grabber on the same frame, misses airborne and
 * intangible targets, and a held grabber cannot grab its holder. */
static void test_grab_loses_and_misses(void) {
    for (int kase = 0; kase < 4; kase++) {
        clv_arena *a = clv_arena_create(NULL, NULL);
        clv_weapon_id grab = add_weapon(a, grab_box(), 1);
        clv_weapon_id jab = add_weapon(a, hitbox(30.0f, 5.0f, 4.0f), 1);
        clv_entity_id me = spawn(a, 0.0f, 4.0f, 1);
        clv_entity_id foe = spawn(a, 30.0f, 4.0f, 2);
        swing(a, grab, me, 0.0f);
        if (kase == 0) {
            swing(a, jab, foe, 3.14159265f); /* the foe jabs back on the same frame */
        } else if (kase == 1) {
            CHECK(clv_arena_set_airborne(a, foe, true) == CLV_HIT_OK);
        } else if (kase == 2) {
            CHECK(clv_arena_set_state(a, foe, CLV_HURT_INTANGIBLE, 1) == CLV_HIT_OK);
        } else {
            clv_attack_id mine = {0, 0};
            CHECK(clv_arena_next_attack(a, &mine) && clv_arena_cancel_attack(a, mine) == 0);
            swing(a, grab, foe, 3.14159265f); /* the foe grabs first */
            CHECK(clv_arena_step(a) == CLV_HIT_OK);
            CHECK(body_info(a, me).held_by.index1 == foe.index1);
            swing(a, grab, me, 0.0f);
        }
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        const int32_t want[4] = {CLV_MISS_INTERRUPTED, CLV_MISS_AIRBORNE, CLV_MISS_INTANGIBLE,
                                 CLV_MISS_INTERRUPTED};
        CHECK(hit_on(a, foe) == NULL && miss_on(a, foe) == want[kase]);
        CHECK(body_info(a, foe).held_by.index1 == 0);
        if (kase == 0) {
            const clv_hit_event *h = hit_on(a, me);
            CHECK(h != NULL && h->damage == 4.0f);
        }
        clv_arena_destroy(a);
    }
}

/* A grab and a jab whose hitboxes overlap do not meet: the jab lands on the grabber and the
 * grab, interrupted, holds nothing; no clash is reported. */
static void test_grab_meets_no_hitbox(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_weapon_id grab = add_weapon(a, grab_box(), 1);
    clv_hitbox_def spear = hitbox(0.0f, 1.0f, 4.0f);
    spear.shape = clv_shape_capsule(0.0f, 0.0f, 30.0f, 0.0f, 3.0f); /* crosses the hand */
    clv_weapon_id jab = add_weapon(a, spear, 1);
    clv_entity_id me = spawn(a, 0.0f, 4.0f, 1);
    clv_entity_id foe = spawn(a, 30.0f, 4.0f, 2);
    swing(a, grab, me, 0.0f);
    swing(a, jab, foe, 3.14159265f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    int32_t n = -1;
    clv_arena_clashes(a, &n);
    CHECK(n == 0);
    const clv_hit_event *h = hit_on(a, me);
    CHECK(h != NULL && h->damage == 4.0f);
    CHECK(miss_on(a, foe) == CLV_MISS_INTERRUPTED);
    clv_arena_destroy(a);
}

/* hits, layers and facing_restrict, each with the reason its miss gives. */
static void test_hit_filters(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_hitbox_def air = hitbox(30.0f, 5.0f, 1.0f);
    air.hits = CLV_HITS_AIR;
    clv_hitbox_def layered = hitbox(30.0f, 5.0f, 1.0f);
    layered.mask = 2;
    clv_hitbox_def front = hitbox(0.0f, 40.0f, 1.0f);
    front.facing_restrict = CLV_FACING_FRONT;
    clv_hitbox_def away = hitbox(30.0f, 5.0f, 1.0f);
    away.facing_restrict = CLV_FACING_AWAY;
    away.knockback.kind = CLV_KNOCKBACK_FIXED;
    away.knockback.vector = clv_v2(-5.0f, 1.0f); /* pulls the target in */
    clv_weapon_id w[4] = {add_weapon(a, air, 1), add_weapon(a, layered, 1), add_weapon(a, front, 1),
                          add_weapon(a, away, 1)};
    clv_entity_id me = spawn(a, 0.0f, 0.0f, 1);
    clv_entity_id foe = spawn(a, 30.0f, 4.0f, 2);
    clv_entity_id back = spawn(a, -30.0f, 4.0f, 2);
    swing(a, w[0], me, 0.0f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    CHECK(miss_on(a, foe) == CLV_MISS_GROUNDED);
    CHECK(clv_arena_set_airborne(a, foe, true) == CLV_HIT_OK);
    swing(a, w[0], me, 0.0f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    CHECK(hit_on(a, foe) != NULL);
    swing(a, w[1], me, 0.0f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    CHECK(miss_on(a, foe) == CLV_MISS_LAYER);
    CHECK(clv_arena_set_layers(a, foe, 2, 0xFFFF) == CLV_HIT_OK);
    swing(a, w[1], me, 0.0f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    CHECK(hit_on(a, foe) != NULL);
    swing(a, w[2], me, 0.0f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    CHECK(hit_on(a, foe) != NULL && miss_on(a, back) == CLV_MISS_FACING);
    swing(a, w[3], me, 0.0f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    const clv_hit_event *h = hit_on(a, foe);
    CHECK(h != NULL && h->knockback.x == 5.0f && h->knockback.y == 1.0f);
    clv_arena_destroy(a);
}

/* Smash knockback: damage 10, base 30, growth 100 on a middleweight (weight 1 = 100) at 0 %:
 * ((1 + 5) * 1.4 + 18) + 30 = 56.4 units, launch speed 1.692, hitstun 22; grounded the Sakurai
 * angle is 0 below 60 units, airborne 45 degrees. */
static void test_smash_knockback_in_the_arena(void) {
    for (int airborne = 0; airborne < 2; airborne++) {
        clv_arena *a = clv_arena_create(NULL, NULL);
        clv_hitbox_def d = hitbox(30.0f, 5.0f, 10.0f);
        d.knockback.kind = CLV_KNOCKBACK_SMASH;
        d.knockback.base = 30.0f;
        d.knockback.growth = 100.0f;
        d.knockback.sakurai = true;
        d.hitstun = CLV_FRAMES_AUTO;
        clv_weapon_id w = add_weapon(a, d, 1);
        clv_entity_id me = spawn(a, 0.0f, 0.0f, 1);
        clv_entity_id foe = spawn(a, 30.0f, 4.0f, 2);
        CHECK(clv_arena_set_airborne(a, foe, airborne != 0) == CLV_HIT_OK);
        const clv_hit_event *h = swing_hit(a, w, me, foe);
        CHECK(h != NULL && h->hitstun == 22);
        float c = airborne ? 0.70710678f : 1.0f, s = airborne ? -0.70710678f : 0.0f;
        CHECK_NEAR(h != NULL ? h->knockback.x : 0.0f, 1.692f * c, 1e-4);
        CHECK_NEAR(h != NULL ? h->knockback.y : 0.0f, 1.692f * s, 1e-4);
        clv_arena_destroy(a);
    }
}

/* A fight with a body playing, a guard half spent and a grab held: a snapshot restores it
 * exactly; a forged guard meter above its maximum is refused. */
static void test_snapshot_covers_bodies_guard_and_grabs(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_hitbox_def d = hitbox(30.0f, 5.0f, 10.0f);
    d.shield_damage = 5.0f;
    clv_weapon_id w = add_weapon(a, d, 1);
    clv_weapon_id grab = add_weapon(a, grab_box(), 1);
    clv_body_id b = add_fighter(a);
    clv_entity_id me = spawn(a, 0.0f, 4.0f, 1);
    clv_entity_id foe = spawn(a, 30.0f, 4.0f, 2);
    clv_entity_id guard = spawn(a, -30.0f, 4.0f, 2);
    CHECK(clv_arena_play(a, foe, b, 0) == CLV_HIT_OK);
    CHECK(clv_arena_set_state(a, guard, CLV_HURT_GUARD, 0) == CLV_HIT_OK);
    swing(a, w, me, 3.14159265f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    CHECK_NEAR(body_info(a, guard).guard_meter, 35.0f, 1e-4);
    swing(a, grab, me, 0.0f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    CHECK(body_info(a, me).holding.index1 == foe.index1);
    uint64_t before = clv_arena_hash(a);
    size_t len = clv_arena_snapshot_size(a);
    unsigned char *buf = malloc(len);
    CHECK(clv_arena_snapshot(a, buf, len, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_set_velocity(a, me, clv_v2(1.0f, 0.0f)) == CLV_HIT_OK);
    uint64_t hashes[6];
    for (int f = 0; f < 6; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        hashes[f] = clv_arena_hash(a);
    }
    CHECK(clv_arena_restore(a, buf, len) == CLV_HIT_OK);
    CHECK(clv_arena_hash(a) == before);
    CHECK(clv_arena_set_velocity(a, me, clv_v2(1.0f, 0.0f)) == CLV_HIT_OK);
    for (int f = 0; f < 6; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        CHECK(clv_arena_hash(a) == hashes[f]);
    }
    CHECK_NEAR(info(a, foe).position.x, 30.0f, 1e-5); /* held 24 ahead... of a grabber at 6 */
    /* a facing changes the hash */
    uint64_t h0 = clv_arena_hash(a);
    CHECK(clv_arena_set_facing(a, guard, 1.0f, false) == CLV_HIT_OK);
    CHECK(clv_arena_hash(a) != h0);
    /* forged: the guard's meter above its maximum */
    size_t cmb_at =
        SNAP_HEADER +
        (size_t)a->ent_count * (sizeof(clv__entity) + sizeof(clv__vitals) + sizeof(clv__hurt) +
                                CLV_ENTITY_MAX_EFFECTS * sizeof(clv__effect));
    size_t at =
        cmb_at + (size_t)(guard.index1 - 1) * sizeof(clv__combat) + offsetof(clv__combat, meter);
    float bad = 51.0f;
    memcpy(buf + at, &bad, sizeof bad);
    uint64_t check = clv__snapshot_check(buf, len);
    memcpy(buf + AT_CHECK, &check, sizeof check);
    clv_hit_diag diag;
    CHECK(clv_arena_restore_diag(a, buf, len, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(strcmp(diag.field, "combat") == 0);
    free(buf);
    clv_arena_destroy(a);
}

/* Three pushes of 1e8, -1e8 and 1 on one target: in float, (1e8 - 1e8) + 1 is 1 and
 * (1 - 1e8) + 1e8 is 0, so a sum in hit order would depend on which slots the attackers hold.
 * Summed in the order of their values, every spawn order gives the same velocity. */
static float three_pushes(const int order[3]) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    const float push[3] = {1.0e8f, -1.0e8f, 1.0f};
    clv_weapon_id w[3];
    for (int i = 0; i < 3; i++) {
        clv_hitbox_def d = hitbox(30.0f, 5.0f, 0.0f);
        d.knockback.kind = CLV_KNOCKBACK_FIXED;
        d.knockback.vector = clv_v2(push[i], 0.0f);
        w[i] = add_weapon(a, d, 1);
    }
    clv_entity_id owner[3];
    for (int k = 0; k < 3; k++) {
        owner[order[k]] = spawn(a, 0.0f, 0.0f, 1);
    }
    clv_entity_id foe = spawn(a, 30.0f, 4.0f, 2);
    for (int k = 0; k < 3; k++) {
        swing(a, w[order[k]], owner[order[k]], 0.0f);
    }
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    float vx = info(a, foe).velocity.x;
    clv_arena_destroy(a);
    return vx;
}

static void test_pushes_sum_in_any_order(void) {
    const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    float first = three_pushes(orders[0]);
    for (int i = 1; i < 6; i++) {
        CHECK(three_pushes(orders[i]) == first);
    }
}

/* A punch of 8 frames carries its arm (radius 4, 20 ahead) on frames 3-6 (0-based 2..5): a
 * foe's jab at the arm hits the puncher only while the arm is out, and the puncher has no other
 * hurtbox. Its snapshot replays the same. */
static void test_attack_carries_the_arm(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def ad = clv_default_attack_def();
    snprintf(ad.name, sizeof ad.name, "punch");
    ad.frames = 8;
    CHECK(clv_weapon_add_attack(w, &ad, NULL, NULL) == CLV_HIT_OK);
    clv_hurtbox_def arm = hurt("arm", 20, 4, CLV_HURTBOX_NORMAL);
    CHECK(clv_weapon_add_hurtbox(w, 0, 2, 5, &arm, NULL) == CLV_HIT_OK);
    clv_hit_diag diag;
    CHECK(clv_weapon_add_hurtbox(w, 0, 5, 8, &arm, &diag) == CLV_HIT_ERR_INDEX);
    CHECK(clv_weapon_add_hurtbox(w, 0, 4, 4, &arm, &diag) == CLV_HIT_ERR_NAME);
    clv_weapon_id punch = {0, 0};
    CHECK(clv_arena_add_weapon(a, w, &punch, NULL) == CLV_HIT_OK);
    clv_weapon_destroy(w);
    int32_t n = -1;
    CHECK(clv_arena_frame_hurtboxes(a, punch, 0, 3, &n) != NULL && n == 1);
    CHECK(clv_arena_frame_hurtboxes(a, punch, 0, 6, &n) == NULL && n == 0);
    clv_weapon_id jab = add_weapon(a, hitbox(0.0f, 2.0f, 1.0f), 1);
    clv_entity_id me = spawn(a, 0.0f, 0.0f, 1);
    clv_entity_id foe = spawn(a, 20.0f, 0.0f, 2); /* jabs at its own position: the arm */
    swing(a, punch, me, 0.0f);
    unsigned char *buf = NULL;
    size_t len = 0;
    uint64_t hashes[8];
    int32_t hit_frames = 0;
    for (int f = 0; f < 8; f++) {
        if (f == 3) {
            len = clv_arena_snapshot_size(a);
            buf = malloc(len);
            CHECK(clv_arena_snapshot(a, buf, len, NULL) == CLV_HIT_OK);
        }
        swing(a, jab, foe, 0.0f);
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        hashes[f] = clv_arena_hash(a);
        const clv_hit_event *on_me = hit_on(a, me);
        bool hit = on_me != NULL;
        CHECK(hit == (f >= 2 && f <= 5));
        CHECK(!hit || (on_me->hurtbox == 0 && strcmp(on_me->hurtbox_id, "arm") == 0));
        const char *id0 = clv_arena_entity_hurtbox_id(a, me, 0);
        CHECK(hit ? id0 != NULL && strcmp(id0, "arm") == 0 : id0 == NULL);
        CHECK(clv_arena_entity_hurtbox_id(a, me, 1) == NULL);
        hit_frames += hit ? 1 : 0;
        clv_shape s[CLV__MAX_HURT_WORLD];
        int32_t want = f >= 2 && f <= 5 ? 1 : 0;
        CHECK(clv_arena_entity_hurtboxes(a, me, s, NULL, CLV__MAX_HURT_WORLD) == want);
    }
    CHECK(hit_frames == 4);
    CHECK(clv_arena_restore(a, buf, len) == CLV_HIT_OK);
    for (int f = 3; f < 8; f++) {
        swing(a, jab, foe, 0.0f);
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        CHECK(clv_arena_hash(a) == hashes[f]);
        CHECK((hit_on(a, me) != NULL) == (f <= 5));
    }
    free(buf);
    clv_arena_destroy(a);
}

/* The hit of a jab of radius 3 at world x `at` on a knight at x = 200 whose hurtboxes are, in
 * this order, an armored shield (182..194), the torso (192..208) and the head (225..235). */
static void jab_the_knight(float at, int32_t *index, char *id) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    const clv_hurtbox_def knight[3] = {hurt("shield", -12, 6, CLV_HURTBOX_ARMOR),
                                       hurt("torso", 0, 8, CLV_HURTBOX_NORMAL),
                                       hurt("head", 30, 5, CLV_HURTBOX_NORMAL)};
    clv_body_id bid = still_body(a, "knight", knight, 3);
    clv_weapon_id w = add_weapon(a, hitbox(at, 3.0f, 1.0f), 1);
    clv_entity_id me = spawn(a, 0.0f, 0.0f, 1);
    clv_entity_id foe = spawn(a, 200.0f, 1.0f, 2);
    CHECK(clv_arena_play(a, foe, bid, 0) == CLV_HIT_OK);
    const clv_hit_event *h = swing_hit(a, w, me, foe);
    CHECK(h != NULL);
    *index = h != NULL ? h->hurtbox : -1;
    snprintf(id, CLV_HIT_NAME_MAX, "%s", h != NULL ? h->hurtbox_id : "?");
    const char *named = clv_arena_entity_hurtbox_id(a, foe, *index);
    CHECK(named != NULL && strcmp(named, id) == 0);
    clv_arena_destroy(a);
}

/* A hit names the hurtbox that took it, by its place in the target's list and by its id. Among
 * those the hitbox touches the state decides (normal over armor); a spawned shape has no id. */
static void test_hit_names_the_hurtbox(void) {
    const float at[3] = {230.0f, 185.0f, 192.0f};
    const int32_t want_index[3] = {2, 0, 1};
    const char *const want_id[3] = {"head", "shield", "torso"};
    for (int i = 0; i < 3; i++) {
        int32_t index = -1;
        char id[CLV_HIT_NAME_MAX];
        jab_the_knight(at[i], &index, id);
        CHECK(index == want_index[i]);
        CHECK(strcmp(id, want_id[i]) == 0);
    }
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_entity_id me = spawn(a, 0.0f, 0.0f, 1);
    clv_entity_def e = clv_default_entity_def();
    e.position = clv_v2(500.0f, 0.0f);
    e.team = 2;
    e.hurtbox_count = 2;
    e.hurtboxes[0] = clv_shape_circle(-40.0f, 0.0f, 4.0f);
    e.hurtboxes[1] = clv_shape_circle(40.0f, 0.0f, 4.0f);
    clv_entity_id two = {0, 0};
    CHECK(clv_arena_spawn(a, &e, &two, NULL) == CLV_HIT_OK);
    swing(a, add_weapon(a, hitbox(540.0f, 2.0f, 1.0f), 1), me, 0.0f);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    const clv_hit_event *h = hit_on(a, two);
    CHECK(h != NULL && h->hurtbox == 1 && h->hurtbox_id[0] == '\0');
    const char *id1 = clv_arena_entity_hurtbox_id(a, two, 1);
    CHECK(id1 != NULL && id1[0] == '\0');
    CHECK(clv_arena_entity_hurtbox_id(a, two, 2) == NULL);
    CHECK(clv_arena_entity_hurtbox_id(a, two, -1) == NULL);
    clv_arena_destroy(a);
}

static void test_new_fields_are_checked(void) {
    clv_hit_diag diag;
    clv_hitbox_def d = hitbox(0.0f, 1.0f, 1.0f);
    d.chip = 1.5f;
    CHECK(clv_hitbox_def_check(&d, &diag) == CLV_HIT_ERR_NUMBER && strcmp(diag.field, "chip") == 0);
    d = hitbox(0.0f, 1.0f, 1.0f);
    d.hits = (clv_hit_air)7;
    CHECK(clv_hitbox_def_check(&d, &diag) == CLV_HIT_ERR_ENUM && strcmp(diag.field, "hits") == 0);
    d = hitbox(0.0f, 1.0f, 1.0f);
    d.knockback.kind = CLV_KNOCKBACK_SMASH;
    d.knockback.set = -1.0f;
    CHECK(clv_hitbox_def_check(&d, &diag) == CLV_HIT_ERR_NUMBER &&
          strcmp(diag.field, "knockback.set") == 0);
    clv_body *b = clv_body_create("b", NULL, NULL);
    clv_guard_def g = clv_default_guard_def();
    g.meter = 0.0f;
    CHECK(clv_body_set_guard(b, &g, &diag) == CLV_HIT_ERR_NUMBER &&
          strcmp(diag.field, "guard.meter") == 0);
    clv_hurtbox_def h = hurt("x", 0, 1, CLV_HURTBOX_ARMOR);
    h.heavy = -1.0f;
    CHECK(clv_hurtbox_def_check(&h, &diag) == CLV_HIT_ERR_NUMBER &&
          strcmp(diag.field, "heavy") == 0);
    clv_body_destroy(b);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_arm_intangible_on_frames_7_to_9);
    RUN(test_hurtboxes_turn_with_facing);
    RUN(test_guard_breaks_on_the_fourth_hit);
    RUN(test_guard_direction_and_unblockable);
    RUN(test_heavy_armor_at_the_threshold);
    RUN(test_super_armor_hurtbox);
    RUN(test_grab_beats_guard_and_throw_hits_the_held_only);
    RUN(test_grab_loses_and_misses);
    RUN(test_grab_meets_no_hitbox);
    RUN(test_hit_filters);
    RUN(test_smash_knockback_in_the_arena);
    RUN(test_snapshot_covers_bodies_guard_and_grabs);
    RUN(test_pushes_sum_in_any_order);
    RUN(test_attack_carries_the_arm);
    RUN(test_hit_names_the_hurtbox);
    RUN(test_new_fields_are_checked);
    return clv_test_report();
}
