/* Fuzz target: the broadphase grid with hostile definitions, entities and boxes.
 *
 * clv_grid_query_boxes promises exactly the candidates of a clv_grid_build followed by one
 * clv_grid_query per box. The random differential test in tests/c/collide keeps to tame
 * scenes; this target aims at the edges: NaN and infinite coordinates, centres and boxes on
 * cell and half-cell borders (and one ulp off them), radii of 0, exactly one cell, one ulp more,
 * negative, NaN or infinite, inverted, empty, huge and far-away boxes, grids of one cell, of a
 * single row, and past 2^22 cells (where the bitmap drops to whole cells), capacities small
 * enough that the boxes overflow the cell lists and the hits overflow the scratch.
 *
 * Checks (abort on any difference):
 * - a definition the header calls invalid gives clv_grid_create NULL and
 *   clv_grid_memory_size 0, without touching the allocator; a valid one allocates once, exactly
 *   clv_grid_memory_size bytes, and returns them all on destroy; a failing allocator gives NULL;
 * - query_boxes returns the sum of the per-box query counts, first[0] = 0, first[nq] = total,
 *   and each box's slice equals its query's ascending list; with a cap below the total, and
 *   with out NULL, it returns the same total and the same first[]; with cap >= total the same
 *   lists again, on a grid left dirty by a build; out is exactly cap long (AddressSanitizer
 *   sees a write past it); all of this also after a call on the same crowd with every radius 0
 *   or doubled, which leaves query_boxes a radius hint too small or too large;
 * - the documented refusals (count or nq above the capacity, a NULL array) return 0 with
 *   first[] all zero, and a NULL first[] returns 0; clv_grid_count is 0 after every
 *   query_boxes, and a query then finds nothing; building and querying never call the
 *   allocator;
 * - each query's list is strictly ascending and below the count, and a query with a cap below
 *   its count returns the same count;
 * - each list also equals the documented rule evaluated entity by entity: closed squares,
 *   written as the same float expressions, and an entity with a negative or NaN radius meets
 *   nothing. Every input is compared, infinite radii and coordinates included.
 *
 * Input layout (a short input is continued by a generator seeded from its bytes, so a few bytes
 * describe a crowd): definition (origin x, origin y, cell size, cols, rows, capacity, allocator
 * byte), counts (entity count: 2 bytes, box count, mode byte), then per entity x, y, r and per
 * box min x, min y, extent mode, each value a tag byte and its operands (see pick_coord,
 * pick_radius, pick_cell_size). Tags are read modulo the number of cases, so a tag's high
 * bits can carry flags (pick_coord case 4, pick_box). The seeds in corpus/grid/ were written
 * with a few lines of Python following this layout: seed-default (64-unit cells, 64 x 64,
 * capacity 4096, 200 entities, 40 boxes, the rest generated), seed-borders (48 entities on cell
 * and half-cell borders and one ulp off, radii 0, one cell, one ulp either side of it and half a
 * cell; 24 points, cells and slightly inverted boxes on the same borders), seed-special (NaN,
 * infinities, huge, subnormal and negative values in coordinates and radii; huge, NaN and
 * infinite boxes), seed-overflow (capacity 16, 16 entities and 16 boxes covering the grid: the
 * every-entity list, hits beyond the scratch, cap 0), seed-bigmap (4097 x 1024 cells: the
 * whole-cell bitmap; the allocator byte allows a big grid), seed-limit (4096 x 4096 cells,
 * exactly 2^24: valid, then shrunk to 4096 x 1024 here),
 * seed-invalid-cell (cell size 0), seed-invalid-count (24929 x 673 = 2^24 + 1 cells). The
 * regress-* inputs are findings (see docs/reliability.md); most bytes of every input come from
 * the generator, so a change to the layout, the generator or a pick_* function changes what
 * each file means: check that the regress-* inputs still reach their case, or regenerate them.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleave/broadphase.h"

#define MAX_ENTITIES 4096u
#define MAX_BOXES 256u
/* Entity-box pairs per input: the reference, the rule and query_boxes with a box for every
 * entity are O(count * boxes). Half of it runs twice as fast, but regress-inf-bound needs its
 * 13th box among 643 entities. */
