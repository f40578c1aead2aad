/* The motion of a swept hitbox between two frames, and the bound that sizes its sub-steps.
 *
 * A round hitbox (circle or capsule) moves from its previous frame's placement to this frame's.
 * Two things may move it: the attack's pose (the wielder's origin travels in a straight line,
 * its facing turns along the shortest arc) and the weapon-local shape itself (a generated arc
 * emits a turned capsule each frame). The local change is read as a turn of the segment about
 * the one centre that carries the previous midpoint onto the current one, plus a straight
 * remainder (a change of length, or a circle moving); a thrust has no turn and is all
 * remainder. With u(s) the local core at s in [0, 1] and theta(s), T(s) the pose:
 *
 *     world(s) = R(theta(s)) u(s) + T(s),   u(s) = c + R(s phi)(l0 - c) + s e.
 *
 * The arena cuts [0, 1] into n sub-steps and covers each by the hull of the cores at its two
 * ends grown by the larger radius plus the bend (how far a core point strays from the straight
 * line between its sub-step ends) and a rounding allowance. docs/hit-rules.md derives the
 * bounds used here: speeds of a core point, without and with the pose's travel, and a bound on
 * its acceleration give both the bend and how far the covers reach past the true area.
 */
#include "hit_internal.h"

#include <math.h>

/* A local turn smaller than this is read as none: the arc about a far centre and the straight
 * move it replaces differ by less than 1e-7 of the distance moved. */
#define TINY_TURN 1e-6

static bool round_core(const clv_shape *s, int32_t mirror, double *ax, double *ay, double *bx,
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

static double len2(double x, double y) { return sqrt(x * x + y * y); }

static double max2(double a, double b) { return a > b ? a : b; }

bool clv__motion_local(clv__motion *m, const clv_shape *prev, int32_t mirror0, const clv_shape *cur,
                       int32_t mirror1) {
    if (!round_core(prev, mirror0, &m->a0x, &m->a0y, &m->b0x, &m->b0y, &m->r0) ||
        !round_core(cur, mirror1, &m->a1x, &m->a1y, &m->b1x, &m->b1y, &m->r1)) {
        return false;
    }
    double d0x = m->b0x - m->a0x, d0y = m->b0y - m->a0y;
    double d1x = m->b1x - m->a1x, d1y = m->b1y - m->a1y;
    m->phi = 0.0;
    if (len2(d0x, d0y) > 0.0 && len2(d1x, d1y) > 0.0) {
        m->phi = clv_atan2_d(d0x * d1y - d0y * d1x, d0x * d1x + d0y * d1y);
    }
    if (fabs(m->phi) < TINY_TURN) {
        m->phi = 0.0;
    }
    m->cphi = 1.0, m->sphi = 0.0;
    m->cx = 0.0, m->cy = 0.0;
    m->rho_c = 0.0;
    if (m->phi != 0.0) {
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
        m->rho_c = max2(len2(m->a0x - m->cx, m->a0y - m->cy), len2(m->b0x - m->cx, m->b0y - m->cy));
    }
    /* What the turn leaves over, per end. */
    double px = m->a0x - m->cx, py = m->a0y - m->cy;
    m->eax = m->a1x - (m->cx + m->cphi * px - m->sphi * py);
    m->eay = m->a1y - (m->cy + m->sphi * px + m->cphi * py);
    px = m->b0x - m->cx, py = m->b0y - m->cy;
    m->ebx = m->b1x - (m->cx + m->cphi * px - m->sphi * py);
    m->eby = m->b1y - (m->cy + m->sphi * px + m->cphi * py);
    m->e_max = max2(len2(m->eax, m->eay), len2(m->ebx, m->eby));
    double rho_l = max2(max2(len2(m->a0x, m->a0y), len2(m->b0x, m->b0y)),
                        max2(len2(m->a1x, m->a1y), len2(m->b1x, m->b1y)));
    /* |u(s)|: the arc stays within its sagitta (<= rho_c phi^2 / 8) of its chord. */
    m->rho_u = rho_l + 2.0 * m->e_max + m->rho_c * m->phi * m->phi / 8.0;
    return true;
}

bool clv__motion_still(const clv__motion *m, double dth, double dx, double dy) {
    return dth == 0.0 && dx == 0.0 && dy == 0.0 && m->a0x == m->a1x && m->a0y == m->a1y &&
           m->b0x == m->b1x && m->b0y == m->b1y && m->r0 == m->r1;
}

/* Speed of a core point (per unit of s) without the pose's travel, and a bound on its
 * acceleration. */
static double speed_rot(const clv__motion *m, double dth) {
    return fabs(dth) * m->rho_u + fabs(m->phi) * m->rho_c + m->e_max;
}

static double accel(const clv__motion *m, double dth) {
    return dth * dth * m->rho_u + 2.0 * fabs(dth) * (fabs(m->phi) * m->rho_c + m->e_max) +
           m->phi * m->phi * m->rho_c;
}

double clv__motion_bend(const clv__motion *m, double dth, int32_t n) {
    double nn = (double)n;
    return accel(m, dth) / (8.0 * nn * nn);
}

double clv__motion_overcover(const clv__motion *m, double dth, double travel, int32_t n,
                             double slack) {
    double nn = (double)n;
    double eps = clv__motion_bend(m, dth, n);
    double vr = speed_rot(m, dth);
    double dr = fabs(m->r1 - m->r0);
    /* Near the middle core: every hull point is within half a sub-step's largest move of it. */
    double mid = (vr + travel) / (2.0 * nn) + 2.0 * eps + dr / (2.0 * nn);
    /* Against the translated start: only the turning part strays, twice. */
    double turn = 2.0 * vr / nn + eps + dr / nn;
    return (mid < turn ? mid : turn) + slack;
}

int32_t clv__motion_substeps(const clv__motion *m, double dth, double travel, double tol,
                             double slack, int32_t cap) {
    if (clv__motion_overcover(m, dth, travel, 1, slack) <= tol) {
        return 1;
    }
    if (!(clv__motion_overcover(m, dth, travel, cap, slack) <= tol)) {
        return cap;
    }
    int32_t lo = 2, hi = cap; /* overcover(hi) <= tol; it never grows with n */
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (clv__motion_overcover(m, dth, travel, mid, slack) <= tol) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

void clv__motion_at(const clv__motion *m, double s, double sn, double cs, double ox, double oy,
                    clv_vec2 *out_a, clv_vec2 *out_b) {
    double ct = 1.0, st = 0.0;
    if (m->phi != 0.0) {
        clv_sincos_d(s * m->phi, &st, &ct);
    }
    double px = m->a0x - m->cx, py = m->a0y - m->cy;
    double ux = m->cx + ct * px - st * py + s * m->eax;
    double uy = m->cy + st * px + ct * py + s * m->eay;
    *out_a = clv_v2((float)(cs * ux - sn * uy + ox), (float)(sn * ux + cs * uy + oy));
    px = m->b0x - m->cx, py = m->b0y - m->cy;
    ux = m->cx + ct * px - st * py + s * m->ebx;
    uy = m->cy + st * px + ct * py + s * m->eby;
    *out_b = clv_v2((float)(cs * ux - sn * uy + ox), (float)(sn * ux + cs * uy + oy));
}
