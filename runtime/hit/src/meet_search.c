/* The search for hitboxes that meet (step 3b of docs/hit-rules.md): which pairs of placed
 * hitboxes of different teams overlap along both axes, found without a pass over all pairs;
 * clash.c decides whether each pair meets and what the meetings do. */
#include "step_internal.h"

#include <float.h>
#include <string.h>

static int32_t team_of(const clv_arena *a, int32_t p) {
    return a->vit[a->att[a->placed[p].attack1 - 1].owner.index1 - 1].team;
}

/* A key whose unsigned order is the order of the floats: -0 counts as +0, as == has it. */
static uint32_t left_key(float left) {
    float v = left + 0.0f;
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return (u & 0x80000000u) != 0 ? ~u : u | 0x80000000u;
}

/* Sorts e[0..n) by left edge, equal edges in their order (a stable radix sort on their keys,
 * which it sets, a byte per pass, between e and tmp): the order of a sort by (left, placed)
 * when e comes in placed order. Returns the array that holds the result. */
static clv__edge *sort_edges(clv__edge *e, clv__edge *tmp, int32_t n) {
    int32_t count[4][256];
    memset(count, 0, sizeof count);
    for (int32_t i = 0; i < n; i++) {
        uint32_t k = e[i].key = left_key(e[i].left);
        for (int b = 0; b < 4; b++) {
            count[b][(k >> (8 * b)) & 255u]++;
        }
    }
    for (int b = 0; b < 4; b++) {
        if (count[b][(e[0].key >> (8 * b)) & 255u] == n) {
            continue; /* every key has this byte: the pass would move nothing */
        }
        for (int32_t v = 0, at = 0; v < 256; v++) {
            int32_t c = count[b][v];
            count[b][v] = at;
            at += c;
        }
        for (int32_t i = 0; i < n; i++) {
            tmp[count[b][(e[i].key >> (8 * b)) & 255u]++] = e[i];
        }
        clv__edge *t = e;
        e = tmp;
        tmp = t;
    }
    return e;
}

static clv_hit_status push_meeting(clv_arena *a, const clv__meeting *m) {
    if (!clv__reserve(&a->al, (void **)&a->meetings, &a->meeting_cap, a->meeting_count + 1,
                      sizeof *a->meetings)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    a->meetings[a->meeting_count++] = *m;
    return CLV_HIT_OK;
}

/* Tests the pair of edges ep, eq (overlapping along x) and keeps their meeting. */
static clv_hit_status test_pair(clv_arena *a, const clv__edge *ep, const clv__edge *eq) {
    if (ep->team == eq->team || eq->top > ep->bottom || ep->top > eq->bottom) {
        return CLV_HIT_OK;
    }
    int32_t p = ep->placed, q = eq->placed, tp = ep->team, tq = eq->team;
    clv__meeting m;
    if (clv__meets(a, tp < tq ? p : q, tp < tq ? q : p, &m)) {
        return push_meeting(a, &m);
    }
    return CLV_HIT_OK;
}

/* Every edge is tested against the later ones (by left edge) that start within it. */
static clv_hit_status sweep_all(clv_arena *a, const clv__edge *order, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        for (int32_t j = i + 1; j < n && order[j].left <= order[i].right; j++) {
            if (test_pair(a, &order[i], &order[j]) != CLV_HIT_OK) {
                return CLV_HIT_ERR_NO_MEMORY;
            }
        }
    }
    return CLV_HIT_OK;
}

/* The same pairs when there are two teams, x's and y's (each sorted by left edge), without
 * visiting pairs of one team: each edge of x is tested against the edges of y that start
 * within it, from its own left edge on, and each of y against those of x that start within it
 * after its left edge (equal edges are x's to test). */
