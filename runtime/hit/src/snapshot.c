/* Snapshots (the whole mutable state as bytes), the weapons' fingerprint and the state hash. */
#include "hit_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define SNAP_MAGIC 0x41564c43u /* "CLVA" */
#define SNAP_VERSION 6u
/* The rules never set a longer hitlag or hitstun. */
#define TIMER_LIMIT 3600
/* An effect lasts at most this long (clv_hitbox_def_check). */
#define EFFECT_LIMIT (CLV_ATTACK_MAX_FRAMES * 16)

typedef struct snap_header {
    uint32_t magic, version;
    uint32_t sizes[6]; /* struct sizes: a snapshot only restores into the same layout */
    int32_t weapon_count;
    int64_t frame;
    uint64_t weapons; /* weapons_fingerprint of the first weapon_count weapons */
    int32_t ent_count, ent_live, ent_free_hint;
    int32_t att_count, att_free_hint;
    int32_t rec_count;
    uint64_t check; /* snap_checksum of the whole snapshot with this field 0 */
} snap_header;

/* A corrupt snapshot must be refused, not restored into a plausible wrong state: the body is
 * structs as bytes, so most bit flips would pass the field checks. Each step is a bijection of
 * h for a given word, so any change within one 8-byte word always changes the result. */
static uint64_t snap_checksum(uint64_t h, const unsigned char *p, size_t n) {
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    }
    for (; n > 0; n--, p++) {
        h = (h ^ *p) * 0x100000001b3ull;
    }
    return h;
}

#define SNAP_SEED 0xcbf29ce484222325ull

uint64_t clv__snapshot_check(const void *buffer, size_t size) {
    /* The header as its bytes (padding included), with the check field as it is summed: 0. */
    unsigned char head[sizeof(snap_header)];
    memcpy(head, buffer, sizeof head);
    memset(head + offsetof(snap_header, check), 0, sizeof(uint64_t));
    uint64_t check = snap_checksum(SNAP_SEED, head, sizeof head);
    return snap_checksum(check, (const unsigned char *)buffer + sizeof head, size - sizeof head);
}

/* ---- field-by-field digests, so padding and unused union bytes never matter ---- */

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
    return hs.h;
}

/* The first n weapon slots of the arena, in order; an empty slot counts as 0, so a snapshot
 * taken before a removal does not match the arena after it. */
static uint64_t weapons_fingerprint(const clv_arena *a, int32_t n) {
    hasher hs = {SNAP_SEED};
    mix_i32(&hs, n);
    for (int32_t i = 0; i < n; i++) {
        const clv__aweapon *w = &a->weapons[i];
        mix_u64(&hs, w->attack_count > 0 ? w->fingerprint : 0u);
    }
    return hs.h;
}

/* The lowest empty slot among the first n, or -1. */
static int32_t first_empty_slot(const clv_arena *a, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        if (a->weapons[i].attack_count == 0) {
            return i;
        }
    }
    return -1;
}

/* ---- writing ---- */

static void header_sizes(uint32_t sizes[6]) {
    sizes[5] = (uint32_t)sizeof(clv__vitals);
    sizes[0] = (uint32_t)sizeof(clv__entity);
    sizes[1] = (uint32_t)sizeof(clv__hurt);
    sizes[2] = (uint32_t)sizeof(clv__effect);
    sizes[3] = (uint32_t)sizeof(clv__attack);
    sizes[4] = (uint32_t)sizeof(clv__record);
}

static size_t body_size(int64_t ents, int64_t atts, int64_t recs) {
    return (size_t)ents * (sizeof(clv__entity) + sizeof(clv__vitals) + sizeof(clv__hurt) +
                           CLV_ENTITY_MAX_EFFECTS * sizeof(clv__effect)) +
           (size_t)atts * sizeof(clv__attack) + (size_t)recs * sizeof(clv__record);
}

size_t clv_arena_snapshot_size(const clv_arena *a) {
    if (a == NULL) {
        return 0;
    }
    return sizeof(snap_header) + body_size(a->ent_count, a->att_count, a->rec_count);
}

static unsigned char *put(unsigned char *p, const void *src, size_t n) {
    if (n > 0) {
        memcpy(p, src, n);
    }
    return p + n;
}

