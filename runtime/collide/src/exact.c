/* Exact overlap of points, circles, capsules and aabbs with integer coordinates.
 *
 * The answer is decided with integer values only (a few held in double where S1-S3 below
 * keep them under 2^53, which double represents exactly), so it is never wrong, touching
 * included. Every round shape is reduced to a core (a point or a segment) and a radius; the rules
 * are those of collide.h: round-round overlaps when the cores are closer than rA + rB, round-box
 * when the core comes closer than r to the closed box or (r = 0) enters its open interior, box-box
 * when the open interiors intersect.
 *
 * Bit bounds. clv_ishape_valid() guarantees |coordinate| <= 2^30 and 0 <= r <= 2^30. Then:
 *   B1  a difference of two coordinates: |dx| <= 2^31.                                  int64
 *   B2  a product of two differences: |dx * dy| <= 2^62.                                int64
 *   B3  a squared length dx^2 + dy^2 <= 2^62 + 2^62 = 2^63: one past INT64_MAX.        uint64
 *   B4  a sum of two radii R <= 2^31, R^2 <= 2^62; a single radius squared <= 2^60.      uint64
 *   B5  a dot product (b - a) . (c - a) of in-range points reaches 2^63 in magnitude (a at
 *       one corner of the range, b = c at the opposite one): its two products are int64 (B2)
 *       and their sum is formed in int128. Whether the projection of c falls strictly inside
 *       a..b is 0 < (b - a) . (c - a) < |b - a|^2 (B3), an int128 comparison.
 *   B6  a cross product cross(b - a, c - a) of three in-range points is twice the signed area
 *       of a triangle inside a square of side 2^31, so |cross| <= 2^62 (the bound is reached:
 *       it is linear in each point, so extreme at corners of the square, where it is +-2^62).
 *       Its two products are <= 2^62 each (B2) and so is their exact difference: int64
 *       throughout, although two arbitrary 2^62 products could differ by 2^63.
 *   B7  cross^2 <= 2^124 against R^2 * |d|^2 <= 2^62 * 2^63 = 2^125 (B4, B3): both sides are
 *       unsigned int128 (< 2^128), compared and never subtracted. A point p is closer than R
 *       to the line through a, b (|d| = |b - a| > 0) exactly when cross(d, p - a)^2 < R^2|d|^2.
 *       The textbook comparison against segLenSq^2 * R^2 (with the offset to the projected
 *       point scaled by segLenSq) would reach 2^126 * 2^62 = 2^188, past any integer type.
 *   B8  a box's distance along one axis max(x0 - px, 0, px - x1) <= 2^31 (B1); the sum of the
 *       two squares <= 2^63 (B3).
 * Nothing else is multiplied.
 */
#include "cleave/collide.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

__extension__ typedef __int128 clv_i128;
__extension__ typedef unsigned __int128 clv_u128;

/* Points and radii after validation: a point is a circle of radius 0, a circle is a capsule
 * whose ends are equal. */
typedef struct exact_seg {
    int64_t ax, ay, bx, by;
} exact_seg;

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* dx^2 + dy^2 for differences of in-range coordinates: <= 2^63 (B3). */
static inline uint64_t len2(int64_t dx, int64_t dy) {
    return (uint64_t)(dx * dx) + (uint64_t)(dy * dy);
}

/* cross(d, w) = dx * wy - dy * wx where d and w are differences of in-range points that form a
 * triangle (d = b - a, w = c - a): each product <= 2^62 (B2) and the exact difference <= 2^62
 * (B6), so no step leaves int64. */
static inline int64_t cross_tri(int64_t dx, int64_t dy, int64_t wx, int64_t wy) {
    return dx * wy - dy * wx;
}

/* Does p project strictly inside the segment a..b? d = b - a, w = p - a, l = |d|^2 (B3):
 * 0 < d . w < l, with d . w in int128 (B5). A zero-length segment has no inside. */
static inline bool projects_inside(int64_t dx, int64_t dy, int64_t wx, int64_t wy, uint64_t l) {
    clv_i128 t = (clv_i128)dx * wx + (clv_i128)dy * wy;
    return (t > 0) & (t < (clv_i128)l);
}

