/* Time of impact of a translating shape against a still one.
 *
 * Every shape is a convex core of at most four points grown by a radius. Moving m by t*d meets
 * t exactly when t*d lies in K = core(t) - core(m), grown by R = r_m + r_t: a ray cast from the
 * origin against K. The edges of the convex polygon core(t) - core(m) are translates of an
 * edge of one core by a point of the other, and each lies inside K, so (when the ray starts
 * outside K) the first hit is the earliest hit of "a point of one core moving against an edge
 * of the other, grown by R": a point against a capsule, the seed's closed form. The ray starts
 * inside K when the cores already meet or come within R; the vertex-edge tests see the second
 * case (they return 0), and an explicit test sees cores that cross or contain each other.
 * Double precision throughout: the float inputs are exact in it.
 */
#include "motion_internal.h"

#include <math.h>

/* Segments a..b and c..d cross at a point interior to both (touching is left to distances). */
static bool segs_cross(double ax, double ay, double bx, double by, double cx, double cy, double dx,
                       double dy) {
    double o1 = clv__orient(ax, ay, bx, by, cx, cy), o2 = clv__orient(ax, ay, bx, by, dx, dy);
    double o3 = clv__orient(cx, cy, dx, dy, ax, ay), o4 = clv__orient(cx, cy, dx, dy, bx, by);
    return ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0)) &&
           ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0));
}

/* The closed segments a..b and c..d come within R of each other. */
static bool segs_within(double ax, double ay, double bx, double by, double cx, double cy, double dx,
                        double dy, double R) {
    double r2 = R * R;
    bool ab_point = ax == bx && ay == by, cd_point = cx == dx && cy == dy;
    if (cd_point) {
        return clv__point_seg_d2(cx, cy, ax, ay, bx, by) <= r2;
    }
    if (ab_point) {
        return clv__point_seg_d2(ax, ay, cx, cy, dx, dy) <= r2;
    }
    if (segs_cross(ax, ay, bx, by, cx, cy, dx, dy)) {
        return true;
    }
    return clv__point_seg_d2(ax, ay, cx, cy, dx, dy) <= r2 ||
           clv__point_seg_d2(bx, by, cx, cy, dx, dy) <= r2 ||
           clv__point_seg_d2(cx, cy, ax, ay, bx, by) <= r2 ||
           clv__point_seg_d2(dx, dy, ax, ay, bx, by) <= r2;
}

/* Closed triangle abc contains p; a flat triangle contains nothing (its edges cover it). */
static bool tri_contains(double ax, double ay, double bx, double by, double cx, double cy,
                         double px, double py) {
    double d = clv__orient(ax, ay, bx, by, cx, cy);
    if (d == 0.0) {
        return false;
    }
    double o1 = clv__orient(ax, ay, bx, by, px, py);
    double o2 = clv__orient(bx, by, cx, cy, px, py);
    double o3 = clv__orient(cx, cy, ax, ay, px, py);
    return d > 0.0 ? (o1 >= 0.0 && o2 >= 0.0 && o3 >= 0.0) : (o1 <= 0.0 && o2 <= 0.0 && o3 <= 0.0);
}

/* The area of m's core (only a 4-point core has one) contains p. */
static bool area_contains(const clv_mpoly *m, double px, double py) {
    static const int tris[4][3] = {{0, 1, 2}, {0, 2, 3}, {0, 1, 3}, {1, 2, 3}};
    if (m->n < 4) {
        return false;
    }
    int count = m->all_pairs ? 4 : 2; /* a box in order is two triangles; a hull needs all four */
    for (int i = 0; i < count; i++) {
        const int *k = tris[i];
        if (tri_contains(m->x[k[0]], m->y[k[0]], m->x[k[1]], m->y[k[1]], m->x[k[2]], m->y[k[2]], px,
                         py)) {
            return true;
        }
    }
    return false;
}

