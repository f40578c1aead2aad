/* Batch narrowphase: one capsule against arrays of circles or capsules (batch_internal.h), and
 * pairs of capsules stored as arrays (clv_overlap_capsule_pairs, collide.h).
 *
 * Each test repeats, operation for operation, the arithmetic of the typed test it stands for
 * in overlap.c, so the answers agree bit for bit (the tests check it on random data).
 * A block is done in two passes: the first computes a hit flag per element with selects only,
 * which gcc vectorizes at -O2 and above; the second appends the hit indices with a branch-free
 * push (out[n] = i; n += hit), which a branch would slow down at unpredictable hit rates. */
#include "batch_internal.h"
#include "internal.h"

#include <string.h>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define CLV_BATCH_SSE 1
#endif

enum { CLV_BATCH_BLOCK = 512 };

static inline float min_f(float a, float b) { return clv_selectf(a < b, a, b); }
static inline float max_f(float a, float b) { return clv_selectf(a > b, a, b); }
static inline float fabs_f(float a) {
    uint32_t u;
    memcpy(&u, &a, sizeof u);
    u &= 0x7fffffffu;
    memcpy(&a, &u, sizeof a);
    return a;
}

/* Squared distance from (px, py) to the segment (ax, ay) + t (dx, dy), t in [0, 1]. */
static inline float dist2_point_seg(float px, float py, float ax, float ay, float dx, float dy) {
    float apx = px - ax, apy = py - ay;
    float len2 = dx * dx + dy * dy;
    float t = (apx * dx + apy * dy) / max_f(len2, 1e-30f);
    t = min_f(max_f(t, 0.0f), 1.0f);
    float qx = apx - dx * t, qy = apy - dy * t;
    return qx * qx + qy * qy;
}

