/* The rules of bodies that defend: hurtboxes that animate and turn, guard, armor, hit filters
 * and grabs (docs/hit-rules.md, "Bodies"). The state they read is kept by arena_body.c. */
#include "step_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- hurtboxes ---- */

static int32_t body_world(const clv_arena *a, int32_t s, const clv__combat *c, clv_shape *out,
                          int32_t *states, float *heavy);

int32_t clv__hurt_world(const clv_arena *a, int32_t s, clv_shape *out, int32_t *states,
                        float *heavy) {
    clv_vec2 at = a->pos[s];
    const clv__combat *c = a->cmb != NULL ? &a->cmb[s] : NULL;
    int32_t n = 0;
    if (c == NULL || c->body1 == 0) {
        const clv__hurt *h = &a->hurt[s];
        for (int32_t k = 0; k < h->count; k++) {
            out[k] = clv_shape_translated(&h->shapes[k], at);
            states[k] = CLV_HURTBOX_NORMAL;
            heavy[k] = 0.0f;
        }
        n = h->count;
    } else {
        n = body_world(a, s, c, out, states, heavy);
    }
    return n + clv__carried_world(a, s, out + n, states + n, heavy + n);
}

/* The hurtbox defs of the body's current frame, and their number in *n. */
static const clv_hurtbox_def *body_defs(const clv_arena *a, const clv__combat *c, int32_t *n) {
    const clv__abody *b = &a->bodies[c->body1 - 1];
    int32_t f = b->frame_base[c->anim] + clv__body_frame(b, c);
    *n = b->frame_start[f + 1] - b->frame_start[f];
    return &b->boxes[b->frame_start[f]];
}

const clv_hurtbox_def *clv__hurt_def(const clv_arena *a, int32_t s, int32_t k, int32_t *count) {
    const clv__combat *c = a->cmb != NULL ? &a->cmb[s] : NULL;
    int32_t n = a->hurt[s].count, carried = 0;
    const clv_hurtbox_def *own = c != NULL && c->body1 != 0 ? body_defs(a, c, &n) : NULL;
    const clv_hurtbox_def *more = clv__carried_defs(a, s, &carried);
    if (count != NULL) {
        *count = n + carried;
    }
    if (k < 0 || k >= n + carried) {
        return NULL;
    }
    return k < n ? (own != NULL ? &own[k] : NULL) : &more[k - n];
}

static int32_t body_world(const clv_arena *a, int32_t s, const clv__combat *c, clv_shape *out,
                          int32_t *states, float *heavy) {
    clv_vec2 at = a->pos[s];
    int32_t n = 0;
    const clv_hurtbox_def *boxes = body_defs(a, c, &n);
    clv__pose p;
    p.o = at;
    clv_sincos(c->facing, &p.s, &p.c);
    p.mirror = c->mirror;
    for (int32_t k = 0; k < n; k++) {
        const clv_hurtbox_def *d = &boxes[k];
        out[k] = clv__place_shape(&p, &d->shape);
        states[k] = (int32_t)d->state;
        heavy[k] = d->heavy;
    }
    return n;
}

const char *clv_arena_entity_hurtbox_id(const clv_arena *a, clv_entity_id id, int32_t k) {
    int32_t s = clv__entity_slot(a, id), count = 0;
    if (s < 0) {
        return NULL;
    }
    const clv_hurtbox_def *d = clv__hurt_def(a, s, k, &count);
    if (k < 0 || k >= count) {
        return NULL;
    }
    return d != NULL ? d->id : ""; /* a spawned shape */
}

int32_t clv_arena_entity_hurtboxes(const clv_arena *a, clv_entity_id id, clv_shape *out,
                                   clv_hurtbox_state *states, int32_t cap) {
    int32_t s = clv__entity_slot(a, id);
    if (s < 0) {
        return -1;
    }
    clv_shape shapes[CLV__MAX_HURT_WORLD];
    int32_t st[CLV__MAX_HURT_WORLD];
    float heavy[CLV__MAX_HURT_WORLD];
    int32_t n = clv__hurt_world(a, s, shapes, st, heavy);
    for (int32_t k = 0; k < n && k < cap; k++) {
        if (out != NULL) {
            out[k] = shapes[k];
        }
        if (states != NULL) {
            states[k] = (clv_hurtbox_state)st[k];
        }
    }
    return n;
}

/* ---- 0b. after movement ---- */

/* The grabber's slot of a held slot, or -1 when the hold has to end (grabber gone or dead). */
static int32_t holder(const clv_arena *a, int32_t s) {
    int32_t g = clv__entity_slot(a, a->cmb[s].held_by);
    return g >= 0 && a->vit[g].hp > 0.0f ? g : -1;
}

