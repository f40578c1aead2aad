/* The sub-cells clv_grid_query_boxes files a box under (box_cells, four bounds at once) against
 * the same bounds widened one at a time as a query widens them (widened, sub_col, sub_row): the
 * same answer for every box, bounds on sub-cell borders, huge, infinite and NaN ones included.
 * The grid's sources are compiled into this test to reach these functions. */
#include "broadphase.c"
#include "broadphase_file.c"

#include <stdio.h>

#include "harness.h"

static uint64_t rng_state = 0x243f6a8885a308d3u;

static uint32_t rnd_u32(void) { return clv_test_splitmix32(&rng_state); }

/* A bound: on a sub-cell border, near the grid, huge, or one of the special floats. */
static float rnd_bound(const clv_grid *g) {
    const float sub = g->def.cell_size / (float)(1u << g->sub_shift);
    const float span = sub * (float)(g->def.cols << g->sub_shift);
    switch (rnd_u32() % 8u) {
    case 0:
    case 1:
        return g->def.origin.x + sub * (float)((int32_t)(rnd_u32() % 80u) - 8);
    case 2:
    case 3:
        return g->def.origin.x + span * ((float)rnd_u32() * 0x1p-32f * 1.2f - 0.1f);
    case 4:
        return ldexpf((float)rnd_u32() * 0x1p-32f - 0.5f, (int)(rnd_u32() % 256u) - 128);
    case 5: {
        const float special[] = {INFINITY, -INFINITY, NAN, 0.0f, -0.0f, FLT_MAX, -FLT_MAX};
        return special[rnd_u32() % 7u];
    }
    default:
        return g->def.origin.x + sub * (float)(rnd_u32() % 64u) + (float)(rnd_u32() % 3u) - 1.0f;
    }
}

static void test_box_cells_match_widened(void) {
    const clv_grid_def defs[] = {{{0.0f, 0.0f}, 64.0f, 13u, 13u, 16u},
                                 {{-500.0f, -500.0f}, 48.0f, 40u, 40u, 16u},
                                 {{-3.0f, -3.0f}, 0.375f, 64u, 64u, 16u},
                                 {{0.0f, FLT_MAX - 7.5f * 0x1p125f}, 0x1p125f, 8u, 8u, 4u}};
    const float ws[] = {0.0f, 0.001f, 16.0f, 64.0f, 1e30f};
    long checked = 0, wrong = 0, filed = 0;
    for (unsigned d = 0; d < sizeof defs / sizeof defs[0]; d++) {
        clv_grid *g = clv_grid_create(&defs[d], NULL);
        for (int k = 0; k < 50000; k++) {
            clv_aabb q = {{rnd_bound(g), rnd_bound(g)}, {rnd_bound(g), rnd_bound(g)}};
            if (rnd_u32() % 2u && q.min.x > q.max.x) {
                float t = q.min.x;
                q.min.x = q.max.x, q.max.x = t;
            }
            if (rnd_u32() % 2u && q.min.y > q.max.y) {
                float t = q.min.y;
                q.min.y = q.max.y, q.max.y = t;
            }
            const float w = ws[rnd_u32() % 5u];
            uint32_t c0 = 0, c1 = 0, r0 = 0, r1 = 0;
            const bool got = box_cells(g, q, w, &c0, &c1, &r0, &r1);
            clv_aabb wide;
            const bool want = widened(q, w, &wide);
            checked++;
            filed += want;
            wrong += got != want;
            if (got && want) {
                wrong += c0 != (uint32_t)(int32_t)sub_col(g, wide.min.x) ||
                         c1 != (uint32_t)(int32_t)sub_col(g, wide.max.x) ||
                         r0 != (uint32_t)(int32_t)sub_row(g, wide.min.y) ||
                         r1 != (uint32_t)(int32_t)sub_row(g, wide.max.y);
            }
        }
        clv_grid_destroy(g);
    }
    printf("box_cells: %ld boxes, %ld filed, %ld differ from widened\n", checked, filed, wrong);
    CHECK(wrong == 0);
    CHECK(filed > checked / 4);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_box_cells_match_widened);
    return clv_test_report();
}
