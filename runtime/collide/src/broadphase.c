/* The uniform grid, rebuilt every frame by a counting sort (see cleave/broadphase.h). */
#include "cleave/broadphase.h"
#include "internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A record is scattered in one 16-byte store: four separate arrays scattered slower. */
_Static_assert(sizeof(clv_grid_entry) == 16, "a grid entry must pack into 16 bytes");

/* Beyond this many cells the counts no longer fit comfortably in cache, and a float cell
 * coordinate stops being exact. */
#define CLV_GRID_MAX_CELLS ((uint64_t)1 << 24)
#define CLV_GRID_MAX_CAPACITY ((uint32_t)1 << 30)

/* Candidate lists up to this length are sorted by insertion; longer ones by radix. */
#define CLV_GRID_SMALL_SORT 32

/* clv_grid_query_boxes tests an entity's centre against 2 x 2 sub-cells per cell. */
#define CLV_GRID_SUB_SHIFT 1u

/* clv_grid_query_boxes names a cell's lone box in a byte per cell up to this many cells (a
 * larger grid would spend more on those bytes than on the rest of its queries' scratch); a
 * larger grid lists every box per cell, as if all were shared (CLV_MARK_SHARED). */
#define CLV_GRID_IDS_MAX_CELLS ((uint64_t)1 << 20)

/* How far ahead (in entities) the sub-cell pass asks for the arrays: 8 KB per array. */
#define CLV_GRID_PREFETCH 2048u

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
    float sub_inv, sub_max_col, sub_max_row;
    size_t sub_words, cell_words;
    uint64_t *occ;
    uint8_t *ids; /* per cell, when use_ids: see CLV_MARK_SHARED */
    bool use_ids;
    float w_hint; /* the largest radius of the last clv_grid_query_boxes, or -1 */
};

static size_t round_up16(size_t n) { return (n + 15u) & ~(size_t)15u; }

static bool def_valid(const clv_grid_def *def) {
    if (def == NULL) {
        return false;
    }
    bool finite = isfinite(def->origin.x) && isfinite(def->origin.y) && isfinite(def->cell_size);
    return finite && def->cell_size > 0.0f && def->cols >= 1 && def->rows >= 1 &&
           (uint64_t)def->cols * def->rows <= CLV_GRID_MAX_CELLS && def->capacity >= 1 &&
           def->capacity <= CLV_GRID_MAX_CAPACITY && isfinite(1.0f / def->cell_size);
}

/* Sub-cells stay below 2^24 too (a float sub-cell coordinate must be exact): a grid of more
 * than 2^22 cells tests whole cells. */
static uint32_t sub_shift_of(const clv_grid_def *def) {
    return ((uint64_t)def->cols * def->rows << (2u * CLV_GRID_SUB_SHIFT)) <= CLV_GRID_MAX_CELLS
               ? CLV_GRID_SUB_SHIFT
               : 0u;
}

static size_t words_of(uint64_t bits) { return (size_t)((bits + 63u) / 64u); }

/* The sub-cells' bitmap (one bit per sub-cell and one for sub_big, the sub-cell of oversized
 * entities) and each of the cells' two bitmaps ("reached", "touched"), in 64-bit words. */
static void bitmap_words(const clv_grid_def *def, uint32_t *sub_big, size_t *sub_words,
                         size_t *cell_words) {
    uint64_t cells = (uint64_t)def->cols * def->rows;
    *sub_big = (uint32_t)(cells << (2u * sub_shift_of(def)));
    *sub_words = words_of((uint64_t)*sub_big + 1u);
    *cell_words = words_of(cells);
}

/* Layout of the single block: the struct, start[], entries[], scratch[], the bitmaps (sub-cells,
 * then two of cells), then a byte per cell. */
static size_t layout(const clv_grid_def *def, size_t *off_start, size_t *off_entries,
                     size_t *off_scratch, size_t *off_occ, size_t *off_ids) {
    size_t buckets = (size_t)def->cols * def->rows + 1u, sub_words, cell_words;
    uint32_t sub_big;
    bitmap_words(def, &sub_big, &sub_words, &cell_words);
    *off_start = round_up16(sizeof(clv_grid));
    *off_entries = round_up16(*off_start + (buckets + 2u) * sizeof(uint32_t));
    *off_scratch = round_up16(*off_entries + (size_t)def->capacity * sizeof(clv_grid_entry));
    *off_occ = round_up16(*off_scratch + (size_t)def->capacity * sizeof(uint32_t));
    *off_ids = *off_occ + (sub_words + 2u * cell_words) * sizeof(uint64_t);
    return round_up16(*off_ids + (buckets - 1u <= CLV_GRID_IDS_MAX_CELLS ? buckets : 0u));
}

clv_grid_def clv_grid_default_def(void) {
    clv_grid_def def = {{0.0f, 0.0f}, 64.0f, 64u, 64u, 4096u};
    return def;
}

