/* Overlap tests, the hot path. Written without data-dependent branches (selects and
 * min/max instead of if), since on unpredictable pairs a mispredicted clamp costs more than
 * the arithmetic. Every test is exactly symmetric in its two shapes. */
#include "internal.h"

/* Squared distance from p to segment a..b. A zero-length segment is the point a. */
static inline float dist2_point_segment(clv_vec2 p, clv_vec2 a, clv_vec2 b) {
    clv_vec2 d = clv_sub(b, a);
    clv_vec2 ap = clv_sub(p, a);
    float len2 = clv_dot(d, d);
    float t = clv_clampf(clv_dot(ap, d) / clv_maxf(len2, 1e-30f), 0.0f, 1.0f);
    clv_vec2 q = clv_sub(ap, clv_scale(d, t));
    return clv_dot(q, q);
}

/* true when the segments cross at a point interior to both (every other kind of intersection
 * puts an endpoint of one on the other, which the endpoint distances see). */
static inline bool segments_cross(clv_vec2 a0, clv_vec2 a1, clv_vec2 b0, clv_vec2 b1) {
    clv_vec2 da = clv_sub(a1, a0), db = clv_sub(b1, b0);
    float o1 = clv_cross(da, clv_sub(b0, a0));
    float o2 = clv_cross(da, clv_sub(b1, a0));
    float o3 = clv_cross(db, clv_sub(a0, b0));
    float o4 = clv_cross(db, clv_sub(a1, b0));
    bool ab = ((o1 < 0.0f) & (o2 > 0.0f)) | ((o1 > 0.0f) & (o2 < 0.0f));
    bool ba = ((o3 < 0.0f) & (o4 > 0.0f)) | ((o3 > 0.0f) & (o4 < 0.0f));
    return ab & ba;
}

/* Squared distance between two segments; symmetric in the pair of segments. */
static inline float dist2_segment_segment(clv_vec2 a0, clv_vec2 a1, clv_vec2 b0, clv_vec2 b1) {
    float d = clv_minf(clv_minf(dist2_point_segment(a0, b0, b1), dist2_point_segment(a1, b0, b1)),
                       clv_minf(dist2_point_segment(b0, a0, a1), dist2_point_segment(b1, a0, a1)));
    return segments_cross(a0, a1, b0, b1) ? 0.0f : d;
}

bool clv_overlap_point_point(clv_vec2 a, clv_vec2 b) {
    (void)a;
    (void)b;
    return false; /* two zero-radius cores never come closer than 0 */
}

bool clv_overlap_point_circle(clv_vec2 a, const clv_circle *b) {
    clv_vec2 d = clv_sub(a, b->c);
    return clv_dot(d, d) < b->r * b->r;
}

bool clv_overlap_point_capsule(clv_vec2 a, const clv_capsule *b) {
    return dist2_point_segment(a, b->a, b->b) < b->r * b->r;
}

/* A point grown by r against the box [lo, hi] in the box's own frame: closer than r to the
 * closed box, or (for r = 0) strictly inside it. */
static inline bool round_point_in_box(float px, float py, float r, float lox, float loy,
                                      float hix, float hiy) {
    float dx = px - clv_clampf(px, lox, hix);
    float dy = py - clv_clampf(py, loy, hiy);
    bool inside = (px > lox) & (px < hix) & (py > loy) & (py < hiy);
    return inside | (dx * dx + dy * dy < r * r);
}

bool clv_overlap_point_aabb(clv_vec2 a, const clv_aabb *b) {
    return (a.x > b->min.x) & (a.x < b->max.x) & (a.y > b->min.y) & (a.y < b->max.y);
}

bool clv_overlap_point_obb(clv_vec2 a, const clv_obb *b) {
    clv_vec2 d = clv_sub(a, b->c);
    float lx = clv_dot(d, b->u), ly = clv_dot(d, clv_perp(b->u));
    return (clv_absf(lx) < b->h.x) & (clv_absf(ly) < b->h.y);
}

bool clv_overlap_circle_circle(const clv_circle *a, const clv_circle *b) {
    clv_vec2 d = clv_sub(a->c, b->c);
    float r = a->r + b->r;
    return clv_dot(d, d) < r * r;
}

bool clv_overlap_circle_capsule(const clv_circle *a, const clv_capsule *b) {
    float r = a->r + b->r;
    return dist2_point_segment(a->c, b->a, b->b) < r * r;
}

bool clv_overlap_circle_aabb(const clv_circle *a, const clv_aabb *b) {
    return round_point_in_box(a->c.x, a->c.y, a->r, b->min.x, b->min.y, b->max.x, b->max.y);
}

