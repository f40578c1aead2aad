/* The grid against brute force: same candidates, same order, on random scenes. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cleave/broadphase.h"
#include "harness.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t rnd_u32(void) {
    /* splitmix64: a fixed seed, so every run tests the same scenes */
    return clv_test_splitmix32(&rng_state);
}

static float rnd_f(float lo, float hi) {
    return lo + (hi - lo) * (float)(rnd_u32() >> 8) * 0x1p-24f;
}

/* The documented candidate rule, evaluated with the same float expressions. */
static uint32_t brute(const float *x, const float *y, const float *r, uint32_t n, clv_aabb q,
                      uint32_t *out) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if ((x[i] - r[i] <= q.max.x) & (x[i] + r[i] >= q.min.x) & (y[i] - r[i] <= q.max.y) &
            (y[i] + r[i] >= q.min.y))
            out[k++] = i;
    }
    return k;
}

/* A counting allocator: the grid's memory goes through the hook and all of it comes back. */
typedef struct counter {
    size_t live;
    int allocs;
    int frees;
    int fail;
} counter;

static void *count_alloc(size_t size, void *user) {
    counter *c = user;
    if (c->fail)
        return NULL;
    c->live += size;
    c->allocs++;
    return malloc(size);
}

static void count_free(void *ptr, size_t size, void *user) {
    counter *c = user;
    c->live -= size;
    c->frees++;
    free(ptr);
}

static clv_grid_def scene_def(uint32_t capacity) {
    clv_grid_def def = clv_grid_default_def();
    def.origin = clv_v2(-500.0f, -300.0f);
    def.cell_size = 48.0f;
    def.cols = 40;
    def.rows = 25;
    def.capacity = capacity;
    return def;
}

static void test_matches_brute_force(void) {
    enum { N = 6000, QUERIES = 400 };
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    float *r = malloc(N * sizeof(float));
    uint32_t *got = malloc(N * sizeof(uint32_t)), *want = malloc(N * sizeof(uint32_t));
    clv_grid_def def = scene_def(N);
    counter cnt = {0, 0, 0, 0};
    clv_allocator hook = {count_alloc, count_free, &cnt};
    clv_grid *g = clv_grid_create(&def, &hook);
    CHECK(g != NULL);
    CHECK(cnt.allocs == 1);
    CHECK(cnt.live == clv_grid_memory_size(&def));
    const uint32_t sizes[] = {0, 1, 2, 33, 500, N};
    long total = 0, mismatches = 0;
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint32_t n = sizes[s];
        for (uint32_t i = 0; i < n; i++) {
            /* Mostly inside the area, some far outside it (clamped to border cells), a few
             * oversized (kept aside), some exactly on cell borders and some stacked. */
            uint32_t kind = rnd_u32() % 20u;
            x[i] = rnd_f(-700.0f, 1700.0f);
            y[i] = rnd_f(-500.0f, 1100.0f);
            r[i] = rnd_f(0.0f, 30.0f);
            if (kind == 0)
                r[i] = rnd_f(48.0f, 400.0f);
            if (kind == 1)
                x[i] = -500.0f + 48.0f * (float)(rnd_u32() % 41u);
            if (kind == 2)
                y[i] = -300.0f + 48.0f * (float)(rnd_u32() % 26u);
            if (kind == 3)
                r[i] = 0.0f;
            if (kind == 4)
                x[i] = rnd_f(-1e5f, 1e5f);
            if (kind == 5 && i > 0) {
                x[i] = x[i - 1];
                y[i] = y[i - 1];
            }
        }
        CHECK(clv_grid_build(g, x, y, r, n));
        CHECK(clv_grid_count(g) == n);
        int allocs_before = cnt.allocs;
        for (int q = 0; q < QUERIES; q++) {
            float cx = rnd_f(-800.0f, 1800.0f), cy = rnd_f(-600.0f, 1200.0f);
            float hw = rnd_f(0.0f, 120.0f), hh = rnd_f(0.0f, 120.0f);
            if (q % 50 == 0)
                hw = hh = 5000.0f; /* everything */
            if (q % 50 == 1)
                hw = hh = 0.0f; /* a point */
            clv_aabb box = {{cx - hw, cy - hh}, {cx + hw, cy + hh}};
            uint32_t k = brute(x, y, r, n, box, want);
            uint32_t m = clv_grid_query(g, box, got, N);
            total += k;
            if (m != k || memcmp(got, want, k * sizeof(uint32_t)) != 0)
                mismatches++;
        }
        CHECK(cnt.allocs == allocs_before); /* building and querying never allocate */
    }
    printf("broadphase: %ld candidates over %d queries per scene, %ld mismatches\n", total, QUERIES,
           mismatches);
    CHECK(mismatches == 0);
    CHECK(total > 10000); /* the scenes are not trivially empty */
    clv_grid_destroy(g);
    CHECK(cnt.frees == 1);
    CHECK(cnt.live == 0);
    free(x), free(y), free(r), free(got), free(want);
}