/* c^2 for |c| <= 2^62: <= 2^124 (B7). */
static inline clv_u128 square128(int64_t c) { return (clv_u128)((clv_i128)c * c); }

/* Is p closer than R (R2 = R^2 <= 2^62) to the segment a..b? The closest point is an end, or the
 * foot of the perpendicular when the projection of p falls strictly inside the segment. Every
 * branch is evaluated and the results combined with bitwise operators: on unpredictable input
 * a branch per region would mispredict half the time. */
static bool point_seg_closer(int64_t px, int64_t py, exact_seg s, uint64_t r2) {
    int64_t dx = s.bx - s.ax, dy = s.by - s.ay;
    int64_t wx = px - s.ax, wy = py - s.ay;
    uint64_t l = len2(dx, dy);                                   /* B3 */
    uint64_t ea = len2(wx, wy), eb = len2(px - s.bx, py - s.by); /* B3 */
    bool ends = (ea < r2) | (eb < r2);                           /* vs B4 */
    bool inside = projects_inside(dx, dy, wx, wy, l);            /* B5 */
    int64_t c = cross_tri(dx, dy, wx, wy);                       /* B6 */
    bool line = square128(c) < (clv_u128)r2 * l;                 /* B7 */
    return ends | (inside & line);
}

/* The scalar bodies stay out of line and seg_seg_closer inline, so that a capsule pair near
 * itself (clv_exact_overlap's usual case) runs the vector body without a call or the
 * registers the scalar bodies save. */
#if defined(__GNUC__)
#define CLV_NOINLINE __attribute__((noinline))
#define CLV_INLINE inline __attribute__((always_inline))
#else
#define CLV_NOINLINE
#define CLV_INLINE inline
#endif

/* Are the segments p and q closer than R (R2 = R^2, 0 < R <= 2^31)?
 * Either they cross properly (each one's ends strictly on both sides of the other's line), or
 * their distance is reached at an end of one of them: the distance from an end to the other
 * segment. The orientations of the crossing test are the same cross products as the
 * point-to-line distances, so they are computed once. Touching segments (an end on the other
 * segment, collinear overlap) are found by the end distances, which are then 0 < R.
 *
 * The body is written once for two widths of the products that can leave int64 (the dot
 * products of B5, the squares and R^2 |d|^2 of B7): wide (int128) holds them for every valid
 * pair; a pair near its first end (see seg_seg_closer) keeps them in int64, which is a third
 * faster because no step needs a register pair. */
