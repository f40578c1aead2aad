/* Many boxes against a crowd at once: clv_grid_query_boxes (see cleave/broadphase.h). */
#include "broadphase_internal.h"

#include <string.h>

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
 * read, with the last call's w as a hint (see clv_grid_query_boxes). A small crowd, whose
 * entities mostly stand under some box, keeps instead each reached cell's boxes side by side
 * in groups of eight (file_groups), and an entity meets its cell's boxes in one vector test.
 *
 * Scratch, all inside the grid: scratch[] the entities' sub-cells; occ[] the sub-cell bits,
 * then a "touched" (listed) and a "reached" bit per cell; ids[] a byte per cell; the first half
 * of entries[] the box lists (start[c] of a touched cell is where its list begins, preceded by
 * its length; boxes tested against every entity at the back); the second half first the
 * touched cells, then the (box, entity) hits in entity order, which a counting sort by box
 * turns into per-box ascending lists. With groups (in the grid's groups[]), all of entries[]
 * holds the hits. */

/* Entities per block of the pass over the crowd: its sub-cells, cells and picks stay in the
 * first-level cache (about 10 KB of the stack with the picks' words). Blocks of 512 rather than
 * 256 took 2-10% off the call at 100,000 and 1,000,000 entities (each block's candidates are
 * read back soon after the vector stores that wrote them, and each block sets up its loop
 * again); 1,000 and 10,000 did not move, and blocks of 64 or 128 were slower everywhere. */
enum { CLV_PICK_BLOCK = 512 };

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

/* The cell of sub-cell s (not sub_big): its row and column shifted right by sub_shift. */
static inline uint32_t cell_of_sub(const clv_grid *g, uint32_t s) {
    const uint32_t shift = g->sub_shift, sub_cols = g->def.cols << shift;
    const uint32_t row = (uint32_t)(((uint64_t)s * g->sub_magic) >> g->sub_magic_shift);
    return (row >> shift) * g->def.cols + ((s - row * sub_cols) >> shift);
}

/* The cell of an entity on sub-cell s, all ones for an oversized one (on sub_big), as the
 * groups' test reads it. */
static inline uint32_t cell_or_big(const clv_grid *g, uint32_t s) {
    return s == g->sub_big ? UINT32_MAX : cell_of_sub(g, s);
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
                            uint32_t i, uint32_t s, uint64_t *pairs, uint32_t room, uint32_t n) {
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
        const uint32_t c = cell_of_sub(g, s);
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

/* The lanes of group gp that hold a box, a bit each. The others hold whatever an earlier call
 * left there (or the zeros of clv_grid_create): their tests are computed, then dropped. */
static inline uint32_t lanes_of(const clv_box_group *gp) { return (1u << gp->fill) - 1u; }

/* The lanes of group gp whose box the square [xl, xh] x [yl, yh] meets, a bit each (lanes_of
 * tells which count); the square_meets test with the square's bounds computed once (a NaN bound
 * meets nothing). */
static inline uint32_t group_lanes(const clv_box_group *gp, float xl, float xh, float yl,
                                   float yh) {
#if defined(__SSE2__) || defined(_M_X64)
    const __m128 vxl = _mm_set1_ps(xl), vxh = _mm_set1_ps(xh);
    const __m128 vyl = _mm_set1_ps(yl), vyh = _mm_set1_ps(yh);
    uint32_t lanes = 0;
    for (uint32_t h = 0; h < CLV_GROUP_LANES; h += 4u) {
        __m128 m = _mm_and_ps(_mm_cmple_ps(vxl, _mm_loadu_ps(gp->max_x + h)),
                              _mm_cmpge_ps(vxh, _mm_loadu_ps(gp->min_x + h)));
        m = _mm_and_ps(m, _mm_and_ps(_mm_cmple_ps(vyl, _mm_loadu_ps(gp->max_y + h)),
                                     _mm_cmpge_ps(vyh, _mm_loadu_ps(gp->min_y + h))));
        lanes |= (uint32_t)_mm_movemask_ps(m) << h;
    }
    return lanes;
#else
    uint32_t lanes = 0;
    for (uint32_t j = 0; j < CLV_GROUP_LANES; j++) {
        bool hit = (xl <= gp->max_x[j]) & (xh >= gp->min_x[j]) & (yl <= gp->max_y[j]) &
                   (yh >= gp->min_y[j]);
        lanes |= (uint32_t)hit << j;
    }
    return lanes;
#endif
}

/* Records entity i's pairs with the boxes of the set lanes. With room for a whole group, every
 * lane is written without a branch (a miss is overwritten by the next pair); otherwise as
 * push_pair does. */
static inline uint32_t push_lanes(const clv_box_group *gp, uint32_t lanes, uint32_t i,
                                  uint64_t *pairs, uint32_t room, uint32_t n) {
    if (n + CLV_GROUP_LANES <= room) {
        for (uint32_t j = 0; j < CLV_GROUP_LANES; j++) {
            pairs[n] = (uint64_t)gp->box[j] << 32 | i;
            n += (lanes >> j) & 1u;
        }
        return n;
    }
    for (uint32_t j = 0; j < CLV_GROUP_LANES; j++) {
        n = push_pair(pairs, room, n, gp->box[j], i, (lanes >> j) & 1u);
    }
    return n;
}

/* The hits of entity i when each reached cell has groups of boxes: one vector test per group
 * (usually one), all boxes when it is oversized. Neither a list nor a word's bits to walk. */
static uint32_t entity_group_hits(const clv_grid *g, const box_lists *b, float ex, float ey,
                                  float er, uint32_t i, uint32_t s, uint64_t *pairs, uint32_t room,
                                  uint32_t n) {
    if (s == g->sub_big) {
        for (uint32_t q = 0; q < b->nq; q++) {
            n = push_pair(pairs, room, n, q, i, square_meets(ex, ey, er, &b->boxes[q]));
        }
        return n;
    }
    if (!(er >= 0.0f)) {
        return n; /* a negative radius meets nothing */
    }
    const float xl = ex - er, xh = ex + er, yl = ey - er, yh = ey + er;
    for (uint32_t gi = g->start[cell_of_sub(g, s)]; gi != CLV_NO_GROUP; gi = b->groups[gi].next) {
        const clv_box_group *gp = &b->groups[gi];
        n = push_lanes(gp, group_lanes(gp, xl, xh, yl, yh) & lanes_of(gp), i, pairs, room, n);
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

/* The largest radius up to the cell size (as entity_cells finds it), for a call without a hint.
 * Compared as bit patterns, which order floats >= 0 as their values: an integer maximum
 * vectorizes where a float one may not be reordered. */
static float largest_radius(const clv_grid *g, const float *r, uint32_t count) {
    const float cell_size = g->def.cell_size;
    uint32_t w_bits = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t rb;
        memcpy(&rb, &r[i], sizeof rb);
        rb = ((r[i] >= 0.0f) & (r[i] <= cell_size)) ? rb & 0x7fffffffu : 0u;
        w_bits = rb > w_bits ? rb : w_bits;
    }
    float w;
    memcpy(&w, &w_bits, sizeof w);
    return w;
}

#ifdef CLV_GRID_AVX2
/* The positions of the set bits of an 8-bit mask m, ascending, a byte each: eight lanes
 * left-packed, in clv_lane_pack[m]. One load where two halves of four lanes took ten scalar
 * operations (the pass over a crowd of 100,000 entities makes one such pack per eight). */
#define CLV_POP8(m)                                                                                \
    (((m)&1u) + ((m) >> 1 & 1u) + ((m) >> 2 & 1u) + ((m) >> 3 & 1u) + ((m) >> 4 & 1u) +            \
     ((m) >> 5 & 1u) + ((m) >> 6 & 1u) + ((m) >> 7 & 1u))
#define CLV_LANE(m, j)                                                                             \
    (((m) >> (j)&1u) * ((uint64_t)(j) << (8u * CLV_POP8((m) & ((1u << (j)) - 1u)))))
#define CLV_PACK(m)                                                                                \
    (CLV_LANE(m, 0) | CLV_LANE(m, 1) | CLV_LANE(m, 2) | CLV_LANE(m, 3) | CLV_LANE(m, 4) |          \
     CLV_LANE(m, 5) | CLV_LANE(m, 6) | CLV_LANE(m, 7))
#define CLV_PACK4(m) CLV_PACK(m), CLV_PACK(m + 1u), CLV_PACK(m + 2u), CLV_PACK(m + 3u)
#define CLV_PACK16(m) CLV_PACK4(m), CLV_PACK4(m + 4u), CLV_PACK4(m + 8u), CLV_PACK4(m + 12u)
#define CLV_PACK64(m) CLV_PACK16(m), CLV_PACK16(m + 16u), CLV_PACK16(m + 32u), CLV_PACK16(m + 48u)
static const uint64_t clv_lane_pack[256] = {CLV_PACK64(0u), CLV_PACK64(64u), CLV_PACK64(128u),
                                            CLV_PACK64(192u)};

/* The lanes of an 8-bit mask, left-packed, as eight 32-bit offsets. */
__attribute__((target("avx2"), always_inline)) static inline __m256i packed_lanes(uint32_t mask) {
    return _mm256_cvtepu8_epi32(
        _mm_loadl_epi64((const __m128i *)(const void *)&clv_lane_pack[mask]));
}

/* entity_cells for entities [base, base + m), m a multiple of 8, eight at a time: the same
 * sub-cells, into sub[0 .. m), and the same radius, into *w (the same column and row; the
 * sub-cell row * columns + column in integers, which the float sum gives exactly below 2^24
 * sub-cells); then, without a branch, the offsets of those whose block is marked in the
 * coarse bitmap, and of the oversized, into cand[] (which has room for 8 more); returns how
 * many. An entity on a marked sub-cell is in a marked block, so the others need no bit test:
 * at 1,000,000 entities most are left out by the coarse bitmap, held in four registers, where
 * the bit tests one at a time were half the time. (A gather of eight bitmap words took about
 * 3 ns here: slower than testing them one by one, except where most blocks are marked.) With
 * exact, the offsets of those whose own sub-cell is marked, by that gather: the picks. */
__attribute__((target("avx2,popcnt"), always_inline)) static inline uint32_t
candidates_of(const clv_grid *g, const bool exact, const bool cells, const bool all, const float *x,
              const float *y, const float *r, uint32_t base, uint32_t m, uint32_t count,
              uint32_t *sub, uint32_t *cell_out, uint32_t *cand, float *w) {
    const __m256 vox = _mm256_set1_ps(g->def.origin.x), voy = _mm256_set1_ps(g->def.origin.y);
    const __m256 vinv = _mm256_set1_ps(g->sub_inv), zero = _mm256_setzero_ps();
    const __m256 vmc = _mm256_set1_ps(g->sub_max_col), vmr = _mm256_set1_ps(g->sub_max_row);
    const __m256i vicols = _mm256_set1_epi32((int32_t)(g->def.cols << g->sub_shift));
    const __m256 vcell = _mm256_set1_ps(g->def.cell_size);
    const __m256i vbig = _mm256_set1_epi32((int32_t)g->sub_big);
    const __m128i vcs = _mm_cvtsi32_si128((int)g->coarse_shift);
    const __m256i t0 = _mm256_loadu_si256((const __m256i *)(const void *)(g->coarse + 0));
    const __m256i t1 = _mm256_loadu_si256((const __m256i *)(const void *)(g->coarse + 8));
    const __m256i t2 = _mm256_loadu_si256((const __m256i *)(const void *)(g->coarse + 16));
    const __m256i t3 = _mm256_loadu_si256((const __m256i *)(const void *)(g->coarse + 24));
    const __m256i v31 = _mm256_set1_epi32(31), vcols = _mm256_set1_epi32((int32_t)g->def.cols);
    const __m128i vshift = _mm_cvtsi32_si128((int)g->sub_shift);
    __m256 vw = zero;
    uint32_t nc = 0;
    __m256i vk = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7); /* the lanes' offsets from base */
    for (uint32_t k = 0; k < m; k += 8u, vk = _mm256_add_epi32(vk, _mm256_set1_epi32(8))) {
        const uint32_t i = base + k;
        if ((i & 15u) == 0 && i + CLV_GRID_PREFETCH < count) {
            _mm_prefetch((const char *)(x + i + CLV_GRID_PREFETCH), _MM_HINT_T0);
            _mm_prefetch((const char *)(y + i + CLV_GRID_PREFETCH), _MM_HINT_T0);
            _mm_prefetch((const char *)(r + i + CLV_GRID_PREFETCH), _MM_HINT_T0);
        }
        __m256 fx = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(x + i), vox), vinv);
        __m256 fy = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(y + i), voy), vinv);
        fx = _mm256_min_ps(_mm256_max_ps(fx, zero), vmc);
        fy = _mm256_min_ps(_mm256_max_ps(fy, zero), vmr);
        __m256i icol = _mm256_cvttps_epi32(fx), irow = _mm256_cvttps_epi32(fy);
        __m256i cell = _mm256_add_epi32(_mm256_mullo_epi32(irow, vicols), icol);
        __m256 vr = _mm256_loadu_ps(r + i);
        __m256 keep = _mm256_cmp_ps(vr, vcell, _CMP_LE_OQ);
        cell = _mm256_blendv_epi8(vbig, cell, _mm256_castps_si256(keep));
        _mm256_storeu_si256((__m256i *)(void *)(sub + k), cell);
        if (cells) { /* the cell, as cell_of_sub finds it; all ones for an oversized entity */
            __m256i whole =
                _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srl_epi32(irow, vshift), vcols),
                                 _mm256_srl_epi32(icol, vshift));
            whole = _mm256_or_si256(
                whole, _mm256_xor_si256(_mm256_castps_si256(keep), _mm256_set1_epi32(-1)));
            _mm256_storeu_si256((__m256i *)(void *)(cell_out + k), whole);
        }
        /* every radius but a NaN (maxps answers its second operand for a NaN): the oversized
         * are left out below, only where the largest is one */
        vw = _mm256_max_ps(vr, vw);
        if (all) {
            continue; /* every entity is picked: no bit to test */
        }
        __m256i bit;
        if (exact) {
            /* the sub-cell's own bit, in 32-bit words (the order of the 64-bit words' bits on
             * this little-endian processor); an oversized entity's sub_big bit is always set */
            const __m256i word = _mm256_i32gather_epi32((const int *)(const void *)g->occ,
                                                        _mm256_srli_epi32(cell, 5), 4);
            bit = _mm256_slli_epi32(_mm256_srlv_epi32(word, _mm256_and_si256(cell, v31)), 31);
        } else {
            /* row crow of the coarse bitmap: register crow / 8, lane crow % 8 */
            __m256i crow = _mm256_srl_epi32(irow, vcs), ccol = _mm256_srl_epi32(icol, vcs);
            __m256 lo = _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(t0, crow)),
                                         _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(t1, crow)),
                                         _mm256_castsi256_ps(_mm256_slli_epi32(crow, 28)));
            __m256 hi = _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(t2, crow)),
                                         _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(t3, crow)),
                                         _mm256_castsi256_ps(_mm256_slli_epi32(crow, 28)));
            __m256i word = _mm256_castps_si256(
                _mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32(crow, 27))));
            bit = _mm256_slli_epi32(_mm256_srlv_epi32(word, ccol), 31);
        }
        /* and the oversized (not keep), from keep's signs: no vector operation for them */
        const uint32_t pass = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(bit)) |
                              (~(uint32_t)_mm256_movemask_ps(keep) & 0xffu);
        _mm256_storeu_si256((__m256i *)(void *)(cand + nc),
                            _mm256_permutevar8x32_epi32(vk, packed_lanes(pass)));
        nc += (uint32_t)__builtin_popcount(pass);
    }
    float lanes[8], wm = 0.0f;
    _mm256_storeu_ps(lanes, vw);
    for (int k = 0; k < 8; k++) {
        wm = lanes[k] > wm ? lanes[k] : wm;
    }
    *w = wm <= g->def.cell_size ? wm : largest_radius(g, r + base, m);
    return nc;
}

