/* Translation sweeps: hand-worked times of impact for each kind of pair, then random pairs of
 * every type checked against the still-shape queries of collide.h at sampled times. */
#include "cleave/motion.h"
#include "harness.h"

#include <stdint.h>

static float sweep_t(clv_shape m, float dx, float dy, clv_shape t) {
    float out = -1.0f;
    if (!clv_sweep(&m, clv_v2(dx, dy), &t, &out)) {
        return -1.0f;
    }
    return out;
}

static void test_circle_circle(void) {
    clv_shape a = clv_shape_circle(0, 0, 1), b = clv_shape_circle(5, 0, 1);
    CHECK_NEAR(sweep_t(a, 10, 0, b), 0.3, 1e-6);
    CHECK_NEAR(sweep_t(b, -10, 0, a), 0.3, 1e-6);
    CHECK(sweep_t(a, -10, 0, b) < 0.0f); /* moving away */
    /* Off-centre: 106.25 t^2 - 100 t + 21 = 0. */
    CHECK_NEAR(sweep_t(a, 10, 2.5f, b), (100.0 - sqrt(1075.0)) / 212.5, 1e-6);
    CHECK_NEAR(sweep_t(clv_shape_circle(0, 0, 3), 10, 0, b), 0.1, 1e-6); /* touch at start+ */
    CHECK(sweep_t(clv_shape_circle(4, 0, 1), 10, 0, b) == 0.0f);         /* overlapping */
    CHECK(sweep_t(clv_shape_circle(3, 0, 1), 10, 0, b) == 0.0f);         /* touching: closed */
    CHECK(sweep_t(clv_shape_circle(3, 0, 1), -10, 0, b) == 0.0f);        /* touching, leaving */
    /* A graze: the path passes at exactly the summed radii (tangent), which is contact. */
    CHECK_NEAR(sweep_t(clv_shape_circle(0, 2, 2), 10, 0, clv_shape_point(5, 0)), 0.5, 1e-6);
    CHECK(sweep_t(clv_shape_circle(0, 2.001f, 2), 10, 0, clv_shape_point(5, 0)) < 0.0f);
    CHECK(sweep_t(a, 2.9f, 0, b) < 0.0f); /* stops short */
    CHECK_NEAR(sweep_t(a, 3, 0, b), 1.0, 1e-6);
    /* Two points meet only on a direct hit. */
    CHECK_NEAR(sweep_t(clv_shape_point(0, 0), 4, 4, clv_shape_point(1, 1)), 0.25, 1e-6);
    CHECK(sweep_t(clv_shape_point(0, 0), 4, 4, clv_shape_point(1, 1.01f)) < 0.0f);
    /* The specialised entry point gives the same answer. */
    clv_circle ca = {{0, 0}, 1}, cb = {{5, 0}, 1};
    float t = -1.0f;
    CHECK(clv_sweep_circle_circle(&ca, clv_v2(10, 0), &cb, &t));
    CHECK_NEAR(t, 0.3, 1e-6);
    CHECK(!clv_sweep_circle_circle(&ca, clv_v2(0, 10), &cb, &t));
}