#define CLV_SEG_SEG_CLOSER(name, wide, uwide)                                                      \
    CLV_NOINLINE static bool name(exact_seg p, exact_seg q, uint64_t r2) {                         \
        int64_t d1x = p.bx - p.ax, d1y = p.by - p.ay; /* B1 */                                     \
        int64_t d2x = q.bx - q.ax, d2y = q.by - q.ay;                                              \
        int64_t acx = q.ax - p.ax, acy = q.ay - p.ay; /* q.a - p.a */                              \
        /* Every other vector is a sum of d1, d2 and ac (q.b - p.a = ac + d2, p.b - q.a = d1 - ac, \
         * ...), so its cross and dot products follow from these five by sums: */                  \
        wide o1 = cross_tri(d1x, d1y, acx, acy);                   /* B6 */                        \
        wide o3 = -(wide)cross_tri(d2x, d2y, acx, acy);            /* B6 */                        \
        wide k = (wide)d1x * d2y - (wide)d1y * d2x;                /* d1 x d2 */                   \
        wide t1 = (wide)d1x * acx + (wide)d1y * acy;               /* d1 . ac, B5 */               \
        wide t3 = -((wide)d2x * acx + (wide)d2y * acy);            /* d2 . (p.a - q.a) */          \
        wide m = (wide)d1x * d2x + (wide)d1y * d2y;                /* d1 . d2 */                   \
        wide l1 = (wide)len2(d1x, d1y), l2 = (wide)len2(d2x, d2y); /* B3 */                        \
        wide e1 = (wide)len2(acx, acy);                            /* |q.a - p.a|^2, B3 */         \
        /* Orientations of q's ends against line p and of p's ends against line q: each the        \
         * cross product of a triangle of in-range points, so <= 2^62 (B6). */                     \
        wide o2 = o1 + k, o4 = o3 - k;                                                             \
        bool crossing = (((o1 < 0) & (o2 > 0)) | ((o1 > 0) & (o2 < 0))) &                          \
                        (((o3 < 0) & (o4 > 0)) | ((o3 > 0) & (o4 < 0)));                           \
        /* End to end: |q.b - p.a|^2, |q.a - p.b|^2, |q.b - p.b|^2 from e1 (B3 each). */           \
        wide t2 = t1 + m, t4 = m + t3; /* d1 . (q.b - p.a), d2 . (p.b - q.a) */                    \
        wide e2 = e1 - 2 * t3 + l2, e3 = e1 - 2 * t1 + l1, e4 = e2 - 2 * t2 + l1;                  \
        wide rr = (wide)r2;                                                                        \
        bool ends = (e1 < rr) | (e2 < rr) | (e3 < rr) | (e4 < rr);                                 \
        /* End to the inside of the other segment: 0 < d . w < |d|^2 (B5), then B7. */             \
        uwide rl1 = (uwide)r2 * (uwide)l1, rl2 = (uwide)r2 * (uwide)l2;                            \
        bool near1 = (t1 > 0) & (t1 < l1) & ((uwide)(o1 * o1) < rl1);                              \
        bool near2 = (t2 > 0) & (t2 < l1) & ((uwide)(o2 * o2) < rl1);                              \
        bool near3 = (t3 > 0) & (t3 < l2) & ((uwide)(o3 * o3) < rl2);                              \
        bool near4 = (t4 > 0) & (t4 < l2) & ((uwide)(o4 * o4) < rl2);                              \
        return crossing | ends | near1 | near2 | near3 | near4;                                    \
    }

CLV_SEG_SEG_CLOSER(seg_seg_closer_wide, clv_i128, clv_u128)
CLV_SEG_SEG_CLOSER(seg_seg_closer_narrow, int64_t, uint64_t)

/* Translated to p's first end (exact: B1), a pair whose coordinates all lie within
 * CLV_EXACT_NARROW = 2^14 of it, with R <= 2^16, bounds the narrow body's values:
 *   N1  a difference of two translated coordinates <= 2^15;
 *   N2  a product of two differences <= 2^30; a dot or cross product <= 2^31;
 *   N3  a cross product squared <= 2^62 (int64); |d|^2 <= 2^31 and R^2 |d|^2 <= 2^63 (uint64).
 * Pairs tested by a game after its broadphase are near each other: this is the usual path. */
#define CLV_EXACT_NARROW ((int64_t)1 << 14)

static inline bool within(int64_t v, int64_t lim) { return v >= -lim && v <= lim; }

/* Every end of a pair translated to p's first end (tp.a = 0) within lim of it. */
static inline bool pair_within(exact_seg tp, exact_seg tq, int64_t lim) {
    return within(tp.bx, lim) & within(tp.by, lim) & within(tq.ax, lim) & within(tq.ay, lim) &
           within(tq.bx, lim) & within(tq.by, lim);
}

#if defined(__SSE2__) || defined(_M_X64)
/* Nearer still, within CLV_EXACT_SMALL = 2^11 of p's first end and with R^2 <= 2^25:
 *   S1  a translated coordinate and a difference of two fit int16 (<= 2^12);
 *   S2  a product of two differences <= 2^24, a dot or cross product or squared length <= 2^25:
 *       pmaddwd's int32 sums of two int16 products hold them;
 *   S3  a cross product squared <= 2^50 and R^2 |d|^2 <= 2^50: integers below 2^53, which
 *       double holds exactly.
 * The four end-to-segment tests then run as the four lanes of one vector: (p.a, q), (p.b, q),
 * (q.a, p), (q.b, p), each with the segment's direction d, the end's offsets from the segment's
 * ends, and the same rules as the scalar body (whose o3, o4, o1, o2 are the lanes' cross
 * products). In cache, exact/float went from 1.46-1.82 to 1.27-1.28 (docs/performance.md). */