void clv__combat_step(clv_arena *a) {
    if (a->cmb == NULL) {
        return;
    }
    for (int32_t s = 0; s < a->ent_count; s++) {
        clv__combat *c = &a->cmb[s];
        if (!a->ent[s].used || a->ent[s].frozen) {
            continue;
        }
        if (c->body1 != 0 && c->elapsed < INT32_MAX) {
            c->elapsed++;
        }
        if (a->vit[s].state != CLV_HURT_GUARD && c->meter < c->guard_meter) {
            float m = c->meter + c->guard_regen;
            c->meter = m < c->guard_meter ? m : c->guard_meter;
        }
    }
    /* Held targets follow their grabbers' new positions, so this runs after every move. */
    for (int32_t s = 0; s < a->ent_count; s++) {
        if (!a->ent[s].used || a->cmb[s].held_by.index1 == 0) {
            continue;
        }
        int32_t g = holder(a, s);
        if (g < 0) {
            clv__release_slot(a, s);
            continue;
        }
        a->pos[s].x = clv__clamp_world(a->pos[g].x + a->cmb[s].hold.x);
        a->pos[s].y = clv__clamp_world(a->pos[g].y + a->cmb[s].hold.y);
        a->vel[s] = clv_v2(0.0f, 0.0f);
        clv__entity_update_bounds(a, s);
    }
}

/* ---- 4. filters ---- */

static clv__combat combat_or_default(const clv_arena *a, int32_t s) {
    return a->cmb != NULL ? a->cmb[s] : clv__combat_default();
}

/* Unit vector of an entity's facing. */
static clv_vec2 facing_dir(float facing) {
    float s, c;
    clv_sincos(facing, &s, &c);
    return clv_v2(c, s);
}

int32_t clv__filter_combat(const clv_arena *a, const clv__cand *c) {
    const clv__attack *at = &a->att[c->attack1 - 1];
    int32_t t = (int32_t)c->target1 - 1;
    if (at->throw.index1 != 0 &&
        (at->throw.index1 != c->target1 || at->throw.gen != a->ent[t].gen)) {
        return CLV_MISS_NOT_THROWN;
    }
    const clv__box *box = clv__cand_box(a, c);
    if (!box->filters && a->cmb == NULL) {
        return -1;
    }
    const clv_hitbox_def *d = &box->def;
    clv__combat tc = combat_or_default(a, t);
    if ((d->mask & tc.layer) == 0 || (tc.mask & d->layer) == 0) {
        return CLV_MISS_LAYER;
    }
    clv_hit_air hits = d->hits;
    if (hits == CLV_HITS_AUTO) {
        hits = d->kind == CLV_HITBOX_GRAB ? CLV_HITS_GROUND : CLV_HITS_BOTH;
    }
    if (hits == CLV_HITS_GROUND && tc.airborne) {
        return CLV_MISS_AIRBORNE;
    }
    if (hits == CLV_HITS_AIR && !tc.airborne) {
        return CLV_MISS_GROUNDED;
    }
    if (d->facing_restrict == CLV_FACING_FRONT || d->facing_restrict == CLV_FACING_BEHIND) {
        clv__pose p = clv__attack_pose(a, at);
        clv_vec2 ahead = clv__turn(&p, clv_v2(1.0f, 0.0f));
        clv_vec2 pos = a->pos[t];
        float side = (pos.x - p.o.x) * ahead.x + (pos.y - p.o.y) * ahead.y;
        bool front = side >= 0.0f;
        if (front != (d->facing_restrict == CLV_FACING_FRONT)) {
            return CLV_MISS_FACING;
        }
    }
    return -1;
}

/* ---- guard and armor ---- */

bool clv__blocks(const clv_arena *a, const clv__cand *c) {
    int32_t t = (int32_t)c->target1 - 1;
    const clv_hitbox_def *d = &clv__cand_box(a, c)->def;
    if (a->vit[t].state != CLV_HURT_GUARD || d->unblockable || d->kind == CLV_HITBOX_GRAB) {
        return false;
    }
    clv__combat tc = combat_or_default(a, t);
    if (tc.guard_all_round) {
        return true;
    }
    /* In front: the attack's origin lies on the side the guard faces (a projectile's origin is
     * where it flies, a swing's its wielder). */
    clv__pose p = clv__attack_pose(a, &a->att[c->attack1 - 1]);
    clv_vec2 f = facing_dir(tc.facing), pos = a->pos[t];
    return (p.o.x - pos.x) * f.x + (p.o.y - pos.y) * f.y >= 0.0f;
}

