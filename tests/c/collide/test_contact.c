/* Contact: the normal and depth are the true minimum translation, checked against a brute
 * force search over directions; symmetric; meaningful when capsule cores cross. */
#include <stdlib.h>

#include "cleave/collide.h"
#include "harness.h"

static const float PI = 3.14159265f;

static clv_shape moved(clv_shape s, float dx, float dy) {
    return clv_shape_translated(&s, clv_v2(dx, dy));
}

/* How far b must move along (cos th, sin th) to stop overlapping a (bisection; the set of
 * overlapping offsets along a line is an interval because both shapes are convex). */
static float exit_distance(const clv_shape *a, const clv_shape *b, float th) {
    float dx = cosf(th), dy = sinf(th), lo = 0.0f, hi = 1.0f;
    for (;;) {
        clv_shape m = moved(*b, dx * hi, dy * hi);
        if (!clv_overlap(a, &m)) {
            break;
        }
        lo = hi;
        hi *= 2.0f;
    }
    for (int i = 0; i < 40; i++) {
        float mid = 0.5f * (lo + hi);
        clv_shape m = moved(*b, dx * mid, dy * mid);
        if (clv_overlap(a, &m)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return hi;
}

static float brute_depth(const clv_shape *a, const clv_shape *b) {
    float best = INFINITY;
    for (int i = 0; i < 1440; i++) {
        float d = exit_distance(a, b, 2.0f * PI * (float)i / 1440.0f);
        best = d < best ? d : best;
    }
    return best;
}

static void check_contact(clv_shape a, clv_shape b, float nx, float ny, float depth) {
    clv_contact c, r;
    CHECK(clv_contact_shapes(&a, &b, &c));
    CHECK(clv_contact_shapes(&b, &a, &r));
    CHECK_NEAR(c.normal.x, nx, 1e-5f);
    CHECK_NEAR(c.normal.y, ny, 1e-5f);
    CHECK_NEAR(c.depth, depth, 1e-4f);
    CHECK(r.normal.x == -c.normal.x && r.normal.y == -c.normal.y && r.depth == c.depth);
}

static void test_known_contacts(void) {
    /* Circles: push b along the line of centres. */
    check_contact(clv_shape_circle(0, 0, 2), clv_shape_circle(3, 0, 2), 1, 0, 1);
    /* Crossing capsules: an X of equal blades. The true minimum translation moves b across a's
     * blade (perpendicular to a) by the half-length of b's blade projected on that normal. */
    clv_shape a = clv_shape_capsule(-10, 0, 10, 0, 1);
    clv_shape b = clv_shape_capsule(0, -5, 0, 3, 1);
    /* b crosses a vertically, reaching 5 above (-y) and 3 below: pushing it up needs 3 + 2,
     * down 5 + 2; a perpendicular of either blade alone could pick the wrong one. */
    check_contact(a, b, 0, -1, 3.0f + 2.0f);
    /* A circle sitting inside a box near its right edge leaves through that edge. */
    check_contact(clv_shape_aabb(0, 0, 10, 10), clv_shape_circle(9, 5, 1), 1, 0, 2);
    /* Two boxes: the shallow axis. */
    check_contact(clv_shape_aabb(0, 0, 10, 10), clv_shape_aabb(8, 1, 20, 9), 1, 0, 2);
    /* A zero-radius blade through a box. */
    check_contact(clv_shape_capsule(-20, 4, 20, 4, 0), clv_shape_aabb(-5, 0, 5, 5), 0, -1, 1);
}

static void test_no_contact_when_apart_or_touching(void) {
    clv_contact c;
    clv_shape a = clv_shape_circle(0, 0, 2), b = clv_shape_circle(3, 4, 3);
    CHECK(!clv_contact_shapes(&a, &b, &c));
    a = clv_shape_aabb(0, 0, 1, 1), b = clv_shape_aabb(1, 0, 2, 1);
    CHECK(!clv_contact_shapes(&a, &b, &c));
    a = clv_shape_capsule(-1, -1, 1, 1, 0), b = clv_shape_capsule(-1, 1, 1, -1, 0);
    CHECK(!clv_contact_shapes(&a, &b, &c));
}

static float frand(float lo, float hi) { return lo + (hi - lo) * (float)rand() / (float)RAND_MAX; }

static clv_shape random_shape(int type) {
    float x = frand(-6, 6), y = frand(-6, 6);
    switch (type) {
    case CLV_CIRCLE:
        return clv_shape_circle(x, y, frand(0.5f, 6));
    case CLV_CAPSULE:
        return clv_shape_capsule(x, y, x + frand(-15, 15), y + frand(-15, 15), frand(0, 4));
    case CLV_AABB:
        return clv_shape_aabb(x, y, x + frand(0.5f, 12), y + frand(0.5f, 12));
    default:
        return clv_shape_obb(x, y, frand(0.5f, 7), frand(0.5f, 7), frand(-4, 4));
    }
}

/* Random overlapping pairs of circles, capsules and boxes (cores crossing included): the depth
 * is the least translation over all directions, and moving b by it separates the pair. */
static void test_minimum_translation_against_brute_force(void) {
    srand(3);
    int checked = 0, crossing = 0, bad = 0;
    while (checked < 400) {
        clv_shape a = random_shape(1 + rand() % 4), b = random_shape(1 + rand() % 4);
        clv_contact c;
        if (!clv_contact_shapes(&a, &b, &c)) {
            continue;
        }
        checked++;
        crossing += clv_distance(&a, &b) == 0.0f && c.depth > 1.0f;
        float truth = brute_depth(&a, &b);
        /* 1440 directions overestimate the minimum by at most a factor 1/cos(pi/1440). */
        float tol = 1e-3f * (1.0f + truth);
        bool ok = c.depth <= truth + tol && c.depth >= truth * 0.99999f - tol;
        clv_shape out = moved(b, c.normal.x * (c.depth + tol), c.normal.y * (c.depth + tol));
        clv_shape in = moved(b, c.normal.x * (c.depth - tol), c.normal.y * (c.depth - tol));
        ok = ok && !clv_overlap(&a, &out) && clv_overlap(&a, &in);
        ok = ok && fabsf(c.normal.x * c.normal.x + c.normal.y * c.normal.y - 1.0f) < 1e-5f;
        if (!ok) {
            bad++;
            if (bad < 5) {
                fprintf(stderr, "types %d %d: depth %g, brute force %g, normal (%g, %g)\n", a.type,
                        b.type, (double)c.depth, (double)truth, (double)c.normal.x,
                        (double)c.normal.y);
            }
        }
    }
    printf("contact: %d overlapping pairs checked (%d with crossing cores), %d wrong\n", checked,
           crossing, bad);
    CHECK(bad == 0);
    CHECK(crossing > 50);
}

static void test_contact_point_and_blade(void) {
    clv_shape blade = clv_shape_capsule(0, 0, 100, 0, 2);
    clv_shape enemy = clv_shape_circle(80, 3, 2);
    clv_contact c;
    CHECK(clv_contact_shapes(&blade, &enemy, &c));
    CHECK_NEAR(c.ta, 0.8f, 1e-5f);
    CHECK_NEAR(c.point.x, 80.0f, 1e-4f);
    CHECK_NEAR(c.point.y, 1.5f, 1e-4f); /* midway between the surfaces at y = 2 and y = 1 */
    CHECK_NEAR(c.depth, 1.0f, 1e-5f);
    clv_shape cross = clv_shape_capsule(30, -20, 30, 20, 1);
    CHECK(clv_contact_shapes(&blade, &cross, &c));
    CHECK_NEAR(c.ta, 0.3f, 1e-5f);
    CHECK_NEAR(c.tb, 0.5f, 1e-5f);
    CHECK_NEAR(c.point.x, 30.0f, 1e-4f);
    CHECK_NEAR(c.point.y, 0.0f, 1e-4f);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_known_contacts);
    RUN(test_no_contact_when_apart_or_touching);
    RUN(test_minimum_translation_against_brute_force);
    RUN(test_contact_point_and_blade);
    return clv_test_report();
}