#define CLV_EXACT_SMALL ((int64_t)1 << 11)

CLV_INLINE static bool seg_seg_closer_small(exact_seg p, exact_seg q, uint64_t r2) {
    /* 32-bit lanes of (x, y) int16 pairs: p.a (the origin), p.b, q.a, q.b (S1). */
    const __m128i ends = _mm_setr_epi16(0, 0, (short)p.bx, (short)p.by, (short)q.ax, (short)q.ay,
                                        (short)q.bx, (short)q.by);
    const __m128i sa = _mm_shuffle_epi32(ends, _MM_SHUFFLE(0, 0, 2, 2)); /* q.a q.a p.a p.a */
    const __m128i sb = _mm_shuffle_epi32(ends, _MM_SHUFFLE(1, 1, 3, 3)); /* q.b q.b p.b p.b */
    const __m128i d = _mm_sub_epi16(sb, sa), wa = _mm_sub_epi16(ends, sa);
    const __m128i wb = _mm_sub_epi16(ends, sb);
    /* (w.y, -w.x), so that pmaddwd with d gives d.x w.y - d.y w.x (S2). */
    const __m128i odd = _mm_setr_epi16(0, -1, 0, -1, 0, -1, 0, -1);
    __m128i sw = _mm_shufflelo_epi16(wa, _MM_SHUFFLE(2, 3, 0, 1));
    sw = _mm_shufflehi_epi16(sw, _MM_SHUFFLE(2, 3, 0, 1));
    sw = _mm_sub_epi16(_mm_xor_si128(sw, odd), odd);
    const __m128i c = _mm_madd_epi16(d, sw), t = _mm_madd_epi16(d, wa);
    const __m128i l = _mm_madd_epi16(d, d), rr = _mm_set1_epi32((int)r2),
                  zero = _mm_setzero_si128();
    const __m128i near_end = _mm_or_si128(_mm_cmplt_epi32(_mm_madd_epi16(wa, wa), rr),
                                          _mm_cmplt_epi32(_mm_madd_epi16(wb, wb), rr));
    const __m128i inside = _mm_and_si128(_mm_cmpgt_epi32(t, zero), _mm_cmplt_epi32(t, l));
    /* c^2 < R^2 |d|^2 in double, two lanes at a time (S3). */
    const __m128d rrd = _mm_set1_pd((double)r2);
    const __m128i c_hi = _mm_shuffle_epi32(c, _MM_SHUFFLE(1, 0, 3, 2));
    const __m128i l_hi = _mm_shuffle_epi32(l, _MM_SHUFFLE(1, 0, 3, 2));
    const __m128d c0 = _mm_cvtepi32_pd(c), c1 = _mm_cvtepi32_pd(c_hi);
    int line =
        _mm_movemask_pd(_mm_cmplt_pd(_mm_mul_pd(c0, c0), _mm_mul_pd(rrd, _mm_cvtepi32_pd(l))));
    line |=
        _mm_movemask_pd(_mm_cmplt_pd(_mm_mul_pd(c1, c1), _mm_mul_pd(rrd, _mm_cvtepi32_pd(l_hi))))
        << 2;
    int closer = _mm_movemask_ps(_mm_castsi128_ps(near_end)) |
                 (_mm_movemask_ps(_mm_castsi128_ps(inside)) & line);
    /* A proper crossing: p's ends strictly on both sides of line q (lanes 0, 1) and q's ends
     * strictly on both sides of line p (lanes 2, 3). */
    int pos = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(c, zero)));
    int neg = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(c, zero)));
    int apart = (pos & neg >> 1) | (neg & pos >> 1); /* bit 0: lanes 0, 1; bit 2: lanes 2, 3 */
    return (closer != 0) | ((apart & 5) == 5);
}
#endif