/* candidates_of with the coarse bitmap, with it and the cells (for groups of boxes; a larger
 * crowd, which has none, would spend 6-8% more at 100,000 entities writing them), and with
 * each entity's own bit (exact) and the cells: each its own loop, without a test inside. */
__attribute__((target("avx2,popcnt"))) static uint32_t
coarse_candidates(const clv_grid *g, const float *x, const float *y, const float *r, uint32_t base,
                  uint32_t m, uint32_t count, uint32_t *sub, uint32_t *cand, float *w) {
    return candidates_of(g, false, false, false, x, y, r, base, m, count, sub, NULL, cand, w);
}

__attribute__((target("avx2,popcnt"))) static uint32_t
coarse_cell_candidates(const clv_grid *g, const float *x, const float *y, const float *r,
                       uint32_t base, uint32_t m, uint32_t count, uint32_t *sub, uint32_t *cell,
                       uint32_t *cand, float *w) {
    return candidates_of(g, false, true, false, x, y, r, base, m, count, sub, cell, cand, w);
}

__attribute__((target("avx2,popcnt"))) static uint32_t
exact_candidates(const clv_grid *g, const float *x, const float *y, const float *r, uint32_t base,
                 uint32_t m, uint32_t count, uint32_t *sub, uint32_t *cell, uint32_t *cand,
                 float *w) {
    return candidates_of(g, true, true, false, x, y, r, base, m, count, sub, cell, cand, w);
}

