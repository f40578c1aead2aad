/* Steps 4-6 of the frame: the candidates that may hit, and why the others miss. */
#include "step_internal.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

int clv__cand_cmp(const void *pa, const void *pb) {
    const clv__cand *x = pa, *y = pb;
    if (x->attack1 != y->attack1) {
        return x->attack1 < y->attack1 ? -1 : 1;
    }
    if (x->target1 != y->target1) {
        return x->target1 < y->target1 ? -1 : 1;
    }
    return (x->pos > y->pos) - (x->pos < y->pos);
}

int clv__record_cmp(const clv__record *x, const clv__record *y) {
    if (x->attack1 != y->attack1) {
        return x->attack1 < y->attack1 ? -1 : 1;
    }
    if (x->attack_gen != y->attack_gen) {
        return x->attack_gen < y->attack_gen ? -1 : 1;
    }
    if (x->target1 != y->target1) {
        return x->target1 < y->target1 ? -1 : 1;
    }
    if (x->target_gen != y->target_gen) {
        return x->target_gen < y->target_gen ? -1 : 1;
    }
    return (x->group_key > y->group_key) - (x->group_key < y->group_key);
}

/* First record not below the key. */
int32_t clv__rec_lower(const clv_arena *a, const clv__record *key) {
    int32_t lo = 0, hi = a->rec_count;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (clv__record_cmp(&a->rec[mid], key) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

clv__record clv__rec_key(uint32_t attack1, uint16_t attack_gen, uint32_t target1,
                         uint16_t target_gen, int32_t group_key) {
    clv__record k;
    memset(&k, 0, sizeof k);
    k.attack1 = attack1;
    k.attack_gen = attack_gen;
    k.target1 = target1;
    k.target_gen = target_gen;
    k.group_key = group_key;
    return k;
}

int32_t clv__record_find(const clv_arena *a, uint32_t attack1, uint16_t attack_gen,
                         uint32_t target1, uint16_t target_gen, int32_t group_key) {
    clv__record k = clv__rec_key(attack1, attack_gen, target1, target_gen, group_key);
    int32_t i = clv__rec_lower(a, &k);
    return i < a->rec_count && clv__record_cmp(&a->rec[i], &k) == 0 ? i : -1;
}

bool clv__same_pair(const clv__record *r, const clv__record *k) {
    return r->attack1 == k->attack1 && r->attack_gen == k->attack_gen && r->target1 == k->target1 &&
           r->target_gen == k->target_gen;
}

const clv__box *clv__cand_box(const clv_arena *a, const clv__cand *c) {
    const clv__attack *at = &a->att[c->attack1 - 1];
    return &a->weapons[at->weapon1 - 1].boxes[a->placed[c->placed].box];
}

const clv_attack_def *clv__cand_attack_def(const clv_arena *a, const clv__cand *c) {
    const clv__attack *at = &a->att[c->attack1 - 1];
    return &a->weapons[at->weapon1 - 1].attacks[at->attack];
}

bool clv__own_side(const clv_arena *a, const clv__cand *c) {
    uint32_t owner1 = a->att[c->attack1 - 1].owner.index1;
    return c->target1 == owner1 || a->vit[c->target1 - 1].team == a->vit[owner1 - 1].team;
}

bool clv__rehit_refused(const clv_arena *a, const clv__cand *c) {
    const clv__attack *at = &a->att[c->attack1 - 1];
    const clv_attack_def *ad = clv__cand_attack_def(a, c);
    int32_t r = clv__record_find(a, c->attack1, at->gen, c->target1, a->ent[c->target1 - 1].gen,
                                 clv__cand_box(a, c)->group_key);
    return r >= 0 && (ad->rehit == 0 || at->elapsed - a->rec[r].last < ad->rehit);
}

/* Filters that need nothing but the candidate and the state before this frame's hits. */
static void filter(clv_arena *a) {
    for (int32_t i = 0; i < a->cand_count; i++) {
        clv__cand *c = &a->cand[i];
        if (c->reason >= 0) {
            continue;
        }
        /* each read where it is needed: most candidates of a volley end at the first test */
        const clv__vitals *t = &a->vit[c->target1 - 1];
        int32_t why = -1;
        if (clv__own_side(a, c)) {
            c->reason = CLV_MISS_TEAM;
        } else if (a->stop[c->attack1 - 1].reason >= 0) {
            c->reason = a->stop[c->attack1 - 1].reason; /* it met another attack and lost */
        } else if (!(t->hp > 0.0f)) {
            c->reason = CLV_MISS_DEAD;
        } else if (t->state == CLV_HURT_INTANGIBLE) {
            c->reason = CLV_MISS_INTANGIBLE;
        } else if ((why = clv__filter_combat(a, c)) >= 0) {
            c->reason = why;
        } else {
            const clv_attack_def *ad = clv__cand_attack_def(a, c);
            if (c->rehit >= 0 ? c->rehit != 0 : clv__rehit_refused(a, c)) {
                c->reason = CLV_MISS_REHIT;
            } else if (ad->lockout > 0) {
                const clv__attack *at = &a->att[c->attack1 - 1];
                const clv__box *box = clv__cand_box(a, c);
                uint16_t tgen = a->ent[c->target1 - 1].gen;
                clv__record k = clv__rec_key(c->attack1, at->gen, c->target1, tgen, INT32_MIN);
                for (int32_t j = clv__rec_lower(a, &k);
                     j < a->rec_count && clv__same_pair(&a->rec[j], &k); j++) {
                    if (a->rec[j].group_key != box->group_key &&
                        at->elapsed - a->rec[j].last < ad->lockout) {
                        c->reason = CLV_MISS_LOCKOUT;
                        break;
                    }
                }
            }
        }
    }
}

/* true when x goes before y: higher priority, then earlier in the frame's list. */
static bool precedes(const clv_arena *a, const clv__cand *x, const clv__cand *y) {
    int32_t px = clv__cand_box(a, x)->def.priority, py = clv__cand_box(a, y)->def.priority;
    if (px != py) {
        return px > py;
    }
    return x->pos < y->pos;
}

/* One hitbox per (attack, group, target); with a lockout, one group per (attack, target).
 * Every comparison is against the candidates that passed filter(), so the reasons do not
 * depend on the order the losers are examined in. */
static void select_hitboxes(clv_arena *a) {
    for (int32_t i = 0; i < a->cand_count;) {
        int32_t j = i;
        while (j < a->cand_count && a->cand[j].attack1 == a->cand[i].attack1 &&
               a->cand[j].target1 == a->cand[i].target1) {
            j++;
        }
        for (int32_t x = i; x < j; x++) {
            clv__cand *cx = &a->cand[x];
            cx->pending = -1;
            if (cx->reason >= 0) {
                continue;
            }
            int32_t gx = clv__cand_box(a, cx)->group_key;
            bool beaten_in_group = false, beaten = false;
            for (int32_t y = i; y < j; y++) {
                const clv__cand *cy = &a->cand[y];
                if (y == x || cy->reason >= 0 || !precedes(a, cy, cx)) {
                    continue;
                }
                beaten = true;
                if (clv__cand_box(a, cy)->group_key == gx) {
                    beaten_in_group = true;
                }
            }
            if (beaten_in_group) {
                cx->pending = CLV_MISS_PRECEDENCE;
            } else if (beaten && clv__cand_attack_def(a, cx)->lockout > 0) {
                cx->pending = CLV_MISS_LOCKOUT;
            }
        }
        for (int32_t x = i; x < j; x++) {
            if (a->cand[x].pending >= 0) {
                a->cand[x].reason = a->cand[x].pending;
            }
        }
        i = j;
    }
}

typedef struct rank {
    int64_t key; /* the grouping key: placed hitbox or attack */
    float dist;
    uint32_t target1;
    int32_t idx;
    int32_t end;
} rank;

static int cmp_rank(const void *pa, const void *pb) {
    const rank *x = pa, *y = pb;
    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    if (x->dist != y->dist) {
        return x->dist < y->dist ? -1 : 1;
    }
    if (x->target1 != y->target1) {
        return x->target1 < y->target1 ? -1 : 1;
    }
    return (x->idx > y->idx) - (x->idx < y->idx);
}

static rank *rank_buffer(clv_arena *a, int32_t n) {
    int32_t cap_ints = a->scratch_cap;
    int32_t need = n * (int32_t)(sizeof(rank) / sizeof(int32_t));
    if (!clv__reserve(&a->al, (void **)&a->scratch, &cap_ints, need, sizeof(int32_t))) {
        return NULL;
    }
    a->scratch_cap = cap_ints;
    return (rank *)(void *)a->scratch;
}

static bool limits_hits(const clv_arena *a, const clv__cand *c) {
    return c->reason < 0 && clv__cand_box(a, c)->def.max_hits > 0;
}

static bool limits_targets(const clv_arena *a, const clv__cand *c) {
    return clv__cand_attack_def(a, c)->max_targets > 0;
}

/* A rank buffer with room for the candidates `wanted` keeps in *out; CLV_HIT_OK with *out NULL
 * when it keeps none. */
static clv_hit_status rank_room(clv_arena *a, bool (*wanted)(const clv_arena *, const clv__cand *),
                                rank **out) {
    int32_t n = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        n += wanted(a, &a->cand[i]) ? 1 : 0;
    }
    *out = n > 0 ? rank_buffer(a, n) : NULL;
    return n > 0 && *out == NULL ? CLV_HIT_ERR_NO_MEMORY : CLV_HIT_OK;
}

/* max_hits: the nearest targets to the hitbox's core first, then the lowest ids. */
static clv_hit_status limit_max_hits(clv_arena *a) {
    rank *r;
    clv_hit_status st = rank_room(a, limits_hits, &r);
    if (r == NULL) {
        return st;
    }
    int32_t n = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        const clv__cand *c = &a->cand[i];
        if (limits_hits(a, c)) {
            r[n].key = c->placed;
            r[n].dist = c->core_dist;
            r[n].target1 = c->target1;
            r[n].idx = i;
            r[n].end = 0;
            n++;
        }
    }
    qsort(r, (size_t)n, sizeof *r, cmp_rank);
    int32_t taken = 0;
    for (int32_t k = 0; k < n; k++) {
        if (k == 0 || r[k].key != r[k - 1].key) {
            taken = 0;
        }
        clv__cand *c = &a->cand[r[k].idx];
        const clv__box *box = clv__cand_box(a, c);
        if (taken < box->def.max_hits) {
            taken++;
        } else if (box->def.knockback_ignores_hit_count) {
            c->push_only = 1;
        } else {
            c->reason = CLV_MISS_MAX_HITS;
        }
    }
    return CLV_HIT_OK;
}