static void test_circle_capsule(void) {
    clv_shape cap = clv_shape_capsule(-3, 0, 3, 0, 1);
    CHECK_NEAR(sweep_t(clv_shape_circle(0, 5, 1), 0, -10, cap), 0.3, 1e-6);   /* side */
    CHECK_NEAR(sweep_t(clv_shape_circle(10, 0, 1), -10, 0, cap), 0.5, 1e-6);  /* end cap */
    CHECK_NEAR(sweep_t(clv_shape_circle(-10, 0, 1), 20, 0, cap), 0.25, 1e-6); /* other cap */
    /* Diagonal: (10,10) -> (0,0) enters the side band y <= 2 at x = 2, over the segment. */
    CHECK_NEAR(sweep_t(clv_shape_circle(10, 10, 1), -10, -10, cap), 0.8, 1e-6);
    /* (9,3) -> (0,0) enters the band beyond the end, so the cap at (3,0) decides:
     * |(6 - 9t, 3 - 3t)| = 2, 90 t^2 - 126 t + 41 = 0. */
    CHECK_NEAR(sweep_t(clv_shape_circle(9, 3, 1), -9, -3, cap), (126.0 - sqrt(1116.0)) / 180.0,
               1e-6);
    /* Points and segments (zero radii). */
    clv_shape seg = clv_shape_capsule(-3, 0, 3, 0, 0);
    CHECK_NEAR(sweep_t(clv_shape_point(0, 5), 0, -10, seg), 0.5, 1e-6);
    CHECK_NEAR(sweep_t(clv_shape_point(-10, 0), 20, 0, seg), 0.35, 1e-6); /* along its line */
    CHECK(sweep_t(clv_shape_point(-10, 0.001f), 20, 0, seg) < 0.0f);
    CHECK(sweep_t(clv_shape_point(4, 5), 0, -10, seg) < 0.0f); /* passes beyond */
    CHECK(sweep_t(clv_shape_point(0, 0), 0, 1, seg) == 0.0f);  /* on it at start */
    /* A zero-length capsule is a circle. */
    CHECK_NEAR(sweep_t(clv_shape_circle(0, 0, 1), 10, 0, clv_shape_capsule(5, 0, 5, 0, 1)), 0.3,
               1e-6);
    clv_circle c = {{0, 5}, 1};
    clv_capsule k = {{-3, 0}, {3, 0}, 1};
    float t = -1.0f;
    CHECK(clv_sweep_circle_capsule(&c, clv_v2(0, -10), &k, &t));
    CHECK_NEAR(t, 0.3, 1e-6);
}

static void test_capsule_pairs(void) {
    /* The cores cross halfway although no end comes near the other core. */
    clv_shape bar = clv_shape_capsule(0, -5, 0, 5, 0), stub = clv_shape_capsule(5, -1, 5, 1, 0);
    CHECK_NEAR(sweep_t(bar, 10, 0, stub), 0.5, 1e-6);
    CHECK_NEAR(sweep_t(stub, -10, 0, bar), 0.5, 1e-6);
    /* Crossing at the start: 0. */
    CHECK(sweep_t(clv_shape_capsule(-1, -1, 1, 1, 0), 5, 0, clv_shape_capsule(-1, 1, 1, -1, 0)) ==
          0.0f);
    /* Parallel capsules closing: gap 10 - 2 radii. */
    CHECK_NEAR(
        sweep_t(clv_shape_capsule(0, 0, 10, 0, 1), 0, 20, clv_shape_capsule(2, 10, 8, 10, 1)), 0.4,
        1e-6);
    /* A capsule against every other type. */
    clv_shape blade = clv_shape_capsule(-10, 0, -6, 0, 1);
    CHECK_NEAR(sweep_t(blade, 20, 0, clv_shape_point(0, 0)), 0.25, 1e-6);
    CHECK_NEAR(sweep_t(blade, 20, 0, clv_shape_circle(0, 0, 1)), 0.2, 1e-6);
    CHECK_NEAR(sweep_t(blade, 20, 0, clv_shape_aabb(0, -1, 2, 1)), 0.25, 1e-6);
    /* Grazes the corner (0, 1) with the top of its end cap when the cap's centre reaches x = 0. */
    CHECK_NEAR(sweep_t(blade, 20, 0, clv_shape_aabb(0, 1, 2, 3)), 0.3, 1e-6);
    CHECK(sweep_t(blade, 20, 0, clv_shape_aabb(0, 1.01f, 2, 3)) < 0.0f);
    /* OBB turned 45 degrees, its left corner at x = 5 - sqrt(2). */
    clv_shape diamond = clv_shape_obb(5, 0, 1, 1, 0.78539816f);
    CHECK_NEAR(sweep_t(blade, 20, 0, diamond), (5.0 - sqrt(2.0) - 1.0 + 6.0) / 20.0, 1e-5);
}

