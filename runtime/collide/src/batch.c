/* Batch narrowphase: one capsule against arrays of circles or capsules (cleave/broadphase.h).
 *
 * Each test repeats, operation for operation, the arithmetic of the typed test it stands for
 * in overlap.c, so the answers agree bit for bit (the tests check it on random data).
 * A block is done in two passes: the first computes a hit flag per element with selects only,
 * which gcc vectorizes at -O2 and above; the second appends the hit indices with a branch-free
 * push (out[n] = i; n += hit), which a branch would slow down at unpredictable hit rates. */
#include "cleave/broadphase.h"

#include <string.h>

enum { CLV_BATCH_BLOCK = 512 };

/* min and max as a bitwise select on the comparison's mask. They give exactly what
 * `a < b ? a : b` gives (NaN included), but a ternary on a float compare stays a branch for
 * gcc unless -fno-trapping-math, and a branch blocks vectorization. */
static inline float select_f(int c, float a, float b) {
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    uint32_t m = 0u - (uint32_t)c;
    uint32_t u = (ua & m) | (ub & ~m);
    float out;
    memcpy(&out, &u, sizeof out);
    return out;
}
static inline float min_f(float a, float b) { return select_f(a < b, a, b); }
static inline float max_f(float a, float b) { return select_f(a > b, a, b); }

/* Squared distance from (px, py) to the segment (ax, ay) + t (dx, dy), t in [0, 1]. */
static inline float dist2_point_seg(float px, float py, float ax, float ay, float dx, float dy) {
    float apx = px - ax, apy = py - ay;
    float len2 = dx * dx + dy * dy;
    float t = (apx * dx + apy * dy) / max_f(len2, 1e-30f);
    t = min_f(max_f(t, 0.0f), 1.0f);
    float qx = apx - dx * t, qy = apy - dy * t;
    return qx * qx + qy * qy;
}

static inline int crosses(float a0x, float a0y, float a1x, float a1y, float b0x, float b0y,
                          float b1x, float b1y) {
    float dax = a1x - a0x, day = a1y - a0y, dbx = b1x - b0x, dby = b1y - b0y;
    float o1 = dax * (b0y - a0y) - day * (b0x - a0x);
    float o2 = dax * (b1y - a0y) - day * (b1x - a0x);
    float o3 = dbx * (a0y - b0y) - dby * (a0x - b0x);
    float o4 = dbx * (a1y - b0y) - dby * (a1x - b0x);
    int ab = ((o1 < 0.0f) & (o2 > 0.0f)) | ((o1 > 0.0f) & (o2 < 0.0f));
    int ba = ((o3 < 0.0f) & (o4 > 0.0f)) | ((o3 > 0.0f) & (o4 < 0.0f));
    return ab & ba;
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
        for (int j = 0; j < 4; j++)
            v[j] = base + k + clv_pack4[mask][j];
        memcpy(out + n, v, sizeof v);
        n += (uint32_t)(hit[k] + hit[k + 1u] + hit[k + 2u] + hit[k + 3u]);
    }
    for (; k < m; k++) {
        out[n] = base + k;
        n += (uint32_t)hit[k];
    }
    return n;
}

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

static inline void capsules_block(const clv_capsule *a, const float *qax, const float *qay,
                                  const float *qbx, const float *qby, const float *qr, uint32_t m,
                                  int *hit) {
    const float pax = a->a.x, pay = a->a.y, pbx = a->b.x, pby = a->b.y, pr = a->r;
    for (uint32_t k = 0; k < m; k++) {
        /* Origin at the midpoint of the two first ends, as the typed test does. */
        float ox = (pax + qax[k]) * 0.5f, oy = (pay + qay[k]) * 0.5f;
        float a0x = pax - ox, a0y = pay - oy, a1x = pbx - ox, a1y = pby - oy;
        float b0x = qax[k] - ox, b0y = qay[k] - oy, b1x = qbx[k] - ox, b1y = qby[k] - oy;
        float dax = a1x - a0x, day = a1y - a0y, dbx = b1x - b0x, dby = b1y - b0y;
        float d = min_f(min_f(dist2_point_seg(a0x, a0y, b0x, b0y, dbx, dby),
                              dist2_point_seg(a1x, a1y, b0x, b0y, dbx, dby)),
                        min_f(dist2_point_seg(b0x, b0y, a0x, a0y, dax, day),
                              dist2_point_seg(b1x, b1y, a0x, a0y, dax, day)));
        d = select_f(crosses(a0x, a0y, a1x, a1y, b0x, b0y, b1x, b1y), 0.0f, d);
        float rr = pr + qr[k];
        hit[k] = d < rr * rr;
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