float clv__armor_of(const clv_arena *a, const clv__cand *c) {
    float best = 0.0f;
    if (c->box_state == CLV_HURTBOX_ARMOR) {
        best = c->box_heavy > 0.0f ? c->box_heavy : INFINITY;
    }
    if (a->cmb != NULL) {
        const clv__combat *tc = &a->cmb[c->target1 - 1];
        float e = tc->armor == CLV_ARMOR_SUPER   ? INFINITY
                  : tc->armor == CLV_ARMOR_HEAVY ? tc->heavy
                                                 : 0.0f;
        best = e > best ? e : best;
    }
    return best;
}

clv_vec2 clv__smash_push(const clv_arena *a, const clv__cand *c, const clv__pose *p, float damage,
                         float *units) {
    const clv_hitbox_def *d = &clv__cand_box(a, c)->def;
    int32_t t = (int32_t)c->target1 - 1;
    clv_smash_hit h;
    h.damage = damage;
    h.base = d->knockback.base;
    h.growth = d->knockback.growth;
    h.set = d->knockback.set;
    h.angle = 0.0f;
    float kb = clv_smash_knockback(&h, a->vit[t].damage_taken, 100.0f * a->vit[t].weight);
    if (!(kb >= 0.0f)) { /* a weight beyond the formula's range: no push rather than NaN */
        kb = 0.0f;
    }
    kb = clv__clamp_world(kb);
    *units = kb;
    float speed = clv_smash_launch_speed(kb);
    clv_vec2 dir;
    if (d->knockback.sakurai) {
        h.angle = CLV_SMASH_SAKURAI_ANGLE;
        bool grounded = a->cmb == NULL || !a->cmb[t].airborne;
        float deg = clv_smash_angle(&h, kb, grounded);
        float s, co;
        clv_sincos(deg * 0.017453292f, &s, &co);
        dir = clv_v2(co, -s); /* degrees count up, and +y is down */
    } else {
        float s, co;
        clv_sincos(d->knockback.angle, &s, &co);
        dir = clv_v2(co, s);
    }
    dir = clv__turn(p, dir);
    return clv_v2(clv__clamp_world(dir.x * speed), clv__clamp_world(dir.y * speed));
}

/* ---- 6b. grabs ---- */

static bool is_grab(const clv_arena *a, const clv__cand *c) {
    return clv__cand_box(a, c)->def.kind == CLV_HITBOX_GRAB;
}

static int cmp_i32(const void *x, const void *y) {
    int32_t p = *(const int32_t *)x, q = *(const int32_t *)y;
    return (p > q) - (p < q);
}

/* A surviving candidate that lands on its target as a strike or a grab (not blocked, not
 * used up by invincibility). */
static bool lands(const clv_arena *a, const clv__cand *c) {
    int32_t t = (int32_t)c->target1 - 1;
    return c->reason < 0 && !c->push_only && a->vit[t].state != CLV_HURT_INVINCIBLE &&
           c->box_state != CLV_HURTBOX_INVINCIBLE && !clv__blocks(a, c);
}

/* Slots struck on this frame, sorted, in a->scratch; their number. */
static int32_t struck_slots(clv_arena *a, int32_t *n_out) {
    int32_t n = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        n += lands(a, &a->cand[i]) ? 1 : 0;
    }
    if (!clv__reserve(&a->al, (void **)&a->scratch, &a->scratch_cap, n > 0 ? n : 1,
                      sizeof *a->scratch)) {
        return -1;
    }
    n = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        if (lands(a, &a->cand[i])) {
            a->scratch[n++] = (int32_t)a->cand[i].target1 - 1;
        }
    }
    qsort(a->scratch, (size_t)n, sizeof *a->scratch, cmp_i32);
    *n_out = n;
    return 0;
}

/* Of a swing's surviving grab candidates, the one it holds: the nearest, then the lowest id. */
static bool grab_beats(const clv__cand *x, const clv__cand *y) {
    if (x->core_dist != y->core_dist) {
        return x->core_dist < y->core_dist;
    }
    return x->target1 < y->target1;
}

