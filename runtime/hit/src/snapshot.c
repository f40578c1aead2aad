/* Snapshots (the whole mutable state as bytes) and the state hash. */
#include "hit_internal.h"

#include <stddef.h>
#include <string.h>

#define SNAP_MAGIC 0x41564c43u /* "CLVA" */
#define SNAP_VERSION 3u
/* Timers beyond this are corrupt (the rules never set more than a minute). */
#define FRAMES_LIMIT (3600 * 16)

typedef struct snap_header {
    uint32_t magic, version;
    uint32_t sizes[6]; /* struct sizes: a snapshot only restores into the same layout */
    int32_t weapon_count;
    int64_t frame;
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
    h.check = snap_checksum(SNAP_SEED, buffer, need);
    memcpy(buffer, &h, sizeof h);
    if (written != NULL) {
        *written = need;
    }
    return CLV_HIT_OK;
}

/* A snapshot is outside input: check everything the step relies on before copying. */
static bool body_valid(const clv_arena *a, const snap_header *h, const unsigned char *body) {
    const unsigned char *pe = body;
    const unsigned char *pv = pe + (size_t)h->ent_count * sizeof(clv__entity);
    const unsigned char *ph = pv + (size_t)h->ent_count * sizeof(clv__vitals);
    const unsigned char *pf = ph + (size_t)h->ent_count * sizeof(clv__hurt);
    const unsigned char *pa =
        pf + (size_t)h->ent_count * CLV_ENTITY_MAX_EFFECTS * sizeof(clv__effect);
    int32_t live = 0;
    for (int32_t s = 0; s < h->ent_count; s++) {
        clv__entity e;
        clv__vitals v;
        clv__hurt hu;
        memcpy(&e, pe + (size_t)s * sizeof e, sizeof e);
        memcpy(&v, pv + (size_t)s * sizeof v, sizeof v);
        memcpy(&hu, ph + (size_t)s * sizeof hu, sizeof hu);
        /* Flags are 0 or 1: the step copies them on, and a later snapshot would refuse them. */
        /* A free slot's hurtboxes are still read when bounds are refreshed after a restore. */
        if (e.used > 1 || e.frozen > 1 || hu.count < 0 || hu.count > CLV_MAX_HURTBOXES) {
            return false;
        }
        if (!e.used) {
            continue;
        }
        live++;
        if (e.hurt_count != hu.count) {
            return false;
        }
        if (e.effect_count < 0 || e.effect_count > CLV_ENTITY_MAX_EFFECTS || hu.count < 0 ||
            hu.count > CLV_MAX_HURTBOXES || !(v.weight > 0.0f) || !clv__finite(v.weight) ||
            !(e.friction >= 0.0f) || !clv__finite(e.friction) || !clv__in_world(e.pos.x) ||
            !clv__in_world(e.pos.y) || !clv__in_world(e.vel.x) || !clv__in_world(e.vel.y) ||
            !clv__in_world(v.hp) || !clv__in_world(v.damage_taken) || e.hitlag < 0 ||
            e.hitlag > FRAMES_LIMIT || e.hitstun < 0 || e.hitstun > FRAMES_LIMIT ||
            e.state_frames < 0 || v.state < 0 || v.state > CLV_HURT_INTANGIBLE) {
            return false;
        }
        for (int32_t k = 0; k < hu.count; k++) {
            if (clv__check_shape(&hu.shapes[k], "", NULL) != CLV_HIT_OK) {
                return false;
            }
        }
        for (int32_t k = 0; k < e.effect_count; k++) {
            clv__effect f;
            memcpy(&f, pf + ((size_t)s * CLV_ENTITY_MAX_EFFECTS + (size_t)k) * sizeof f, sizeof f);
            if (f.duration < 1 || f.period < 1 || f.period > f.duration || f.elapsed < 0 ||
                f.elapsed >= f.duration || !clv__finite(f.magnitude)) {
                return false;
            }
        }
    }
    if (live != h->ent_live) {
        return false;
    }
    for (int32_t s = 0; s < h->att_count; s++) {
        clv__attack at;
        memcpy(&at, pa + (size_t)s * sizeof at, sizeof at);
        if (at.used > 1) {
            return false;
        }
        if (!at.used) {
            continue;
        }
        if (at.active > 1 || (at.mirror != 0 && at.mirror != 1) ||
            (at.follow != 0 && at.follow != 1)) {
            return false;
        }
        if (at.weapon1 == 0 || at.weapon1 > (uint32_t)h->weapon_count ||
            at.weapon1 > (uint32_t)a->weapon_count) {
            return false;
        }
        const clv__aweapon *w = &a->weapons[at.weapon1 - 1];
        if (at.attack < 0 || at.attack >= w->attack_count || at.frame < -1 ||
            at.frame >= w->attacks[at.attack].frames) {
            return false;
        }
        if (at.owner.index1 == 0 || at.owner.index1 > (uint32_t)h->ent_count) {
            return false;
        }
        clv__entity o;
        memcpy(&o, pe + (size_t)(at.owner.index1 - 1) * sizeof o, sizeof o);
        if (!o.used || o.gen != at.owner.gen || at.elapsed < 0 || at.elapsed > FRAMES_LIMIT * 64 ||
            at.targets_hit < 0 || !clv__in_world(at.offset.x) || !clv__in_world(at.offset.y) ||
            !clv__finite(at.facing) || !clv__finite(at.prev_o.x) || !clv__finite(at.prev_o.y) ||
            !clv__finite(at.prev_facing) || (at.prev_mirror != 0 && at.prev_mirror != 1)) {
            return false;
        }
    }
    const unsigned char *pr = pa + (size_t)h->att_count * sizeof(clv__attack);
    clv__record prev;
    for (int32_t i = 0; i < h->rec_count; i++) {
        clv__record r;
        memcpy(&r, pr + (size_t)i * sizeof r, sizeof r);
        if (r.attack1 == 0 || r.attack1 > (uint32_t)h->att_count || r.last < 0 ||
            r.last > FRAMES_LIMIT * 64) {
            return false;
        }
        /* sorted and unique: the rules search them by halves */
        if (i > 0 && clv__record_cmp(&prev, &r) >= 0) {
            return false;
        }
        prev = r;
    }
    return true;
}