size_t clv_grid_memory_size(const clv_grid_def *def) {
    if (!def_valid(def)) {
        return 0;
    }
    size_t a, b, c, d, e;
    return layout(def, &a, &b, &c, &d, &e);
}

static void *default_alloc(size_t size, void *ctx) {
    (void)ctx;
    return malloc(size);
}

static void default_free(void *ptr, size_t size, void *ctx) {
    (void)size;
    (void)ctx;
    free(ptr);
}

clv_grid *clv_grid_create(const clv_grid_def *def, const clv_allocator *alloc) {
    if (!def_valid(def)) {
        return NULL;
    }
    clv_allocator hook = {default_alloc, default_free, NULL};
    if (alloc != NULL && alloc->alloc != NULL && alloc->free != NULL) {
        hook = *alloc;
    }
    size_t off_start, off_entries, off_scratch, off_occ, off_ids;
    size_t bytes = layout(def, &off_start, &off_entries, &off_scratch, &off_occ, &off_ids);
    unsigned char *block = hook.alloc(bytes, hook.ctx);
    if (block == NULL) {
        return NULL;
    }
    clv_grid *g = (clv_grid *)(void *)block;
    g->def = *def;
    g->alloc = hook;
    g->bytes = bytes;
    g->inv_cell = 1.0f / def->cell_size;
    g->max_col = (float)(def->cols - 1u);
    g->max_row = (float)(def->rows - 1u);
    g->buckets = def->cols * def->rows + 1u;
    g->count = 0;
    g->rmax = 0.0f;
    g->start = (uint32_t *)(void *)(block + off_start);
    g->entries = (clv_grid_entry *)(void *)(block + off_entries);
    g->scratch = (uint32_t *)(void *)(block + off_scratch);
    g->sub_shift = sub_shift_of(def);
    g->sub_inv = g->inv_cell * (float)(1u << g->sub_shift);
    g->sub_max_col = (float)((def->cols << g->sub_shift) - 1u);
    g->sub_max_row = (float)((def->rows << g->sub_shift) - 1u);
    bitmap_words(def, &g->sub_big, &g->sub_words, &g->cell_words);
    g->occ = (uint64_t *)(void *)(block + off_occ);
    g->ids = block + off_ids;
    g->use_ids = (uint64_t)def->cols * def->rows <= CLV_GRID_IDS_MAX_CELLS;
    g->w_hint = -1.0f;
    memset(g->start, 0, (g->buckets + 2u) * sizeof(uint32_t));
    return g;
}

void clv_grid_destroy(clv_grid *grid) {
    if (grid == NULL) {
        return;
    }
    clv_allocator hook = grid->alloc;
    hook.free(grid, grid->bytes, hook.ctx);
}

uint32_t clv_grid_count(const clv_grid *grid) { return grid->count; }

/* Column of world x, clamped to the grid. The compare-selects compile to maxss/minss; a NaN
 * lands in column 0 rather than becoming an undefined conversion. */
static inline uint32_t col_of(const clv_grid *g, float x) {
    float f = (x - g->def.origin.x) * g->inv_cell;
    f = f > 0.0f ? f : 0.0f;
    f = f < g->max_col ? f : g->max_col;
    return (uint32_t)f;
}

static inline uint32_t row_of(const clv_grid *g, float y) {
    float f = (y - g->def.origin.y) * g->inv_cell;
    f = f > 0.0f ? f : 0.0f;
    f = f < g->max_row ? f : g->max_row;
    return (uint32_t)f;
}