/* max_targets: new targets of a swing, nearest first, then the lowest ids. */
static clv_hit_status limit_max_targets(clv_arena *a) {
    rank *r;
    clv_hit_status st = rank_room(a, limits_targets, &r);
    if (r == NULL) {
        return st;
    }
    int32_t n = 0;
    for (int32_t i = 0; i < a->cand_count;) {
        int32_t j = i;
        float best = FLT_MAX;
        bool any = false;
        while (j < a->cand_count && a->cand[j].attack1 == a->cand[i].attack1 &&
               a->cand[j].target1 == a->cand[i].target1) {
            const clv__cand *c = &a->cand[j];
            if (c->reason < 0 && !c->push_only) {
                any = true;
                best = c->core_dist < best ? c->core_dist : best;
            }
            j++;
        }
        const clv__cand *c = &a->cand[i];
        if (any && limits_targets(a, c)) {
            const clv__attack *at = &a->att[c->attack1 - 1];
            clv__record k = clv__rec_key(c->attack1, at->gen, c->target1,
                                         a->ent[c->target1 - 1].gen, INT32_MIN);
            int32_t lo = clv__rec_lower(a, &k);
            bool known = lo < a->rec_count && clv__same_pair(&a->rec[lo], &k);
            if (!known) {
                r[n].key = c->attack1;
                r[n].dist = best;
                r[n].target1 = c->target1;
                r[n].idx = i;
                r[n].end = j;
                n++;
            }
        }
        i = j;
    }
    qsort(r, (size_t)n, sizeof *r, cmp_rank);
    int32_t taken = 0;
    for (int32_t k = 0; k < n; k++) {
        if (k == 0 || r[k].key != r[k - 1].key) {
            taken = 0;
        }
        const clv__cand *c = &a->cand[r[k].idx];
        const clv__attack *at = &a->att[c->attack1 - 1];
        int32_t room = clv__cand_attack_def(a, c)->max_targets - at->targets_hit;
        if (taken < room) {
            taken++;
            continue;
        }
        for (int32_t i = r[k].idx; i < r[k].end; i++) {
            if (a->cand[i].reason < 0 && !a->cand[i].push_only) {
                a->cand[i].reason = CLV_MISS_MAX_TARGETS;
            }
        }
    }
    return CLV_HIT_OK;
}

