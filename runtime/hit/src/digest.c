/* Digests: the weapons' and bodies' fingerprints (snapshots name what they need) and the state
 * hash, field by field so that padding and unused union bytes never matter. */
#include "hit_internal.h"

#include <string.h>

#define SNAP_SEED 0xcbf29ce484222325ull

typedef struct hasher {
    uint64_t h;
} hasher;

static void mix_u32(hasher *hs, uint32_t v) {
    for (int i = 0; i < 4; i++) {
        hs->h ^= (v >> (8 * i)) & 0xffu;
        hs->h *= 0x100000001b3ull;
    }
}

static void mix_u64(hasher *hs, uint64_t v) {
    mix_u32(hs, (uint32_t)v);
    mix_u32(hs, (uint32_t)(v >> 32));
}

static void mix_i32(hasher *hs, int32_t v) { mix_u32(hs, (uint32_t)v); }

static void mix_f(hasher *hs, float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    mix_u32(hs, u);
}

static void mix_v(hasher *hs, clv_vec2 v) {
    mix_f(hs, v.x);
    mix_f(hs, v.y);
}

static void mix_name(hasher *hs, const char *name) {
    int i = 0;
    for (; i < CLV_HIT_NAME_MAX && name[i] != '\0'; i++) {
        mix_u32(hs, (uint32_t)(unsigned char)name[i]);
    }
    mix_i32(hs, i);
}

static void mix_shape(hasher *hs, const clv_shape *s) {
    mix_i32(hs, (int32_t)s->type);
    switch (s->type) {
    case CLV_POINT:
        mix_v(hs, s->u.point);
        break;
    case CLV_CIRCLE:
        mix_v(hs, s->u.circle.c);
        mix_f(hs, s->u.circle.r);
        break;
    case CLV_CAPSULE:
        mix_v(hs, s->u.capsule.a);
        mix_v(hs, s->u.capsule.b);
        mix_f(hs, s->u.capsule.r);
        break;
    case CLV_AABB:
        mix_v(hs, s->u.aabb.min);
        mix_v(hs, s->u.aabb.max);
        break;
    case CLV_OBB:
        mix_v(hs, s->u.obb.c);
        mix_v(hs, s->u.obb.h);
        mix_v(hs, s->u.obb.u);
        break;
    default:
        break;
    }
}

static void mix_hurtbox(hasher *hs, const clv_hurtbox_def *d) {
    mix_name(hs, d->id);
    mix_shape(hs, &d->shape);
    mix_i32(hs, (int32_t)d->state);
    mix_f(hs, d->heavy);
}

static void mix_hitbox(hasher *hs, const clv_hitbox_def *d) {
    mix_name(hs, d->id);
    mix_shape(hs, &d->shape);
    mix_i32(hs, d->group);
    mix_f(hs, d->damage);
    mix_i32(hs, (int32_t)d->knockback.kind);
    mix_v(hs, d->knockback.vector);
    mix_f(hs, d->knockback.angle);
    mix_f(hs, d->knockback.base);
    mix_f(hs, d->knockback.growth);
    mix_i32(hs, d->max_hits);
    mix_i32(hs, d->knockback_ignores_hit_count ? 1 : 0);
    mix_i32(hs, d->hitlag);
    mix_f(hs, d->hitlag_scale);
    mix_i32(hs, d->hitstun);
    mix_i32(hs, d->priority);
    mix_i32(hs, d->sweep ? 1 : 0);
    mix_i32(hs, d->effect_count);
    for (int32_t k = 0; k < d->effect_count; k++) {
        const clv_effect_def *e = &d->effects[k];
        mix_name(hs, e->name);
        mix_i32(hs, e->duration);
        mix_i32(hs, e->period);
        mix_f(hs, e->magnitude);
        mix_i32(hs, e->damages ? 1 : 0);
    }
    /* Fields at their defaults add nothing: a weapon that does not use them keeps the
     * fingerprint (and the snapshots) it had before they existed. */
    if (d->clash != CLV_CLASH_NORMAL || d->parry_stun != CLV_FRAMES_AUTO ||
        d->kind != CLV_HITBOX_HIT || d->reflect_speed != 1.0f || d->reflect_damage != 1.0f ||
        d->reflect_along_facing) {
        mix_i32(hs, (int32_t)d->clash);
        mix_i32(hs, d->parry_stun);
        mix_i32(hs, (int32_t)d->kind);
        mix_f(hs, d->reflect_speed);
        mix_f(hs, d->reflect_damage);
        mix_i32(hs, d->reflect_along_facing ? 1 : 0);
    }
    clv_hitbox_def z = clv_default_hitbox_def();
    if (d->chip != z.chip || d->blockstun != z.blockstun || d->shield_damage != z.shield_damage ||
        d->unblockable || d->hits != z.hits || d->facing_restrict != z.facing_restrict ||
        d->layer != z.layer || d->mask != z.mask || d->grab_offset.x != z.grab_offset.x ||
        d->grab_offset.y != z.grab_offset.y || d->knockback.set != 0.0f || d->knockback.sakurai) {
        mix_f(hs, d->chip);
        mix_i32(hs, d->blockstun);
        mix_f(hs, d->shield_damage);
        mix_i32(hs, d->unblockable ? 1 : 0);
        mix_i32(hs, (int32_t)d->hits);
        mix_i32(hs, (int32_t)d->facing_restrict);
        mix_u32(hs, (uint32_t)d->layer << 16 | d->mask);
        mix_v(hs, d->grab_offset);
        mix_f(hs, d->knockback.set);
        mix_i32(hs, d->knockback.sakurai ? 1 : 0);
    }
}