bool clv_grid_build(clv_grid *grid, const float *x, const float *y, const float *r,
                    uint32_t count) {
    clv_grid *g = grid;
    uint32_t *start = g->start;
    uint32_t *cell = g->scratch;
    const uint32_t big = g->buckets - 1u;
    memset(start, 0, (g->buckets + 2u) * sizeof(uint32_t));
    g->count = 0;
    g->rmax = 0.0f;
    if (count > g->def.capacity || (count > 0 && (x == NULL || y == NULL || r == NULL))) {
        return false;
    }

    /* Count: start[b + 2] holds bucket b's size, so that after the prefix sum start[b + 1]
     * is b's first slot and the scatter can advance it to b's end (= b + 1's begin). */
    const uint32_t cols = g->def.cols;
    const float cell_size = g->def.cell_size, inv = g->inv_cell;
    const float ox = g->def.origin.x, oy = g->def.origin.y;
    const float max_col = g->max_col, max_row = g->max_row;
    /* The cells first, in a loop of selects only, which gcc vectorizes; then the counts. */
    /* rmax as the largest bit pattern: for floats >= 0 the order of the bits is the order of
     * the values, and an integer max reduction vectorizes. */
    uint32_t rmax_bits = 0;
    for (uint32_t i = 0; i < count; i++) {
        float fx = (x[i] - ox) * inv, fy = (y[i] - oy) * inv;
        fx = clv_selectf(fx > 0.0f, fx, 0.0f);
        fx = clv_selectf(fx < max_col, fx, max_col);
        fy = clv_selectf(fy > 0.0f, fy, 0.0f);
        fy = clv_selectf(fy < max_row, fy, max_row);
        uint32_t c = (uint32_t)(int32_t)fy * cols + (uint32_t)(int32_t)fx;
        /* Aside too: a negative or NaN radius, which meets nothing and must not widen the
         * queries. */
        uint32_t m = 0u - (uint32_t) !((r[i] >= 0.0f) & (r[i] <= cell_size));
        cell[i] = (big & m) | (c & ~m);
        uint32_t rb;
        memcpy(&rb, &r[i], sizeof rb);
        rb &= 0x7fffffffu & ~m;
        rmax_bits = rb > rmax_bits ? rb : rmax_bits;
    }
    float rmax;
    memcpy(&rmax, &rmax_bits, sizeof rmax);
    for (uint32_t i = 0; i < count; i++) {
        start[cell[i] + 2u]++;
    }
    /* The running sum stays in a register: summing in place would chain every bucket through
     * a store and a reload. */
    const uint32_t end = g->buckets + 2u;
    uint32_t sum = 0;
    for (uint32_t b = 2; b < end; b++) {
        sum += start[b];
        start[b] = sum;
    }

    /* Scatter in index order: each bucket's slice stays sorted by index. */
    clv_grid_entry *entries = g->entries;
    for (uint32_t i = 0; i < count; i++) {
        clv_grid_entry e = {x[i], y[i], r[i], i};
        entries[start[cell[i] + 1u]++] = e;
    }
    g->count = count;
    g->rmax = rmax;
    return true;
}

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
static bool widened(clv_aabb q, float w, clv_aabb *out) {
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

/* Appends the ids of entries[lo..hi) whose square meets q; the push has no branch. */
static inline uint32_t scan(const clv_grid_entry *entries, uint32_t lo, uint32_t hi, clv_aabb q,
                            uint32_t *out, uint32_t n) {
    for (uint32_t k = lo; k < hi; k++) {
        clv_grid_entry e = entries[k];
        out[n] = e.id;
        n += (uint32_t)square_meets(e.x, e.y, e.r, &q);
    }
    return n;
}

static inline uint32_t count_hits(const clv_grid_entry *entries, uint32_t lo, uint32_t hi,
                                  clv_aabb q) {
    uint32_t n = 0;
    for (uint32_t k = lo; k < hi; k++) {
        clv_grid_entry e = entries[k];
        n += (uint32_t)square_meets(e.x, e.y, e.r, &q);
    }
    return n;
}

static void insertion_sort(uint32_t *a, uint32_t n) {
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = a[i], j = i;
        while (j > 0 && a[j - 1u] > v) {
            a[j] = a[j - 1u];
            j--;
        }
        a[j] = v;
    }
}

