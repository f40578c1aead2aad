/* A hitbox swept between two poses (rotation about the wielder plus translation).
 *
 * The motion is cut into n sub-steps. Sub-step k is covered by the convex hull of the hitbox's
 * core at poses k and k+1, grown by r + eps: each core point's true path bends away from the
 * straight line between its sub-step ends by at most eps = rho * delta^2 / 8 (rho the farthest
 * core point from the pivot, delta the sub-step's rotation; translation is linear and adds
 * nothing), so the hulls cover the true swept area. A hull point is within D of a true core
 * point, D = min(4 rho sin(delta/4), rho sin(delta/2) + |dT| / 2n), so the cover reaches at
 * most D + eps beyond it; n is the fewest sub-steps that bring that under the tolerance.
 * docs/motion.md derives both bounds.
 */
#include "motion_internal.h"

#include <math.h>

/* Relative size of the slack that absorbs double rounding in the cover. */
static const double clv_slack = 1e-9;

typedef struct motion {
    double ax, ay, bx, by, r; /* local core and radius */
    double rho;               /* farthest local core point from the pivot */
    double x0, y0, th0;       /* pose 0 */
    double dx, dy, dth;       /* pose 1 - pose 0, the angle difference as given */
    double slack;
} motion;

static motion motion_of(const clv_capsule *local, clv_pose p0, clv_pose p1) {
    motion m;
    m.ax = (double)local->a.x, m.ay = (double)local->a.y;
    m.bx = (double)local->b.x, m.by = (double)local->b.y;
    m.r = (double)local->r;
    double ra = sqrt(m.ax * m.ax + m.ay * m.ay), rb = sqrt(m.bx * m.bx + m.by * m.by);
    m.rho = ra > rb ? ra : rb;
    m.x0 = (double)p0.x, m.y0 = (double)p0.y, m.th0 = (double)p0.angle;
    m.dx = (double)p1.x - m.x0, m.dy = (double)p1.y - m.y0;
    m.dth = (double)p1.angle - m.th0;
    double reach = m.rho + m.r + fabs(m.x0) + fabs(m.y0) + fabs(m.dx) + fabs(m.dy) + 1.0;
    m.slack = clv_slack * reach;
    return m;
}

/* How far sub-step points may bend away from the hulls' straight edges. */
static double bend(const motion *m, double n) {
    double delta = fabs(m->dth) / n;
    return m->rho * delta * delta / 8.0;
}

static double overcover(const motion *m, double n) {
    double delta = fabs(m->dth) / n;
    double q = delta / 4.0 < CLV_PI / 2.0 ? delta / 4.0 : CLV_PI / 2.0;
    double h = delta / 2.0 < CLV_PI / 2.0 ? delta / 2.0 : CLV_PI / 2.0;
    double mid = 4.0 * m->rho * sin(q);
    double ends = m->rho * sin(h) + sqrt(m->dx * m->dx + m->dy * m->dy) / (2.0 * n);
    return (mid < ends ? mid : ends) + bend(m, n) + 2.0 * m->slack;
}

