/* Overlap and distance for every pair of shapes, including the cases the source articles get
 * wrong, exact touching, and symmetry. */
#include <stdlib.h>

#include "cleave/collide.h"
#include "harness.h"

static const float PI = 3.14159265f;

/* overlap and distance must agree in both orders, through the generic entry point. */
static void check_pair_at(int line, clv_shape a, clv_shape b, bool overlap, float distance) {
    int failed = clv_test_failed_;
    CHECK(clv_overlap(&a, &b) == overlap);
    CHECK(clv_overlap(&b, &a) == overlap);
    CHECK_NEAR(clv_distance(&a, &b), distance, 1e-4f);
    CHECK(clv_distance(&a, &b) == clv_distance(&b, &a));
    if (clv_test_failed_ != failed) {
        fprintf(stderr, "  (the case at line %d)\n", line);
    }
}
#define check_pair(...) check_pair_at(__LINE__, __VA_ARGS__)

static void test_point_pairs(void) {
    clv_shape p = clv_shape_point(0, 0);
    check_pair(p, clv_shape_point(0, 0), false, 0.0f); /* zero radius never overlaps */
    check_pair(p, clv_shape_point(3, 4), false, 5.0f);
    check_pair(p, clv_shape_circle(3, 4, 5), false, 0.0f); /* on the rim: touching */
    check_pair(p, clv_shape_circle(3, 4, 5.001f), true, 0.0f);
    check_pair(p, clv_shape_capsule(-5, 2, 5, 2, 2), false, 0.0f);
    check_pair(p, clv_shape_capsule(-5, 2, 5, 2, 2.5f), true, 0.0f);
    check_pair(p, clv_shape_capsule(3, 0, 9, 0, 1), false, 2.0f);
    check_pair(p, clv_shape_aabb(0, -1, 2, 1), false, 0.0f); /* on an edge */
    check_pair(p, clv_shape_aabb(-1, -1, 2, 1), true, 0.0f);
    check_pair(p, clv_shape_aabb(3, 4, 5, 6), false, 5.0f);
    check_pair(p, clv_shape_obb(0, 0, 1, 1, PI / 4), true, 0.0f);
    check_pair(p, clv_shape_obb(2, 0, 1, 1, 0), false, 1.0f);
}

static void test_circle_pairs(void) {
    clv_shape c = clv_shape_circle(0, 0, 2);
    check_pair(c, clv_shape_circle(3, 4, 3), false, 0.0f); /* exactly touching */
    check_pair(c, clv_shape_circle(3, 4, 3.01f), true, 0.0f);
    check_pair(c, clv_shape_circle(6, 8, 3), false, 5.0f);
    check_pair(c, clv_shape_capsule(-10, 5, 10, 5, 3), false, 0.0f);
    check_pair(c, clv_shape_capsule(-10, 5, 10, 5, 3.01f), true, 0.0f);
    check_pair(c, clv_shape_capsule(5, 0, 5, 0, 1), false, 2.0f); /* zero length = circle */
    check_pair(c, clv_shape_aabb(2, -1, 4, 1), false, 0.0f);
    check_pair(c, clv_shape_aabb(1.9f, -1, 4, 1), true, 0.0f);
    check_pair(c, clv_shape_aabb(3, 4, 7, 8), false, 3.0f); /* nearest corner (3, 4)... */
    /* ...and the corner trap: (1.6, 1.6) is inside both edge slabs but 2.26 from the centre. */
    check_pair(c, clv_shape_aabb(1.6f, 1.6f, 4, 4), false, 0.2627417f);
    check_pair(c, clv_shape_aabb(1.4f, 1.4f, 4, 4), true, 0.0f);
    /* Circle near an OBB corner: the seed's edge-midpoint axes report a hit here. */
    float k = 10.0f * 1.41421356f; /* corner of a 10x10 half-extent box rotated 45 degrees */
    check_pair(clv_shape_circle(k + 2.5f, 0, 2), clv_shape_obb(0, 0, 10, 10, PI / 4), false, 0.5f);
    check_pair(clv_shape_circle(k + 1.5f, 0, 2), clv_shape_obb(0, 0, 10, 10, PI / 4), true, 0.0f);
    check_pair(clv_shape_circle(0, 0, 0), clv_shape_obb(0, 0, 1, 1, 0.3f), true, 0.0f);
}

