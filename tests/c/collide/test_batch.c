/* Batch narrowphase: element for element the same answers as the typed overlap tests. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "batch_internal.h"
#include "harness.h"

static uint64_t rng_state = 0x243f6a8885a308d3u;

static uint32_t rnd_u32(void) { return clv_test_splitmix32(&rng_state); }

static float rnd_f(float lo, float hi) {
    return lo + (hi - lo) * (float)(rnd_u32() >> 8) * 0x1p-24f;
}

/* A value at one of several scales; small integers make exact touching cases common. */
static float rnd_coord(int style, float scale) {
    return style == 0 ? (float)((int)(rnd_u32() % 21u) - 10) : rnd_f(-scale, scale);
}

static clv_capsule rnd_capsule(int style, float scale) {
    clv_capsule c;
    c.a = clv_v2(rnd_coord(style, scale), rnd_coord(style, scale));
    c.b = (rnd_u32() % 8u == 0) ? c.a : clv_v2(rnd_coord(style, scale), rnd_coord(style, scale));
    c.r = (rnd_u32() % 10u == 0) ? 0.0f
          : style == 0           ? (float)(rnd_u32() % 6u)
                                 : rnd_f(0.0f, scale * 0.3f);
    return c;
}

static void test_circles_agree(void) {
    enum { N = 5000, ROUNDS = 60 };
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    float *r = malloc(N * sizeof(float));
    uint32_t *out = malloc(N * sizeof(uint32_t));
    long checked = 0, hits = 0, wrong = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int style = round % 3;
        float scale = style == 2 ? 1e4f : 50.0f;
        uint32_t n = round == 0 ? 0 : (round % 7 == 0 ? (uint32_t)(rnd_u32() % 600u) : N);
        clv_capsule cap = rnd_capsule(style, scale);
        for (uint32_t i = 0; i < n; i++) {
            x[i] = rnd_coord(style, scale);
            y[i] = rnd_coord(style, scale);
            r[i] = style == 0 ? (float)(rnd_u32() % 4u) : rnd_f(0.0f, scale * 0.2f);
        }
        uint32_t m = clv_batch_capsule_circles(&cap, x, y, r, n, out);
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++) {
            clv_circle c = {{x[i], y[i]}, r[i]};
            if (!clv_overlap_circle_capsule(&c, &cap))
                continue;
            wrong += (k >= m || out[k] != i);
            k++;
        }
        wrong += (k != m);
        checked += n;
        hits += k;
    }
    printf("capsule vs circles: %ld checked, %ld hits, %ld wrong\n", checked, hits, wrong);
    CHECK(wrong == 0);
    CHECK(hits > checked / 20 && hits < checked - checked / 20); /* both answers occur */
    free(x), free(y), free(r), free(out);
}

static void test_capsules_agree(void) {
    enum { N = 5000, ROUNDS = 60 };
    float *ax = malloc(N * sizeof(float)), *ay = malloc(N * sizeof(float));
    float *bx = malloc(N * sizeof(float)), *by = malloc(N * sizeof(float));
    float *r = malloc(N * sizeof(float));
    uint32_t *out = malloc(N * sizeof(uint32_t));
    long checked = 0, hits = 0, wrong = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int style = round % 3;
        float scale = style == 2 ? 1e4f : 50.0f;
        uint32_t n = round == 0 ? 0 : (round % 7 == 0 ? (uint32_t)(rnd_u32() % 600u) : N);
        clv_capsule cap = rnd_capsule(style, scale);
        for (uint32_t i = 0; i < n; i++) {
            clv_capsule c = rnd_capsule(style, scale);
            ax[i] = c.a.x, ay[i] = c.a.y, bx[i] = c.b.x, by[i] = c.b.y, r[i] = c.r;
        }
        uint32_t m = clv_batch_capsule_capsules(&cap, ax, ay, bx, by, r, n, out);
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++) {
            clv_capsule c = {{ax[i], ay[i]}, {bx[i], by[i]}, r[i]};
            if (!clv_overlap_capsule_capsule(&cap, &c))
                continue;
            wrong += (k >= m || out[k] != i);
            k++;
        }
        wrong += (k != m);
        checked += n;
        hits += k;
    }
    printf("capsule vs capsules: %ld checked, %ld hits, %ld wrong\n", checked, hits, wrong);
    CHECK(wrong == 0);
    CHECK(hits > checked / 20 && hits < checked - checked / 20);
    free(ax), free(ay), free(bx), free(by), free(r), free(out);
}

/* Capsule i of the arrays, as clv_capsule. */
static clv_capsule capsule_at(const clv_capsule_arrays *s, uint32_t i) {
    clv_capsule c = {{s->ax[i], s->ay[i]}, {s->bx[i], s->by[i]}, s->r[i]};
    return c;
}

static void fill_capsules(float *const col[5], uint32_t n, int style, float scale) {
    for (uint32_t i = 0; i < n; i++) {
        clv_capsule c = rnd_capsule(style, scale);
        col[0][i] = c.a.x, col[1][i] = c.a.y, col[2][i] = c.b.x, col[3][i] = c.b.y;
        col[4][i] = c.r;
    }
}