bool clv_overlap_circle_obb(const clv_circle *a, const clv_obb *b) {
    clv_vec2 d = clv_sub(a->c, b->c);
    float lx = clv_dot(d, b->u), ly = clv_dot(d, clv_perp(b->u));
    return round_point_in_box(lx, ly, a->r, -b->h.x, -b->h.y, b->h.x, b->h.y);
}

bool clv_overlap_capsule_capsule(const clv_capsule *a, const clv_capsule *b) {
    /* Measure from the midpoint of the two first ends: keeps round-off relative to the pair's
     * size, not to its distance from the world origin, and is the same for (a, b) and (b, a). */
    clv_vec2 o = clv_scale(clv_add(a->a, b->a), 0.5f);
    float d2 = dist2_segment_segment(clv_sub(a->a, o), clv_sub(a->b, o), clv_sub(b->a, o),
                                     clv_sub(b->b, o));
    float r = a->r + b->r;
    return d2 < r * r;
}

/* A segment grown by r against the box [-h, h], all in the box's frame. */
static bool round_segment_in_box(clv_vec2 p, clv_vec2 q, float r, clv_vec2 h) {
    /* Does the segment enter the open interior? Strict SAT on x, y and the segment's normal. */
    clv_vec2 d = clv_sub(q, p);
    float sminx = clv_minf(p.x, q.x), smaxx = clv_maxf(p.x, q.x);
    float sminy = clv_minf(p.y, q.y), smaxy = clv_maxf(p.y, q.y);
    float nproj = clv_cross(d, p); /* n = perp(d); n . (p - 0) with the box centre at 0 */
    float next = h.x * clv_absf(d.y) + h.y * clv_absf(d.x);
    bool open_box = (h.x > 0.0f) & (h.y > 0.0f);
    bool point = (d.x == 0.0f) & (d.y == 0.0f); /* a point has no normal axis to test */
    bool enters = open_box & (sminx < h.x) & (smaxx > -h.x) & (sminy < h.y) & (smaxy > -h.y) &
                  ((clv_absf(nproj) < next) | point);
    /* Closer than r to the closed box: a closest pair involves a vertex of one of them. */
    float d2 = clv_minf(clv_minf(dist2_point_segment(clv_v2(h.x, h.y), p, q),
                                 dist2_point_segment(clv_v2(-h.x, h.y), p, q)),
                        clv_minf(dist2_point_segment(clv_v2(h.x, -h.y), p, q),
                                 dist2_point_segment(clv_v2(-h.x, -h.y), p, q)));
    float px = p.x - clv_clampf(p.x, -h.x, h.x), py = p.y - clv_clampf(p.y, -h.y, h.y);
    float qx = q.x - clv_clampf(q.x, -h.x, h.x), qy = q.y - clv_clampf(q.y, -h.y, h.y);
    d2 = clv_minf(d2, clv_minf(px * px + py * py, qx * qx + qy * qy));
    /* The closed-box SAT: when the segment meets the closed box the distance is 0. */
    bool meets = (sminx <= h.x) & (smaxx >= -h.x) & (sminy <= h.y) & (smaxy >= -h.y) &
                 (clv_absf(nproj) <= next);
    d2 = meets ? 0.0f : d2;
    return enters | (d2 < r * r);
}

bool clv_overlap_capsule_aabb(const clv_capsule *a, const clv_aabb *b) {
    clv_vec2 c = clv_scale(clv_add(b->min, b->max), 0.5f);
    clv_vec2 h = clv_scale(clv_sub(b->max, b->min), 0.5f);
    return round_segment_in_box(clv_sub(a->a, c), clv_sub(a->b, c), a->r, h);
}

bool clv_overlap_capsule_obb(const clv_capsule *a, const clv_obb *b) {
    clv_vec2 v = clv_perp(b->u);
    clv_vec2 pa = clv_sub(a->a, b->c), pb = clv_sub(a->b, b->c);
    clv_vec2 p = clv_v2(clv_dot(pa, b->u), clv_dot(pa, v));
    clv_vec2 q = clv_v2(clv_dot(pb, b->u), clv_dot(pb, v));
    return round_segment_in_box(p, q, a->r, b->h);
}

bool clv_overlap_aabb_aabb(const clv_aabb *a, const clv_aabb *b) {
    /* Open intervals meet when the larger low end is below the smaller high end; this is also
     * false for an empty (zero-width) box. */
    return (clv_maxf(a->min.x, b->min.x) < clv_minf(a->max.x, b->max.x)) &
           (clv_maxf(a->min.y, b->min.y) < clv_minf(a->max.y, b->max.y));
}

