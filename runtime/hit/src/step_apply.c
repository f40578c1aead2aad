/* Steps 7-8 of the frame: compute every hit from the unchanged state, then apply them. */
#include "step_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Hits that push nothing: a guard, armor or a grab took the push. */
#define NO_PUSH                                                                                    \
    (CLV_HIT_FLAG_INVINCIBLE | CLV_HIT_FLAG_BLOCKED | CLV_HIT_FLAG_ARMOR | CLV_HIT_FLAG_GRAB)

/* Hitlag and hitstun never exceed a minute: keeps the float -> int conversions defined. */
#define FRAMES_CAP 3600.0f

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
static clv_vec2 knockback_dir(const clv__pose *p, const clv_hitbox_def *d, clv_vec2 normal) {
    float s, co;
    switch (d->knockback.kind) {
    case CLV_KNOCKBACK_FIXED:
        return clv__turn(p, d->knockback.vector);
    case CLV_KNOCKBACK_SCALING:
        clv_sincos(d->knockback.angle, &s, &co);
        return clv__turn(p, clv_v2(co, s));
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
static clv_vec2 knockback_of(const clv__pose *p, const clv_hitbox_def *d, clv_vec2 normal,
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
    const clv_hitbox_def *d = &clv__cand_box(a, c)->def;
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
    ev->hurtbox = c->hurt;
    const clv_hurtbox_def *hd = clv__hurt_def(a, (int32_t)c->target1 - 1, c->hurt, NULL);
    if (hd != NULL) {
        memcpy(ev->hurtbox_id, hd->id, sizeof ev->hurtbox_id);
        ev->hurtbox_id[CLV_HIT_NAME_MAX - 1] = '\0';
    }

    float lag = floorf(d->damage * 0.3846154f + 5.0f) * d->hitlag_scale;
    int32_t hitlag = d->hitlag == CLV_FRAMES_AUTO ? frames_of(lag) : d->hitlag;
    if (tv->state == CLV_HURT_INVINCIBLE || c->box_state == CLV_HURTBOX_INVINCIBLE) {
        ev->flags = CLV_HIT_FLAG_INVINCIBLE;
        ev->hitlag = hitlag; /* the attacker's; the target does not freeze */
        return;
    }
    float damage = clv__damage_of(a, c->attack1, d);
    if (d->kind == CLV_HITBOX_GRAB) { /* holds: no push, no stun */
        ev->flags = CLV_HIT_FLAG_GRAB;
        ev->damage = damage;
        ev->hitlag = hitlag;
        return;
    }
    if (clv__blocks(a, c)) {
        ev->flags = CLV_HIT_FLAG_BLOCKED;
        ev->damage = damage * d->chip;
        ev->hitlag = hitlag;
        ev->hitstun =
            d->blockstun == CLV_FRAMES_AUTO ? frames_of(2.0f + 0.8f * damage) : d->blockstun;
        return;
    }
    clv__pose p = clv__attack_pose(a, at);
    float units = 0.0f;
    clv_vec2 kb = d->knockback.kind == CLV_KNOCKBACK_SMASH
                      ? clv__smash_push(a, c, &p, damage, &units)
                      : knockback_of(&p, d, c->contact.normal, tv->weight);
    if (d->facing_restrict == CLV_FACING_AWAY && (a->pos[c->target1 - 1].x - p.o.x) * kb.x < 0.0f) {
        kb.x = -kb.x;
    }
    ev->knockback = kb;
    if (c->push_only) {
        ev->flags = CLV_HIT_FLAG_PUSH_ONLY;
        return;
    }
    ev->damage = damage;
    ev->hitlag = hitlag;
    float speed = sqrtf(kb.x * kb.x + kb.y * kb.y);
    if (d->hitstun != CLV_FRAMES_AUTO) {
        ev->hitstun = d->hitstun;
    } else {
        ev->hitstun = d->knockback.kind == CLV_KNOCKBACK_SMASH ? clv_smash_hitstun(units)
                                                               : frames_of(0.4f * speed);
    }
    ev->effects = (uint32_t)((1u << d->effect_count) - 1u);
    if (speed < clv__armor_of(a, c)) { /* armor: the damage lands, the push and stun do not */
        ev->flags = CLV_HIT_FLAG_ARMOR;
        ev->knockback = clv_v2(0.0f, 0.0f);
        ev->hitstun = 0;
    }
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

static int cmp_rec_q(const void *pa, const void *pb) { return clv__record_cmp(pa, pb); }

static void emit_miss(clv_arena *a, const clv__cand *c) {
    clv_miss_record *m = &a->misses[a->miss_count++];
    const clv__attack *at = &a->att[c->attack1 - 1];
    memset(m, 0, sizeof *m);
    m->frame = a->frame;
    m->attack.index1 = c->attack1;
    m->attack.gen = at->gen;
    m->weapon = (clv_weapon_id){at->weapon1, a->weapons[at->weapon1 - 1].gen};
    m->attacker = at->owner;
    m->target.index1 = c->target1;
    m->target.gen = a->ent[c->target1 - 1].gen;
    m->attack_index = at->attack;
    m->attack_frame = at->frame;
    m->hitbox = c->pos;
    m->group = clv__cand_box(a, c)->def.group;
    m->reason = (clv_miss_reason)c->reason;
    m->distance = c->distance;
}

/* 7. Every result from the unchanged state; room for the records the hits add. */
static clv_hit_status compute_all(clv_arena *a) {
    int32_t hits = 0, misses = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        if (a->cand[i].reason < 0) {
            hits++;
        } else {
            misses++;
        }
    }
    misses += a->meet_miss_count;
    if (!clv__reserve(&a->al, (void **)&a->hits, &a->hit_cap, hits, sizeof *a->hits) ||
        !clv__reserve(&a->al, (void **)&a->misses, &a->miss_cap, misses, sizeof *a->misses) ||
        !clv__reserve(&a->al, (void **)&a->new_rec, &a->new_rec_cap, hits, sizeof *a->new_rec) ||
        !clv__reserve(&a->al, (void **)&a->rec, &a->rec_cap, a->rec_count + hits, sizeof *a->rec)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    a->hit_count = 0;
    a->miss_count = a->meet_miss_count;
    if (a->meet_miss_count > 0) {
        memcpy(a->misses, a->meet_misses, (size_t)a->meet_miss_count * sizeof *a->misses);
    }
    for (int32_t i = 0; i < a->cand_count; i++) {
        const clv__cand *c = &a->cand[i];
        if (c->reason < 0) {
            compute_hit(a, c, &a->hits[a->hit_count++]);
        } else {
            emit_miss(a, c);
        }
    }
    return CLV_HIT_OK;
}

static uint64_t pair_key(clv_entity_id attacker, clv_entity_id target) {
    return (uint64_t)attacker.index1 << 32 | target.index1;
}

static int cmp_u64(const void *pa, const void *pb) {
    uint64_t x = *(const uint64_t *)pa, y = *(const uint64_t *)pb;
    return (x > y) - (x < y);
}

/* A hit whose target hit its attacker back on the same frame is a trade: both apply, as every
 * hit of a frame does, and the events say so. */
static clv_hit_status mark_trades(clv_arena *a) {
    int32_t n = a->hit_count;
    if (n < 2) {
        return CLV_HIT_OK;
    }
    if (!clv__reserve(&a->al, (void **)&a->trade_keys, &a->trade_keys_cap, n,
                      sizeof *a->trade_keys)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    for (int32_t i = 0; i < n; i++) {
        a->trade_keys[i] = pair_key(a->hits[i].attacker, a->hits[i].target);
    }
    qsort(a->trade_keys, (size_t)n, sizeof *a->trade_keys, cmp_u64);
    for (int32_t i = 0; i < n; i++) {
        uint64_t back = pair_key(a->hits[i].target, a->hits[i].attacker);
        if (bsearch(&back, a->trade_keys, (size_t)n, sizeof back, cmp_u64) != NULL) {
            a->hits[i].flags |= CLV_HIT_FLAG_TRADE;
        }
    }
    return CLV_HIT_OK;
}

/* Knockbacks of one frame add up and replace the velocity: every pushed target stops first. */
static void stop_pushed(clv_arena *a) {
    int32_t hit_i = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        const clv__cand *c = &a->cand[i];
        if (c->reason >= 0) {
            continue;
        }
        const clv_hit_event *ev = &a->hits[hit_i++];
        const clv_hitbox_def *d = &clv__cand_box(a, c)->def;
        if (d->knockback.kind != CLV_KNOCKBACK_NONE && !(ev->flags & NO_PUSH)) {
            a->vel[c->target1 - 1] = clv_v2(0.0f, 0.0f);
        }
    }
}

/* The swing remembers the hit, invincible or not: that is what uses it up. counted says whether
 * this (swing, target) pair was already counted on this frame. */
static void remember_hit(clv_arena *a, const clv__cand *c, bool counted) {
    clv__attack *at = &a->att[c->attack1 - 1];
    const clv__entity *t = &a->ent[c->target1 - 1];
    int32_t group_key = clv__cand_box(a, c)->group_key;
    int32_t r = clv__record_find(a, c->attack1, at->gen, c->target1, t->gen, group_key);
    if (r >= 0) {
        a->rec[r].last = at->elapsed;
    } else {
        clv__record nr = clv__rec_key(c->attack1, at->gen, c->target1, t->gen, group_key);
        nr.last = at->elapsed;
        a->new_rec[a->new_rec_count++] = nr;
    }
    if (!counted) {
        clv__record k = clv__rec_key(c->attack1, at->gen, c->target1, t->gen, INT32_MIN);
        int32_t lo = clv__rec_lower(a, &k);
        /* saturating: a restored snapshot may hold any count >= 0 */
        if (!(lo < a->rec_count && clv__same_pair(&a->rec[lo], &k)) &&
            at->targets_hit < INT32_MAX) {
            at->targets_hit++;
        }
    }
}

/* The hit's push (a push-only hit does nothing else), kept for sum_pushes. */
static void apply_push(clv_arena *a, const clv__cand *c, const clv_hit_event *ev) {
    const clv_hitbox_def *d = &clv__cand_box(a, c)->def;
    if (d->knockback.kind != CLV_KNOCKBACK_NONE && !(ev->flags & NO_PUSH)) {
        clv__push *p = &a->pushes[a->push_count++];
        p->slot = (int32_t)c->target1 - 1;
        memcpy(&p->xb, &ev->knockback.x, sizeof p->xb);
        memcpy(&p->yb, &ev->knockback.y, sizeof p->yb);
        p->v = ev->knockback;
    }
}

static int cmp_push(const void *pa, const void *pb) {
    const clv__push *x = pa, *y = pb;
    if (x->slot != y->slot) {
        return x->slot < y->slot ? -1 : 1;
    }
    if (x->xb != y->xb) {
        return x->xb < y->xb ? -1 : 1;
    }
    return (x->yb > y->yb) - (x->yb < y->yb);
}

/* Each pushed target's velocity (stopped by stop_pushed) becomes the sum of its pushes, added
 * in the order of their values: floating-point addition is not associative, and three pushes
 * added in hit order would give a sum that depends on which slots the attackers hold. */
static void sum_pushes(clv_arena *a) {
    if (a->push_count > 1) {
        qsort(a->pushes, (size_t)a->push_count, sizeof *a->pushes, cmp_push);
    }
    for (int32_t i = 0; i < a->push_count; i++) {
        clv_vec2 *v = &a->vel[a->pushes[i].slot];
        v->x = clv__clamp_world(v->x + a->pushes[i].v.x);
        v->y = clv__clamp_world(v->y + a->pushes[i].v.y);
    }
}

/* Every damaging hit of the frame on a target it left dead took its last hp: the targets were
 * alive before the frame's hits (filter refuses the dead), and no order among those hits
 * decides which one it was. */
static void mark_kills(clv_arena *a) {
    for (int32_t i = 0; i < a->hit_count; i++) {
        clv_hit_event *ev = &a->hits[i];
        bool damaging = (ev->flags & (CLV_HIT_FLAG_PUSH_ONLY | CLV_HIT_FLAG_INVINCIBLE)) == 0 &&
                        ev->damage > 0.0f;
        if (damaging && !(a->vit[ev->target.index1 - 1].hp > 0.0f)) {
            ev->flags |= CLV_HIT_FLAG_KILLED;
        }
    }
}

/* 8. One computed hit on its target and its owner. */
static void apply_hit(clv_arena *a, const clv__cand *c, clv_hit_event *ev) {
    const clv_hitbox_def *d = &clv__cand_box(a, c)->def;
    clv__attack *at = &a->att[c->attack1 - 1];
    clv__entity *t = &a->ent[c->target1 - 1];
    clv__vitals *tv = &a->vit[c->target1 - 1];
    clv__entity *owner = &a->ent[at->owner.index1 - 1];
    clv__apply_combat(a, c, ev);
    apply_push(a, c, ev);
    if (!(ev->flags & CLV_HIT_FLAG_INVINCIBLE)) {
        tv->hp = clv__clamp_world(tv->hp - ev->damage);
        tv->damage_taken = clv__clamp_world(tv->damage_taken + ev->damage);
        t->hitlag = ev->hitlag > t->hitlag ? ev->hitlag : t->hitlag;
        t->hitstun = ev->hitstun > t->hitstun ? ev->hitstun : t->hitstun;
        for (int32_t k = 0; k < d->effect_count && !(ev->flags & CLV_HIT_FLAG_BLOCKED); k++) {
            add_effect(a, (int32_t)c->target1 - 1, ev->weapon, &d->effects[k]);
        }
    }
    if (!at->projectile) { /* nobody holds a projectile: its thrower does not freeze */
        owner->hitlag = ev->hitlag > owner->hitlag ? ev->hitlag : owner->hitlag;
    }
    clv__entity_stir(a, (int32_t)c->target1 - 1);
    clv__entity_stir(a, (int32_t)at->owner.index1 - 1);
}

/* The frame's new records join the sorted ones: only the new are sorted, then the two runs are
 * merged from the back (no key is in both: a record found is updated in place). */
static void merge_records(clv_arena *a) {
    int32_t k = a->new_rec_count;
    if (k == 0) {
        return;
    }
    if (k > 1) {
        qsort(a->new_rec, (size_t)k, sizeof *a->new_rec, cmp_rec_q);
    }
    int32_t i = a->rec_count - 1, j = k - 1, w = a->rec_count + k - 1;
    while (j >= 0) {
        if (i >= 0 && clv__record_cmp(&a->rec[i], &a->new_rec[j]) > 0) {
            a->rec[w--] = a->rec[i--];
        } else {
            a->rec[w--] = a->new_rec[j--];
        }
    }
    a->rec_count += k;
}

clv_hit_status clv__apply_and_emit(clv_arena *a) {
    clv_hit_status st = compute_all(a);
    if (st != CLV_HIT_OK) {
        return st;
    }
    if ((st = mark_trades(a)) != CLV_HIT_OK) {
        return st;
    }
    if (!clv__reserve(&a->al, (void **)&a->pushes, &a->push_cap, a->hit_count, sizeof *a->pushes)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    stop_pushed(a);
    int32_t hit_i = 0;
    a->new_rec_count = 0;
    a->push_count = 0;
    /* The (swing, target) pair whose hit was last counted: hits come sorted by pair, and a
     * push-only hit between two hits of one pair must not make the second count again. */
    uint32_t counted_attack1 = 0, counted_target1 = 0;
    for (int32_t i = 0; i < a->cand_count; i++) {
        const clv__cand *c = &a->cand[i];
        if (c->reason >= 0) {
            continue;
        }
        clv_hit_event *ev = &a->hits[hit_i++];
        if (ev->flags & CLV_HIT_FLAG_PUSH_ONLY) {
            apply_push(a, c, ev);
            continue;
        }
        apply_hit(a, c, ev);
        bool counted = counted_attack1 == c->attack1 && counted_target1 == c->target1;
        counted_attack1 = c->attack1;
        counted_target1 = c->target1;
        remember_hit(a, c, counted);
    }
    sum_pushes(a);
    mark_kills(a);
    merge_records(a);
    return CLV_HIT_OK;
}