clv_hit_status clv_arena_restore(clv_arena *a, const void *buffer, size_t size) {
    if (a == NULL || buffer == NULL) {
        return CLV_HIT_ERR_NULL;
    }
    snap_header h;
    if (size < sizeof h) {
        return CLV_HIT_ERR_SNAPSHOT;
    }
    memcpy(&h, buffer, sizeof h);
    uint32_t sizes[6];
    header_sizes(sizes);
    if (h.magic != SNAP_MAGIC || h.version != SNAP_VERSION ||
        memcmp(sizes, h.sizes, sizeof sizes) != 0 || h.weapon_count < 0 ||
        h.weapon_count > a->weapon_count || h.ent_count < 0 ||
        h.ent_count > INT32_MAX / CLV_ENTITY_MAX_EFFECTS || h.att_count < 0 || h.rec_count < 0 ||
        h.ent_live < 0 || h.ent_free_hint < 0 || h.att_free_hint < 0 || h.frame < 0) {
        return CLV_HIT_ERR_SNAPSHOT;
    }
    if (size != sizeof h + body_size(h.ent_count, h.att_count, h.rec_count)) {
        return CLV_HIT_ERR_SNAPSHOT;
    }
    const unsigned char *body = (const unsigned char *)buffer + sizeof h;
    /* The header as its bytes (padding included), with the check field as it was summed: 0. */
    unsigned char head[sizeof h];
    memcpy(head, buffer, sizeof h);
    memset(head + offsetof(snap_header, check), 0, sizeof h.check);
    uint64_t check = snap_checksum(SNAP_SEED, head, sizeof head);
    check = snap_checksum(check, body, size - sizeof h);
    if (check != h.check || !body_valid(a, &h, body)) {
        return CLV_HIT_ERR_SNAPSHOT;
    }
    /* Grow first: a failure here leaves the state as it was. */
    if (!clv__entity_reserve(a, h.ent_count) ||
        !clv__reserve(&a->al, (void **)&a->att, &a->att_cap, h.att_count, sizeof *a->att) ||
        !clv__reserve(&a->al, (void **)&a->rec, &a->rec_cap, h.rec_count, sizeof *a->rec)) {
        return CLV_HIT_ERR_NO_MEMORY;
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

/* ---- hash: field by field, so padding and unused union bytes never matter ---- */

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

uint64_t clv_arena_hash(const clv_arena *a) {
    hasher hs = {0xcbf29ce484222325ull};
    if (a == NULL) {
        return hs.h;
    }
    mix_u64(&hs, (uint64_t)a->frame);
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
            for (int i = 0; i < CLV_HIT_NAME_MAX && f->name[i] != '\0'; i++) {
                mix_u32(&hs, (uint32_t)(unsigned char)f->name[i]);
            }
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