/* Everything a compiled weapon does: its attacks, its hitboxes and which frames list them. */
uint64_t clv__weapon_fingerprint(const clv__aweapon *w) {
    hasher hs = {SNAP_SEED};
    mix_i32(&hs, w->attack_count);
    for (int32_t i = 0; i < w->attack_count; i++) {
        const clv_attack_def *at = &w->attacks[i];
        mix_name(&hs, at->name);
        mix_i32(&hs, at->frames);
        mix_i32(&hs, at->max_targets);
        mix_i32(&hs, at->rehit);
        mix_i32(&hs, at->lockout);
        if (at->rebound != CLV_FRAMES_AUTO) {
            mix_i32(&hs, at->rebound);
        }
    }
    mix_i32(&hs, w->box_count);
    for (int32_t i = 0; i < w->box_count; i++) {
        mix_hitbox(&hs, &w->boxes[i].def);
    }
    mix_i32(&hs, w->frame_total);
    for (int32_t f = 0; f <= w->frame_total; f++) {
        mix_i32(&hs, w->frame_start[f]);
    }
    for (int32_t k = 0; k < w->list_count; k++) {
        mix_i32(&hs, w->list[k]);
    }
    if (w->hurt_total > 0) { /* a weapon without carried hurtboxes keeps its fingerprint */
        mix_i32(&hs, w->hurt_total);
        for (int32_t f = 0; f <= w->frame_total; f++) {
            mix_i32(&hs, w->hurt_start[f]);
        }
        for (int32_t k = 0; k < w->hurt_total; k++) {
            mix_hurtbox(&hs, &w->hurts[k]);
        }
    }
    return hs.h;
}

/* The first n weapon slots of the arena, in order; an empty slot counts as 0, so a snapshot
 * taken before a removal does not match the arena after it. */
uint64_t clv__weapons_fingerprint(const clv_arena *a, int32_t n) {
    hasher hs = {SNAP_SEED};
    mix_i32(&hs, n);
    for (int32_t i = 0; i < n; i++) {
        const clv__aweapon *w = &a->weapons[i];
        mix_u64(&hs, w->attack_count > 0 ? w->fingerprint : 0u);
    }
    return hs.h;
}

uint64_t clv__body_fingerprint(const clv__abody *b) {
    hasher hs = {SNAP_SEED};
    mix_name(&hs, b->name);
    mix_i32(&hs, b->anim_count);
    for (int32_t i = 0; i < b->anim_count; i++) {
        mix_name(&hs, b->anims[i].name);
        mix_i32(&hs, b->anims[i].frames);
        mix_i32(&hs, b->anims[i].loop ? 1 : 0);
    }
    mix_i32(&hs, b->frame_total);
    for (int32_t f = 0; f <= b->frame_total; f++) {
        mix_i32(&hs, b->frame_start[f]);
    }
    for (int32_t k = 0; k < b->box_count; k++) {
        mix_hurtbox(&hs, &b->boxes[k]);
    }
    mix_f(&hs, b->guard.meter);
    mix_f(&hs, b->guard.regen);
    mix_i32(&hs, b->guard.guard_break);
    mix_i32(&hs, b->guard.all_round ? 1 : 0);
    return hs.h;
}

uint64_t clv__bodies_fingerprint(const clv_arena *a, int32_t n) {
    hasher hs = {SNAP_SEED};
    mix_i32(&hs, n);
    for (int32_t i = 0; i < n; i++) {
        mix_u64(&hs, a->bodies[i].fingerprint);
    }
    return hs.h;
}

static void mix_id(hasher *hs, clv_entity_id id) {
    mix_u32(hs, id.index1);
    mix_u32(hs, id.gen);
}

/* An entity's combat state, only when it is not the default: arenas that use none of it keep
 * the hashes they always had. */