/* Pairs of arrays: bit for bit the typed test, over lengths around the block size. */
static void test_capsule_pairs_agree(void) {
    enum { N = 5000, ROUNDS = 60 };
    float *col[10];
    for (int k = 0; k < 10; k++)
        col[k] = malloc(N * sizeof(float));
    uint8_t *out = malloc(N + 1);
    clv_capsule_arrays a = {col[0], col[1], col[2], col[3], col[4]};
    clv_capsule_arrays b = {col[5], col[6], col[7], col[8], col[9]};
    long checked = 0, hits = 0, wrong = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int style = round % 3;
        float scale = style == 2 ? 1e4f : 50.0f;
        uint32_t n = round == 0 ? 0 : (round % 5 == 0 ? 511u + (uint32_t)(rnd_u32() % 3u) : N);
        fill_capsules(col, n, style, scale);
        fill_capsules(col + 5, n, style, scale);
        out[n] = 7; /* must stay */
        uint32_t m = clv_overlap_capsule_pairs(&a, &b, n, out);
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++) {
            clv_capsule p = capsule_at(&a, i), q = capsule_at(&b, i);
            bool want = clv_overlap_capsule_capsule(&p, &q);
            wrong += out[i] != (uint8_t)want;
            k += want;
        }
        wrong += (k != m) + (out[n] != 7);
        checked += n;
        hits += k;
    }
    printf("capsule pairs: %ld checked, %ld hits, %ld wrong\n", checked, hits, wrong);
    CHECK(wrong == 0);
    CHECK(hits > checked / 20 && hits < checked - checked / 20);
    for (int k = 0; k < 10; k++)
        free(col[k]);
    free(out);
}

/* On small integers every step of the float test is exact, so the pairs must answer as the
 * exact oracle does, touching cases included. */
static void test_capsule_pairs_exact(void) {
    enum { N = 20000 };
    float *col[10];
    for (int k = 0; k < 10; k++)
        col[k] = malloc(N * sizeof(float));
    uint8_t *out = malloc(N);
    clv_capsule_arrays a = {col[0], col[1], col[2], col[3], col[4]};
    clv_capsule_arrays b = {col[5], col[6], col[7], col[8], col[9]};
    fill_capsules(col, N, 0, 0.0f);
    fill_capsules(col + 5, N, 0, 0.0f);
    clv_overlap_capsule_pairs(&a, &b, N, out);
    long wrong = 0, hits = 0;
    for (uint32_t i = 0; i < N; i++) {
        clv_icapsule p = {(int32_t)a.ax[i], (int32_t)a.ay[i], (int32_t)a.bx[i], (int32_t)a.by[i],
                          (int32_t)a.r[i]};
        clv_icapsule q = {(int32_t)b.ax[i], (int32_t)b.ay[i], (int32_t)b.bx[i], (int32_t)b.by[i],
                          (int32_t)b.r[i]};
        bool want = clv_exact_overlap_capsules(&p, &q);
        wrong += out[i] != (uint8_t)want;
        hits += want;
    }
    printf("capsule pairs vs exact: %d checked, %ld hits, %ld wrong\n", N, hits, wrong);
    CHECK(wrong == 0);
    CHECK(hits > N / 20 && hits < N - N / 20);
    for (int k = 0; k < 10; k++)
        free(col[k]);
    free(out);
}

static void test_known_cases(void) {
    /* A horizontal blade from (0,0) to (10,0), radius 1. */
    clv_capsule blade = {{0.0f, 0.0f}, {10.0f, 0.0f}, 1.0f};
    float x[4] = {5.0f, 5.0f, 12.5f, -3.0f}, y[4] = {1.5f, 3.0f, 0.0f, 0.0f};
    float r[4] = {1.0f, 2.0f, 1.0f, 1.0f};
    uint32_t out[4] = {99, 99, 99, 99};
    /* 0 overlaps; 1 touches (gap 0); 2 is 2.5 from the end, needs 2; 3 is 3 away, needs 2 */
    CHECK(clv_batch_capsule_circles(&blade, x, y, r, 4, out) == 1);
    CHECK(out[0] == 0);
    /* Two crossing thin capsules whose ends are all far apart. */
    float ax[2] = {5.0f, 5.0f}, ay[2] = {-50.0f, 3.0f}, bx[2] = {5.0f, 5.0f}, by[2] = {50.0f, 9.0f};
    float cr[2] = {0.0f, 1.0f};
    clv_capsule thin = {{0.0f, 0.0f}, {10.0f, 0.0f}, 0.5f};
    CHECK(clv_batch_capsule_capsules(&thin, ax, ay, bx, by, cr, 2, out) == 1);
    CHECK(out[0] == 0);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_circles_agree);
    RUN(test_capsules_agree);
    RUN(test_capsule_pairs_agree);
    RUN(test_capsule_pairs_exact);
    RUN(test_known_cases);
    return clv_test_report();
}