/* The sub-cells and cells only, for boxes filed with test_all: every entity is picked. */
__attribute__((target("avx2,popcnt"))) static void
all_cells(const clv_grid *g, const float *x, const float *y, const float *r, uint32_t base,
          uint32_t m, uint32_t count, uint32_t *sub, uint32_t *cell, float *w) {
    (void)candidates_of(g, false, true, true, x, y, r, base, m, count, sub, cell, NULL, w);
}
#endif

/* The sub-cell of each entity in [lo, hi) into sub[0 .. hi - lo); returns the largest of their
 * radii up to the cell size. count bounds the prefetch. */
static float entity_cells(const clv_grid *g, const float *x, const float *y, const float *r,
                          uint32_t lo, uint32_t hi, uint32_t count, uint32_t *sub) {
    const float sub_cols = (float)(g->def.cols << g->sub_shift), cell_size = g->def.cell_size;
    const uint32_t sub_big = g->sub_big;
    uint32_t i = lo;
    sub -= lo;
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

/* The sub-cells of entities [base, base + m) into sub[0 .. m), their largest radius up to the
 * cell size into *w, and the offsets of those on a marked sub-cell (all of them with test_all)
 * into pick[]; returns how many. Where the processor has AVX2, their cells too when cell is not
 * NULL, into cell[0 .. m) (all ones for the oversized), for group_picks_avx2; exact is taken
 * only with cell. */
static uint32_t block_picks(const clv_grid *g, bool test_all, bool exact, const float *x,
                            const float *y, const float *r, uint32_t base, uint32_t m,
                            uint32_t count, uint32_t *sub, uint32_t *cell, uint32_t *pick,
                            float *w) {
    uint32_t np = 0;
#ifdef CLV_GRID_AVX2
    if (g->avx2 && (!test_all || cell != NULL)) { /* test_all: every entity, with its cell */
        uint32_t cand[CLV_PICK_BLOCK + 8u], m8 = m & ~7u, nc = 0, j = 0;
        float w8;
        if (test_all) {
            all_cells(g, x, y, r, base, m8, count, sub, cell, &w8);
        } else if (cell == NULL) {
            nc = coarse_candidates(g, x, y, r, base, m8, count, sub, cand, &w8);
        } else if (exact) {
            nc = exact_candidates(g, x, y, r, base, m8, count, sub, cell, cand, &w8);
        } else {
            nc = coarse_cell_candidates(g, x, y, r, base, m8, count, sub, cell, cand, &w8);
        }
        *w = entity_cells(g, x, y, r, base + m8, base + m, count, sub + m8);
        *w = w8 > *w ? w8 : *w;
        for (uint32_t k = m8; k < m && cell != NULL; k++) {
            cell[k] = cell_or_big(g, sub[k]);
        }
        if (test_all) {
            for (uint32_t k = 0; k < m; k++) {
                pick[k] = k;
            }
            return m;
        }
        if (exact) { /* the candidates are the picks */
            memcpy(pick, cand, (size_t)nc * sizeof(uint32_t));
            np = j = nc;
        }
        for (uint32_t k = m8; k < m; k++) {
            cand[nc++] = k;
        }
        for (; j < nc; j++) {
            pick[np] = cand[j];
            np = add_bit(np, g->occ, sub[cand[j]]);
        }
        return np;
    }
#endif
    (void)exact, (void)cell;
    *w = entity_cells(g, x, y, r, base, base + m, count, sub);
    if (test_all) {
        for (uint32_t k = 0; k < m; k++) {
            pick[np++] = k;
        }
        return np;
    }
    /* Most entities stand where no box reaches: keep the others, without a branch. */
    for (uint32_t k = 0; k < m; k++) {
        pick[np] = k;
        np = add_bit(np, g->occ, sub[k]);
    }
    return np;
}

#ifdef CLV_GRID_AVX2
/* group_picks's loop with the eight lanes of a group in one register, and the pairs of the
 * lanes hit left-packed and written in two stores (the pairs of an entity may come in any
 * order: they are sorted by box afterwards, and entities stay in order). The picks' cells come
 * from cell[] when block_picks wrote it, else from their sub-cells. */
__attribute__((target("avx2,popcnt"))) static uint32_t
group_picks_avx2(const clv_grid *g, const box_lists *b, const float *x, const float *y,
                 const float *r, uint32_t base, const uint32_t *sub, const uint32_t *cell,
                 const uint32_t *pick, uint32_t j, uint32_t np, uint32_t limit, uint32_t *n_io) {
    uint64_t *pairs = b->pairs;
    const uint32_t room = b->room;
    uint32_t n = *n_io;
    for (; j < np && n <= limit; j++) {
        const uint32_t k = pick[j], i = base + k;
        const uint32_t ck = cell != NULL ? cell[k] : cell_or_big(g, sub[k]);
        const float ex = x[i], ey = y[i], er = r[i];
        if (ck == UINT32_MAX) {
            n = entity_group_hits(g, b, ex, ey, er, i, sub[k], pairs, room, n);
            continue;
        }
        const float rr = er >= 0.0f ? er : NAN; /* a negative radius meets nothing */
        const __m256 vxl = _mm256_set1_ps(ex - rr), vxh = _mm256_set1_ps(ex + rr);
        const __m256 vyl = _mm256_set1_ps(ey - rr), vyh = _mm256_set1_ps(ey + rr);
        const __m256i vi = _mm256_set1_epi32((int32_t)i);
        for (uint32_t gi = g->start[ck]; gi != CLV_NO_GROUP;) {
            const clv_box_group *gp = &b->groups[gi];
            gi = gp->next;
            __m256 m = _mm256_and_ps(_mm256_cmp_ps(vxl, _mm256_loadu_ps(gp->max_x), _CMP_LE_OQ),
                                     _mm256_cmp_ps(vxh, _mm256_loadu_ps(gp->min_x), _CMP_GE_OQ));
            m = _mm256_and_ps(
                m, _mm256_and_ps(_mm256_cmp_ps(vyl, _mm256_loadu_ps(gp->max_y), _CMP_LE_OQ),
                                 _mm256_cmp_ps(vyh, _mm256_loadu_ps(gp->min_y), _CMP_GE_OQ)));
            const uint32_t lanes = (uint32_t)_mm256_movemask_ps(m); /* (empty lanes fail) */
            if (n + CLV_GROUP_LANES > room) {
                n = push_lanes(gp, lanes, i, pairs, room, n); /* the scratch's last slots */
                continue;
            }
            const __m256i box = _mm256_permutevar8x32_epi32(
                _mm256_loadu_si256((const __m256i *)(const void *)gp->box), packed_lanes(lanes));
            /* (box << 32 | i) for lanes 0, 1, 4, 5 then 2, 3, 6, 7; put back in order */
            const __m256i a = _mm256_unpacklo_epi32(vi, box), c = _mm256_unpackhi_epi32(vi, box);
            _mm256_storeu_si256((__m256i *)(void *)(pairs + n),
                                _mm256_permute2x128_si256(a, c, 0x20));
            _mm256_storeu_si256((__m256i *)(void *)(pairs + n + 4u),
                                _mm256_permute2x128_si256(a, c, 0x31));
            n += (uint32_t)__builtin_popcount(lanes);
        }
    }
    *n_io = n;
    return j;
}
#endif

/* The hits of the picked entities pick[j ..) (offsets from base) when the cells have groups of
 * boxes, into b->pairs after *n_io of them; stops at the end or once there are more than limit.
 * Returns the next pick. */
static uint32_t group_picks(const clv_grid *g, const box_lists *b, const float *x, const float *y,
                            const float *r, uint32_t base, const uint32_t *sub,
                            const uint32_t *cell, const uint32_t *pick, uint32_t j, uint32_t np,
                            uint32_t limit, uint32_t *n_io) {
#ifdef CLV_GRID_AVX2
    if (g->avx2) {
        return group_picks_avx2(g, b, x, y, r, base, sub, cell, pick, j, np, limit, n_io);
    }
#endif
    (void)cell;
    uint32_t n = *n_io;
    for (; j < np && n <= limit; j++) {
        const uint32_t k = pick[j], i = base + k;
        n = entity_group_hits(g, b, x[i], y[i], r[i], i, sub[k], b->pairs, b->room, n);
    }
    *n_io = n;
    return j;
}

/* The words of boxes of picks [j, np) into word[j ..): each one's cell's word, all boxes for the
 * oversized. Apart from the tests, where the loads of one pick wait on no branch of another:
 * 4-5% off the call at 100,000 entities, where each pick's cell, its word's index and the word
 * are three loads in a row. */
static void pick_words(const clv_grid *g, const box_lists *b, const uint32_t *sub,
                       const uint32_t *pick, uint32_t j, uint32_t np, uint64_t *word) {
    const uint64_t every = b->nq == CLV_MASK_BOXES ? ~(uint64_t)0 : ((uint64_t)1 << b->nq) - 1u;
    for (uint32_t t = j; t < np; t++) {
        const uint32_t s = sub[pick[t]];
        word[t] = s == g->sub_big ? every : b->masks[g->start[cell_of_sub(g, s)]];
    }
}

/* group_picks for words of boxes or lists of boxes. With words, the hits of each pick are its
 * word's bits in ascending order: neither a list to walk nor a merge. */
static uint32_t list_picks(const clv_grid *g, const box_lists *b, const float *x, const float *y,
                           const float *r, uint32_t base, const uint32_t *sub, const uint32_t *pick,
                           uint32_t j, uint32_t np, uint32_t limit, uint32_t *n_io) {
    uint64_t *pairs = b->pairs;
    const uint32_t room = b->room;
    uint32_t n = *n_io;
    if (b->masks != NULL) {
        uint64_t word[CLV_PICK_BLOCK];
        pick_words(g, b, sub, pick, j, np, word);
        for (; j < np && n <= limit; j++) {
            const uint32_t i = base + pick[j];
            const float ex = x[i], ey = y[i], er = r[i];
            for (uint64_t m = word[j]; m != 0; m &= m - 1u) {
                const uint32_t q = lowest_bit(m);
                n = push_pair(pairs, room, n, q, i, square_meets(ex, ey, er, &b->boxes[q]));
            }
        }
    } else {
        for (; j < np && n <= limit; j++) {
            const uint32_t k = pick[j], i = base + k;
            n = entity_hits(g, b, x[i], y[i], r[i], i, sub[k], pairs, room, n);
        }
    }
    *n_io = n;
    return j;
}

#ifdef CLV_GRID_AVX2
/* How many blocks of the coarse bitmap are marked, of *blocks. Where most are, it would leave
 * out few entities: their own bits are then read eight at a time by a gather, instead of one
 * by one after it. (Measured with a thousand small boxes over 10,000 entities, 70% of the
 * blocks marked: 5% off the call; with 64 boxes, 2% marked: the gather cost a third more.)
 * Where few are, few entities are picked, and the pass over all of them does not write their
 * cells for the few (64 boxes over 10,000 still entities, 0.7% picked: 10% more time). */
static uint32_t coarse_marked(const clv_grid *g, uint32_t *blocks) {
    const uint32_t cs = g->coarse_shift;
    const uint32_t bc = (((g->def.cols << g->sub_shift) - 1u) >> cs) + 1u;
    const uint32_t br = (((g->def.rows << g->sub_shift) - 1u) >> cs) + 1u;
    uint32_t marked = 0;
    for (uint32_t row = 0; row < br; row++) {
        marked += (uint32_t)__builtin_popcount(g->coarse[row]);
    }
    *blocks = bc * br;
    return marked;
}
#endif

/* Tests every entity's bit and returns the number of hits. With first NULL the first room
 * hits are left in pairs[] as (box << 32 | entity), in entity order; otherwise pairs[] is
 * flushed (see flush_pairs) whenever another entity's hits might not fit. Each block's
 * sub-cells are computed into a buffer of the block's own just before its bit tests, so they
 * never leave the first-level cache (a crowd-long array of them cost a round trip through
 * memory); *seen gets their largest radius (as entity_cells returns it). */
static uint32_t pick_entities(const clv_grid *g, const box_lists *b, const float *x, const float *y,
                              const float *r, uint32_t count, uint64_t *pairs, uint32_t room,
                              uint32_t *first, uint32_t *out, float *seen) {
    uint32_t sub[CLV_PICK_BLOCK], cell[CLV_PICK_BLOCK], pick[CLV_PICK_BLOCK], n = 0, total = 0;
    float w = 0.0f;
    uint32_t marked = 0, blocks = 1;
#ifdef CLV_GRID_AVX2
    if (g->avx2) {
        marked = coarse_marked(g, &blocks);
    }
#endif
    const bool cells = b->groups != NULL && (b->test_all || 8u * (uint64_t)marked > blocks);
    const bool exact = cells && !b->test_all && 3u * (uint64_t)marked > 2u * (uint64_t)blocks;
    for (uint32_t base = 0; base < count; base += CLV_PICK_BLOCK) {
        uint32_t m = count - base < CLV_PICK_BLOCK ? count - base : CLV_PICK_BLOCK;
        float wb;
        uint32_t *const cell_of = cells ? cell : NULL;
        uint32_t np = block_picks(g, b->n_every > 0 || b->test_all, exact, x, y, r, base, m, count,
                                  sub, cell_of, pick, &wb);
        w = wb > w ? wb : w;
        const uint32_t limit = first != NULL ? room - b->nq : UINT32_MAX;
        for (uint32_t j = 0; j < np;) {
            j = b->groups != NULL
                    ? group_picks(g, b, x, y, r, base, sub, cell_of, pick, j, np, limit, &n)
                    : list_picks(g, b, x, y, r, base, sub, pick, j, np, limit, &n);
            if (n > limit) {
                flush_pairs(pairs, n, first, out);
                total += n;
                n = 0;
            }
        }
    }
    if (first != NULL) {
        flush_pairs(pairs, n, first, out);
    }
    *seen = w;
    return total + n;
}

/* The grid's cells index the boxes instead of the entities: the boxes mark the half-cells they
 * reach in a bitmap (whole cells in a grid of more than 2^22 cells), each entity's centre costs
 * one bit test, and only the few on a marked half-cell are tested: against their cell's groups
 * of boxes (a crowd of up to CLV_GROUPS_MAX_COUNT), its word of boxes, or the one box that
 * reaches their cell, or the boxes listed for a cell that several reach (in a grid of up to 2^20
 * cells and with fewer than 255 boxes; otherwise every reached cell lists its boxes). The grid
 * keeps one hint, the crowd's largest radius, with which the next call files its boxes before
 * it reads the entities; a radius grown since costs that call a second pass, never an answer. */
static uint32_t query_run(clv_grid *g, const clv_aabb *boxes, uint32_t nq, const float *x,
                          const float *y, const float *r, uint32_t count, uint32_t *first,
                          uint32_t *out, uint32_t cap, bool groups_only, bool *filed) {
    memset(first, 0, ((size_t)nq + 1u) * sizeof(uint32_t));
    /* The boxes are filed first, widened by the last call's largest radius (the hint), and
     * each block of entities gets its sub-cells just before its bit tests, while the next
     * blocks stream in. Without a hint a pass over the radii finds the true one; when a
     * radius grew past the hint (the boxes were widened too little), the boxes are filed again
     * and the entities read again. */
    float w = g->w_hint >= 0.0f ? g->w_hint : largest_radius(g, r, count), seen = 0.0f;
    box_lists b = clv__grid_file_boxes(g, boxes, nq, w, count, first, groups_only);
    if (b.pairs == NULL) {
        *filed = false;
        return 0;
    }
    uint32_t total = pick_entities(g, &b, x, y, r, count, b.pairs, b.room, NULL, NULL, &seen);
    if (seen > w) {
        w = seen;
        b = clv__grid_file_boxes(g, boxes, nq, w, count, first, groups_only);
        if (b.pairs == NULL) {
            *filed = false;
            return 0;
        }
        total = pick_entities(g, &b, x, y, r, count, b.pairs, b.room, NULL, NULL, &seen);
    }
    *filed = true;
    g->w_hint = seen;
    memset(first, 0, ((size_t)nq + 1u) * sizeof(uint32_t));
    if (total <= b.room) {
        flush_pairs(b.pairs, total, first, NULL);
    } else {
        /* More hits than the scratch holds: count them in slices, place them below. */
        pick_entities(g, &b, x, y, r, count, b.pairs, b.room, first, NULL, &seen);
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
        pick_entities(g, &b, x, y, r, count, b.pairs, b.room, first, out, &seen);
    }
    return total;
}

/* At least the number of cells box q, widened by w, reaches: its extent over the cell size plus
 * two along each axis, held to the grid; 1 for an empty or NaN box (which reaches none). */
static float cells_bound(const clv_grid *g, clv_aabb q, float w) {
    float nx = (q.max.x - q.min.x + 2.0f * w) * g->inv_cell + 2.0f;
    float ny = (q.max.y - q.min.y + 2.0f * w) * g->inv_cell + 2.0f;
    if (!(nx >= 2.0f) || !(ny >= 2.0f)) {
        return 1.0f;
    }
    nx = nx < (float)g->def.cols ? nx : (float)g->def.cols;
    ny = ny < (float)g->def.rows ? ny : (float)g->def.rows;
    return nx * ny;
}

/* The end of the run of boxes from k0 whose cell lists fit the grid's scratch together (as
 * file_boxes counts them: a length and a slot per cell, and a slot per box); at least k0 + 1. */
static uint32_t run_end(const clv_grid *g, const clv_aabb *boxes, uint32_t k0, uint32_t nq,
                        float w) {
    const float room = 2.0f * (float)g->def.capacity;
    float need = 0.0f;
    uint32_t k = k0;
    for (; k < nq; k++) {
        const float box_need = 2.0f * cells_bound(g, boxes[k], w) + 1.0f;
        if (k > k0 && need + box_need > room) {
            break;
        }
        need += box_need;
    }
    return k;
}

/* Boxes whose cell lists do not fit the scratch together are answered in runs that do, the
 * entities read once per run: a box the lists cannot hold is otherwise tested against every
 * entity, which with a thousand small boxes over a small crowd cost more than the runs. Each
 * box's candidates do not depend on the others, so the runs' answers are the call's. Groups of
 * boxes hold any number of boxes: when they fit, one run answers all (and the runs' sizes,
 * a sum over the boxes, are not needed). */
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
    bool filed = false;
    if (nq <= CLV_MASK_BOXES) {
        return query_run(g, boxes, nq, x, y, r, count, first, out, cap, false, &filed);
    }
    if (count <= CLV_GROUPS_MAX_COUNT && g->max_groups > 0) {
        const uint32_t n = query_run(g, boxes, nq, x, y, r, count, first, out, cap, true, &filed);
        if (filed) {
            return n;
        }
    }
    const float w = g->w_hint >= 0.0f ? g->w_hint : largest_radius(g, r, count);
    uint32_t total = 0;
    for (uint32_t k0 = 0, k1; k0 < nq; k0 = k1) {
        k1 = run_end(g, boxes, k0, nq, w);
        const bool room = out != NULL && total <= cap;
        uint32_t n = query_run(g, boxes + k0, k1 - k0, x, y, r, count, first + k0,
                               room ? out + total : NULL, room ? cap - total : 0, false, &filed);
        for (uint32_t k = k0; k <= k1; k++) {
            first[k] += total; /* first[k0], the run's begin, was set to 0 by it */
        }
        total += n;
    }
    return total;
}