static clv_hit_status sweep_two(clv_arena *a, const clv__edge *x, int32_t nx, const clv__edge *y,
                                int32_t ny) {
    for (int32_t i = 0, from = 0; i < nx; i++) {
        while (from < ny && y[from].key < x[i].key) {
            from++;
        }
        for (int32_t j = from; j < ny && y[j].left <= x[i].right; j++) {
            if (test_pair(a, &x[i], &y[j]) != CLV_HIT_OK) {
                return CLV_HIT_ERR_NO_MEMORY;
            }
        }
    }
    for (int32_t i = 0, from = 0; i < ny; i++) {
        while (from < nx && x[from].key <= y[i].key) {
            from++;
        }
        for (int32_t j = from; j < nx && x[j].left <= y[i].right; j++) {
            if (test_pair(a, &y[i], &x[j]) != CLV_HIT_OK) {
                return CLV_HIT_ERR_NO_MEMORY;
            }
        }
    }
    return CLV_HIT_OK;
}

/* A side with at most FEW hitboxes is searched by bit masks instead of a sort. */
#define FEW 64

/* The index of the lowest set bit of m != 0. */
static int32_t lowest_bit(uint64_t m) {
#if defined(__GNUC__)
    return __builtin_ctzll(m);
#else
    int32_t k = 0;
    for (; (m & 1u) == 0; m >>= 1) {
        k++;
    }
    return k;
#endif
}

/* The few's columns and rows: CELLS of each over the box around them, a bit per hitbox in each
 * column and each row its bounds reach. A cell index is a non-decreasing function of the
 * coordinate, so two edges that overlap reach a common column and a common row; and a hitbox
 * reaches a column and a row of another's box exactly when their cells share one, as a box's
 * cells are its columns times its rows: the columns' bits and the rows' bits, ANDed, are the
 * cells' bits, at the memory of two lines instead of a square. */
#define CELLS 64

typedef struct few_cells {
    float x0, y0, kx, ky; /* cell = (coordinate - origin) * k, held to [0, CELLS - 1] */
    uint64_t col[CELLS], row[CELLS];
} few_cells;

static int32_t cell_of(float v, float origin, float k) {
    float t = (v - origin) * k;
    t = t > 0.0f ? t : 0.0f; /* also NaN to 0 */
    t = t < (float)(CELLS - 1) ? t : (float)(CELLS - 1);
    return (int32_t)t;
}

/* Cells per unit over [lo, hi]: 0 for an empty, infinite or NaN span (one cell for all), at
 * most FLT_MAX for a span too thin to divide. */
static float cells_per_unit(float lo, float hi) {
    float w = hi - lo, k = w > 0.0f ? (float)CELLS / w : 0.0f;
    return k < FLT_MAX ? k : FLT_MAX;
}

/* The bits of cells[lo..hi]: the two ends without a loop (a hitbox of the many mostly reaches
 * one or two), the rest when there are more. */
static uint64_t span_bits(const uint64_t *cells, int32_t lo, int32_t hi) {
    uint64_t m = cells[lo] | cells[hi];
    for (int32_t c = lo + 1; c < hi; c++) {
        m |= cells[c];
    }
    return m;
}

/* Files the few (fe[0..nf)) in their columns and rows. */
static void file_few(few_cells *g, const clv__edge *fe, int32_t nf) {
    float x0 = fe[0].left, x1 = fe[0].right, y0 = fe[0].top, y1 = fe[0].bottom;
    for (int32_t k = 1; k < nf; k++) {
        x0 = fe[k].left < x0 ? fe[k].left : x0;
        x1 = fe[k].right > x1 ? fe[k].right : x1;
        y0 = fe[k].top < y0 ? fe[k].top : y0;
        y1 = fe[k].bottom > y1 ? fe[k].bottom : y1;
    }
    g->x0 = x0, g->y0 = y0;
    g->kx = cells_per_unit(x0, x1), g->ky = cells_per_unit(y0, y1);
    memset(g->col, 0, sizeof g->col);
    memset(g->row, 0, sizeof g->row);
    for (int32_t k = 0; k < nf; k++) {
        uint64_t bit = (uint64_t)1 << k;
        int32_t c1 = cell_of(fe[k].right, x0, g->kx), r1 = cell_of(fe[k].bottom, y0, g->ky);
        for (int32_t c = cell_of(fe[k].left, x0, g->kx); c <= c1; c++) {
            g->col[c] |= bit;
        }
        for (int32_t r = cell_of(fe[k].top, y0, g->ky); r <= r1; r++) {
            g->row[r] |= bit;
        }
    }
}