static void test_order_is_ascending_and_unique(void) {
    /* Entities filed in many different cells come out by index, never twice. */
    enum { N = 1000 };
    float x[N], y[N], r[N];
    uint32_t out[N];
    for (uint32_t i = 0; i < N; i++) {
        x[i] = rnd_f(0.0f, 1000.0f);
        y[i] = rnd_f(0.0f, 1000.0f);
        r[i] = rnd_f(0.0f, 100.0f);
    }
    clv_grid_def def = clv_grid_default_def();
    def.capacity = N;
    def.cols = def.rows = 16;
    clv_grid *g = clv_grid_create(&def, NULL);
    CHECK(g != NULL);
    CHECK(clv_grid_build(g, x, y, r, N));
    clv_aabb box = {{100.0f, 100.0f}, {700.0f, 650.0f}};
    uint32_t n = clv_grid_query(g, box, out, N);
    CHECK(n > 100);
    int ascending = 1;
    for (uint32_t i = 1; i < n; i++)
        ascending &= out[i - 1] < out[i];
    CHECK(ascending);
    clv_grid_destroy(g);
}

static void test_cap_too_small_reports_count(void) {
    enum { N = 100 };
    float x[N], y[N], r[N];
    uint32_t out[N];
    for (uint32_t i = 0; i < N; i++) {
        x[i] = 10.0f + (float)i;
        y[i] = 10.0f;
        r[i] = 1.0f;
    }
    clv_grid_def def = clv_grid_default_def();
    def.capacity = N;
    clv_grid *g = clv_grid_create(&def, NULL);
    CHECK(clv_grid_build(g, x, y, r, N));
    clv_aabb all = {{0.0f, 0.0f}, {200.0f, 20.0f}};
    CHECK(clv_grid_query(g, all, out, 10) == N); /* too small: the count, to retry with */
    CHECK(clv_grid_query(g, all, out, N) == N);
    CHECK(out[0] == 0 && out[N - 1] == N - 1);
    /* Touching counts: the square of entity 0 ends at x = 11. */
    clv_aabb touch = {{-5.0f, 0.0f}, {9.0f, 20.0f}};
    CHECK(clv_grid_query(g, touch, out, N) == 1);
    CHECK(out[0] == 0);
    clv_aabb nan_box = {{NAN, 0.0f}, {1.0f, 1.0f}};
    CHECK(clv_grid_query(g, nan_box, out, N) == 0);
    clv_grid_destroy(g);
}

/* Many boxes at once: the same lists as a build followed by one query per box, including
 * scenes whose boxes do not all fit the cell lists and whose hits overflow the scratch. */
