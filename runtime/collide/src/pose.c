/* A round hitbox swept between two frames: the motion model, the bounds that size its
 * sub-steps, and the cover test of one sub-step.
 *
 * The local change is read as a turn of the segment about the one centre that carries the
 * previous midpoint onto the current one, plus a straight remainder (a change of length, or a
 * circle moving); a thrust has no turn and is all remainder. Bounds on a core point's speed
 * (without and with the pose's travel) and on its acceleration give both the bend of its path
 * within a sub-step and how far the covers reach past the true area; docs/motion.md derives
 * them. Everything uses clv_sincos_d and clv_atan2_d, so the cores are the same bits on every
 * build.
 */
#include "motion_internal.h"

#include <math.h>

/* A local turn smaller than this is read as none: the arc about a far centre and the straight
 * move it replaces differ by less than 1e-7 of the distance moved. */
#define TINY_TURN 1e-6

static bool round_core(const clv_shape *s, bool mirror, double *ax, double *ay, double *bx,
                       double *by, double *r) {
    double f = mirror ? -1.0 : 1.0;
    if (s->type == CLV_CAPSULE) {
        *ax = (double)s->u.capsule.a.x, *ay = f * (double)s->u.capsule.a.y;
        *bx = (double)s->u.capsule.b.x, *by = f * (double)s->u.capsule.b.y;
        *r = (double)s->u.capsule.r;
        return true;
    }
    if (s->type == CLV_CIRCLE) {
        *ax = *bx = (double)s->u.circle.c.x;
        *ay = *by = f * (double)s->u.circle.c.y;
        *r = (double)s->u.circle.r;
        return true;
    }
    return false;
}

static double max2(double a, double b) { return a > b ? a : b; }

static double sq2(double x, double y) { return x * x + y * y; }

/* The longer of two vectors' lengths with one square root: sqrt is correctly rounded, so it
 * keeps order, and the root of the larger square is the larger root, bit for bit. */
static double longer(double ax, double ay, double bx, double by) {
    return sqrt(max2(sq2(ax, ay), sq2(bx, by)));
}

/* The centre (cx, cy) about which the local turn phi carries the previous midpoint onto the
 * current one, and the farthest previous end from it. */
static void turn_centre(clv_swept *m) {
    clv_sincos_d(m->phi, &m->sphi, &m->cphi);
    /* (I - R) c = m1 - R m0, with 1 - cos phi as 2 sin^2(phi/2) to keep small turns exact. */
    double sh, ch;
    clv_sincos_d(m->phi * 0.5, &sh, &ch);
    double omc = 2.0 * sh * sh;
    double m0x = 0.5 * (m->a0x + m->b0x), m0y = 0.5 * (m->a0y + m->b0y);
    double m1x = 0.5 * (m->a1x + m->b1x), m1y = 0.5 * (m->a1y + m->b1y);
    double vx = m1x - (m->cphi * m0x - m->sphi * m0y);
    double vy = m1y - (m->sphi * m0x + m->cphi * m0y);
    double det = omc * omc + m->sphi * m->sphi;
    m->cx = (omc * vx - m->sphi * vy) / det;
    m->cy = (m->sphi * vx + omc * vy) / det;
    m->rho_c = longer(m->a0x - m->cx, m->a0y - m->cy, m->b0x - m->cx, m->b0y - m->cy);
}