static void test_boxes(void) {
    clv_shape box = clv_shape_aabb(0, -1, 2, 1);
    CHECK_NEAR(sweep_t(clv_shape_circle(-5, 0, 1), 10, 0, box), 0.4, 1e-6);
    /* Past a corner: centre (x, 1.5) touches corner (0, 1) at x = -sqrt(0.75). */
    CHECK_NEAR(sweep_t(clv_shape_circle(-5, 1.5f, 1), 10, 0, box), (5.0 - sqrt(0.75)) / 10.0, 1e-6);
    CHECK(sweep_t(clv_shape_point(1, 0), 5, 5, box) == 0.0f); /* inside at the start */
    CHECK(sweep_t(clv_shape_circle(1, 0, 0.1f), 0, 0, box) == 0.0f);
    CHECK(sweep_t(clv_shape_circle(-5, 0, 1), 0, 0, box) < 0.0f); /* no motion, apart */
    /* Box against box: the moving square's right edge reaches the diamond's left corner. */
    clv_shape sq = clv_shape_aabb(-1, -1, 1, 1);
    clv_shape diamond = clv_shape_obb(5, 0, 1, 1, 0.78539816f);
    CHECK_NEAR(sweep_t(sq, 10, 0, diamond), (4.0 - sqrt(2.0)) / 10.0, 1e-6);
    CHECK_NEAR(sweep_t(diamond, -10, 0, sq), (4.0 - sqrt(2.0)) / 10.0, 1e-6);
    CHECK_NEAR(sweep_t(sq, 10, 0, clv_shape_aabb(4, 0.5f, 6, 3)), 0.3, 1e-6);
    CHECK_NEAR(sweep_t(sq, 10, 0, clv_shape_aabb(4, 1, 6, 3)), 0.3, 1e-6); /* edge to edge */
    CHECK(sweep_t(sq, 10, 0, clv_shape_aabb(4, 1.01f, 6, 3)) < 0.0f);
    /* A moving box against a circle and a capsule. */
    CHECK_NEAR(sweep_t(sq, 10, 0, clv_shape_circle(5, 0, 1)), 0.3, 1e-6);
    CHECK_NEAR(sweep_t(sq, 0, 10, clv_shape_capsule(-5, 5, 5, 5, 1)), 0.3, 1e-6);
    /* A box swallowing a small circle, and a circle swallowing a box. */
    CHECK(sweep_t(clv_shape_aabb(-10, -10, 10, 10), 1, 0, clv_shape_circle(0, 0, 1)) == 0.0f);
    CHECK(sweep_t(clv_shape_circle(0, 0, 10), 1, 0, clv_shape_aabb(-1, -1, 1, 1)) == 0.0f);
}

static void test_bad_input(void) {
    clv_shape a = clv_shape_circle(0, 0, 1), b = clv_shape_circle(5, 0, 1);
    float t = 7.0f;
    CHECK(!clv_sweep(&a, clv_v2(NAN, 0), &b, &t));
    CHECK(!clv_sweep(&a, clv_v2(INFINITY, 0), &b, &t));
    CHECK(t == 7.0f); /* untouched on a miss */
    CHECK(clv_sweep(&a, clv_v2(10, 0), &b, NULL));
}

/* ---- random pairs against collide.h ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static double rnd(void) { /* uniform in [0, 1) */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * 0x1p-53;
}
static float urand(float lo, float hi) { return lo + (hi - lo) * (float)rnd(); }

static clv_shape random_shape(int type) {
    float x = urand(-12, 12), y = urand(-12, 12);
    switch (type) {
    case CLV_POINT:
        return clv_shape_point(x, y);
    case CLV_CIRCLE:
        return clv_shape_circle(x, y, urand(0, 6));
    case CLV_CAPSULE:
        return clv_shape_capsule(x, y, x + urand(-15, 15), y + urand(-15, 15),
                                 rnd() < 0.2 ? 0.0f : urand(0, 5));
    case CLV_AABB:
        return clv_shape_aabb(x, y, x + urand(0, 12), y + urand(0, 12));
    default:
        return clv_shape_obb(x, y, urand(0, 8), urand(0, 8), urand(-4, 4));
    }
}

static clv_shape moved(clv_shape s, float dx, float dy) {
    return clv_shape_translated(&s, clv_v2(dx, dy));
}