CLV_INLINE static bool seg_seg_closer(exact_seg p, exact_seg q, uint64_t r2) {
    exact_seg tp = {0, 0, p.bx - p.ax, p.by - p.ay};
    exact_seg tq = {q.ax - p.ax, q.ay - p.ay, q.bx - p.ax, q.by - p.ay};
#if defined(__SSE2__) || defined(_M_X64)
    if (pair_within(tp, tq, CLV_EXACT_SMALL) & (r2 <= (uint64_t)1 << 25)) {
        return seg_seg_closer_small(tp, tq, r2);
    }
#endif
    if (pair_within(tp, tq, CLV_EXACT_NARROW) & (r2 <= (uint64_t)1 << 32)) {
        return seg_seg_closer_narrow(tp, tq, r2);
    }
    return seg_seg_closer_wide(p, q, r2);
}

/* Squared distance from p to the closed box, B8. */
static inline uint64_t point_box_dist2(int64_t px, int64_t py, const clv_ishape *box) {
    int64_t ex = max64(max64(box->ax - px, px - box->bx), 0);
    int64_t ey = max64(max64(box->ay - py, py - box->by), 0);
    return len2(ex, ey);
}

static inline bool point_in_open_box(int64_t px, int64_t py, const clv_ishape *box) {
    return (box->ax < px) & (px < box->bx) & (box->ay < py) & (py < box->by);
}

/* A segment grown by r >= 0 against a box (a = min, b = max). */
static bool seg_box(exact_seg s, int64_t r, const clv_ishape *box) {
    int64_t x0 = box->ax, y0 = box->ay, x1 = box->bx, y1 = box->by;
    int64_t sx0 = min64(s.ax, s.bx), sx1 = max64(s.ax, s.bx);
    int64_t sy0 = min64(s.ay, s.by), sy1 = max64(s.ay, s.by);
    int64_t dx = s.bx - s.ax, dy = s.by - s.ay;
    /* The box's corners against the segment's line, B6 (corner, a and b are in range). */
    int64_t k0 = cross_tri(dx, dy, x0 - s.ax, y0 - s.ay);
    int64_t k1 = cross_tri(dx, dy, x1 - s.ax, y0 - s.ay);
    int64_t k2 = cross_tri(dx, dy, x0 - s.ax, y1 - s.ay);
    int64_t k3 = cross_tri(dx, dy, x1 - s.ax, y1 - s.ay);
    bool all_pos = (k0 > 0) & (k1 > 0) & (k2 > 0) & (k3 > 0);
    bool all_neg = (k0 < 0) & (k1 < 0) & (k2 < 0) & (k3 < 0);
    if (r == 0) {
        /* Enters the open interior: strict SAT on x, y and the segment's normal (the normal
         * is no axis when the segment is a point). An empty interior is never entered. */
        bool degenerate = (dx == 0) & (dy == 0);
        return (x0 < x1) & (y0 < y1) & (sx0 < x1) & (sx1 > x0) & (sy0 < y1) & (sy1 > y0) &
               (degenerate | (((k0 > 0) | (k1 > 0) | (k2 > 0) | (k3 > 0)) &
                              ((k0 < 0) | (k1 < 0) | (k2 < 0) | (k3 < 0))));
    }
    /* Meets the closed box (distance 0 < r): SAT with weak inequalities on the same axes. */
    bool meets = (sx0 <= x1) & (sx1 >= x0) & (sy0 <= y1) & (sy1 >= y0) & !all_pos & !all_neg;
    if (meets) {
        return true;
    }
    /* Apart: the closest pair has a vertex of one of them (an end or a corner). */
    uint64_t r2 = (uint64_t)(r * r); /* B4 */
    uint64_t ea = point_box_dist2(s.ax, s.ay, box), eb = point_box_dist2(s.bx, s.by, box);
    bool c0 = point_seg_closer(x0, y0, s, r2), c1 = point_seg_closer(x1, y0, s, r2);
    bool c2 = point_seg_closer(x0, y1, s, r2), c3 = point_seg_closer(x1, y1, s, r2);
    return (ea < r2) | (eb < r2) | c0 | c1 | c2 | c3;
}

static inline bool in_range(int64_t v) { return within(v, CLV_EXACT_LIMIT); }

