/* The grid's layout and the candidate rule, shared by its two sources: broadphase.c (the
 * grid, its build and one query at a time) and broadphase_boxes.c (many boxes at once). */
#ifndef CLV_BROADPHASE_INTERNAL_H
#define CLV_BROADPHASE_INTERNAL_H

#include "cleave/broadphase.h"
#include "internal.h"

#include <float.h>

/* clv_grid_query_boxes finds eight entities' sub-cells at once with AVX2 where the processor has
 * it, chosen at run time: the library itself is built for SSE2. CLV_GRID_NO_AVX2 builds without
 * that path (a test builds it so too, to check the other). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(CLV_GRID_NO_AVX2)
#define CLV_GRID_AVX2 1
#include <immintrin.h>
#endif

/* How far ahead (in entities) the sub-cell pass asks for the arrays: 8 KB per array. */
#define CLV_GRID_PREFETCH 2048u

/* Up to eight boxes that reach one cell, their bounds side by side so that an entity meets all
 * of them in one vector test (lanes past fill are dropped from its answer). A cell reached by
 * more boxes chains further groups through next. */
enum { CLV_GROUP_LANES = 8 };
typedef struct clv_box_group {
    float min_x[CLV_GROUP_LANES], min_y[CLV_GROUP_LANES];
    float max_x[CLV_GROUP_LANES], max_y[CLV_GROUP_LANES];
    uint32_t box[CLV_GROUP_LANES];
    uint32_t next; /* the cell's next group, or CLV_NO_GROUP */
    uint32_t fill;
} clv_box_group;
#define CLV_NO_GROUP UINT32_MAX

/* Groups of boxes for a crowd of up to this many entities. A group is three cache lines where
 * a word of boxes is a fraction of one; a larger crowd streams enough memory between two frames
 * to push the groups out of the caches, and their misses cost more than the vector test saves
 * (measured: 0.47 of the words' time at 1,000 entities, 0.83 at 10,000, 1.0 at 30,000, 1.03 at
 * 100,000 and 1.04 at 1,000,000, under 64 boxes). */
#define CLV_GROUPS_MAX_COUNT 32768u

struct clv_grid {
    clv_grid_def def;
    clv_allocator alloc;
    size_t bytes;
    float inv_cell;
    float max_col, max_row; /* cols - 1 and rows - 1, as floats for the clamp */
    uint32_t buckets;       /* cols * rows cells, plus one bucket for oversized entities */
    uint32_t count;
    float rmax; /* largest radius filed under a cell (oversized ones excluded) */
    /* start[b + 1] is where bucket b begins in entries once the build is done. */
    uint32_t *start;
    clv_grid_entry *entries;
    uint32_t *scratch; /* the build's cell of each entity; a query's sort buffer */
    /* clv_grid_query_boxes: sub-cells of side cell_size >> sub_shift, and their bitmap */
    uint32_t sub_shift, sub_big; /* sub_big: the sub-cell of oversized entities */
    /* the row of sub-cell s is (s * sub_magic) >> sub_magic_shift: a division, without one */
    uint64_t sub_magic;
    uint32_t sub_magic_shift;
    float sub_inv, sub_max_col, sub_max_row;
    size_t sub_words, cell_words;
    uint64_t *occ;
    uint8_t *ids; /* per cell, when use_ids: see CLV_MARK_SHARED */
    bool use_ids;
    clv_box_group *groups; /* max_groups of them, for clv_grid_query_boxes */
    uint32_t max_groups;
    float w_hint; /* the largest radius of the last clv_grid_query_boxes, or -1 */
    bool avx2;    /* the processor runs coarse_candidates */
    /* A coarse copy of the sub-cells' bitmap, 32 x 32 blocks of 2^coarse_shift sub-cells on a
     * side: bit c of coarse[r] is set when a box reaches block (c, r). */
    uint32_t coarse_shift;
    uint32_t coarse[32];
};

/* The candidate rule of every query: the entity's square [x - r, x + r] x [y - r, y + r] meets
 * the closed box q. An empty box (min > max) and an entity whose radius is negative or NaN
 * meet nothing. */
static inline bool square_meets(float x, float y, float r, const clv_aabb *q) {
    return (x - r <= q->max.x) & (x + r >= q->min.x) & (y - r <= q->max.y) & (y + r >= q->min.y) &
           (q->min.x <= q->max.x) & (q->min.y <= q->max.y) & (r >= 0.0f);
}

/* A bound held within the finite floats (NaN stays NaN). */
static inline float finite_bound(float v) {
    return v < -FLT_MAX ? -FLT_MAX : (v > FLT_MAX ? FLT_MAX : v);
}

/* q widened by w >= 0 (finite) on every side, then moved out by 2^-20 of each bound's
 * magnitude, so that rounding in the widened bounds can never leave out a cell whose entity
 * passes the square test. An infinite bound is first held at the largest float: an entity
 * whose y + r rounds up to +inf meets a box starting at +inf, and its centre is then within
 * w of FLT_MAX, not at infinity. The margin is a product, so a bound that overflows stays
 * infinite (a sum would make NaN of it). false for an empty or NaN box, which meets nothing. */
static inline bool widened(clv_aabb q, float w, clv_aabb *out) {
    const float up = 1.0f + 0x1p-20f, down = 1.0f - 0x1p-20f;
    float lox = finite_bound(q.min.x) - w, loy = finite_bound(q.min.y) - w;
    float hix = finite_bound(q.max.x) + w, hiy = finite_bound(q.max.y) + w;
    out->min.x = lox * (lox < 0.0f ? up : down);
    out->min.y = loy * (loy < 0.0f ? up : down);
    out->max.x = hix * (hix > 0.0f ? up : down);
    out->max.y = hiy * (hiy > 0.0f ? up : down);
    return (q.min.x <= q.max.x) & (q.min.y <= q.max.y) & (out->min.x <= out->max.x) &
           (out->min.y <= out->max.y);
}

#endif