/* Overlap deeper than float noise (collide.h's contact depth). */
static bool deep_overlap(const clv_shape *a, const clv_shape *b) {
    clv_contact c;
    return clv_contact_shapes(a, b, &c) && c.depth > 1e-3f;
}

static void test_random_against_queries(void) {
    int cases = 0, hits = 0, late = 0, wrong_start = 0, far_at_t = 0;
    for (int mt = 0; mt < CLV_SHAPE_TYPE_COUNT; mt++) {
        for (int tt = 0; tt < CLV_SHAPE_TYPE_COUNT; tt++) {
            for (int i = 0; i < 800; i++) {
                clv_shape m = random_shape(mt), t = random_shape(tt);
                float dx = urand(-60, 60), dy = urand(-60, 60);
                float th = -1.0f;
                bool hit = clv_sweep(&m, clv_v2(dx, dy), &t, &th);
                cases++;
                bool overlap0 = clv_overlap(&m, &t);
                if (overlap0 && !(hit && th == 0.0f)) {
                    wrong_start++;
                }
                /* Before the hit (or throughout, on a miss) nothing overlaps beyond noise. */
                float end = hit ? th - 1e-3f : 1.0f;
                for (int k = 0; k <= 256 && end > 0.0f; k++) {
                    float s = end * (float)k / 256.0f;
                    clv_shape ms = moved(m, s * dx, s * dy);
                    if (deep_overlap(&ms, &t)) {
                        if (late < 5) {
                            fprintf(stderr, "late: types %d %d, hit %d t %g, overlap at %g\n", mt,
                                    tt, (int)hit, (double)th, (double)s);
                        }
                        late++;
                        break;
                    }
                }
                if (hit) {
                    hits++;
                    clv_shape ms = moved(m, th * dx, th * dy);
                    if (clv_distance(&ms, &t) > 1e-3f) {
                        far_at_t++; /* at the reported t the surfaces must meet */
                    }
                }
            }
        }
    }
    printf("random sweeps: %d cases, %d hits\n", cases, hits);
    CHECK(hits > cases / 5 && hits < cases * 4 / 5); /* the random set exercises both sides */
    CHECK(wrong_start == 0);
    CHECK(late == 0);
    CHECK(far_at_t == 0);
}

/* A circle sweep equals the general one, and the answer does not depend on which shape moves. */
static void test_symmetry(void) {
    int mismatches = 0, asym = 0;
    for (int i = 0; i < 20000; i++) {
        int mt = (int)(rnd() * CLV_SHAPE_TYPE_COUNT), tt = (int)(rnd() * CLV_SHAPE_TYPE_COUNT);
        clv_shape m = random_shape(mt), t = random_shape(tt);
        float dx = urand(-60, 60), dy = urand(-60, 60);
        float t1 = -1.0f, t2 = -1.0f;
        bool h1 = clv_sweep(&m, clv_v2(dx, dy), &t, &t1);
        bool h2 = clv_sweep(&t, clv_v2(-dx, -dy), &m, &t2);
        if (h1 != h2 || (h1 && fabsf(t1 - t2) > 1e-5f)) {
            asym++;
        }
        if (mt == CLV_CIRCLE && (tt == CLV_CIRCLE || tt == CLV_CAPSULE)) {
            float t3 = -1.0f;
            bool h3 =
                tt == CLV_CIRCLE
                    ? clv_sweep_circle_circle(&m.u.circle, clv_v2(dx, dy), &t.u.circle, &t3)
                    : clv_sweep_circle_capsule(&m.u.circle, clv_v2(dx, dy), &t.u.capsule, &t3);
            if (h3 != h1 || (h1 && t3 != t1)) {
                mismatches++;
            }
        }
    }
    CHECK(asym == 0);
    CHECK(mismatches == 0);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_circle_circle);
    RUN(test_circle_capsule);
    RUN(test_capsule_pairs);
    RUN(test_boxes);
    RUN(test_bad_input);
    RUN(test_random_against_queries);
    RUN(test_symmetry);
    return clv_test_report();
}
