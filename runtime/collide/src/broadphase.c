/* The uniform grid, rebuilt every frame by a counting sort (see cleave/broadphase.h). */
#include "broadphase_internal.h"

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

/* clv_grid_query_boxes's groups of boxes, for a grid that may hold a small crowd only (larger
 * ones never use them): one per cell in a small room, where most cells are reached, and as many
 * again for the cells that more than eight boxes reach (all of them in a room of up to
 * CLV_GROUPS_ROOM cells, which gets a group per cell at once), and at most one per two entities
 * (168 bytes each) and a few more, enough for as many small boxes, each in a cell of its own (a
 * thousand knives among 10,000 entities); boxes that reach more cells take the other ways. */
static uint32_t max_groups_of(const clv_grid_def *def) {
    if (def->capacity > CLV_GROUPS_MAX_COUNT) {
        return 0;
    }
    uint64_t cells = (uint64_t)def->cols * def->rows, most = 256u + def->capacity / 2u;
    cells += cells < CLV_GROUPS_ROOM ? cells : CLV_GROUPS_ROOM;
    return (uint32_t)(cells < most ? cells : most);
}

/* Layout of the single block: the struct, start[], entries[], scratch[], the bitmaps (sub-cells,
 * then two of cells), a byte per cell, then the groups of boxes. */
static size_t layout(const clv_grid_def *def, size_t *off_start, size_t *off_entries,
                     size_t *off_scratch, size_t *off_occ, size_t *off_ids, size_t *off_groups) {
    size_t buckets = (size_t)def->cols * def->rows + 1u, sub_words, cell_words;
    uint32_t sub_big;
    bitmap_words(def, &sub_big, &sub_words, &cell_words);
    *off_start = round_up16(sizeof(clv_grid));
    *off_entries = round_up16(*off_start + (buckets + 2u) * sizeof(uint32_t));
    *off_scratch = round_up16(*off_entries + (size_t)def->capacity * sizeof(clv_grid_entry));
    *off_occ = round_up16(*off_scratch + (size_t)def->capacity * sizeof(uint32_t));
    *off_ids = *off_occ + (sub_words + 2u * cell_words) * sizeof(uint64_t);
    *off_groups = round_up16(*off_ids + (buckets - 1u <= CLV_GRID_IDS_MAX_CELLS ? buckets : 0u));
    return round_up16(*off_groups + (size_t)max_groups_of(def) * sizeof(clv_box_group));
}

clv_grid_def clv_grid_default_def(void) {
    clv_grid_def def = {{0.0f, 0.0f}, 64.0f, 64u, 64u, 4096u};
    return def;
}

size_t clv_grid_memory_size(const clv_grid_def *def) {
    if (!def_valid(def)) {
        return 0;
    }
    size_t a, b, c, d, e, f;
    return layout(def, &a, &b, &c, &d, &e, &f);
}

/* The multiplier and shift that divide a sub-cell (below 2^25) by the sub-cells of a row, d:
 * with 2^l >= d and k = 25 + l, m = ceil(2^k / d) exceeds 2^k / d by less than 1, so s * m / 2^k
 * exceeds s / d by less than s / 2^k < 1 / d, too little to reach the next integer. */
static void set_sub_magic(clv_grid *g) {
    const uint64_t d = (uint64_t)g->def.cols << g->sub_shift;
    uint32_t l = 0;
    while (((uint64_t)1 << l) < d) {
        l++;
    }
    g->sub_magic_shift = 25u + l;
    g->sub_magic = (((uint64_t)1 << g->sub_magic_shift) + d - 1u) / d;
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
    size_t off_start, off_entries, off_scratch, off_occ, off_ids, off_groups;
    size_t bytes =
        layout(def, &off_start, &off_entries, &off_scratch, &off_occ, &off_ids, &off_groups);
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
    g->groups = (clv_box_group *)(void *)(block + off_groups);
    g->max_groups = max_groups_of(def);
    /* a group's unused lanes are tested and dropped: they must hold some float */
    memset(g->groups, 0, (size_t)g->max_groups * sizeof(clv_box_group));
    set_sub_magic(g);
    g->w_hint = -1.0f;
    g->coarse_shift = 0;
    while (((def->cols << g->sub_shift) - 1u) >> g->coarse_shift >= 32u ||
           ((def->rows << g->sub_shift) - 1u) >> g->coarse_shift >= 32u) {
        g->coarse_shift++;
    }
#ifdef CLV_GRID_AVX2
    g->avx2 = __builtin_cpu_supports("avx2");
#else
    g->avx2 = false;
#endif
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