#define MAX_PAIRS (1u << 14)
/* A build clears and sums a count per cell, so a grid's cost follows its size: most inputs
 * keep to 2 MB; those with the four high bits of the allocator byte set (1 in 16) may take
 * 20 MB, enough for just over 2^22 cells (the whole-cell bitmap), at about 40 ms an input.
 * Beyond, a definition is only checked. */
#define MAX_GRID_BYTES ((size_t)2 << 20)
#define MAX_BIG_GRID_BYTES ((size_t)20 << 20)
/* A query walks every row its box spans (about 20 ns a row under the sanitizers): at most
 * 2^18 rows per grid and 2^18 box-rows per input, where a definition may ask for 2^24 rows. */
#define MAX_ROWS (1u << 18)
#define MAX_ROW_WALKS (1u << 18)

/* ---- Input bytes, then a generator once they run out ---- */

typedef struct reader {
    const uint8_t *p;
    size_t n, at;
    uint64_t state;
} reader;

static uint8_t next_u8(reader *rd) {
    if (rd->at < rd->n)
        return rd->p[rd->at++];
    uint64_t z = (rd->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (uint8_t)((z ^ (z >> 31)) >> 56);
}

static uint32_t next_u16(reader *rd) {
    uint32_t lo = next_u8(rd);
    return lo | (uint32_t)next_u8(rd) << 8;
}

static uint32_t next_u32(reader *rd) {
    uint32_t lo = next_u16(rd);
    return lo | next_u16(rd) << 16;
}

static float bits_to_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static const float specials[] = {
    0.0f,     -0.0f,          NAN,       INFINITY,   -INFINITY, FLT_MAX, -FLT_MAX,
    FLT_MIN,  -FLT_MIN,       0x1p-149f, -0x1p-149f, 1e30f,     -1e30f,  0x1p24f,
    -0x1p24f, 0x1p24f + 2.0f, 1.0f,      -1.0f,      0.5f,      1e-30f,  3e38f,
    -3e38f,   1e6f,           -1e6f,     0x1p62f,    -0x1p62f,  0x1p31f, -0x1p31f,
};
#define N_SPECIALS (sizeof specials / sizeof specials[0])

static float pick_special(reader *rd) { return specials[next_u8(rd) % N_SPECIALS]; }

/* What a coordinate can be relative to: the grid's origin, cell size and cells on that axis. */
typedef struct axis {
    float origin, cell;
    uint32_t cells;
} axis;

static float border(const axis *a, reader *rd, float half) {
    int64_t k = (int64_t)(next_u16(rd) % ((uint64_t)a->cells + 3u)) - 1;
    return a->origin + ((float)k + half) * a->cell;
}

/* A coordinate: mostly inside the grid, often exactly on a border, sometimes anything. */
static float pick_coord(reader *rd, const axis *a, float previous) {
    uint8_t tag = next_u8(rd);
    switch (tag % 12u) {
    case 0:
        return pick_special(rd);
    case 1:
    case 2:
        return border(a, rd, 0.0f); /* a cell border */
    case 3:
        return border(a, rd, 0.5f); /* a half-cell border */
    case 4: {
        float b = border(a, rd, (tag & 16u) ? 0.5f : 0.0f);
        return nextafterf(b, (tag & 32u) ? INFINITY : -INFINITY);
    }
    case 5:
        return bits_to_float(next_u32(rd));
    case 6:
        return previous; /* crowds on one spot */
    case 7:              /* far outside, but finite */
        return a->origin + (float)(int32_t)next_u32(rd) * a->cell;
    default: { /* inside the grid's area */
        float span = (float)a->cells * a->cell;
        return a->origin + (float)next_u16(rd) * 0x1p-16f * span;
    }
    }
}

static float pick_radius(reader *rd, float cell) {
    uint8_t tag = next_u8(rd);
    switch (tag % 12u) {
    case 0:
        return 0.0f;
    case 1:
        return cell; /* the largest radius still filed under a cell */
    case 2:
        return nextafterf(cell, INFINITY);
    case 3:
        return nextafterf(cell, 0.0f);
    case 4:
        return pick_special(rd);
    case 5:
        return bits_to_float(next_u32(rd));
    case 6:
        return cell * (float)(1u + next_u8(rd)); /* oversized */
    case 7:
        return -cell * (float)next_u8(rd) * 0x1p-8f;
    case 8:
        return cell * 0.5f;
    default:
        return cell * (float)next_u8(rd) * 0x1p-8f;
    }
}

static float pick_cell_size(reader *rd) {
    uint8_t tag = next_u8(rd);
    switch (tag % 8u) {
    case 0: /* a power of two anywhere in the float range, subnormals included */
        return ldexpf(1.0f, (int)(next_u8(rd) % 280u) - 150);
    case 1:
        return pick_special(rd);
    case 2:
        return bits_to_float(next_u32(rd));
    case 3:
        return 64.0f;
    default:
        return (float)(1u + next_u8(rd)) * 0.25f;
    }
}

static uint32_t pick_extent(reader *rd) {
    uint8_t tag = next_u8(rd);
    switch (tag % 8u) {
    case 0:
        return 1u;
    case 1: /* around a power of two, up to 2^24 and past it */
        return ((uint32_t)1 << (next_u8(rd) % 25u)) + (uint32_t)(next_u8(rd) % 3u) - 1u;
    case 2:
        return next_u32(rd);
    case 3:
        return 0u;
    default:
        return 1u + next_u8(rd) % 64u;
    }
}

static uint32_t pick_capacity(reader *rd) {
    uint8_t tag = next_u8(rd);
    switch (tag % 8u) {
    case 0:
        return 1u + next_u8(rd) % 16u; /* small: boxes overflow the lists, hits the scratch */
    case 1:
        return ((uint32_t)1 << 30) + (uint32_t)(next_u8(rd) % 3u) - 1u;
    case 2:
        return next_u32(rd);
    case 3:
        return 0u;
    default:
        return 1u + next_u16(rd) % MAX_ENTITIES;
    }
}

static clv_aabb pick_box(reader *rd, const axis *ax, const axis *ay, const clv_aabb *prev) {
    clv_aabb b;
    b.min.x = pick_coord(rd, ax, prev->min.x);
    b.min.y = pick_coord(rd, ay, prev->min.y);
    uint8_t mode = next_u8(rd);
    float cell = ax->cell;
    switch (mode % 10u) {
    case 0: /* a point */
        b.max = b.min;
        break;
    case 1: /* independent corners: often inverted */
        b.max.x = pick_coord(rd, ax, b.min.x);
        b.max.y = pick_coord(rd, ay, b.min.y);
        break;
    case 2: /* huge */
        b.min.x = (mode & 16u) ? -INFINITY : -1e30f;
        b.min.y = (mode & 32u) ? -INFINITY : -1e30f;
        b.max.x = (mode & 64u) ? INFINITY : 1e30f;
        b.max.y = (mode & 128u) ? INFINITY : 3e38f;
        break;
    case 3:
        b = *prev;
        break;
    case 4: { /* one NaN bound */
        b.max.x = b.min.x + cell;
        b.max.y = b.min.y + cell;
        float *f[4] = {&b.min.x, &b.min.y, &b.max.x, &b.max.y};
        *f[(mode >> 4) & 3u] = NAN;
        break;
    }
    case 5: /* inverted on one axis by a little */
        b.max.x = (mode & 16u) ? nextafterf(b.min.x, -INFINITY) : b.min.x + cell;
        b.max.y = (mode & 16u) ? b.min.y + cell : b.min.y - cell * 0.5f;
        break;
    case 6: /* the whole grid and one cell around it */
        b.min.x = ax->origin - cell;
        b.min.y = ay->origin - cell;
        b.max.x = ax->origin + (float)ax->cells * cell + cell;
        b.max.y = ay->origin + (float)ay->cells * cell + cell;
        break;
    default: /* up to 4 cells a side */
        b.max.x = b.min.x + cell * (float)next_u8(rd) * 0x1p-6f;
        b.max.y = b.min.y + cell * (float)next_u8(rd) * 0x1p-6f;
        break;
    }
    return b;
}

/* ---- Checks ---- */

static void fail(const char *what, uint32_t a, uint32_t b) {
    fprintf(stderr, "fuzz_grid: %s (%u, %u)\n", what, a, b);
    abort();
}

/* Counts the grid's calls to the allocator hook; can be told to fail. */
typedef struct counter {
    size_t live, last;
    uint32_t allocs, frees;
    bool refuse;
} counter;

static void *count_alloc(size_t size, void *user) {
    counter *c = user;
    c->allocs++;
    if (c->refuse)
        return NULL;
    c->live += size;
    c->last = size;
    return malloc(size);
}

static void count_free(void *ptr, size_t size, void *user) {
    counter *c = user;
    c->frees++;
    c->live -= size;
    free(ptr);
}

/* The header's own rule for a definition (the implementation may refuse more). */
static bool documented_valid(const clv_grid_def *d) {
    return d->cell_size > 0.0f && d->cols >= 1 && d->rows >= 1 &&
           (uint64_t)d->cols * d->rows <= ((uint64_t)1 << 24) && d->capacity >= 1;
}

/* The candidate rule of the header, entity by entity: the closed square meets the closed box;
 * an empty or NaN box, and a negative or NaN radius, meet nothing. */
static uint32_t rule(const float *x, const float *y, const float *r, uint32_t n, clv_aabb q,
                     uint32_t *out) {
    uint32_t k = 0;
    if (!(q.min.x <= q.max.x) || !(q.min.y <= q.max.y))
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!(r[i] >= 0.0f))
            continue;
        if ((x[i] - r[i] <= q.max.x) & (x[i] + r[i] >= q.min.x) & (y[i] - r[i] <= q.max.y) &
            (y[i] + r[i] >= q.min.y))
            out[k++] = i;
    }
    return k;
}