bool clv_swept_init(clv_swept *m, const clv_shape *prev, bool mirror0, const clv_shape *cur,
                    bool mirror1) {
    if (!round_core(prev, mirror0, &m->a0x, &m->a0y, &m->b0x, &m->b0y, &m->r0) ||
        !round_core(cur, mirror1, &m->a1x, &m->a1y, &m->b1x, &m->b1y, &m->r1)) {
        return false;
    }
    double d0x = m->b0x - m->a0x, d0y = m->b0y - m->a0y;
    double d1x = m->b1x - m->a1x, d1y = m->b1y - m->a1y;
    m->phi = 0.0;
    if (sq2(d0x, d0y) > 0.0 && sq2(d1x, d1y) > 0.0) { /* as their roots are */
        /* a core that did not turn (a flying knife's, every frame) skips the series: 0 anyway */
        double cr = d0x * d1y - d0y * d1x, dt = d0x * d1x + d0y * d1y;
        m->phi = cr == 0.0 && dt > 0.0 ? 0.0 : clv_atan2_d(cr, dt);
    }
    if (fabs(m->phi) < TINY_TURN) {
        m->phi = 0.0;
    }
    m->cphi = 1.0, m->sphi = 0.0;
    m->cx = 0.0, m->cy = 0.0;
    m->rho_c = 0.0;
    if (m->phi != 0.0) {
        turn_centre(m);
    }
    /* What the turn leaves over, per end. */
    double px = m->a0x - m->cx, py = m->a0y - m->cy;
    m->eax = m->a1x - (m->cx + m->cphi * px - m->sphi * py);
    m->eay = m->a1y - (m->cy + m->sphi * px + m->cphi * py);
    px = m->b0x - m->cx, py = m->b0y - m->cy;
    m->ebx = m->b1x - (m->cx + m->cphi * px - m->sphi * py);
    m->eby = m->b1y - (m->cy + m->sphi * px + m->cphi * py);
    m->e_max = longer(m->eax, m->eay, m->ebx, m->eby);
    double rho_l = sqrt(max2(max2(sq2(m->a0x, m->a0y), sq2(m->b0x, m->b0y)),
                             max2(sq2(m->a1x, m->a1y), sq2(m->b1x, m->b1y))));
    /* |u(s)|: the arc stays within its sagitta (<= rho_c phi^2 / 8) of its chord. */
    m->rho_u = rho_l + 2.0 * m->e_max + m->rho_c * m->phi * m->phi / 8.0;
    clv_swept_move(m, 0.0, 0.0, 0.0, clv_v2(0.0f, 0.0f));
    return true;
}

/* The rounding allowance of a motion: float cores and poses round each coordinate by about
 * 2^-24 of its size; a far larger allowance, still far below a unit at game scales, absorbs
 * them and the double steps. */
static double slack_of(clv_vec2 origin, double travel, double rho_u, double r0, double r1) {
    double reach = fabs((double)origin.x) + fabs((double)origin.y) + travel + 1.0;
    return (reach + rho_u + r0 + r1) * 0x1p-20;
}

void clv_swept_move(clv_swept *m, double dth, double dx, double dy, clv_vec2 origin) {
    m->dth = dth, m->dx = dx, m->dy = dy;
    m->travel = sqrt(dx * dx + dy * dy);
    m->slack = slack_of(origin, m->travel, m->rho_u, m->r0, m->r1);
}

double clv_swept_travel_slack(const clv_shape *s, double dx, double dy, clv_vec2 origin) {
    double ax, ay, bx, by, r;
    if (!round_core(s, false, &ax, &ay, &bx, &by, &r)) {
        return (double)NAN;
    }
    /* The model of a shape that stays itself: no local turn and nothing left over, so its reach
     * rho_u is the farthest core end's distance (a mirror does not change it). */
    double rho = sqrt(max2(sq2(ax, ay), sq2(bx, by)));
    return slack_of(origin, sqrt(dx * dx + dy * dy), rho, r, r);
}

bool clv_swept_still(const clv_swept *m) {
    return m->dth == 0.0 && m->dx == 0.0 && m->dy == 0.0 && m->a0x == m->a1x && m->a0y == m->a1y &&
           m->b0x == m->b1x && m->b0y == m->b1y && m->r0 == m->r1;
}

/* Speed of a core point (per unit of s) without the pose's travel, and a bound on its
 * acceleration. */
static double speed_rot(const clv_swept *m) {
    return fabs(m->dth) * m->rho_u + fabs(m->phi) * m->rho_c + m->e_max;
}

static double accel(const clv_swept *m) {
    return m->dth * m->dth * m->rho_u + 2.0 * fabs(m->dth) * (fabs(m->phi) * m->rho_c + m->e_max) +
           m->phi * m->phi * m->rho_c;
}

/* The bend of a path whose acceleration is at most acc, over one of n sub-steps. */
static double bend_of(double acc, int32_t n) {
    double nn = (double)n;
    return acc / (8.0 * nn * nn);
}

double clv_swept_bend(const clv_swept *m, int32_t n) { return bend_of(accel(m), n); }

/* What clv_swept_overcover reads of the model at every n, worked out once. */
typedef struct cover_parts {
    double acc, vr, travel, dr, slack;
} cover_parts;

