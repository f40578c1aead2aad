/* Swept hitboxes between poses (clv_swept): the "no tunnelling" test against a fine sampling of
 * the motion, plus the sub-step rule, the bounds and hand-made swings. The covers are built here
 * as a caller builds them: sub-step hulls of the cores, grown by the radius, bend and slack. */
#include "cleave/motion.h"
#include "harness.h"

#include <stdint.h>

static const double pi = 3.14159265358979323846;

static uint64_t rng_state = 0xD1B54A32D192ED03u;
static double rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * 0x1p-53;
}
static double urand(double lo, double hi) { return lo + (hi - lo) * rnd(); }

/* ---- the sampling oracle, in double, written independently of the library ---- */

typedef struct seg {
    double ax, ay, bx, by;
} seg;

static double clamp01(double t) { return t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t); }

/* Distance between two closed segments (closest points of two segments, clamped). */
static double seg_dist(seg p, seg q) {
    double d1x = p.bx - p.ax, d1y = p.by - p.ay, d2x = q.bx - q.ax, d2y = q.by - q.ay;
    double rx = p.ax - q.ax, ry = p.ay - q.ay;
    double a = d1x * d1x + d1y * d1y, e = d2x * d2x + d2y * d2y, f = d2x * rx + d2y * ry;
    double s, t;
    if (a == 0.0 && e == 0.0) {
        s = t = 0.0;
    } else if (a == 0.0) {
        s = 0.0;
        t = clamp01(f / e);
    } else {
        double c = d1x * rx + d1y * ry;
        if (e == 0.0) {
            t = 0.0;
            s = clamp01(-c / a);
        } else {
            double b = d1x * d2x + d1y * d2y, den = a * e - b * b;
            s = den != 0.0 ? clamp01((b * f - c * e) / den) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = clamp01(-c / a);
            } else if (t > 1.0) {
                t = 1.0;
                s = clamp01((b - c) / a);
            }
        }
    }
    double dx = (p.ax + d1x * s) - (q.ax + d2x * t), dy = (p.ay + d1y * s) - (q.ay + d2y * t);
    double d = sqrt(dx * dx + dy * dy);
    /* Crossing segments: the clamped search can land beside the crossing; test it directly. */
    double o1 = d1x * (q.ay - p.ay) - d1y * (q.ax - p.ax);
    double o2 = d1x * (q.by - p.ay) - d1y * (q.bx - p.ax);
    double o3 = d2x * (p.ay - q.ay) - d2y * (p.ax - q.ax);
    double o4 = d2x * (p.by - q.ay) - d2y * (p.bx - q.ax);
    if (((o1 < 0.0) != (o2 < 0.0)) && ((o3 < 0.0) != (o4 < 0.0)) && o1 != 0.0 && o2 != 0.0 &&
        o3 != 0.0 && o4 != 0.0) {
        return 0.0;
    }
    return d;
}

static seg blade_at(const clv_capsule *local, clv_pose p0, clv_pose p1, double s) {
    double th = (double)p0.angle + s * ((double)p1.angle - (double)p0.angle);
    double x = (double)p0.x + s * ((double)p1.x - (double)p0.x);
    double y = (double)p0.y + s * ((double)p1.y - (double)p0.y);
    double c = cos(th), sn = sin(th);
    seg g;
    g.ax = c * (double)local->a.x - sn * (double)local->a.y + x;
    g.ay = sn * (double)local->a.x + c * (double)local->a.y + y;
    g.bx = c * (double)local->b.x - sn * (double)local->b.y + x;
    g.by = sn * (double)local->b.x + c * (double)local->b.y + y;
    return g;
}

static seg core_of(const clv_shape *t) {
    seg g;
    if (t->type == CLV_CIRCLE) {
        g.ax = g.bx = (double)t->u.circle.c.x;
        g.ay = g.by = (double)t->u.circle.c.y;
    } else {
        g.ax = (double)t->u.capsule.a.x, g.ay = (double)t->u.capsule.a.y;
        g.bx = (double)t->u.capsule.b.x, g.by = (double)t->u.capsule.b.y;
    }
    return g;
}

static double radius_of(const clv_shape *t) {
    return t->type == CLV_CIRCLE ? (double)t->u.circle.r : (double)t->u.capsule.r;
}