/* Two teams, one of them (team `few`, nf <= FEW hitboxes) with few: the same pairs as the
 * sweep, each found once from the other team's side, through the cells of the few instead of a
 * sort of the many. */
static clv_hit_status sweep_few(clv_arena *a, const clv__edge *e, int32_t n, int32_t few,
                                int32_t nf) {
    clv__edge fe[FEW];
    for (int32_t i = 0, k = 0; i < n; i++) {
        if (e[i].team == few) {
            fe[k++] = e[i];
        }
    }
    few_cells g;
    file_few(&g, fe, nf);
    for (int32_t i = 0; i < n; i++) {
        if (e[i].team == few) {
            continue;
        }
        int32_t c0 = cell_of(e[i].left, g.x0, g.kx), c1 = cell_of(e[i].right, g.x0, g.kx);
        uint64_t m = span_bits(g.col, c0, c1);
        if (m == 0) {
            continue; /* no column of the few: most of the many, the rows unread */
        }
        int32_t r0 = cell_of(e[i].top, g.y0, g.ky), r1 = cell_of(e[i].bottom, g.y0, g.ky);
        for (m &= span_bits(g.row, r0, r1); m != 0; m &= m - 1) {
            const clv__edge *f = &fe[lowest_bit(m)];
            if (f->left <= e[i].right && e[i].left <= f->right &&
                test_pair(a, f, &e[i]) != CLV_HIT_OK) {
                return CLV_HIT_ERR_NO_MEMORY;
            }
        }
    }
    return CLV_HIT_OK;
}

/* The pairs of placed hitboxes that may meet, by a sweep over x: sorted by their left edge,
 * each is tested against those whose left edge lies within its own bounds, no pass over all
 * pairs. Pairs of one team, or one attack, never meet. */
clv_hit_status clv__find_meetings(clv_arena *a) {
    a->meeting_count = 0;
    int32_t n = a->placed_count;
    if (n < 2) {
        return CLV_HIT_OK;
    }
    /* the second half: the sort's scratch */
    if (!clv__reserve(&a->al, (void **)&a->meet_order, &a->meet_order_cap, 2 * n,
                      sizeof *a->meet_order)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    int32_t team0 = team_of(a, 0), other = team0, teams = 1, n0 = 0;
    for (int32_t i = 0; i < n; i++) {
        const clv_aabb *b = &a->placed[i].bounds;
        int32_t t = team_of(a, i);
        a->meet_order[i] = (clv__edge){b->min.x, i, t, b->max.x, b->min.y, b->max.y, 0};
        n0 += t == team0;
        if (t != team0 && (teams == 1 || t != other)) {
            teams = teams == 1 ? 2 : 3; /* three or more: the sweep over all */
            other = teams == 2 ? t : other;
        }
    }
    if (teams == 1) {
        return CLV_HIT_OK; /* only hitboxes of different teams meet: no sort needed */
    }
    if (teams == 2 && (n0 <= FEW || n - n0 <= FEW)) {
        bool few0 = n0 <= FEW;
        return sweep_few(a, a->meet_order, n, few0 ? team0 : other, few0 ? n0 : n - n0);
    }
    clv__edge *order = sort_edges(a->meet_order, a->meet_order + n, n);
    if (teams > 2) {
        return sweep_all(a, order, n);
    }
    /* the other half of the buffer takes the two teams apart, each still in order */
    clv__edge *x = order == a->meet_order ? a->meet_order + n : a->meet_order, *y = x + n0;
    for (int32_t i = 0, i0 = 0, i1 = 0; i < n; i++) {
        if (order[i].team == team0) {
            x[i0++] = order[i];
        } else {
            y[i1++] = order[i];
        }
    }
    return sweep_two(a, x, n0, y, n - n0);
}
