/* The rules' order of a frame's candidates (clv__sort_cands): by attack, then target, then
 * position, whatever order the broadphase appended them in, with each candidate's record moved
 * whole. Checked against qsort by the rules' comparison (clv__cand_cmp) on the same records, for
 * counts on both sides of the size where the sort changes method, and for the orders a broadphase
 * produces: random, already sorted, reversed, runs of rising targets (one run per hitbox), and
 * random among few attacks and targets (where the position decides). */
#include "cleave/hit.h"
#include "harness.h"

#include "../../../runtime/hit/src/step_internal.h"

#include <stdlib.h>
#include <string.h>

enum { RANDOM, SORTED, REVERSED, RUNS, CROWDED, ORDERS };

/* n candidates with distinct (attack, target, pos) keys, in the given order (CROWDED: at
 * random, from few attacks and targets); each record's other fields name where it stands
 * before the sort. Wide keys (attacks up to 2^17, targets up to 2^20, positions up to 2^8)
 * vary in the low three bytes of attack and target and the low byte of pos. */
static void make_cands(uint64_t *r, clv__cand *c, int32_t n, int order) {
    for (int32_t i = 0; i < n; i++) {
        memset(&c[i], 0, sizeof c[i]);
        bool unique;
        do {
            if (order == RUNS || order == CROWDED) {
                /* few attacks and targets: many pairs hit by several hitboxes */
                c[i].attack1 = 1u + clv_test_splitmix32(r) % 4u;
                c[i].target1 = 1u + clv_test_splitmix32(r) % ((uint32_t)n / 4u + 8u);
                c[i].pos = (int32_t)(clv_test_splitmix32(r) % 8u);
            } else {
                c[i].attack1 = 1u + clv_test_splitmix32(r) % (1u << 17);
                c[i].target1 = 1u + clv_test_splitmix32(r) % (1u << 20);
                c[i].pos = (int32_t)(clv_test_splitmix32(r) % 256u);
            }
            unique = true;
            for (int32_t j = 0; j < i && unique; j++) {
                unique = clv__cand_cmp(&c[i], &c[j]) != 0;
            }
        } while (!unique);
    }
    if (order == SORTED || order == REVERSED) {
        qsort(c, (size_t)n, sizeof *c, clv__cand_cmp);
    }
    for (int32_t i = 0; order == REVERSED && i < n / 2; i++) {
        clv__cand t = c[i];
        c[i] = c[n - 1 - i];
        c[n - 1 - i] = t;
    }
    if (order == RUNS) {
        /* runs of up to 40 candidates, each sorted by target as one hitbox's list would be */
        for (int32_t lo = 0; lo < n; lo += 40) {
            int32_t len = n - lo < 40 ? n - lo : 40;
            qsort(c + lo, (size_t)len, sizeof *c, clv__cand_cmp);
        }
    }
    for (int32_t i = 0; i < n; i++) {
        c[i].placed = i; /* the record's identity, after any reordering above */
        c[i].sweep_t = (float)i * 0.5f;
        c[i].contact.depth = (float)i;
    }
}

static void test_order_matches_qsort(void) {
    static const int32_t sizes[] = {0, 1, 2, 3, 17, 58, 255, 511, 512, 513, 1000, 3000};
    clv_arena *a = clv_arena_create(NULL, NULL);
    CHECK(a != NULL);
    uint64_t r = 11;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        int32_t n = sizes[si];
        clv__cand *want = malloc(((size_t)n + 1) * sizeof *want);
        CHECK(want != NULL);
        for (int order = 0; order < ORDERS; order++) {
            CHECK(clv__reserve(&a->al, (void **)&a->cand, &a->cand_cap, n + 1, sizeof *a->cand));
            make_cands(&r, a->cand, n, order);
            a->cand_count = n;
            memcpy(want, a->cand, (size_t)n * sizeof *want);
            qsort(want, (size_t)n, sizeof *want, clv__cand_cmp);
            CHECK(clv__sort_cands(a) == CLV_HIT_OK);
            CHECK(a->cand_count == n);
            int32_t wrong = 0;
            for (int32_t i = 0; i < n; i++) {
                const clv__cand *g = &a->cand[i], *w = &want[i];
                wrong += g->attack1 != w->attack1 || g->target1 != w->target1 || g->pos != w->pos ||
                         g->placed != w->placed || g->sweep_t != w->sweep_t ||
                         g->contact.depth != w->contact.depth;
            }
            if (wrong != 0) {
                fprintf(stderr, "  %d candidates, order %d: %d out of place\n", n, order, wrong);
            }
            CHECK(wrong == 0);
        }
        free(want);
    }
    clv_arena_destroy(a);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_order_matches_qsort);
    return clv_test_report();
}