static void test_query_boxes_matches_queries(void) {
    enum { N = 3000, BOXES = 300 };
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    float *r = malloc(N * sizeof(float));
    uint32_t *want = malloc(N * sizeof(uint32_t)), *out = malloc((size_t)N * BOXES * 4u);
    uint32_t first[BOXES + 1];
    clv_aabb boxes[BOXES];
    /* The third grid is 200 cells wide: one row of its sub-cell bitmap spans several words.
     * The fourth has 2^21 small cells: too many for a byte per cell, so every cell that a box
     * reaches gets a list. Every other scene has more than 254 boxes, too many for a cell's
     * byte to name its box. */
    const uint32_t capacities[] = {N, 200, N, N};
    long total = 0, mismatches = 0, every_scene = 0;
    for (unsigned cs = 0; cs < 4; cs++) {
        clv_grid_def def = scene_def(capacities[cs]);
        if (cs == 2)
            def.cols = 200, def.rows = 5;
        if (cs == 3)
            def.cell_size = 2.0f, def.cols = 2048, def.rows = 1024;
        counter cnt = {0, 0, 0, 0};
        clv_allocator hook = {count_alloc, count_free, &cnt};
        clv_grid *g = clv_grid_create(&def, &hook);
        clv_grid *ref = clv_grid_create(&def, NULL);
        for (int scene = 0; scene < 24; scene++) {
            uint32_t n = scene == 0 ? 0 : (uint32_t)(rnd_u32() % (capacities[cs] + 1u));
            /* (more boxes than the capacity are refused: see the refusals below) */
            uint32_t most = scene % 2 && capacities[cs] >= BOXES ? BOXES : 80u;
            uint32_t nq = scene == 1 ? 0 : 1u + rnd_u32() % most;
            for (uint32_t i = 0; i < n; i++) {
                uint32_t kind = rnd_u32() % 20u;
                x[i] = rnd_f(-700.0f, 1700.0f);
                y[i] = rnd_f(-500.0f, 1100.0f);
                r[i] = rnd_f(0.0f, 30.0f);
                if (kind == 0)
                    r[i] = rnd_f(48.0f, 400.0f); /* oversized */
                if (kind == 1)
                    x[i] = -500.0f + 48.0f * (float)(rnd_u32() % 41u); /* on a cell border */
                if (kind == 2)
                    r[i] = 48.0f; /* exactly one cell */
                if (kind == 3)
                    x[i] = rnd_f(-1e5f, 1e5f); /* far outside */
                if (kind == 4)
                    y[i] = -300.0f + 24.0f * (float)(rnd_u32() % 60u); /* on a half-cell border */
                if (kind == 5 && rnd_u32() % 8u == 0)
                    r[i] = NAN; /* meets nothing, and must not hide the others */
            }
            for (uint32_t k = 0; k < nq; k++) {
                float cx = rnd_f(-800.0f, 1800.0f), cy = rnd_f(-600.0f, 1200.0f);
                float hw = rnd_f(0.0f, 120.0f), hh = rnd_f(0.0f, 120.0f);
                if (rnd_u32() % 16u == 0)
                    hw = hh = 5000.0f; /* everything: cannot be filed in a small grid */
                if (rnd_u32() % 16u == 0)
                    hw = hh = 0.0f;
                boxes[k] = (clv_aabb){{cx - hw, cy - hh}, {cx + hw, cy + hh}};
                if (k > 0 && rnd_u32() % 10u == 0)
                    boxes[k] = boxes[k - 1u]; /* the same box twice */
                if (rnd_u32() % 40u == 0)
                    boxes[k].min.x = NAN; /* meets nothing */
                if (rnd_u32() % 40u == 0)
                    boxes[k].max.y = boxes[k].min.y - 1.0f; /* empty: meets nothing */
            }
            int allocs = cnt.allocs;
            uint32_t got =
                clv_grid_query_boxes(g, boxes, nq, x, y, r, n, first, out, (uint32_t)N * BOXES);
            CHECK(cnt.allocs == allocs);
            CHECK(clv_grid_count(g) == 0);
            CHECK(first[0] == 0);
            CHECK(clv_grid_build(ref, x, y, r, n));
            uint32_t sum = 0;
            for (uint32_t k = 0; k < nq; k++) {
                uint32_t m = clv_grid_query(ref, boxes[k], want, N);
                uint32_t b = first[k], e = first[k + 1u];
                if (e - b != m || memcmp(out + b, want, m * sizeof(uint32_t)) != 0)
                    mismatches++;
                sum += m;
                every_scene += boxes[k].max.x - boxes[k].min.x >= 10000.0f;
            }
            CHECK(got == sum);
            CHECK(first[nq] == sum);
            total += sum;
            /* Too small a cap: the total and the per-box ranges still come back. */
            if (sum > 0) {
                uint32_t again[BOXES + 1];
                CHECK(clv_grid_query_boxes(g, boxes, nq, x, y, r, n, again, out, sum - 1u) == sum);
                CHECK(memcmp(again, first, (nq + 1u) * sizeof(uint32_t)) == 0);
            }
        }
        /* Refusals: over capacity, NULL arrays, more boxes than the capacity. */
        CHECK(clv_grid_query_boxes(g, boxes, 1, x, y, r, capacities[cs] + 1u, first, out, 10) == 0);
        CHECK(first[0] == 0 && first[1] == 0);
        CHECK(clv_grid_query_boxes(g, boxes, 1, NULL, y, r, 5, first, out, 10) == 0);
        CHECK(clv_grid_query_boxes(g, NULL, 1, x, y, r, 5, first, out, 10) == 0);
        CHECK(clv_grid_query_boxes(g, boxes, 1, x, y, r, 5, NULL, out, 10) == 0);
        clv_grid_destroy(g);
        clv_grid_destroy(ref);
        CHECK(cnt.live == 0);
    }
    {
        clv_grid_def def = scene_def(4);
        clv_grid *g = clv_grid_create(&def, NULL);
        CHECK(clv_grid_query_boxes(g, boxes, 5, x, y, r, 1, first, out, 10) == 0);
        clv_grid_destroy(g);
    }
    printf("query_boxes: %ld candidates, %ld boxes covering everything, %ld mismatches\n", total,
           every_scene, mismatches);
    CHECK(mismatches == 0);
    CHECK(total > 20000);
    CHECK(every_scene > 10);
    free(x), free(y), free(r), free(want), free(out);
}

/* Cases found by fuzzing, each answered the same by query_boxes and by build + query. */
static void test_query_boxes_edges(void) {
    uint32_t first[4], out[8], want[8];
    {
        /* The hits fill the scratch exactly (3 with capacity 3), then the same entity misses
         * the next box: the miss must not overwrite the last hit. */
        clv_grid_def def = clv_grid_default_def();
        def.capacity = 3;
        clv_grid *g = clv_grid_create(&def, NULL);
        const float x[3] = {10.0f, 20.0f, 30.0f}, y[3] = {10.0f, 10.0f, 10.0f};
        const float r[3] = {1.0f, 1.0f, 1.0f};
        const clv_aabb boxes[2] = {{{0.0f, 0.0f}, {40.0f, 20.0f}},
                                   {{50.0f, 50.0f}, {52.0f, 52.0f}}};
        CHECK(clv_grid_query_boxes(g, boxes, 2, x, y, r, 3, first, out, 8) == 3);
        CHECK(first[0] == 0 && first[1] == 3 && first[2] == 3);
        CHECK(out[0] == 0 && out[1] == 1 && out[2] == 2);
        clv_grid_destroy(g);
    }
    {
        /* Infinite bounds and centres, negative and infinite radii. */
        clv_grid_def def = clv_grid_default_def();
        def.capacity = 6;
        clv_grid *g = clv_grid_create(&def, NULL);
        const float x[6] = {-INFINITY, -INFINITY, 100.0f, 100.0f, 200.0f, 300.0f};
        const float y[6] = {5.0f, 5.0f, 100.0f, 100.0f, 200.0f, 300.0f};
        const float r[6] = {5.0f, 100.0f, -4.0f, -INFINITY, INFINITY, 4.0f};
        const clv_aabb boxes[3] = {{{-INFINITY, 0.0f}, {-INFINITY, 10.0f}},
                                   {{90.0f, 90.0f}, {110.0f, 110.0f}},
                                   {{290.0f, 290.0f}, {INFINITY, INFINITY}}};
        /* entity 0 and 1 meet box 0; 2 and 3 have negative radii and meet nothing; 4, of
         * infinite radius, meets every box; 5 meets box 2 */
        const uint32_t lists[3][3] = {{0, 1, 4}, {4, 0, 0}, {4, 5, 0}};
        const uint32_t counts[3] = {3, 1, 2};
        CHECK(clv_grid_query_boxes(g, boxes, 3, x, y, r, 6, first, out, 8) == 6);
        CHECK(clv_grid_build(g, x, y, r, 6));
        for (int k = 0; k < 3; k++) {
            uint32_t m = clv_grid_query(g, boxes[k], want, 8);
            CHECK(m == counts[k]);
            CHECK(first[k + 1] - first[k] == counts[k]);
            for (uint32_t j = 0; j < counts[k] && j < m; j++) {
                CHECK(want[j] == lists[k][j]);
                CHECK(out[first[k] + j] == lists[k][j]);
            }
        }
        clv_grid_destroy(g);
    }
}

