/* Filing many boxes in the grid's cells for clv_grid_query_boxes (broadphase_boxes.c, which
 * describes the scheme): the sub-cells each box reaches, and per reached cell its groups of
 * boxes, its word of boxes, the one box that alone reaches it, or its list. */
#include "broadphase_internal.h"

#include <math.h>
#include <string.h>

/* The sub-cells a box covers: its bounds widened as a query widens them (by w instead of the
 * build's largest radius). Returns false for an empty or NaN box, which meets nothing. */
static bool box_cells(const clv_grid *g, clv_aabb q, float w, uint32_t *c0, uint32_t *c1,
                      uint32_t *r0, uint32_t *r1) {
#if defined(__SSE2__) || defined(_M_X64)
    /* widened and sub_col / sub_row on the four bounds at once (min x, min y, max x, max y),
     * the same operations lane by lane: with a thousand small boxes this was a fifth of the
     * call. A bound is moved outward (its factor is up) when it lies beyond 0 on its own side;
     * max and min clamp a NaN to the lower bound as the selects do. */
    const float up = 1.0f + 0x1p-20f, down = 1.0f - 0x1p-20f;
    const __m128 mins = _mm_castsi128_ps(_mm_set_epi32(0, 0, INT32_MIN, INT32_MIN));
    const __m128 v = _mm_setr_ps(q.min.x, q.min.y, q.max.x, q.max.y);
    __m128 f = _mm_min_ps(_mm_max_ps(v, _mm_set1_ps(-FLT_MAX)), _mm_set1_ps(FLT_MAX));
    f = _mm_add_ps(f, _mm_setr_ps(-w, -w, w, w));
    const __m128 out = _mm_cmpgt_ps(_mm_xor_ps(f, mins), _mm_setzero_ps());
    f = _mm_mul_ps(
        f, _mm_or_ps(_mm_and_ps(out, _mm_set1_ps(up)), _mm_andnot_ps(out, _mm_set1_ps(down))));
    float wide[4];
    _mm_storeu_ps(wide, f);
    if (!((q.min.x <= q.max.x) & (q.min.y <= q.max.y) & (wide[0] <= wide[2]) &
          (wide[1] <= wide[3]))) {
        return false;
    }
    const __m128 o =
        _mm_setr_ps(g->def.origin.x, g->def.origin.y, g->def.origin.x, g->def.origin.y);
    const __m128 most = _mm_setr_ps(g->sub_max_col, g->sub_max_row, g->sub_max_col, g->sub_max_row);
    f = _mm_mul_ps(_mm_sub_ps(f, o), _mm_set1_ps(g->sub_inv));
    f = _mm_min_ps(_mm_max_ps(f, _mm_setzero_ps()), most);
    uint32_t sub[4];
    _mm_storeu_si128((__m128i *)(void *)sub, _mm_cvttps_epi32(f));
    *c0 = sub[0], *r0 = sub[1], *c1 = sub[2], *r1 = sub[3];
    return true;
#else
    clv_aabb wide;
    if (!widened(q, w, &wide)) {
        return false;
    }
    *c0 = (uint32_t)(int32_t)sub_col(g, wide.min.x),
    *c1 = (uint32_t)(int32_t)sub_col(g, wide.max.x);
    *r0 = (uint32_t)(int32_t)sub_row(g, wide.min.y),
    *r1 = (uint32_t)(int32_t)sub_row(g, wide.max.y);
    return true;
#endif
}

/* Marks the sub-cells [c0, c1] x [r0, r1] in occ and their blocks in coarse. */
static void mark_sub_cells(clv_grid *g, uint32_t c0, uint32_t c1, uint32_t r0, uint32_t r1) {
    const uint32_t sub_cols = g->def.cols << g->sub_shift, cs = g->coarse_shift;
    for (uint32_t row = r0; row <= r1; row++) {
        set_bits(g->occ, row * sub_cols + c0, row * sub_cols + c1);
    }
    const uint32_t bits =
        (uint32_t)((~(uint64_t)0 << (c0 >> cs)) & (~(uint64_t)0 >> (63u - (c1 >> cs))));
    for (uint32_t row = r0 >> cs; row <= r1 >> cs; row++) {
        g->coarse[row] |= bits;
    }
}

