/* Closest points, distance and contact for any pair. Not the hot path: computed in double
 * from each shape's core (a segment or a box), with the pair in one canonical order so that
 * every answer is exactly symmetric. */
#include <float.h>
#include <math.h>

#include "internal.h"

/* A shape reduced to its core: a segment a..b (a point when a == b) grown by r, or a box. */
typedef struct core {
    bool box;
    bool capsule; /* t on the blade is reported for capsules only */
    clv_dvec2 a, b;
    double r;
    clv_dvec2 c, u, v, h; /* box centre, unit axes, half extents */
    clv_dvec2 corner[4];
} core;

/* Written in place, and only a box's core sets its box fields (no other reads them): most pairs
 * are round, and clearing or copying a whole core costs more than the rest of it. */
static void make_core(core *k, const clv_shape *s, clv_dvec2 origin) {
    k->box = false;
    k->capsule = false;
    k->r = 0.0;
    switch (s->type) {
    case CLV_POINT:
        k->a = k->b = clv_dsub(clv_dv(s->u.point), origin);
        break;
    case CLV_CIRCLE:
        k->a = k->b = clv_dsub(clv_dv(s->u.circle.c), origin);
        k->r = (double)s->u.circle.r;
        break;
    case CLV_CAPSULE:
        k->capsule = true;
        k->a = clv_dsub(clv_dv(s->u.capsule.a), origin);
        k->b = clv_dsub(clv_dv(s->u.capsule.b), origin);
        k->r = (double)s->u.capsule.r;
        break;
    case CLV_AABB:
    case CLV_OBB:
    default:
        k->box = true;
        k->a = k->b = clv_d2(0.0, 0.0);
        if (s->type == CLV_AABB) {
            clv_dvec2 lo = clv_dv(s->u.aabb.min), hi = clv_dv(s->u.aabb.max);
            k->c = clv_dsub(clv_dscale(clv_dadd(lo, hi), 0.5), origin);
            k->h = clv_dscale(clv_dsub(hi, lo), 0.5);
            k->u = clv_d2(1.0, 0.0);
        } else {
            clv_dvec2 u = clv_dv(s->u.obb.u);
            k->c = clv_dsub(clv_dv(s->u.obb.c), origin);
            k->h = clv_dv(s->u.obb.h);
            k->u = clv_dscale(u, 1.0 / sqrt(clv_ddot(u, u)));
        }
        k->v = clv_d2(-k->u.y, k->u.x);
        for (int i = 0; i < 4; i++) {
            double sx = (i == 0 || i == 3) ? 1.0 : -1.0, sy = (i < 2) ? 1.0 : -1.0;
            k->corner[i] = clv_dadd(
                k->c, clv_dadd(clv_dscale(k->u, sx * k->h.x), clv_dscale(k->v, sy * k->h.y)));
        }
        break;
    }
}

/* Closest features of two cores. */
typedef struct core_pair {
    double d;         /* distance between the cores, 0 when they meet */
    clv_dvec2 pa, pb; /* closest points (equal when the cores meet) */
    double ta, tb;    /* segment parameters of pa, pb */
} core_pair;

/* Closest point to p on a..b, with its parameter. */
static clv_dvec2 closest_on_segment(clv_dvec2 p, clv_dvec2 a, clv_dvec2 b, double *t) {
    clv_dvec2 d = clv_dsub(b, a);
    double len2 = clv_ddot(d, d);
    *t = len2 > 0.0 ? clv_dclamp(clv_ddot(clv_dsub(p, a), d) / len2, 0.0, 1.0) : 0.0;
    return clv_dadd(a, clv_dscale(d, *t));
}

static double dist(clv_dvec2 a, clv_dvec2 b) {
    clv_dvec2 d = clv_dsub(a, b);
    return sqrt(clv_ddot(d, d));
}

/* Keeps the candidate when it is strictly closer: ties go to the earlier one, deterministically. */
static void keep(core_pair *best, clv_dvec2 pa, clv_dvec2 pb, double ta, double tb) {
    double d = dist(pa, pb);
    if (d < best->d) {
        best->d = d;
        best->pa = pa;
        best->pb = pb;
        best->ta = ta;
        best->tb = tb;
    }
}