static double rho_of(const clv_capsule *c) {
    return fmax(hypot((double)c->a.x, (double)c->a.y), hypot((double)c->b.x, (double)c->b.y));
}

/* ---- the covers, from the model's public parts ---- */

/* Enough sub-steps for every tolerance the tests ask of blades up to 2,000 px long. */
#define CAP 65536

/* A fixed local capsule moving between two poses, the turn taken as given. */
static clv_swept motion_of(const clv_capsule *local, clv_pose p0, clv_pose p1) {
    clv_shape s = clv_shape_capsule(local->a.x, local->a.y, local->b.x, local->b.y, local->r);
    clv_swept m;
    CHECK(clv_swept_init(&m, &s, false, &s, false));
    clv_swept_move(&m, (double)p1.angle - (double)p0.angle, (double)p1.x - (double)p0.x,
                   (double)p1.y - (double)p0.y, clv_v2(p1.x, p1.y));
    return m;
}

/* The core at sub-step point k of n: the pose's sine, cosine and origin there, then the model. */
static clv_capsule core_at(const clv_swept *m, clv_pose p0, int32_t k, int32_t n) {
    double s = (double)k / (double)n, sn, cs;
    clv_sincos_d((double)p0.angle + m->dth * s, &sn, &cs);
    clv_capsule c;
    clv_swept_core(m, s, sn, cs, (double)p0.x + s * m->dx, (double)p0.y + s * m->dy, &c.a, &c.b);
    c.r = 0.0f;
    return c;
}

/* A cover's radius: the larger radius, the bend and the slack, rounded up to a float. */
static float cover_radius(const clv_swept *m, int32_t n) {
    double g = fmax(m->r0, m->r1) + clv_swept_bend(m, n) + m->slack;
    float f = (float)g;
    return (double)f < g ? nextafterf(f, INFINITY) : f;
}

/* The first of n sub-steps whose cover touches the target, its start k/n in *out_t (may be
 * NULL); false when none does. */
static bool sweep_n(const clv_swept *m, clv_pose p0, int32_t n, const clv_shape *target,
                    float *out_t) {
    float g = cover_radius(m, n);
    clv_capsule prev = core_at(m, p0, 0, n);
    for (int32_t k = 0; k < n; k++) {
        clv_capsule next = core_at(m, p0, k + 1, n);
        if (clv_hull_touches(&prev, &next, g, target)) {
            if (out_t) {
                *out_t = (float)k / (float)n;
            }
            return true;
        }
        prev = next;
    }
    return false;
}

/* The sweep with the fewest sub-steps that keep the covers within the tolerance. */
static bool sweep_tol(const clv_capsule *local, clv_pose p0, clv_pose p1, const clv_shape *target,
                      double tolerance, float *out_t) {
    clv_swept m = motion_of(local, p0, p1);
    return sweep_n(&m, p0, clv_swept_substeps(&m, tolerance, CAP), target, out_t);
}