static void test_capsule_pairs(void) {
    /* Crossing thin capsules whose endpoints are far apart: the Isaac seed measures endpoints
     * only and misses this. */
    check_pair(clv_shape_capsule(-100, -100, 100, 100, 1),
               clv_shape_capsule(-100, 100, 100, -100, 1), true, 0.0f);
    check_pair(clv_shape_capsule(-100, -100, 100, 100, 0.01f),
               clv_shape_capsule(-100, 100, 100, -100, 0.01f), true, 0.0f);
    /* Two zero-radius crossing segments never overlap (no interior). */
    check_pair(clv_shape_capsule(-1, -1, 1, 1, 0), clv_shape_capsule(-1, 1, 1, -1, 0), false, 0.0f);
    /* The seed's o3/o4 bug: it takes both from the first segment, so o3 = o4 = collinear and
     * (0, 0) inside the second segment's bounding box reads as an intersection. The real gap is
     * 9900 / |(200, 101)| = 44.19 between cores. */
    check_pair(clv_shape_capsule(0, 0, 10, 0, 1), clv_shape_capsule(-100, -1, 100, 100, 1), false,
               44.185421f - 2.0f);
    /* Parallel, side by side: gap 4 - 2 = 2. */
    check_pair(clv_shape_capsule(0, 0, 10, 0, 1), clv_shape_capsule(5, 4, 15, 4, 1), false, 2.0f);
    check_pair(clv_shape_capsule(0, 0, 10, 0, 2), clv_shape_capsule(5, 4, 15, 4, 2), false, 0.0f);
    check_pair(clv_shape_capsule(0, 0, 10, 0, 2), clv_shape_capsule(5, 4, 15, 4, 2.01f), true,
               0.0f);
    /* Collinear: end to end gap 3, overlapping along the line. */
    check_pair(clv_shape_capsule(0, 0, 10, 0, 0.5f), clv_shape_capsule(13, 0, 20, 0, 1), false,
               1.5f);
    check_pair(clv_shape_capsule(0, 0, 10, 0, 0.5f), clv_shape_capsule(5, 0, 20, 0, 0.5f), true,
               0.0f);
    /* Zero-length capsules behave as circles. */
    check_pair(clv_shape_capsule(0, 0, 0, 0, 2), clv_shape_capsule(3, 4, 3, 4, 3), false, 0.0f);
    check_pair(clv_shape_capsule(0, 0, 0, 0, 2), clv_shape_capsule(3, 4, 3, 4, 3.5f), true, 0.0f);
    check_pair(clv_shape_capsule(0, 0, 0, 0, 1), clv_shape_capsule(-5, 3, 5, 3, 1), false, 1.0f);
    /* T shape: the end of one touching the side of the other exactly. */
    check_pair(clv_shape_capsule(0, -10, 0, 10, 1), clv_shape_capsule(2, 0, 9, 0, 1), false, 0.0f);
    /* Capsule vs boxes. */
    check_pair(clv_shape_capsule(-10, -10, 10, 10, 0), clv_shape_aabb(-1, -1, 1, 1), true, 0.0f);
    check_pair(clv_shape_capsule(-10, -1, 10, -1, 0), clv_shape_aabb(-1, -1, 1, 1), false, 0.0f);
    check_pair(clv_shape_capsule(-10, -1, 10, -1, 0.1f), clv_shape_aabb(-1, -1, 1, 1), true, 0.0f);
    check_pair(clv_shape_capsule(-10, -3, 10, -3, 1), clv_shape_aabb(-1, -1, 1, 1), false, 1.0f);
    /* A segment passing a corner diagonally without entering: x + y = 2 touches the box at
     * (1, 1) only. */
    check_pair(clv_shape_capsule(2, 0, 0, 2, 0), clv_shape_aabb(-1, -1, 1, 1), false, 0.0f);
    check_pair(clv_shape_capsule(3, 0, 0, 3, 0.5f), clv_shape_aabb(-1, -1, 1, 1), false,
               0.70710678f - 0.5f);
    check_pair(clv_shape_capsule(-20, 0, 20, 0, 0), clv_shape_obb(0, 0, 5, 1, PI / 3), true, 0.0f);
    check_pair(clv_shape_capsule(-20, 30, 20, 30, 2), clv_shape_obb(0, 0, 5, 1, PI / 2), false,
               23.0f);
    /* Zero-length zero-radius capsule in a box: a point. */
    check_pair(clv_shape_capsule(0.5f, 0.5f, 0.5f, 0.5f, 0), clv_shape_aabb(0, 0, 1, 1), true,
               0.0f);
    check_pair(clv_shape_capsule(0, 0.5f, 0, 0.5f, 0), clv_shape_aabb(0, 0, 1, 1), false, 0.0f);
}