static core_pair segment_segment(const core *A, const core *B) {
    core_pair r = {HUGE_VAL, {0, 0}, {0, 0}, 0, 0};
    clv_dvec2 da = clv_dsub(A->b, A->a), db = clv_dsub(B->b, B->a);
    double o1 = clv_dcross(da, clv_dsub(B->a, A->a)), o2 = clv_dcross(da, clv_dsub(B->b, A->a));
    double o3 = clv_dcross(db, clv_dsub(A->a, B->a)), o4 = clv_dcross(db, clv_dsub(A->b, B->a));
    if (((o1 < 0 && o2 > 0) || (o1 > 0 && o2 < 0)) && ((o3 < 0 && o4 > 0) || (o3 > 0 && o4 < 0))) {
        r.d = 0.0;
        r.ta = o3 / (o3 - o4);
        r.tb = o1 / (o1 - o2);
        r.pa = r.pb = clv_dadd(A->a, clv_dscale(da, r.ta));
        return r;
    }
    double t;
    clv_dvec2 q;
    q = closest_on_segment(A->a, B->a, B->b, &t);
    keep(&r, A->a, q, 0.0, t);
    q = closest_on_segment(A->b, B->a, B->b, &t);
    keep(&r, A->b, q, 1.0, t);
    q = closest_on_segment(B->a, A->a, A->b, &t);
    keep(&r, q, B->a, t, 0.0);
    q = closest_on_segment(B->b, A->a, A->b, &t);
    keep(&r, q, B->b, t, 1.0);
    return r;
}

/* p in the box's frame. */
static clv_dvec2 to_box(const core *B, clv_dvec2 p) {
    clv_dvec2 d = clv_dsub(p, B->c);
    return clv_d2(clv_ddot(d, B->u), clv_ddot(d, B->v));
}

static clv_dvec2 from_box(const core *B, clv_dvec2 l) {
    return clv_dadd(B->c, clv_dadd(clv_dscale(B->u, l.x), clv_dscale(B->v, l.y)));
}

static clv_dvec2 closest_on_box(const core *B, clv_dvec2 p) {
    clv_dvec2 l = to_box(B, p);
    return from_box(B, clv_d2(clv_dclamp(l.x, -B->h.x, B->h.x), clv_dclamp(l.y, -B->h.y, B->h.y)));
}

/* Clips p + t*d, t in [t0, t1], to the closed box (Liang-Barsky, in the box frame). Returns
 * false when nothing is left. */
static bool clip_to_box(const core *B, clv_dvec2 p, clv_dvec2 d, double *t0, double *t1) {
    clv_dvec2 lp = to_box(B, p);
    clv_dvec2 ld = clv_d2(clv_ddot(d, B->u), clv_ddot(d, B->v));
    double pos[2] = {lp.x, lp.y}, dir[2] = {ld.x, ld.y}, h[2] = {B->h.x, B->h.y};
    for (int i = 0; i < 2; i++) {
        if (dir[i] == 0.0) {
            if (pos[i] < -h[i] || pos[i] > h[i]) {
                return false;
            }
            continue;
        }
        double ta = (-h[i] - pos[i]) / dir[i], tb = (h[i] - pos[i]) / dir[i];
        if (ta > tb) {
            double s = ta;
            ta = tb;
            tb = s;
        }
        *t0 = clv_dmax(*t0, ta);
        *t1 = clv_dmin(*t1, tb);
    }
    return *t0 <= *t1;
}

static core_pair segment_box(const core *A, const core *B) {
    core_pair r = {HUGE_VAL, {0, 0}, {0, 0}, 0, 0};
    clv_dvec2 d = clv_dsub(A->b, A->a);
    double t0 = 0.0, t1 = 1.0;
    if (clip_to_box(B, A->a, d, &t0, &t1)) {
        r.d = 0.0;
        r.ta = 0.5 * (t0 + t1);
        r.pa = r.pb = clv_dadd(A->a, clv_dscale(d, r.ta));
        return r;
    }
    double t;
    keep(&r, A->a, closest_on_box(B, A->a), 0.0, 0.0);
    keep(&r, A->b, closest_on_box(B, A->b), 1.0, 0.0);
    for (int i = 0; i < 4; i++) {
        clv_dvec2 q = closest_on_segment(B->corner[i], A->a, A->b, &t);
        keep(&r, q, B->corner[i], t, 0.0);
    }
    return r;
}

/* Interval of the core projected on n. */
static void project(const core *K, clv_dvec2 n, double *lo, double *hi) {
    if (K->box) {
        double c = clv_ddot(K->c, n);
        double e = K->h.x * fabs(clv_ddot(K->u, n)) + K->h.y * fabs(clv_ddot(K->v, n));
        *lo = c - e;
        *hi = c + e;
    } else {
        double p = clv_ddot(K->a, n), q = clv_ddot(K->b, n);
        *lo = clv_dmin(p, q);
        *hi = clv_dmax(p, q);
    }
}