static cover_parts cover_parts_of(const clv_swept *m) {
    cover_parts c = {accel(m), speed_rot(m), m->travel, fabs(m->r1 - m->r0), m->slack};
    return c;
}

static double overcover_of(const cover_parts *c, int32_t n) {
    double nn = (double)n;
    double eps = bend_of(c->acc, n);
    /* Near the middle core: every hull point is within half a sub-step's largest move of it. */
    double mid = (c->vr + c->travel) / (2.0 * nn) + 2.0 * eps + c->dr / (2.0 * nn);
    /* Against the translated start: only the turning part strays, twice. */
    double turn = 2.0 * c->vr / nn + eps + c->dr / nn;
    return (mid < turn ? mid : turn) + c->slack;
}

double clv_swept_overcover(const clv_swept *m, int32_t n) {
    cover_parts c = cover_parts_of(m);
    return overcover_of(&c, n);
}

/* The n >= 1 at which a / n + b / n^2 comes down to t > 0. */
static double settles_at(double a, double b, double t) {
    return (a + sqrt(a * a + 4.0 * b * t)) / (2.0 * t);
}

int32_t clv_swept_substeps(const clv_swept *m, double tolerance, int32_t cap) {
    const cover_parts c = cover_parts_of(m);
    if (overcover_of(&c, 1) <= tolerance) {
        return 1;
    }
    if (!(tolerance >= m->slack)) {
        return cap; /* every bound is at least the slack (and none is below NaN) */
    }
    /* overcover(n) is the smaller of two terms a / n + b / n^2 (see clv_swept_overcover) plus
     * the slack: solved for n, it lands within a step or two of the answer, which the true
     * bound then settles (it never grows with n, so this is the fewest, as a search finds). */
    double t = tolerance - m->slack;
    double mid = settles_at(0.5 * (c.vr + c.travel + c.dr), 0.25 * c.acc, t);
    double turn = settles_at(2.0 * c.vr + c.dr, 0.125 * c.acc, t);
    double r = mid < turn ? mid : turn;
    int32_t n = r >= (double)cap ? cap : r > 2.0 ? (int32_t)ceil(r) : 2;
    while (n < cap && !(overcover_of(&c, n) <= tolerance)) {
        n++;
    }
    while (n > 2 && overcover_of(&c, n - 1) <= tolerance) {
        n--;
    }
    return n;
}

/* The ends of the local core turned by the local turn at fraction s (its cosine ct and sine st),
 * into t (a x, a y, b x, b y), before what the turn leaves over is added (core_from). Apart, so
 * that callers without a local turn (ct 1, st 0 at every s) work them out once: the sums
 * associate from the left, so the same bits either way. */
static inline void turned_ends(const clv_swept *m, double ct, double st, double t[4]) {
    double px = m->a0x - m->cx, py = m->a0y - m->cy;
    t[0] = m->cx + ct * px - st * py;
    t[1] = m->cy + st * px + ct * py;
    px = m->b0x - m->cx, py = m->b0y - m->cy;
    t[2] = m->cx + ct * px - st * py;
    t[3] = m->cy + st * px + ct * py;
}

/* The world core at fraction s from the turned ends t (turned_ends at s). */
static inline void core_from(const clv_swept *m, const double t[4], double s, double sn, double cs,
                             double ox, double oy, clv_vec2 *out_a, clv_vec2 *out_b) {
    double ux = t[0] + s * m->eax, uy = t[1] + s * m->eay;
    *out_a = clv_v2((float)(cs * ux - sn * uy + ox), (float)(sn * ux + cs * uy + oy));
    ux = t[2] + s * m->ebx, uy = t[3] + s * m->eby;
    *out_b = clv_v2((float)(cs * ux - sn * uy + ox), (float)(sn * ux + cs * uy + oy));
}

void clv_swept_core(const clv_swept *m, double s, double sn, double cs, double ox, double oy,
                    clv_vec2 *out_a, clv_vec2 *out_b) {
    double ct = 1.0, st = 0.0, t[4];
    if (m->phi != 0.0) {
        clv_sincos_d(s * m->phi, &st, &ct);
    }
    turned_ends(m, ct, st, t);
    core_from(m, t, s, sn, cs, ox, oy, out_a, out_b);
}