/* For each 4-bit hit mask, the positions of its set bits, packed to the front. */
static const uint32_t clv_pack4[16][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
                                          {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
                                          {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
                                          {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};

/* Appends base + k for every k < m with hit[k] set. Four at a time: one 16-byte store of the
 * packed positions and one count, with no branch on the data. The store may write up to three
 * slots past the last hit, never past out[base + m - 1]: count <= base + k before each group. */
static inline uint32_t push_hits(const int *hit, uint32_t m, uint32_t base, uint32_t *out,
                                 uint32_t n) {
    uint32_t k = 0;
    for (; k + 4u <= m; k += 4u) {
        uint32_t mask = (uint32_t)hit[k] | (uint32_t)hit[k + 1u] << 1 | (uint32_t)hit[k + 2u] << 2 |
                        (uint32_t)hit[k + 3u] << 3;
        uint32_t v[4];
        for (int j = 0; j < 4; j++) {
            v[j] = base + k + clv_pack4[mask][j];
        }
        memcpy(out + n, v, sizeof v);
        n += (uint32_t)(hit[k] + hit[k + 1u] + hit[k + 2u] + hit[k + 3u]);
    }
    for (; k < m; k++) {
        out[n] = base + k;
        n += (uint32_t)hit[k];
    }
    return n;
}

#ifndef CLV_BATCH_SSE
/* Called with m = CLV_BATCH_BLOCK for every full block: a constant trip count lets gcc
 * vectorize without a scalar epilogue, even under -O2's cheap cost model. */
static inline void circles_block(const clv_capsule *a, const float *x, const float *y,
                                 const float *r, uint32_t m, int *hit) {
    const float ax = a->a.x, ay = a->a.y, dx = a->b.x - a->a.x, dy = a->b.y - a->a.y;
    const float ar = a->r;
    for (uint32_t k = 0; k < m; k++) {
        float rr = r[k] + ar;
        hit[k] = dist2_point_seg(x[k], y[k], ax, ay, dx, dy) < rr * rr;
    }
}
#endif

#ifdef CLV_BATCH_SSE
/* For each 4-bit hit mask, the lanes of its set bits packed to the front, and their count. */
static const uint32_t clv_pack4_count[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* Four circles per step with SSE2 only (the default x86-64 target): the test is the scalar
 * one lane for lane (minps/maxps select exactly as the ternaries do, divps rounds as divss),
 * and the hits are written by one 16-byte store of base + the packed lanes, plus a count.
 * The store may write up to three slots past the last hit, never past out[i + 3] < out[n]. */
uint32_t clv_batch_capsule_circles(const clv_capsule *a, const float *x, const float *y,
                                   const float *r, uint32_t n, uint32_t *out) {
    const float ax = a->a.x, ay = a->a.y, dx = a->b.x - a->a.x, dy = a->b.y - a->a.y;
    const float len2 = dx * dx + dy * dy;
    const __m128 vax = _mm_set1_ps(ax), vay = _mm_set1_ps(ay), vdx = _mm_set1_ps(dx),
                 vdy = _mm_set1_ps(dy), var = _mm_set1_ps(a->r);
    const __m128 vlen2 = _mm_max_ps(_mm_set1_ps(len2), _mm_set1_ps(1e-30f));
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    const __m128i four = _mm_set1_epi32(4);
    __m128i vi = _mm_setzero_si128(); /* i in every lane, advanced with it */
    uint32_t count = 0, i = 0;
    for (; i + 4u <= n; i += 4u, vi = _mm_add_epi32(vi, four)) {
        __m128 apx = _mm_sub_ps(_mm_loadu_ps(x + i), vax);
        __m128 apy = _mm_sub_ps(_mm_loadu_ps(y + i), vay);
        __m128 t = _mm_div_ps(_mm_add_ps(_mm_mul_ps(apx, vdx), _mm_mul_ps(apy, vdy)), vlen2);
        t = _mm_min_ps(_mm_max_ps(t, zero), one);
        __m128 qx = _mm_sub_ps(apx, _mm_mul_ps(vdx, t));
        __m128 qy = _mm_sub_ps(apy, _mm_mul_ps(vdy, t));
        __m128 d2 = _mm_add_ps(_mm_mul_ps(qx, qx), _mm_mul_ps(qy, qy));
        __m128 rr = _mm_add_ps(_mm_loadu_ps(r + i), var);
        unsigned mask = (unsigned)_mm_movemask_ps(_mm_cmplt_ps(d2, _mm_mul_ps(rr, rr)));
        __m128i lanes = _mm_loadu_si128((const __m128i *)(const void *)clv_pack4[mask]);
        _mm_storeu_si128((__m128i *)(void *)(out + count), _mm_add_epi32(lanes, vi));
        count += clv_pack4_count[mask];
    }
    for (; i < n; i++) {
        float rr = r[i] + a->r;
        out[count] = i;
        count += (uint32_t)(dist2_point_seg(x[i], y[i], ax, ay, dx, dy) < rr * rr);
    }
    return count;
}
#else
uint32_t clv_batch_capsule_circles(const clv_capsule *a, const float *x, const float *y,
                                   const float *r, uint32_t n, uint32_t *out) {
    int hit[CLV_BATCH_BLOCK];
    uint32_t count = 0, base = 0;
    for (; n - base >= CLV_BATCH_BLOCK; base += CLV_BATCH_BLOCK) {
        circles_block(a, x + base, y + base, r + base, CLV_BATCH_BLOCK, hit);
        count = push_hits(hit, CLV_BATCH_BLOCK, base, out, count);
    }
    circles_block(a, x + base, y + base, r + base, n - base, hit);
    return push_hits(hit, n - base, base, out, count);
}
#endif

/* One lane of overlap.c's segment test: is the end (px, py) closer than sqrt(r2) to the
 * segment (sx, sy) + t (dx, dy)? *o gets the orientation of the end, *sure whether its sign
 * holds. */
static inline int lane(float px, float py, float sx, float sy, float dx, float dy, float r2,
                       float *o, int *sure) {
    float wx = px - sx, wy = py - sy;
    float len2 = dx * dx + dy * dy;
    float dot = wx * dx + wy * dy;
    float ex = wx - dx, ey = wy - dy;
    *o = dx * wy - dy * wx;
    *sure = fabs_f(*o) > (fabs_f(dx * wy) + fabs_f(dy * wx)) * CLV_CROSS_EPS;
    int before = dot <= 0.0f, after = dot >= len2;
    int near0 = wx * wx + wy * wy < r2, near1 = ex * ex + ey * ey < r2;
    int near_line = *o * *o < r2 * len2;
    int edge = before | after;
    int ends = (before & near0) | ((1 - before) & near1);
    return (edge & ends) | ((1 - edge) & near_line);
}

/* Capsule p (ends pa, pb, radius pr) against capsule q: the same lanes, in the same order, as
 * clv_overlap_capsule_capsule, so that the answers agree bit for bit (its crossing test
 * multiplies orientations, which is not the same as comparing their signs when a product
 * underflows). */
static inline int capsule_pair_hit(float pax, float pay, float pbx, float pby, float pr, float qax,
                                   float qay, float qbx, float qby, float qr) {
    /* Origin at the midpoint of the two first ends, as the typed test does. */
    float ox = (pax + qax) * 0.5f, oy = (pay + qay) * 0.5f;
    float a0x = pax - ox, a0y = pay - oy, a1x = pbx - ox, a1y = pby - oy;
    float b0x = qax - ox, b0y = qay - oy, b1x = qbx - ox, b1y = qby - oy;
    float dax = a1x - a0x, day = a1y - a0y, dbx = b1x - b0x, dby = b1y - b0y;
    float rr = pr + qr, r2 = rr * rr;
    float o0, o1, o2, o3;
    int s0, s1, s2, s3;
    int n0 = lane(a0x, a0y, b0x, b0y, dbx, dby, r2, &o0, &s0);
    int n1 = lane(a1x, a1y, b0x, b0y, dbx, dby, r2, &o1, &s1);
    int n2 = lane(b0x, b0y, a0x, a0y, dax, day, r2, &o2, &s2);
    int n3 = lane(b1x, b1y, a0x, a0y, dax, day, r2, &o3, &s3);
    int cross = (o0 * o1 < 0.0f) & (o1 * o0 < 0.0f) & (o2 * o3 < 0.0f) & (o3 * o2 < 0.0f) & s0 &
                s1 & s2 & s3;
    return (cross & (r2 > 0.0f)) | n0 | n1 | n2 | n3;
}

static inline void capsules_block(const clv_capsule *a, const float *qax, const float *qay,
                                  const float *qbx, const float *qby, const float *qr, uint32_t m,
                                  int *hit) {
    const float pax = a->a.x, pay = a->a.y, pbx = a->b.x, pby = a->b.y, pr = a->r;
    for (uint32_t k = 0; k < m; k++) {
        hit[k] = capsule_pair_hit(pax, pay, pbx, pby, pr, qax[k], qay[k], qbx[k], qby[k], qr[k]);
    }
}

uint32_t clv_batch_capsule_capsules(const clv_capsule *a, const float *ax, const float *ay,
                                    const float *bx, const float *by, const float *r, uint32_t n,
                                    uint32_t *out) {
    int hit[CLV_BATCH_BLOCK];
    uint32_t count = 0, base = 0;
    for (; n - base >= CLV_BATCH_BLOCK; base += CLV_BATCH_BLOCK) {
        capsules_block(a, ax + base, ay + base, bx + base, by + base, r + base, CLV_BATCH_BLOCK,
                       hit);
        count = push_hits(hit, CLV_BATCH_BLOCK, base, out, count);
    }
    capsules_block(a, ax + base, ay + base, bx + base, by + base, r + base, n - base, hit);
    return push_hits(hit, n - base, base, out, count);
}

/* Pairs base .. base + m: the flags into out, their sum returned. The flags go through an int
 * array first so that both loops have one element type, which gcc vectorises. */
static inline uint32_t pairs_block(const clv_capsule_arrays *a, const clv_capsule_arrays *b,
                                   uint32_t base, uint32_t m, uint8_t *out) {
    int hit[CLV_BATCH_BLOCK];
    for (uint32_t k = 0; k < m; k++) {
        uint32_t i = base + k;
        hit[k] = capsule_pair_hit(a->ax[i], a->ay[i], a->bx[i], a->by[i], a->r[i], b->ax[i],
                                  b->ay[i], b->bx[i], b->by[i], b->r[i]);
    }
    uint32_t count = 0;
    for (uint32_t k = 0; k < m; k++) {
        out[base + k] = (uint8_t)hit[k];
        count += (uint32_t)hit[k];
    }
    return count;
}

uint32_t clv_overlap_capsule_pairs(const clv_capsule_arrays *a, const clv_capsule_arrays *b,
                                   uint32_t n, uint8_t *out) {
    uint32_t count = 0, base = 0;
    for (; n - base >= CLV_BATCH_BLOCK; base += CLV_BATCH_BLOCK) {
        count += pairs_block(a, b, base, CLV_BATCH_BLOCK, out);
    }
    return count + pairs_block(a, b, base, n - base, out);
}
