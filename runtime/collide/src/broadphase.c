/* The uniform grid, rebuilt every frame by a counting sort (see cleave/broadphase.h). */
#include "cleave/broadphase.h"
#include "internal.h"

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

struct clv_grid {
    clv_grid_def def;
    clv_grid_allocator alloc;
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
};

static size_t round_up16(size_t n) { return (n + 15u) & ~(size_t)15u; }

static bool def_valid(const clv_grid_def *def) {
    if (def == NULL)
        return false;
    bool finite = isfinite(def->origin.x) && isfinite(def->origin.y) && isfinite(def->cell_size);
    return finite && def->cell_size > 0.0f && def->cols >= 1 && def->rows >= 1 &&
           (uint64_t)def->cols * def->rows <= CLV_GRID_MAX_CELLS && def->capacity >= 1 &&
           def->capacity <= CLV_GRID_MAX_CAPACITY && isfinite(1.0f / def->cell_size);
}

/* Layout of the single block: the struct, start[], entries[], scratch[]. */
static size_t layout(const clv_grid_def *def, size_t *off_start, size_t *off_entries,
                     size_t *off_scratch) {
    size_t buckets = (size_t)def->cols * def->rows + 1u;
    *off_start = round_up16(sizeof(clv_grid));
    *off_entries = round_up16(*off_start + (buckets + 2u) * sizeof(uint32_t));
    *off_scratch = round_up16(*off_entries + (size_t)def->capacity * sizeof(clv_grid_entry));
    return round_up16(*off_scratch + (size_t)def->capacity * sizeof(uint32_t));
}

clv_grid_def clv_grid_default_def(void) {
    clv_grid_def def = {{0.0f, 0.0f}, 64.0f, 64u, 64u, 4096u};
    return def;
}

size_t clv_grid_memory_size(const clv_grid_def *def) {
    if (!def_valid(def))
        return 0;
    size_t a, b, c;
    return layout(def, &a, &b, &c);
}

static void *default_alloc(size_t size, void *user) {
    (void)user;
    return malloc(size);
}

static void default_free(void *ptr, size_t size, void *user) {
    (void)size;
    (void)user;
    free(ptr);
}

clv_grid *clv_grid_create(const clv_grid_def *def, const clv_grid_allocator *alloc) {
    if (!def_valid(def))
        return NULL;
    clv_grid_allocator hook = {default_alloc, default_free, NULL};
    if (alloc != NULL && alloc->alloc != NULL && alloc->free != NULL)
        hook = *alloc;
    size_t off_start, off_entries, off_scratch;
    size_t bytes = layout(def, &off_start, &off_entries, &off_scratch);
    unsigned char *block = hook.alloc(bytes, hook.user);
    if (block == NULL)
        return NULL;
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
    memset(g->start, 0, (g->buckets + 2u) * sizeof(uint32_t));
    return g;
}

void clv_grid_destroy(clv_grid *grid) {
    if (grid == NULL)
        return;
    clv_grid_allocator hook = grid->alloc;
    hook.free(grid, grid->bytes, hook.user);
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
    if (count > g->def.capacity || (count > 0 && (x == NULL || y == NULL || r == NULL)))
        return false;

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
        uint32_t m = 0u - (uint32_t)(r[i] > cell_size);
        cell[i] = (big & m) | (c & ~m);
        uint32_t rb;
        memcpy(&rb, &r[i], sizeof rb);
        rb &= 0x7fffffffu & ~m;
        rmax_bits = rb > rmax_bits ? rb : rmax_bits;
    }
    float rmax;
    memcpy(&rmax, &rmax_bits, sizeof rmax);
    for (uint32_t i = 0; i < count; i++)
        start[cell[i] + 2u]++;
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
        bool hit = (e.x - e.r <= q.max.x) & (e.x + e.r >= q.min.x) & (e.y - e.r <= q.max.y) &
                   (e.y + e.r >= q.min.y);
        out[n] = e.id;
        n += (uint32_t)hit;
    }
    return n;
}