/* LSD radix sort on 8-bit digits, only as many digits as the largest id needs. */
static void radix_sort(uint32_t *a, uint32_t n, uint32_t *tmp) {
    uint32_t maxv = 0;
    for (uint32_t i = 0; i < n; i++) {
        maxv = a[i] > maxv ? a[i] : maxv;
    }
    uint32_t *src = a, *dst = tmp;
    for (uint32_t shift = 0; shift < 32u && (maxv >> shift) != 0u; shift += 8u) {
        uint32_t hist[257];
        memset(hist, 0, sizeof hist);
        for (uint32_t i = 0; i < n; i++) {
            hist[((src[i] >> shift) & 255u) + 1u]++;
        }
        for (uint32_t d = 1; d < 257u; d++) {
            hist[d] += hist[d - 1u];
        }
        for (uint32_t i = 0; i < n; i++) {
            dst[hist[(src[i] >> shift) & 255u]++] = src[i];
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) {
        memcpy(a, src, (size_t)n * sizeof(uint32_t));
    }
}

uint32_t clv_grid_query(clv_grid *grid, clv_aabb box, uint32_t *out, uint32_t cap) {
    const clv_grid *g = grid;
    if (g->count == 0) {
        return 0;
    }
    clv_aabb wide;
    if (!widened(box, g->rmax, &wide)) {
        return 0;
    }
    uint32_t c0 = col_of(g, wide.min.x), c1 = col_of(g, wide.max.x);
    uint32_t r0 = row_of(g, wide.min.y), r1 = row_of(g, wide.max.y);
    const uint32_t cols = g->def.cols;
    const uint32_t *start = g->start;
    const clv_grid_entry *entries = g->entries;

    uint32_t n = 0;
    bool fits = true;
    for (uint32_t row = r0; row <= r1; row++) {
        /* The cells c0..c1 of one row are one contiguous slice of entries. */
        uint32_t lo = start[row * cols + c0], hi = start[row * cols + c1 + 1u];
        if (fits && n + (hi - lo) <= cap) {
            n = scan(entries, lo, hi, box, out, n);
        } else {
            fits = false;
            n += count_hits(entries, lo, hi, box);
        }
    }
    uint32_t big = g->buckets - 1u;
    uint32_t lo = start[big], hi = start[big + 1u];
    if (fits && n + (hi - lo) <= cap) {
        n = scan(entries, lo, hi, box, out, n);
    } else {
        fits = false;
        n += count_hits(entries, lo, hi, box);
    }
    if (!fits || n > cap) {
        return n;
    }
    if (n <= CLV_GRID_SMALL_SORT) {
        insertion_sort(out, n);
    } else {
        radix_sort(out, n, grid->scratch);
    }
    return n;
}

/* ---- Many boxes against the entities: the boxes go into the cells, the entities stream. ----
 *
 * Each entity gets a sub-cell (2 x 2 per cell, see sub_shift_of); w is the largest radius up to
 * the cell size, and an entity with a larger (or NaN) radius is "oversized", gets the extra
 * sub-cell sub_big, and is tested against every box. Each box, widened by w and by a query's
 * rounding margin, marks the sub-cells it covers in a bitmap, and each cell it covers either
 * names it (the first box to reach the cell) or, once a second box arrives, gets a list of its
 * boxes. An entity whose square meets a box has its centre in that widened box, so in one of
 * those sub-cells and cells: the same monotone, clamped coordinates serve both sides, and a
 * cell's column is its sub-cells' column shifted right. Then one bit test per entity; only the
 * few whose bit is set look at their cell's box. The boxes are filed before the entities are
 * read, with the last call's w as a hint (see clv_grid_query_boxes).
 *
 * Scratch, all inside the grid: scratch[] the entities' sub-cells; occ[] the sub-cell bits,
 * then a "touched" (listed) and a "reached" bit per cell; ids[] a byte per cell; the first half
 * of entries[] the box lists (start[c] of a touched cell is where its list begins, preceded by
 * its length; boxes tested against every entity at the back); the second half first the
 * touched cells, then the (box, entity) hits in entity order, which a counting sort by box
 * turns into per-box ascending lists. */

enum { CLV_PICK_BLOCK = 256 };

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
} box_lists;

static inline bool bit_of(const uint64_t *bits, uint32_t i) {
    return (bits[i >> 6] >> (i & 63u)) & 1u;
}

