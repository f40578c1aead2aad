/* Projectiles: attacks whose pose flies on its own (docs/hit-rules.md, "Projectiles"). Their
 * hitboxes are placed, swept, met and resolved like any attack's; this file moves them, ends
 * them and turns them back. */
#include "step_internal.h"

#include <math.h>
#include <string.h>

/* The longest flight: as long as an effect may last. */
#define LIFETIME_LIMIT (CLV_ATTACK_MAX_FRAMES * 16)

clv_projectile_def clv_default_projectile_def(void) {
    clv_projectile_def d;
    memset(&d, 0, sizeof d);
    d.lifetime = 60;
    d.pierce = 1;
    d.destroy_on_clank = true;
    d.reflectable = true;
    d.absorbable = true;
    return d;
}

static clv_hit_status check_projectile(const clv_projectile_def *d, clv_hit_diag *diag) {
    if (!clv__in_world(d->velocity.x) || !clv__in_world(d->velocity.y)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "velocity",
                             "velocity must be finite and within +-1e9 (got %g, %g)",
                             (double)d->velocity.x, (double)d->velocity.y);
    }
    if (!clv__in_world(d->gravity)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "gravity",
                             "gravity must be finite and within +-1e9 (got %g)",
                             (double)d->gravity);
    }
    if (d->lifetime < 1 || d->lifetime > LIFETIME_LIMIT) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "lifetime",
                             "lifetime must be in 1..%d (got %d)", LIFETIME_LIMIT,
                             (int)d->lifetime);
    }
    if (d->pierce < 0) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "pierce",
                             "pierce must be >= 0, 0 for no limit (got %d)", (int)d->pierce);
    }
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_spawn_projectile(clv_arena *a, const clv_projectile_def *d,
                                          clv_attack_id *out, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (a == NULL || d == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, a == NULL ? "arena" : "def", "%s is NULL",
                             a == NULL ? "arena" : "def");
    }
    clv_hit_status st = check_projectile(d, diag);
    if (st != CLV_HIT_OK) {
        return st;
    }
    clv_attack_start_def s = clv_default_attack_start_def();
    s.weapon = d->weapon;
    s.attack = d->attack;
    s.owner = d->owner;
    s.position = d->position;
    s.facing = d->facing;
    s.mirror = d->mirror;
    s.follow_owner = false;
    clv_attack_id id;
    if ((st = clv_arena_start_attack(a, &s, &id, diag)) != CLV_HIT_OK) {
        return st;
    }
    clv__attack *at = &a->att[id.index1 - 1];
    at->projectile = 1;
    at->loop = d->loop ? 1 : 0;
    at->destroy_on_clank = d->destroy_on_clank ? 1 : 0;
    at->reflectable = d->reflectable ? 1 : 0;
    at->absorbable = d->absorbable ? 1 : 0;
    at->lifetime = d->lifetime;
    at->pierce = d->pierce;
    at->vel = d->velocity;
    at->gravity = d->gravity;
    at->damage_scale = 1.0f;
    if (out != NULL) {
        *out = id;
    }
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_projectile(const clv_arena *a, clv_attack_id id,
                                    clv_projectile_info *out) {
    if (a == NULL || out == NULL) {
        return CLV_HIT_ERR_NULL;
    }
    if (id.index1 == 0 || id.index1 > (uint32_t)a->att_count) {
        return CLV_HIT_ERR_STALE_ID;
    }
    const clv__attack *at = &a->att[id.index1 - 1];
    if (!at->used || at->gen != id.gen || !at->projectile) {
        return CLV_HIT_ERR_STALE_ID;
    }
    memset(out, 0, sizeof *out);
    out->owner = at->owner;
    out->team = a->vit[at->owner.index1 - 1].team;
    out->position = at->offset;
    out->velocity = at->vel;
    out->lifetime = at->lifetime;
    out->hits = at->targets_hit;
    out->damage_scale = at->damage_scale;
    return CLV_HIT_OK;
}

const clv_projectile_event *clv_arena_projectile_events(const clv_arena *a, int32_t *count) {
    if (count != NULL) {
        *count = a != NULL ? a->pevent_count : 0;
    }
    return a != NULL ? a->pevents : NULL;
}

float clv__damage_of(const clv_arena *a, uint32_t attack1, const clv_hitbox_def *d) {
    const clv__attack *at = &a->att[attack1 - 1];
    return at->projectile ? clv__clamp_world(d->damage * at->damage_scale) : d->damage;
}

/* Events are best effort on a failed allocation: the state stays right, the frame's report
 * lacks the event (clv_arena_step reports the failure of the buffers it needs). */
