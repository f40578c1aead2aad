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

/* Are segments a0..a1 and b0..b1 closer than r (r2 = r * r)? Symmetric in the two segments.
 * Four lanes, each an end of one segment against the other segment: lane i measures p[i]
 * against s[i] + t*d[i], without a division: when the end projects inside the segment, the
 * cross-product form of the distance to a line (o^2 < r2 * |d|^2), otherwise the distance to
 * the nearer end. The same lanes' orientations tell whether the segments cross at a point
 * interior to both (every other kind of intersection puts an end of one on the other, which
 * the end distances see); a crossing counts only when every sign is sure. With SSE the four
 * lanes are one vector; clv_batch_capsule_capsules repeats them lane for lane. */
#if defined(__SSE2__) || defined(_M_X64)
/* sa = (a0.x, a0.y, a1.x, a1.y) and sb likewise: each capsule's core is one 16-byte load, and
 * the lanes come from shuffles instead of being assembled from scalars. */
static inline bool segments_closer(__m128 sa, __m128 sb, float r2) {
    __m128 d = _mm_sub_ps(_mm_shuffle_ps(sa, sb, _MM_SHUFFLE(3, 2, 3, 2)),
                          _mm_shuffle_ps(sa, sb, _MM_SHUFFLE(1, 0, 1, 0))); /* da, db */
    __m128 wx = _mm_sub_ps(_mm_shuffle_ps(sa, sb, _MM_SHUFFLE(2, 0, 2, 0)),
                           _mm_shuffle_ps(sb, sa, _MM_SHUFFLE(0, 0, 0, 0)));
    __m128 wy = _mm_sub_ps(_mm_shuffle_ps(sa, sb, _MM_SHUFFLE(3, 1, 3, 1)),
                           _mm_shuffle_ps(sb, sa, _MM_SHUFFLE(1, 1, 1, 1)));
    __m128 dx = _mm_shuffle_ps(d, d, _MM_SHUFFLE(0, 0, 2, 2));
    __m128 dy = _mm_shuffle_ps(d, d, _MM_SHUFFLE(1, 1, 3, 3));
    __m128 rr = _mm_set1_ps(r2);
    __m128 len2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
    __m128 dot = _mm_add_ps(_mm_mul_ps(wx, dx), _mm_mul_ps(wy, dy));
    __m128 o = _mm_sub_ps(_mm_mul_ps(dx, wy), _mm_mul_ps(dy, wx));
    __m128 ex = _mm_sub_ps(wx, dx), ey = _mm_sub_ps(wy, dy);
    __m128 near0 = _mm_cmplt_ps(_mm_add_ps(_mm_mul_ps(wx, wx), _mm_mul_ps(wy, wy)), rr);
    __m128 near1 = _mm_cmplt_ps(_mm_add_ps(_mm_mul_ps(ex, ex), _mm_mul_ps(ey, ey)), rr);
    __m128 near_line = _mm_cmplt_ps(_mm_mul_ps(o, o), _mm_mul_ps(rr, len2));
    __m128 before = _mm_cmple_ps(dot, _mm_setzero_ps()), after = _mm_cmpge_ps(dot, len2);
    /* before wins over after: a zero-length segment is its first end */
    __m128 ends = _mm_or_ps(_mm_and_ps(before, near0), _mm_andnot_ps(before, near1));
    __m128 lane = _mm_or_ps(_mm_and_ps(_mm_or_ps(before, after), ends),
                            _mm_andnot_ps(_mm_or_ps(before, after), near_line));
    /* Lanes 0,1 and 2,3 multiplied pairwise: both products negative means a crossing. */
    __m128 side = _mm_mul_ps(o, _mm_shuffle_ps(o, o, _MM_SHUFFLE(2, 3, 0, 1)));
    __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    __m128 mag = _mm_add_ps(_mm_and_ps(_mm_mul_ps(dx, wy), abs_mask),
                            _mm_and_ps(_mm_mul_ps(dy, wx), abs_mask));
    __m128 sure =
        _mm_cmpgt_ps(_mm_and_ps(o, abs_mask), _mm_mul_ps(mag, _mm_set1_ps(CLV_CROSS_EPS)));
    bool cross = _mm_movemask_ps(_mm_and_ps(_mm_cmplt_ps(side, _mm_setzero_ps()), sure)) == 0xF;
    return (cross & (r2 > 0.0f)) | (_mm_movemask_ps(lane) != 0);
}
#else
static inline bool segments_closer(clv_vec2 a0, clv_vec2 a1, clv_vec2 b0, clv_vec2 b1, float r2) {
    clv_vec2 da = clv_sub(a1, a0), db = clv_sub(b1, b0);
    const float px[4] = {a0.x, a1.x, b0.x, b1.x}, py[4] = {a0.y, a1.y, b0.y, b1.y};
    const float sx[4] = {b0.x, b0.x, a0.x, a0.x}, sy[4] = {b0.y, b0.y, a0.y, a0.y};
    const float dx[4] = {db.x, db.x, da.x, da.x}, dy[4] = {db.y, db.y, da.y, da.y};
    float o[4];
    bool sure[4], any = false;
    for (int i = 0; i < 4; i++) {
        float wx = px[i] - sx[i], wy = py[i] - sy[i];
        float len2 = dx[i] * dx[i] + dy[i] * dy[i];
        float dot = wx * dx[i] + wy * dy[i];
        float ex = wx - dx[i], ey = wy - dy[i];
        o[i] = dx[i] * wy - dy[i] * wx;
        sure[i] = clv_absf(o[i]) > CLV_CROSS_EPS * (clv_absf(dx[i] * wy) + clv_absf(dy[i] * wx));
        bool before = dot <= 0.0f, after = dot >= len2;
        bool ends = before ? wx * wx + wy * wy < r2 : ex * ex + ey * ey < r2;
        any |= (before | after) ? ends : o[i] * o[i] < r2 * len2;
    }
    bool cross =
        (o[0] * o[1] < 0.0f) & (o[2] * o[3] < 0.0f) & sure[0] & sure[1] & sure[2] & sure[3];
    return (cross & (r2 > 0.0f)) | any;
}
#endif

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
static inline bool round_point_in_box(float px, float py, float r, float lox, float loy, float hix,
                                      float hiy) {
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
    /* In the box's frame, symmetric about its centre: the gap on each axis is |l| - h. */
    clv_vec2 d = clv_sub(a->c, b->c);
    float gx = clv_absf(clv_dot(d, b->u)) - b->h.x;
    float gy = clv_absf(clv_dot(d, clv_perp(b->u))) - b->h.y;
    float mx = clv_maxf(gx, 0.0f), my = clv_maxf(gy, 0.0f);
    return ((gx < 0.0f) & (gy < 0.0f)) | (mx * mx + my * my < a->r * a->r);
}