static void *checked_malloc(size_t n) {
    void *p = malloc(n);
    if (p == NULL && n > 0)
        abort();
    return p;
}

static void check_refusal(clv_grid *g, const clv_aabb *boxes, uint32_t nq, const float *x,
                          const float *y, const float *r, uint32_t count, uint32_t *first,
                          uint32_t *out, uint32_t cap) {
    for (uint32_t k = 0; k <= nq; k++)
        first[k] = 0xdeadbeefu;
    uint32_t got = clv_grid_query_boxes(g, boxes, nq, x, y, r, count, first, out, cap);
    if (got != 0)
        fail("a refused query_boxes returned a total", got, count);
    for (uint32_t k = 0; k <= nq; k++) {
        if (first[k] != 0)
            fail("a refused query_boxes left first[] non-zero", k, first[k]);
    }
    if (clv_grid_count(g) != 0)
        fail("a refused query_boxes left entities", clv_grid_count(g), 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint64_t seed = 0xcbf29ce484222325u;
    for (size_t i = 0; i < size; i++)
        seed = (seed ^ data[i]) * 0x100000001b3u;
    reader rd = {data, size, 0, seed};

    clv_grid_def def;
    def.origin.x = pick_coord(&rd, &(axis){0.0f, 64.0f, 16u}, 0.0f);
    def.origin.y = pick_coord(&rd, &(axis){0.0f, 64.0f, 16u}, 0.0f);
    def.cell_size = pick_cell_size(&rd);
    def.cols = pick_extent(&rd);
    def.rows = pick_extent(&rd);
    def.capacity = pick_capacity(&rd);
    uint8_t alloc_mode = next_u8(&rd);

    counter cnt = {0, 0, 0, 0, false};
    clv_allocator hook = {count_alloc, count_free, &cnt};
    size_t bytes = clv_grid_memory_size(&def);
    if (!documented_valid(&def)) {
        if (bytes != 0)
            fail("memory size of an invalid definition", (uint32_t)bytes, def.cols);
        if (clv_grid_create(&def, &hook) != NULL || cnt.allocs != 0)
            fail("an invalid definition made a grid", def.cols, def.rows);
        return 0;
    }
    if (bytes == 0) { /* refused beyond the header's rule (non-finite values): still no grid */
        if (clv_grid_create(&def, &hook) != NULL || cnt.allocs != 0)
            fail("a definition of size 0 made a grid", def.cols, def.rows);
        return 0;
    }
    /* Keep each input small: fewer rows, then fewer columns, and a capacity this target can
     * fill. The definition as decoded has been checked above; a smaller one must be valid. */
    if (def.capacity > MAX_ENTITIES)
        def.capacity = 1u + def.capacity % MAX_ENTITIES;
    const size_t max_bytes = (alloc_mode & 0xf0u) == 0xf0u ? MAX_BIG_GRID_BYTES : MAX_GRID_BYTES;
    while ((bytes = clv_grid_memory_size(&def)) > max_bytes || def.rows > MAX_ROWS) {
        if (def.rows > 1u)
            def.rows /= 2u;
        else
            def.cols /= 2u;
    }
    if (bytes == 0)
        fail("a smaller valid definition became invalid", def.cols, def.rows);

    if ((alloc_mode & 31u) == 0) {
        cnt.refuse = true;
        if (clv_grid_create(&def, &hook) != NULL || cnt.allocs != 1)
            fail("a failed allocation made a grid", cnt.allocs, 0);
        return 0;
    }
    clv_grid *g = clv_grid_create(&def, (alloc_mode & 32u) ? &hook : NULL);
    if (g == NULL)
        fail("a valid definition made no grid", def.cols, def.rows);
    if (!(alloc_mode & 32u)) { /* the default allocator: use the hook from here on */
        clv_grid_destroy(g);
        g = clv_grid_create(&def, &hook);
        if (g == NULL)
            fail("a valid definition made no grid", def.cols, def.rows);
    }
    if (cnt.allocs != 1 || cnt.last != bytes)
        fail("create did not allocate its memory size once", cnt.allocs, (uint32_t)cnt.last);
    const uint32_t allocs = cnt.allocs;

    /* Counts: up to the capacity, sometimes just past it (a refusal). */
    uint32_t count = next_u16(&rd) % (def.capacity + 1u);
    uint32_t nq = next_u8(&rd);
    uint8_t mode = next_u8(&rd);
    if ((mode & 7u) == 0)
        nq = (uint32_t)next_u8(&rd) % 4u; /* 0 boxes, and few */
    if ((mode & 15u) == 1)
        nq = def.capacity < MAX_BOXES ? def.capacity : MAX_BOXES;
    if ((mode & 31u) == 2)
        count = def.capacity;
    if (nq > def.capacity)
        nq = def.capacity; /* more is a refusal, made below on purpose */
    if (count > 0 && nq > MAX_PAIRS / count)
        nq = MAX_PAIRS / count;
    if (nq > MAX_ROW_WALKS / def.rows) /* at least 1: rows <= MAX_ROWS = MAX_ROW_WALKS */
        nq = MAX_ROW_WALKS / def.rows;
    bool over_count = (mode & 63u) == 3, over_boxes = (mode & 63u) == 4 && def.capacity < 255u;
    if (over_count)
        count = def.capacity + 1u;
    if (over_boxes)
        nq = def.capacity + 1u;

    axis ax = {def.origin.x, def.cell_size, def.cols}, ay = {def.origin.y, def.cell_size, def.rows};
    float *x = checked_malloc((size_t)count * sizeof(float));
    float *y = checked_malloc((size_t)count * sizeof(float));
    float *r = checked_malloc((size_t)count * sizeof(float));
    for (uint32_t i = 0; i < count; i++) {
        x[i] = pick_coord(&rd, &ax, i > 0 ? x[i - 1u] : 0.0f);
        y[i] = pick_coord(&rd, &ay, i > 0 ? y[i - 1u] : 0.0f);
        r[i] = pick_radius(&rd, def.cell_size);
    }
    clv_aabb *boxes = checked_malloc((size_t)nq * sizeof(clv_aabb));
    clv_aabb prev = {{def.origin.x, def.origin.y}, {def.origin.x, def.origin.y}};
    for (uint32_t k = 0; k < nq; k++) {
        boxes[k] = pick_box(&rd, &ax, &ay, &prev);
        prev = boxes[k];
    }
    uint32_t *first = checked_malloc(((size_t)nq + 1u) * sizeof(uint32_t));

    if (over_count || over_boxes) {
        uint32_t *out = checked_malloc(16u * sizeof(uint32_t));
        check_refusal(g, boxes, nq, x, y, r, count, first, out, 16u);
        if (over_count && clv_grid_build(g, x, y, r, count))
            fail("build took more entities than the capacity", count, def.capacity);
        if (clv_grid_count(g) != 0)
            fail("a refused build left entities", clv_grid_count(g), 0);
        free(out);
        goto done;
    }
    if (count > 0 && nq > 0 && (mode & 0xc0u) == 0xc0u) { /* a NULL array */
        uint32_t *out = checked_malloc(16u * sizeof(uint32_t));
        uint8_t which = next_u8(&rd) % 4u;
        check_refusal(g, which == 0 ? NULL : boxes, nq, which == 1 ? NULL : x,
                      which == 2 ? NULL : y, which == 3 ? NULL : r, count, first, out, 16u);
        free(out);
    }
    uint32_t small[16];
    if (clv_grid_query_boxes(g, boxes, nq, x, y, r, count, NULL, small, 16u) != 0 ||
        clv_grid_query_boxes(g, boxes, nq, x, y, r, count, NULL, NULL, 0) != 0)
        fail("query_boxes without first[] returned a total", nq, count);

    /* query_boxes files its boxes with the previous call's largest radius and checks it after:
     * a call first on the same crowd with every radius 0 (the hint too small) or doubled (too
     * large), chosen by the box count so that no input byte changes meaning. */
    uint32_t big = count * nq;
    uint32_t *out = checked_malloc((size_t)big * sizeof(uint32_t));
    if (nq % 3u != 0 && count > 0) {
        float *r0 = checked_malloc((size_t)count * sizeof(float));
        for (uint32_t i = 0; i < count; i++)
            r0[i] = nq % 3u == 1 ? 0.0f : 2.0f * r[i];
        clv_grid_query_boxes(g, boxes, nq, x, y, r0, count, first, out, big);
        free(r0);
    }

    /* Every box at once, with room for every candidate: out is exactly that long. */
    uint32_t total = clv_grid_query_boxes(g, boxes, nq, x, y, r, count, first, out, big);
    if (cnt.allocs != allocs)
        fail("query_boxes allocated", cnt.allocs, allocs);
    if (clv_grid_count(g) != 0)
        fail("query_boxes left entities in the grid", clv_grid_count(g), 0);
    for (uint32_t k = 0; k < nq; k++) {
        uint32_t none = 0;
        if (clv_grid_query(g, boxes[k], &none, 1) != 0)
            fail("a query after query_boxes found entities", k, 0);
    }
    if (first[0] != 0 || first[nq] != total || total > big)
        fail("query_boxes' first[] does not frame its total", first[nq], total);

    /* The reference: one build, one query per box. */
    if (!clv_grid_build(g, x, y, r, count))
        fail("build refused a count within the capacity", count, def.capacity);
    if (clv_grid_count(g) != count)
        fail("build kept another count", clv_grid_count(g), count);
    uint32_t *want = checked_malloc((size_t)count * sizeof(uint32_t));
    uint32_t *brute = checked_malloc((size_t)count * sizeof(uint32_t));
    uint32_t sum = 0;
    for (uint32_t k = 0; k < nq; k++) {
        uint32_t m = clv_grid_query(g, boxes[k], want, count);
        if (m > count)
            fail("a query found more candidates than entities", m, count);
        for (uint32_t j = 0; j < m; j++) {
            if (want[j] >= count || (j > 0 && want[j] <= want[j - 1u]))
                fail("a query's list is not ascending indices", k, j);
        }
        if (m > 0 && clv_grid_query(g, boxes[k], brute, m - 1u) != m)
            fail("a query with a small cap returned another count", k, m);
        uint32_t nb = rule(x, y, r, count, boxes[k], brute);
        if (nb != m || memcmp(brute, want, (size_t)m * sizeof(uint32_t)) != 0)
            fail("a query differs from the documented rule (box, rule count)", k, nb);
        uint32_t b = first[k], e = first[k + 1u];
        if (e < b || e - b != m || memcmp(out + b, want, (size_t)m * sizeof(uint32_t)) != 0)
            fail("query_boxes differs from a query (box, query count)", k, m);
        sum += m;
    }
    if (sum != total)
        fail("query_boxes' total differs from the queries'", total, sum);
    if (cnt.allocs != allocs)
        fail("build or query allocated", cnt.allocs, allocs);

    /* Again on the dirty grid, with another cap or no out at all: the same total and first[] in
     * any case, the same lists when they fit. */
    uint32_t cap;
    bool no_out = false;
    uint8_t tag = next_u8(&rd);
    switch (tag % 6u) {
    case 0:
        cap = total;
        break;
    case 1:
        cap = total > 0 ? total - 1u : 0u;
        break;
    case 2:
        cap = 0;
        break;
    case 3:
        cap = total > 0 ? next_u16(&rd) % total : 0u;
        break;
    default: /* only the total and first[]: a write through out would fault */
        no_out = true;
        cap = (tag & 1u) ? total : UINT32_MAX;
        break;
    }
    uint32_t *first2 = checked_malloc(((size_t)nq + 1u) * sizeof(uint32_t));
    uint32_t *out2 = no_out ? NULL : checked_malloc((size_t)cap * sizeof(uint32_t));
    uint32_t again = clv_grid_query_boxes(g, boxes, nq, x, y, r, count, first2, out2, cap);
    if (again != total)
        fail("query_boxes with another cap returned another total", again, total);
    if (memcmp(first2, first, ((size_t)nq + 1u) * sizeof(uint32_t)) != 0)
        fail("query_boxes with another cap gave another first[]", cap, total);
    if (!no_out && cap >= total && memcmp(out2, out, (size_t)total * sizeof(uint32_t)) != 0)
        fail("query_boxes on a dirty grid gave other lists", cap, total);
    if (clv_grid_count(g) != 0 || cnt.allocs != allocs)
        fail("query_boxes left entities or allocated", clv_grid_count(g), cnt.allocs);
    free(first2);
    free(out2);
    free(want);
    free(brute);
    free(out);

done:
    clv_grid_destroy(g);
    if (cnt.live != 0 || cnt.frees != cnt.allocs)
        fail("the grid did not give back its memory", (uint32_t)cnt.live, cnt.frees);
    free(first);
    free(boxes);
    free(x);
    free(y);
    free(r);
    return 0;
}