static void test_box_pairs(void) {
    clv_shape a = clv_shape_aabb(0, 0, 10, 10);
    /* The seed's typo case: b's left inside a, b reaching past a's right. */
    check_pair(a, clv_shape_aabb(5, 2, 20, 8), true, 0.0f);
    check_pair(a, clv_shape_aabb(10, 2, 20, 8), false, 0.0f);   /* sharing an edge */
    check_pair(a, clv_shape_aabb(10, 10, 20, 20), false, 0.0f); /* sharing a corner */
    check_pair(a, clv_shape_aabb(13, 14, 20, 20), false, 5.0f);
    check_pair(a, clv_shape_aabb(2, 2, 2, 8), false, 0.0f); /* zero width: no interior */
    check_pair(a, clv_shape_aabb(-5, -5, 15, 15), true, 0.0f);
    check_pair(a, clv_shape_obb(5, 5, 1, 1, 0.7f), true, 0.0f);
    check_pair(a, clv_shape_obb(12, 5, 2, 1, 0), false, 0.0f);
    check_pair(a, clv_shape_obb(12, 5, 2.001f, 1, 0), true, 0.0f);
    /* A diamond whose corner stops 1 short of a's right edge. */
    check_pair(a, clv_shape_obb(10 + 1 + 2 * 1.41421356f, 5, 2, 2, PI / 4), false, 1.0f);
    check_pair(clv_shape_obb(0, 0, 5, 1, 0), clv_shape_obb(0, 0, 5, 1, PI / 2), true, 0.0f);
    check_pair(clv_shape_obb(0, 0, 1, 1, 0), clv_shape_obb(3, 0, 1, 1, PI / 4), false,
               2.0f - 1.41421356f);
}

static float frand(float lo, float hi) { return lo + (hi - lo) * (float)rand() / (float)RAND_MAX; }

static clv_shape random_shape(int type) {
    float x = frand(-10, 10), y = frand(-10, 10);
    switch (type) {
    case CLV_POINT:
        return clv_shape_point(x, y);
    case CLV_CIRCLE:
        return clv_shape_circle(x, y, frand(0, 8));
    case CLV_CAPSULE:
        return clv_shape_capsule(x, y, x + frand(-15, 15), y + frand(-15, 15), frand(0, 5));
    case CLV_AABB:
        return clv_shape_aabb(x, y, x + frand(0, 15), y + frand(0, 15));
    default:
        return clv_shape_obb(x, y, frand(0, 8), frand(0, 8), frand(-4, 4));
    }
}

/* The typed functions, the generic one and distance tell the same story, in both orders. */
static void test_symmetry_and_consistency(void) {
    srand(7);
    int mismatches = 0, overlaps = 0, n = 0;
    for (int i = 0; i < 40000; i++) {
        clv_shape a = random_shape(rand() % 5), b = random_shape(rand() % 5);
        bool ab = clv_overlap(&a, &b), ba = clv_overlap(&b, &a);
        clv_closest cab = clv_closest_points(&a, &b), cba = clv_closest_points(&b, &a);
        mismatches += ab != ba;
        mismatches += cab.distance != cba.distance;
        mismatches += cab.pa.x != cba.pb.x || cab.pa.y != cba.pb.y;
        mismatches += cab.ta != cba.tb;
        /* Positive distance means no overlap; clear overlaps have distance 0. */
        if (cab.distance > 1e-3f) {
            mismatches += ab;
        }
        if (ab) {
            mismatches += cab.distance > 1e-3f;
        }
        overlaps += ab;
        n++;
    }
    CHECK(mismatches == 0);
    CHECK(overlaps > n / 10 && overlaps < n - n / 10);
    printf("symmetry: %d random pairs, %d overlapping\n", n, overlaps);
}

/* The distance is the true gap: a translation by (distance - eps) along pb - pa keeps them
 * apart, by (distance + eps) makes them overlap. */
static clv_shape translated(clv_shape s, clv_vec2 d) { return clv_shape_translated(&s, d); }