clv_hit_status clv_arena_snapshot(const clv_arena *a, void *buffer, size_t capacity,
                                  size_t *written) {
    if (a == NULL || buffer == NULL) {
        return CLV_HIT_ERR_NULL;
    }
    size_t need = clv_arena_snapshot_size(a);
    if (written != NULL) {
        *written = 0;
    }
    if (capacity < need) {
        return CLV_HIT_ERR_SNAPSHOT;
    }
    snap_header h;
    memset(&h, 0, sizeof h);
    h.magic = SNAP_MAGIC;
    h.version = SNAP_VERSION;
    header_sizes(h.sizes);
    h.weapon_count = a->weapon_count;
    h.frame = a->frame;
    h.weapons = weapons_fingerprint(a, a->weapon_count);
    h.ent_count = a->ent_count;
    h.ent_live = a->ent_live;
    h.ent_free_hint = a->ent_free_hint;
    h.att_count = a->att_count;
    h.att_free_hint = a->att_free_hint;
    h.rec_count = a->rec_count;
    unsigned char *p = buffer;
    p = put(p, &h, sizeof h);
    p = put(p, a->ent, (size_t)a->ent_count * sizeof *a->ent);
    p = put(p, a->vit, (size_t)a->ent_count * sizeof *a->vit);
    p = put(p, a->hurt, (size_t)a->ent_count * sizeof *a->hurt);
    p = put(p, a->fx, (size_t)a->ent_count * CLV_ENTITY_MAX_EFFECTS * sizeof *a->fx);
    p = put(p, a->att, (size_t)a->att_count * sizeof *a->att);
    p = put(p, a->rec, (size_t)a->rec_count * sizeof *a->rec);
    h.check = clv__snapshot_check(buffer, need);
    memcpy(buffer, &h, sizeof h);
    if (written != NULL) {
        *written = need;
    }
    return CLV_HIT_OK;
}

/* ---- reading: a snapshot is outside input (arena:restore takes any string), so everything
 * the step relies on is checked before anything is copied, and a refusal says what was wrong.
 * The invariants are those the arena's own functions keep (docs/hit-rules.md, "Snapshots"). */

/* The body's arrays inside the buffer; read through memcpy (the buffer may be unaligned). */
typedef struct snap_view {
    snap_header h;
    const unsigned char *ent, *vit, *hurt, *fx, *att, *rec;
} snap_view;

static void view_init(snap_view *v, const snap_header *h, const unsigned char *body) {
    size_t n = (size_t)h->ent_count;
    v->h = *h;
    v->ent = body;
    v->vit = v->ent + n * sizeof(clv__entity);
    v->hurt = v->vit + n * sizeof(clv__vitals);
    v->fx = v->hurt + n * sizeof(clv__hurt);
    v->att = v->fx + n * CLV_ENTITY_MAX_EFFECTS * sizeof(clv__effect);
    v->rec = v->att + (size_t)h->att_count * sizeof(clv__attack);
}

static clv__entity view_ent(const snap_view *v, int32_t s) {
    clv__entity e;
    memcpy(&e, v->ent + (size_t)s * sizeof e, sizeof e);
    return e;
}

static clv__attack view_att(const snap_view *v, int32_t s) {
    clv__attack at;
    memcpy(&at, v->att + (size_t)s * sizeof at, sizeof at);
    return at;
}

static clv__record view_rec(const snap_view *v, int32_t i) {
    clv__record r;
    memcpy(&r, v->rec + (size_t)i * sizeof r, sizeof r);
    return r;
}