static void set_bits(uint64_t *bits, uint32_t lo, uint32_t hi) { /* [lo, hi], lo <= hi */
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

/* n + bit i of bits. gcc turns the shift by a variable into three micro-ops on x86-64 (a shift
 * by cl merges the flags); bt and adc take one each, and this is the loop every entity goes
 * through: 4-7% off the whole of clv_grid_query_boxes at 10k and 100k entities. */
static inline uint32_t add_bit(uint32_t n, const uint64_t *bits, uint32_t i) {
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__("btq %2, %1\n\tadcl $0, %0" : "+r"(n) : "r"(bits[i >> 6]), "r"((uint64_t)i) : "cc");
    return n;
#else
    return n + (uint32_t)bit_of(bits, i);
#endif
}

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

/* Records the pair (box q, entity i) when hit is true. A miss is written to the next free
 * slot, which the next hit overwrites; once the scratch is full nothing is written, or a miss
 * would overwrite the last hit. */
static inline uint32_t push_pair(uint64_t *pairs, uint32_t room, uint32_t n, uint32_t q, uint32_t i,
                                 bool hit) {
    if (n < room) {
        pairs[n] = (uint64_t)q << 32 | i;
    }
    return n + (uint32_t)hit;
}

/* The hits of entity i, in ascending box order as box-by-box queries would meet them: the box
 * that alone reaches its cell, or the cell's list when several do, merged with the boxes
 * filed for every entity; all boxes when it is oversized. */
static uint32_t entity_hits(const clv_grid *g, const box_lists *b, float ex, float ey, float er,
                            uint32_t i, uint64_t *pairs, uint32_t room, uint32_t n) {
    const uint32_t s = g->scratch[i];
    if (s == g->sub_big) {
        for (uint32_t q = 0; q < b->nq; q++) {
            n = push_pair(pairs, room, n, q, i, square_meets(ex, ey, er, &b->boxes[q]));
        }
        return n;
    }
    /* The box of its cell, or the cell's list; none when the bit is unset, which happens only
     * when every entity is tested (boxes in every[]). */
    uint32_t one = 0u, na = 0u;
    const uint32_t *a = &one;
    if (bit_of(g->occ, s)) {
        const uint32_t shift = g->sub_shift, sub_cols = g->def.cols << shift;
        const uint32_t c = (s / sub_cols >> shift) * g->def.cols + (s % sub_cols >> shift);
        const uint32_t m = g->use_ids ? g->ids[c] : CLV_MARK_SHARED;
        if (m == CLV_MARK_SHARED) {
            a = b->list + g->start[c];
            na = a[-1];
        } else {
            one = m - 1u, na = 1u;
        }
    }
    if (b->n_every == 0) {
        for (uint32_t ia = 0; ia < na; ia++) {
            n = push_pair(pairs, room, n, a[ia], i, square_meets(ex, ey, er, &b->boxes[a[ia]]));
        }
        return n;
    }
    for (uint32_t ia = 0, ie = 0; ia < na || ie < b->n_every;) {
        bool from_a = ie == b->n_every || (ia < na && a[ia] < b->every[ie]);
        uint32_t q = from_a ? a[ia++] : b->every[ie++];
        n = push_pair(pairs, room, n, q, i, square_meets(ex, ey, er, &b->boxes[q]));
    }
    return n;
}

/* The position of the lowest set bit of m != 0. */
static inline uint32_t lowest_bit(uint64_t m) {
#if defined(__GNUC__)
    return (uint32_t)__builtin_ctzll(m);
#else
    uint32_t k = 0;
    for (; (m & 1u) == 0; m >>= 1, k++) {
    }
    return k;
#endif
}

/* The hits of entity i when each cell has a word of boxes: its bits in ascending order, all
 * boxes when it is oversized. Neither a list to walk nor a merge. */
static uint32_t entity_mask_hits(const clv_grid *g, const box_lists *b, float ex, float ey,
                                 float er, uint32_t i, uint64_t *pairs, uint32_t room, uint32_t n) {
    const uint32_t s = g->scratch[i];
    uint64_t m;
    if (s == g->sub_big) {
        m = b->nq == CLV_MASK_BOXES ? ~(uint64_t)0 : ((uint64_t)1 << b->nq) - 1u;
    } else {
        const uint32_t shift = g->sub_shift, sub_cols = g->def.cols << shift;
        const uint32_t c = (s / sub_cols >> shift) * g->def.cols + (s % sub_cols >> shift);
        m = b->masks[g->start[c]];
    }
    for (; m != 0; m &= m - 1u) {
        const uint32_t q = lowest_bit(m);
        n = push_pair(pairs, room, n, q, i, square_meets(ex, ey, er, &b->boxes[q]));
    }
    return n;
}

/* Hits (box << 32 | entity) into per-box lists: with out NULL, first[k + 1] counts box k's
 * hits; otherwise first[k + 1] is box k's next slot in out. */
static void flush_pairs(const uint64_t *pairs, uint32_t n, uint32_t *first, uint32_t *out) {
    if (out == NULL) {
        for (uint32_t j = 0; j < n; j++) {
            first[(pairs[j] >> 32) + 1u]++;
        }
        return;
    }
    for (uint32_t j = 0; j < n; j++) {
        out[first[(pairs[j] >> 32) + 1u]++] = (uint32_t)pairs[j];
    }
}

/* The sub-cell of each entity in [lo, hi) into scratch[]; returns the largest of their radii up
 * to the cell size. count bounds the prefetch. */
static float entity_cells(const clv_grid *g, const float *x, const float *y, const float *r,
                          uint32_t lo, uint32_t hi, uint32_t count) {
    const float sub_cols = (float)(g->def.cols << g->sub_shift), cell_size = g->def.cell_size;
    const uint32_t sub_big = g->sub_big;
    uint32_t *sub = g->scratch;
    uint32_t i = lo;
    float w = 0.0f;
#if defined(__SSE2__) || defined(_M_X64)
    /* The same arithmetic as the scalar loop below (sub_col, sub_row), four entities per step:
     * max/min clamp a NaN to 0 as the selects do, since maxps answers its second operand for
     * a NaN. */
    const __m128 vox = _mm_set1_ps(g->def.origin.x), voy = _mm_set1_ps(g->def.origin.y);
    const __m128 vinv = _mm_set1_ps(g->sub_inv), zero = _mm_setzero_ps();
    const __m128 vmc = _mm_set1_ps(g->sub_max_col), vmr = _mm_set1_ps(g->sub_max_row);
    const __m128 vcols = _mm_set1_ps(sub_cols), vcell = _mm_set1_ps(cell_size);
    const __m128i vbig = _mm_set1_epi32((int32_t)sub_big);
    __m128 vw = zero;
    for (; i + 4u <= hi; i += 4u) {
        /* The arrays are usually cold (a whole crowd moved since the last frame) and the
         * hardware prefetch alone leaves the loop waiting on memory. */
        if ((i & 15u) == 0 && i + CLV_GRID_PREFETCH < count) {
            _mm_prefetch((const char *)(x + i + CLV_GRID_PREFETCH), _MM_HINT_T0);
            _mm_prefetch((const char *)(y + i + CLV_GRID_PREFETCH), _MM_HINT_T0);
            _mm_prefetch((const char *)(r + i + CLV_GRID_PREFETCH), _MM_HINT_T0);
        }
        __m128 fx = _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(x + i), vox), vinv);
        __m128 fy = _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(y + i), voy), vinv);
        fx = _mm_min_ps(_mm_max_ps(fx, zero), vmc);
        fy = _mm_min_ps(_mm_max_ps(fy, zero), vmr);
        __m128 col = _mm_cvtepi32_ps(_mm_cvttps_epi32(fx));
        __m128 row = _mm_cvtepi32_ps(_mm_cvttps_epi32(fy));
        __m128i cell = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(row, vcols), col));
        __m128 vr = _mm_loadu_ps(r + i);
        __m128 keep = _mm_cmple_ps(vr, vcell);
        __m128i ki = _mm_castps_si128(keep);
        cell = _mm_or_si128(_mm_and_si128(ki, cell), _mm_andnot_si128(ki, vbig));
        _mm_storeu_si128((__m128i *)(void *)(sub + i), cell);
        vw = _mm_max_ps(vw, _mm_and_ps(keep, vr));
    }
    float lanes[4];
    _mm_storeu_ps(lanes, vw);
    for (int k = 0; k < 4; k++) {
        w = lanes[k] > w ? lanes[k] : w;
    }