/* With fewer than 255 boxes a cell that one box alone reaches names it in a byte; with more,
 * every reached cell lists its boxes. Boxes apart, each around its own entity: 200 (named) and
 * 300 (listed), each twice in a row on one grid; then the 300 twice over (every cell reached by
 * two boxes, so listed in both cases). */
static void test_query_boxes_many_boxes(void) {
    enum { BOXES = 300, SIDE = 20 };
    clv_grid_def def = {{0.0f, 0.0f}, 10.0f, 64u, 64u, 2u * BOXES};
    clv_grid *g = clv_grid_create(&def, NULL);
    float x[2 * BOXES], y[2 * BOXES], r[2 * BOXES];
    clv_aabb boxes[2 * BOXES];
    uint32_t first[2 * BOXES + 1], out[4 * BOXES];
    for (uint32_t k = 0; k < BOXES; k++) {
        x[k] = 5.0f + 30.0f * (float)(k % SIDE), y[k] = 5.0f + 30.0f * (float)(k / SIDE);
        r[k] = 1.0f;
        boxes[k] = (clv_aabb){{x[k] - 2.0f, y[k] - 2.0f}, {x[k] + 2.0f, y[k] + 2.0f}};
        boxes[BOXES + k] = boxes[k];
    }
    for (int round = 0; round < 4; round++) {
        uint32_t nq = round < 2 ? 200u : BOXES;
        CHECK(clv_grid_query_boxes(g, boxes, nq, x, y, r, BOXES, first, out, 4 * BOXES) == nq);
        long wrong = 0;
        for (uint32_t k = 0; k < nq; k++)
            wrong += first[k + 1] - first[k] != 1 || out[first[k]] != k;
        CHECK(wrong == 0);
    }
    CHECK(clv_grid_query_boxes(g, boxes, 2 * BOXES, x, y, r, BOXES, first, out, 4 * BOXES) ==
          2 * BOXES);
    long wrong = 0;
    for (uint32_t k = 0; k < 2 * BOXES; k++)
        wrong += first[k + 1] - first[k] != 1 || out[first[k]] != k % BOXES;
    CHECK(wrong == 0);
    clv_grid_destroy(g);
}

/* A small crowd under many boxes: a room of 13 x 13 cells, as many entities as the grid holds,
 * and up to 64 boxes that reach most cells (each cell names its boxes in one word), with more
 * hits than entities and, in the densest frames, more than the scratch holds at once. Every
 * frame gives the lists of a build followed by one query per box. */
static void test_query_boxes_small_crowd(void) {
    enum { N = 1000, BOXES = 65 };
    const float side = 13.0f * 64.0f;
    clv_grid_def def = {{0.0f, 0.0f}, 64.0f, 13u, 13u, N};
    clv_grid *g = clv_grid_create(&def, NULL), *ref = clv_grid_create(&def, NULL);
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    float *r = malloc(N * sizeof(float));
    uint32_t *out = malloc((size_t)N * BOXES * sizeof(uint32_t)),
             *want = malloc(N * sizeof(uint32_t));
    uint32_t first[BOXES + 1];
    clv_aabb boxes[BOXES];
    long total = 0, mismatches = 0, over_scratch = 0;
    for (int frame = 0; frame < 40; frame++) {
        /* 64 boxes (the last bit of a word) most frames, 65 (lists instead) every fourth */
        uint32_t nq = frame % 4 == 3 ? 65u : 64u, n = frame % 5 == 4 ? 50u : N;
        float grow = frame % 5 == 4 ? 400.0f : 0.0f; /* the densest frames */
        for (uint32_t i = 0; i < n; i++) {
            x[i] = rnd_f(0.0f, side), y[i] = rnd_f(0.0f, side), r[i] = rnd_f(8.0f, 16.0f);
            if (rnd_u32() % 50u == 0)
                r[i] = rnd_f(64.0f, 300.0f); /* oversized: tested against every box */
        }
        for (uint32_t k = 0; k < nq; k++) {
            float cx = rnd_f(0.0f, side), cy = rnd_f(0.0f, side);
            float hw = rnd_f(24.0f, 80.0f) + grow, hh = rnd_f(24.0f, 80.0f) + grow;
            boxes[k] = (clv_aabb){{cx - hw, cy - hh}, {cx + hw, cy + hh}};
            if (rnd_u32() % 20u == 0)
                boxes[k].max.x = boxes[k].min.x - 1.0f; /* empty: meets nothing */
        }
        uint32_t got = clv_grid_query_boxes(g, boxes, nq, x, y, r, n, first, out, N * BOXES);
        CHECK(clv_grid_build(ref, x, y, r, n));
        uint32_t sum = 0;
        for (uint32_t k = 0; k < nq; k++) {
            uint32_t m = clv_grid_query(ref, boxes[k], want, N);
            uint32_t b = first[k], e = first[k + 1u];
            if (e - b != m || memcmp(out + b, want, m * sizeof(uint32_t)) != 0)
                mismatches++;
            sum += m;
        }
        CHECK(got == sum);
        over_scratch += sum > 2u * N;
        total += sum;
    }
    printf("query_boxes, small crowd: %ld hits, %ld frames over the scratch, %ld mismatches\n",
           total, over_scratch, mismatches);
    CHECK(mismatches == 0);
    CHECK(total > 40000); /* more hits than entities */
    CHECK(over_scratch >= 3);
    clv_grid_destroy(g), clv_grid_destroy(ref);
    free(x), free(y), free(r), free(out), free(want);
}

