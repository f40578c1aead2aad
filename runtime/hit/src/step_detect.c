/* Steps 2-3 of the frame: which placed hitboxes touch which entities. */
#include "step_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

/* ---- 2-3. broadphase and narrowphase ----
 * The broadphase is one function with one contract: append every (placed hitbox, entity) pair
 * whose bounds touch, in any order (the rules sort them). A grid or a swept test replaces it
 * without touching anything else. */

static clv_hit_status push_cand(clv_arena *a, int32_t placed, int32_t slot) {
    if (a->cand_count == a->cand_cap && !clv__reserve(&a->al, (void **)&a->cand, &a->cand_cap,
                                                      a->cand_count + 1, sizeof *a->cand)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    clv__cand *c = &a->cand[a->cand_count++];
    c->attack1 = a->placed[placed].attack1;
    c->target1 = (uint32_t)slot + 1;
    c->pos = a->placed[placed].pos;
    c->placed = placed;
    return CLV_HIT_OK;
}

/* The bounding square of slot s touches box q (closed: touching counts). */
static bool square_touches(const clv_arena *a, int32_t s, const clv_aabb *q) {
    float x = a->bx[s], y = a->by[s], r = a->br[s];
    return ((x - r <= q->max.x) & (q->min.x <= x + r) & (y - r <= q->max.y) &
            (q->min.y <= y + r)) != 0;
}

/* All placed hitboxes at once: the crowd streams past them once (clv_grid_query_boxes), in
 * chunks of at most the grid's capacity (which the call requires of the box count). */
static clv_hit_status broadphase_grid(clv_arena *a) {
    const int32_t chunk = a->ent_cap;
    for (int32_t base = 0; base < a->placed_count; base += chunk) {
        int32_t nq = a->placed_count - base < chunk ? a->placed_count - base : chunk;
        if (!clv__reserve(&a->al, (void **)&a->grid_boxes, &a->grid_boxes_cap, nq,
                          sizeof *a->grid_boxes) ||
            !clv__reserve(&a->al, (void **)&a->grid_first, &a->grid_first_cap, nq + 1,
                          sizeof *a->grid_first)) {
            return CLV_HIT_ERR_NO_MEMORY;
        }
        for (int32_t k = 0; k < nq; k++) {
            a->grid_boxes[k] = a->placed[base + k].bounds;
        }
        uint32_t total = 0;
        for (;;) {
            total = clv_grid_query_boxes(a->grid, a->grid_boxes, (uint32_t)nq, a->bx, a->by, a->br,
                                         (uint32_t)a->ent_count, a->grid_first, a->grid_out,
                                         (uint32_t)a->grid_out_cap);
            if (total <= (uint32_t)a->grid_out_cap) {
                break;
            }
            if (total > (uint32_t)INT32_MAX ||
                !clv__reserve(&a->al, (void **)&a->grid_out, &a->grid_out_cap, (int32_t)total,
                              sizeof *a->grid_out)) {
                return CLV_HIT_ERR_NO_MEMORY;
            }
        }
        for (int32_t k = 0; k < nq; k++) {
            for (uint32_t j = a->grid_first[k]; j < a->grid_first[k + 1]; j++) {
                int32_t s = (int32_t)a->grid_out[j];
                if (a->br[s] > 0.0f && push_cand(a, base + k, s) != CLV_HIT_OK) {
                    return CLV_HIT_ERR_NO_MEMORY;
                }
            }
        }
    }
    return CLV_HIT_OK;
}

static clv_hit_status broadphase_scan(clv_arena *a) {
    /* One box around each attack's hitboxes rejects most entities with a few compares. */
    clv_aabb groups[64];
    int32_t group_first[65];
    int32_t ng = 0;
    for (int32_t p = 0; p < a->placed_count;) {
        int32_t q = p;
        clv_aabb u = a->placed[p].bounds;
        while (q < a->placed_count && a->placed[q].attack1 == a->placed[p].attack1) {
            const clv_aabb *b = &a->placed[q].bounds;
            u.min.x = fminf(u.min.x, b->min.x);
            u.min.y = fminf(u.min.y, b->min.y);
            u.max.x = fmaxf(u.max.x, b->max.x);
            u.max.y = fmaxf(u.max.y, b->max.y);
            q++;
        }
        if (ng == 64) {
            /* Many attacks: merge the rest into the last group. */
            clv_aabb *g = &groups[63];
            g->min.x = fminf(g->min.x, u.min.x);
            g->min.y = fminf(g->min.y, u.min.y);
            g->max.x = fmaxf(g->max.x, u.max.x);
            g->max.y = fmaxf(g->max.y, u.max.y);
        } else {
            groups[ng] = u;
            group_first[ng] = p;
            ng++;
        }
        p = q;
    }
    group_first[ng] = a->placed_count;
    for (int32_t g = 0; g < ng; g++) {
        const clv_aabb *gb = &groups[g];
        for (int32_t s = 0; s < a->ent_count; s++) {
            if (!square_touches(a, s, gb) || !(a->br[s] > 0.0f)) {
                continue;
            }
            for (int32_t p = group_first[g]; p < group_first[g + 1]; p++) {
                if (square_touches(a, s, &a->placed[p].bounds) &&
                    push_cand(a, p, s) != CLV_HIT_OK) {
                    return CLV_HIT_ERR_NO_MEMORY;
                }
            }
        }
    }
    return CLV_HIT_OK;
}

clv_hit_status clv__broadphase(clv_arena *a) {
    a->cand_count = 0;
    if (a->placed_count == 0) {
        return CLV_HIT_OK;
    }
    return a->grid != NULL ? broadphase_grid(a) : broadphase_scan(a);
}

/* Whether the box around the cores e[0]-e[1] and e[2]-e[3], grown by g, touches the box of
 * the hurtbox (hb). Per bound the same minima and maxima as min2f and max2f taken in pairs,
 * then the same compares (a NaN compares false in both), with SSE2 two core ends a lane: it
 * runs for every sub-step of every candidate. */
static inline bool cover_box_touches(const clv_vec2 *e, float g, const clv_aabb *hb) {
#if defined(__SSE2__) || defined(_M_X64)
    const __m128 hb_min = _mm_setr_ps(hb->min.x, hb->min.y, 0.0f, 0.0f);
    const __m128 hb_max = _mm_setr_ps(hb->max.x, hb->max.y, 0.0f, 0.0f);
    const __m128 v01 = _mm_loadu_ps(&e[0].x), v23 = _mm_loadu_ps(&e[2].x);
    const __m128 p = _mm_movelh_ps(v01, v23), r = _mm_movehl_ps(v23, v01); /* e0 e2, e1 e3 */
    const __m128 lo2 = _mm_min_ps(p, r), hi2 = _mm_max_ps(p, r);
    const __m128 gg = _mm_set1_ps(g);
    const __m128 lo = _mm_sub_ps(_mm_min_ps(lo2, _mm_movehl_ps(lo2, lo2)), gg);
    const __m128 hi = _mm_add_ps(_mm_max_ps(hi2, _mm_movehl_ps(hi2, hi2)), gg);
    const __m128 out = _mm_or_ps(_mm_cmpgt_ps(lo, hb_max), _mm_cmpgt_ps(hb_min, hi));
    return (_mm_movemask_ps(out) & 3) == 0;
#else
    float x0 = clv__min2f(clv__min2f(e[0].x, e[1].x), clv__min2f(e[2].x, e[3].x)) - g;
    float x1 = clv__max2f(clv__max2f(e[0].x, e[1].x), clv__max2f(e[2].x, e[3].x)) + g;
    float y0 = clv__min2f(clv__min2f(e[0].y, e[1].y), clv__min2f(e[2].y, e[3].y)) - g;
    float y1 = clv__max2f(clv__max2f(e[0].y, e[1].y), clv__max2f(e[2].y, e[3].y)) + g;
    return !(x0 > hb->max.x || hb->min.x > x1 || y0 > hb->max.y || hb->min.y > y1);
#endif
}

/* The first sub-step before limit whose cover (hull of its two cores, grown) touches hs, or -1. */
int32_t clv__first_substep(const clv_arena *a, const clv__placed *pl, const clv_shape *hs,
                           int32_t limit) {
    clv_aabb hb = clv_shape_bounds(hs);
    const clv_vec2 *q = &a->sub[pl->sub0];
    float rb = clv__sub_radius(pl, 0);
    for (int32_t k = 0; k < limit; k++) {
        float ra = rb; /* the radius at point k, as the sub-step before computed it */
        rb = clv__sub_radius(pl, k + 1);
        float g = (ra > rb ? ra : rb) + pl->grow;
        const clv_vec2 *e = &q[2 * k];
        if (!cover_box_touches(e, g, &hb)) {
            continue;
        }
        clv_capsule c0 = {e[0], e[1], 0.0f}, c1 = {e[2], e[3], 0.0f};
        if (clv_hull_touches(&c0, &c1, g, hs)) {
            return k;
        }
    }
    return -1;
}

/* The hitbox as it stood at sub-step point k. */
clv_shape clv__sub_shape(const clv_arena *a, const clv__placed *pl, int32_t k) {
    const clv_vec2 *q = &a->sub[pl->sub0 + 2 * k];
    return clv_shape_capsule(q[0].x, q[0].y, q[1].x, q[1].y, clv__sub_radius(pl, k));
}

/* Contact of a swept hit, from the sub-step k whose cover touched first: the placement at its
 * start if it overlaps the hurtbox, else at its end, else the nearer of the two by closest
 * points (the cover touched within the tolerance). */
void clv__swept_contact(const clv_arena *a, const clv__placed *pl, int32_t k, const clv_shape *hs,
                        clv__cand *c) {
    clv_shape s0 = clv__sub_shape(a, pl, k), s1 = clv__sub_shape(a, pl, k + 1);
    const clv_shape *use = NULL;
    if (clv_overlap(&s0, hs)) {
        use = &s0;
    } else if (clv_overlap(&s1, hs)) {
        use = &s1;
    }
    if (use == NULL || !clv_contact_shapes(use, hs, &c->contact)) {
        clv_closest c0 = clv_closest_points(&s0, hs), c1 = clv_closest_points(&s1, hs);
        bool second = use != NULL ? use == &s1 : c1.distance < c0.distance;
        clv_closest cp = second ? c1 : c0;
        use = second ? &s1 : &s0;
        float nx = cp.pb.x - cp.pa.x, ny = cp.pb.y - cp.pa.y;
        float len = sqrtf(nx * nx + ny * ny);
        c->contact.point = cp.pa;
        c->contact.ta = cp.ta;
        c->contact.tb = cp.tb;
        c->contact.depth = 0.0f;
        c->contact.normal = len > 0.0f ? clv_v2(nx / len, ny / len) : clv_v2(1.0f, 0.0f);
    }
    clv_shape core = clv__core_of(use);
    c->core_dist = clv_distance(&core, hs);
    c->sweep_t = (float)k / (float)pl->nsub;
}

/* How well a hurtbox takes a hit: among those a hitbox touches, the one that takes it best
 * decides (normal over armor over invincible); intangible ones are not touched at all. */
static int32_t state_rank(int32_t state) {
    switch (state) {
    case CLV_HURTBOX_NORMAL:
        return 3;
    case CLV_HURTBOX_ARMOR:
        return 2;
    case CLV_HURTBOX_INVINCIBLE:
        return 1;
    default:
        return 0;
    }
}

/* The hurtboxes a candidate meets. */
typedef struct hurt_set {
    int32_t n;
    clv_shape shapes[CLV__MAX_HURT_WORLD];
    int32_t states[CLV__MAX_HURT_WORLD];
    float heavy[CLV__MAX_HURT_WORLD];
} hurt_set;

/* Whether the rules refuse the candidate whatever it touches (its own side, or a rehit too soon),
 * asked once and only when it touches: the rehit rule searches the swing's records. */
typedef struct refusal {
    bool known, value;
} refusal;

static bool refused(const clv_arena *a, clv__cand *c, refusal *r) {
    if (!r->known) {
        if (clv__own_side(a, c)) {
            r->value = true;
        } else {
            c->rehit = clv__rehit_refused(a, c) ? 1 : 0; /* the rules' filter reads it */
            r->value = c->rehit != 0;
        }
        r->known = true;
    }
    return r->value;
}

/* A candidate the rules refuse whatever it touches: that it touches, and whether only
 * intangible hurtboxes, decide its miss; its contact and ranking are never read. */
static bool touched_refused(clv__cand *c, bool intangible) {
    c->overlap = 1;
    c->distance = 0.0f;
    if (intangible) {
        c->reason = CLV_MISS_INTANGIBLE;
    }
    return true;
}

/* A swept hitbox: the earliest sub-step over the hurtboxes (ties go to the first), among the
 * tangible ones, else among the intangible ones (the miss then says intangible). */
static bool narrow_swept(clv_arena *a, const clv__placed *pl, const hurt_set *hs, refusal *rf,
                         clv__cand *c) {
    for (int32_t pass = 0; pass < 2; pass++) {
        int32_t best = -1, best_h = -1;
        for (int32_t k = 0; k < hs->n; k++) {
            if ((hs->states[k] == CLV_HURTBOX_INTANGIBLE) != (pass == 1)) {
                continue;
            }
            int32_t sk = clv__first_substep(a, pl, &hs->shapes[k], best >= 0 ? best : pl->nsub);
            if (sk >= 0 && refused(a, c, rf)) {
                return touched_refused(c, pass == 1);
            }
            if (sk >= 0) {
                best = sk;
                best_h = k;
            } else if (a->miss_margin > 0.0f && best < 0 && pass == 0) {
                float d = clv_distance(&pl->shape, &hs->shapes[k]);
                c->distance = d < c->distance ? d : c->distance;
            }
        }
        if (best >= 0) {
            clv__swept_contact(a, pl, best, &hs->shapes[best_h], c);
            c->overlap = 1;
            c->distance = 0.0f;
            c->box_state = (int16_t)hs->states[best_h];
            c->box_heavy = hs->heavy[best_h];
            c->hurt = (int16_t)best_h;
            /* the best state among the hurtboxes touched at that sub-step */
            for (int32_t k = 0; pass == 0 && k < hs->n; k++) {
                if (state_rank(hs->states[k]) > state_rank(c->box_state) &&
                    clv__first_substep(a, pl, &hs->shapes[k], best + 1) == best) {
                    c->box_state = (int16_t)hs->states[k];
                    c->box_heavy = hs->heavy[k];
                    c->hurt = (int16_t)k;
                }
            }
            if (pass == 1) {
                c->reason = CLV_MISS_INTANGIBLE;
            }
            return true;
        }
    }
    return false;
}

/* This frame's placement: the first tangible hurtbox overlapped gives the contact, the best
 * state among them the outcome; only intangible ones overlapped makes an intangible miss. */
static bool narrow_placed(clv_arena *a, const clv__placed *pl, const hurt_set *hs, refusal *rf,
                          clv__cand *c) {
    int32_t ghost = -1;
    for (int32_t k = 0; k < hs->n; k++) {
        const clv_shape *h = &hs->shapes[k];
        bool intangible = hs->states[k] == CLV_HURTBOX_INTANGIBLE;
        if (clv_overlap(&pl->shape, h)) {
            if (intangible) {
                ghost = ghost < 0 ? k : ghost;
                continue;
            }
            if (refused(a, c, rf)) {
                return touched_refused(c, false);
            }
            if (!c->overlap) {
                c->overlap = 1;
                c->box_state = (int16_t)hs->states[k];
                c->box_heavy = hs->heavy[k];
                c->hurt = (int16_t)k;
                if (!clv_contact_shapes(&pl->shape, h, &c->contact)) {
                    /* Round-off at the boundary: fall back to the closest points. */
                    clv_closest cp = clv_closest_points(&pl->shape, h);
                    c->contact.point = cp.pa;
                    c->contact.ta = cp.ta;
                    c->contact.tb = cp.tb;
                    c->contact.depth = 0.0f;
                    c->contact.normal = clv_v2(1.0f, 0.0f);
                }
            } else if (state_rank(hs->states[k]) > state_rank(c->box_state)) {
                c->box_state = (int16_t)hs->states[k];
                c->box_heavy = hs->heavy[k];
                c->hurt = (int16_t)k;
            }
            clv_shape core = clv__core_of(&pl->shape);
            float d = clv_distance(&core, h);
            if (d < c->core_dist) {
                c->core_dist = d;
            }
            c->distance = 0.0f;
        } else if (a->miss_margin > 0.0f && !c->overlap && !intangible) {
            float d = clv_distance(&pl->shape, h);
            if (d < c->distance) {
                c->distance = d;
            }
        }
    }
    if (!c->overlap && ghost >= 0 && refused(a, c, rf)) {
        return touched_refused(c, true);
    }
    if (!c->overlap && ghost >= 0) {
        c->overlap = 1;
        c->distance = 0.0f;
        c->hurt = (int16_t)ghost;
        clv_shape core = clv__core_of(&pl->shape);
        c->core_dist = clv_distance(&core, &hs->shapes[ghost]);
        (void)clv_contact_shapes(&pl->shape, &hs->shapes[ghost], &c->contact);
        c->reason = CLV_MISS_INTANGIBLE;
    }
    return c->overlap != 0;
}

/* How many candidates ahead the narrowphase fetches what it reads of a candidate. */
#define HURT_AHEAD 6
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

void clv__narrowphase(clv_arena *a) {
    int32_t kept = 0;
    a->profile.candidates = a->cand_count;
    hurt_set hs;
    int32_t hs_slot = -1;
    for (int32_t i = 0; i < a->cand_count; i++) {
        clv__cand c = a->cand[i];
        const clv__placed *pl = &a->placed[c.placed];
        int32_t s = (int32_t)c.target1 - 1;
        if (i + HURT_AHEAD < a->cand_count) {
            /* The candidates' slots lie scattered over the arena: their hurtboxes and position
             * (which clv__hurt_world reads), the target's entity and vitals and the owner's
             * vitals (clv__own_side, clv__rehit_refused) are fetched a few candidates ahead. */
            const clv__cand *n = &a->cand[i + HURT_AHEAD];
            const char *h = (const char *)&a->hurt[n->target1 - 1];
            PREFETCH(h);
            PREFETCH(h + 64);
            PREFETCH(&a->vit[n->target1 - 1]);
            PREFETCH(&a->pos[n->target1 - 1]);
            PREFETCH(&a->ent[n->target1 - 1]);
            PREFETCH(&a->vit[a->att[n->attack1 - 1].owner.index1 - 1]);
        }
        if (s != hs_slot) { /* a slot's candidates often follow each other */
            hs.n = clv__hurt_world(a, s, hs.shapes, hs.states, hs.heavy);
            hs_slot = s;
        }
        c.overlap = 0;
        c.distance = FLT_MAX;
        c.core_dist = FLT_MAX;
        c.reason = -1;
        c.rehit = -1;
        c.push_only = 0;
        c.sweep_t = 1.0f;
        c.box_state = CLV_HURTBOX_NORMAL;
        c.hurt = 0;
        c.box_heavy = 0.0f;
        memset(&c.contact, 0, sizeof c.contact);
        refusal rf = {false, false};
        bool touched =
            pl->nsub > 0 ? narrow_swept(a, pl, &hs, &rf, &c) : narrow_placed(a, pl, &hs, &rf, &c);
        if (touched) {
            a->profile.contacts += c.reason < 0 ? 1 : 0;
            a->cand[kept++] = c;
        } else if (a->miss_margin > 0.0f && c.distance < a->miss_margin) {
            c.reason = CLV_MISS_OUT_OF_REACH;
            a->cand[kept++] = c;
        }
    }
    a->cand_count = kept;
}
