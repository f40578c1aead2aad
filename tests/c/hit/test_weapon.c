/* Weapon definitions: defaults, and every refusal with its exact message. */
#include "cleave/hit.h"
#include "harness.h"

#include <math.h>
#include <string.h>
#include <time.h>

static clv_weapon *weapon_with_swing(int32_t frames) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def a = clv_default_attack_def();
    snprintf(a.name, sizeof a.name, "swing");
    a.frames = frames;
    CHECK(w != NULL);
    CHECK(clv_weapon_add_attack(w, &a, NULL, NULL) == CLV_HIT_OK);
    return w;
}

static clv_hitbox_def named(const char *id) {
    clv_hitbox_def d = clv_default_hitbox_def();
    snprintf(d.id, sizeof d.id, "%s", id);
    return d;
}

static void test_defaults(void) {
    clv_hitbox_def d = clv_default_hitbox_def();
    CHECK(d.shape.type == CLV_CIRCLE);
    CHECK_NEAR(d.shape.u.circle.r, 8.0f, 0.0f);
    CHECK(d.group == 0 && d.max_hits == 0 && d.hitlag == CLV_FRAMES_AUTO);
    CHECK(d.hitstun == CLV_FRAMES_AUTO && d.sweep && d.effect_count == 0);
    CHECK_NEAR(d.hitlag_scale, 1.0f, 0.0f);
    /* the default is complete except for its id */
    clv_hit_diag diag;
    CHECK(clv_hitbox_def_check(&d, &diag) == CLV_HIT_ERR_NAME);
    CHECK(strcmp(diag.message, "id must not be empty") == 0);
    CHECK(strcmp(diag.field, "id") == 0);
    d = named("ok");
    CHECK(clv_hitbox_def_check(&d, &diag) == CLV_HIT_OK);
    CHECK(diag.code == CLV_HIT_OK && diag.message[0] == '\0');
    clv_attack_def a = clv_default_attack_def();
    CHECK(a.frames == 1 && a.rehit == 0 && a.lockout == 0 && a.max_targets == 0);
    clv_effect_def e = clv_default_effect_def();
    CHECK(e.duration == 60 && e.period == 10 && e.damages);
}