#endif
    for (; i < hi; i++) {
        float col = (float)(int32_t)sub_col(g, x[i]), row = (float)(int32_t)sub_row(g, y[i]);
        bool keep = r[i] <= cell_size;
        sub[i] = keep ? (uint32_t)(int32_t)(row * sub_cols + col) : sub_big;
        w = keep && r[i] > w ? r[i] : w;
    }
    return w;
}

/* Tests every entity's bit and returns the number of hits. With first NULL the first room
 * hits are left in pairs[] as (box << 32 | entity), in entity order; otherwise pairs[] is
 * flushed (see flush_pairs) whenever another entity's hits might not fit. With seen non-NULL
 * each block's sub-cells are written first, and *seen gets their largest radius (as
 * entity_cells returns it). */
static uint32_t pick_entities(const clv_grid *g, const box_lists *b, const float *x, const float *y,
                              const float *r, uint32_t count, uint64_t *pairs, uint32_t room,
                              uint32_t *first, uint32_t *out, float *seen) {
    const uint64_t *occ = g->occ;
    const uint32_t *sub = g->scratch;
    const bool test_all = b->n_every > 0;
    uint32_t pick[CLV_PICK_BLOCK], n = 0, total = 0;
    for (uint32_t base = 0; base < count; base += CLV_PICK_BLOCK) {
        uint32_t m = count - base < CLV_PICK_BLOCK ? count - base : CLV_PICK_BLOCK, np = 0;
        if (seen != NULL) {
            float wb = entity_cells(g, x, y, r, base, base + m, count);
            *seen = wb > *seen ? wb : *seen;
        }
        if (test_all) {
            for (uint32_t k = 0; k < m; k++) {
                pick[np++] = base + k;
            }
        } else {
            /* Most entities stand where no box reaches: keep the others, without a branch. */
            for (uint32_t k = 0; k < m; k++) {
                pick[np] = base + k;
                np = add_bit(np, occ, sub[base + k]);
            }
        }
        for (uint32_t j = 0; j < np; j++) {
            uint32_t i = pick[j];
            n = b->masks != NULL ? entity_mask_hits(g, b, x[i], y[i], r[i], i, pairs, room, n)
                                 : entity_hits(g, b, x[i], y[i], r[i], i, pairs, room, n);
            if (first != NULL && n > room - b->nq) {
                flush_pairs(pairs, n, first, out);
                total += n;
                n = 0;
            }
        }
    }
    if (first != NULL) {
        flush_pairs(pairs, n, first, out);
    }
    return total + n;
}

/* The sub-cells a box covers: its bounds widened as a query widens them (by w instead of the
 * build's largest radius). Returns false for an empty or NaN box, which meets nothing. */
static bool box_cells(const clv_grid *g, clv_aabb q, float w, uint32_t *c0, uint32_t *c1,
                      uint32_t *r0, uint32_t *r1) {
    clv_aabb wide;
    if (!widened(q, w, &wide)) {
        return false;
    }
    *c0 = (uint32_t)(int32_t)sub_col(g, wide.min.x),
    *c1 = (uint32_t)(int32_t)sub_col(g, wide.max.x);
    *r0 = (uint32_t)(int32_t)sub_row(g, wide.min.y),
    *r1 = (uint32_t)(int32_t)sub_row(g, wide.max.y);
    return true;
}

/* Files the boxes, widened by w: marks the sub-cells they reach, names each cell's lone box,
 * lists the boxes of the cells several reach, and puts the boxes the lists have no room for
 * in every[]. first[k + 1] is left 1 for a filed box, 2 for one in every[], 0 for an empty one.
 * Uses occ, ids, start and both halves of entries[] (the second half only until it returns). */