/* A large grid (600 x 400 sub-cells, in blocks of 32 x 32 for the coarse first test of the
 * eight-at-a-time path): boxes straddle the blocks' borders, and the entities crowd the boxes'
 * edges, the blocks' edges and the grid's clamped border. Every frame gives the lists of a
 * build followed by one query per box. */
static void test_query_boxes_block_borders(void) {
    enum { N = 20000, BOXES = 64 };
    const float block = 32.0f * 32.0f; /* a block: 32 sub-cells of 32 px */
    clv_grid_def def = {{-100.0f, -50.0f}, 64.0f, 300u, 200u, N};
    clv_grid *g = clv_grid_create(&def, NULL), *ref = clv_grid_create(&def, NULL);
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    float *r = malloc(N * sizeof(float));
    uint32_t *out = malloc((size_t)N * 8u * sizeof(uint32_t)), *want = malloc(N * sizeof(uint32_t));
    uint32_t first[BOXES + 1];
    clv_aabb boxes[BOXES];
    long total = 0, mismatches = 0;
    for (int frame = 0; frame < 30; frame++) {
        for (uint32_t k = 0; k < BOXES; k++) {
            /* a box edge within a few px of a block border */
            float bx = def.origin.x + block * (float)(1u + rnd_u32() % 17u) + rnd_f(-6.0f, 6.0f);
            float by = def.origin.y + block * (float)(1u + rnd_u32() % 11u) + rnd_f(-6.0f, 6.0f);
            float w = rnd_f(20.0f, 160.0f), h = rnd_f(20.0f, 160.0f);
            boxes[k] = rnd_u32() % 2u ? (clv_aabb){{bx, by}, {bx + w, by + h}}
                                      : (clv_aabb){{bx - w, by - h}, {bx, by}};
        }
        for (uint32_t i = 0; i < N; i++) {
            const clv_aabb *q = &boxes[rnd_u32() % BOXES];
            r[i] = rnd_f(0.0f, 20.0f);
            float d = rnd_f(-1.5f, 1.5f) * r[i];
            x[i] = rnd_u32() % 2u ? q->min.x - r[i] + d : q->max.x + r[i] + d;
            y[i] = rnd_f(q->min.y - 25.0f, q->max.y + 25.0f);
            uint32_t kind = rnd_u32() % 16u;
            if (kind == 0)
                x[i] = rnd_f(-2000.0f, 21000.0f), y[i] = rnd_f(-2000.0f, 14000.0f);
            if (kind == 1)
                r[i] = rnd_f(64.0f, 200.0f); /* oversized */
            if (kind == 2)
                x[i] = def.origin.x + block * (float)(rnd_u32() % 20u); /* on a block border */
        }
        uint32_t got = clv_grid_query_boxes(g, boxes, BOXES, x, y, r, N, first, out, N * 8u);
        CHECK(clv_grid_build(ref, x, y, r, N));
        uint32_t sum = 0;
        for (uint32_t k = 0; k < BOXES; k++) {
            uint32_t m = clv_grid_query(ref, boxes[k], want, N);
            uint32_t b = first[k], e = first[k + 1u];
            if (e - b != m || memcmp(out + b, want, m * sizeof(uint32_t)) != 0)
                mismatches++;
            sum += m;
        }
        CHECK(got == sum);
        total += sum;
    }
    printf("query_boxes, block borders: %ld candidates, %ld mismatches\n", total, mismatches);
    CHECK(mismatches == 0);
    CHECK(total > 100000);
    clv_grid_destroy(g), clv_grid_destroy(ref);
    free(x), free(y), free(r), free(out), free(want);
}

/* How many of the nq boxes get other candidates from clv_grid_query_boxes than from a build of
 * ref followed by one query per box (or a total that is not their sum). */