static void mix_combat(hasher *hs, const clv__combat *c) {
    if (clv__combat_is_default(c)) {
        return;
    }
    mix_u32(hs, c->body1);
    mix_i32(hs, c->anim);
    mix_i32(hs, c->elapsed);
    mix_f(hs, c->facing);
    mix_i32(hs, c->mirror << 1 | c->airborne);
    mix_u32(hs, (uint32_t)c->layer << 16 | c->mask);
    mix_i32(hs, c->armor);
    mix_f(hs, c->heavy);
    mix_f(hs, c->guard_meter);
    mix_f(hs, c->guard_regen);
    mix_i32(hs, c->guard_break);
    mix_i32(hs, c->guard_all_round);
    mix_f(hs, c->meter);
    mix_id(hs, c->held_by);
    mix_id(hs, c->holding);
    mix_v(hs, c->hold);
}

/* ---- the state hash ---- */

uint64_t clv_arena_hash(const clv_arena *a) {
    hasher hs = {0xcbf29ce484222325ull};
    if (a == NULL) {
        return hs.h;
    }
    mix_u64(&hs, (uint64_t)a->frame);
    mix_u64(&hs, clv__weapons_fingerprint(a, a->weapon_count));
    if (a->body_count > 0) {
        mix_u64(&hs, clv__bodies_fingerprint(a, a->body_count));
    }
    mix_i32(&hs, a->ent_count);
    for (int32_t s = 0; s < a->ent_count; s++) {
        const clv__entity *e = &a->ent[s];
        const clv__vitals *v = &a->vit[s];
        mix_u32(&hs, (uint32_t)e->gen << 1 | e->used);
        if (!e->used) {
            continue;
        }
        mix_v(&hs, a->pos[s]);
        mix_v(&hs, a->vel[s]);
        mix_f(&hs, v->weight);
        mix_f(&hs, e->friction);
        mix_f(&hs, v->hp);
        mix_f(&hs, v->damage_taken);
        mix_i32(&hs, v->team);
        mix_i32(&hs, v->state);
        mix_i32(&hs, e->state_frames);
        mix_i32(&hs, e->hitlag);
        mix_i32(&hs, e->hitstun);
        mix_u64(&hs, v->user);
        const clv__hurt *hu = &a->hurt[s];
        mix_i32(&hs, hu->count);
        for (int32_t k = 0; k < hu->count; k++) {
            mix_shape(&hs, &hu->shapes[k]);
        }
        mix_i32(&hs, e->effect_count);
        for (int32_t k = 0; k < e->effect_count; k++) {
            const clv__effect *f = &a->fx[(size_t)s * CLV_ENTITY_MAX_EFFECTS + (size_t)k];
            mix_name(&hs, f->name);
            mix_i32(&hs, f->duration);
            mix_i32(&hs, f->period);
            mix_i32(&hs, f->elapsed);
            mix_f(&hs, f->magnitude);
            mix_i32(&hs, f->damages);
        }
        if (a->cmb != NULL) {
            mix_combat(&hs, &a->cmb[s]);
        }
    }
    mix_i32(&hs, a->att_count);
    for (int32_t s = 0; s < a->att_count; s++) {
        const clv__attack *at = &a->att[s];
        mix_u32(&hs, (uint32_t)at->gen << 1 | at->used);
        if (!at->used) {
            continue;
        }
        mix_u32(&hs, at->weapon1);
        mix_i32(&hs, at->attack);
        mix_u32(&hs, at->owner.index1);
        mix_u32(&hs, at->owner.gen);
        mix_i32(&hs, at->frame);
        mix_i32(&hs, at->elapsed);
        mix_i32(&hs, at->targets_hit);
        mix_v(&hs, at->offset);
        mix_f(&hs, at->facing);
        mix_i32(&hs, at->mirror);
        mix_i32(&hs, at->follow);
        mix_v(&hs, at->prev_o);
        mix_f(&hs, at->prev_facing);
        mix_i32(&hs, at->prev_mirror);
        if (at->projectile) { /* an attack that is none keeps the hash it always had */
            mix_u32(&hs, (uint32_t)at->loop | (uint32_t)at->destroy_on_clank << 1 |
                             (uint32_t)at->reflectable << 2 | (uint32_t)at->absorbable << 3);
            mix_i32(&hs, at->lifetime);
            mix_i32(&hs, at->pierce);
            mix_v(&hs, at->vel);
            mix_f(&hs, at->gravity);
            mix_f(&hs, at->damage_scale);
        }
        if (at->throw.index1 != 0) {
            mix_id(&hs, at->throw);
        }
    }
    mix_i32(&hs, a->rec_count);
    for (int32_t i = 0; i < a->rec_count; i++) {
        const clv__record *r = &a->rec[i];
        mix_u32(&hs, r->attack1);
        mix_u32(&hs, r->attack_gen);
        mix_u32(&hs, r->target1);
        mix_u32(&hs, r->target_gen);
        mix_i32(&hs, r->group_key);
        mix_i32(&hs, r->last);
    }
    return hs.h;
}