static box_lists file_boxes(clv_grid *g, const clv_aabb *boxes, uint32_t nq, float w,
                            uint32_t *first) {
    uint32_t *start = g->start;
    memset(first, 0, ((size_t)nq + 1u) * sizeof(uint32_t));
    /* Which boxes are filed (first[k + 1] = 1) and which go to every entity (2): the lists,
     * each with its length, must fit their half of entries[], with a slot left for each box
     * still to come. */
    const uint32_t room = 2u * g->def.capacity, cols = g->def.cols, shift = g->sub_shift;
    const uint32_t sub_cols = cols << shift;
    uint64_t *occ = g->occ, *touched = g->occ + g->sub_words;
    uint8_t *ids = g->ids;
    uint32_t *cells_touched =
        (uint32_t *)(void *)((uint64_t *)(void *)g->entries + g->def.capacity);
    uint64_t *reached = touched + g->cell_words;
    memset(occ, 0, (g->sub_words + 2u * g->cell_words) * sizeof(uint64_t));
    set_bit(occ, g->sub_big); /* oversized: always picked */
    uint32_t filed = 0, n_every = 0, n_touched = 0;
    for (uint32_t k = 0; k < nq; k++) {
        uint32_t c0, c1, r0, r1;
        if (!box_cells(g, boxes[k], w, &c0, &c1, &r0, &r1)) {
            continue;
        }
        uint64_t cells =
            (uint64_t)((c1 >> shift) - (c0 >> shift) + 1u) * ((r1 >> shift) - (r0 >> shift) + 1u);
        if ((uint64_t)filed + 2u * cells + n_every + (nq - k) > room) {
            n_every++;
            first[k + 1u] = 2;
            continue;
        }
        filed += 2u * (uint32_t)cells; /* each cell may need a slot for its length */
        first[k + 1u] = 1;
        for (uint32_t row = r0; row <= r1; row++) {
            set_bits(occ, row * sub_cols + c0, row * sub_cols + c1);
        }
        const bool alone = g->use_ids && nq < CLV_MARK_SHARED;
        for (uint32_t row = r0 >> shift; row <= r1 >> shift; row++) {
            for (uint32_t col = c0 >> shift; col <= c1 >> shift; col++) {
                uint32_t c = row * cols + col;
                if (alone && !bit_of(reached, c)) {
                    set_bit(reached, c);
                    ids[c] = (uint8_t)(k + 1u);
                    continue;
                }
                if (!bit_of(touched, c)) {
                    /* its list: this box, and the one that reached it alone before */
                    set_bit(touched, c);
                    start[c] = alone ? 1u : 0u;
                    cells_touched[n_touched++] = c;
                    if (g->use_ids) {
                        ids[c] = CLV_MARK_SHARED;
                    }
                }
                start[c]++;
            }
        }
    }
    /* Each touched cell (one that several boxes reach) gets its length then its slots;
     * start[c] moves to the slots' end, and filling from the last box down moves it back to
     * their begin. */
    uint32_t *list = (uint32_t *)(void *)g->entries, *every = list + room - n_every;
    uint32_t end = 0;
    for (uint32_t t = 0; t < n_touched; t++) {
        uint32_t c = cells_touched[t], len = start[c];
        list[end] = len;
        end += len + 1u;
        start[c] = end;
    }
    for (uint32_t k = nq, e = n_every; k-- > 0;) {
        if (first[k + 1u] == 2) {
            every[--e] = k;
        } else if (first[k + 1u] == 1) {
            uint32_t c0, c1, r0, r1;
            box_cells(g, boxes[k], w, &c0, &c1, &r0, &r1);
            for (uint32_t row = r0 >> shift; row <= r1 >> shift; row++) {
                for (uint32_t col = c0 >> shift; col <= c1 >> shift; col++) {
                    uint32_t c = row * cols + col;
                    if (bit_of(touched, c)) {
                        list[--start[c]] = k;
                    }
                }
            }
        }
    }

    uint64_t *pairs = (uint64_t *)(void *)g->entries + g->def.capacity;
    box_lists b = {boxes, nq, list, every, n_every, NULL, pairs, g->def.capacity};
    return b;
}

/* Files up to CLV_MASK_BOXES boxes, widened by w: marks the sub-cells they reach, gives each
 * cell they reach a word in entries[] (its index in start[c]) with a bit per box, and sets
 * first[k + 1] to 1 for a filed box. False when the cells outnumber the words (file_boxes). */