static long boxes_mismatches(clv_grid *g, clv_grid *ref, const clv_aabb *boxes, uint32_t nq,
                             const float *x, const float *y, const float *r, uint32_t n) {
    enum { MOST = 4096 };
    static uint32_t first[MOST + 1], out[MOST * 8], want[MOST];
    uint32_t got = clv_grid_query_boxes(g, boxes, nq, x, y, r, n, first, out, MOST * 8);
    CHECK(clv_grid_build(ref, x, y, r, n));
    long wrong = 0;
    uint32_t sum = 0;
    for (uint32_t k = 0; k < nq; k++) {
        uint32_t m = clv_grid_query(ref, boxes[k], want, MOST);
        wrong += first[k + 1u] - first[k] != m ||
                 memcmp(out + first[k], want, m * sizeof(uint32_t)) != 0;
        sum += m;
    }
    return wrong + (got != sum);
}

/* A small crowd's cells hold their boxes' bounds in groups of eight, tested at once. Grids of
 * one to four cells and a capacity of 1 to 20 (as many boxes at most): every entity meets most
 * of the boxes (a cell's groups chained, the hits' scratch full within an entity's group),
 * entities with a negative or NaN radius among them; then more groups than a 4 x 4 grid has (20
 * boxes over every cell), which the other ways answer. */
static void test_query_boxes_groups(void) {
    float x[20], y[20], r[20];
    clv_aabb boxes[20];
    long wrong = 0, scenes = 0;
    const uint32_t capacities[] = {1, 2, 3, 5, 8, 9, 12, 20};
    for (unsigned c = 0; c < sizeof capacities / sizeof capacities[0]; c++) {
        const uint32_t cap = capacities[c];
        for (uint32_t side = 1; side <= 2; side++) {
            clv_grid_def def = {{0.0f, 0.0f}, 64.0f, side, side, cap};
            clv_grid *g = clv_grid_create(&def, NULL), *ref = clv_grid_create(&def, NULL);
            for (int scene = 0; scene < 40; scene++, scenes++) {
                const float room = 64.0f * (float)side;
                uint32_t n = 1u + rnd_u32() % cap, nq = 1u + rnd_u32() % cap;
                for (uint32_t i = 0; i < n; i++) {
                    x[i] = rnd_f(0.0f, room), y[i] = rnd_f(0.0f, room), r[i] = rnd_f(0.0f, 30.0f);
                    if (rnd_u32() % 8u == 0)
                        r[i] = rnd_u32() % 2u ? -2.0f : NAN;
                }
                for (uint32_t k = 0; k < nq; k++) {
                    float cx = rnd_f(0.0f, room), cy = rnd_f(0.0f, room);
                    float hw = rnd_f(10.0f, 70.0f), hh = rnd_f(10.0f, 70.0f);
                    boxes[k] = (clv_aabb){{cx - hw, cy - hh}, {cx + hw, cy + hh}};
                }
                wrong += boxes_mismatches(g, ref, boxes, nq, x, y, r, n);
            }
            clv_grid_destroy(g), clv_grid_destroy(ref);
        }
    }
    clv_grid_def def = {{0.0f, 0.0f}, 64.0f, 4u, 4u, 20u};
    clv_grid *g = clv_grid_create(&def, NULL), *ref = clv_grid_create(&def, NULL);
    for (uint32_t i = 0; i < 16; i++)
        x[i] = 16.0f + 64.0f * (float)(i % 4u), y[i] = 16.0f + 64.0f * (float)(i / 4u), r[i] = 4.0f;
    for (uint32_t k = 0; k < 20; k++)
        boxes[k] = (clv_aabb){{(float)k, 0.0f}, {256.0f, 256.0f - (float)k}};
    wrong += boxes_mismatches(g, ref, boxes, 20, x, y, r, 16);
    clv_grid_destroy(g), clv_grid_destroy(ref);
    printf("query_boxes, groups: %ld scenes, %ld mismatches\n", scenes, wrong);
    CHECK(wrong == 0);
}

/* A room of at most 256 cells whose boxes cover it twice over or more: every entity then meets
 * its cell's groups of boxes, without a bitmap of the sub-cells the boxes reach. Rooms of 1 x 1
 * to 16 x 16 cells (a row of sub-cells shorter and longer than a word), boxes from a few
 * sub-cells to the whole room and beyond it, some empty or NaN, as many as the grid's groups
 * hold and more; entities outside the room, on sub-cell edges, oversized, with a zero, negative
 * or NaN radius. Half the scenes have a few small boxes only, which cover less and mark their
 * sub-cells. Every scene gives the lists of a build followed by one query per box. */
