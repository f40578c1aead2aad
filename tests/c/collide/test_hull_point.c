/* clv_hull_touches against a circle or a point takes a path of its own; the general test of
 * two mpolys (clv_mpoly_touch) is its oracle, and the two must agree on every input, including
 * the boundary (distances equal to the radius to the last bit), degenerate hulls and mixed
 * magnitudes. */
#include "harness.h"
#include "motion_internal.h"

#include <stdint.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t next_u64(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static double rnd(void) { return (double)(next_u64() >> 11) * 0x1p-53; }
static float frand(float lo, float hi) { return lo + (hi - lo) * (float)rnd(); }

/* The general answer: the hull of the two cores as clv_hull_touches lists it, against the
 * target as an mpoly. */
static bool oracle(const clv_capsule *c0, const clv_capsule *c1, float r, const clv_shape *t) {
    clv_mpoly hull, m = clv_mpoly_of_shape(t);
    hull.n = 4;
    hull.all_pairs = true;
    hull.r = (double)r;
    hull.x[0] = (double)c0->a.x, hull.y[0] = (double)c0->a.y;
    hull.x[1] = (double)c0->b.x, hull.y[1] = (double)c0->b.y;
    hull.x[2] = (double)c1->b.x, hull.y[2] = (double)c1->b.y;
    hull.x[3] = (double)c1->a.x, hull.y[3] = (double)c1->a.y;
    return clv_mpoly_touch(&hull, &m);
}

static int agree = 0, touched = 0, missed = 0;

static void compare(const clv_capsule *c0, const clv_capsule *c1, float r, const clv_shape *t) {
    bool want = oracle(c0, c1, r, t), got = clv_hull_touches(c0, c1, r, t);
    if (want != got) {
        clv_vec2 p = t->type == CLV_CIRCLE ? t->u.circle.c : t->u.point;
        const float f[11] = {c0->a.x, c0->a.y, c0->b.x, c0->b.y, c1->a.x, c1->a.y,
                             c1->b.x, c1->b.y, r,       p.x,     p.y};
        double v[11];
        for (int k = 0; k < 11; k++) {
            v[k] = (double)f[k]; /* %a prints doubles */
        }
        fprintf(stderr, "hull (%a %a %a %a) (%a %a %a %a) r %a, target (%a %a): %d != %d\n", v[0],
                v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], got, want);
    }
    CHECK(want == got);
    agree += want == got;
    touched += want;
    missed += !want;
}

/* Both kinds of target at p, with radius rt for the circle. */
static void both(const clv_capsule *c0, const clv_capsule *c1, float r, clv_vec2 p, float rt) {
    clv_shape circle = clv_shape_circle(p.x, p.y, rt), point = clv_shape_point(p.x, p.y);
    compare(c0, c1, r, &circle);
    compare(c0, c1, r, &point);
}

static clv_vec2 rvec(float s) { return clv_v2(frand(-s, s), frand(-s, s)); }

/* Random swings: a blade turned and moved a little between the two cores, targets near it. */
static void test_random_swings(void) {
    for (int i = 0; i < 200000; i++) {
        float s = i % 3 == 0 ? 8000.0f : (i % 3 == 1 ? 100.0f : 2.0f);
        clv_vec2 o = rvec(s), d0 = rvec(80.0f), d1 = rvec(80.0f), m = rvec(10.0f);
        clv_capsule c0 = {o, clv_v2(o.x + d0.x, o.y + d0.y), 0.0f};
        clv_capsule c1 = {clv_v2(o.x + m.x, o.y + m.y), clv_v2(o.x + m.x + d1.x, o.y + m.y + d1.y),
                          0.0f};
        clv_vec2 p = clv_v2(o.x + frand(-120.0f, 120.0f), o.y + frand(-120.0f, 120.0f));
        both(&c0, &c1, frand(0.0f, 20.0f), p, frand(0.0f, 20.0f));
    }
}

/* Targets whose distance to a hull edge equals the grown radius to the bit, and one float
 * either side: the comparison at the boundary must fall the same way. */
static void test_boundary(void) {
    for (int i = 0; i < 50000; i++) {
        clv_vec2 o = rvec(500.0f), d = rvec(60.0f), m = rvec(6.0f);
        clv_capsule c0 = {o, clv_v2(o.x + d.x, o.y + d.y), 0.0f};
        clv_capsule c1 = {clv_v2(o.x + m.x, o.y + m.y), clv_v2(o.x + m.x + d.x, o.y + m.y + d.y),
                          0.0f};
        clv_vec2 p = clv_v2(o.x + frand(-90.0f, 90.0f), o.y + frand(-90.0f, 90.0f));
        /* the distance to the nearest of the six edges, in double, rounded to float */
        const clv_vec2 pts[4] = {c0.a, c0.b, c1.b, c1.a};
        double best = (double)INFINITY;
        for (int a = 0; a < 4; a++) {
            for (int b = a + 1; b < 4; b++) {
                double ex = (double)pts[b].x - (double)pts[a].x;
                double ey = (double)pts[b].y - (double)pts[a].y;
                double mx = (double)p.x - (double)pts[a].x, my = (double)p.y - (double)pts[a].y;
                double l2 = ex * ex + ey * ey, t = l2 > 0.0 ? (mx * ex + my * ey) / l2 : 0.0;
                t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
                double qx = mx - t * ex, qy = my - t * ey;
                double dd = sqrt(qx * qx + qy * qy);
                best = dd < best ? dd : best;
            }
        }
        float r = (float)best;
        both(&c0, &c1, r, p, 0.0f);
        both(&c0, &c1, nextafterf(r, 0.0f), p, 0.0f);
        both(&c0, &c1, nextafterf(r, INFINITY), p, 0.0f);
        /* the radius split between the hull and the circle */
        both(&c0, &c1, r * 0.5f, p, r - r * 0.5f);
    }
}

