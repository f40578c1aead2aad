/* Snapshots (the whole mutable state as bytes), the weapons' fingerprint and the state hash. */
#include "hit_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define SNAP_MAGIC 0x41564c43u /* "CLVA" */
#define SNAP_VERSION 8u
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
    int32_t body_count;
    int32_t combat;       /* 1: the entities' combat states follow their effects */
    uint64_t bodies;      /* bodies_fingerprint of the first body_count bodies */
    uint32_t combat_size; /* sizeof(clv__combat) */
    uint32_t reserved;    /* 0 */
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

static size_t body_size(int64_t ents, int64_t atts, int64_t recs, bool combat) {
    return (size_t)ents * (sizeof(clv__entity) + sizeof(clv__vitals) + sizeof(clv__hurt) +
                           CLV_ENTITY_MAX_EFFECTS * sizeof(clv__effect) +
                           (combat ? sizeof(clv__combat) : 0) + 2 * sizeof(clv_vec2)) +
           (size_t)atts * sizeof(clv__attack) + (size_t)recs * sizeof(clv__record);
}

size_t clv_arena_snapshot_size(const clv_arena *a) {
    if (a == NULL) {
        return 0;
    }
    return sizeof(snap_header) +
           body_size(a->ent_count, a->att_count, a->rec_count, a->cmb != NULL);
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
    h.weapons = clv__weapons_fingerprint(a, a->weapon_count);
    h.body_count = a->body_count;
    h.combat = a->cmb != NULL ? 1 : 0;
    h.bodies = clv__bodies_fingerprint(a, a->body_count);
    h.combat_size = (uint32_t)sizeof(clv__combat);
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
    if (a->cmb != NULL) {
        p = put(p, a->cmb, (size_t)a->ent_count * sizeof *a->cmb);
    }
    p = put(p, a->att, (size_t)a->att_count * sizeof *a->att);
    p = put(p, a->rec, (size_t)a->rec_count * sizeof *a->rec);
    /* last: each block before starts where the header and the sizes of the blocks before it
     * put it, as the tests that forge snapshots compute it */
    p = put(p, a->pos, (size_t)a->ent_count * sizeof *a->pos);
    p = put(p, a->vel, (size_t)a->ent_count * sizeof *a->vel);
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
    const unsigned char *ent, *vit, *hurt, *fx, *cmb, *att, *rec, *pos, *vel;
} snap_view;

static void view_init(snap_view *v, const snap_header *h, const unsigned char *body) {
    size_t n = (size_t)h->ent_count;
    v->h = *h;
    v->ent = body;
    v->vit = v->ent + n * sizeof(clv__entity);
    v->hurt = v->vit + n * sizeof(clv__vitals);
    v->fx = v->hurt + n * sizeof(clv__hurt);
    v->cmb = v->fx + n * CLV_ENTITY_MAX_EFFECTS * sizeof(clv__effect);
    v->att = v->cmb + (h->combat ? n * sizeof(clv__combat) : 0);
    v->rec = v->att + (size_t)h->att_count * sizeof(clv__attack);
    v->pos = v->rec + (size_t)h->rec_count * sizeof(clv__record);
    v->vel = v->pos + n * sizeof(clv_vec2);
}

static clv__entity view_ent(const snap_view *v, int32_t s) {
    clv__entity e;
    memcpy(&e, v->ent + (size_t)s * sizeof e, sizeof e);
    return e;
}

