/* Ray casts against every shape, checked by hand and against a marching point. */
#include <stdlib.h>

#include "cleave/collide.h"
#include "harness.h"

static void check_ray(clv_shape s, float ox, float oy, float dx, float dy, float max_t, bool hit,
                      float t, float nx, float ny) {
    clv_ray_hit h;
    bool got = clv_raycast(&s, clv_v2(ox, oy), clv_v2(dx, dy), max_t, &h);
    CHECK(got == hit);
    if (got && hit) {
        CHECK_NEAR(h.t, t, 1e-4f);
        CHECK_NEAR(h.normal.x, nx, 1e-4f);
        CHECK_NEAR(h.normal.y, ny, 1e-4f);
    }
}

static void test_each_shape(void) {
    check_ray(clv_shape_point(5, 0), 0, 0, 1, 0, 10, false, 0, 0, 0); /* no interior */
    check_ray(clv_shape_circle(5, 0, 1), 0, 0, 1, 0, 10, true, 4, -1, 0);
    check_ray(clv_shape_circle(5, 0, 1), 0, 0, 2, 0, 10, true, 2, -1, 0);   /* t in units of dir */
    check_ray(clv_shape_circle(5, 0, 1), 0, 0, 1, 0, 3.5f, false, 0, 0, 0); /* beyond max_t */
    check_ray(clv_shape_circle(5, 1, 1), 0, 0, 1, 0, 10, false, 0, 0, 0);   /* grazing */
    check_ray(clv_shape_circle(5, 0, 1), 0, 0, -1, 0, 10, false, 0, 0, 0);  /* behind */
    check_ray(clv_shape_capsule(5, -10, 5, 10, 1), 0, 0, 1, 0, 10, true, 4, -1, 0);
    /* x + y = 16 passes 0.707 from the end (5, 10): it enters the end cap at (5, 11). */
    check_ray(clv_shape_capsule(5, -10, 5, 10, 1), 0, 16, 1, -1, 100, true, 5, 0, 1);
    check_ray(clv_shape_capsule(5, -10, 5, 10, 0), 0, 0, 1, 0, 10, false, 0, 0, 0);
    check_ray(clv_shape_aabb(2, -1, 4, 1), 0, 0, 1, 0, 10, true, 2, -1, 0);
    check_ray(clv_shape_aabb(2, -1, 4, 1), 3, 5, 0, -1, 10, true, 4, 0, 1);
    check_ray(clv_shape_aabb(2, 0, 4, 1), 0, 0, 1, 0, 10, false, 0, 0, 0); /* along an edge */
    check_ray(clv_shape_obb(5, 0, 1, 1, 3.14159265f / 4), 0, 0, 1, 0, 10, true, 5 - 1.41421356f,
              -0.70710678f, -0.70710678f);
}

static void test_inside_and_zero_direction(void) {
    check_ray(clv_shape_circle(0, 0, 1), 0.5f, 0, 3, 4, 10, true, 0, -0.6f, -0.8f);
    check_ray(clv_shape_aabb(-1, -1, 1, 1), 0, 0, 0, 0, 10, true, 0, 0, -1);
    check_ray(clv_shape_circle(5, 0, 1), 0, 0, 0, 0, 10, false, 0, 0, 0);
}

static float frand(float lo, float hi) { return lo + (hi - lo) * (float)rand() / (float)RAND_MAX; }

/* March a point along random rays: the first overlapping step must lie just after the hit. */
static void test_against_marching(void) {
    srand(5);
    int bad = 0, hits = 0;
    for (int i = 0; i < 3000; i++) {
        clv_shape s;
        float x = frand(-5, 5), y = frand(-5, 5);
        switch (i % 4) {
        case 0:
            s = clv_shape_circle(x, y, frand(0.5f, 4));
            break;
        case 1:
            s = clv_shape_capsule(x, y, x + frand(-6, 6), y + frand(-6, 6), frand(0.5f, 3));
            break;
        case 2:
            s = clv_shape_aabb(x, y, x + frand(0.5f, 6), y + frand(0.5f, 6));
            break;
        default:
            s = clv_shape_obb(x, y, frand(0.5f, 4), frand(0.5f, 4), frand(-3, 3));
            break;
        }
        clv_vec2 o = clv_v2(frand(-20, 20), frand(-20, 20));
        /* Aimed near the shape so that about half the rays hit. */
        float th = atan2f(y - o.y, x - o.x) + frand(-0.4f, 0.4f);
        clv_vec2 d = clv_v2(cosf(th), sinf(th));
        clv_ray_hit h;
        bool got = clv_raycast(&s, o, d, 50.0f, &h);
        float first = -1.0f, step = 1e-3f;
        for (float t = 0.0f; t <= 50.0f; t += step) {
            clv_shape p = clv_shape_point(o.x + d.x * t, o.y + d.y * t);
            if (clv_overlap(&p, &s)) {
                first = t;
                break;
            }
        }
        hits += got;
        if (got != (first >= 0.0f) || (got && fabsf(h.t - first) > 2.5e-3f)) {
            bad++;
        }
    }
    printf("ray: 3000 random rays, %d hits, %d disagree with marching\n", hits, bad);
    CHECK(bad == 0);
    CHECK(hits > 1000);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_each_shape);
    RUN(test_inside_and_zero_direction);
    RUN(test_against_marching);
    return clv_test_report();
}