/* The message names the attack, the frame, the hitbox and its field, and the value. */
static void test_hitbox_errors_name_the_field(void) {
    clv_weapon *w = weapon_with_swing(8);
    clv_hitbox_def ok = named("a");
    CHECK(clv_weapon_add_hitbox(w, 0, 6, 6, &ok, NULL) == CLV_HIT_OK);
    ok = named("b");
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 7, &ok, NULL) == CLV_HIT_OK);
    CHECK(clv_weapon_frame_hitbox_count(w, 0, 6) == 2);
    CHECK(clv_weapon_frame_hitbox_count(w, 0, 5) == 1);

    clv_hit_diag diag;
    clv_hitbox_def bad = named("tip");
    bad.shape = clv_shape_capsule(0, 0, 40, 0, -3);
    CHECK(clv_weapon_add_hitbox(w, 0, 6, 6, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.message,
                 "attack 'swing' frame 6 hitbox 2 ('tip'): shape.r must be >= 0 (got -3)") == 0);
    CHECK(strcmp(diag.field, "shape.r") == 0);
    CHECK(diag.attack == 0 && diag.frame == 6 && diag.hitbox == 2 &&
          diag.code == CLV_HIT_ERR_NUMBER);

    bad = named("tip");
    bad.damage = NAN;
    CHECK(clv_weapon_add_hitbox(w, 0, 2, 4, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.message,
                 "attack 'swing' frames 2..4 hitbox 1 ('tip'): damage must be finite (got nan)") ==
          0);

    bad = named("tip");
    bad.shape = clv_shape_aabb(0, 0, 1, 1);
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_SHAPE);
    CHECK(strcmp(diag.field, "shape") == 0);
    CHECK(strstr(diag.message, "shape must be a capsule, circle or obb (got type 3)") != NULL);

    bad = named("tip");
    bad.shape = clv_shape_circle(INFINITY, 0, 2);
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "shape.x") == 0);

    bad = named("tip");
    bad.shape = clv_shape_obb(0, 0, 5, -1, 0);
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "shape.half_h") == 0);

    bad = named("tip");
    bad.shape = clv_shape_obb(0, 0, 5, 1, 0);
    bad.shape.u.obb.u = clv_v2(2.0f, 0.0f);
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_SHAPE);
    CHECK(strstr(diag.message, "shape axis must have length 1 (got 2)") != NULL);

    bad = named("a"); /* "a" is already on frame 6 */
    CHECK(clv_weapon_add_hitbox(w, 0, 5, 7, &bad, &diag) == CLV_HIT_ERR_NAME);
    CHECK(strcmp(diag.message,
                 "attack 'swing' frames 5..7 hitbox 1 ('a'): id 'a' is already used on frame 6") ==
          0);

    bad = named("tip");
    bad.max_hits = -1;
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strstr(diag.message, "max_hits must be in 0..2147483647 (got -1)") != NULL);

    bad = named("tip");
    bad.group = -2;
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "group") == 0);

    bad = named("tip");
    bad.hitlag = -2;
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strstr(diag.message, "hitlag must be in -1..3600 (got -2)") != NULL);

    bad = named("tip");
    bad.hitlag_scale = -0.5f;
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strstr(diag.message, "hitlag_scale must be >= 0 (got -0.5)") != NULL);

    bad = named("tip");
    bad.knockback.kind = CLV_KNOCKBACK_SCALING;
    bad.knockback.growth = -1;
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "knockback.growth") == 0);

    bad = named("tip");
    bad.knockback.kind = (clv_knockback_kind)9;
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_ENUM);

    bad = named("tip");
    bad.knockback.kind = CLV_KNOCKBACK_FIXED;
    bad.knockback.vector = clv_v2(NAN, 0.0f);
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "knockback.x") == 0);

    bad = named("tip");
    bad.effect_count = 1;
    bad.effects[0] = clv_default_effect_def();
    snprintf(bad.effects[0].name, sizeof bad.effects[0].name, "bleed");
    bad.effects[0].period = 61;
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strstr(diag.message, "effects[0].period must be in 1..60 (got 61)") != NULL);
    bad.effects[0].period = 10;
    bad.effects[0].name[0] = '\0';
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NAME);
    CHECK(strstr(diag.message, "effects[0].name must not be empty") != NULL);
    bad.effect_count = 5;
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "effect_count") == 0);

    bad = named("tip");
    memset(bad.id, 'x', sizeof bad.id); /* not terminated */
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, &diag) == CLV_HIT_ERR_NAME);
    CHECK(strstr(diag.message, "id must be shorter than 32 bytes") != NULL);

    /* indices */
    ok = named("c");
    CHECK(clv_weapon_add_hitbox(w, 1, 0, 0, &ok, &diag) == CLV_HIT_ERR_INDEX);
    CHECK(strcmp(diag.message, "attack index must be in 0..0 (got 1)") == 0);
    CHECK(clv_weapon_add_hitbox(w, 0, 3, 8, &ok, &diag) == CLV_HIT_ERR_INDEX);
    CHECK(strcmp(diag.message, "attack 'swing': frames 3..8 must lie in 0..7") == 0);
    CHECK(clv_weapon_add_hitbox(w, 0, 4, 3, &ok, &diag) == CLV_HIT_ERR_INDEX);
    CHECK(clv_weapon_add_hitbox(NULL, 0, 0, 0, &ok, &diag) == CLV_HIT_ERR_NULL);
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, NULL, &diag) == CLV_HIT_ERR_NULL);
    /* nothing refused was added; diag may be NULL */
    CHECK(clv_weapon_frame_hitbox_count(w, 0, 0) == 1);
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &bad, NULL) == CLV_HIT_ERR_NAME);
    clv_weapon_destroy(w);
}