/* Slot s's entry of the positions (pos) or velocities (vel) block. */
static clv_vec2 view_vec(const unsigned char *block, int32_t s) {
    clv_vec2 p;
    memcpy(&p, block + (size_t)s * sizeof p, sizeof p);
    return p;
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
    if (h->version != SNAP_VERSION || memcmp(sizes, h->sizes, sizeof sizes) != 0 ||
        h->combat_size != (uint32_t)sizeof(clv__combat) || h->reserved != 0) {
        return refuse(diag, "version",
                      "snapshot of format %u from another build (this one reads format %u)",
                      (unsigned)h->version, (unsigned)SNAP_VERSION);
    }
    if (h->ent_count < 0 || h->ent_count > INT32_MAX / CLV_ENTITY_MAX_EFFECTS || h->att_count < 0 ||
        h->rec_count < 0 || !flag_ok(h->combat)) {
        return refuse(diag, "count", "entity, attack or record count out of range");
    }
    size_t want = sizeof *h + body_size(h->ent_count, h->att_count, h->rec_count, h->combat);
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
    if (h->weapons != clv__weapons_fingerprint(a, h->weapon_count)) {
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
    if (h->body_count < 0 || h->body_count > a->body_count ||
        h->bodies != clv__bodies_fingerprint(a, h->body_count)) {
        return refuse(diag, "bodies",
                      "this arena's bodies differ from those the snapshot was taken with: "
                      "restore into an arena with the same bodies, added in the same order");
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
    clv_vec2 pos = view_vec(v->pos, s), vel = view_vec(v->vel, s);
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
        !clv__in_world(e.friction) || !clv__in_world(pos.x) || !clv__in_world(pos.y) ||
        !clv__in_world(vel.x) || !clv__in_world(vel.y) || !clv__in_world(vi.hp) ||
        !(vi.damage_taken >= 0.0f) || !clv__in_world(vi.damage_taken)) {
        return refuse(diag, "entity", "entity slot %d: a number is out of range", (int)s);
    }
    if (e.hitlag < 0 || e.hitlag > TIMER_LIMIT || e.hitstun < 0 || e.hitstun > TIMER_LIMIT ||
        e.state_frames < 0 || vi.state < CLV_HURT_NORMAL || vi.state > CLV_HURT_GUARD ||
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
     * before the first step. In 64 bits: a forged frame may be INT32_MAX. */
    int64_t next = (int64_t)at.frame + 1;
    bool clock_ok = at.projectile ? at.elapsed >= next && (at.frame >= 0 || at.elapsed == 0)
                                  : at.elapsed == next;
    if (at.attack < 0 || at.attack >= w->attack_count || at.frame < -1 ||
        at.frame >= w->attacks[at.attack].frames || !clock_ok || (at.active && at.frame < 0)) {
        return refuse(diag, "attack", "attack slot %d: attack index or frame out of range", (int)s);
    }
    if (at.owner.index1 == 0 || at.owner.index1 > (uint32_t)v->h.ent_count ||
        at.throw.index1 > (uint32_t)v->h.ent_count) {
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

static clv__combat view_cmb(const snap_view *v, int32_t s) {
    clv__combat c;
    memcpy(&c, v->cmb + (size_t)s * sizeof c, sizeof c);
    return c;
}

/* held_by (or holding) names a live slot whose other side names s back. */
static bool hold_pair_ok(const snap_view *v, int32_t s, clv_entity_id other, bool held) {
    if (other.index1 == 0) {
        return true;
    }
    if (other.index1 > (uint32_t)v->h.ent_count) {
        return false;
    }
    int32_t o = (int32_t)other.index1 - 1;
    clv__entity oe = view_ent(v, o);
    clv__combat oc = view_cmb(v, o);
    clv_entity_id back = held ? oc.holding : oc.held_by;
    return o != s && oe.used && oe.gen == other.gen && back.index1 == (uint32_t)s + 1 &&
           back.gen == view_ent(v, s).gen;
}

static bool combat_valid(const clv_arena *a, const snap_view *v, int32_t s, clv_hit_diag *diag) {
    clv__combat c = view_cmb(v, s);
    bool anim_ok = c.body1 == 0 ? c.anim == -1 && c.elapsed == 0
                                : c.body1 <= (uint32_t)v->h.body_count && c.anim >= 0 &&
                                      c.anim < a->bodies[c.body1 - 1].anim_count && c.elapsed >= 0;
    bool armor_ok = (c.armor == CLV_ARMOR_NONE && c.heavy == 0.0f) ||
                    (c.armor == CLV_ARMOR_SUPER && c.heavy == 0.0f) ||
                    (c.armor == CLV_ARMOR_HEAVY && clv__in_world(c.heavy) && c.heavy > 0.0f);
    bool guard_ok = clv__in_world(c.guard_meter) && c.guard_meter > 0.0f &&
                    clv__in_world(c.guard_regen) && c.guard_regen >= 0.0f && c.guard_break >= 0 &&
                    c.guard_break <= TIMER_LIMIT && flag_ok(c.guard_all_round) && c.meter > 0.0f &&
                    c.meter <= c.guard_meter;
    const float reach = 2.0f * CLV_WORLD_LIMIT;
    bool hold_ok = c.hold.x >= -reach && c.hold.x <= reach && c.hold.y >= -reach &&
                   c.hold.y <= reach && hold_pair_ok(v, s, c.held_by, true) &&
                   hold_pair_ok(v, s, c.holding, false);
    if (!anim_ok || !armor_ok || !guard_ok || !hold_ok || !clv__finite(c.facing) ||
        !flag_ok(c.mirror) || !flag_ok(c.airborne)) {
        return refuse(diag, "combat", "entity slot %d: body, armor, guard or hold is invalid",
                      (int)s);
    }
    return true;
}

static bool body_valid(const clv_arena *a, const snap_view *v, clv_hit_diag *diag) {
    for (int32_t s = 0; v->h.combat && s < v->h.ent_count; s++) {
        if (view_ent(v, s).used && !combat_valid(a, v, s, diag)) {
            return false;
        }
    }
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
        (h.combat && h.ent_count > 0 && clv__combat_of(a, 0) == NULL) ||
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
    if (h.combat && h.ent_count > 0) {
        n = (size_t)h.ent_count * sizeof *a->cmb;
        memcpy(a->cmb, p, n);
        p += n;
    } else if (a->cmb != NULL) {
        for (int32_t s = 0; s < a->ent_cap; s++) {
            a->cmb[s] = clv__combat_default();
        }
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
    p += n;
    n = (size_t)h.ent_count * sizeof *a->pos;
    if (n > 0) {
        memcpy(a->pos, p, n);
        memcpy(a->vel, p + n, n);
    }
    a->frame = h.frame;
    a->ent_count = h.ent_count;
    a->ent_live = h.ent_live;
    a->ent_free_hint = h.ent_free_hint;
    a->att_count = h.att_count;
    a->att_free_hint = h.att_free_hint;
    a->rec_count = h.rec_count;
    for (int32_t i = 0; i < a->carried_count; i++) { /* the next step finds them again */
        a->carry[a->carried[i]] = 0;
    }
    a->carried_count = 0;
    for (int32_t s = 0; s < a->ent_count; s++) {
        clv__entity_refresh_bounds(a, s);
    }
    clv__events_clear(a);
    return CLV_HIT_OK;
}
