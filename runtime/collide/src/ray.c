/* Ray casts. A ray hits where a point moving along it first enters the shape's open interior:
 * a ray that only grazes a boundary, or meets a zero-radius shape, does not hit (the same
 * open-set rule as clv_overlap). */
#include <math.h>

#include "internal.h"

/* Entry time into the open disc (c, r) for o + t*d, or HUGE_VAL. */
static double disc_entry(clv_dvec2 o, clv_dvec2 d, clv_dvec2 c, double r, clv_dvec2 *normal) {
    clv_dvec2 m = clv_dsub(o, c);
    double a = clv_ddot(d, d), b = clv_ddot(m, d), k = clv_ddot(m, m) - r * r;
    double disc = b * b - a * k;
    if (a == 0.0 || !(disc > 0.0) || b >= 0.0) {
        return HUGE_VAL; /* parallel, tangent or missing, or moving away */
    }
    double t = (-b - sqrt(disc)) / a;
    clv_dvec2 p = clv_dadd(m, clv_dscale(d, t));
    double len = sqrt(clv_ddot(p, p));
    *normal = len > 0.0 ? clv_dscale(p, 1.0 / len) : clv_d2(0.0, -1.0);
    return t;
}

/* Entry time into the open box [-h, h] (local frame) for o + t*d, or HUGE_VAL. */
static double box_entry(clv_dvec2 o, clv_dvec2 d, clv_dvec2 h, clv_dvec2 *normal) {
    double pos[2] = {o.x, o.y}, dir[2] = {d.x, d.y}, ext[2] = {h.x, h.y};
    double t0 = -HUGE_VAL, t1 = HUGE_VAL;
    int axis = 0;
    for (int i = 0; i < 2; i++) {
        if (!(ext[i] > 0.0)) {
            return HUGE_VAL;
        }
        if (dir[i] == 0.0) {
            if (!(fabs(pos[i]) < ext[i])) {
                return HUGE_VAL;
            }
            continue;
        }
        double ta = (-ext[i] - pos[i]) / dir[i], tb = (ext[i] - pos[i]) / dir[i];
        if (ta > tb) {
            double s = ta;
            ta = tb;
            tb = s;
        }
        if (ta > t0) {
            t0 = ta;
            axis = i;
        }
        t1 = clv_dmin(t1, tb);
    }
    if (!(t0 < t1) || t0 < 0.0) {
        return HUGE_VAL;
    }
    double s = dir[axis] > 0.0 ? -1.0 : 1.0;
    *normal = axis == 0 ? clv_d2(s, 0.0) : clv_d2(0.0, s);
    return t0;
}

static bool inside(const clv_shape *s, clv_vec2 p) {
    clv_shape pt = clv_shape_point(p.x, p.y);
    return clv_overlap(&pt, s);
}

bool clv_raycast(const clv_shape *s, clv_vec2 origin, clv_vec2 dir, float max_t, clv_ray_hit *out) {
    clv_dvec2 d = clv_dv(dir);
    double dlen = sqrt(clv_ddot(d, d));
    if (inside(s, origin)) {
        out->t = 0.0f;
        out->normal = dlen > 0.0 ? clv_fv(clv_dscale(d, -1.0 / dlen)) : clv_v2(0.0f, -1.0f);
        return true;
    }
    if (dlen == 0.0) {
        return false;
    }
    double t = HUGE_VAL;
    clv_dvec2 n = {0.0, 0.0}, cand;
    switch (s->type) {
    case CLV_POINT:
        return false;
    case CLV_CIRCLE:
        t = disc_entry(clv_dv(origin), d, clv_dv(s->u.circle.c), (double)s->u.circle.r, &n);
        break;
    case CLV_CAPSULE: {
        const clv_capsule *c = &s->u.capsule;
        clv_dvec2 a = clv_dv(c->a), b = clv_dv(c->b), o = clv_dv(origin);
        double r = (double)c->r, tc;
        t = disc_entry(o, d, a, r, &n);
        if ((tc = disc_entry(o, d, b, r, &cand)) < t) {
            t = tc;
            n = cand;
        }
        clv_dvec2 e = clv_dsub(b, a);
        double len = sqrt(clv_ddot(e, e));
        if (len > 0.0) {
            /* The rectangle between the end discs, in its own frame. */
            clv_dvec2 u = clv_dscale(e, 1.0 / len), v = clv_d2(-u.y, u.x);
            clv_dvec2 mid = clv_dscale(clv_dadd(a, b), 0.5), m = clv_dsub(o, mid);
            clv_dvec2 lo = clv_d2(clv_ddot(m, u), clv_ddot(m, v));
            clv_dvec2 ld = clv_d2(clv_ddot(d, u), clv_ddot(d, v));
            if ((tc = box_entry(lo, ld, clv_d2(0.5 * len, r), &cand)) < t) {
                t = tc;
                n = clv_dadd(clv_dscale(u, cand.x), clv_dscale(v, cand.y));
            }
        }
        break;
    }
    case CLV_AABB: {
        clv_dvec2 lo = clv_dv(s->u.aabb.min), hi = clv_dv(s->u.aabb.max);
        clv_dvec2 c = clv_dscale(clv_dadd(lo, hi), 0.5), h = clv_dscale(clv_dsub(hi, lo), 0.5);
        t = box_entry(clv_dsub(clv_dv(origin), c), d, h, &n);
        break;
    }
    case CLV_OBB:
    default: {
        const clv_obb *b = &s->u.obb;
        clv_dvec2 u = clv_dv(b->u);
        u = clv_dscale(u, 1.0 / sqrt(clv_ddot(u, u)));
        clv_dvec2 v = clv_d2(-u.y, u.x), m = clv_dsub(clv_dv(origin), clv_dv(b->c));
        t = box_entry(clv_d2(clv_ddot(m, u), clv_ddot(m, v)),
                      clv_d2(clv_ddot(d, u), clv_ddot(d, v)), clv_dv(b->h), &cand);
        n = clv_dadd(clv_dscale(u, cand.x), clv_dscale(v, cand.y));
        break;
    }
    }
    if (!(t <= (double)max_t) || t < 0.0) {
        return false;
    }
    out->t = (float)t;
    out->normal = clv_fv(n);
    return true;
}