/* A candidate's sort key, its fields least significant first, and where it stands. */
typedef struct cand_key {
    uint32_t f[3]; /* pos, target1, attack1 */
    int32_t idx;
} cand_key;

/* cand[i] = the old cand[k[i].idx], cycle by cycle; a settled place gets idx = its own. */
static void place_in_order(clv_arena *a, cand_key *k, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        if (k[i].idx == i) {
            continue;
        }
        clv__cand first = a->cand[i];
        int32_t j = i;
        while (k[j].idx != i) {
            int32_t from = k[j].idx;
            a->cand[j] = a->cand[from];
            k[j].idx = j;
            j = from;
        }
        a->cand[j] = first;
        k[j].idx = j;
    }
}

/* Up to this many candidates are sorted by merging (n log n steps on the keys); more, by the
 * radix sort, whose twelve tables of 256 counts cost the same for any n and outweigh the
 * merging's steps below it. */
#define MERGE_MAX 512

static bool key_before(const cand_key *x, const cand_key *y) {
    if (x->f[2] != y->f[2]) {
        return x->f[2] < y->f[2];
    }
    if (x->f[1] != y->f[1]) {
        return x->f[1] < y->f[1];
    }
    return x->f[0] < y->f[0];
}

/* The keys k[0..n) in clv__cand_cmp's order, merged in runs of 1, 2, 4, ... between k and tmp;
 * returns the array that holds them. */