static int substeps(const motion *m, double tolerance) {
    if (!(tolerance > 0.0) || !(overcover(m, CLV_POSE_MAX_SUBSTEPS) <= tolerance)) {
        return CLV_POSE_MAX_SUBSTEPS;
    }
    int lo = 1, hi = CLV_POSE_MAX_SUBSTEPS; /* overcover(hi) <= tolerance; it never grows with n */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (overcover(m, mid) <= tolerance) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

/* The core's ends at fraction s of the motion. */
static void ends_at(const motion *m, double s, double *out) {
    double th = m->th0 + s * m->dth;
    double c = cos(th), sn = sin(th);
    double x = m->x0 + s * m->dx, y = m->y0 + s * m->dy;
    out[0] = c * m->ax - sn * m->ay + x;
    out[1] = sn * m->ax + c * m->ay + y;
    out[2] = c * m->bx - sn * m->by + x;
    out[3] = sn * m->bx + c * m->by + y;
}

static bool sweep_n(const motion *m, const clv_shape *target, int n, float *out_t) {
    clv_mpoly t = clv_mpoly_of_shape(target);
    clv_mpoly hull;
    hull.n = 4;
    hull.all_pairs = true;
    hull.r = m->r + bend(m, (double)n) + m->slack;
    double prev[4], next[4];
    ends_at(m, 0.0, prev);
    for (int k = 0; k < n; k++) {
        ends_at(m, (double)(k + 1) / (double)n, next);
        hull.x[0] = prev[0], hull.y[0] = prev[1];
        hull.x[1] = prev[2], hull.y[1] = prev[3];
        hull.x[2] = next[2], hull.y[2] = next[3];
        hull.x[3] = next[0], hull.y[3] = next[1];
        if (clv_mpoly_touch(&hull, &t)) {
            if (out_t) {
                *out_t = (float)((double)k / (double)n);
            }
            return true;
        }
        for (int i = 0; i < 4; i++) {
            prev[i] = next[i];
        }
    }
    return false;
}

clv_pose clv_pose_shortest(clv_pose p0, clv_pose p1) {
    double d = (double)p1.angle - (double)p0.angle;
    d -= 2.0 * CLV_PI * floor(d / (2.0 * CLV_PI) + 0.5);
    p1.angle = (float)((double)p0.angle + d);
    return p1;
}

clv_capsule clv_pose_apply(const clv_capsule *local, clv_pose p) {
    float c = cosf(p.angle), s = sinf(p.angle);
    clv_capsule w;
    w.a = clv_v2(c * local->a.x - s * local->a.y + p.x, s * local->a.x + c * local->a.y + p.y);
    w.b = clv_v2(c * local->b.x - s * local->b.y + p.x, s * local->b.x + c * local->b.y + p.y);
    w.r = local->r;
    return w;
}

float clv_pose_overcover(const clv_capsule *local, clv_pose p0, clv_pose p1, int n) {
    motion m = motion_of(local, p0, p1);
    double v = overcover(&m, (double)(n < 1 ? 1 : n));
    float f = (float)v;
    return (double)f < v ? nextafterf(f, INFINITY) : f;
}

int clv_pose_substeps(const clv_capsule *local, clv_pose p0, clv_pose p1, float tolerance) {
    motion m = motion_of(local, p0, p1);
    return substeps(&m, (double)tolerance);
}

bool clv_sweep_pose(const clv_capsule *local, clv_pose p0, clv_pose p1, const clv_shape *target,
                    float tolerance, float *out_t) {
    motion m = motion_of(local, p0, p1);
    return sweep_n(&m, target, substeps(&m, (double)tolerance), out_t);
}

bool clv_sweep_pose_n(const clv_capsule *local, clv_pose p0, clv_pose p1, const clv_shape *target,
                      int n, float *out_t) {
    motion m = motion_of(local, p0, p1);
    return sweep_n(&m, target, n < 1 ? 1 : n, out_t);
}

bool clv_hull_touches(const clv_capsule *c0, const clv_capsule *c1, float r,
                      const clv_shape *target) {
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

/* Bounds of the arc a point at (px, py) traces as the angle goes from th0 to th0 + dth. */
static void arc_bounds(double px, double py, double th0, double dth, double *lo, double *hi) {
    double rho = sqrt(px * px + py * py);
    double a0 = atan2(py, px) + th0, a1 = a0 + dth;
    if (a0 > a1) {
        double t = a0;
        a0 = a1;
        a1 = t;
    }
    lo[0] = hi[0] = rho * cos(a0);
    lo[1] = hi[1] = rho * sin(a0);
    double ex = rho * cos(a1), ey = rho * sin(a1);
    lo[0] = ex < lo[0] ? ex : lo[0], hi[0] = ex > hi[0] ? ex : hi[0];
    lo[1] = ey < lo[1] ? ey : lo[1], hi[1] = ey > hi[1] ? ey : hi[1];
    if (a1 - a0 >= 2.0 * CLV_PI) {
        lo[0] = lo[1] = -rho;
        hi[0] = hi[1] = rho;
        return;
    }
    /* Every quarter-turn direction the arc passes through is an extreme. */
    double k = ceil(a0 / (CLV_PI / 2.0));
    for (int i = 0; i < 5 && k * (CLV_PI / 2.0) <= a1; i++, k += 1.0) {
        int q = (int)(k - 4.0 * floor(k / 4.0));
        if (q == 0) {
            hi[0] = rho;
        } else if (q == 1) {
            hi[1] = rho;
        } else if (q == 2) {
            lo[0] = -rho;
        } else {
            lo[1] = -rho;
        }
    }
}

clv_aabb clv_sweep_pose_bounds(const clv_capsule *local, clv_pose p0, clv_pose p1,
                               float tolerance) {
    motion m = motion_of(local, p0, p1);
    double la[2], ha[2], lb[2], hb[2];
    arc_bounds(m.ax, m.ay, m.th0, m.dth, la, ha);
    arc_bounds(m.bx, m.by, m.th0, m.dth, lb, hb);
    /* The regions clv_sweep_pose tests stay within max(tolerance, the achieved bound). */
    double tol = (double)tolerance;
    double achieved = overcover(&m, (double)substeps(&m, tol));
    double grow = m.r + (achieved > tol || !(tol > 0.0) ? achieved : tol) + m.slack;
    double tx0 = m.dx < 0.0 ? m.dx : 0.0, tx1 = m.dx > 0.0 ? m.dx : 0.0;
    double ty0 = m.dy < 0.0 ? m.dy : 0.0, ty1 = m.dy > 0.0 ? m.dy : 0.0;
    double minx = (la[0] < lb[0] ? la[0] : lb[0]) + m.x0 + tx0 - grow;
    double miny = (la[1] < lb[1] ? la[1] : lb[1]) + m.y0 + ty0 - grow;
    double maxx = (ha[0] > hb[0] ? ha[0] : hb[0]) + m.x0 + tx1 + grow;
    double maxy = (ha[1] > hb[1] ? ha[1] : hb[1]) + m.y0 + ty1 + grow;
    clv_aabb box;
    box.min = clv_v2(nextafterf((float)minx, -INFINITY), nextafterf((float)miny, -INFINITY));
    box.max = clv_v2(nextafterf((float)maxx, INFINITY), nextafterf((float)maxy, INFINITY));
    return box;
}
