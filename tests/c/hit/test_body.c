/* Bodies (animations of hurtbox lists) and the platform fighters' knockback, with values
 * worked out by hand from the published formula. */
#include "cleave/body.h"
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static clv_hurtbox_def box(const char *id, float x, float r, clv_hurtbox_state state) {
    clv_hurtbox_def d = clv_default_hurtbox_def();
    snprintf(d.id, sizeof d.id, "%s", id);
    d.shape = clv_shape_circle(x, 0.0f, r);
    d.state = state;
    return d;
}

static int32_t add_anim(clv_body *b, const char *name, int32_t frames, bool loop) {
    clv_animation_def a;
    memset(&a, 0, sizeof a);
    snprintf(a.name, sizeof a.name, "%s", name);
    a.frames = frames;
    a.loop = loop;
    int32_t index = -1;
    CHECK(clv_body_add_animation(b, &a, &index, NULL) == CLV_HIT_OK);
    return index;
}

/* A punch whose arm is out on frames 5..10 and intangible on 7..9 (0-based 6..8). */
static void test_frames_hold_their_hurtboxes(void) {
    clv_hit_diag diag;
    clv_body *b = clv_body_create("fighter", NULL, &diag);
    CHECK(b != NULL && strcmp(clv_body_name(b), "fighter") == 0);
    int32_t idle = add_anim(b, "idle", 4, true);
    int32_t punch = add_anim(b, "punch", 12, false);
    CHECK(idle == 0 && punch == 1 && clv_body_animation_count(b) == 2);
    CHECK(clv_body_find_animation(b, "punch") == 1 && clv_body_find_animation(b, "kick") == -1);
    clv_hurtbox_def torso = box("torso", 0, 10, CLV_HURTBOX_NORMAL);
    CHECK(clv_body_add_hurtbox(b, punch, 0, 11, &torso, &diag) == CLV_HIT_OK);
    clv_hurtbox_def arm = box("arm", 20, 4, CLV_HURTBOX_NORMAL);
    CHECK(clv_body_add_hurtbox(b, punch, 4, 5, &arm, &diag) == CLV_HIT_OK);
    clv_hurtbox_def ghost = box("arm", 20, 4, CLV_HURTBOX_INTANGIBLE);
    CHECK(clv_body_add_hurtbox(b, punch, 6, 8, &ghost, &diag) == CLV_HIT_OK);
    CHECK(clv_body_add_hurtbox(b, punch, 9, 9, &arm, &diag) == CLV_HIT_OK);

    int32_t n = 0;
    const clv_hurtbox_def *hb = clv_body_hurtboxes(b, punch, 7, &n);
    CHECK(n == 2 && strcmp(hb[0].id, "torso") == 0 && strcmp(hb[1].id, "arm") == 0);
    CHECK(hb[1].state == CLV_HURTBOX_INTANGIBLE);
    hb = clv_body_hurtboxes(b, punch, 9, &n);
    CHECK(n == 2 && hb[1].state == CLV_HURTBOX_NORMAL);
    hb = clv_body_hurtboxes(b, punch, 10, &n);
    CHECK(n == 1);
    CHECK(clv_body_hurtboxes(b, idle, 0, &n) == NULL && n == 0);
    CHECK(clv_body_hurtboxes(b, punch, 12, &n) == NULL && n == 0);

    /* a looping animation wraps, another holds its last frame */
    CHECK(clv_body_frame_at(b, idle, 5) == 1);
    CHECK(clv_body_frame_at(b, punch, 5) == 5);
    CHECK(clv_body_frame_at(b, punch, 400) == 11);
    CHECK(clv_body_frame_at(b, punch, -1) == -1 && clv_body_frame_at(b, 7, 0) == -1);
    clv_body_destroy(b);
}