static cand_key *merge_keys(cand_key *k, cand_key *tmp, int32_t n) {
    for (int32_t w = 1; w < n; w *= 2) {
        for (int32_t lo = 0; lo < n; lo += 2 * w) {
            int32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int32_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) {
                tmp[o++] = key_before(&k[j], &k[i]) ? k[j++] : k[i++];
            }
            while (i < mid) {
                tmp[o++] = k[i++];
            }
            while (j < hi) {
                tmp[o++] = k[j++];
            }
        }
        cand_key *t = k;
        k = tmp;
        tmp = t;
    }
    return k;
}

/* The keys k[0..n) in clv__cand_cmp's order by a radix sort a byte at a time between k and tmp (the
 * bytes every key shares skipped: most of them); returns the array that holds them. */
static cand_key *radix_keys(cand_key *k, cand_key *tmp, int32_t n) {
    int32_t count[12][256];
    memset(count, 0, sizeof count);
    for (int32_t i = 0; i < n; i++) {
        for (int32_t b = 0; b < 12; b++) {
            count[b][(k[i].f[b >> 2] >> (8 * (b & 3))) & 255u]++;
        }
    }
    for (int32_t b = 0; b < 12; b++) {
        int32_t f = b >> 2, shift = 8 * (b & 3);
        if (count[b][(k[0].f[f] >> shift) & 255u] == n) {
            continue; /* every key has this byte */
        }
        for (int32_t v = 0, at = 0; v < 256; v++) {
            int32_t c = count[b][v];
            count[b][v] = at;
            at += c;
        }
        for (int32_t i = 0; i < n; i++) {
            tmp[count[b][(k[i].f[f] >> shift) & 255u]++] = k[i];
        }
        cand_key *t = k;
        k = tmp;
        tmp = t;
    }
    return k;
}

/* The candidates in clv__cand_cmp's order (attack, target, pos: no two share all three), as a
 * qsort of them would leave them: small keys sorted (merge_keys when few, else radix_keys),
 * then one move of each candidate to its place, where a qsort moves the large candidate records
 * n log n times. */
clv_hit_status clv__sort_cands(clv_arena *a) {
    int32_t n = a->cand_count;
    bool sorted = true;
    for (int32_t i = 1; i < n && sorted; i++) {
        sorted = clv__cand_cmp(&a->cand[i - 1], &a->cand[i]) < 0;
    }
    if (sorted) {
        return CLV_HIT_OK;
    }
    int32_t ints = (int32_t)(2 * sizeof(cand_key) / sizeof(int32_t)) * n;
    if (!clv__reserve(&a->al, (void **)&a->scratch, &a->scratch_cap, ints, sizeof(int32_t))) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    cand_key *k = (cand_key *)(void *)a->scratch, *tmp = k + n;
    for (int32_t i = 0; i < n; i++) {
        const clv__cand *c = &a->cand[i];
        k[i] = (cand_key){{(uint32_t)c->pos, c->target1, c->attack1}, i};
    }
    place_in_order(a, n <= MERGE_MAX ? merge_keys(k, tmp, n) : radix_keys(k, tmp, n), n);
    return CLV_HIT_OK;
}

clv_hit_status clv__rules(clv_arena *a) {
    clv_hit_status st = clv__sort_cands(a);
    if (st != CLV_HIT_OK) {
        return st;
    }
    filter(a);
    st = clv__parry(a);
    if (st != CLV_HIT_OK) {
        return st;
    }
    select_hitboxes(a);
    st = limit_max_hits(a);
    if (st == CLV_HIT_OK) {
        st = limit_max_targets(a);
    }
    if (st == CLV_HIT_OK) {
        st = clv__grab_rules(a);
    }
    if (st == CLV_HIT_OK) {
        st = clv__apply_and_emit(a);
    }
    return st;
}
