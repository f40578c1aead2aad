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

/* A room of up to this many cells, when the boxes are at least a quarter as many, gets an empty
 * group in every cell before they are filed: no cell's first box then asks whether it is the
 * first, an unpredictable question where boxes overlap (broadphase_file.c). */
#define CLV_GROUPS_ROOM 256u

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

/* ---- shared by the two halves of clv_grid_query_boxes (broadphase_boxes.c, broadphase_file.c)
 * ---- */

/* A cell's id: 0 where no box reaches, k + 1 where box k alone does (with fewer boxes than
 * this), CLV_MARK_SHARED where several do: its entities then read the cell's box list. */
enum { CLV_MARK_SHARED = 255 };

/* Up to this many boxes, each reached cell names its boxes in one word, a bit per box. */
#define CLV_MASK_BOXES 64u

typedef struct box_lists {
    const clv_aabb *boxes;
    uint32_t nq;
    const uint32_t *list;  /* per touched cell: length, then box numbers ascending */
    const uint32_t *every; /* boxes tested against every entity, ascending */
    uint32_t n_every;
    const uint64_t *masks; /* or, when not NULL: the boxes of reached cell c in masks[start[c]] */
    uint64_t *pairs;       /* the hits' scratch, of room slots: what entries[] has left */
    uint32_t room;
    const clv_box_group *groups; /* or, when not NULL: the boxes of reached cell c in groups
                                  * start[c], next, ... */
    bool test_all; /* with groups: every cell has its groups, no sub-cell is marked, and every
                    * entity meets its cell's groups */
} box_lists;

static inline bool bit_of(const uint64_t *bits, uint32_t i) {
    return (bits[i >> 6] >> (i & 63u)) & 1u;
}

static inline void set_bits(uint64_t *bits, uint32_t lo, uint32_t hi) { /* [lo, hi], lo <= hi */
    uint32_t wl = lo >> 6, wh = hi >> 6;
    uint64_t ml = ~(uint64_t)0 << (lo & 63u), mh = ~(uint64_t)0 >> (63u - (hi & 63u));
    if (wl == wh) {
        bits[wl] |= ml & mh;
        return;
    }
    bits[wl] |= ml;
    for (uint32_t k = wl + 1u; k < wh; k++) {
        bits[k] = ~(uint64_t)0;
    }
    bits[wh] |= mh;
}

static inline void set_bit(uint64_t *bits, uint32_t i) { bits[i >> 6] |= (uint64_t)1 << (i & 63u); }

/* Sub-cell column and row of a point, clamped: a NaN lands in 0. */
static inline float sub_col(const clv_grid *g, float x) {
    float f = (x - g->def.origin.x) * g->sub_inv;
    f = clv_selectf(f > 0.0f, f, 0.0f);
    return clv_selectf(f < g->sub_max_col, f, g->sub_max_col);
}

static inline float sub_row(const clv_grid *g, float y) {
    float f = (y - g->def.origin.y) * g->sub_inv;
    f = clv_selectf(f > 0.0f, f, 0.0f);
    return clv_selectf(f < g->sub_max_row, f, g->sub_max_row);
}

/* Files the boxes, widened by w, for a crowd of count entities: in groups for a small crowd
 * when they fit, else in words of boxes when they fit, else in lists (broadphase_file.c);
 * with groups_only, in groups or not at all (pairs is then NULL). first[k + 1] is left 1 for a
 * filed box, 2 for one tested against every entity, 0 for an empty one. */
box_lists clv__grid_file_boxes(clv_grid *g, const clv_aabb *boxes, uint32_t nq, float w,
                               uint32_t count, uint32_t *first, bool groups_only);

#endif