clv_hit_status clv__grab_rules(clv_arena *a) {
    bool any = false;
    for (int32_t i = 0; i < a->cand_count && !any; i++) {
        any = a->cand[i].reason < 0 && is_grab(a, &a->cand[i]);
    }
    if (!any) {
        return CLV_HIT_OK;
    }
    if (clv__combat_of(a, 0) == NULL) { /* a grab that lands holds: room for that first */
        return CLV_HIT_ERR_NO_MEMORY;
    }
    int32_t n = 0;
    if (struck_slots(a, &n) != 0) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    /* Decided from the candidates as they stand, then applied: no order among them matters. */
    for (int32_t i = 0; i < a->cand_count; i++) {
        clv__cand *c = &a->cand[i];
        c->pending = -1;
        if (c->reason >= 0 || !is_grab(a, c)) {
            continue;
        }
        int32_t owner = (int32_t)a->att[c->attack1 - 1].owner.index1 - 1;
        /* held, or struck on this frame: two that held each other would follow each other */
        if (a->cmb[owner].held_by.index1 != 0 ||
            bsearch(&owner, a->scratch, (size_t)n, sizeof owner, cmp_i32) != NULL) {
            c->pending = CLV_MISS_INTERRUPTED;
            continue;
        }
        for (int32_t j = 0; j < a->cand_count; j++) {
            const clv__cand *o = &a->cand[j];
            if (j != i && o->attack1 == c->attack1 && o->reason < 0 && is_grab(a, o) &&
                grab_beats(o, c)) {
                c->pending = CLV_MISS_MAX_TARGETS;
                break;
            }
        }
    }
    for (int32_t i = 0; i < a->cand_count; i++) {
        if (a->cand[i].reason < 0 && is_grab(a, &a->cand[i]) && a->cand[i].pending >= 0) {
            a->cand[i].reason = a->cand[i].pending;
        }
    }
    return CLV_HIT_OK;
}

/* ---- 8. what a hit does to the combat state ---- */

static void hold(clv_arena *a, const clv__cand *c) {
    const clv__attack *at = &a->att[c->attack1 - 1];
    int32_t g = (int32_t)at->owner.index1 - 1, t = (int32_t)c->target1 - 1;
    clv__combat *gc = clv__combat_of(a, g), *tc = clv__combat_of(a, t);
    if (gc == NULL || tc == NULL) {
        return; /* cmb exists: filter or guard read it; grab candidates allocate it below */
    }
    int32_t old = clv__entity_slot(a, gc->holding);
    if (old >= 0) {
        clv__release_slot(a, old);
    }
    if (tc->held_by.index1 != 0) {
        clv__release_slot(a, t);
    }
    clv__pose p = clv__attack_pose(a, at);
    clv_vec2 off = clv__turn(&p, clv__cand_box(a, c)->def.grab_offset);
    tc->held_by = at->owner;
    tc->hold = clv_v2(p.o.x + off.x - a->pos[g].x, p.o.y + off.y - a->pos[g].y);
    gc->holding.index1 = c->target1;
    gc->holding.gen = a->ent[t].gen;
    a->vel[t] = clv_v2(0.0f, 0.0f);
    if (a->vit[t].state == CLV_HURT_GUARD) { /* a grab takes the guard away */
        a->vit[t].state = CLV_HURT_NORMAL;
        a->ent[t].state_frames = 0;
    }
}

static void block(clv_arena *a, const clv__cand *c, clv_hit_event *ev) {
    int32_t t = (int32_t)c->target1 - 1;
    clv__combat *tc = clv__combat_of(a, t);
    if (tc == NULL || a->vit[t].state != CLV_HURT_GUARD) {
        return; /* a hit before it on this frame broke the guard */
    }
    const clv_hitbox_def *d = &clv__cand_box(a, c)->def;
    float taken = clv__damage_of(a, c->attack1, d) + d->shield_damage;
    tc->meter = clv__clamp_world(tc->meter - taken);
    if (tc->meter <= 0.0f) {
        ev->flags |= CLV_HIT_FLAG_GUARD_BREAK;
        a->vit[t].state = CLV_HURT_NORMAL;
        a->ent[t].state_frames = 0;
        clv__entity *e = &a->ent[t];
        e->hitstun = tc->guard_break > e->hitstun ? tc->guard_break : e->hitstun;
        clv__entity_stir(a, t);
        tc->meter = tc->guard_meter; /* full again once the stun is over */
    }
}

void clv__apply_combat(clv_arena *a, const clv__cand *c, clv_hit_event *ev) {
    const clv__attack *at = &a->att[c->attack1 - 1];
    int32_t t = (int32_t)c->target1 - 1;
    if (at->throw.index1 == c->target1 && a->cmb != NULL && a->cmb[t].held_by.index1 != 0) {
        clv__release_slot(a, t); /* thrown: the push that follows sends it flying */
    }
    if (ev->flags & CLV_HIT_FLAG_GRAB) {
        hold(a, c);
    } else if (ev->flags & CLV_HIT_FLAG_BLOCKED) {
        block(a, c, ev);
    }
}