/* The box of every cover: what a broadphase queries. */
static clv_aabb cover_box(const clv_swept *m, clv_pose p0, int32_t n) {
    float g = cover_radius(m, n);
    clv_aabb b = {{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
    for (int32_t k = 0; k <= n; k++) {
        clv_capsule c = core_at(m, p0, k, n);
        b.min.x = fminf(b.min.x, fminf(c.a.x, c.b.x) - g);
        b.min.y = fminf(b.min.y, fminf(c.a.y, c.b.y) - g);
        b.max.x = fmaxf(b.max.x, fmaxf(c.a.x, c.b.x) + g);
        b.max.y = fmaxf(b.max.y, fmaxf(c.a.y, c.b.y) + g);
    }
    return b;
}

/* ---- the no-tunnelling test ---- */

#define SAMPLES 20001

static double gaps[SAMPLES];

static void test_no_tunnelling(void) {
    int cases = 0, touched = 0, reported = 0, missed = 0, too_far = 0, too_late = 0, bad_window = 0,
        outside_bounds = 0, capped = 0, in_band = 0, near_clear = 0;
    int few_missed = 0, few_far = 0, few_reported = 0;
    double worst_excess = -1e30; /* reported gap minus tolerance, worst case */
    long substeps_total = 0;
    int substeps_max = 0;
    for (int i = 0; i < 2500; i++) {
        /* A blade: from a hand near the pivot (or through it) out to 2,000 px. */
        double len = rnd() < 0.3 ? urand(1500, 2000) : urand(1, 600);
        double hx = urand(-60, 200), hy = urand(-60, 60);
        double dir = rnd() < 0.7 ? urand(-0.6, 0.6) : urand(-pi, pi);
        clv_capsule local;
        local.a = clv_v2((float)hx, (float)hy);
        local.b = clv_v2((float)(hx + len * cos(dir)), (float)(hy + len * sin(dir)));
        local.r = rnd() < 0.1 ? 0.0f : (float)urand(0.5, 30);
        /* Up to half a turn either way and up to 2,000 px of travel in one step. */
        double travel = rnd() < 0.2 ? 0.0 : urand(0, 2000), heading = urand(-pi, pi);
        clv_pose p0 =
            clv_make_pose((float)urand(-500, 500), (float)urand(-500, 500), (float)urand(-pi, pi));
        clv_pose p1 = clv_make_pose((float)((double)p0.x + travel * cos(heading)),
                                    (float)((double)p0.y + travel * sin(heading)),
                                    (float)((double)p0.angle + urand(-pi, pi)));
        static const float tolerances[] = {0.5f, 1.0f, 2.0f, 4.0f};
        float tol = tolerances[i % 4];
        /* A thin target near the swept area's edge: beside the blade where it starts (on the
         * side it leaves) or ends (on the side it heads to), beyond its tip, or anywhere near it;
         * then pushed out by the radii and a little more or less. */
        double kind = rnd(), s_star = kind < 0.3 ? 0.0 : kind < 0.6 ? 1.0 : rnd(), mu = rnd();
        seg g = blade_at(&local, p0, p1, s_star);
        double px = g.ax + mu * (g.bx - g.ax), py = g.ay + mu * (g.by - g.ay);
        double ux = g.bx - g.ax, uy = g.by - g.ay, ul = hypot(ux, uy);
        ux = ul > 0.0 ? ux / ul : 1.0, uy = ul > 0.0 ? uy / ul : 0.0;
        double nx = -uy, ny = ux;
        if (kind < 0.6) {
            /* The point's velocity: the turn about the pose's origin plus the travel. */
            double ox = (double)p0.x + s_star * ((double)p1.x - (double)p0.x);
            double oy = (double)p0.y + s_star * ((double)p1.y - (double)p0.y);
            double dth = (double)p1.angle - (double)p0.angle;
            double vx = -dth * (py - oy) + ((double)p1.x - (double)p0.x);
            double vy = dth * (px - ox) + ((double)p1.y - (double)p0.y);
            double side = nx * vx + ny * vy;
            if ((kind < 0.3) == (side > 0.0)) {
                nx = -nx, ny = -ny;
            }
        } else if (kind < 0.8) {
            px = g.bx, py = g.by, nx = ux, ny = uy;
        } else {
            double ang = urand(-pi, pi);
            nx = cos(ang), ny = sin(ang);
        }
        double off = (double)local.r + 0.5 + urand(-2.0, 2.0 + (double)tol);
        double cx = px + off * nx, cy = py + off * ny;
        clv_shape target;
        if (rnd() < 0.5) {
            target = clv_shape_circle((float)cx, (float)cy, 0.5f);
        } else {
            double tl = urand(0, 40), ta = urand(-pi, pi);
            target = clv_shape_capsule((float)cx, (float)cy, (float)(cx + tl * cos(ta)),
                                       (float)(cy + tl * sin(ta)), 0.5f);
        }
        /* The fine sampling: gap between surfaces at each sample. */
        seg tc = core_of(&target);
        double rsum = (double)local.r + radius_of(&target);
        int first_touch = -1;
        double min_gap = 1e30;
        for (int j = 0; j < SAMPLES; j++) {
            double s = (double)j / (SAMPLES - 1);
            gaps[j] = seg_dist(blade_at(&local, p0, p1, s), tc) - rsum;
            if (gaps[j] <= 0.0 && first_touch < 0) {
                first_touch = j;
            }
            min_gap = fmin(min_gap, gaps[j]);
        }
        /* Between samples a core point moves at most h; the true gap is within h/2 of a sample's.
         */
        double rho = rho_of(&local);
        double h = (rho * fabs((double)p1.angle - (double)p0.angle) +
                    hypot((double)p1.x - (double)p0.x, (double)p1.y - (double)p0.y)) /
                   (SAMPLES - 1);
        clv_swept m = motion_of(&local, p0, p1);
        int n = clv_swept_substeps(&m, (double)tol, CAP);
        double bound = clv_swept_overcover(&m, n);
        capped += bound > (double)tol ? 1 : 0;
        substeps_total += n;
        substeps_max = n > substeps_max ? n : substeps_max;
        float t = -1.0f;
        bool hit = sweep_n(&m, p0, n, &target, &t);
        cases++;
        in_band += min_gap > 0.0 && min_gap <= (double)tol ? 1 : 0;
        near_clear += min_gap > (double)tol && min_gap <= (double)tol + 2.0 ? 1 : 0;
        touched += first_touch >= 0 ? 1 : 0;
        reported += hit ? 1 : 0;
        if (first_touch >= 0 && !hit) {
            missed++;
        }
        if (hit) {
            double excess = min_gap - h / 2.0 - bound;
            worst_excess = fmax(worst_excess, min_gap - (double)tol);
            if (excess > 1e-6) {
                too_far++;
            }
            if (first_touch >= 0 && (double)t > (double)first_touch / (SAMPLES - 1) + 1e-9) {
                too_late++;
            }
            /* The reported sub-step itself comes within the bound of the target. */
            int k = (int)lround((double)t * n);
            double lo = (double)k / n, hi = (double)(k + 1) / n, wgap = 1e30;
            for (int j = 0; j < SAMPLES; j++) {
                double s = (double)j / (SAMPLES - 1);
                if (s >= lo - 1.0 / (SAMPLES - 1) && s <= hi + 1.0 / (SAMPLES - 1)) {
                    wgap = fmin(wgap, gaps[j]);
                }
            }
            if (wgap > bound + h + 1e-6) {
                bad_window++;
            }
        }
        /* With few sub-steps the cover still never misses (the hulls are grown by the bend of
         * the arcs) and over-reports by at most its own bound. */
        int few = 1 + (int)(rnd() * 6.0);
        double few_bound = clv_swept_overcover(&m, few);
        bool few_hit = sweep_n(&m, p0, few, &target, NULL);
        if (first_touch >= 0 && !few_hit) {
            few_missed++;
        }
        if (few_hit && min_gap - h / 2.0 > few_bound + 1e-6) {
            few_far++;
        }
        few_reported += few_hit ? 1 : 0;
        /* The box of the covers holds the hitbox at every sample. */
        clv_aabb box = cover_box(&m, p0, n);
        for (int j = 0; j < SAMPLES; j += 50) {
            seg b = blade_at(&local, p0, p1, (double)j / (SAMPLES - 1));
            double r = (double)local.r;
            if (fmin(b.ax, b.bx) - r < (double)box.min.x ||
                fmax(b.ax, b.bx) + r > (double)box.max.x ||
                fmin(b.ay, b.by) - r < (double)box.min.y ||
                fmax(b.ay, b.by) + r > (double)box.max.y) {
                outside_bounds++;
                break;
            }
        }
    }
    printf("no tunnelling: %d cases, %d touched by the sampling, %d within the tolerance band, "
           "%d up to 2 px beyond it; %d reported; sub-steps mean %.0f max %d; worst reported gap - "
           "tolerance %.3f\n",
           cases, touched, in_band, near_clear, reported, (double)substeps_total / cases,
           substeps_max, worst_excess);
    printf("with 1 to 6 sub-steps: %d reported\n", few_reported);
    CHECK(in_band > cases / 20 && near_clear > cases / 20);
    CHECK(few_missed == 0);
    CHECK(few_far == 0);
    CHECK(few_reported > reported);                        /* coarse covers do reach further */
    CHECK(touched > cases / 5 && touched < cases * 4 / 5); /* the set has both kinds */
    CHECK(reported > touched);                             /* and near misses inside the band */
    CHECK(capped == 0);
    CHECK(missed == 0);
    CHECK(too_far == 0);
    CHECK(too_late == 0);
    CHECK(bad_window == 0);
    CHECK(outside_bounds == 0);
}

/* ---- the sub-step rule ---- */

static void test_substeps(void) {
    clv_capsule blade = {{20.0f, 0.0f}, {2000.0f, 0.0f}, 8.0f};
    clv_pose p0 = clv_make_pose(0, 0, 0), p1 = clv_make_pose(0, 0, (float)pi);
    clv_swept m = motion_of(&blade, p0, p1);
    int n = clv_swept_substeps(&m, 1.0, CAP);
    CHECK(clv_swept_overcover(&m, n) <= 1.0);
    CHECK(clv_swept_overcover(&m, n - 1) > 1.0); /* the fewest */
    /* Pure rotation: about rho pi / (2 tol), the reach of half a sub-step's move. */
    CHECK(n > 3000 && n < 3300);
    /* Pure translation is swept exactly in one step: what the cover adds is the rounding
     * allowance alone, 2^-20 of the reach (the origin's coordinates, travel + 1, the farthest
     * core point and both radii). */
    clv_pose q1 = clv_make_pose(2000, -300, 0);
    clv_swept mt = motion_of(&blade, p0, q1);
    double reach = 2000.0 + 300.0 + sqrt(2000.0 * 2000.0 + 300.0 * 300.0) + 1.0;
    CHECK_NEAR(mt.slack, (reach + 2000.0 + 16.0) * 0x1p-20, 1e-12);
    CHECK(clv_swept_overcover(&mt, 1) == mt.slack);
    CHECK(clv_swept_substeps(&mt, 0.01, CAP) == 1);
    /* The bound shrinks as sub-steps grow. */
    clv_swept mr = motion_of(&blade, p0, clv_make_pose(700, 100, 2.5f));
    int rising = 0;
    for (int k = 1; k < 5000; k++) {
        rising += clv_swept_overcover(&mr, k + 1) > clv_swept_overcover(&mr, k);
    }
    CHECK(rising == 0);
    /* A 40 px dagger turning 0.1 rad (its tip moves 4 px) and stepping 3 px needs a few. */
    clv_capsule dagger = {{10.0f, 0.0f}, {40.0f, 0.0f}, 4.0f};
    clv_swept md = motion_of(&dagger, p0, clv_make_pose(3, 0, 0.1f));
    CHECK(clv_swept_substeps(&md, 1.0, CAP) <= 4);
    /* No usable tolerance: the cap. */
    CHECK(clv_swept_substeps(&m, 0.0, CAP) == CAP);
    CHECK(clv_swept_substeps(&m, -1.0, CAP) == CAP);
    CHECK(clv_swept_substeps(&m, (double)NAN, CAP) == CAP);
    CHECK(clv_swept_substeps(&m, 1e-6, CAP) == CAP);
}

/* ---- hand-made swings ---- */

/* The fewest sub-steps, found by a scan of every n: the same answer as clv_swept_substeps for
 * random motions (turns, travels, a local turn, stretch and radius change) and tolerances. */
static void test_substeps_fewest(void) {
    const int32_t cap = 4096;
    int at_cap = 0, middle = 0;
    for (int i = 0; i < 400; i++) {
        float len = (float)urand(1.0, 900.0), r0 = (float)urand(0.0, 20.0);
        double a0 = urand(-pi, pi), a1 = a0 + (i % 3 == 0 ? 0.0 : urand(-1.5, 1.5));
        clv_shape s0 =
            clv_shape_capsule(5.0f, 0.0f, 5.0f + len * (float)cos(a0), len * (float)sin(a0), r0);
        clv_shape s1 = clv_shape_capsule(5.0f, 1.0f, 5.0f + 1.1f * len * (float)cos(a1),
                                         len * (float)sin(a1), (float)urand(0.0, 20.0));
        clv_swept m;
        CHECK(clv_swept_init(&m, &s0, false, i % 2 == 0 ? &s0 : &s1, i % 5 == 0));
        clv_swept_move(&m, i % 4 == 0 ? 0.0 : urand(-3.0, 3.0), urand(-400, 400), urand(-400, 400),
                       clv_v2((float)urand(-5e4, 5e4), 0.0f));
        const double tols[5] = {0.05, 0.5, 1.0, 4.0, 60.0};
        for (int k = 0; k < 5; k++) {
            int32_t want = cap;
            for (int32_t n = 1; n <= cap; n++) {
                if (clv_swept_overcover(&m, n) <= tols[k]) {
                    want = n;
                    break;
                }
            }
            int32_t got = clv_swept_substeps(&m, tols[k], cap);
            CHECK(got == want);
            at_cap += want == cap;
            middle += want > 2 && want < cap;
        }
    }
    CHECK(middle > 500 && at_cap > 0);
}

/* A round shape that stays itself and only travels: clv_swept_travel_slack gives the model's
 * slack bit for bit, and the cover adds nothing else. */
static void test_travel_slack(void) {
    for (int i = 0; i < 2000; i++) {
        float ax = (float)urand(-300, 300), ay = (float)urand(-300, 300), r = (float)urand(0, 40);
        clv_shape s = i % 3 == 0 ? clv_shape_circle(ax, ay, r)
                                 : clv_shape_capsule(ax, ay, (float)urand(-300, 300),
                                                     (float)urand(-300, 300), r);
        bool mirror = i % 2 == 0;
        double dx = i % 7 == 0 ? 0.0 : urand(-3000, 3000), dy = urand(-3000, 3000);
        clv_vec2 o = clv_v2((float)urand(-1e6, 1e6), (float)urand(-1e6, 1e6));
        clv_swept m;
        CHECK(clv_swept_init(&m, &s, mirror, &s, mirror));
        clv_swept_move(&m, 0.0, dx, dy, o);
        double slack = clv_swept_travel_slack(&s, dx, dy, o);
        CHECK(memcmp(&slack, &m.slack, sizeof slack) == 0);
        CHECK(clv_swept_overcover(&m, 1) == slack);
    }
    clv_shape box = clv_shape_obb(0, 0, 4, 2, 0.3f);
    CHECK(isnan(clv_swept_travel_slack(&box, 1.0, 0.0, clv_v2(0, 0))));
}

/* clv_swept_cores gives clv_swept_core's bits at every point between the ends, with and without a
 * local turn, and leaves the ends alone. */
static void test_cores_batch(void) {
    int turned = 0, rigid = 0;
    for (int i = 0; i < 600; i++) {
        float len = (float)urand(0.0, 400.0), r = (float)urand(0.0, 20.0);
        double a0 = urand(-pi, pi), a1 = i % 2 == 0 ? a0 : a0 + urand(-1.0, 1.0);
        clv_shape s0 = i % 7 == 0 ? clv_shape_circle((float)urand(-50, 50), 3.0f, r)
                                  : clv_shape_capsule(5.0f, -2.0f, 5.0f + len * (float)cos(a0),
                                                      len * (float)sin(a0), r);
        clv_shape s1 = i % 2 == 0 ? s0
                                  : clv_shape_capsule(4.0f, 1.0f, 5.0f + len * (float)cos(a1),
                                                      1.2f * len * (float)sin(a1), r);
        bool mirror = i % 3 == 0;
        clv_swept m;
        CHECK(clv_swept_init(&m, &s0, mirror, &s1, mirror));
        clv_swept_move(&m, i % 5 == 0 ? 0.0 : urand(-2.0, 2.0), urand(-300, 300), urand(-300, 300),
                       clv_v2((float)urand(-1e4, 1e4), 0.0f));
        turned += m.phi != 0.0;
        rigid += m.phi == 0.0;
        const int32_t n = 1 + i % 24;
        double trig[2 * 25];
        for (int32_t k = 0; k <= n; k++) {
            clv_sincos_d(urand(-pi, pi), &trig[2 * k], &trig[2 * k + 1]);
        }
        const double ox = urand(-1e4, 1e4), oy = urand(-1e4, 1e4);
        clv_vec2 q[2 * 25];
        for (int32_t k = 0; k < 2 * 25; k++) {
            q[k] = clv_v2(-7.0f, -7.0f);
        }
        clv_swept_cores(&m, n, trig, ox, oy, q);
        for (int32_t k = 0; k <= n; k++) {
            clv_vec2 a = clv_v2(-7.0f, -7.0f), b = a;
            if (k > 0 && k < n) {
                double sk = (double)k / (double)n;
                clv_swept_core(&m, sk, trig[2 * k], trig[2 * k + 1], ox + sk * m.dx, oy + sk * m.dy,
                               &a, &b);
            }
            CHECK(memcmp(&q[2 * k], &a, sizeof a) == 0);
            CHECK(memcmp(&q[2 * k + 1], &b, sizeof b) == 0);
        }
    }
    CHECK(turned > 100 && rigid > 100);
}

static void test_half_turn_swing(void) {
    /* A 2,000 px blade turns half a turn clockwise on screen (+x toward +y) in one step. */
    clv_capsule blade = {{0.0f, 0.0f}, {2000.0f, 0.0f}, 2.0f};
    clv_pose p0 = clv_make_pose(100, 100, 0), p1 = clv_make_pose(100, 100, (float)pi);
    float t = -1.0f;
    /* A speck straight below the pivot at 1,500 px is passed over halfway. */
    clv_shape speck = clv_shape_circle(100, 1600, 0.5f);
    CHECK(sweep_tol(&blade, p0, p1, &speck, 1.0, &t));
    /* Contact when the blade's edge (2.5 px) reaches it: angle pi/2 - asin(2.5/1500). */
    double s_true = (pi / 2 - asin(2.5 / 1500.0)) / pi;
    clv_swept m = motion_of(&blade, p0, p1);
    int n = clv_swept_substeps(&m, 1.0, CAP);
    CHECK((double)t <= s_true + 1e-6 && (double)t >= s_true - 2.0 / n);
    /* Above the pivot is never swept; beyond the tip (plus radius and tolerance) neither. */
    clv_shape above = clv_shape_circle(100, 90, 0.5f);
    CHECK(!sweep_tol(&blade, p0, p1, &above, 1.0, &t));
    clv_shape beyond = clv_shape_circle(100, 100 + 2000 + 2 + 0.5f + 1.5f, 0.5f);
    CHECK(!sweep_tol(&blade, p0, p1, &beyond, 1.0, &t));
    clv_shape at_tip = clv_shape_circle(100, 100 + 2000 + 2 + 0.5f - 0.1f, 0.5f);
    CHECK(sweep_tol(&blade, p0, p1, &at_tip, 1.0, &t));
    /* The turn is taken as given: decreasing, it sweeps the upper half instead. */
    clv_pose p1b = clv_make_pose(100, 100, (float)-pi);
    CHECK(sweep_tol(&blade, p0, p1b, &above, 1.0, &t));
    CHECK(!sweep_tol(&blade, p0, p1b, &speck, 1.0, &t));
    /* A thin wall the blade tip crosses between two frames is still hit (no tunnelling). */
    clv_shape wall = clv_shape_capsule(100 + 1414, 100 + 1414, 100 + 1420, 100 + 1408, 0.5f);
    CHECK(sweep_tol(&blade, p0, p1, &wall, 1.0, &t));
    /* A box target works too: the hull test takes any shape. */
    clv_shape crate = clv_shape_aabb(-300, 500, -250, 550);
    CHECK(sweep_tol(&blade, p0, p1, &crate, 1.0, &t));
    clv_shape crate_far = clv_shape_aabb(-300, -550, -250, -500);
    CHECK(!sweep_tol(&blade, p0, p1, &crate_far, 1.0, &t));
}

static void test_translation_only(void) {
    /* Without rotation the one sub-step is the exact translation sweep: same verdict as clv_sweep
     * on the capsule (touching counts in both). */
    int differ = 0, one_step = 0;
    for (int i = 0; i < 5000; i++) {
        clv_capsule local = {{(float)urand(-50, 50), (float)urand(-50, 50)},
                             {(float)urand(-50, 50), (float)urand(-50, 50)},
                             (float)urand(0, 10)};
        float ang = (float)urand(-pi, pi);
        clv_pose p0 = clv_make_pose((float)urand(-100, 100), (float)urand(-100, 100), ang);
        clv_pose p1 = clv_make_pose((float)urand(-100, 100), (float)urand(-100, 100), ang);
        clv_shape target =
            clv_shape_circle((float)urand(-150, 150), (float)urand(-150, 150), (float)urand(0, 10));
        clv_swept m = motion_of(&local, p0, p1);
        one_step += clv_swept_substeps(&m, 0.5, CAP) == 1;
        clv_capsule w0 = core_at(&m, p0, 0, 1);
        clv_shape moving = clv_shape_capsule(w0.a.x, w0.a.y, w0.b.x, w0.b.y, local.r);
        bool a = clv_sweep(&moving, clv_v2(p1.x - p0.x, p1.y - p0.y), &target, NULL);
        bool b = sweep_tol(&local, p0, p1, &target, 0.5, NULL);
        /* Only a graze within the rounding allowance (here below 4e-4) may disagree. */
        if (a != b) {
            float t;
            clv_shape grown = target;
            grown.u.circle.r += 1e-3f;
            bool near = clv_sweep(&moving, clv_v2(p1.x - p0.x, p1.y - p0.y), &grown, &t);
            differ += near ? 0 : 1;
        }
    }
    CHECK(one_step == 5000);
    CHECK(differ == 0);
}

static void test_model_and_hull(void) {
    /* Only round shapes sweep; a still one is still, mirrored or not. */
    clv_shape cap = clv_shape_capsule(10, 2, 50, 2, 2), box = clv_shape_aabb(0, 0, 1, 1);
    clv_swept m;
    CHECK(!clv_swept_init(&m, &cap, false, &box, false));
    CHECK(!clv_swept_init(&m, &box, false, &cap, false));
    CHECK(clv_swept_init(&m, &cap, true, &cap, true));
    CHECK(clv_swept_still(&m));
    clv_swept_move(&m, 0.0, 0.0, 1.0, clv_v2(0, 0));
    CHECK(!clv_swept_still(&m));
    /* A mirror flip between the frames moves the core across the x axis. */
    CHECK(clv_swept_init(&m, &cap, false, &cap, true));
    CHECK(!clv_swept_still(&m));
    clv_vec2 a, b;
    clv_swept_core(&m, 1.0, 0.0, 1.0, 0.0, 0.0, &a, &b);
    CHECK_NEAR(a.y, -2, 1e-6);
    CHECK_NEAR(b.y, -2, 1e-6);
    /* A local segment turning a quarter turn about (10, 0): halfway, it points at 45 degrees. */
    clv_shape l0 = clv_shape_capsule(10, 0, 50, 0, 1), l1 = clv_shape_capsule(10, 0, 10, 40, 1);
    CHECK(clv_swept_init(&m, &l0, false, &l1, false));
    clv_swept_core(&m, 0.5, 0.0, 1.0, 0.0, 0.0, &a, &b);
    CHECK_NEAR(a.x, 10, 1e-5);
    CHECK_NEAR(a.y, 0, 1e-5);
    CHECK_NEAR(b.x, 10 + 40 * cos(pi / 4), 1e-4);
    CHECK_NEAR(b.y, 40 * sin(pi / 4), 1e-4);
    /* The hull of two positions covers the space between them, and not more. */
    clv_capsule c0 = {{0, 0}, {10, 0}, 1}, c1 = {{0, 20}, {10, 20}, 1};
    clv_shape mid = clv_shape_point(5, 10), side = clv_shape_point(12, 10);
    CHECK(clv_hull_touches(&c0, &c1, 1.0f, &mid));
    CHECK(!clv_hull_touches(&c0, &c1, 1.0f, &side));
    CHECK(clv_hull_touches(&c0, &c1, 2.0f, &side)); /* touching at radius 2 counts */
    /* Crossed order (a0..b0 against b1..a1) covers the same hull. */
    clv_capsule c1x = {{10, 20}, {0, 20}, 1};
    CHECK(clv_hull_touches(&c0, &c1x, 1.0f, &mid));
    CHECK(!clv_hull_touches(&c0, &c1x, 1.0f, &side));
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_substeps);
    RUN(test_substeps_fewest);
    RUN(test_travel_slack);
    RUN(test_cores_batch);
    RUN(test_half_turn_swing);
    RUN(test_translation_only);
    RUN(test_model_and_hull);
    RUN(test_no_tunnelling);
    return clv_test_report();
}