/* The edges of m's core as index pairs; returns how many. */
static int mpoly_edges(const clv_mpoly *m, int e[6][2]) {
    static const int box[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    static const int all[6][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {1, 3}};
    if (m->n == 1) {
        e[0][0] = e[0][1] = 0;
        return 1;
    }
    if (m->n == 2) {
        e[0][0] = 0;
        e[0][1] = 1;
        return 1;
    }
    int count = m->all_pairs ? 6 : 4;
    for (int i = 0; i < count; i++) {
        e[i][0] = m->all_pairs ? all[i][0] : box[i][0];
        e[i][1] = m->all_pairs ? all[i][1] : box[i][1];
    }
    return count;
}

clv_mpoly clv_mpoly_of_shape(const clv_shape *s) {
    clv_mpoly m;
    m.all_pairs = false;
    m.r = 0.0;
    switch (s->type) {
    case CLV_POINT:
        m.n = 1;
        m.x[0] = (double)s->u.point.x;
        m.y[0] = (double)s->u.point.y;
        break;
    case CLV_CIRCLE:
        m.n = 1;
        m.x[0] = (double)s->u.circle.c.x;
        m.y[0] = (double)s->u.circle.c.y;
        m.r = (double)s->u.circle.r;
        break;
    case CLV_CAPSULE:
        m.n = 2;
        m.x[0] = (double)s->u.capsule.a.x;
        m.y[0] = (double)s->u.capsule.a.y;
        m.x[1] = (double)s->u.capsule.b.x;
        m.y[1] = (double)s->u.capsule.b.y;
        m.r = (double)s->u.capsule.r;
        break;
    case CLV_AABB: {
        double x0 = (double)s->u.aabb.min.x, y0 = (double)s->u.aabb.min.y;
        double x1 = (double)s->u.aabb.max.x, y1 = (double)s->u.aabb.max.y;
        m.n = 4;
        m.x[0] = x0, m.y[0] = y0;
        m.x[1] = x1, m.y[1] = y0;
        m.x[2] = x1, m.y[2] = y1;
        m.x[3] = x0, m.y[3] = y1;
        break;
    }
    case CLV_OBB:
    default: {
        const clv_obb *o = &s->u.obb;
        double cx = (double)o->c.x, cy = (double)o->c.y;
        double ux = (double)o->u.x * (double)o->h.x, uy = (double)o->u.y * (double)o->h.x;
        double vx = -(double)o->u.y * (double)o->h.y, vy = (double)o->u.x * (double)o->h.y;
        m.n = 4;
        m.x[0] = cx + ux + vx, m.y[0] = cy + uy + vy;
        m.x[1] = cx - ux + vx, m.y[1] = cy - uy + vy;
        m.x[2] = cx - ux - vx, m.y[2] = cy - uy - vy;
        m.x[3] = cx + ux - vx, m.y[3] = cy + uy - vy;
        break;
    }
    }
    return m;
}

bool clv_mpoly_touch(const clv_mpoly *m, const clv_mpoly *t) {
    int em[6][2], et[6][2];
    int nm = mpoly_edges(m, em), nt = mpoly_edges(t, et);
    double R = m->r + t->r;
    for (int i = 0; i < nm; i++) {
        int a = em[i][0], b = em[i][1];
        for (int j = 0; j < nt; j++) {
            int c = et[j][0], d = et[j][1];
            if (segs_within(m->x[a], m->y[a], m->x[b], m->y[b], t->x[c], t->y[c], t->x[d], t->y[d],
                            R)) {
                return true;
            }
        }
    }
    return area_contains(m, t->x[0], t->y[0]) || area_contains(t, m->x[0], m->y[0]);
}

/* First t in [0, 1] with |m + t d| <= R (m = origin - centre), or -1: one square root. */
static double ray_disc(double mx, double my, double dx, double dy, double R) {
    double c = mx * mx + my * my - R * R;
    if (c <= 0.0) {
        return 0.0;
    }
    double b = mx * dx + my * dy;
    if (b >= 0.0) {
        return -1.0; /* outside and not approaching */
    }
    double a = dx * dx + dy * dy;
    double disc = b * b - a * c;
    if (disc < 0.0) {
        return -1.0;
    }
    /* The smaller root (-b - sqrt(disc)) / a written as c / (-b + sqrt(disc)): no cancellation. */
    double t = c / (-b + sqrt(disc));
    return t <= 1.0 ? t : -1.0;
}

/* First t in [0, 1] at which o + t d is within R of the segment a..b, or -1. The capsule is the
 * band |cross(p - a, e)| <= R |e| cut to 0 <= dot(p - a, e) <= |e|^2 (the rectangle), plus a disc
 * at each end. Before the ray enters the band it is outside the capsule; if it is then inside
 * the rectangle that is the answer, otherwise only the cap at the end it is beyond can come
 * first (the far cap, beyond an end line, lies inside the near one). */
static double ray_capsule(double ox, double oy, double dx, double dy, double ax, double ay,
                          double bx, double by, double R) {
    double ex = bx - ax, ey = by - ay;
    double mx = ox - ax, my = oy - ay;
    double l2 = ex * ex + ey * ey;
    if (l2 == 0.0) {
        return ray_disc(mx, my, dx, dy, R);
    }
    double w = R * sqrt(l2);
    double c0 = mx * ey - my * ex, c1 = dx * ey - dy * ex;
    double s0 = mx * ex + my * ey, s1 = dx * ex + dy * ey;
    double lo = 0.0, hi = 1.0;
    if (c1 == 0.0) {
        if (fabs(c0) > w) {
            return -1.0;
        }
    } else {
        double t0 = (-w - c0) / c1, t1 = (w - c0) / c1;
        if (t0 > t1) {
            double tmp = t0;
            t0 = t1;
            t1 = tmp;
        }
        lo = t0 > lo ? t0 : lo;
        hi = t1 < hi ? t1 : hi;
        if (lo > hi) {
            return -1.0;
        }
    }
    /* In the band for t in [lo, hi]. Where is the ray along the segment meanwhile? */
    double plo = lo, phi = hi;
    if (s1 == 0.0) {
        if (s0 < 0.0 || s0 > l2) {
            phi = plo - 1.0; /* never within the ends */
        }
    } else {
        double u0 = -s0 / s1, u1 = (l2 - s0) / s1;
        if (u0 > u1) {
            double tmp = u0;
            u0 = u1;
            u1 = tmp;
        }
        plo = u0 > plo ? u0 : plo;
        phi = u1 < phi ? u1 : phi;
    }
    if (plo <= phi) {
        if (plo == lo) {
            return lo; /* entered through a side, or inside already */
        }
        /* Entered the rectangle through an end line, which lies in that end's cap. */
        bool at_a = s1 > 0.0;
        double t = at_a ? ray_disc(mx, my, dx, dy, R) : ray_disc(ox - bx, oy - by, dx, dy, R);
        return t >= 0.0 && t <= plo ? t : plo;
    }
    double s = s0 + s1 * lo;
    return s < 0.0 ? ray_disc(mx, my, dx, dy, R) : ray_disc(ox - bx, oy - by, dx, dy, R);
}

/* The cores (segments or areas, radius ignored) meet in a way the vertex-edge distances miss:
 * crossing edges, or one core inside the other. */
static bool cores_cross(const clv_mpoly *m, const clv_mpoly *t) {
    int em[6][2], et[6][2];
    int nm = mpoly_edges(m, em), nt = mpoly_edges(t, et);
    if (m->n > 1 && t->n > 1) {
        for (int i = 0; i < nm; i++) {
            int a = em[i][0], b = em[i][1];
            for (int j = 0; j < nt; j++) {
                int c = et[j][0], d = et[j][1];
                if (segs_cross(m->x[a], m->y[a], m->x[b], m->y[b], t->x[c], t->y[c], t->x[d],
                               t->y[d])) {
                    return true;
                }
            }
        }
    }
    return area_contains(m, t->x[0], t->y[0]) || area_contains(t, m->x[0], m->y[0]);
}

double clv_mpoly_sweep(const clv_mpoly *m, double dx, double dy, const clv_mpoly *t) {
    if (cores_cross(m, t)) {
        return 0.0;
    }
    int em[6][2], et[6][2];
    int nm = mpoly_edges(m, em), nt = mpoly_edges(t, et);
    double R = m->r + t->r;
    double best = 2.0;
    /* A single-point core's partner tests repeat the caps of the other side: skip them. */
    bool forward = !(t->n == 1 && m->n > 1);
    bool backward = m->n > 1;
    if (forward) {
        for (int i = 0; i < m->n; i++) {
            for (int j = 0; j < nt; j++) {
                int c = et[j][0], d = et[j][1];
                double s =
                    ray_capsule(m->x[i], m->y[i], dx, dy, t->x[c], t->y[c], t->x[d], t->y[d], R);
                if (s >= 0.0 && s < best) {
                    best = s;
                }
            }
        }
    }
    if (backward && best > 0.0) {
        for (int i = 0; i < t->n; i++) {
            for (int j = 0; j < nm; j++) {
                int a = em[j][0], b = em[j][1];
                double s =
                    ray_capsule(t->x[i], t->y[i], -dx, -dy, m->x[a], m->y[a], m->x[b], m->y[b], R);
                if (s >= 0.0 && s < best) {
                    best = s;
                }
            }
        }
    }
    return best <= 1.0 ? best : -1.0;
}

/* A double t in [0, 1] as a float never later than it. */
static float t_down(double t) {
    float f = (float)t;
    if ((double)f > t) {
        f = nextafterf(f, 0.0f);
    }
    return f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
}

static bool finish(double t, float *out_t) {
    if (t < 0.0) {
        return false;
    }
    if (out_t) {
        *out_t = t_down(t);
    }
    return true;
}

bool clv_sweep(const clv_shape *moving, clv_vec2 delta, const clv_shape *target, float *out_t) {
    if (!isfinite(delta.x) || !isfinite(delta.y)) {
        return false;
    }
    clv_mpoly m = clv_mpoly_of_shape(moving), t = clv_mpoly_of_shape(target);
    return finish(clv_mpoly_sweep(&m, (double)delta.x, (double)delta.y, &t), out_t);
}

bool clv_sweep_circle_circle(const clv_circle *moving, clv_vec2 delta, const clv_circle *target,
                             float *out_t) {
    double t = ray_disc((double)moving->c.x - (double)target->c.x,
                        (double)moving->c.y - (double)target->c.y, (double)delta.x, (double)delta.y,
                        (double)moving->r + (double)target->r);
    return finish(t, out_t);
}

bool clv_sweep_circle_capsule(const clv_circle *moving, clv_vec2 delta, const clv_capsule *target,
                              float *out_t) {
    double t =
        ray_capsule((double)moving->c.x, (double)moving->c.y, (double)delta.x, (double)delta.y,
                    (double)target->a.x, (double)target->a.y, (double)target->b.x,
                    (double)target->b.y, (double)moving->r + (double)target->r);
    return finish(t, out_t);
}