bool clv_ishape_valid(const clv_ishape *s) {
    if (s == NULL) {
        return false;
    }
    bool a = in_range(s->ax) && in_range(s->ay);
    bool b = in_range(s->bx) && in_range(s->by);
    bool r = s->r >= 0 && s->r <= CLV_EXACT_LIMIT;
    switch (s->type) {
    case CLV_POINT:
        return a;
    case CLV_CIRCLE:
        return a && r;
    case CLV_CAPSULE:
        return a && b && r;
    case CLV_AABB:
        return a && b && s->ax <= s->bx && s->ay <= s->by;
    default:
        return false;
    }
}

/* The core of a round shape: its segment (ends equal for a point or circle). */
static inline exact_seg core_of(const clv_ishape *s) {
    exact_seg g = {s->ax, s->ay, s->ax, s->ay};
    if (s->type == CLV_CAPSULE) {
        g.bx = s->bx;
        g.by = s->by;
    }
    return g;
}

static inline int64_t radius_of(const clv_ishape *s) { return s->type == CLV_POINT ? 0 : s->r; }

/* Every pair but two capsules (see CLV_NOINLINE). */
CLV_NOINLINE static bool overlap_any(const clv_ishape *a, const clv_ishape *b) {
    /* One order per pair (round before box, point before circle before capsule), so that the
     * answer is symmetric by construction. */
    if (a->type > b->type) {
        const clv_ishape *t = a;
        a = b;
        b = t;
    }
    if ((int)a->type < (int)CLV_POINT || (int)b->type > (int)CLV_AABB) {
        return false; /* obb or not a shape type: no exact answer (clv_ishape_valid says so) */
    }
    if (b->type == CLV_AABB) {
        if (a->type == CLV_AABB) {
            /* Open interiors intersect: max of the mins below min of the maxes, per axis. This
             * also makes a zero-width box overlap nothing. */
            int64_t x0 = max64(a->ax, b->ax), x1 = min64(a->bx, b->bx);
            int64_t y0 = max64(a->ay, b->ay), y1 = min64(a->by, b->by);
            return (x0 < x1) & (y0 < y1);
        }
        int64_t r = radius_of(a);
        if (a->type == CLV_CAPSULE) {
            return seg_box(core_of(a), r, b);
        }
        if (r == 0) {
            return point_in_open_box(a->ax, a->ay, b);
        }
        return point_box_dist2(a->ax, a->ay, b) < (uint64_t)(r * r); /* B8 vs B4 */
    }
    /* Two round shapes. R = 0 never overlaps: a distance is never below 0. */
    int64_t rr = radius_of(a) + radius_of(b); /* B4 */
    if (rr == 0) {
        return false;
    }
    uint64_t r2 = (uint64_t)(rr * rr);
    if (b->type != CLV_CAPSULE) {
        return len2(b->ax - a->ax, b->ay - a->ay) < r2; /* B3 vs B4 */
    }
    /* b is a capsule and a a point or circle: two capsules never come here (see
     * clv_exact_overlap). */
    return point_seg_closer(a->ax, a->ay, core_of(b), r2);
}

/* Two capsules with rr = rA + rB (B4): R = 0 never overlaps. */
static inline bool capsules(exact_seg p, exact_seg q, int64_t rr) {
    return rr != 0 && seg_seg_closer(p, q, (uint64_t)(rr * rr));
}

bool clv_exact_overlap(const clv_ishape *a, const clv_ishape *b) {
    if (a->type == CLV_CAPSULE && b->type == CLV_CAPSULE) {
        exact_seg p = {a->ax, a->ay, a->bx, a->by}, q = {b->ax, b->ay, b->bx, b->by};
        return capsules(p, q, a->r + b->r);
    }
    return overlap_any(a, b);
}

bool clv_icapsule_valid(const clv_icapsule *c) {
    if (c == NULL) {
        return false;
    }
    clv_ishape s = {CLV_CAPSULE, c->ax, c->ay, c->bx, c->by, c->r};
    return clv_ishape_valid(&s);
}

bool clv_exact_overlap_capsules(const clv_icapsule *a, const clv_icapsule *b) {
    exact_seg p = {a->ax, a->ay, a->bx, a->by}, q = {b->ax, b->ay, b->bx, b->by};
    return capsules(p, q, (int64_t)a->r + b->r);
}
