/* One arena frame, in the order of docs/hit-rules.md. */
#include "hit_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Hitlag and hitstun never exceed a minute: keeps the float -> int conversions defined. */
#define FRAMES_CAP 3600.0f

typedef struct pose {
    clv_vec2 o;
    float s, c;
    int32_t mirror;
} pose;

static uint64_t clock_now(const clv_arena *a) {
    return a->clock_ns != NULL ? a->clock_ns(a->clock_ctx) : 0;
}

static clv_vec2 turn(const pose *p, clv_vec2 v) {
    float y = p->mirror ? -v.y : v.y;
    return clv_v2(p->c * v.x - p->s * y, p->s * v.x + p->c * y);
}

static clv_vec2 place_point(const pose *p, clv_vec2 v) {
    clv_vec2 r = turn(p, v);
    return clv_v2(p->o.x + r.x, p->o.y + r.y);
}

/* ---- 0. timers, movement, status effects ---- */

static clv_hit_status push_tick(clv_arena *a, const clv_tick_event *t) {
    if (!clv__reserve(&a->al, (void **)&a->ticks, &a->tick_cap, a->tick_count + 1,
                      sizeof *a->ticks)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    a->ticks[a->tick_count++] = *t;
    return CLV_HIT_OK;
}

static clv_hit_status tick_effects(clv_arena *a, int32_t s) {
    clv__entity *e = &a->ent[s];
    clv__effect *fx = &a->fx[(size_t)s * CLV_ENTITY_MAX_EFFECTS];
    int32_t kept = 0;
    for (int32_t k = 0; k < e->effect_count; k++) {
        clv__effect f = fx[k];
        f.elapsed++;
        bool ticks = f.elapsed % f.period == 0;
        bool expired = f.elapsed >= f.duration;
        if (ticks || expired) {
            clv_tick_event t;
            memset(&t, 0, sizeof t);
            t.frame = a->frame;
            t.target.index1 = (uint32_t)s + 1;
            t.target.gen = e->gen;
            t.weapon = f.weapon;
            memcpy(t.name, f.name, sizeof t.name);
            t.magnitude = f.magnitude;
            t.expired = expired;
            clv__vitals *v = &a->vit[s];
            if (ticks && f.damages && v->hp > 0.0f) {
                v->hp = clv__clamp_world(v->hp - f.magnitude);
                v->damage_taken = clv__clamp_world(v->damage_taken + f.magnitude);
                t.damage = f.magnitude;
                t.killed = v->hp <= 0.0f;
            }
            if (push_tick(a, &t) != CLV_HIT_OK) {
                return CLV_HIT_ERR_NO_MEMORY;
            }
        }
        if (!expired) {
            fx[kept++] = f;
        }
    }
    for (int32_t k = kept; k < e->effect_count; k++) {
        memset(&fx[k], 0, sizeof fx[k]);
    }
    e->effect_count = kept;
    return CLV_HIT_OK;
}

static clv_hit_status integrate(clv_arena *a) {
    a->timed_count = 0;
    for (int32_t s = 0; s < a->ent_count; s++) {
        clv__entity *e = &a->ent[s];
        if (!e->used) {
            continue;
        }
        if (e->hitlag > 0) {
            e->hitlag--;
            e->frozen = 1;
            continue;
        }
        e->frozen = 0;
        if (e->state_frames > 0) {
            a->timed_count++;
        }
        if (e->hitstun > 0) {
            e->hitstun--;
        }
        if (e->vel.x != 0.0f || e->vel.y != 0.0f) {
            e->pos.x = clv__clamp_world(e->pos.x + e->vel.x);
            e->pos.y = clv__clamp_world(e->pos.y + e->vel.y);
            if (e->friction > 0.0f) {
                float speed = sqrtf(e->vel.x * e->vel.x + e->vel.y * e->vel.y);
                if (speed <= e->friction) {
                    e->vel = clv_v2(0.0f, 0.0f);
                } else {
                    float k = (speed - e->friction) / speed;
                    e->vel.x *= k;
                    e->vel.y *= k;
                }
            }
            clv__entity_update_bounds(a, s);
        }
        if (e->effect_count > 0 && tick_effects(a, s) != CLV_HIT_OK) {
            return CLV_HIT_ERR_NO_MEMORY;
        }
    }
    return CLV_HIT_OK;
}

/* ---- 1. advance attacks, place hitboxes ---- */

static clv_shape core_of(const clv_shape *s) {
    clv_shape c = *s;
    if (s->type == CLV_CAPSULE) {
        c.u.capsule.r = 0.0f;
    } else if (s->type == CLV_CIRCLE) {
        c.u.circle.r = 0.0f;
    } else {
        clv_vec2 centre = s->type == CLV_OBB ? s->u.obb.c : s->u.point;
        c = clv_shape_point(centre.x, centre.y);
    }
    return c;
}

static clv_shape place_shape(const pose *p, const clv_shape *s) {
    clv_shape r = *s;
    switch (s->type) {
    case CLV_CIRCLE:
        r.u.circle.c = place_point(p, s->u.circle.c);
        break;
    case CLV_CAPSULE:
        r.u.capsule.a = place_point(p, s->u.capsule.a);
        r.u.capsule.b = place_point(p, s->u.capsule.b);
        break;
    case CLV_OBB:
        r.u.obb.c = place_point(p, s->u.obb.c);
        r.u.obb.u = turn(p, s->u.obb.u);
        break;
    default:
        break;
    }
    return r;
}

static pose attack_pose(const clv_arena *a, const clv__attack *at) {
    pose p;
    p.o = at->offset;
    if (at->follow) {
        const clv__entity *o = &a->ent[at->owner.index1 - 1];
        p.o.x += o->pos.x;
        p.o.y += o->pos.y;
    }
    clv_sincos(at->facing, &p.s, &p.c);
    p.mirror = at->mirror;
    return p;
}

clv_shape clv__place_hitbox(const clv_arena *a, const clv__attack *at, const clv_shape *local) {
    pose p = attack_pose(a, at);
    return place_shape(&p, local);
}

/* World core ends of a placed round shape (a circle's centre twice). */
static void core_ends(const clv_shape *s, clv_vec2 *a, clv_vec2 *b) {
    if (s->type == CLV_CAPSULE) {
        *a = s->u.capsule.a;
        *b = s->u.capsule.b;
    } else {
        *a = *b = s->u.circle.c;
    }
}

static float round_up(double v) {
    float f = (float)v;
    return (double)f < v ? nextafterf(f, INFINITY) : f;
}

/* The swept hitboxes of one attack, placed[first..end): every one that moved takes n sub-steps
 * (the most any of them needs), their cores written to a->sub, their bounds widened to cover
 * all sub-steps. Their nsub holds the sub-steps each needs and grow its rounding slack on entry. */
static clv_hit_status sweep_attack(clv_arena *a, int32_t first, int32_t end, int32_t n,
                                   const pose *p0, const pose *p1, double th0, double dth) {
    if (!clv__reserve(&a->al, (void **)&a->trig, &a->trig_cap, 2 * (n + 1), sizeof *a->trig)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    for (int32_t k = 0; k <= n; k++) {
        clv_sincos_d(th0 + dth * ((double)k / (double)n), &a->trig[2 * k], &a->trig[2 * k + 1]);
    }
    double dx = (double)p1->o.x - (double)p0->o.x, dy = (double)p1->o.y - (double)p0->o.y;
    const clv__attack *at = &a->att[a->placed[first].attack1 - 1];
    const clv__aweapon *w = &a->weapons[at->weapon1 - 1];
    int32_t f = w->frame_base[at->attack] + at->frame;
    for (int32_t i = first; i < end; i++) {
        clv__placed *pl = &a->placed[i];
        if (pl->nsub == 0) {
            continue;
        }
        if (!clv__reserve(&a->al, (void **)&a->sub, &a->sub_cap, a->sub_count + 2 * (n + 1),
                          sizeof *a->sub)) {
            return CLV_HIT_ERR_NO_MEMORY;
        }
        pl->sub0 = a->sub_count;
        a->sub_count += 2 * (n + 1);
        clv_vec2 *q = &a->sub[pl->sub0];
        int32_t prev_box = w->prev[w->frame_start[f] + pl->pos];
        clv_shape before = place_shape(p0, &w->boxes[prev_box].def.shape);
        core_ends(&before, &q[0], &q[1]);
        core_ends(&pl->shape, &q[2 * n], &q[2 * n + 1]);
        for (int32_t k = 1; k < n; k++) {
            double sk = (double)k / (double)n;
            clv_swept_core(&pl->m, sk, a->trig[2 * k], a->trig[2 * k + 1],
                           (double)p0->o.x + sk * dx, (double)p0->o.y + sk * dy, &q[2 * k],
                           &q[2 * k + 1]);
        }
        pl->grow = round_up(clv_swept_bend(&pl->m, n) + (double)pl->grow);
        pl->r0 = (float)pl->m.r0;
        pl->r1 = (float)pl->m.r1;
        pl->nsub = n;
        clv_aabb b = pl->bounds;
        for (int32_t k = 0; k < 2 * (n + 1); k++) {
            b.min.x = q[k].x < b.min.x ? q[k].x : b.min.x;
            b.min.y = q[k].y < b.min.y ? q[k].y : b.min.y;
            b.max.x = q[k].x > b.max.x ? q[k].x : b.max.x;
            b.max.y = q[k].y > b.max.y ? q[k].y : b.max.y;
        }
        float g = (pl->r0 > pl->r1 ? pl->r0 : pl->r1) + pl->grow + a->miss_margin;
        b.min.x = nextafterf(b.min.x - g, -INFINITY);
        b.min.y = nextafterf(b.min.y - g, -INFINITY);
        b.max.x = nextafterf(b.max.x + g, INFINITY);
        b.max.y = nextafterf(b.max.y + g, INFINITY);
        pl->bounds = b;
    }
    return CLV_HIT_OK;
}

static clv_hit_status place(clv_arena *a) {
    static const double two_pi = 2.0 * CLV_PI;
    a->placed_count = 0;
    a->sub_count = 0;
    for (int32_t s = 0; s < a->att_count; s++) {
        clv__attack *at = &a->att[s];
        at->active = 0;
        if (!at->used) {
            continue;
        }
        /* Attacks end with their owner, so the owner slot is live. */
        const clv__entity *owner = &a->ent[at->owner.index1 - 1];
        if (owner->frozen) {
            continue;
        }
        const clv__aweapon *w = &a->weapons[at->weapon1 - 1];
        at->frame++;
        at->elapsed++;
        if (at->frame >= w->attacks[at->attack].frames) {
            clv__attack_end(a, s);
            continue;
        }
        at->active = 1;
        pose p = attack_pose(a, at);
        /* The pose of the frame before (every frame but the first follows a placement). */
        bool has_prev = at->frame >= 1;
        pose p0 = p;
        double dth = 0.0, dx = 0.0, dy = 0.0;
        if (has_prev) {
            p0.o = at->prev_o;
            clv_sincos(at->prev_facing, &p0.s, &p0.c);
            p0.mirror = at->prev_mirror;
            double d = (double)at->facing - (double)at->prev_facing;
            dth = d - two_pi * floor(d / two_pi + 0.5);
            dx = (double)p.o.x - (double)p0.o.x;
            dy = (double)p.o.y - (double)p0.o.y;
        }
        double th0 = (double)at->prev_facing;
        at->prev_o = p.o;
        at->prev_facing = at->facing;
        at->prev_mirror = p.mirror;
        int32_t f = w->frame_base[at->attack] + at->frame;
        int32_t first = w->frame_start[f], end = w->frame_start[f + 1];
        if (!clv__reserve(&a->al, (void **)&a->placed, &a->placed_cap,
                          a->placed_count + (end - first), sizeof *a->placed)) {
            return CLV_HIT_ERR_NO_MEMORY;
        }
        int32_t base = a->placed_count, n = 0;
        for (int32_t k = first; k < end; k++) {
            clv__placed *pl = &a->placed[a->placed_count++];
            pl->attack1 = (uint32_t)s + 1;
            pl->pos = k - first;
            pl->box = w->list[k];
            const clv_hitbox_def *def = &w->boxes[pl->box].def;
            pl->shape = place_shape(&p, &def->shape);
            pl->core = core_of(&pl->shape);
            pl->bounds = clv_shape_bounds(&pl->shape);
            pl->bounds.min.x -= a->miss_margin;
            pl->bounds.min.y -= a->miss_margin;
            pl->bounds.max.x += a->miss_margin;
            pl->bounds.max.y += a->miss_margin;
            pl->nsub = 0;
            pl->sub0 = 0;
            pl->r0 = pl->r1 = pl->grow = 0.0f;
            int32_t pb = has_prev && def->sweep ? w->prev[k] : -1;
            if (pb < 0 || !clv_swept_init(&pl->m, &w->boxes[pb].def.shape, p0.mirror != 0,
                                          &def->shape, p.mirror != 0)) {
                continue;
            }
            clv_swept_move(&pl->m, dth, dx, dy, p.o);
            if (!clv_swept_still(&pl->m)) {
                pl->nsub = clv_swept_substeps(&pl->m, (double)a->sweep_tol, CLV__MAX_SUBSTEPS);
                pl->grow = round_up(pl->m.slack);
                n = pl->nsub > n ? pl->nsub : n;
            }
        }
        if (n > 0) {
            clv_hit_status st = sweep_attack(a, base, a->placed_count, n, &p0, &p, th0, dth);
            if (st != CLV_HIT_OK) {
                return st;
            }
        }
    }
    return CLV_HIT_OK;
}

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

static clv_hit_status broadphase(clv_arena *a) {
    a->cand_count = 0;
    if (a->placed_count == 0) {
        return CLV_HIT_OK;
    }
    return a->grid != NULL ? broadphase_grid(a) : broadphase_scan(a);
}

static float min2f(float x, float y) { return x < y ? x : y; }
static float max2f(float x, float y) { return x > y ? x : y; }

/* Radius of a swept hitbox at sub-step point k of n. */
static float sub_radius(const clv__placed *pl, int32_t k) {
    return pl->r0 + (pl->r1 - pl->r0) * ((float)k / (float)pl->nsub);
}

/* The first sub-step before limit whose cover (hull of its two cores, grown) touches hs, or -1. */
static int32_t first_substep(const clv_arena *a, const clv__placed *pl, const clv_shape *hs,
                             int32_t limit) {
    clv_aabb hb = clv_shape_bounds(hs);
    const clv_vec2 *q = &a->sub[pl->sub0];
    for (int32_t k = 0; k < limit; k++) {
        float ra = sub_radius(pl, k), rb = sub_radius(pl, k + 1);
        float g = (ra > rb ? ra : rb) + pl->grow;
        const clv_vec2 *e = &q[2 * k];
        float x0 = min2f(min2f(e[0].x, e[1].x), min2f(e[2].x, e[3].x)) - g;
        float x1 = max2f(max2f(e[0].x, e[1].x), max2f(e[2].x, e[3].x)) + g;
        float y0 = min2f(min2f(e[0].y, e[1].y), min2f(e[2].y, e[3].y)) - g;
        float y1 = max2f(max2f(e[0].y, e[1].y), max2f(e[2].y, e[3].y)) + g;
        if (x0 > hb.max.x || hb.min.x > x1 || y0 > hb.max.y || hb.min.y > y1) {
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
static clv_shape sub_shape(const clv_arena *a, const clv__placed *pl, int32_t k) {
    const clv_vec2 *q = &a->sub[pl->sub0 + 2 * k];
    return clv_shape_capsule(q[0].x, q[0].y, q[1].x, q[1].y, sub_radius(pl, k));
}

/* Contact of a swept hit, from the sub-step k whose cover touched first: the placement at its
 * start if it overlaps the hurtbox, else at its end, else the nearer of the two by closest
 * points (the cover touched within the tolerance). */
static void swept_contact(const clv_arena *a, const clv__placed *pl, int32_t k, const clv_shape *hs,
                          clv__cand *c) {
    clv_shape s0 = sub_shape(a, pl, k), s1 = sub_shape(a, pl, k + 1);
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
    clv_shape core = core_of(use);
    c->core_dist = clv_distance(&core, hs);
    c->sweep_t = (float)k / (float)pl->nsub;
}

static void narrowphase(clv_arena *a) {
    int32_t kept = 0;
    a->profile.candidates = a->cand_count;
    for (int32_t i = 0; i < a->cand_count; i++) {
        clv__cand c = a->cand[i];
        const clv__placed *pl = &a->placed[c.placed];
        int32_t s = (int32_t)c.target1 - 1;
        const clv__hurt *h = &a->hurt[s];
        clv_vec2 at = a->ent[s].pos;
        c.overlap = 0;
        c.distance = FLT_MAX;
        c.core_dist = FLT_MAX;
        c.reason = -1;
        c.push_only = 0;
        c.sweep_t = 1.0f;
        memset(&c.contact, 0, sizeof c.contact);
        if (pl->nsub > 0) {
            /* The earliest sub-step over all hurtboxes; ties go to the first hurtbox. */
            int32_t best = -1, best_h = -1;
            for (int32_t k = 0; k < h->count; k++) {
                clv_shape hs = clv_shape_translated(&h->shapes[k], at);
                int32_t sk = first_substep(a, pl, &hs, best >= 0 ? best : pl->nsub);
                if (sk >= 0) {
                    best = sk;
                    best_h = k;
                } else if (a->miss_margin > 0.0f && best < 0) {
                    float d = clv_distance(&pl->shape, &hs);
                    c.distance = d < c.distance ? d : c.distance;
                }
            }
            if (best >= 0) {
                clv_shape hs = clv_shape_translated(&h->shapes[best_h], at);
                swept_contact(a, pl, best, &hs, &c);
                c.overlap = 1;
                c.distance = 0.0f;
                a->profile.contacts++;
                a->cand[kept++] = c;
            } else if (a->miss_margin > 0.0f && c.distance < a->miss_margin) {
                c.reason = CLV_MISS_OUT_OF_REACH;
                a->cand[kept++] = c;
            }
            continue;
        }
        for (int32_t k = 0; k < h->count; k++) {
            clv_shape hs = clv_shape_translated(&h->shapes[k], at);
            if (clv_overlap(&pl->shape, &hs)) {
                if (!c.overlap) {
                    c.overlap = 1;
                    if (!clv_contact_shapes(&pl->shape, &hs, &c.contact)) {
                        /* Round-off at the boundary: fall back to the closest points. */
                        clv_closest cp = clv_closest_points(&pl->shape, &hs);
                        c.contact.point = cp.pa;
                        c.contact.ta = cp.ta;
                        c.contact.tb = cp.tb;
                        c.contact.depth = 0.0f;
                        c.contact.normal = clv_v2(1.0f, 0.0f);
                    }
                }
                float d = clv_distance(&pl->core, &hs);
                if (d < c.core_dist) {
                    c.core_dist = d;
                }
                c.distance = 0.0f;
            } else if (a->miss_margin > 0.0f && !c.overlap) {
                float d = clv_distance(&pl->shape, &hs);
                if (d < c.distance) {
                    c.distance = d;
                }
            }
        }
        if (c.overlap) {
            a->profile.contacts++;
            a->cand[kept++] = c;
        } else if (a->miss_margin > 0.0f && c.distance < a->miss_margin) {
            c.reason = CLV_MISS_OUT_OF_REACH;
            a->cand[kept++] = c;
        }
    }
    a->cand_count = kept;
}

/* ---- 4-8. the rules ---- */

static int cmp_cand(const void *pa, const void *pb) {
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

static int cmp_rec_q(const void *pa, const void *pb) { return clv__record_cmp(pa, pb); }

/* First record not below the key. */
static int32_t rec_lower(const clv_arena *a, const clv__record *key) {
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

static clv__record rec_key(uint32_t attack1, uint16_t attack_gen, uint32_t target1,
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
    clv__record k = rec_key(attack1, attack_gen, target1, target_gen, group_key);
    int32_t i = rec_lower(a, &k);
    return i < a->rec_count && clv__record_cmp(&a->rec[i], &k) == 0 ? i : -1;
}

static bool same_pair(const clv__record *r, const clv__record *k) {
    return r->attack1 == k->attack1 && r->attack_gen == k->attack_gen && r->target1 == k->target1 &&
           r->target_gen == k->target_gen;
}

static const clv__box *cand_box(const clv_arena *a, const clv__cand *c) {
    const clv__attack *at = &a->att[c->attack1 - 1];
    return &a->weapons[at->weapon1 - 1].boxes[a->placed[c->placed].box];
}

static const clv_attack_def *cand_attack_def(const clv_arena *a, const clv__cand *c) {
    const clv__attack *at = &a->att[c->attack1 - 1];
    return &a->weapons[at->weapon1 - 1].attacks[at->attack];
}

/* Filters that need nothing but the candidate and the state before this frame's hits. */
static void filter(clv_arena *a) {
    for (int32_t i = 0; i < a->cand_count; i++) {
        clv__cand *c = &a->cand[i];
        if (c->reason >= 0) {
            continue;
        }
        const clv__attack *at = &a->att[c->attack1 - 1];
        const clv__vitals *owner = &a->vit[at->owner.index1 - 1];
        const clv__vitals *t = &a->vit[c->target1 - 1];
        uint16_t tgen = a->ent[c->target1 - 1].gen;
        const clv__box *box = cand_box(a, c);
        const clv_attack_def *ad = cand_attack_def(a, c);
        if (c->target1 == at->owner.index1 || t->team == owner->team) {
            c->reason = CLV_MISS_TEAM;
        } else if (!(t->hp > 0.0f)) {
            c->reason = CLV_MISS_DEAD;
        } else if (t->state == CLV_HURT_INTANGIBLE) {
            c->reason = CLV_MISS_INTANGIBLE;
        } else {
            int32_t r = clv__record_find(a, c->attack1, at->gen, c->target1, tgen, box->group_key);
            if (r >= 0 && (ad->rehit == 0 || at->elapsed - a->rec[r].last < ad->rehit)) {
                c->reason = CLV_MISS_REHIT;
            } else if (ad->lockout > 0) {
                clv__record k = rec_key(c->attack1, at->gen, c->target1, tgen, INT32_MIN);
                for (int32_t j = rec_lower(a, &k); j < a->rec_count && same_pair(&a->rec[j], &k);
                     j++) {
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
    int32_t px = cand_box(a, x)->def.priority, py = cand_box(a, y)->def.priority;
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
            int32_t gx = cand_box(a, cx)->group_key;
            bool beaten_in_group = false, beaten = false;
            for (int32_t y = i; y < j; y++) {
                const clv__cand *cy = &a->cand[y];
                if (y == x || cy->reason >= 0 || !precedes(a, cy, cx)) {
                    continue;
                }
                beaten = true;
                if (cand_box(a, cy)->group_key == gx) {
                    beaten_in_group = true;
                }
            }
            if (beaten_in_group) {
                cx->pending = CLV_MISS_PRECEDENCE;
            } else if (beaten && cand_attack_def(a, cx)->lockout > 0) {
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

/* max_hits: the nearest targets to the hitbox's core first, then the lowest ids. */
static clv_hit_status limit_max_hits(clv_arena *a) {
    int32_t n = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        if (a->cand[i].reason < 0 && cand_box(a, &a->cand[i])->def.max_hits > 0) {
            n++;
        }
    }
    if (n == 0) {
        return CLV_HIT_OK;
    }
    rank *r = rank_buffer(a, n);
    if (r == NULL) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    n = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        const clv__cand *c = &a->cand[i];
        if (c->reason < 0 && cand_box(a, c)->def.max_hits > 0) {
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
        const clv__box *box = cand_box(a, c);
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
    int32_t n = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        if (cand_attack_def(a, &a->cand[i])->max_targets > 0) {
            n++;
        }
    }
    if (n == 0) {
        return CLV_HIT_OK;
    }
    rank *r = rank_buffer(a, n);
    if (r == NULL) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    n = 0;
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
        if (any && cand_attack_def(a, c)->max_targets > 0) {
            const clv__attack *at = &a->att[c->attack1 - 1];
            clv__record k =
                rec_key(c->attack1, at->gen, c->target1, a->ent[c->target1 - 1].gen, INT32_MIN);
            int32_t lo = rec_lower(a, &k);
            bool known = lo < a->rec_count && same_pair(&a->rec[lo], &k);
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
        int32_t room = cand_attack_def(a, c)->max_targets - at->targets_hit;
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

static int32_t frames_of(float v) {
    if (!(v > 0.0f)) {
        return 0;
    }
    if (v > FRAMES_CAP) {
        v = FRAMES_CAP;
    }
    return (int32_t)floorf(v);
}

/* The push's direction (unit, or the turned vector of a fixed knockback) and the speed it is
 * scaled by, before the target's weight. */
static clv_vec2 knockback_dir(const pose *p, const clv_hitbox_def *d, clv_vec2 normal) {
    float s, co;
    switch (d->knockback.kind) {
    case CLV_KNOCKBACK_FIXED:
        return turn(p, d->knockback.vector);
    case CLV_KNOCKBACK_SCALING:
        clv_sincos(d->knockback.angle, &s, &co);
        return turn(p, clv_v2(co, s));
    case CLV_KNOCKBACK_RADIAL:
        return normal;
    default:
        return clv_v2(0.0f, 0.0f);
    }
}

/* A hit's push, in single precision as docs/hit-rules.md states it. A huge definition (damage
 * 1e38, growth 1e6) or a tiny weight would take it to infinity, or NaN where a zero component
 * meets an infinite speed, and the hitstun computed from it to 0: such a push is recomputed in
 * double and scaled to the world limit in its own direction, so the target flies as fast as
 * anything may and the hitstun is the largest one. */
static clv_vec2 knockback_of(const pose *p, const clv_hitbox_def *d, clv_vec2 normal,
                             float weight) {
    bool fixed = d->knockback.kind == CLV_KNOCKBACK_FIXED;
    clv_vec2 dir = knockback_dir(p, d, normal);
    float speed = fixed ? 1.0f : d->knockback.base + d->knockback.growth * d->damage;
    clv_vec2 kb = clv_v2(dir.x * speed / weight, dir.y * speed / weight);
    double mag = sqrt((double)kb.x * (double)kb.x + (double)kb.y * (double)kb.y);
    if (mag <= (double)CLV_WORLD_LIMIT) {
        return kb;
    }
    double x = (double)d->knockback.vector.x, y = (double)d->knockback.vector.y;
    double sd = (double)p->s, cd = (double)p->c, yd = p->mirror ? -y : y;
    double speed_d = (double)d->knockback.base + (double)d->knockback.growth * (double)d->damage;
    double vx = fixed ? cd * x - sd * yd : (double)dir.x * speed_d;
    double vy = fixed ? sd * x + cd * yd : (double)dir.y * speed_d;
    double m = sqrt(vx * vx + vy * vy) / (double)weight;
    double k = m > 0.0 ? (double)CLV_WORLD_LIMIT / m / (double)weight : 0.0;
    return clv_v2((float)(vx * k), (float)(vy * k));
}

/* The result of one surviving candidate, computed from the state before any hit applies. */
static void compute_hit(const clv_arena *a, const clv__cand *c, clv_hit_event *ev) {
    const clv__attack *at = &a->att[c->attack1 - 1];
    const clv__entity *t = &a->ent[c->target1 - 1];
    const clv__vitals *tv = &a->vit[c->target1 - 1];
    const clv_hitbox_def *d = &cand_box(a, c)->def;
    memset(ev, 0, sizeof *ev);
    ev->frame = a->frame;
    ev->attack.index1 = c->attack1;
    ev->attack.gen = at->gen;
    ev->attacker = at->owner;
    ev->target.index1 = c->target1;
    ev->target.gen = t->gen;
    ev->weapon.index1 = at->weapon1;
    ev->weapon.gen = a->weapons[at->weapon1 - 1].gen;
    ev->attack_index = at->attack;
    ev->attack_frame = at->frame;
    ev->hitbox = c->pos;
    ev->group = d->group;
    ev->point = c->contact.point;
    ev->blade_t = d->shape.type == CLV_CAPSULE ? c->contact.ta : 0.0f;
    ev->sweep_t = c->sweep_t;

    float lag = floorf(d->damage * 0.3846154f + 5.0f) * d->hitlag_scale;
    int32_t hitlag = d->hitlag == CLV_FRAMES_AUTO ? frames_of(lag) : d->hitlag;
    if (tv->state == CLV_HURT_INVINCIBLE) {
        ev->flags = CLV_HIT_FLAG_INVINCIBLE;
        ev->hitlag = hitlag; /* the attacker's; the target does not freeze */
        return;
    }
    pose p = attack_pose(a, at);
    clv_vec2 kb = knockback_of(&p, d, c->contact.normal, tv->weight);
    ev->knockback = kb;
    if (c->push_only) {
        ev->flags = CLV_HIT_FLAG_PUSH_ONLY;
        return;
    }
    ev->damage = d->damage;
    ev->hitlag = hitlag;
    ev->hitstun = d->hitstun == CLV_FRAMES_AUTO ? frames_of(0.4f * sqrtf(kb.x * kb.x + kb.y * kb.y))
                                                : d->hitstun;
    ev->effects = (uint32_t)((1u << d->effect_count) - 1u);
}

static void add_effect(clv_arena *a, int32_t s, clv_weapon_id weapon, const clv_effect_def *d) {
    clv__entity *e = &a->ent[s];
    clv__effect *fx = &a->fx[(size_t)s * CLV_ENTITY_MAX_EFFECTS];
    int32_t k = 0;
    while (k < e->effect_count && strncmp(fx[k].name, d->name, CLV_HIT_NAME_MAX) != 0) {
        k++;
    }
    if (k == e->effect_count) {
        if (e->effect_count == CLV_ENTITY_MAX_EFFECTS) {
            memmove(&fx[0], &fx[1], (CLV_ENTITY_MAX_EFFECTS - 1) * sizeof *fx);
            k = CLV_ENTITY_MAX_EFFECTS - 1;
        } else {
            e->effect_count++;
        }
    }
    memset(&fx[k], 0, sizeof fx[k]);
    memcpy(fx[k].name, d->name, sizeof fx[k].name);
    fx[k].name[CLV_HIT_NAME_MAX - 1] = '\0';
    fx[k].duration = d->duration;
    fx[k].period = d->period;
    fx[k].elapsed = 0;
    fx[k].magnitude = d->magnitude;
    fx[k].damages = d->damages ? 1 : 0;
    fx[k].weapon = weapon;
}

static clv_hit_status apply_and_emit(clv_arena *a) {
    int32_t hits = 0, misses = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        if (a->cand[i].reason < 0) {
            hits++;
        } else {
            misses++;
        }
    }
    if (!clv__reserve(&a->al, (void **)&a->hits, &a->hit_cap, hits, sizeof *a->hits) ||
        !clv__reserve(&a->al, (void **)&a->misses, &a->miss_cap, misses, sizeof *a->misses) ||
        !clv__reserve(&a->al, (void **)&a->new_rec, &a->new_rec_cap, hits, sizeof *a->new_rec) ||
        !clv__reserve(&a->al, (void **)&a->rec, &a->rec_cap, a->rec_count + hits, sizeof *a->rec)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    /* 7. compute every result from the unchanged state. */
    a->hit_count = 0;
    a->miss_count = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        const clv__cand *c = &a->cand[i];
        if (c->reason < 0) {
            compute_hit(a, c, &a->hits[a->hit_count++]);
            continue;
        }
        clv_miss_record *m = &a->misses[a->miss_count++];
        const clv__attack *at = &a->att[c->attack1 - 1];
        memset(m, 0, sizeof *m);
        m->frame = a->frame;
        m->attack.index1 = c->attack1;
        m->attack.gen = at->gen;
        m->target.index1 = c->target1;
        m->target.gen = a->ent[c->target1 - 1].gen;
        m->attack_index = at->attack;
        m->attack_frame = at->frame;
        m->hitbox = c->pos;
        m->group = cand_box(a, c)->def.group;
        m->reason = (clv_miss_reason)c->reason;
        m->distance = c->distance;
    }
    /* 8. apply them all; knockbacks of one frame add up and replace the velocity. */
    int32_t hit_i = 0;
    a->new_rec_count = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        const clv__cand *c = &a->cand[i];
        if (c->reason >= 0) {
            continue;
        }
        clv_hit_event *ev = &a->hits[hit_i++];
        const clv_hitbox_def *d = &cand_box(a, c)->def;
        clv__entity *t = &a->ent[c->target1 - 1];
        if (d->knockback.kind != CLV_KNOCKBACK_NONE && !(ev->flags & CLV_HIT_FLAG_INVINCIBLE)) {
            t->vel = clv_v2(0.0f, 0.0f);
        }
    }
    hit_i = 0;
    /* The (swing, target) pair whose hit was last counted: hits come sorted by pair, and a
     * push-only hit between two hits of one pair must not make the second count again. */
    uint32_t counted_attack1 = 0, counted_target1 = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        const clv__cand *c = &a->cand[i];
        if (c->reason >= 0) {
            continue;
        }
        clv_hit_event *ev = &a->hits[hit_i];
        hit_i++;
        const clv_hitbox_def *d = &cand_box(a, c)->def;
        clv__attack *at = &a->att[c->attack1 - 1];
        clv__entity *t = &a->ent[c->target1 - 1];
        clv__vitals *tv = &a->vit[c->target1 - 1];
        clv__entity *owner = &a->ent[at->owner.index1 - 1];
        bool invincible = (ev->flags & CLV_HIT_FLAG_INVINCIBLE) != 0;
        bool push_only = (ev->flags & CLV_HIT_FLAG_PUSH_ONLY) != 0;
        if (d->knockback.kind != CLV_KNOCKBACK_NONE && !invincible) {
            t->vel.x = clv__clamp_world(t->vel.x + ev->knockback.x);
            t->vel.y = clv__clamp_world(t->vel.y + ev->knockback.y);
        }
        if (push_only) {
            continue;
        }
        if (!invincible) {
            bool was_alive = tv->hp > 0.0f;
            tv->hp = clv__clamp_world(tv->hp - ev->damage);
            tv->damage_taken = clv__clamp_world(tv->damage_taken + ev->damage);
            if (was_alive && !(tv->hp > 0.0f)) {
                ev->flags |= CLV_HIT_FLAG_KILLED;
            }
            t->hitlag = ev->hitlag > t->hitlag ? ev->hitlag : t->hitlag;
            t->hitstun = ev->hitstun > t->hitstun ? ev->hitstun : t->hitstun;
            for (int32_t k = 0; k < d->effect_count; k++) {
                add_effect(a, (int32_t)c->target1 - 1, ev->weapon, &d->effects[k]);
            }
        }
        owner->hitlag = ev->hitlag > owner->hitlag ? ev->hitlag : owner->hitlag;
        /* The swing remembers the hit, invincible or not: that is what uses it up. */
        int32_t group_key = cand_box(a, c)->group_key;
        int32_t r = clv__record_find(a, c->attack1, at->gen, c->target1, t->gen, group_key);
        if (r >= 0) {
            a->rec[r].last = at->elapsed;
        } else {
            clv__record nr = rec_key(c->attack1, at->gen, c->target1, t->gen, group_key);
            nr.last = at->elapsed;
            a->new_rec[a->new_rec_count++] = nr;
        }
        bool counted_now = counted_attack1 == c->attack1 && counted_target1 == c->target1;
        counted_attack1 = c->attack1;
        counted_target1 = c->target1;
        if (!counted_now) {
            clv__record k = rec_key(c->attack1, at->gen, c->target1, t->gen, INT32_MIN);
            int32_t lo = rec_lower(a, &k);
            /* saturating: a restored snapshot may hold any count >= 0 */
            if (!(lo < a->rec_count && same_pair(&a->rec[lo], &k)) && at->targets_hit < INT32_MAX) {
                at->targets_hit++;
            }
        }
    }
    if (a->new_rec_count > 0) {
        memcpy(&a->rec[a->rec_count], a->new_rec, (size_t)a->new_rec_count * sizeof *a->rec);
        a->rec_count += a->new_rec_count;
        qsort(a->rec, (size_t)a->rec_count, sizeof *a->rec, cmp_rec_q);
    }
    return CLV_HIT_OK;
}

/* ---- 9. timed hurt states ----
 * Counted down after the hits, so that a state set between steps for n frames covers the next
 * n frames' hits (n = 1 included); an entity frozen on this frame waits. */
static void count_states(clv_arena *a) {
    /* Only the entities integrate counted have a state to count down: the walk stops after the
     * last of them, and a frame without one (the usual case) walks nothing. */
    int32_t left = a->timed_count;
    for (int32_t s = 0; s < a->ent_count && left > 0; s++) {
        clv__entity *e = &a->ent[s];
        if (!e->used || e->frozen || e->state_frames == 0) {
            continue;
        }
        left--;
        e->state_frames--;
        if (e->state_frames == 0) {
            a->vit[s].state = CLV_HURT_NORMAL;
        }
    }
}

static clv_hit_status rules(clv_arena *a) {
    if (a->cand_count > 1) {
        qsort(a->cand, (size_t)a->cand_count, sizeof *a->cand, cmp_cand);
    }
    filter(a);
    select_hitboxes(a);
    clv_hit_status st = limit_max_hits(a);
    if (st == CLV_HIT_OK) {
        st = limit_max_targets(a);
    }
    if (st == CLV_HIT_OK) {
        st = apply_and_emit(a);
    }
    return st;
}

clv_hit_status clv_arena_step(clv_arena *a) {
    if (a == NULL) {
        return CLV_HIT_ERR_NULL;
    }
    if (a->frame >= CLV_ARENA_MAX_FRAME) {
        return CLV_HIT_ERR_NUMBER;
    }
    clv__events_clear(a);
    memset(&a->profile, 0, sizeof a->profile);
    a->frame++;
    uint64_t t0 = clock_now(a);
    clv_hit_status st = integrate(a);
    uint64_t t1 = clock_now(a);
    if (st == CLV_HIT_OK) {
        st = place(a);
    }
    uint64_t t2 = clock_now(a);
    if (st == CLV_HIT_OK) {
        st = broadphase(a);
    }
    uint64_t t3 = clock_now(a);
    if (st == CLV_HIT_OK) {
        narrowphase(a);
    }
    uint64_t t4 = clock_now(a);
    if (st == CLV_HIT_OK) {
        st = rules(a);
    }
    if (st == CLV_HIT_OK) {
        count_states(a);
    }
    uint64_t t5 = clock_now(a);
    a->profile.integrate = t1 - t0;
    a->profile.place = t2 - t1;
    a->profile.broadphase = t3 - t2;
    a->profile.narrowphase = t4 - t3;
    a->profile.rules = t5 - t4;
    return st;
}