static inline uint32_t count_hits(const clv_grid_entry *entries, uint32_t lo, uint32_t hi,
                                  clv_aabb q) {
    uint32_t n = 0;
    for (uint32_t k = lo; k < hi; k++) {
        clv_grid_entry e = entries[k];
        n += (uint32_t)((e.x - e.r <= q.max.x) & (e.x + e.r >= q.min.x) & (e.y - e.r <= q.max.y) &
                        (e.y + e.r >= q.min.y));
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
    for (uint32_t i = 0; i < n; i++)
        maxv = a[i] > maxv ? a[i] : maxv;
    uint32_t *src = a, *dst = tmp;
    for (uint32_t shift = 0; shift < 32u && (maxv >> shift) != 0u; shift += 8u) {
        uint32_t hist[257];
        memset(hist, 0, sizeof hist);
        for (uint32_t i = 0; i < n; i++)
            hist[((src[i] >> shift) & 255u) + 1u]++;
        for (uint32_t d = 1; d < 257u; d++)
            hist[d] += hist[d - 1u];
        for (uint32_t i = 0; i < n; i++)
            dst[hist[(src[i] >> shift) & 255u]++] = src[i];
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, (size_t)n * sizeof(uint32_t));
}

uint32_t clv_grid_query(clv_grid *grid, clv_aabb box, uint32_t *out, uint32_t cap) {
    const clv_grid *g = grid;
    if (g->count == 0)
        return 0;
    /* Widen by the largest radius, and by a few ulps of the coordinates so that rounding in
     * the widened bounds can never leave out a cell whose entity passes the square test. */
    float e = g->rmax;
    float lox = box.min.x - e, hix = box.max.x + e, loy = box.min.y - e, hiy = box.max.y + e;
    lox -= fabsf(lox) * 0x1p-20f;
    loy -= fabsf(loy) * 0x1p-20f;
    hix += fabsf(hix) * 0x1p-20f;
    hiy += fabsf(hiy) * 0x1p-20f;
    if (!((lox <= hix) & (loy <= hiy)))
        return 0; /* an empty or NaN box meets nothing */
    uint32_t c0 = col_of(g, lox), c1 = col_of(g, hix);
    uint32_t r0 = row_of(g, loy), r1 = row_of(g, hiy);
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
    if (!fits || n > cap)
        return n;
    if (n <= CLV_GRID_SMALL_SORT) {
        insertion_sort(out, n);
    } else {
        radix_sort(out, n, grid->scratch);
    }
    return n;
}

/* ---- Many boxes against the entities: the boxes go into the cells, the entities stream. ----
 *
 * A box is filed under every cell of its bounds widened by one cell size: an entity with
 * r <= cell_size whose square meets the box has its centre there (the same monotone, clamped
 * column and row functions serve both sides, and the bounds get the same few-ulp margin as a
 * query's, so rounding cannot separate them). An entity with a larger r is tested against
 * every box. A box whose cells would not fit the scratch is tested against every entity.
 * The grid's own arrays are the scratch: start[] the cells' box lists, scratch[] the lists
 * (boxes filed per cell from the front, boxes for every entity at the back), entries[] the
 * (box, entity) hits in stream order, which a counting sort by box turns into per-box
 * ascending lists. */

enum { CLV_STREAM_BLOCK = 256 };

typedef struct box_stream {
    const clv_aabb *boxes;
    uint32_t nq;
    const uint32_t *list;  /* box numbers, per cell */
    const uint32_t *every; /* boxes tested against every entity, ascending */
    uint32_t n_every;
    uint64_t *pairs; /* (box << 32 | entity) in stream order, or NULL */
    uint32_t pair_room;
    uint32_t n_pairs;
    uint32_t *counts; /* hits per box, or NULL */
    uint32_t *cursor; /* when pairs is NULL: out's next slot for each box */
    uint32_t *out;
} box_stream;

static inline bool square_meets(float x, float y, float r, const clv_aabb *q) {
    return (x - r <= q->max.x) & (x + r >= q->min.x) & (y - r <= q->max.y) & (y + r >= q->min.y);
}

static inline void record(box_stream *s, uint32_t k, uint32_t i) {
    if (s->counts != NULL)
        s->counts[k]++;
    if (s->pairs != NULL) {
        if (s->n_pairs < s->pair_room)
            s->pairs[s->n_pairs] = (uint64_t)k << 32 | i;
        s->n_pairs++;
    } else {
        s->out[s->cursor[k]++] = i;
    }
}

/* Entity i against the boxes of its cell (or all of them when it is oversized) and the boxes
 * filed for every entity, in ascending box order as box-by-box queries would meet it. */
static void stream_entities(const clv_grid *g, box_stream *s, const float *x, const float *y,
                            const float *r, uint32_t count) {
    const uint32_t *start = g->start, cols = g->def.cols, big = g->buckets - 1u;
    const float cell_size = g->def.cell_size, inv = g->inv_cell;
    const float ox = g->def.origin.x, oy = g->def.origin.y;
    const float max_col = g->max_col, max_row = g->max_row;
    const uint32_t every_flag = s->n_every > 0 ? 1u : 0u;
    uint32_t cell[CLV_STREAM_BLOCK], pick[CLV_STREAM_BLOCK];
    for (uint32_t base = 0; base < count; base += CLV_STREAM_BLOCK) {
        uint32_t m = count - base < CLV_STREAM_BLOCK ? count - base : CLV_STREAM_BLOCK;
        const float *bx = x + base, *by = y + base, *br = r + base;
        /* Cells with selects only, which gcc vectorizes; oversized entities get cell big. */
        for (uint32_t k = 0; k < m; k++) {
            float fx = (bx[k] - ox) * inv, fy = (by[k] - oy) * inv;
            fx = clv_selectf(fx > 0.0f, fx, 0.0f);
            fx = clv_selectf(fx < max_col, fx, max_col);
            fy = clv_selectf(fy > 0.0f, fy, 0.0f);
            fy = clv_selectf(fy < max_row, fy, max_row);
            uint32_t c = (uint32_t)(int32_t)fy * cols + (uint32_t)(int32_t)fx;
            uint32_t mk = 0u - (uint32_t)(br[k] > cell_size);
            cell[k] = (big & mk) | (c & ~mk);
        }
        /* Most entities stand where no box reaches: keep the others, without a branch. */
        uint32_t np = 0;
        for (uint32_t k = 0; k < m; k++) {
            uint32_t c = cell[k];
            pick[np] = k;
            np += (uint32_t)(start[c] != start[c + 1u]) | (uint32_t)(c == big) | every_flag;
        }
        for (uint32_t j = 0; j < np; j++) {
            uint32_t k = pick[j], c = cell[k], i = base + k;
            float ex = bx[k], ey = by[k], er = br[k];
            if (c == big) {
                for (uint32_t q = 0; q < s->nq; q++) {
                    if (square_meets(ex, ey, er, &s->boxes[q]))
                        record(s, q, i);
                }
                continue;
            }
            const uint32_t *a = s->list + start[c];
            uint32_t na = start[c + 1u] - start[c], ia = 0, ie = 0;
            while (ia < na || ie < s->n_every) {
                bool from_a = ie == s->n_every || (ia < na && a[ia] < s->every[ie]);
                uint32_t q = from_a ? a[ia++] : s->every[ie++];
                if (square_meets(ex, ey, er, &s->boxes[q]))
                    record(s, q, i);
            }
        }
    }
}

/* The cells a box is filed under: its bounds widened by w, with a query's rounding margin.
 * Returns false for an empty or NaN box, which meets nothing. */
static bool box_cells(const clv_grid *g, clv_aabb q, float w, uint32_t *c0, uint32_t *c1,
                      uint32_t *r0, uint32_t *r1) {
    float lox = q.min.x - w, hix = q.max.x + w, loy = q.min.y - w, hiy = q.max.y + w;
    lox -= fabsf(lox) * 0x1p-20f;
    loy -= fabsf(loy) * 0x1p-20f;
    hix += fabsf(hix) * 0x1p-20f;
    hiy += fabsf(hiy) * 0x1p-20f;
    if (!((q.min.x <= q.max.x) & (q.min.y <= q.max.y) & (lox <= hix) & (loy <= hiy)))
        return false;
    *c0 = col_of(g, lox), *c1 = col_of(g, hix);
    *r0 = row_of(g, loy), *r1 = row_of(g, hiy);
    return true;
}

uint32_t clv_grid_query_boxes(clv_grid *grid, const clv_aabb *boxes, uint32_t nq, const float *x,
                              const float *y, const float *r, uint32_t count, uint32_t *first,
                              uint32_t *out, uint32_t cap) {
    clv_grid *g = grid;
    uint32_t *start = g->start;
    g->count = 0;
    g->rmax = 0.0f;
    memset(start, 0, (g->buckets + 2u) * sizeof(uint32_t));
    if (first == NULL)
        return 0;
    memset(first, 0, ((size_t)nq + 1u) * sizeof(uint32_t));
    if (nq == 0 || count == 0 || count > g->def.capacity || nq > g->def.capacity || boxes == NULL ||
        x == NULL || y == NULL || r == NULL)
        return 0;

    /* Which boxes are filed per cell (first[k + 1] = 1) and which go to every entity (2):
     * the lists must fit the scratch, with a slot left for each box still to come. */
    const uint32_t room = g->def.capacity, cols = g->def.cols;
    const float w = g->def.cell_size;
    uint32_t filed = 0, n_every = 0;
    for (uint32_t k = 0; k < nq; k++) {
        uint32_t c0, c1, r0, r1;
        if (!box_cells(g, boxes[k], w, &c0, &c1, &r0, &r1))
            continue;
        uint64_t cells = (uint64_t)(c1 - c0 + 1u) * (r1 - r0 + 1u);
        if ((uint64_t)filed + cells + n_every + (nq - k) <= room) {
            filed += (uint32_t)cells;
            first[k + 1u] = 1;
            for (uint32_t row = r0; row <= r1; row++) {
                for (uint32_t col = c0; col <= c1; col++)
                    start[row * cols + col]++;
            }
        } else {
            n_every++;
            first[k + 1u] = 2;
        }
    }
    /* Inclusive prefix sum: start[c] is the end of cell c's list. Filling from the last box
     * down, each write moves it back, so it ends at the begin and start[c + 1] is the end. */
    uint32_t sum = 0;
    for (uint32_t c = 0; c < g->buckets; c++) {
        sum += start[c];
        start[c] = sum;
    }
    uint32_t *list = g->scratch, *every = list + room - n_every;
    for (uint32_t k = nq, e = n_every; k-- > 0;) {
        if (first[k + 1u] == 2) {
            every[--e] = k;
        } else if (first[k + 1u] == 1) {
            uint32_t c0, c1, r0, r1;
            box_cells(g, boxes[k], w, &c0, &c1, &r0, &r1);
            for (uint32_t row = r0; row <= r1; row++) {
                for (uint32_t col = c0; col <= c1; col++)
                    list[--start[row * cols + col]] = k;
            }
        }
    }
    start[g->buckets] = start[g->buckets - 1u]; /* the oversized marker's list is empty */

    memset(first, 0, ((size_t)nq + 1u) * sizeof(uint32_t));
    box_stream s = {boxes,     nq, list,      every, n_every, (uint64_t *)(void *)g->entries,
                    2u * room, 0,  first + 1, NULL,  out};
    stream_entities(g, &s, x, y, r, count);

    uint32_t total = 0;
    for (uint32_t k = 1; k <= nq; k++)
        total += first[k];
    if (total > cap || out == NULL) {
        for (uint32_t k = 1; k <= nq; k++)
            first[k] += first[k - 1u]; /* the ends, which are the next boxes' begins */
        return total;
    }
    /* first[k + 1] becomes box k's begin; placing through it leaves it at k's end. */
    for (uint32_t k = 1, run = 0; k <= nq; k++) {
        uint32_t v = first[k];
        first[k] = run;
        run += v;
    }
    if (s.n_pairs <= s.pair_room) {
        for (uint32_t j = 0; j < s.n_pairs; j++) {
            uint32_t k = (uint32_t)(s.pairs[j] >> 32);
            out[first[k + 1u]++] = (uint32_t)s.pairs[j];
        }
    } else {
        /* More hits than the scratch holds: stream again, writing straight into out. */
        box_stream again = s;
        again.pairs = NULL;
        again.counts = NULL;
        again.cursor = first + 1;
        again.out = out;
        stream_entities(g, &again, x, y, r, count);
    }
    return total;
}