static bool boxes_meet(const core *A, const core *B) {
    clv_dvec2 axes[4] = {A->u, A->v, B->u, B->v};
    for (int i = 0; i < 4; i++) {
        double alo, ahi, blo, bhi;
        project(A, axes[i], &alo, &ahi);
        project(B, axes[i], &blo, &bhi);
        if (ahi < blo || bhi < alo) {
            return false;
        }
    }
    return true;
}

/* A point inside the intersection of two boxes known to meet: the average of the vertices of
 * A clipped by B's four edges (Sutherland-Hodgman). */
static clv_dvec2 box_overlap_point(const core *A, const core *B) {
    clv_dvec2 poly[16], next[16];
    int n = 4;
    for (int i = 0; i < 4; i++) {
        poly[i] = A->corner[i];
    }
    clv_dvec2 normals[4] = {B->u, B->v, clv_dscale(B->u, -1.0), clv_dscale(B->v, -1.0)};
    double ext[4] = {B->h.x, B->h.y, B->h.x, B->h.y};
    for (int e = 0; e < 4 && n > 0; e++) {
        double lim = clv_ddot(B->c, normals[e]) + ext[e];
        int m = 0;
        for (int i = 0; i < n; i++) {
            clv_dvec2 p = poly[i], q = poly[(i + 1) % n];
            double sp = clv_ddot(p, normals[e]) - lim, sq = clv_ddot(q, normals[e]) - lim;
            if (sp <= 0.0) {
                next[m++] = p;
            }
            if ((sp < 0.0 && sq > 0.0) || (sp > 0.0 && sq < 0.0)) {
                next[m++] = clv_dadd(p, clv_dscale(clv_dsub(q, p), sp / (sp - sq)));
            }
        }
        n = m;
        for (int i = 0; i < n; i++) {
            poly[i] = next[i];
        }
    }
    if (n == 0) { /* the boxes only touch, within round-off: their nearest corner will do */
        return closest_on_box(B, A->c);
    }
    clv_dvec2 sum = {0.0, 0.0};
    for (int i = 0; i < n; i++) {
        sum = clv_dadd(sum, poly[i]);
    }
    return clv_dscale(sum, 1.0 / n);
}

static core_pair box_box(const core *A, const core *B) {
    core_pair r = {HUGE_VAL, {0, 0}, {0, 0}, 0, 0};
    if (boxes_meet(A, B)) {
        r.d = 0.0;
        r.pa = r.pb = box_overlap_point(A, B);
        return r;
    }
    for (int i = 0; i < 4; i++) {
        keep(&r, A->corner[i], closest_on_box(B, A->corner[i]), 0.0, 0.0);
        keep(&r, closest_on_box(A, B->corner[i]), B->corner[i], 0.0, 0.0);
    }
    return r;
}

/* Cores in canonical order: a segment never comes after a box. */
static core_pair closest_cores(const core *A, const core *B) {
    if (!A->box && !B->box) {
        return segment_segment(A, B);
    }
    if (!A->box) {
        return segment_box(A, B);
    }
    return box_box(A, B);
}

/* Everything the public queries need, for a pair already in canonical order. */
typedef struct pair_info {
    clv_dvec2 origin;
    core A, B;
    core_pair cp;
    double R;
} pair_info;

static void analyse(pair_info *p, const clv_shape *a, const clv_shape *b) {
    /* Work relative to a point of the pair, so round-off follows the pair's size. */
    clv_aabb ba = clv_shape_bounds(a);
    p->origin = clv_dv(ba.min);
    make_core(&p->A, a, p->origin);
    make_core(&p->B, b, p->origin);
    p->cp = closest_cores(&p->A, &p->B);
    p->R = p->A.r + p->B.r;
}

static float blade_t(const core *K, double t) { return K->capsule ? (float)t : 0.0f; }

/* The deepest way out when the cores meet: the least support distance of the Minkowski
 * difference over the edge normals of both cores (for two crossing capsules, the normals of
 * both blades), plus the radii. */