static void test_attack_errors(void) {
    clv_weapon *w = weapon_with_swing(3);
    clv_hit_diag diag;
    clv_attack_def a = clv_default_attack_def();
    snprintf(a.name, sizeof a.name, "swing");
    CHECK(clv_weapon_add_attack(w, &a, NULL, &diag) == CLV_HIT_ERR_NAME);
    CHECK(strcmp(diag.message, "attack 'swing' is already defined") == 0);
    snprintf(a.name, sizeof a.name, "thrust");
    a.frames = 0;
    CHECK(clv_weapon_add_attack(w, &a, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.message, "attack 1 ('thrust'): frames must be in 1..65535 (got 0)") == 0);
    CHECK(diag.attack == 1 && strcmp(diag.field, "frames") == 0);
    a.frames = 5;
    a.rehit = -1;
    CHECK(clv_weapon_add_attack(w, &a, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "rehit") == 0);
    a.rehit = 0;
    a.lockout = -3;
    CHECK(clv_weapon_add_attack(w, &a, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    a.lockout = 0;
    a.max_targets = -1;
    CHECK(clv_weapon_add_attack(w, &a, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    a.max_targets = 0;
    int32_t index = -1;
    CHECK(clv_weapon_add_attack(w, &a, &index, &diag) == CLV_HIT_OK);
    CHECK(index == 1);
    CHECK(clv_weapon_find_attack(w, "thrust") == 1);
    CHECK(clv_weapon_find_attack(w, "swing") == 0);
    CHECK(clv_weapon_find_attack(w, "nope") == -1);
    CHECK(clv_weapon_attack_count(w) == 2);
    clv_attack_def back;
    CHECK(clv_weapon_attack(w, 1, &back) == CLV_HIT_OK);
    CHECK(strcmp(back.name, "thrust") == 0 && back.frames == a.frames);
    CHECK(clv_weapon_attack(w, 2, &back) == CLV_HIT_ERR_INDEX);
    CHECK(clv_weapon_attack(w, -1, &back) == CLV_HIT_ERR_INDEX);
    CHECK(clv_weapon_attack(w, 0, NULL) == CLV_HIT_ERR_NULL);
    CHECK(clv_weapon_add_attack(w, NULL, NULL, &diag) == CLV_HIT_ERR_NULL);
    CHECK(clv_weapon_add_attack(NULL, &a, NULL, &diag) == CLV_HIT_ERR_NULL);
    clv_weapon_destroy(w);

    clv_weapon_def wd = clv_default_weapon_def();
    wd.allocator.free = NULL;
    wd.allocator.alloc = NULL;
    memset(wd.name, 'n', sizeof wd.name);
    CHECK(clv_weapon_create(&wd, &diag) == NULL);
    CHECK(diag.code == CLV_HIT_ERR_NAME);
    CHECK(strcmp(clv_hit_status_name(CLV_HIT_ERR_STALE_ID), "stale id") == 0);
}

/* A weapon is bounded when it is built: CLV_WEAPON_MAX_FRAMES frames over all its attacks and
 * CLV_WEAPON_MAX_PLACED placed hitboxes (one per hitbox and frame), each refusal naming the
 * field; the limits themselves are accepted. */
static void test_weapon_size_limits(void) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_hit_diag diag;
    clv_attack_def a = clv_default_attack_def();
    a.frames = CLV_ATTACK_MAX_FRAMES;
    for (int i = 0; i < 4; i++) {
        snprintf(a.name, sizeof a.name, "long%d", i);
        CHECK(clv_weapon_add_attack(w, &a, NULL, &diag) == CLV_HIT_OK);
    }
    snprintf(a.name, sizeof a.name, "extra");
    a.frames = 5;
    CHECK(clv_weapon_add_attack(w, &a, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "frames") == 0 && diag.attack == 4);
    CHECK(strcmp(diag.message, "attack 4 ('extra'): the weapon's attacks would last 262145 frames "
                               "together, more than the limit of 262144") == 0);
    a.frames = 4;
    CHECK(clv_weapon_add_attack(w, &a, NULL, &diag) == CLV_HIT_OK);

    clv_hitbox_def h = named("blade");
    for (int i = 0; i < 4; i++) {
        CHECK(clv_weapon_add_hitbox(w, i, 0, CLV_ATTACK_MAX_FRAMES - 1, &h, &diag) == CLV_HIT_OK);
    }
    CHECK(clv_weapon_add_hitbox(w, 4, 0, 3, &h, &diag) == CLV_HIT_OK); /* 262144 placed */
    h = named("tip");
    CHECK(clv_weapon_add_hitbox(w, 0, 10, 10, &h, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "frames") == 0 && diag.attack == 0 && diag.frame == 10);
    CHECK(strcmp(diag.message, "attack 'long0' frame 10 hitbox 1 ('tip'): the weapon would place "
                               "262145 hitboxes (one per hitbox and frame), more than the limit "
                               "of 262144") == 0);
    clv_arena *arena = clv_arena_create(NULL, NULL);
    CHECK(clv_arena_add_weapon(arena, w, NULL, &diag) == CLV_HIT_OK);
    clv_arena_destroy(arena);
    clv_weapon_destroy(w);
}

/* Copying a weapon into an arena is linear in its frames and placed hitboxes: 4 attacks of
 * 65535 frames and 16380 hitboxes of 16 frames each (near the limit of both) copy within a
 * small budget of CPU time, where a pass over every hitbox for every frame made 4.3e9 steps. */
static void test_weapon_copy_is_bounded(void) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def a = clv_default_attack_def();
    a.frames = CLV_ATTACK_MAX_FRAMES;
    for (int i = 0; i < 4; i++) {
        snprintf(a.name, sizeof a.name, "long%d", i);
        CHECK(clv_weapon_add_attack(w, &a, NULL, NULL) == CLV_HIT_OK);
    }
    clv_hitbox_def h = named("blade");
    int added = 0;
    for (int i = 0; i < 16380; i++) {
        int32_t at = i % 4, first = (i / 4) * 16;
        snprintf(h.id, sizeof h.id, "b%d", i);
        added += clv_weapon_add_hitbox(w, at, first, first + 15, &h, NULL) == CLV_HIT_OK;
    }
    CHECK(added == 16380);
    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_weapon_id id;
    clock_t t0 = clock();
    CHECK(clv_arena_add_weapon(arena, w, &id, NULL) == CLV_HIT_OK);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    CHECK(cpu < 0.5);
    CHECK(clv_arena_frame_hitbox_count(arena, id, 3, 4094 * 16) == 1);
    const clv_hitbox_def *d = clv_arena_hitbox(arena, id, 1, 17, 0);
    CHECK(d != NULL && strcmp(d->id, "b5") == 0);
    clv_arena_destroy(arena);
    clv_weapon_destroy(w);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_defaults);
    RUN(test_hitbox_errors_name_the_field);
    RUN(test_attack_errors);
    RUN(test_weapon_size_limits);
    RUN(test_weapon_copy_is_bounded);
    return clv_test_report();
}