static void test_query_boxes_covered_room(void) {
    enum { N = 600, BOXES = 80 };
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    float *r = malloc(N * sizeof(float));
    clv_aabb boxes[BOXES];
    long wrong = 0, scenes = 0;
    const uint32_t sides[] = {1, 3, 8, 13, 16};
    for (unsigned s = 0; s < sizeof sides / sizeof sides[0]; s++) {
        clv_grid_def def = {{-40.0f, 25.0f}, 64.0f, sides[s], sides[s], N};
        const float room = 64.0f * (float)sides[s], sub = 32.0f;
        clv_grid *g = clv_grid_create(&def, NULL), *ref = clv_grid_create(&def, NULL);
        for (int scene = 0; scene < 24; scene++, scenes++) {
            const bool few = scene % 2 == 1;
            const uint32_t n = 1u + rnd_u32() % N,
                           nq = few ? 1u + rnd_u32() % 4u : 1u + rnd_u32() % BOXES;
            for (uint32_t i = 0; i < n; i++) {
                x[i] = def.origin.x + rnd_f(-30.0f, room + 30.0f);
                y[i] = def.origin.y + rnd_f(-30.0f, room + 30.0f);
                r[i] = rnd_f(0.0f, 16.0f);
                uint32_t kind = rnd_u32() % 20u;
                if (kind == 0)
                    x[i] = def.origin.x + sub * (float)(rnd_u32() % (2u * sides[s] + 1u));
                if (kind == 1)
                    r[i] = rnd_f(64.5f, 200.0f); /* oversized */
                if (kind == 2)
                    r[i] = rnd_u32() % 2u ? -3.0f : NAN;
                if (kind == 3)
                    r[i] = 0.0f;
                if (kind == 4)
                    x[i] = def.origin.x + rnd_f(-500.0f, -100.0f); /* left of the room */
            }
            for (uint32_t k = 0; k < nq; k++) {
                float cx = def.origin.x + rnd_f(0.0f, room), cy = def.origin.y + rnd_f(0.0f, room);
                float hw = few ? rnd_f(0.0f, 8.0f) : rnd_f(8.0f, 0.6f * room + 8.0f);
                float hh = few ? rnd_f(0.0f, 8.0f) : rnd_f(8.0f, 0.6f * room + 8.0f);
                boxes[k] = (clv_aabb){{cx - hw, cy - hh}, {cx + hw, cy + hh}};
                uint32_t kind = rnd_u32() % 25u;
                if (kind == 0)
                    boxes[k].max.x = boxes[k].min.x - 1.0f; /* empty */
                if (kind == 1)
                    boxes[k].min.y = NAN;
                if (kind == 2) /* the whole room and beyond */
                    boxes[k] = (clv_aabb){{-1e6f, -1e6f}, {1e6f, 1e6f}};
            }
            wrong += boxes_mismatches(g, ref, boxes, nq, x, y, r, n);
        }
        clv_grid_destroy(g), clv_grid_destroy(ref);
    }
    printf("query_boxes, covered rooms: %ld scenes, %ld mismatches\n", scenes, wrong);
    CHECK(wrong == 0);
    free(x), free(y), free(r);
}

/* A thousand small boxes (thrown knives) over a crowd: boxes of one or two sub-cells a side take
 * a short way into the cells, and rows of 74 sub-cells put their pairs of bits across the
 * bitmap's words. Scenes where the boxes reach most of the room (the sub-cells' own bits read
 * eight at a time) and where they reach little; then a crowd of 1,000 whose grid has fewer
 * groups than the boxes reach cells, which the other ways answer. */
static void test_query_boxes_small_boxes(void) {
    enum { N = 4000, BOXES = 1000 };
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    float *r = malloc(N * sizeof(float));
    static clv_aabb boxes[BOXES];
    long wrong = 0, scenes = 0;
    const uint32_t capacities[] = {N, 1000u};
    for (unsigned c = 0; c < 2; c++) {
        clv_grid_def def = {{-37.0f, -11.0f}, 64.0f, 37u, 23u, capacities[c]};
        const float w = 37.0f * 64.0f, h = 23.0f * 64.0f, sub = 32.0f;
        clv_grid *g = clv_grid_create(&def, NULL), *ref = clv_grid_create(&def, NULL);
        for (int scene = 0; scene < 12; scene++, scenes++) {
            const uint32_t n = capacities[c], nq = scene % 3 == 2 ? 100u : BOXES;
            for (uint32_t i = 0; i < n; i++) {
                x[i] = def.origin.x + rnd_f(-20.0f, w + 20.0f);
                y[i] = def.origin.y + rnd_f(-20.0f, h + 20.0f);
                r[i] = rnd_f(0.0f, 12.0f);
                uint32_t kind = rnd_u32() % 16u;
                if (kind == 0)
                    x[i] = def.origin.x + sub * (float)(rnd_u32() % 75u); /* on a sub-cell edge */
                if (kind == 1 && rnd_u32() % 4u == 0)
                    r[i] = rnd_f(64.0f, 150.0f); /* oversized */
                if (kind == 2)
                    r[i] = rnd_u32() % 2u ? -1.0f : NAN;
            }
            for (uint32_t k = 0; k < nq; k++) {
                float cx = def.origin.x + rnd_f(0.0f, w), cy = def.origin.y + rnd_f(0.0f, h);
                if (rnd_u32() % 4u == 0) /* an edge on a sub-cell's, widened by the radius */
                    cx = def.origin.x + sub * (float)(rnd_u32() % 75u) - 12.0f;
                float hw = rnd_f(0.0f, 10.0f), hh = rnd_f(0.0f, 10.0f);
                if (rnd_u32() % 50u == 0)
                    hw = rnd_f(30.0f, 200.0f); /* a larger one among them */
                boxes[k] = (clv_aabb){{cx - hw, cy - hh}, {cx + hw, cy + hh}};
                if (rnd_u32() % 100u == 0)
                    boxes[k].max.y = boxes[k].min.y - 1.0f; /* empty */
            }
            wrong += boxes_mismatches(g, ref, boxes, nq, x, y, r, n);
        }
        clv_grid_destroy(g), clv_grid_destroy(ref);
    }
    printf("query_boxes, small boxes: %ld scenes, %ld mismatches\n", scenes, wrong);
    CHECK(wrong == 0);
    free(x), free(y), free(r);
}