static void penetration(const pair_info *p, clv_dvec2 *normal, double *depth) {
    clv_dvec2 cand[8];
    int n = 0;
    const core *ks[2] = {&p->A, &p->B};
    for (int i = 0; i < 2; i++) {
        const core *K = ks[i];
        if (K->box) {
            cand[n++] = K->u;
            cand[n++] = K->v;
        } else {
            clv_dvec2 d = clv_dsub(K->b, K->a);
            double len = sqrt(clv_ddot(d, d));
            if (len > 0.0) {
                cand[n++] = clv_d2(-d.y / len, d.x / len);
            }
        }
    }
    *normal = clv_d2(0.0, -1.0); /* two concentric round cores: push b up (y is down) */
    *depth = p->R;
    bool found = false;
    for (int i = 0; i < n; i++) {
        for (int sgn = 0; sgn < 2; sgn++) {
            clv_dvec2 axis = sgn ? clv_dscale(cand[i], -1.0) : cand[i];
            double alo, ahi, blo, bhi;
            project(&p->A, axis, &alo, &ahi);
            project(&p->B, axis, &blo, &bhi);
            double d = ahi - blo + p->R;
            if (!found || d < *depth) {
                found = true;
                *depth = d;
                *normal = axis;
            }
        }
    }
}

/* The contact point: where the cores meet, or else midway between the two surfaces. */
static clv_dvec2 overlap_point(const pair_info *p) {
    if (!(p->cp.d > 0.0)) {
        return p->cp.pa;
    }
    clv_dvec2 n = clv_dscale(clv_dsub(p->cp.pb, p->cp.pa), 1.0 / p->cp.d);
    return clv_dscale(clv_dadd(clv_dadd(p->cp.pa, clv_dscale(n, p->A.r)),
                               clv_dsub(p->cp.pb, clv_dscale(n, p->B.r))),
                      0.5);
}

clv_closest clv_closest_points(const clv_shape *a, const clv_shape *b) {
    bool swap = clv_pair_swapped(a, b);
    pair_info p;
    analyse(&p, swap ? b : a, swap ? a : b);
    clv_closest r;
    if (p.cp.d >= p.R && p.cp.d > 0.0) {
        clv_dvec2 n = clv_dscale(clv_dsub(p.cp.pb, p.cp.pa), 1.0 / p.cp.d);
        r.distance = (float)(p.cp.d - p.R);
        r.pa = clv_fv(clv_dadd(p.origin, clv_dadd(p.cp.pa, clv_dscale(n, p.A.r))));
        r.pb = clv_fv(clv_dadd(p.origin, clv_dsub(p.cp.pb, clv_dscale(n, p.B.r))));
    } else {
        r.distance = 0.0f;
        r.pa = r.pb = clv_fv(clv_dadd(p.origin, overlap_point(&p)));
    }
    r.ta = blade_t(&p.A, p.cp.ta);
    r.tb = blade_t(&p.B, p.cp.tb);
    if (swap) {
        clv_vec2 t = r.pa;
        r.pa = r.pb;
        r.pb = t;
        float tt = r.ta;
        r.ta = r.tb;
        r.tb = tt;
    }
    return r;
}

float clv_distance(const clv_shape *a, const clv_shape *b) {
    return clv_closest_points(a, b).distance;
}

bool clv_contact_shapes(const clv_shape *a, const clv_shape *b, clv_contact *out) {
    if (!clv_overlap(a, b)) {
        return false;
    }
    bool swap = clv_pair_swapped(a, b);
    pair_info p;
    analyse(&p, swap ? b : a, swap ? a : b);
    clv_dvec2 n, point;
    double depth;
    if (p.cp.d > 0.0) {
        n = clv_dscale(clv_dsub(p.cp.pb, p.cp.pa), 1.0 / p.cp.d);
        depth = p.R - p.cp.d;
    } else {
        penetration(&p, &n, &depth);
    }
    point = overlap_point(&p);
    /* The float overlap test and this double computation can disagree by round-off right at
     * the boundary; the contact stays valid, just as shallow as a float can say. */
    if (!(depth > 0.0)) {
        depth = (double)FLT_MIN;
    }
    /* 0 - n rather than -n: a zero component stays +0, not -0. */
    out->normal = clv_fv(swap ? clv_dsub(clv_d2(0.0, 0.0), n) : n);
    out->depth = (float)depth;
    out->point = clv_fv(clv_dadd(p.origin, point));
    out->ta = blade_t(swap ? &p.B : &p.A, swap ? p.cp.tb : p.cp.ta);
    out->tb = blade_t(swap ? &p.A : &p.B, swap ? p.cp.ta : p.cp.tb);
    return true;
}