static bool file_masks(clv_grid *g, const clv_aabb *boxes, uint32_t nq, float w, uint32_t *first,
                       box_lists *out) {
    const uint32_t cols = g->def.cols, shift = g->sub_shift, sub_cols = cols << shift;
    uint64_t *occ = g->occ, *reached = g->occ + g->sub_words;
    uint64_t *masks = (uint64_t *)(void *)g->entries;
    uint32_t *start = g->start, words = 0;
    memset(first, 0, ((size_t)nq + 1u) * sizeof(uint32_t));
    memset(occ, 0, (g->sub_words + g->cell_words) * sizeof(uint64_t));
    set_bit(occ, g->sub_big); /* oversized: always picked */
    for (uint32_t k = 0; k < nq; k++) {
        uint32_t c0, c1, r0, r1;
        if (!box_cells(g, boxes[k], w, &c0, &c1, &r0, &r1)) {
            continue;
        }
        first[k + 1u] = 1;
        for (uint32_t row = r0; row <= r1; row++) {
            set_bits(occ, row * sub_cols + c0, row * sub_cols + c1);
        }
        for (uint32_t row = r0 >> shift; row <= r1 >> shift; row++) {
            for (uint32_t col = c0 >> shift; col <= c1 >> shift; col++) {
                uint32_t c = row * cols + col;
                if (!bit_of(reached, c)) {
                    if (words == g->def.capacity) {
                        return false;
                    }
                    set_bit(reached, c);
                    start[c] = words;
                    masks[words++] = 0;
                }
                masks[start[c]] |= (uint64_t)1 << k;
            }
        }
    }
    /* the hits take every word the boxes left: a small crowd has more hits than entities */
    *out =
        (box_lists){boxes, nq, NULL, NULL, 0, masks, masks + words, 2u * g->def.capacity - words};
    return true;
}

/* Words of boxes when they fit, lists otherwise. */
static box_lists file_any(clv_grid *g, const clv_aabb *boxes, uint32_t nq, float w,
                          uint32_t *first) {
    box_lists b;
    if (nq <= CLV_MASK_BOXES && file_masks(g, boxes, nq, w, first, &b)) {
        return b;
    }
    return file_boxes(g, boxes, nq, w, first);
}

/* The grid's cells index the boxes instead of the entities: the boxes mark the half-cells they
 * reach in a bitmap (whole cells in a grid of more than 2^22 cells), each entity's centre costs
 * one bit test, and only the few on a marked half-cell are tested: against the one box that
 * reaches their cell, or the boxes listed for a cell that several reach (in a grid of up to 2^20
 * cells and with fewer than 255 boxes; otherwise every reached cell lists its boxes). The grid
 * keeps one hint, the crowd's largest radius, with which the next call files its boxes before
 * it reads the entities; a radius grown since costs that call a second pass, never an answer. */
uint32_t clv_grid_query_boxes(clv_grid *grid, const clv_aabb *boxes, uint32_t nq, const float *x,
                              const float *y, const float *r, uint32_t count, uint32_t *first,
                              uint32_t *out, uint32_t cap) {
    clv_grid *g = grid;
    g->count = 0;
    g->rmax = 0.0f;
    if (first == NULL) {
        return 0;
    }
    memset(first, 0, ((size_t)nq + 1u) * sizeof(uint32_t));
    if (nq == 0 || count == 0 || count > g->def.capacity || nq > g->def.capacity || boxes == NULL ||
        x == NULL || y == NULL || r == NULL) {
        return 0;
    }
    /* With a hint (the last call's largest radius), the boxes are filed first and each block
     * of entities gets its sub-cells just before its bit tests, while the next blocks stream
     * in. Without one, or when a radius grew past it (the boxes were widened too little),
     * the sub-cells come first and the boxes are filed with the true radius. */
    const bool fuse = g->w_hint >= 0.0f;
    float w = fuse ? g->w_hint : entity_cells(g, x, y, r, 0, count, count), seen = 0.0f;
    box_lists b = file_any(g, boxes, nq, w, first);

    uint32_t total =
        pick_entities(g, &b, x, y, r, count, b.pairs, b.room, NULL, NULL, fuse ? &seen : NULL);
    if (fuse && seen > w) {
        w = seen;
        b = file_any(g, boxes, nq, w, first);
        total = pick_entities(g, &b, x, y, r, count, b.pairs, b.room, NULL, NULL, NULL);
    }
    g->w_hint = fuse ? seen : w;
    memset(first, 0, ((size_t)nq + 1u) * sizeof(uint32_t));
    if (total <= b.room) {
        flush_pairs(b.pairs, total, first, NULL);
    } else {
        /* More hits than the scratch holds: count them in slices, place them below. */
        pick_entities(g, &b, x, y, r, count, b.pairs, b.room, first, NULL, NULL);
    }
    if (total > cap || out == NULL) {
        for (uint32_t k = 1; k <= nq; k++) {
            first[k] += first[k - 1u]; /* the ends, which are the next boxes' begins */
        }
        return total;
    }
    /* first[k + 1] becomes box k's begin; placing through it leaves it at k's end. */
    for (uint32_t k = 1, run = 0; k <= nq; k++) {
        uint32_t v = first[k];
        first[k] = run;
        run += v;
    }
    if (total <= b.room) {
        flush_pairs(b.pairs, total, first, out);
    } else {
        pick_entities(g, &b, x, y, r, count, b.pairs, b.room, first, out, NULL);
    }
    return total;
}