bool clv_overlap_capsule_capsule(const clv_capsule *a, const clv_capsule *b) {
    /* Measure from the midpoint of the two first ends: keeps round-off relative to the pair's
     * size, not to its distance from the world origin, and is the same for (a, b) and (b, a). */
    float r = a->r + b->r;
#if defined(__SSE2__) || defined(_M_X64)
    __m128 va = _mm_loadu_ps(&a->a.x), vb = _mm_loadu_ps(&b->a.x); /* a, b: 16 bytes */
    __m128 o = _mm_mul_ps(_mm_add_ps(va, vb), _mm_set1_ps(0.5f));
    o = _mm_movelh_ps(o, o);
    return segments_closer(_mm_sub_ps(va, o), _mm_sub_ps(vb, o), r * r);
#else
    clv_vec2 o = clv_scale(clv_add(a->a, b->a), 0.5f);
    return segments_closer(clv_sub(a->a, o), clv_sub(a->b, o), clv_sub(b->a, o), clv_sub(b->b, o),
                           r * r);
#endif
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

/* Open boxes (centre c, unit x axis u, half extents h) overlap when no axis of either
 * separates them. r[i][j] = (axis i of a) . (axis j of b); the test reads the same with a and b
 * exchanged (r becomes its transpose and t changes sign), so it is exactly symmetric. */
#if defined(__SSE2__) || defined(_M_X64)
/* The four axes ua, va, ub, vb as the lanes of one vector, each lane computed with the same
 * operations in the same order as the scalar version below. */
static bool boxes_overlap(clv_vec2 ca, clv_vec2 ua, clv_vec2 ha, clv_vec2 cb, clv_vec2 ub,
                          clv_vec2 hb) {
    clv_vec2 d = clv_sub(cb, ca);
    __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    __m128 ax = _mm_setr_ps(ua.x, -ua.y, ub.x, -ub.y), ay = _mm_setr_ps(ua.y, ua.x, ub.y, ub.x);
    __m128 dist = _mm_and_ps(
        _mm_add_ps(_mm_mul_ps(_mm_set1_ps(d.x), ax), _mm_mul_ps(_mm_set1_ps(d.y), ay)), abs_mask);
    /* r = |ua.ub|, |ua.vb|, |va.ub|, |va.vb| */
    __m128 lx = _mm_shuffle_ps(ax, ax, _MM_SHUFFLE(1, 1, 0, 0));
    __m128 ly = _mm_shuffle_ps(ay, ay, _MM_SHUFFLE(1, 1, 0, 0));
    __m128 rx = _mm_shuffle_ps(ax, ax, _MM_SHUFFLE(3, 2, 3, 2));
    __m128 ry = _mm_shuffle_ps(ay, ay, _MM_SHUFFLE(3, 2, 3, 2));
    __m128 r = _mm_and_ps(_mm_add_ps(_mm_mul_ps(lx, rx), _mm_mul_ps(ly, ry)), abs_mask);
    /* extents: ha.x + (hb.x r00 + hb.y r01), ha.y + (hb.x r10 + hb.y r11),
     *          hb.x + (ha.x r00 + ha.y r10), hb.y + (ha.x r01 + ha.y r11) */
    __m128 own = _mm_setr_ps(ha.x, ha.y, hb.x, hb.y);
    __m128 m1 = _mm_mul_ps(_mm_setr_ps(hb.x, hb.x, ha.x, ha.x),
                           _mm_shuffle_ps(r, r, _MM_SHUFFLE(1, 0, 2, 0)));
    __m128 m2 = _mm_mul_ps(_mm_setr_ps(hb.y, hb.y, ha.y, ha.y),
                           _mm_shuffle_ps(r, r, _MM_SHUFFLE(3, 2, 3, 1)));
    __m128 ext = _mm_add_ps(own, _mm_add_ps(m1, m2));
    bool open = _mm_movemask_ps(_mm_cmpgt_ps(own, _mm_setzero_ps())) == 0xF;
    return open & (_mm_movemask_ps(_mm_cmpge_ps(dist, ext)) == 0);
}
#else
static bool boxes_overlap(clv_vec2 ca, clv_vec2 ua, clv_vec2 ha, clv_vec2 cb, clv_vec2 ub,
                          clv_vec2 hb) {
    clv_vec2 va = clv_perp(ua), vb = clv_perp(ub), d = clv_sub(cb, ca);
    float r00 = clv_absf(clv_dot(ua, ub)), r01 = clv_absf(clv_dot(ua, vb));
    float r10 = clv_absf(clv_dot(va, ub)), r11 = clv_absf(clv_dot(va, vb));
    bool sep_a = (clv_absf(clv_dot(d, ua)) >= ha.x + (hb.x * r00 + hb.y * r01)) |
                 (clv_absf(clv_dot(d, va)) >= ha.y + (hb.x * r10 + hb.y * r11));
    bool sep_b = (clv_absf(clv_dot(d, ub)) >= hb.x + (ha.x * r00 + ha.y * r10)) |
                 (clv_absf(clv_dot(d, vb)) >= hb.y + (ha.x * r01 + ha.y * r11));
    bool open = (ha.x > 0.0f) & (ha.y > 0.0f) & (hb.x > 0.0f) & (hb.y > 0.0f);
    return open & !sep_a & !sep_b;
}
#endif

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
    case CLV_POINT *CLV_SHAPE_TYPE_COUNT + CLV_POINT:
        return clv_overlap_point_point(a->u.point, b->u.point);
    case CLV_POINT *CLV_SHAPE_TYPE_COUNT + CLV_CIRCLE:
        return clv_overlap_point_circle(a->u.point, &b->u.circle);
    case CLV_POINT *CLV_SHAPE_TYPE_COUNT + CLV_CAPSULE:
        return clv_overlap_point_capsule(a->u.point, &b->u.capsule);
    case CLV_POINT *CLV_SHAPE_TYPE_COUNT + CLV_AABB:
        return clv_overlap_point_aabb(a->u.point, &b->u.aabb);
    case CLV_POINT *CLV_SHAPE_TYPE_COUNT + CLV_OBB:
        return clv_overlap_point_obb(a->u.point, &b->u.obb);
    case CLV_CIRCLE *CLV_SHAPE_TYPE_COUNT + CLV_CIRCLE:
        return clv_overlap_circle_circle(&a->u.circle, &b->u.circle);
    case CLV_CIRCLE *CLV_SHAPE_TYPE_COUNT + CLV_CAPSULE:
        return clv_overlap_circle_capsule(&a->u.circle, &b->u.capsule);
    case CLV_CIRCLE *CLV_SHAPE_TYPE_COUNT + CLV_AABB:
        return clv_overlap_circle_aabb(&a->u.circle, &b->u.aabb);
    case CLV_CIRCLE *CLV_SHAPE_TYPE_COUNT + CLV_OBB:
        return clv_overlap_circle_obb(&a->u.circle, &b->u.obb);
    case CLV_CAPSULE *CLV_SHAPE_TYPE_COUNT + CLV_CAPSULE:
        return clv_overlap_capsule_capsule(&a->u.capsule, &b->u.capsule);
    case CLV_CAPSULE *CLV_SHAPE_TYPE_COUNT + CLV_AABB:
        return clv_overlap_capsule_aabb(&a->u.capsule, &b->u.aabb);
    case CLV_CAPSULE *CLV_SHAPE_TYPE_COUNT + CLV_OBB:
        return clv_overlap_capsule_obb(&a->u.capsule, &b->u.obb);
    case CLV_AABB *CLV_SHAPE_TYPE_COUNT + CLV_AABB:
        return clv_overlap_aabb_aabb(&a->u.aabb, &b->u.aabb);
    case CLV_AABB *CLV_SHAPE_TYPE_COUNT + CLV_OBB:
        return clv_overlap_aabb_obb(&a->u.aabb, &b->u.obb);
    case CLV_OBB *CLV_SHAPE_TYPE_COUNT + CLV_OBB:
        return clv_overlap_obb_obb(&a->u.obb, &b->u.obb);
    default:
        return false;
    }
}