/* clv_grid_query_boxes files the boxes with the last call's largest radius, then checks it:
 * an enemy whose radius grew since must still be found, and one that shrank lose nothing. */
static void test_query_boxes_radius_hint(void) {
    clv_grid_def def = scene_def(8);
    clv_grid *g = clv_grid_create(&def, NULL);
    const clv_aabb box = {{100.0f, 100.0f}, {110.0f, 110.0f}};
    float x[2] = {61.0f, 300.0f}, y[2] = {105.0f, 300.0f}, r[2] = {1.0f, 1.0f};
    uint32_t first[2], out[4];
    CHECK(clv_grid_query_boxes(g, &box, 1, x, y, r, 2, first, out, 4) == 0);
    r[0] = 40.0f; /* reaches x = 101 now, 39 px and more than a half-cell from its centre */
    CHECK(clv_grid_query_boxes(g, &box, 1, x, y, r, 2, first, out, 4) == 1);
    CHECK(out[0] == 0);
    CHECK(clv_grid_query_boxes(g, &box, 1, x, y, r, 2, first, out, 4) == 1);
    r[0] = 38.0f; /* short of it again: the wider hint must not make it a candidate */
    CHECK(clv_grid_query_boxes(g, &box, 1, x, y, r, 2, first, out, 4) == 0);
    clv_grid_destroy(g);
}

/* A box starting at +inf meets every entity whose y + r rounds up to +inf, in whatever row its
 * centre stands (the grid here reaches the largest float). */
static void test_query_boxes_overflow(void) {
    const float cell = 0x1p125f;
    clv_grid_def def = {{0.0f, FLT_MAX - 7.5f * cell}, cell, 1u, 8u, 4u};
    float last_row = def.origin.y + 7.0f * cell;
    const float x[2] = {0.0f, 0.0f}, y[2] = {FLT_MAX, nextafterf(last_row, 0.0f)};
    const float r[2] = {cell, cell};
    const clv_aabb box = {{-1.0f, INFINITY}, {1.0f, INFINITY}};
    clv_grid *g = clv_grid_create(&def, NULL);
    uint32_t out[4], first[2];
    CHECK(clv_grid_query_boxes(g, &box, 1, x, y, r, 2, first, out, 4) == 2);
    CHECK(out[0] == 0 && out[1] == 1);
    CHECK(clv_grid_build(g, x, y, r, 2));
    CHECK(clv_grid_query(g, box, out, 4) == 2);
    CHECK(out[0] == 0 && out[1] == 1);
    clv_grid_destroy(g);
}

static void test_errors(void) {
    clv_grid_def def = clv_grid_default_def();
    def.capacity = 4;
    clv_grid_def bad = def;
    bad.cell_size = 0.0f;
    CHECK(clv_grid_create(&bad, NULL) == NULL);
    CHECK(clv_grid_memory_size(&bad) == 0);
    bad = def;
    bad.cols = 0;
    CHECK(clv_grid_create(&bad, NULL) == NULL);
    bad = def;
    bad.origin.x = NAN;
    CHECK(clv_grid_create(&bad, NULL) == NULL);
    bad = def;
    bad.capacity = 0;
    CHECK(clv_grid_create(&bad, NULL) == NULL);
    bad = def;
    bad.cols = bad.rows = 1u << 13; /* 2^26 cells: too many */
    CHECK(clv_grid_create(&bad, NULL) == NULL);
    CHECK(clv_grid_create(NULL, NULL) == NULL);

    counter cnt = {0, 0, 0, 1};
    clv_allocator failing = {count_alloc, count_free, &cnt};
    CHECK(clv_grid_create(&def, &failing) == NULL);
    clv_grid_destroy(NULL);

    float x[5] = {1, 2, 3, 4, 5}, y[5] = {1, 2, 3, 4, 5}, r[5] = {1, 1, 1, 1, 1};
    uint32_t out[5];
    clv_grid *g = clv_grid_create(&def, NULL);
    CHECK(clv_grid_build(g, x, y, r, 4));
    CHECK(clv_grid_count(g) == 4);
    CHECK(!clv_grid_build(g, x, y, r, 5)); /* over capacity: refused, grid left empty */
    CHECK(clv_grid_count(g) == 0);
    clv_aabb all = {{-100.0f, -100.0f}, {100.0f, 100.0f}};
    CHECK(clv_grid_query(g, all, out, 5) == 0);
    CHECK(!clv_grid_build(g, NULL, y, r, 2));
    CHECK(clv_grid_build(g, NULL, NULL, NULL, 0));
    clv_grid_destroy(g);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_matches_brute_force);
    RUN(test_order_is_ascending_and_unique);
    RUN(test_cap_too_small_reports_count);
    RUN(test_query_boxes_matches_queries);
    RUN(test_query_boxes_edges);
    RUN(test_query_boxes_overflow);
    RUN(test_query_boxes_many_boxes);
    RUN(test_query_boxes_small_crowd);
    RUN(test_query_boxes_covered_room);
    RUN(test_query_boxes_groups);
    RUN(test_query_boxes_small_boxes);
    RUN(test_query_boxes_radius_hint);
    RUN(test_query_boxes_block_borders);
    RUN(test_errors);
    return clv_test_report();
}