static void test_refusals_name_the_field(void) {
    clv_hit_diag diag;
    CHECK(clv_body_create("", NULL, &diag) == NULL && diag.code == CLV_HIT_ERR_NAME);
    clv_body *b = clv_body_create("b", NULL, NULL);
    int32_t a = add_anim(b, "walk", 3, true);
    clv_animation_def dup;
    memset(&dup, 0, sizeof dup);
    snprintf(dup.name, sizeof dup.name, "walk");
    dup.frames = 2;
    CHECK(clv_body_add_animation(b, &dup, NULL, &diag) == CLV_HIT_ERR_NAME);
    CHECK(strcmp(diag.message, "animation 'walk' already exists") == 0);
    snprintf(dup.name, sizeof dup.name, "run");
    dup.frames = 0;
    CHECK(clv_body_add_animation(b, &dup, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "frames") == 0);

    clv_hurtbox_def bad = box("leg", 0, -2, CLV_HURTBOX_NORMAL);
    CHECK(clv_body_add_hurtbox(b, a, 0, 0, &bad, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strstr(diag.message, "must be >= 0") != NULL);
    bad = box("leg", 0, 2, (clv_hurtbox_state)9);
    CHECK(clv_body_add_hurtbox(b, a, 0, 0, &bad, &diag) == CLV_HIT_ERR_ENUM);
    CHECK(strcmp(diag.field, "state") == 0);
    bad = box("leg", 0, 2, CLV_HURTBOX_NORMAL);
    bad.shape = clv_shape_point(0, 0);
    CHECK(clv_body_add_hurtbox(b, a, 0, 0, &bad, &diag) == CLV_HIT_ERR_SHAPE);
    clv_hurtbox_def leg = box("leg", 0, 2, CLV_HURTBOX_NORMAL);
    CHECK(clv_body_add_hurtbox(b, a, 1, 3, &leg, &diag) == CLV_HIT_ERR_INDEX);
    CHECK(strcmp(diag.message, "frames 2..4 are not within the animation's 1..3") == 0);
    CHECK(clv_body_add_hurtbox(b, 5, 0, 0, &leg, &diag) == CLV_HIT_ERR_INDEX);
    CHECK(clv_body_add_hurtbox(b, a, 0, 1, &leg, &diag) == CLV_HIT_OK);
    CHECK(clv_body_add_hurtbox(b, a, 1, 2, &leg, &diag) == CLV_HIT_ERR_NAME);
    CHECK(strcmp(diag.message, "hurtbox id 'leg' is used twice on frame 2") == 0);

    /* 16 a frame; the 17th is refused and the frames keep what they had */
    for (int k = 0; k < CLV_BODY_MAX_HURTBOXES - 1; k++) {
        char id[8];
        snprintf(id, sizeof id, "h%d", k);
        clv_hurtbox_def h = box(id, (float)k, 1, CLV_HURTBOX_NORMAL);
        CHECK(clv_body_add_hurtbox(b, a, 0, 0, &h, NULL) == CLV_HIT_OK);
    }
    clv_hurtbox_def extra = box("extra", 0, 1, CLV_HURTBOX_ARMOR);
    CHECK(clv_body_add_hurtbox(b, a, 0, 2, &extra, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.message, "frame 1 already holds 16 hurtboxes, the most a frame may") == 0);
    int32_t n = 0;
    clv_body_hurtboxes(b, a, 2, &n);
    CHECK(n == 0);
    clv_body_hurtboxes(b, a, 0, &n);
    CHECK(n == CLV_BODY_MAX_HURTBOXES);
    clv_body_destroy(b);
}

/* ((p/10 + p*d/20) * 200/(w+100) * 1.4 + 18) * g/100 + b, p the percent after the hit. */
static void test_smash_knockback_by_hand(void) {
    clv_smash_hit h = {10.0f, 30.0f, 100.0f, 0.0f, 45.0f};
    /* p = 10, d = 10: (1 + 5) * 1 * 1.4 = 8.4; + 18 = 26.4; * 1 + 30 = 56.4 */
    CHECK_NEAR(clv_smash_knockback(&h, 0.0f, 100.0f), 56.4f, 1e-4f);
    /* p = 62, d = 12, w = 80: (6.2 + 37.2) * 200/180 * 1.4 = 67.5111; + 18 = 85.5111;
     * * 1.2 = 102.6133; + 20 = 122.6133 */
    clv_smash_hit h2 = {12.0f, 20.0f, 120.0f, 0.0f, 361.0f};
    float kb = clv_smash_knockback(&h2, 50.0f, 80.0f);
    CHECK_NEAR(kb, 122.61333f, 1e-3f);
    CHECK(clv_smash_hitstun(kb) == 49);
    CHECK_NEAR(clv_smash_launch_speed(kb), 3.6784f, 1e-3f);
    /* heavier targets fly less */
    CHECK(clv_smash_knockback(&h2, 50.0f, 120.0f) < kb);
    /* set knockback 40: p = 10, d = 40: (1 + 20) * 1.4 = 29.4; + 18 = 47.4; * 0.5 + 10 = 33.7,
     * whatever the percent */
    clv_smash_hit set = {5.0f, 10.0f, 50.0f, 40.0f, 90.0f};
    CHECK_NEAR(clv_smash_knockback(&set, 0.0f, 100.0f), 33.7f, 1e-4f);
    CHECK_NEAR(clv_smash_knockback(&set, 150.0f, 100.0f), 33.7f, 1e-4f);
    /* out of range: NaN, never a number that looks right */
    clv_smash_hit neg = {-1.0f, 0.0f, 100.0f, 0.0f, 0.0f};
    CHECK(isnan(clv_smash_knockback(&neg, 0.0f, 100.0f)));
    CHECK(isnan(clv_smash_knockback(&h, 0.0f, -100.0f)));
    CHECK(isnan(clv_smash_knockback(&h, NAN, 100.0f)));
    CHECK(clv_smash_hitstun(-5.0f) == 0);
}

static void test_sakurai_angle(void) {
    clv_smash_hit h = {10.0f, 30.0f, 100.0f, 0.0f, CLV_SMASH_SAKURAI_ANGLE};
    CHECK_NEAR(clv_smash_angle(&h, 59.9f, true), 0.0f, 0.0f);
    CHECK_NEAR(clv_smash_angle(&h, 74.0f, true), 18.5f, 1e-4f); /* 14/28 of 37 */
    CHECK_NEAR(clv_smash_angle(&h, 88.0f, true), 37.0f, 0.0f);
    CHECK_NEAR(clv_smash_angle(&h, 20.0f, false), 45.0f, 0.0f);
    h.angle = 80.0f;
    CHECK_NEAR(clv_smash_angle(&h, 20.0f, true), 80.0f, 0.0f);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_frames_hold_their_hurtboxes);
    RUN(test_refusals_name_the_field);
    RUN(test_smash_knockback_by_hand);
    RUN(test_sakurai_angle);
    return clv_test_report();
}