static clv_projectile_event *push_event(clv_arena *a, int32_t s, clv_projectile_event_kind kind) {
    if (!clv__reserve(&a->al, (void **)&a->pevents, &a->pevent_cap, a->pevent_count + 1,
                      sizeof *a->pevents)) {
        return NULL;
    }
    const clv__attack *at = &a->att[s];
    clv_projectile_event *ev = &a->pevents[a->pevent_count++];
    memset(ev, 0, sizeof *ev);
    ev->frame = a->frame;
    ev->kind = kind;
    ev->projectile = (clv_attack_id){(uint32_t)s + 1, at->gen};
    ev->owner = at->owner;
    ev->weapon = (clv_weapon_id){at->weapon1, a->weapons[at->weapon1 - 1].gen};
    ev->position = at->offset;
    ev->velocity = at->vel;
    ev->by_hitbox = -1;
    ev->reason = -1;
    return ev;
}

static void expire(clv_arena *a, int32_t s) {
    push_event(a, s, CLV_PROJECTILE_EXPIRED);
    clv__attack_end(a, s);
}

bool clv__projectile_advance(clv_arena *a, int32_t s) {
    clv__attack *at = &a->att[s];
    const clv__aweapon *w = &a->weapons[at->weapon1 - 1];
    if (at->lifetime <= 0) {
        expire(a, s);
        return false;
    }
    if (at->frame >= 0) {
        at->vel.y = clv__clamp_world(at->vel.y + at->gravity);
        at->offset.x = clv__clamp_world(at->offset.x + at->vel.x);
        at->offset.y = clv__clamp_world(at->offset.y + at->vel.y);
    }
    at->lifetime--;
    at->frame++;
    if (at->elapsed < INT32_MAX) {
        at->elapsed++;
    }
    if (at->frame >= w->attacks[at->attack].frames) {
        if (!at->loop) {
            expire(a, s);
            return false;
        }
        at->frame = 0;
    }
    if (at->elapsed == 1) {
        push_event(a, s, CLV_PROJECTILE_SPAWNED);
    }
    return true;
}

/* The velocity a reflection gives: mirrored about the normal where they met, or along the
 * reflector's facing, at reflect_speed times the speed it had. */
static clv_vec2 reflected(const clv_arena *a, const clv__attack *at, const clv__stop *st,
                          const clv_hitbox_def *d) {
    clv_vec2 v = at->vel, n = st->normal;
    if (d->reflect_along_facing) {
        const clv__attack *by = &a->att[a->placed[st->by].attack1 - 1];
        float sn, cs;
        clv_sincos(by->facing, &sn, &cs);
        float speed = sqrtf(v.x * v.x + v.y * v.y) * d->reflect_speed;
        return clv_v2(clv__clamp_world(cs * speed), clv__clamp_world(sn * speed));
    }
    float dot = v.x * n.x + v.y * n.y;
    float x = (v.x - 2.0f * dot * n.x) * d->reflect_speed;
    float y = (v.y - 2.0f * dot * n.y) * d->reflect_speed;
    return clv_v2(clv__clamp_world(x), clv__clamp_world(y));
}

static void reflect(clv_arena *a, int32_t s, const clv__stop *st) {
    clv__attack *at = &a->att[s];
    const clv__placed *pl = &a->placed[st->by];
    const clv__attack *by = &a->att[pl->attack1 - 1];
    const clv_hitbox_def *d = &a->weapons[by->weapon1 - 1].boxes[pl->box].def;
    at->vel = reflected(a, at, st, d);
    at->damage_scale = clv__clamp_world(at->damage_scale * d->reflect_damage);
    clv_projectile_event *ev = push_event(a, s, CLV_PROJECTILE_REFLECTED);
    at->owner = by->owner;
    if (ev != NULL) {
        ev->velocity = at->vel;
        ev->by = by->owner;
        ev->by_attack = (clv_attack_id){pl->attack1, by->gen};
        ev->by_hitbox = pl->pos;
    }
}

static void absorb(clv_arena *a, int32_t s, const clv__stop *st) {
    const clv__placed *pl = &a->placed[st->by];
    const clv__attack *by = &a->att[pl->attack1 - 1];
    clv_projectile_event *ev = push_event(a, s, CLV_PROJECTILE_ABSORBED);
    if (ev != NULL) {
        ev->by = by->owner;
        ev->by_attack = (clv_attack_id){pl->attack1, by->gen};
        ev->by_hitbox = pl->pos;
        ev->damage = st->damage;
    }
    clv__attack_end(a, s);
}

void clv__projectile_settle(clv_arena *a, int32_t s, const clv__stop *st) {
    clv__attack *at = &a->att[s];
    if (st->reason == CLV_MISS_REFLECTED) {
        reflect(a, s, st);
    } else if (st->reason == CLV_MISS_ABSORBED) {
        absorb(a, s, st);
    } else if (st->reason >= 0 && (at->destroy_on_clank || st->reason == CLV_MISS_PARRIED)) {
        clv_projectile_event *ev = push_event(a, s, CLV_PROJECTILE_DESTROYED);
        if (ev != NULL) {
            ev->reason = st->reason;
        }
        clv__attack_end(a, s);
    } else if (at->pierce > 0 && at->targets_hit >= at->pierce) {
        push_event(a, s, CLV_PROJECTILE_DESTROYED);
        clv__attack_end(a, s);
    }
}