static bool refuse(clv_hit_diag *diag, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bool refuse(clv_hit_diag *diag, const char *field, const char *fmt, ...) {
    char msg[sizeof diag->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    clv__diag_set(diag, CLV_HIT_ERR_SNAPSHOT, field, "%s", msg);
    return false;
}

static bool flag_ok(int64_t v) { return v == 0 || v == 1; }

static bool header_valid(const snap_header *h, size_t size, clv_hit_diag *diag) {
    uint32_t sizes[6];
    header_sizes(sizes);
    if (h->magic != SNAP_MAGIC) {
        return refuse(diag, "magic", "not an arena snapshot");
    }
    if (h->version != SNAP_VERSION || memcmp(sizes, h->sizes, sizeof sizes) != 0) {
        return refuse(diag, "version",
                      "snapshot of format %u from another build (this one reads format %u)",
                      (unsigned)h->version, (unsigned)SNAP_VERSION);
    }
    if (h->ent_count < 0 || h->ent_count > INT32_MAX / CLV_ENTITY_MAX_EFFECTS || h->att_count < 0 ||
        h->rec_count < 0) {
        return refuse(diag, "count", "entity, attack or record count out of range");
    }
    size_t want = sizeof *h + body_size(h->ent_count, h->att_count, h->rec_count);
    if (size != want) {
        return refuse(diag, "size", "snapshot is %zu bytes, its header says %zu", size, want);
    }
    return true;
}

/* After the checksum: the header's numbers and the arena's weapons. */
static bool config_valid(const clv_arena *a, const snap_header *h, clv_hit_diag *diag) {
    if (h->frame < 0 || h->frame > CLV_ARENA_MAX_FRAME) {
        return refuse(diag, "frame", "frame must be in 0..2^53 (got %" PRId64 ")", h->frame);
    }
    if (h->weapon_count < 0 || h->weapon_count > a->weapon_count) {
        return refuse(diag, "weapons",
                      "snapshot was taken with %d weapons, this arena holds %d: restore into an "
                      "arena with the same weapons, added in the same order",
                      (int)h->weapon_count, (int)a->weapon_count);
    }
    if (h->weapons != weapons_fingerprint(a, h->weapon_count)) {
        int32_t empty = first_empty_slot(a, h->weapon_count);
        if (empty >= 0) {
            return refuse(diag, "weapons",
                          "this arena's weapons differ from those the snapshot was taken with: "
                          "weapon %d was removed from this arena; a snapshot taken before a "
                          "removal cannot be restored after it",
                          (int)empty + 1);
        }
        return refuse(diag, "weapons",
                      "this arena's weapons differ from those the snapshot was taken with: "
                      "restore into an arena with the same weapons, added in the same order");
    }
    if (h->ent_live < 0 || h->ent_live > h->ent_count || h->ent_free_hint < 0 ||
        h->ent_free_hint > h->ent_count || h->att_free_hint < 0 ||
        h->att_free_hint > h->att_count) {
        return refuse(diag, "count", "live count or free-slot hint out of range");
    }
    return true;
}

static bool effects_valid(const snap_view *v, int32_t s, int32_t count, clv_hit_diag *diag) {
    for (int32_t k = 0; k < count; k++) {
        clv__effect f;
        memcpy(&f, v->fx + ((size_t)s * CLV_ENTITY_MAX_EFFECTS + (size_t)k) * sizeof f, sizeof f);
        if (!clv__name_ok(f.name) || f.duration < 1 || f.duration > EFFECT_LIMIT || f.period < 1 ||
            f.period > f.duration || f.elapsed < 0 || f.elapsed >= f.duration ||
            !clv__finite(f.magnitude) || !(f.magnitude >= 0.0f) || !flag_ok(f.damages) ||
            f.weapon.index1 > (uint32_t)v->h.weapon_count) {
            return refuse(diag, "effects", "entity slot %d: effect %d is invalid", (int)s, (int)k);
        }
    }
    return true;
}

static bool entity_valid(const snap_view *v, int32_t s, clv_hit_diag *diag) {
    clv__entity e = view_ent(v, s);
    clv__vitals vi;
    clv__hurt hu;
    memcpy(&vi, v->vit + (size_t)s * sizeof vi, sizeof vi);
    memcpy(&hu, v->hurt + (size_t)s * sizeof hu, sizeof hu);
    /* A free slot's hurtboxes are read too: bounds are refreshed for every slot. */
    if (!flag_ok(e.used) || !flag_ok(e.frozen) || hu.count < 0 || hu.count > CLV_MAX_HURTBOXES) {
        return refuse(diag, "entity", "entity slot %d: a flag or the hurtbox count is invalid",
                      (int)s);
    }
    for (int32_t k = 0; k < hu.count; k++) {
        if (clv__check_shape(&hu.shapes[k], "", NULL) != CLV_HIT_OK) {
            return refuse(diag, "hurtboxes", "entity slot %d: hurtbox %d is invalid", (int)s,
                          (int)k);
        }
    }
    if (!e.used) {
        return true;
    }
    if (e.hurt_count != hu.count || e.effect_count < 0 || e.effect_count > CLV_ENTITY_MAX_EFFECTS) {
        return refuse(diag, "entity", "entity slot %d: hurtbox or effect count is invalid", (int)s);
    }
    if (!(vi.weight > 0.0f) || !clv__in_world(vi.weight) || !(e.friction >= 0.0f) ||
        !clv__in_world(e.friction) || !clv__in_world(e.pos.x) || !clv__in_world(e.pos.y) ||
        !clv__in_world(e.vel.x) || !clv__in_world(e.vel.y) || !clv__in_world(vi.hp) ||
        !(vi.damage_taken >= 0.0f) || !clv__in_world(vi.damage_taken)) {
        return refuse(diag, "entity", "entity slot %d: a number is out of range", (int)s);
    }
    if (e.hitlag < 0 || e.hitlag > TIMER_LIMIT || e.hitstun < 0 || e.hitstun > TIMER_LIMIT ||
        e.state_frames < 0 || vi.state < CLV_HURT_NORMAL || vi.state > CLV_HURT_PARRY ||
        (vi.state == CLV_HURT_NORMAL && e.state_frames != 0)) {
        return refuse(diag, "entity", "entity slot %d: a timer or the hurt state is invalid",
                      (int)s);
    }
    return effects_valid(v, s, e.effect_count, diag);
}

/* Every slot below a free-slot hint is in use: spawn and start_attack search from it. */
static bool hints_valid(const snap_view *v, clv_hit_diag *diag) {
    int32_t live = 0;
    for (int32_t s = 0; s < v->h.ent_count; s++) {
        bool used = view_ent(v, s).used != 0;
        live += used ? 1 : 0;
        if (!used && s < v->h.ent_free_hint) {
            return refuse(diag, "ent_free_hint", "free entity slot %d lies below the hint %d",
                          (int)s, (int)v->h.ent_free_hint);
        }
    }
    if (live != v->h.ent_live) {
        return refuse(diag, "ent_live", "%d entities are live, the header says %d", (int)live,
                      (int)v->h.ent_live);
    }
    for (int32_t s = 0; s < v->h.att_free_hint; s++) {
        if (!view_att(v, s).used) {
            return refuse(diag, "att_free_hint", "free attack slot %d lies below the hint %d",
                          (int)s, (int)v->h.att_free_hint);
        }
    }
    return true;
}

/* A projectile's flight: flags, a lifetime and pierce that spawning allows, numbers in the world;
 * an attack that is no projectile keeps them all zero. */
static bool projectile_valid(const clv__attack *at, int32_t s, clv_hit_diag *diag) {
    if (!flag_ok(at->projectile) || !flag_ok(at->loop) || !flag_ok(at->destroy_on_clank) ||
        !flag_ok(at->reflectable) || !flag_ok(at->absorbable)) {
        return refuse(diag, "projectile", "attack slot %d: a projectile flag is invalid", (int)s);
    }
    if (!at->projectile) {
        bool zero = !at->loop && !at->destroy_on_clank && !at->reflectable && !at->absorbable &&
                    at->lifetime == 0 && at->pierce == 0 && at->vel.x == 0.0f &&
                    at->vel.y == 0.0f && at->gravity == 0.0f && at->damage_scale == 0.0f;
        return zero ||
               refuse(diag, "projectile",
                      "attack slot %d: an attack that is no projectile has a flight", (int)s);
    }
    if (at->follow || at->lifetime < 0 || at->lifetime > CLV_ATTACK_MAX_FRAMES * 16 ||
        at->pierce < 0 || !clv__in_world(at->vel.x) || !clv__in_world(at->vel.y) ||
        !clv__in_world(at->gravity) || !clv__in_world(at->damage_scale) ||
        at->damage_scale < 0.0f) {
        return refuse(diag, "projectile", "attack slot %d: a projectile number is out of range",
                      (int)s);
    }
    return true;
}

static bool attack_valid(const clv_arena *a, const snap_view *v, int32_t s, clv_hit_diag *diag) {
    clv__attack at = view_att(v, s);
    if (!flag_ok(at.used)) {
        return refuse(diag, "attack", "attack slot %d: flag is invalid", (int)s);
    }
    if (!at.used) {
        return true;
    }
    if (!flag_ok(at.active) || !flag_ok(at.mirror) || !flag_ok(at.follow) ||
        !flag_ok(at.prev_mirror)) {
        return refuse(diag, "attack", "attack slot %d: a flag is invalid", (int)s);
    }
    if (at.weapon1 == 0 || at.weapon1 > (uint32_t)v->h.weapon_count) {
        return refuse(diag, "attack", "attack slot %d: weapon %u is not in the snapshot", (int)s,
                      (unsigned)at.weapon1);
    }
    const clv__aweapon *w = &a->weapons[at.weapon1 - 1];
    if (w->attack_count == 0) {
        return refuse(diag, "attack", "attack slot %d: weapon %u was removed", (int)s,
                      (unsigned)at.weapon1);
    }
    /* frame and elapsed advance together (a looping projectile's frame starts again); -1 and 0
     * before the first step */
    bool clock_ok = at.projectile ? at.elapsed >= at.frame + 1 && (at.frame >= 0 || at.elapsed == 0)
                                  : at.elapsed == at.frame + 1;
    if (at.attack < 0 || at.attack >= w->attack_count || at.frame < -1 ||
        at.frame >= w->attacks[at.attack].frames || !clock_ok || (at.active && at.frame < 0)) {
        return refuse(diag, "attack", "attack slot %d: attack index or frame out of range", (int)s);
    }
    if (at.owner.index1 == 0 || at.owner.index1 > (uint32_t)v->h.ent_count) {
        return refuse(diag, "attack", "attack slot %d: owner out of range", (int)s);
    }
    clv__entity o = view_ent(v, (int32_t)at.owner.index1 - 1);
    if (!o.used || o.gen != at.owner.gen) {
        return refuse(diag, "attack", "attack slot %d: owner is not a live entity", (int)s);
    }
    /* A placed origin is the offset plus the owner's position: within twice the world. */
    const float reach = 2.0f * CLV_WORLD_LIMIT;
    if (at.targets_hit < 0 || !clv__in_world(at.offset.x) || !clv__in_world(at.offset.y) ||
        !clv__finite(at.facing) || !(at.prev_o.x >= -reach && at.prev_o.x <= reach) ||
        !(at.prev_o.y >= -reach && at.prev_o.y <= reach) || !clv__finite(at.prev_facing)) {
        return refuse(diag, "attack", "attack slot %d: a number is out of range", (int)s);
    }
    return projectile_valid(&at, s, diag);
}

static bool group_key_valid(const clv__aweapon *w, int32_t key) {
    if (key >= 0) {
        return true;
    }
    /* a group of its own: the key names its hitbox */
    int64_t box = -1 - (int64_t)key;
    return box < w->box_count && w->boxes[box].group_key == key;
}

/* Sorted, unique, each naming a live attack (records end with their swing) and a slot; a swing
 * counts at least as many targets as its records name. */
static bool records_valid(const clv_arena *a, const snap_view *v, clv_hit_diag *diag) {
    clv__record prev;
    int32_t distinct = 0;
    for (int32_t i = 0; i < v->h.rec_count; i++) {
        clv__record r = view_rec(v, i);
        if (r.attack1 == 0 || r.attack1 > (uint32_t)v->h.att_count || r.target1 == 0 ||
            r.target1 > (uint32_t)v->h.ent_count) {
            return refuse(diag, "records", "hit record %d: attack or target out of range", (int)i);
        }
        if (i > 0 && clv__record_cmp(&prev, &r) >= 0) {
            return refuse(diag, "records", "hit record %d: records are not sorted and unique",
                          (int)i);
        }
        clv__attack at = view_att(v, (int32_t)r.attack1 - 1);
        if (!at.used || at.gen != r.attack_gen || r.last < 1 || r.last > at.elapsed ||
            !group_key_valid(&a->weapons[at.weapon1 - 1], r.group_key)) {
            return refuse(diag, "records", "hit record %d: does not match its attack", (int)i);
        }
        bool same_swing = i > 0 && prev.attack1 == r.attack1;
        bool new_target =
            !same_swing || prev.target1 != r.target1 || prev.target_gen != r.target_gen;
        distinct = same_swing ? distinct + (new_target ? 1 : 0) : 1;
        if (distinct > at.targets_hit) {
            return refuse(diag, "records",
                          "attack slot %d: hit records name more targets than "
                          "its count %d",
                          (int)r.attack1 - 1, (int)at.targets_hit);
        }
        prev = r;
    }
    return true;
}

static bool body_valid(const clv_arena *a, const snap_view *v, clv_hit_diag *diag) {
    for (int32_t s = 0; s < v->h.ent_count; s++) {
        if (!entity_valid(v, s, diag)) {
            return false;
        }
    }
    for (int32_t s = 0; s < v->h.att_count; s++) {
        if (!attack_valid(a, v, s, diag)) {
            return false;
        }
    }
    return hints_valid(v, diag) && records_valid(a, v, diag);
}

clv_hit_status clv_arena_restore(clv_arena *a, const void *buffer, size_t size) {
    return clv_arena_restore_diag(a, buffer, size, NULL);
}

clv_hit_status clv_arena_restore_diag(clv_arena *a, const void *buffer, size_t size,
                                      clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (a == NULL || buffer == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, a == NULL ? "arena" : "buffer", "%s is NULL",
                             a == NULL ? "arena" : "buffer");
    }
    snap_header h;
    if (size < sizeof h) {
        refuse(diag, "size", "snapshot is %zu bytes, shorter than its %zu-byte header", size,
               sizeof h);
        return CLV_HIT_ERR_SNAPSHOT;
    }
    memcpy(&h, buffer, sizeof h);
    if (!header_valid(&h, size, diag)) {
        return CLV_HIT_ERR_SNAPSHOT;
    }
    const unsigned char *body = (const unsigned char *)buffer + sizeof h;
    if (clv__snapshot_check(buffer, size) != h.check) {
        refuse(diag, "check", "checksum mismatch: the snapshot is corrupt");
        return CLV_HIT_ERR_SNAPSHOT;
    }
    snap_view v;
    view_init(&v, &h, body);
    if (!config_valid(a, &h, diag) || !body_valid(a, &v, diag)) {
        return CLV_HIT_ERR_SNAPSHOT;
    }
    /* Grow first: a failure here leaves the state as it was. */
    if (!clv__entity_reserve(a, h.ent_count) ||
        !clv__reserve(&a->al, (void **)&a->att, &a->att_cap, h.att_count, sizeof *a->att) ||
        !clv__reserve(&a->al, (void **)&a->rec, &a->rec_cap, h.rec_count, sizeof *a->rec)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
    }
    const unsigned char *p = body;
    size_t n;
    if (h.ent_count > 0) {
        n = (size_t)h.ent_count * sizeof *a->ent;
        memcpy(a->ent, p, n);
        p += n;
        n = (size_t)h.ent_count * sizeof *a->vit;
        memcpy(a->vit, p, n);
        p += n;
        n = (size_t)h.ent_count * sizeof *a->hurt;
        memcpy(a->hurt, p, n);
        p += n;
        n = (size_t)h.ent_count * CLV_ENTITY_MAX_EFFECTS * sizeof *a->fx;
        memcpy(a->fx, p, n);
        p += n;
    }
    n = (size_t)h.att_count * sizeof *a->att;
    if (n > 0) {
        memcpy(a->att, p, n);
    }
    p += n;
    n = (size_t)h.rec_count * sizeof *a->rec;
    if (n > 0) {
        memcpy(a->rec, p, n);
    }
    a->frame = h.frame;
    a->ent_count = h.ent_count;
    a->ent_live = h.ent_live;
    a->ent_free_hint = h.ent_free_hint;
    a->att_count = h.att_count;
    a->att_free_hint = h.att_free_hint;
    a->rec_count = h.rec_count;
    for (int32_t s = 0; s < a->ent_count; s++) {
        clv__entity_refresh_bounds(a, s);
    }
    clv__events_clear(a);
    return CLV_HIT_OK;
}

/* ---- the state hash ---- */

uint64_t clv_arena_hash(const clv_arena *a) {
    hasher hs = {0xcbf29ce484222325ull};
    if (a == NULL) {
        return hs.h;
    }
    mix_u64(&hs, (uint64_t)a->frame);
    mix_u64(&hs, weapons_fingerprint(a, a->weapon_count));
    mix_i32(&hs, a->ent_count);
    for (int32_t s = 0; s < a->ent_count; s++) {
        const clv__entity *e = &a->ent[s];
        const clv__vitals *v = &a->vit[s];
        mix_u32(&hs, (uint32_t)e->gen << 1 | e->used);
        if (!e->used) {
            continue;
        }
        mix_v(&hs, e->pos);
        mix_v(&hs, e->vel);
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