void clv_swept_cores(const clv_swept *m, int32_t n, const double *trig, double ox, double oy,
                     clv_vec2 *q) {
    double t[4];
    turned_ends(m, 1.0, 0.0, t); /* without a local turn, the same at every point */
    for (int32_t k = 1; k < n; k++) {
        double s = (double)k / (double)n;
        if (m->phi != 0.0) {
            double ct, st;
            clv_sincos_d(s * m->phi, &st, &ct);
            turned_ends(m, ct, st, t);
        }
        core_from(m, t, s, trig[2 * k], trig[2 * k + 1], ox + s * m->dx, oy + s * m->dy, &q[2 * k],
                  &q[2 * k + 1]);
    }
}

/* Triangle (det d, orientations o1..o3 of the point against its edges) contains the point, as
 * clv_mpoly_touch's triangle test decides it. */
static bool tri_in(double d, double o1, double o2, double o3) {
    if (d == 0.0) {
        return false;
    }
    return d > 0.0 ? (o1 >= 0.0 && o2 >= 0.0 && o3 >= 0.0) : (o1 <= 0.0 && o2 <= 0.0 && o3 <= 0.0);
}

/* The hull of four points (every pair an edge, every triangle part of the area) grown by R
 * touches the point p: clv_mpoly_touch for a one-point target, with its edge list unrolled and
 * each orientation computed once for the triangles that share it (a hurtbox circle against a
 * sub-step's cover is the narrowphase's usual pair). */
static bool hull_touches_point(const double x[4], const double y[4], double R, double px,
                               double py) {
    static const int edges[6][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {1, 3}};
    double r2 = R * R;
    for (int i = 0; i < 6; i++) {
        int a = edges[i][0], b = edges[i][1];
        if (clv__point_seg_d2(px, py, x[a], y[a], x[b], y[b]) <= r2) {
            return true;
        }
    }
    double p01 = clv__orient(x[0], y[0], x[1], y[1], px, py);
    double p12 = clv__orient(x[1], y[1], x[2], y[2], px, py);
    double p23 = clv__orient(x[2], y[2], x[3], y[3], px, py);
    double p30 = clv__orient(x[3], y[3], x[0], y[0], px, py);
    return tri_in(clv__orient(x[0], y[0], x[1], y[1], x[2], y[2]), p01, p12,
                  clv__orient(x[2], y[2], x[0], y[0], px, py)) ||
           tri_in(clv__orient(x[0], y[0], x[2], y[2], x[3], y[3]),
                  clv__orient(x[0], y[0], x[2], y[2], px, py), p23, p30) ||
           tri_in(clv__orient(x[0], y[0], x[1], y[1], x[3], y[3]), p01,
                  clv__orient(x[1], y[1], x[3], y[3], px, py), p30) ||
           tri_in(clv__orient(x[1], y[1], x[2], y[2], x[3], y[3]), p12, p23,
                  clv__orient(x[3], y[3], x[1], y[1], px, py));
}

bool clv_hull_touches(const clv_capsule *c0, const clv_capsule *c1, float r,
                      const clv_shape *target) {
    if (target->type == CLV_CIRCLE || target->type == CLV_POINT) {
        double x[4] = {(double)c0->a.x, (double)c0->b.x, (double)c1->b.x, (double)c1->a.x};
        double y[4] = {(double)c0->a.y, (double)c0->b.y, (double)c1->b.y, (double)c1->a.y};
        bool circle = target->type == CLV_CIRCLE;
        clv_vec2 p = circle ? target->u.circle.c : target->u.point;
        double R = (double)r + (circle ? (double)target->u.circle.r : 0.0);
        return hull_touches_point(x, y, R, (double)p.x, (double)p.y);
    }
    clv_mpoly hull, t = clv_mpoly_of_shape(target);
    hull.n = 4;
    hull.all_pairs = true;
    hull.r = (double)r;
    hull.x[0] = (double)c0->a.x, hull.y[0] = (double)c0->a.y;
    hull.x[1] = (double)c0->b.x, hull.y[1] = (double)c0->b.y;
    hull.x[2] = (double)c1->b.x, hull.y[2] = (double)c1->b.y;
    hull.x[3] = (double)c1->a.x, hull.y[3] = (double)c1->a.y;
    return clv_mpoly_touch(&hull, &t);
}