/* Half width of box (u, h) projected on axis n. */
static inline float box_extent(clv_vec2 u, clv_vec2 h, clv_vec2 n) {
    return h.x * clv_absf(clv_dot(u, n)) + h.y * clv_absf(clv_dot(clv_perp(u), n));
}

/* Open boxes (centre, axis, half extents) overlap when no axis of either separates them. */
static bool boxes_overlap(clv_vec2 ca, clv_vec2 ua, clv_vec2 ha, clv_vec2 cb, clv_vec2 ub,
                          clv_vec2 hb) {
    clv_vec2 d = clv_sub(cb, ca);
    clv_vec2 axes[4] = {ua, clv_perp(ua), ub, clv_perp(ub)};
    bool overlap = (ha.x > 0.0f) & (ha.y > 0.0f) & (hb.x > 0.0f) & (hb.y > 0.0f);
    for (int i = 0; i < 4; i++) {
        float ext = box_extent(ua, ha, axes[i]) + box_extent(ub, hb, axes[i]);
        overlap &= clv_absf(clv_dot(d, axes[i])) < ext;
    }
    return overlap;
}

bool clv_overlap_aabb_obb(const clv_aabb *a, const clv_obb *b) {
    clv_vec2 c = clv_scale(clv_add(a->min, a->max), 0.5f);
    clv_vec2 h = clv_scale(clv_sub(a->max, a->min), 0.5f);
    return boxes_overlap(c, clv_v2(1.0f, 0.0f), h, b->c, b->u, b->h);
}

bool clv_overlap_obb_obb(const clv_obb *a, const clv_obb *b) {
    return boxes_overlap(a->c, a->u, a->h, b->c, b->u, b->h);
}

bool clv_overlap(const clv_shape *a, const clv_shape *b) {
    if (clv_pair_swapped(a, b)) {
        const clv_shape *t = a;
        a = b;
        b = t;
    }
    switch (a->type * CLV_SHAPE_TYPE_COUNT + b->type) {
    case CLV_POINT * CLV_SHAPE_TYPE_COUNT + CLV_POINT:
        return clv_overlap_point_point(a->u.point, b->u.point);
    case CLV_POINT * CLV_SHAPE_TYPE_COUNT + CLV_CIRCLE:
        return clv_overlap_point_circle(a->u.point, &b->u.circle);
    case CLV_POINT * CLV_SHAPE_TYPE_COUNT + CLV_CAPSULE:
        return clv_overlap_point_capsule(a->u.point, &b->u.capsule);
    case CLV_POINT * CLV_SHAPE_TYPE_COUNT + CLV_AABB:
        return clv_overlap_point_aabb(a->u.point, &b->u.aabb);
    case CLV_POINT * CLV_SHAPE_TYPE_COUNT + CLV_OBB:
        return clv_overlap_point_obb(a->u.point, &b->u.obb);
    case CLV_CIRCLE * CLV_SHAPE_TYPE_COUNT + CLV_CIRCLE:
        return clv_overlap_circle_circle(&a->u.circle, &b->u.circle);
    case CLV_CIRCLE * CLV_SHAPE_TYPE_COUNT + CLV_CAPSULE:
        return clv_overlap_circle_capsule(&a->u.circle, &b->u.capsule);
    case CLV_CIRCLE * CLV_SHAPE_TYPE_COUNT + CLV_AABB:
        return clv_overlap_circle_aabb(&a->u.circle, &b->u.aabb);
    case CLV_CIRCLE * CLV_SHAPE_TYPE_COUNT + CLV_OBB:
        return clv_overlap_circle_obb(&a->u.circle, &b->u.obb);
    case CLV_CAPSULE * CLV_SHAPE_TYPE_COUNT + CLV_CAPSULE:
        return clv_overlap_capsule_capsule(&a->u.capsule, &b->u.capsule);
    case CLV_CAPSULE * CLV_SHAPE_TYPE_COUNT + CLV_AABB:
        return clv_overlap_capsule_aabb(&a->u.capsule, &b->u.aabb);
    case CLV_CAPSULE * CLV_SHAPE_TYPE_COUNT + CLV_OBB:
        return clv_overlap_capsule_obb(&a->u.capsule, &b->u.obb);
    case CLV_AABB * CLV_SHAPE_TYPE_COUNT + CLV_AABB:
        return clv_overlap_aabb_aabb(&a->u.aabb, &b->u.aabb);
    case CLV_AABB * CLV_SHAPE_TYPE_COUNT + CLV_OBB:
        return clv_overlap_aabb_obb(&a->u.aabb, &b->u.obb);
    case CLV_OBB * CLV_SHAPE_TYPE_COUNT + CLV_OBB:
        return clv_overlap_obb_obb(&a->u.obb, &b->u.obb);
    default:
        return false;
    }
}