/* Degenerate hulls: both cores one point, one segment twice, collinear thrusts, crossed
 * orders; targets on vertices, on edges, inside, and far away; mixed magnitudes and signed
 * zeros. */
static void test_degenerate(void) {
    const float vals[] = {0.0f, -0.0f, 1.0f,    -1.0f,    0x1p-30f, -0x1p-30f,
                          3.5f, 1e-7f, 8191.5f, -8192.0f, 0.1f,     2.0f};
    const int nv = (int)(sizeof vals / sizeof vals[0]);
    for (int i = 0; i < 200000; i++) {
        float v[10];
        for (int k = 0; k < 10; k++) {
            v[k] = vals[next_u64() % (uint64_t)nv];
        }
        clv_capsule c0 = {clv_v2(v[0], v[1]), clv_v2(v[2], v[3]), 0.0f};
        clv_capsule c1 = {clv_v2(v[4], v[5]), clv_v2(v[6], v[7]), 0.0f};
        switch (i % 5) {
        case 0: /* one point */
            c0.b = c1.a = c1.b = c0.a;
            break;
        case 1: /* one segment twice */
            c1 = c0;
            break;
        case 2: /* collinear: a thrust along the blade */
            c1.a = clv_v2(c0.a.x + (c0.b.x - c0.a.x) * 2.0f, c0.a.y + (c0.b.y - c0.a.y) * 2.0f);
            c1.b = clv_v2(c0.a.x + (c0.b.x - c0.a.x) * 3.0f, c0.a.y + (c0.b.y - c0.a.y) * 3.0f);
            break;
        default:
            break;
        }
        clv_vec2 p = clv_v2(v[8], v[9]);
        if (i % 7 == 0) { /* on a vertex or an edge's midpoint */
            p = i % 2 ? c1.b : clv_v2(0.5f * (c0.a.x + c1.a.x), 0.5f * (c0.a.y + c1.a.y));
        }
        float r = vals[next_u64() % (uint64_t)nv];
        both(&c0, &c1, r < 0.0f ? -r : r, p, vals[next_u64() % 4] < 0.5f ? 0.0f : 1.0f);
    }
}

/* Infinities and NaNs in any coordinate or radius: both paths give the same answer (a NaN
 * compares false in each of the general test's comparisons, which the fast path keeps). */
static void test_nonfinite(void) {
    const float vals[] = {0.0f, 1.0f, -3.0f, 5.0f, 1e30f, INFINITY, -INFINITY, NAN};
    const uint64_t nv = sizeof vals / sizeof vals[0];
    for (int i = 0; i < 100000; i++) {
        float v[11];
        for (int k = 0; k < 11; k++) {
            /* mostly finite, so that a few non-finite values meet finite hulls */
            v[k] = next_u64() % 4 == 0 ? vals[next_u64() % nv] : frand(-8.0f, 8.0f);
        }
        clv_capsule c0 = {clv_v2(v[0], v[1]), clv_v2(v[2], v[3]), 0.0f};
        clv_capsule c1 = {clv_v2(v[4], v[5]), clv_v2(v[6], v[7]), 0.0f};
        both(&c0, &c1, fabsf(v[8]), clv_v2(v[9], v[10]), 1.0f);
    }
}

/* The pairs an arena meets: checked on the public entry too, by hand. */
static void test_known(void) {
    clv_capsule c0 = {{0, 0}, {10, 0}, 1}, c1 = {{0, 20}, {10, 20}, 1};
    clv_shape inside = clv_shape_circle(5, 10, 0.5f), beside = clv_shape_circle(13, 10, 1.0f);
    clv_shape touching = clv_shape_circle(13, 10, 2.0f);
    CHECK(clv_hull_touches(&c0, &c1, 0.0f, &inside));
    CHECK(!clv_hull_touches(&c0, &c1, 1.0f, &beside));
    CHECK(clv_hull_touches(&c0, &c1, 1.0f, &touching)); /* 3 = 1 + 2: touching counts */
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_known);
    RUN(test_random_swings);
    RUN(test_boundary);
    RUN(test_degenerate);
    RUN(test_nonfinite);
    printf("agreed %d times: %d touching, %d apart\n", agree, touched, missed);
    /* both answers must have been exercised, often */
    CHECK(touched > 10000);
    CHECK(missed > 10000);
    return clv_test_report();
}