/* Clears what a filing marks: first[0..nq], the sub-cell bits and cell_sets sets of cell bits
 * after them, the coarse copy; then sets the oversized sub-cell's bit (always picked). */
static void clear_marks(clv_grid *g, uint32_t *first, uint32_t nq, uint32_t cell_sets) {
    memset(first, 0, ((size_t)nq + 1u) * sizeof(uint32_t));
    memset(g->occ, 0, (g->sub_words + cell_sets * g->cell_words) * sizeof(uint64_t));
    memset(g->coarse, 0, sizeof g->coarse);
    set_bit(g->occ, g->sub_big);
}

/* Files the boxes, widened by w: marks the sub-cells they reach, names each cell's lone box,
 * lists the boxes of the cells several reach, and puts the boxes the lists have no room for
 * in every[]. first[k + 1] is left 1 for a filed box, 2 for one in every[], 0 for an empty one.
 * Uses occ, ids, start and both halves of entries[] (the second half only until it returns). */
static box_lists file_boxes(clv_grid *g, const clv_aabb *boxes, uint32_t nq, float w,
                            uint32_t *first) {
    uint32_t *start = g->start;
    clear_marks(g, first, nq, 2u);
    /* Which boxes are filed (first[k + 1] = 1) and which go to every entity (2): the lists,
     * each with its length, must fit their half of entries[], with a slot left for each box
     * still to come. */
    const uint32_t room = 2u * g->def.capacity, cols = g->def.cols, shift = g->sub_shift;
    uint64_t *touched = g->occ + g->sub_words;
    uint8_t *ids = g->ids;
    uint32_t *cells_touched =
        (uint32_t *)(void *)((uint64_t *)(void *)g->entries + g->def.capacity);
    uint64_t *reached = touched + g->cell_words;
    uint32_t filed = 0, n_every = 0, n_touched = 0;
    /* Each box's sub-cells, kept for the second pass where there is room: with a thousand
     * boxes, finding them twice was a third of the call. */
    uint32_t *rect = 4u * (uint64_t)nq <= g->def.capacity ? g->scratch : NULL;
    for (uint32_t k = 0; k < nq; k++) {
        uint32_t c0, c1, r0, r1;
        if (!box_cells(g, boxes[k], w, &c0, &c1, &r0, &r1)) {
            continue;
        }
        if (rect != NULL) {
            rect[4u * k] = c0, rect[4u * k + 1u] = c1, rect[4u * k + 2u] = r0;
            rect[4u * k + 3u] = r1;
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
        mark_sub_cells(g, c0, c1, r0, r1);
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
            if (rect != NULL) {
                c0 = rect[4u * k], c1 = rect[4u * k + 1u], r0 = rect[4u * k + 2u];
                r1 = rect[4u * k + 3u];
            } else if (!box_cells(g, boxes[k], w, &c0, &c1, &r0, &r1)) {
                continue; /* (it was filed: never) */
            }
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
    box_lists b = {boxes, nq, list, every, n_every, NULL, pairs, g->def.capacity, NULL, false};
    return b;
}

/* Files up to CLV_MASK_BOXES boxes, widened by w: marks the sub-cells they reach, gives each
 * cell they reach a word in entries[] (its index in start[c]) with a bit per box, and sets
 * first[k + 1] to 1 for a filed box. False when the cells outnumber the words (file_boxes). */
static bool file_masks(clv_grid *g, const clv_aabb *boxes, uint32_t nq, float w, uint32_t *first,
                       box_lists *out) {
    const uint32_t cols = g->def.cols, shift = g->sub_shift;
    uint64_t *reached = g->occ + g->sub_words;
    uint64_t *masks = (uint64_t *)(void *)g->entries;
    uint32_t *start = g->start, words = 0;
    clear_marks(g, first, nq, 1u);
    for (uint32_t k = 0; k < nq; k++) {
        uint32_t c0, c1, r0, r1;
        if (!box_cells(g, boxes[k], w, &c0, &c1, &r0, &r1)) {
            continue;
        }
        first[k + 1u] = 1;
        mark_sub_cells(g, c0, c1, r0, r1);
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
    *out = (box_lists){
        boxes, nq, NULL, NULL, 0, masks, masks + words, 2u * g->def.capacity - words, NULL, false};
    return true;
}

/* Empties group gp, in front of the chain head: its lanes get bounds no entity's square meets
 * (min +inf, max -inf), so that group_picks_avx2 need not mask the lanes past fill (only an
 * infinite radius spans -inf to +inf, and it makes an entity oversized, tested otherwise). */
static void empty_group(clv_box_group *gp, uint32_t head) {
    for (uint32_t j = 0; j < CLV_GROUP_LANES; j++) {
        gp->min_x[j] = gp->min_y[j] = INFINITY;
        gp->max_x[j] = gp->max_y[j] = -INFINITY;
    }
    gp->next = head;
    gp->fill = 0;
}

/* A new, empty group of boxes in front of the chain head; CLV_NO_GROUP when none is left. */
static uint32_t new_group(clv_grid *g, uint32_t *used, uint32_t head) {
    if (*used == g->max_groups) {
        return CLV_NO_GROUP;
    }
    empty_group(&g->groups[*used], head);
    return (*used)++;
}

/* Puts box k's bounds q in a group of cell c, which it reaches (start[c] is the cell's first
 * group, made here when reached has no bit for c, or made already when reached is NULL). False
 * when the groups run out. q comes by value: through a pointer, each of its bounds was read
 * again after every store into a group (a float store may alias it). */
static inline bool file_in_cell(clv_grid *g, clv_aabb q, uint32_t k, uint32_t c, uint64_t *reached,
                                uint32_t *used) {
    uint32_t gi;
    if (reached != NULL && !bit_of(reached, c)) {
        set_bit(reached, c);
        g->start[c] = gi = new_group(g, used, CLV_NO_GROUP);
    } else {
        gi = g->start[c]; /* CLV_NO_GROUP when the groups ran out here on an earlier box */
        if (gi != CLV_NO_GROUP && g->groups[gi].fill == CLV_GROUP_LANES) {
            g->start[c] = gi = new_group(g, used, gi);
        }
    }
    if (gi == CLV_NO_GROUP) {
        return false;
    }
    clv_box_group *gp = &g->groups[gi];
    const uint32_t j = gp->fill++;
    gp->min_x[j] = q.min.x, gp->min_y[j] = q.min.y;
    gp->max_x[j] = q.max.x, gp->max_y[j] = q.max.y;
    gp->box[j] = k;
    return true;
}

/* Sets bits [lo, lo + len) of bits, len <= 2, without a branch. Where the words' bits are in
 * the order of their bytes (little-endian), one 16-bit OR at the first bit's byte: a tenth of
 * the filing of a thousand small boxes faster than ORs of two words. Otherwise the pair of bits
 * may straddle two words, and the second, when it is not needed, gets no bit (an OR of zero). */
static inline void set_two_bits(uint64_t *bits, uint32_t lo, uint32_t len) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    unsigned char *p = (unsigned char *)bits + (lo >> 3);
    uint16_t v;
    memcpy(&v, p, sizeof v);
    v = (uint16_t)(v | (((1u << len) - 1u) << (lo & 7u)));
    memcpy(p, &v, sizeof v);
#else
    const uint64_t m = ((uint64_t)1 << len) - 1u;
    const uint32_t w = lo >> 6, b = lo & 63u;
    bits[w] |= m << b;
    bits[w + 1u] |= m >> 1 >> (63u - b);
#endif
}

/* mark_sub_cells for a box of at most 2 x 2 sub-cells, with no loop: such boxes are usually
 * many (a thousand knives), and the loops' varying trip counts cost more than their work. The
 * second row may be the first again (its bits are then set twice). */
static inline void mark_small(clv_grid *g, uint32_t c0, uint32_t c1, uint32_t r0, uint32_t r1) {
    const uint32_t sub_cols = g->def.cols << g->sub_shift, cs = g->coarse_shift;
    set_two_bits(g->occ, r0 * sub_cols + c0, c1 - c0 + 1u);
    set_two_bits(g->occ, r1 * sub_cols + c0, c1 - c0 + 1u);
    const uint32_t bits = (1u << (c0 >> cs)) | (1u << (c1 >> cs));
    g->coarse[r0 >> cs] |= bits;
    g->coarse[r1 >> cs] |= bits;
}

/* Files the small boxes listed by shape (shape[kind * nq ..], n_shape[kind] of them; kind: bit 0
 * a second column, bit 1 a second row), box k in cells cell_of[k], + 1, + cols, + cols + 1 as
 * its kind says. False when the groups run out. */
static bool file_by_shape(clv_grid *g, const clv_aabb *boxes, uint32_t nq, const uint32_t *shape,
                          const uint32_t *n_shape, const uint32_t *cell_of, uint64_t *reached,
                          uint32_t *used) {
    const uint32_t cols = g->def.cols;
    bool ok = true;
    for (uint32_t kind = 0; kind < 4u; kind++) {
        const uint32_t *list = shape + kind * nq, dx = kind & 1u, dy = (kind >> 1) * cols;
        for (uint32_t j = 0; j < n_shape[kind]; j++) {
            const uint32_t k = list[j], c = cell_of[k];
            const clv_aabb q = boxes[k];
            ok &= file_in_cell(g, q, k, c, reached, used);
            if (dx != 0) {
                ok &= file_in_cell(g, q, k, c + 1u, reached, used);
            }
            if (dy != 0) {
                ok &= file_in_cell(g, q, k, c + dy, reached, used);
                if (dx != 0) {
                    ok &= file_in_cell(g, q, k, c + dy + 1u, reached, used);
                }
            }
        }
    }
    return ok;
}

/* Whether the boxes, widened by w, cover the sub-cells twice over or more, counting each box's
 * rectangle of sub-cells whole (overlaps counted again). */
static bool boxes_cover(const clv_grid *g, const clv_aabb *boxes, uint32_t nq, float w) {
    const uint64_t subs = (uint64_t)(g->def.cols << g->sub_shift) * (g->def.rows << g->sub_shift);
    uint64_t covered = 0;
    for (uint32_t k = 0; k < nq && covered < 2u * subs; k++) {
        uint32_t c0, c1, r0, r1;
        if (box_cells(g, boxes[k], w, &c0, &c1, &r0, &r1)) {
            covered += (uint64_t)(c1 - c0 + 1u) * (r1 - r0 + 1u);
        }
    }
    return covered >= 2u * subs;
}

/* Files the boxes, widened by w: marks the sub-cells they reach and puts each box's bounds in
 * a group of each cell it reaches (start[c] is the cell's first group). False when the groups
 * run out (the other ways then). The hits take all of entries[]. A small room gets a group in
 * every cell; when its boxes also cover it twice over, nearly every entity stands under some
 * box: no sub-cell is marked, and every entity meets its cell's groups (test_all), which costs
 * the few others less than the marks and their bit tests cost all (at 1,000 entities under 64
 * boxes, 9 in 10 entities were picked). */
static bool file_groups(clv_grid *g, const clv_aabb *boxes, uint32_t nq, float w, uint32_t *first,
                        box_lists *out) {
    const uint32_t cols = g->def.cols, shift = g->sub_shift;
    uint64_t *reached = g->occ + g->sub_words;
    uint32_t used = 0;
    clear_marks(g, first, nq, 1u);
    const uint32_t cells = cols * g->def.rows;
    bool mark = true;
    if (cells <= CLV_GROUPS_ROOM && cells <= 4u * (uint64_t)nq && 2u * cells <= g->max_groups) {
        for (uint32_t c = 0; c < cells; c++) {
            g->start[c] = c;
            empty_group(&g->groups[c], CLV_NO_GROUP);
        }
        used = cells;
        reached = NULL;
        mark = !boxes_cover(g, boxes, nq, w);
    }
    /* Small boxes are filed after the others, those of each shape (1 x 1, 2 x 1, 1 x 2 or 2 x 2
     * cells) together: box by box, which of the four cells to file in was a mispredicted guess
     * for about every other box. The lists of each shape and each box's first cell take 5 nq of
     * the scratch. */
    uint32_t *shape = 5u * (uint64_t)nq <= g->def.capacity ? g->scratch : NULL;
    uint32_t *cell_of = shape != NULL ? shape + 4u * nq : NULL, n_shape[4] = {0, 0, 0, 0};
    for (uint32_t k = 0; k < nq; k++) {
        uint32_t c0, c1, r0, r1;
        if (!box_cells(g, boxes[k], w, &c0, &c1, &r0, &r1)) {
            continue;
        }
        first[k + 1u] = 1;
        const clv_aabb q = boxes[k];
        if ((c1 - c0 <= 1u) & (r1 - r0 <= 1u)) {
            if (mark) {
                mark_small(g, c0, c1, r0, r1);
            }
            const uint32_t col = c0 >> shift, row = r0 >> shift;
            const uint32_t dx = (c1 >> shift) - col, dy = ((r1 >> shift) - row) * cols;
            const uint32_t c = row * cols + col;
            if (shape != NULL) { /* filed below, by shape */
                const uint32_t kind = dx | (uint32_t)(dy != 0) << 1;
                shape[kind * nq + n_shape[kind]++] = k;
                cell_of[k] = c;
                continue;
            }
            bool ok = file_in_cell(g, q, k, c, reached, &used);
            if (dx != 0) {
                ok &= file_in_cell(g, q, k, c + 1u, reached, &used);
            }
            if (dy != 0) {
                ok &= file_in_cell(g, q, k, c + dy, reached, &used);
                if (dx != 0) {
                    ok &= file_in_cell(g, q, k, c + dy + 1u, reached, &used);
                }
            }
            if (!ok) {
                return false;
            }
            continue;
        }
        if (mark) {
            mark_sub_cells(g, c0, c1, r0, r1);
        }
        for (uint32_t row = r0 >> shift; row <= r1 >> shift; row++) {
            for (uint32_t col = c0 >> shift; col <= c1 >> shift; col++) {
                if (!file_in_cell(g, q, k, row * cols + col, reached, &used)) {
                    return false;
                }
            }
        }
    }
    if (shape != NULL && !file_by_shape(g, boxes, nq, shape, n_shape, cell_of, reached, &used)) {
        return false;
    }
    uint64_t *pairs = (uint64_t *)(void *)g->entries;
    *out =
        (box_lists){boxes, nq, NULL, NULL, 0, NULL, pairs, 2u * g->def.capacity, g->groups, !mark};
    return true;
}

/* Groups of boxes for a small crowd when they fit, else words of boxes when they fit, lists
 * otherwise; with groups_only, pairs NULL when the groups do not fit. */
box_lists clv__grid_file_boxes(clv_grid *g, const clv_aabb *boxes, uint32_t nq, float w,
                               uint32_t count, uint32_t *first, bool groups_only) {
    box_lists b;
    if (count <= CLV_GROUPS_MAX_COUNT && g->max_groups > 0 &&
        file_groups(g, boxes, nq, w, first, &b)) {
        return b;
    }
    if (groups_only) {
        return (box_lists){boxes, nq, NULL, NULL, 0, NULL, NULL, 0, NULL, false};
    }
    if (nq <= CLV_MASK_BOXES && file_masks(g, boxes, nq, w, first, &b)) {
        return b;
    }
    return file_boxes(g, boxes, nq, w, first);
}