static void test_closest_points_close_the_gap(void) {
    srand(11);
    int bad = 0, tried = 0;
    for (int i = 0; i < 20000 && tried < 3000; i++) {
        clv_shape a = random_shape(1 + rand() % 4), b = random_shape(1 + rand() % 4);
        clv_closest c = clv_closest_points(&a, &b);
        if (c.distance < 0.05f) {
            continue;
        }
        tried++;
        clv_vec2 d = clv_v2(c.pa.x - c.pb.x, c.pa.y - c.pb.y);
        float len = sqrtf(d.x * d.x + d.y * d.y);
        bad += fabsf(len - c.distance) > 1e-3f;
        clv_vec2 unit = clv_v2(d.x / len, d.y / len);
        clv_shape near = translated(b, clv_v2(unit.x * (len - 0.01f), unit.y * (len - 0.01f)));
        clv_shape past = translated(b, clv_v2(unit.x * (len + 0.01f), unit.y * (len + 0.01f)));
        bad += clv_overlap(&a, &near);
        bad += !clv_overlap(&a, &past) && b.u.circle.r + a.u.circle.r > 0.0f;
    }
    CHECK(tried == 3000);
    CHECK(bad == 0);
}

static void test_blade_parameter(void) {
    clv_shape blade = clv_shape_capsule(0, 0, 100, 0, 2);
    clv_shape enemy = clv_shape_circle(75, 10, 3);
    clv_closest c = clv_closest_points(&blade, &enemy);
    CHECK_NEAR(c.ta, 0.75f, 1e-5f);
    CHECK_NEAR(c.tb, 0.0f, 0.0f);
    CHECK_NEAR(c.distance, 5.0f, 1e-4f);
    CHECK_NEAR(c.pa.x, 75.0f, 1e-4f);
    CHECK_NEAR(c.pa.y, 2.0f, 1e-4f);
    CHECK_NEAR(c.pb.y, 7.0f, 1e-4f);
    clv_closest r = clv_closest_points(&enemy, &blade);
    CHECK_NEAR(r.tb, 0.75f, 1e-5f);
    /* Past the tip the parameter clamps to 1. */
    enemy = clv_shape_circle(130, 0, 3);
    CHECK_NEAR(clv_closest_points(&blade, &enemy).ta, 1.0f, 0.0f);
    /* Crossing blades: where they cross. */
    clv_shape other = clv_shape_capsule(25, -50, 25, 50, 1);
    c = clv_closest_points(&blade, &other);
    CHECK_NEAR(c.ta, 0.25f, 1e-5f);
    CHECK_NEAR(c.tb, 0.5f, 1e-5f);
    CHECK_NEAR(c.distance, 0.0f, 0.0f);
}

static void test_validity_and_bounds(void) {
    clv_shape s = clv_shape_capsule(0, 0, 1, 1, -1);
    CHECK(!clv_shape_valid(&s));
    s = clv_shape_circle(NAN, 0, 1);
    CHECK(!clv_shape_valid(&s));
    s = clv_shape_circle(0, INFINITY, 1);
    CHECK(!clv_shape_valid(&s));
    s = clv_shape_aabb(1, 0, 0, 1);
    CHECK(!clv_shape_valid(&s));
    s = clv_shape_obb(0, 0, -1, 1, 0);
    CHECK(!clv_shape_valid(&s));
    s = clv_shape_obb(0, 0, 1, 1, 0.5f);
    CHECK(clv_shape_valid(&s));
    s.u.obb.u = clv_v2(2, 0);
    CHECK(!clv_shape_valid(&s));
    CHECK(!clv_shape_valid(NULL));
    s = clv_shape_capsule(0, 0, 10, -4, 2);
    CHECK(clv_shape_valid(&s));
    clv_aabb b = clv_shape_bounds(&s);
    CHECK(b.min.x == -2 && b.min.y == -6 && b.max.x == 12 && b.max.y == 2);
    s = clv_shape_obb(0, 0, 2, 1, PI / 2);
    b = clv_shape_bounds(&s);
    CHECK_NEAR(b.max.x, 1.0f, 1e-5f);
    CHECK_NEAR(b.max.y, 2.0f, 1e-5f);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_point_pairs);
    RUN(test_circle_pairs);
    RUN(test_capsule_pairs);
    RUN(test_box_pairs);
    RUN(test_symmetry_and_consistency);
    RUN(test_closest_points_close_the_gap);
    RUN(test_blade_parameter);
    RUN(test_validity_and_bounds);
    return clv_test_report();
}
