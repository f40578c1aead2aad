/* The arena's lifetime, ids, allocator hook, error paths and snapshots. */
#include "cleave/hit.h"
#include "harness.h"
/* White-box: forging a snapshot needs the layout of the state it copies. */
#include "../../../runtime/hit/src/step_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

typedef struct counting {
    long long live_bytes;
    long long allocations;
    long long fail_after; /* allocations that succeed before every later one fails; -1 never */
} counting;

static void *count_alloc(size_t size, void *ctx) {
    counting *c = ctx;
    if (c->fail_after >= 0 && c->allocations >= c->fail_after) {
        return NULL;
    }
    c->allocations++;
    c->live_bytes += (long long)size;
    return malloc(size);
}

static void count_free(void *p, size_t size, void *ctx) {
    counting *c = ctx;
    c->live_bytes -= (long long)size;
    free(p);
}

static clv_weapon *small_weapon(clv_allocator al) {
    clv_weapon_def wd = clv_default_weapon_def();
    wd.allocator = al;
    clv_weapon *w = clv_weapon_create(&wd, NULL);
    if (w == NULL) {
        return NULL;
    }
    clv_attack_def a = clv_default_attack_def();
    snprintf(a.name, sizeof a.name, "swing");
    a.frames = 12;
    a.rehit = 4;
    clv_hitbox_def h = clv_default_hitbox_def();
    snprintf(h.id, sizeof h.id, "blade");
    h.shape = clv_shape_capsule(5, 0, 40, 0, 6);
    h.knockback.kind = CLV_KNOCKBACK_RADIAL;
    h.knockback.base = 3;
    h.effect_count = 1;
    h.effects[0] = clv_default_effect_def();
    snprintf(h.effects[0].name, sizeof h.effects[0].name, "bleed");
    if (clv_weapon_add_attack(w, &a, NULL, NULL) != CLV_HIT_OK ||
        clv_weapon_add_hitbox(w, 0, 0, 11, &h, NULL) != CLV_HIT_OK) {
        clv_weapon_destroy(w);
        return NULL;
    }
    return w;
}

/* Runs a small fight; returns a status so that allocation failures can be counted. */
static clv_hit_status run_fight(clv_arena *a, const clv_weapon *w, int frames, uint64_t *hash) {
    clv_weapon_id wid;
    clv_hit_status st = clv_arena_add_weapon(a, w, &wid, NULL);
    if (st != CLV_HIT_OK) {
        return st;
    }
    clv_entity_def hero = clv_default_entity_def();
    hero.team = 1;
    clv_entity_id hid;
    if ((st = clv_arena_spawn(a, &hero, &hid, NULL)) != CLV_HIT_OK) {
        return st;
    }
    for (int i = 0; i < 100; i++) {
        clv_entity_def e = clv_default_entity_def();
        e.position = clv_v2((float)(i % 10) * 9.0f - 20.0f, (float)(i / 10) * 9.0f - 45.0f);
        e.velocity = clv_v2(0.25f * (float)(i % 3), -0.25f * (float)(i % 4));
        e.friction = 0.01f;
        if ((st = clv_arena_spawn(a, &e, NULL, NULL)) != CLV_HIT_OK) {
            return st;
        }
    }
    clv_attack_start_def s = clv_default_attack_start_def();
    s.weapon = wid;
    s.owner = hid;
    clv_attack_id at;
    if ((st = clv_arena_start_attack(a, &s, &at, NULL)) != CLV_HIT_OK) {
        return st;
    }
    for (int f = 0; f < frames; f++) {
        if (clv_arena_attack_valid(a, at)) {
            clv_arena_set_attack_pose(a, at, clv_v2(0, 0), 0.5f * (float)f, f % 2 == 1);
        }
        if ((st = clv_arena_step(a)) != CLV_HIT_OK) {
            return st;
        }
    }
    *hash = clv_arena_hash(a);
    return CLV_HIT_OK;
}

/* Every byte comes back after destroy, and a failing allocator is reported, never a crash. */
static void test_allocator_zero_live_bytes(void) {
    counting c = {0, 0, -1};
    clv_allocator al = {count_alloc, count_free, &c};
    clv_arena_def d = clv_default_arena_def();
    d.allocator = al;
    d.entity_capacity = 4; /* forces growth, and a new grid each time */
    d.grid_cell_size = 32.0f;
    d.grid_origin = clv_v2(-64.0f, -64.0f);
    d.grid_cols = 4;
    d.grid_rows = 4;
    clv_arena *a = clv_arena_create(&d, NULL);
    clv_weapon *w = small_weapon(al);
    CHECK(a != NULL && w != NULL);
    uint64_t h = 0;
    CHECK(run_fight(a, w, 30, &h) == CLV_HIT_OK);
    CHECK(c.live_bytes > 0);
    long long steady = c.allocations;
    /* once the buffers are grown, steps allocate nothing */
    for (int f = 0; f < 20; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
    }
    CHECK(c.allocations == steady);
    clv_weapon_destroy(w);
    clv_arena_destroy(a);
    CHECK(c.live_bytes == 0);

    /* Fail the n-th allocation, for every n the run makes: always an error, never a crash,
     * never a leak. */
    long long total = c.allocations;
    int refused = 0;
    for (long long n = 0; n < total; n++) {
        counting f = {0, 0, n};
        clv_allocator fal = {count_alloc, count_free, &f};
        d.allocator = fal;
        clv_arena *fa = clv_arena_create(&d, NULL);
        clv_weapon *fw = small_weapon(fal);
        if (fa != NULL && fw != NULL) {
            uint64_t hh = 0;
            clv_hit_status st = run_fight(fa, fw, 30, &hh);
            refused += st == CLV_HIT_ERR_NO_MEMORY;
            CHECK(st == CLV_HIT_OK || st == CLV_HIT_ERR_NO_MEMORY);
        } else {
            refused++;
        }
        clv_weapon_destroy(fw);
        clv_arena_destroy(fa);
        CHECK(f.live_bytes == 0);
    }
    CHECK(refused == (int)total);

    clv_arena_def bad = clv_default_arena_def();
    bad.allocator.alloc = count_alloc;
    clv_hit_diag diag;
    CHECK(clv_arena_create(&bad, &diag) == NULL);
    CHECK(strcmp(diag.message, "allocator needs both alloc and free, or neither") == 0);
    bad = clv_default_arena_def();
    bad.miss_margin = -1.0f;
    CHECK(clv_arena_create(&bad, &diag) == NULL);
    CHECK(strcmp(diag.field, "miss_margin") == 0);
    bad = clv_default_arena_def();
    bad.grid_cell_size = 16.0f;
    bad.grid_cols = 0;
    bad.grid_rows = 10;
    CHECK(clv_arena_create(&bad, &diag) == NULL);
    CHECK(strcmp(diag.message,
                 "grid needs a finite origin, grid_cell_size > 0 and 1 <= cols * rows "
                 "<= 2^24 (got 16, 0 x 10)") == 0);
    bad.grid_cols = 10;
    bad.grid_cell_size = NAN;
    CHECK(clv_arena_create(&bad, &diag) == NULL);
    CHECK(strcmp(diag.field, "grid_cell_size") == 0);
}

static void test_ids_and_generations(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_entity_def d = clv_default_entity_def();
    clv_entity_id e1, e2, e3;
    CHECK(clv_arena_spawn(a, &d, &e1, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_spawn(a, &d, &e2, NULL) == CLV_HIT_OK);
    CHECK(e1.index1 == 1 && e2.index1 == 2 && e1.gen == 0);
    CHECK(clv_arena_entity_count(a) == 2);
    CHECK(clv_arena_remove(a, e1) == CLV_HIT_OK);
    CHECK(clv_arena_remove(a, e1) == CLV_HIT_ERR_STALE_ID);
    CHECK(!clv_arena_entity_valid(a, e1));
    clv_entity_info info;
    CHECK(clv_arena_entity(a, e1, &info) == CLV_HIT_ERR_STALE_ID);
    CHECK(clv_arena_set_position(a, e1, clv_v2(0, 0)) == CLV_HIT_ERR_STALE_ID);
    CHECK(clv_arena_spawn(a, &d, &e3, NULL) == CLV_HIT_OK);
    CHECK(e3.index1 == 1 && e3.gen == 1); /* the lowest free slot, a new generation */
    CHECK(clv_arena_entity_valid(a, e3));
    clv_entity_id cur = {0, 0};
    int walked = 0;
    while (clv_arena_next_entity(a, &cur)) {
        CHECK(clv_arena_entity_valid(a, cur));
        walked++;
    }
    CHECK(walked == 2);
    CHECK(!clv_arena_next_entity(NULL, &cur));
    clv_attack_id acur = {0, 0};
    CHECK(!clv_arena_next_attack(a, &acur));
    clv_entity_id null_id = {0, 0};
    CHECK(!clv_arena_entity_valid(a, null_id));
    clv_entity_id far = {99, 0};
    CHECK(clv_arena_entity(a, far, &info) == CLV_HIT_ERR_STALE_ID);
    CHECK(clv_arena_entity(a, e2, NULL) == CLV_HIT_ERR_NULL);
    CHECK(clv_arena_entity(NULL, e2, &info) == CLV_HIT_ERR_NULL);
    CHECK(clv_arena_remove(NULL, e2) == CLV_HIT_ERR_NULL);

    /* setters refuse bad numbers and leave the entity alone */
    CHECK(clv_arena_set_velocity(a, e2, clv_v2(NAN, 0)) == CLV_HIT_ERR_NUMBER);
    CHECK(clv_arena_set_position(a, e2, clv_v2(0, INFINITY)) == CLV_HIT_ERR_NUMBER);
    CHECK(clv_arena_set_hp(a, e2, NAN) == CLV_HIT_ERR_NUMBER);
    CHECK(clv_arena_set_state(a, e2, (clv_hurt_state)7, 0) == CLV_HIT_ERR_ENUM);
    CHECK(clv_arena_set_state(a, e2, CLV_HURT_INVINCIBLE, -1) == CLV_HIT_ERR_NUMBER);
    CHECK(clv_arena_entity(a, e2, &info) == CLV_HIT_OK);
    CHECK_NEAR(info.velocity.x, 0.0f, 0.0f);
    CHECK(info.state == CLV_HURT_NORMAL && info.alive && info.hurtbox_count == 1);

    clv_shape hb[2] = {clv_shape_circle(0, 0, 3), clv_shape_capsule(0, 0, 0, 10, -1)};
    clv_hit_diag diag;
    CHECK(clv_arena_set_hurtboxes(a, e2, hb, 2, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.message, "hurtboxes[1].r must be >= 0 (got -1)") == 0);
    CHECK(clv_arena_set_hurtboxes(a, e2, hb, 5, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(clv_arena_set_hurtboxes(a, e2, hb, 1, &diag) == CLV_HIT_OK);
    CHECK(clv_arena_set_hurtboxes(a, e1, hb, 1, &diag) == CLV_HIT_ERR_STALE_ID);
    clv_arena_destroy(a);
}

static void test_spawn_and_start_errors(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_hit_diag diag;
    clv_entity_def d = clv_default_entity_def();
    d.weight = 0.0f;
    CHECK(clv_arena_spawn(a, &d, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.message, "weight must be > 0 (got 0)") == 0);
    d = clv_default_entity_def();
    d.hp = INFINITY;
    CHECK(clv_arena_spawn(a, &d, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.message, "hp must be finite (got inf)") == 0);
    d = clv_default_entity_def();
    d.friction = -0.5f;
    CHECK(clv_arena_spawn(a, &d, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.message, "friction must be >= 0 (got -0.5)") == 0);
    d = clv_default_entity_def();
    d.position.x = NAN;
    CHECK(clv_arena_spawn(a, &d, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "position.x") == 0);
    d = clv_default_entity_def();
    d.hurtbox_count = 5;
    CHECK(clv_arena_spawn(a, &d, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.message, "hurtbox_count must be in 0..4 (got 5)") == 0);
    d = clv_default_entity_def();
    d.hurtboxes[0] = clv_shape_aabb(1, 0, 0, 1);
    CHECK(clv_arena_spawn(a, &d, NULL, &diag) == CLV_HIT_ERR_SHAPE);
    CHECK(strcmp(diag.message, "hurtboxes[0] must have min <= max") == 0);
    d = clv_default_entity_def();
    d.state = (clv_hurt_state)5;
    CHECK(clv_arena_spawn(a, &d, NULL, &diag) == CLV_HIT_ERR_ENUM);
    CHECK(clv_arena_spawn(a, NULL, NULL, &diag) == CLV_HIT_ERR_NULL);
    CHECK(clv_arena_entity_count(a) == 0);

    clv_weapon *empty = clv_weapon_create(NULL, NULL);
    CHECK(clv_arena_add_weapon(a, empty, NULL, &diag) == CLV_HIT_ERR_INDEX);
    CHECK(strcmp(diag.message, "weapon has no attack") == 0);
    clv_weapon_destroy(empty);
    clv_allocator al = {NULL, NULL, NULL};
    clv_weapon *w = small_weapon(al);
    clv_weapon_id wid;
    CHECK(clv_arena_add_weapon(a, w, &wid, NULL) == CLV_HIT_OK);
    clv_weapon_destroy(w); /* the arena keeps its own copy */
    CHECK(clv_arena_find_attack(a, wid, "swing") == 0);
    CHECK(clv_arena_find_attack(a, wid, "nope") == -1);
    const clv_hitbox_def *hd = clv_arena_hitbox(a, wid, 0, 11, 0);
    CHECK(hd != NULL && strcmp(hd->id, "blade") == 0);
    CHECK(clv_arena_hitbox(a, wid, 0, 12, 0) == NULL);
    CHECK(clv_arena_hitbox(a, wid, 0, 0, 1) == NULL);

    clv_entity_id owner;
    d = clv_default_entity_def();
    CHECK(clv_arena_spawn(a, &d, &owner, NULL) == CLV_HIT_OK);
    clv_attack_start_def s = clv_default_attack_start_def();
    s.owner = owner;
    CHECK(clv_arena_start_attack(a, &s, NULL, &diag) == CLV_HIT_ERR_STALE_ID);
    CHECK(strcmp(diag.message, "weapon id 0 is not in this arena") == 0);
    s.weapon = wid;
    s.attack = 1;
    CHECK(clv_arena_start_attack(a, &s, NULL, &diag) == CLV_HIT_ERR_INDEX);
    CHECK(strcmp(diag.message, "attack must be in 0..0 (got 1)") == 0);
    s.attack = 0;
    s.facing = NAN;
    CHECK(clv_arena_start_attack(a, &s, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    s.facing = 0.0f;
    s.owner.gen = 5;
    CHECK(clv_arena_start_attack(a, &s, NULL, &diag) == CLV_HIT_ERR_STALE_ID);
    CHECK(strcmp(diag.message, "owner id is stale") == 0);
    s.owner = owner;
    clv_attack_id at;
    CHECK(clv_arena_start_attack(a, &s, &at, &diag) == CLV_HIT_OK);
    clv_attack_info ai;
    CHECK(clv_arena_attack(a, at, &ai) == CLV_HIT_OK);
    CHECK(ai.frame == -1 && ai.elapsed == 0);
    CHECK(clv_arena_set_attack_pose(a, at, clv_v2(INFINITY, 0), 0, false) == CLV_HIT_ERR_NUMBER);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    CHECK(clv_arena_attack(a, at, &ai) == CLV_HIT_OK);
    CHECK(ai.frame == 0 && ai.elapsed == 1);
    clv_attack_id acur = {0, 0};
    CHECK(clv_arena_next_attack(a, &acur) && acur.index1 == at.index1 && acur.gen == at.gen);
    CHECK(!clv_arena_next_attack(a, &acur));
    /* removing the owner ends its attacks */
    CHECK(clv_arena_remove(a, owner) == CLV_HIT_OK);
    CHECK(!clv_arena_attack_valid(a, at));
    CHECK(clv_arena_cancel_attack(a, at) == CLV_HIT_ERR_STALE_ID);
    CHECK(clv_arena_attack(a, at, &ai) == CLV_HIT_ERR_STALE_ID);
    CHECK(clv_arena_step(NULL) == CLV_HIT_ERR_NULL);
    clv_arena_destroy(a);
}

/* A snapshot restores into the same arena and into a new one built with the same weapons;
 * corrupt or short buffers are refused without touching the state. */
static void test_snapshot_errors_and_fresh_arena(void) {
    clv_allocator al = {NULL, NULL, NULL};
    clv_weapon *w = small_weapon(al);
    clv_arena *a = clv_arena_create(NULL, NULL);
    uint64_t h = 0;
    CHECK(run_fight(a, w, 5, &h) == CLV_HIT_OK);
    size_t size = clv_arena_snapshot_size(a);
    unsigned char *buf = malloc(size);
    size_t written = 0;
    CHECK(clv_arena_snapshot(a, buf, size - 1, &written) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(written == 0);
    CHECK(clv_arena_snapshot(a, buf, size, &written) == CLV_HIT_OK);
    CHECK(clv_arena_restore(a, buf, written - 1) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(clv_arena_restore(a, buf, 3) == CLV_HIT_ERR_SNAPSHOT);
    buf[0] ^= 0xff;
    CHECK(clv_arena_restore(a, buf, written) == CLV_HIT_ERR_SNAPSHOT);
    buf[0] ^= 0xff;
    CHECK(clv_arena_hash(a) == h);

    /* A bit flipped anywhere (one per byte, cycling through the bit positions) is refused and
     * leaves the arena as it was: a plausible wrong state must not be restored. */
    clv_arena *b = clv_arena_create(NULL, NULL);
    clv_weapon_id wid;
    CHECK(clv_arena_add_weapon(b, w, &wid, NULL) == CLV_HIT_OK);
    uint64_t before = clv_arena_hash(b);
    unsigned char *bad = malloc(size);
    memcpy(bad, buf, written);
    size_t accepted = 0;
    for (size_t i = 0; i < written; i++) {
        bad[i] ^= (unsigned char)(1u << (i % 8));
        accepted += clv_arena_restore(b, bad, written) == CLV_HIT_OK;
        bad[i] = buf[i];
    }
    CHECK(accepted == 0);
    CHECK(clv_arena_hash(b) == before);
    CHECK(clv_arena_restore(b, buf, written) == CLV_HIT_OK);
    CHECK(clv_arena_hash(b) == h);
    for (int f = 0; f < 20; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        CHECK(clv_arena_step(b) == CLV_HIT_OK);
        CHECK(clv_arena_hash(a) == clv_arena_hash(b));
    }
    /* an arena without the weapon cannot take the snapshot */
    clv_arena *c = clv_arena_create(NULL, NULL);
    CHECK(clv_arena_restore(c, buf, written) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(clv_arena_restore(c, NULL, written) == CLV_HIT_ERR_NULL);
    clv_arena_destroy(c);
    free(bad);
    free(buf);
    clv_arena_destroy(b);
    clv_arena_destroy(a);
    clv_weapon_destroy(w);
}

/* ---- forged snapshots: a mod can rewrite any byte and recompute the checksum ---- */

/* The header of a snapshot: where its fields sit (test_snapshot_layout checks the size). */
#define SNAP_HEADER 112
#define AT_FRAME 40
#define AT_ENT_LIVE 60
#define AT_ENT_FREE_HINT 64
#define AT_ATT_FREE_HINT 72
#define AT_CHECK 80

static void reseal(unsigned char *buf, size_t len) {
    uint64_t h = clv__snapshot_check(buf, len);
    memcpy(buf + AT_CHECK, &h, 8);
}

typedef struct forged {
    clv_arena *a;
    clv_weapon *w;
    unsigned char *buf; /* the genuine snapshot */
    size_t len;
    int32_t ents, atts, recs;
    size_t att_at, rec_at; /* where the attack and record arrays start */
    size_t pos_at, vel_at; /* and the positions and velocities, last */
} forged;

/* A fight of 5 frames with entity slot 49 removed: free slots, an attack, hit records. */
static forged forge_base(void) {
    forged f;
    memset(&f, 0, sizeof f);
    clv_allocator al = {NULL, NULL, NULL};
    f.w = small_weapon(al);
    f.a = clv_arena_create(NULL, NULL);
    uint64_t h;
    CHECK(run_fight(f.a, f.w, 5, &h) == CLV_HIT_OK);
    CHECK(clv_arena_remove(f.a, (clv_entity_id){50, 0}) == CLV_HIT_OK);
    f.len = clv_arena_snapshot_size(f.a);
    f.buf = malloc(f.len);
    CHECK(clv_arena_snapshot(f.a, f.buf, f.len, NULL) == CLV_HIT_OK);
    f.ents = f.a->ent_count;
    f.atts = f.a->att_count;
    f.recs = f.a->rec_count;
    f.att_at = SNAP_HEADER +
               (size_t)f.ents * (sizeof(clv__entity) + sizeof(clv__vitals) + sizeof(clv__hurt) +
                                 CLV_ENTITY_MAX_EFFECTS * sizeof(clv__effect));
    f.rec_at = f.att_at + (size_t)f.atts * sizeof(clv__attack);
    f.pos_at = f.rec_at + (size_t)f.recs * sizeof(clv__record);
    f.vel_at = f.pos_at + (size_t)f.ents * sizeof(clv_vec2);
    return f;
}

static void forge_free(forged *f) {
    free(f->buf);
    clv_arena_destroy(f->a);
    clv_weapon_destroy(f->w);
}

/* Restores buf with one int32 (or int64) written at `at` and the checksum recomputed; returns
 * the status and leaves the refusal's message in diag. A refused one leaves the arena as is. */
static clv_hit_status restore_forged(forged *f, size_t at, int64_t value, int bytes,
                                     clv_hit_diag *diag) {
    unsigned char *b = malloc(f->len);
    memcpy(b, f->buf, f->len);
    if (bytes == 8) {
        memcpy(b + at, &value, 8);
    } else {
        int32_t v = (int32_t)value;
        memcpy(b + at, &v, 4);
    }
    reseal(b, f->len);
    uint64_t before = clv_arena_hash(f->a);
    clv_hit_status st = clv_arena_restore_diag(f->a, b, f->len, diag);
    if (st != CLV_HIT_OK) {
        CHECK(clv_arena_hash(f->a) == before);
    }
    free(b);
    return st;
}

static void test_snapshot_layout(void) {
    forged f = forge_base();
    CHECK(f.len == f.vel_at + (size_t)f.ents * sizeof(clv_vec2));
    CHECK(f.recs > 0 && f.atts == 1 && f.ents == 101);
    /* the positions and velocities are the arena's, slot by slot */
    clv_entity_info e;
    CHECK(clv_arena_entity(f.a, (clv_entity_id){3, 0}, &e) == CLV_HIT_OK);
    clv_vec2 p, v;
    memcpy(&p, f.buf + f.pos_at + 2 * sizeof p, sizeof p);
    memcpy(&v, f.buf + f.vel_at + 2 * sizeof v, sizeof v);
    CHECK(p.x == e.position.x && p.y == e.position.y);
    CHECK(v.x == e.velocity.x && v.y == e.velocity.y);
    clv_hit_diag diag;
    /* resealed but unchanged: accepted, so the tests below fail on their change alone */
    CHECK(restore_forged(&f, AT_FRAME, clv_arena_frame(f.a), 8, &diag) == CLV_HIT_OK);
    forge_free(&f);
}

/* A live entity's position or velocity outside the world is refused; a free slot's is not
 * read. */
static void test_snapshot_forged_motion(void) {
    forged f = forge_base();
    clv_hit_diag diag;
    const int32_t nan_bits = 0x7fc00000, far_bits = 0x4f000000; /* NaN, 2^31 */
    CHECK(restore_forged(&f, f.pos_at + 2 * sizeof(clv_vec2), nan_bits, 4, &diag) ==
          CLV_HIT_ERR_SNAPSHOT);
    CHECK(strcmp(diag.message, "entity slot 2: a number is out of range") == 0);
    CHECK(restore_forged(&f, f.vel_at + 3 * sizeof(clv_vec2) + sizeof(float), far_bits, 4, &diag) ==
          CLV_HIT_ERR_SNAPSHOT);
    CHECK(strcmp(diag.message, "entity slot 3: a number is out of range") == 0);
    CHECK(restore_forged(&f, f.pos_at + 49 * sizeof(clv_vec2), nan_bits, 4, &diag) == CLV_HIT_OK);
    forge_free(&f);
}

/* A free-slot hint past the arrays made the next spawn or attack write out of bounds; one above
 * a free slot would skip it. Both are refused, with the field named. */
static void test_snapshot_forged_hints(void) {
    forged f = forge_base();
    clv_hit_diag diag;
    CHECK(restore_forged(&f, AT_ENT_FREE_HINT, f.ents + 1000, 4, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(strstr(diag.message, "hint out of range") != NULL);
    CHECK(restore_forged(&f, AT_ATT_FREE_HINT, 1 << 20, 4, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(restore_forged(&f, AT_ENT_FREE_HINT, f.ents, 4, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(strcmp(diag.field, "ent_free_hint") == 0);
    CHECK(strcmp(diag.message, "free entity slot 49 lies below the hint 101") == 0);
    CHECK(restore_forged(&f, AT_ENT_LIVE, f.ents, 4, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(strcmp(diag.message, "100 entities are live, the header says 101") == 0);
    /* the genuine one restores, and the arena goes on spawning, attacking and stepping */
    CHECK(clv_arena_restore(f.a, f.buf, f.len) == CLV_HIT_OK);
    clv_entity_def e = clv_default_entity_def();
    clv_entity_id id;
    CHECK(clv_arena_spawn(f.a, &e, &id, NULL) == CLV_HIT_OK && id.index1 == 50);
    clv_attack_start_def s = clv_default_attack_start_def();
    s.weapon.index1 = 1;
    s.owner = id;
    CHECK(clv_arena_start_attack(f.a, &s, NULL, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_step(f.a) == CLV_HIT_OK);
    forge_free(&f);
}

/* The frame counter stops at CLV_ARENA_MAX_FRAME: a later one is refused (INT64_MAX overflowed
 * on the next step), and an arena at the bound refuses to step. */
static void test_snapshot_forged_frame(void) {
    forged f = forge_base();
    clv_hit_diag diag;
    CHECK(restore_forged(&f, AT_FRAME, INT64_MAX, 8, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(strcmp(diag.field, "frame") == 0);
    CHECK(restore_forged(&f, AT_FRAME, -1, 8, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(restore_forged(&f, AT_FRAME, CLV_ARENA_MAX_FRAME + 1, 8, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(restore_forged(&f, AT_FRAME, CLV_ARENA_MAX_FRAME, 8, &diag) == CLV_HIT_OK);
    CHECK(clv_arena_step(f.a) == CLV_HIT_ERR_NUMBER);
    CHECK(clv_arena_frame(f.a) == CLV_ARENA_MAX_FRAME);
    forge_free(&f);
}

/* Attacks and hit records must agree with each other and with the entities. */
static void test_snapshot_forged_cross_references(void) {
    forged f = forge_base();
    clv_hit_diag diag;
    size_t at = f.att_at;
    /* frame and elapsed advance together */
    clv__attack a0;
    memcpy(&a0, f.buf + at, sizeof a0);
    CHECK(a0.used == 1 && a0.elapsed == a0.frame + 1);
    CHECK(restore_forged(&f, at + offsetof(clv__attack, elapsed), a0.elapsed + 1, 4, &diag) ==
          CLV_HIT_ERR_SNAPSHOT);
    CHECK(restore_forged(&f, at + offsetof(clv__attack, weapon1), 2, 4, &diag) ==
          CLV_HIT_ERR_SNAPSHOT);
    CHECK(strcmp(diag.message, "attack slot 0: weapon 2 is not in the snapshot") == 0);
    CHECK(restore_forged(&f, at + offsetof(clv__attack, targets_hit), 0, 4, &diag) ==
          CLV_HIT_ERR_SNAPSHOT);
    CHECK(strstr(diag.message, "records name more targets") != NULL);
    /* a record of another generation of the swing, or of a slot past the entities */
    size_t r = f.rec_at;
    clv__record r0;
    memcpy(&r0, f.buf + r, sizeof r0);
    CHECK(restore_forged(&f, r + offsetof(clv__record, target1), f.ents + 1, 4, &diag) ==
          CLV_HIT_ERR_SNAPSHOT);
    int32_t gens = (int32_t)r0.target_gen << 16 | (uint16_t)(r0.attack_gen + 1);
    CHECK(restore_forged(&f, r + offsetof(clv__record, attack_gen), gens, 4, &diag) ==
          CLV_HIT_ERR_SNAPSHOT);
    CHECK(strcmp(diag.message, "hit record 0: does not match its attack") == 0);
    CHECK(restore_forged(&f, r + offsetof(clv__record, last), a0.elapsed + 1, 4, &diag) ==
          CLV_HIT_ERR_SNAPSHOT);
    /* an entity timer beyond what the rules ever set */
    CHECK(restore_forged(&f, SNAP_HEADER + offsetof(clv__entity, hitlag), 3601, 4, &diag) ==
          CLV_HIT_ERR_SNAPSHOT);
    forge_free(&f);
}

/* The snapshot names the weapons it was taken with; the hash includes them too. */
static void test_snapshot_bound_to_weapons(void) {
    clv_allocator al = {NULL, NULL, NULL};
    clv_weapon *w = small_weapon(al);
    clv_weapon *other = small_weapon(al);
    clv_hitbox_def h = clv_default_hitbox_def();
    snprintf(h.id, sizeof h.id, "tip");
    CHECK(clv_weapon_add_hitbox(other, 0, 3, 3, &h, NULL) == CLV_HIT_OK);
    clv_arena *a = clv_arena_create(NULL, NULL);
    uint64_t hash;
    CHECK(run_fight(a, w, 5, &hash) == CLV_HIT_OK);
    size_t len = clv_arena_snapshot_size(a);
    unsigned char *buf = malloc(len);
    CHECK(clv_arena_snapshot(a, buf, len, NULL) == CLV_HIT_OK);

    clv_hit_diag diag;
    clv_arena *b = clv_arena_create(NULL, NULL);
    CHECK(clv_arena_restore_diag(b, buf, len, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(strstr(diag.message, "taken with 1 weapons, this arena holds 0") != NULL);
    CHECK(clv_arena_add_weapon(b, other, NULL, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_restore_diag(b, buf, len, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(strstr(diag.message, "weapons differ") != NULL);
    CHECK(strcmp(diag.field, "weapons") == 0);
    clv_arena_destroy(b);

    /* the same weapon first, another after it: accepted */
    b = clv_arena_create(NULL, NULL);
    CHECK(clv_arena_add_weapon(b, w, NULL, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_add_weapon(b, other, NULL, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_restore_diag(b, buf, len, &diag) == CLV_HIT_OK);
    CHECK(clv_arena_hash(b) != hash); /* it holds one more weapon */
    clv_arena_destroy(b);

    /* equal states, different weapons: different hashes */
    clv_arena *x = clv_arena_create(NULL, NULL), *y = clv_arena_create(NULL, NULL);
    CHECK(clv_arena_add_weapon(x, w, NULL, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_add_weapon(y, other, NULL, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_hash(x) != clv_arena_hash(y));
    clv_arena_destroy(x);
    clv_arena_destroy(y);
    free(buf);
    clv_arena_destroy(a);
    clv_weapon_destroy(w);
    clv_weapon_destroy(other);
}

/* A weapon the size of the small one with a second, longer attack: a different fingerprint. */
static clv_weapon *long_weapon(clv_allocator al) {
    clv_weapon *w = small_weapon(al);
    clv_attack_def a = clv_default_attack_def();
    snprintf(a.name, sizeof a.name, "lunge");
    a.frames = 40;
    clv_hitbox_def h = clv_default_hitbox_def();
    snprintf(h.id, sizeof h.id, "tip");
    if (w == NULL || clv_weapon_add_attack(w, &a, NULL, NULL) != CLV_HIT_OK ||
        clv_weapon_add_hitbox(w, 1, 0, 39, &h, NULL) != CLV_HIT_OK) {
        clv_weapon_destroy(w);
        return NULL;
    }
    return w;
}

/* A removal gives back every byte of the weapon's copy, the next add takes the emptied slot
 * with a new generation, and a weapon a swing still uses is refused until the swing ends. */
static void test_remove_weapon(void) {
    counting c = {0, 0, -1};
    clv_allocator al = {count_alloc, count_free, &c};
    clv_arena_def d = clv_default_arena_def();
    d.allocator = al;
    clv_arena *a = clv_arena_create(&d, NULL);
    clv_allocator mal = {NULL, NULL, NULL};
    clv_weapon *small = small_weapon(mal), *lng = long_weapon(mal);
    CHECK(a != NULL && small != NULL && lng != NULL);
    clv_weapon_id w1, w2, w3;
    CHECK(clv_arena_add_weapon(a, small, &w1, NULL) == CLV_HIT_OK);
    long long before = c.live_bytes;
    CHECK(clv_arena_add_weapon(a, lng, &w2, NULL) == CLV_HIT_OK);
    long long copy = c.live_bytes - before;
    CHECK(w1.index1 == 1 && w1.gen == 0 && w2.index1 == 2 && w2.gen == 0);
    CHECK(copy > 0);
    printf("the long weapon's copy takes %lld bytes\n", copy);

    /* a swing of w2 holds it in the arena until it ends */
    clv_entity_def e = clv_default_entity_def();
    clv_entity_id owner;
    CHECK(clv_arena_spawn(a, &e, &owner, NULL) == CLV_HIT_OK);
    clv_attack_start_def s = clv_default_attack_start_def();
    s.weapon = w2;
    s.owner = owner;
    clv_attack_id swing;
    CHECK(clv_arena_start_attack(a, &s, &swing, NULL) == CLV_HIT_OK);
    long long with_swing = c.live_bytes;
    CHECK(clv_arena_remove_weapon(a, w2) == CLV_HIT_ERR_IN_USE);
    CHECK(strcmp(clv_hit_status_name(CLV_HIT_ERR_IN_USE), "in use") == 0);
    CHECK(c.live_bytes == with_swing);
    int frames = 0;
    while (clv_arena_attack_valid(a, swing) && frames < 20) {
        CHECK(clv_arena_remove_weapon(a, w2) == CLV_HIT_ERR_IN_USE);
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        frames++;
    }
    CHECK(frames == 13); /* its 12 frames, then the step that ends it: refused until then */
    long long after_swing = c.live_bytes; /* the step's buffers grew; the weapon is still there */
    CHECK(clv_arena_remove_weapon(a, w2) == CLV_HIT_OK);
    CHECK(after_swing - c.live_bytes == copy);

    /* the removed id is stale everywhere */
    clv_hit_diag diag;
    CHECK(clv_arena_remove_weapon(a, w2) == CLV_HIT_ERR_STALE_ID);
    CHECK(clv_arena_find_attack(a, w2, "swing") == -1);
    CHECK(clv_arena_attack_def(a, w2, 0) == NULL);
    CHECK(clv_arena_hitbox(a, w2, 0, 0, 0) == NULL);
    CHECK(clv_arena_start_attack(a, &s, NULL, &diag) == CLV_HIT_ERR_STALE_ID);
    CHECK(strcmp(diag.message, "weapon id 2 was removed from this arena") == 0);

    /* the next add takes slot 2 again, generation 1; w1 keeps its id; w2 stays stale */
    CHECK(clv_arena_add_weapon(a, lng, &w3, NULL) == CLV_HIT_OK);
    CHECK(w3.index1 == 2 && w3.gen == 1);
    CHECK(c.live_bytes == after_swing);
    CHECK(clv_arena_find_attack(a, w2, "lunge") == -1);
    CHECK(clv_arena_find_attack(a, w3, "lunge") == 1);
    CHECK(clv_arena_find_attack(a, w1, "swing") == 0);
    s.weapon = w3;
    CHECK(clv_arena_start_attack(a, &s, &swing, NULL) == CLV_HIT_OK);
    clv_attack_info info;
    CHECK(clv_arena_attack(a, swing, &info) == CLV_HIT_OK);
    CHECK(info.weapon.index1 == 2 && info.weapon.gen == 1);
    clv_entity_def t = clv_default_entity_def();
    t.position = clv_v2(20, 0);
    t.team = 1;
    CHECK(clv_arena_spawn(a, &t, NULL, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    int32_t nh = 0;
    const clv_hit_event *hit = clv_arena_hits(a, &nh);
    CHECK(nh == 1 && hit[0].weapon.index1 == 2 && hit[0].weapon.gen == 1);
    CHECK(nh == 1 && clv_arena_hitbox(a, hit[0].weapon, 0, 0, hit[0].hitbox) != NULL);
    CHECK(clv_arena_cancel_attack(a, swing) == CLV_HIT_OK);
    after_swing = c.live_bytes; /* the hit grew the step's buffers */

    /* 100 replacements of one weapon: the arena's memory does not move by a byte */
    for (int i = 0; i < 100; i++) {
        CHECK(clv_arena_remove_weapon(a, w3) == CLV_HIT_OK);
        CHECK(clv_arena_add_weapon(a, i % 2 ? lng : small, &w3, NULL) == CLV_HIT_OK);
        CHECK(clv_arena_remove_weapon(a, w3) == CLV_HIT_OK);
        CHECK(clv_arena_add_weapon(a, lng, &w3, NULL) == CLV_HIT_OK);
    }
    CHECK(w3.index1 == 2 && w3.gen == 201);
    CHECK(c.live_bytes == after_swing);

    /* removing the first weapon leaves a gap the next add fills first */
    CHECK(clv_arena_remove_weapon(a, w1) == CLV_HIT_OK);
    clv_weapon_id w4;
    CHECK(clv_arena_add_weapon(a, small, &w4, NULL) == CLV_HIT_OK);
    CHECK(w4.index1 == 1 && w4.gen == 1);
    CHECK(clv_arena_remove_weapon(NULL, w4) == CLV_HIT_ERR_NULL);
    CHECK(clv_arena_remove_weapon(a, (clv_weapon_id){0, 0}) == CLV_HIT_ERR_STALE_ID);
    CHECK(clv_arena_remove_weapon(a, (clv_weapon_id){3, 0}) == CLV_HIT_ERR_STALE_ID);
    clv_arena_destroy(a);
    CHECK(c.live_bytes == 0);
    clv_weapon_destroy(small);
    clv_weapon_destroy(lng);
}

/* The weapons' fingerprint counts an emptied slot: a snapshot taken before a removal is refused
 * after it, even once another weapon took the slot; the same weapon back in it is accepted. */
/* A weapon of `attacks` attacks of `frames` frames, each with `boxes` hitboxes on frames
 * first..last (0-based); no hitbox at all when boxes is 0. */
static clv_weapon *shaped_weapon(int attacks, int32_t frames, int boxes, int32_t first,
                                 int32_t last) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    CHECK(w != NULL);
    for (int at = 0; at < attacks; at++) {
        clv_attack_def a = clv_default_attack_def();
        snprintf(a.name, sizeof a.name, "a%d", at);
        a.frames = frames;
        CHECK(clv_weapon_add_attack(w, &a, NULL, NULL) == CLV_HIT_OK);
        for (int b = 0; b < boxes; b++) {
            clv_hitbox_def h = clv_default_hitbox_def();
            snprintf(h.id, sizeof h.id, "b%d", b);
            CHECK(clv_weapon_add_hitbox(w, at, first, last, &h, NULL) == CLV_HIT_OK);
        }
    }
    return w;
}

/* clv_weapon_arena_bytes is what the arena's copy holds: the bytes an add takes (into a slot
 * that already exists, so the slot array does not grow) and a removal gives back. */
static void test_weapon_arena_bytes(void) {
    CHECK(clv_weapon_arena_bytes(NULL) == 0);
    counting c = {0, 0, -1};
    clv_arena_def d = clv_default_arena_def();
    d.allocator = (clv_allocator){count_alloc, count_free, &c};
    clv_arena *a = clv_arena_create(&d, NULL);
    CHECK(a != NULL);
    clv_weapon *shapes[] = {
        shaped_weapon(1, 1, 0, 0, 0),       shaped_weapon(1, 12, 1, 0, 11),
        shaped_weapon(3, 40, 5, 10, 19),    shaped_weapon(4, 2000, 4, 0, 1999),
        shaped_weapon(2, 300, 7, 299, 299),
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        size_t bytes = clv_weapon_arena_bytes(shapes[i]);
        CHECK(bytes > 0);
        clv_weapon_id id;
        CHECK(clv_arena_add_weapon(a, shapes[i], &id, NULL) == CLV_HIT_OK);
        long long before = c.live_bytes;
        CHECK(clv_arena_remove_weapon(a, id) == CLV_HIT_OK);
        CHECK(before - c.live_bytes == (long long)bytes);
        before = c.live_bytes;
        CHECK(clv_arena_add_weapon(a, shapes[i], &id, NULL) == CLV_HIT_OK);
        CHECK(c.live_bytes - before == (long long)bytes);
        CHECK(clv_arena_remove_weapon(a, id) == CLV_HIT_OK);
        clv_weapon_destroy(shapes[i]);
    }
    clv_arena_destroy(a);
    CHECK(c.live_bytes == 0);
}

static void test_snapshot_after_weapon_removal(void) {
    clv_allocator al = {NULL, NULL, NULL};
    clv_weapon *w = small_weapon(al), *lng = long_weapon(al);
    clv_arena *a = clv_arena_create(NULL, NULL);
    uint64_t hash;
    CHECK(run_fight(a, w, 5, &hash) == CLV_HIT_OK); /* slot 1, its swing still running */
    clv_weapon_id w2;
    CHECK(clv_arena_add_weapon(a, lng, &w2, NULL) == CLV_HIT_OK);
    uint64_t with_both = clv_arena_hash(a);
    size_t len = clv_arena_snapshot_size(a);
    unsigned char *taken = malloc(len);
    CHECK(clv_arena_snapshot(a, taken, len, NULL) == CLV_HIT_OK);

    CHECK(clv_arena_remove_weapon(a, w2) == CLV_HIT_OK);
    CHECK(clv_arena_hash(a) != with_both);
    clv_hit_diag diag;
    CHECK(clv_arena_restore_diag(a, taken, len, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(strcmp(diag.field, "weapons") == 0);
    CHECK(strstr(diag.message, "weapon 2 was removed from this arena") != NULL);
    CHECK(clv_arena_add_weapon(a, w, &w2, NULL) == CLV_HIT_OK); /* another weapon in slot 2 */
    CHECK(clv_arena_restore_diag(a, taken, len, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(strstr(diag.message, "weapons differ") != NULL);
    CHECK(clv_arena_remove_weapon(a, w2) == CLV_HIT_OK);
    CHECK(clv_arena_add_weapon(a, lng, &w2, NULL) == CLV_HIT_OK); /* the same one again */
    CHECK(clv_arena_hash(a) == with_both);
    CHECK(clv_arena_restore_diag(a, taken, len, &diag) == CLV_HIT_OK);

    /* a snapshot taken with the slot empty restores into an arena where it is empty */
    CHECK(clv_arena_remove_weapon(a, w2) == CLV_HIT_OK);
    forged f;
    memset(&f, 0, sizeof f);
    f.a = a;
    f.len = clv_arena_snapshot_size(a);
    f.buf = malloc(f.len);
    CHECK(clv_arena_snapshot(a, f.buf, f.len, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_restore_diag(a, f.buf, f.len, &diag) == CLV_HIT_OK);
    /* a forged attack of the empty slot (its fingerprint matches) is refused */
    f.att_at = SNAP_HEADER + (size_t)a->ent_count *
                                 (sizeof(clv__entity) + sizeof(clv__vitals) + sizeof(clv__hurt) +
                                  CLV_ENTITY_MAX_EFFECTS * sizeof(clv__effect));
    clv__attack a0;
    memcpy(&a0, f.buf + f.att_at, sizeof a0);
    CHECK(a0.used == 1 && a0.weapon1 == 1);
    CHECK(restore_forged(&f, f.att_at + offsetof(clv__attack, weapon1), 2, 4, &diag) ==
          CLV_HIT_ERR_SNAPSHOT);
    CHECK(strcmp(diag.message, "attack slot 0: weapon 2 was removed") == 0);
    free(f.buf);
    free(taken);
    clv_arena_destroy(a);
    clv_weapon_destroy(w);
    clv_weapon_destroy(lng);
}

/* Nothing in the state can leave the world's bounds: values beyond are refused, motion is
 * clamped, and so every state the step makes is one a snapshot restores. */
static void test_world_limit(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_entity_def e = clv_default_entity_def();
    clv_hit_diag diag;
    e.position = clv_v2(2.0e9f, 0.0f);
    CHECK(clv_arena_spawn(a, &e, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.message, "position.x must be within +-1e9 (got 2e+09)") == 0);
    e.position = clv_v2(0.9e9f, 0.0f);
    e.velocity = clv_v2(1.0e9f, -1.0e9f);
    clv_entity_id id;
    CHECK(clv_arena_spawn(a, &e, &id, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_set_velocity(a, id, clv_v2(3.0e38f, 0.0f)) == CLV_HIT_ERR_NUMBER);
    CHECK(clv_arena_set_position(a, id, clv_v2(0.0f, -1.5e9f)) == CLV_HIT_ERR_NUMBER);
    CHECK(clv_arena_set_hp(a, id, 1.0e10f) == CLV_HIT_ERR_NUMBER);
    for (int f = 0; f < 5; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
    }
    clv_entity_info info;
    CHECK(clv_arena_entity(a, id, &info) == CLV_HIT_OK);
    CHECK(info.position.x == CLV_WORLD_LIMIT && info.position.y == -CLV_WORLD_LIMIT);
    size_t size = clv_arena_snapshot_size(a), written = 0;
    unsigned char *buf = malloc(size);
    CHECK(clv_arena_snapshot(a, buf, size, &written) == CLV_HIT_OK);
    CHECK(clv_arena_restore(a, buf, written) == CLV_HIT_OK);
    free(buf);
    clv_arena_destroy(a);
}

/* The clamp every motion goes through: within the limit unchanged (the sign of a zero too),
 * beyond it the limit, NaN 0. */
static void test_clamp_world(void) {
    const float lim = CLV_WORLD_LIMIT;
    const float in[] = {0.0f, 5.0e8f, -5.0e8f, lim, -lim};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        CHECK(clv__clamp_world(in[i]) == in[i]);
    }
    CHECK(signbit(clv__clamp_world(-0.0f)) && clv__clamp_world(-0.0f) == 0.0f);
    CHECK(clv__clamp_world(nextafterf(lim, INFINITY)) == lim);
    CHECK(clv__clamp_world(nextafterf(-lim, -INFINITY)) == -lim);
    CHECK(clv__clamp_world(3.0e38f) == lim && clv__clamp_world(-3.0e38f) == -lim);
    CHECK(clv__clamp_world(INFINITY) == lim && clv__clamp_world(-INFINITY) == -lim);
    float nan = NAN;
    CHECK(clv__clamp_world(nan) == 0.0f && !signbit(clv__clamp_world(nan)));
    CHECK(clv__clamp_world(-nan) == 0.0f);
}

/* The move pass takes calm entities eight or four at a time and the others one by one: whatever
 * the mix within a group (still, far, with friction, a timed state, a free slot), every entity
 * ends where adding its velocity and clamping to the world puts it, the sign of a zero kept,
 * with its bounds following. */
static void test_move_pass_lanes(void) {
    const float lim = CLV_WORLD_LIMIT;
    const struct {
        float x, y, vx, vy;
        int hurt; /* hurtboxes: 0 puts the bounds far away */
        int kind; /* 0 plain, 1 friction, 2 a timed state, 3 removed */
    } e[] = {
        {lim - 1.0f, 0.0f, 5.0f, -0.0f, 1, 0},
        {-lim, 5.0f, -lim, lim, 1, 0},
        {-0.0f, 3.0f, -0.0f, 0.0f, 1, 0},
        {1.0f, 2.0f, 1.0f, 1.0f, 0, 0},
        {10.0f, 10.0f, 2.0f, 0.0f, 1, 1},
        {-7.5f, 1e-3f, 0.25f, -1e-3f, 1, 0},
        {0.0f, -0.0f, 0.0f, -0.0f, 0, 0},
        {100.0f, 100.0f, -3.0f, 4.0f, 1, 2},
        {5.0f, 5.0f, 1.0f, 1.0f, 1, 3},
        {3.0e8f, -3.0e8f, 7.0e8f, -7.0e8f, 1, 0},
        {1.0f, 1.0f, 1e-30f, 0.0f, 1, 0},
        {-2.0f, 4.0f, 0.5f, 0.5f, 0, 0},
        {8.0f, 8.0f, -8.0f, -8.0f, 1, 0},
        {lim - 2.0f, 2.0f - lim, 4.0f, -4.0f, 1, 0},
        {-0.0f, 1.0f, 0.0f, 1.0f, 1, 0},
        {2.5e8f, 2.5e8f, 9.0e8f, 9.0e8f, 1, 0},
        {1.0f, 1.0f, 0.0f, 0.5f, 1, 0},
        {1.0f - lim, lim - 1.0f, -3.0f, 3.0f, 1, 0},
        {4.0f, -4.0f, -0.0f, 2.0f, 1, 0},
        {6.0e8f, -6.0e8f, 6.0e8f, -6.0e8f, 1, 0},
        {0.5f, 0.25f, 0.125f, -0.0625f, 1, 0},
        {-1.0e-3f, 1.0e-3f, 1.0e-3f, -1.0e-3f, 1, 0},
        {123.0f, 456.0f, -7.0f, 0.0f, 1, 0},
        {lim, -lim, 1.0f, -1.0f, 1, 0},
        {9.0f, 9.0f, 1.0f, 0.0f, 1, 0},
        /* slots 25-39 still: whole groups of four and of eight with nothing to move */
        {-0.0f, -0.0f, 0.0f, -0.0f, 1, 0},
        {7.0f, -7.0f, -0.0f, 0.0f, 0, 0},
        {lim, -lim, 0.0f, 0.0f, 1, 0},
        {1.5f, 2.5f, -0.0f, -0.0f, 1, 0},
        {-3.0f, 3.0f, 0.0f, 0.0f, 1, 0},
        {2.0e8f, 1.0f, 0.0f, -0.0f, 0, 0},
        {0.0f, 0.0f, 0.0f, 0.0f, 1, 0},
        {-9.0f, -9.0f, -0.0f, 0.0f, 1, 0},
        {11.0f, 12.0f, 0.0f, 0.0f, 1, 0},
        {-0.0f, 4.0f, 0.0f, 0.0f, 0, 0},
        {13.0f, -0.0f, -0.0f, -0.0f, 1, 0},
        {1.0f - lim, 5.0f, 0.0f, 0.0f, 1, 0},
        {6.0f, 6.0f, 0.0f, -0.0f, 1, 0},
        {-0.5f, 0.5f, 0.0f, 0.0f, 1, 0},
        {3.0f, 3.0f, -0.0f, 0.0f, 0, 0},
    };
    enum { N = sizeof e / sizeof e[0], FRAMES = 4 }; /* calm from the second frame */
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_entity_id id[N];
    float px[N], py[N];
    for (int i = 0; i < N; i++) {
        clv_entity_def d = clv_default_entity_def();
        d.position = clv_v2(e[i].x, e[i].y);
        d.velocity = clv_v2(e[i].vx, e[i].vy);
        d.hurtbox_count = e[i].hurt;
        d.friction = e[i].kind == 1 ? 0.5f : 0.0f;
        CHECK(clv_arena_spawn(a, &d, &id[i], NULL) == CLV_HIT_OK);
        px[i] = e[i].x, py[i] = e[i].y;
    }
    CHECK(clv_arena_remove(a, id[8]) == CLV_HIT_OK);
    for (int f = 0; f < FRAMES; f++) {
        if (f == 1) { /* calm for a frame, then stirred */
            CHECK(clv_arena_set_state(a, id[7], CLV_HURT_INVINCIBLE, 2) == CLV_HIT_OK);
        }
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        for (int i = 0; i < N; i++) {
            bool moves = e[i].kind != 1 && e[i].kind != 3 && !(e[i].vx == 0.0f && e[i].vy == 0.0f);
            if (moves) {
                px[i] = clv__clamp_world(px[i] + e[i].vx);
                py[i] = clv__clamp_world(py[i] + e[i].vy);
            }
            if (e[i].kind == 1 || e[i].kind == 3) {
                continue;
            }
            clv_entity_info info;
            CHECK(clv_arena_entity(a, id[i], &info) == CLV_HIT_OK);
            CHECK(memcmp(&info.position.x, &px[i], sizeof px[i]) == 0);
            CHECK(memcmp(&info.position.y, &py[i], sizeof py[i]) == 0);
            int32_t s = (int32_t)id[i].index1 - 1;
            if (e[i].hurt == 0) {
                CHECK(a->bx[s] == 3.0e38f && a->by[s] == 3.0e38f && a->br[s] == 0.0f);
            } else {
                CHECK(a->bx[s] == px[i] + a->local_centre[s].x);
                CHECK(a->by[s] == py[i] + a->local_centre[s].y);
                CHECK(a->br[s] == a->local_half[s] && a->br[s] > 0.0f);
            }
        }
    }
    /* the one with friction slowed by 0.5 a frame to a stop, and the free slot did not move */
    clv_entity_info slow;
    CHECK(clv_arena_entity(a, id[4], &slow) == CLV_HIT_OK);
    CHECK(slow.position.x == 10.0f + 2.0f + 1.5f + 1.0f + 0.5f && slow.velocity.x == 0.0f);
    CHECK(a->pos[8].x == 5.0f && a->pos[8].y == 5.0f);
    clv_arena_destroy(a);
}

/* The pass over the stirred entities finds them by searching the calm bytes many at a time: an
 * entity with friction (never calm) at any slot, at the edges of the search's blocks of 64 and
 * 8 or in the tail after the last whole block, slows down frame by frame, and the calm ones
 * around it move by their velocity. */
static void test_stirred_slots_found(void) {
    enum { N = 300, FRAMES = 3 };
    static const int busy[] = {0, 1, 7, 8, 62, 63, 64, 65, 127, 128, 191, 200, 255, 256, 298, 299};
    bool slow[N] = {false};
    for (size_t k = 0; k < sizeof busy / sizeof busy[0]; k++) {
        slow[busy[k]] = true;
    }
    clv_arena_def ad = clv_default_arena_def();
    ad.entity_capacity = N;
    clv_arena *a = clv_arena_create(&ad, NULL);
    clv_entity_id id[N];
    for (int i = 0; i < N; i++) {
        clv_entity_def d = clv_default_entity_def();
        d.position = clv_v2((float)i, 0.0f);
        d.velocity = clv_v2(2.0f, 0.0f);
        d.friction = slow[i] ? 0.5f : 0.0f;
        CHECK(clv_arena_spawn(a, &d, &id[i], NULL) == CLV_HIT_OK);
    }
    for (int f = 0; f < FRAMES; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
    }
    for (int i = 0; i < N; i++) {
        clv_entity_info info;
        CHECK(clv_arena_entity(a, id[i], &info) == CLV_HIT_OK);
        /* with friction: 2, 1.5 and 1 a frame, then 0.5 left; without: 2 a frame */
        float x = slow[i] ? (float)i + 4.5f : (float)i + 6.0f, vx = slow[i] ? 0.5f : 2.0f;
        CHECK(info.position.x == x && info.velocity.x == vx);
    }
    clv_arena_destroy(a);
}

/* The sub-steps the model of a box going from s0 (mirror0) to s1 (mirror1) asks for under a
 * pose that turns by dth and travels (dx, dy) to end at o: what the arena builds for it. */
static int32_t model_count(const clv_shape *s0, bool mirror0, const clv_shape *s1, bool mirror1,
                           double dth, double dx, double dy, clv_vec2 o, float tol) {
    clv_swept m;
    CHECK(clv_swept_init(&m, s0, mirror0, s1, mirror1));
    clv_swept_move(&m, dth, dx, dy, o);
    return clv_swept_substeps(&m, (double)tol, CLV__MAX_SUBSTEPS);
}

/* One attack of boxes that the pose moves from (o0, f0, mirror0) to (o1, f1, mirror1) over one
 * frame: box b is s0[b] on frame 0 and s1[b] after, one box over all three frames when same[b],
 * else two of one id. Every moved hitbox gets the attack's sub-step count, the most any of its
 * boxes' own models asks for; returns that count (0 when the arena refused something). */
static int32_t turn_attack(const clv_shape *s0, const clv_shape *s1, const bool *same, int nb,
                           bool mirror0, bool mirror1, float f0, float f1, clv_vec2 o0, clv_vec2 o1,
                           float tol) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def at = clv_default_attack_def();
    snprintf(at.name, sizeof at.name, "turn");
    at.frames = 3;
    CHECK(clv_weapon_add_attack(w, &at, NULL, NULL) == CLV_HIT_OK);
    for (int b = 0; b < nb; b++) {
        clv_hitbox_def h = clv_default_hitbox_def();
        snprintf(h.id, sizeof h.id, "b%d", b);
        h.shape = s0[b];
        CHECK(clv_weapon_add_hitbox(w, 0, 0, same[b] ? 2 : 0, &h, NULL) == CLV_HIT_OK);
        h.shape = s1[b];
        CHECK(same[b] || clv_weapon_add_hitbox(w, 0, 1, 2, &h, NULL) == CLV_HIT_OK);
    }
    clv_arena_def ad = clv_default_arena_def();
    ad.sweep_tolerance = tol;
    clv_arena *a = clv_arena_create(&ad, NULL);
    clv_weapon_id wid;
    CHECK(clv_arena_add_weapon(a, w, &wid, NULL) == CLV_HIT_OK);
    clv_weapon_destroy(w);
    clv_entity_def e = clv_default_entity_def();
    e.hurtbox_count = 0;
    clv_attack_start_def sd = clv_default_attack_start_def();
    CHECK(clv_arena_spawn(a, &e, &sd.owner, NULL) == CLV_HIT_OK);
    sd.weapon = wid;
    sd.position = o0;
    sd.facing = f0;
    sd.mirror = mirror0;
    sd.follow_owner = false;
    clv_attack_id aid;
    CHECK(clv_arena_start_attack(a, &sd, &aid, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    CHECK(clv_arena_set_attack_pose(a, aid, o1, f1, mirror1) == CLV_HIT_OK);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    /* the models as the arena builds them, from the poses as it reads them */
    const double dth = (double)f1 - (double)f0;
    const double dx = (double)o1.x - (double)o0.x, dy = (double)o1.y - (double)o0.y;
    int32_t want = 0;
    for (int b = 0; b < nb; b++) {
        int32_t n = model_count(&s0[b], mirror0, &s1[b], mirror1, dth, dx, dy, o1, tol);
        want = n > want ? n : want;
    }
    CHECK(a->placed_count == nb);
    for (int32_t i = 0; i < a->placed_count; i++) {
        CHECK(a->placed[i].nsub == want);
    }
    clv_arena_destroy(a);
    return want;
}

/* model_count of one box turned by dth about the origin (the hand-made cases below). */
static int32_t own_count(const clv_shape *s0, const clv_shape *s1, double dth, float tol) {
    return model_count(s0, false, s1, false, dth, 0.0, 0.0, clv_v2(0.0f, 0.0f), tol);
}

/* A swing the pose turns: random attacks of blades and balls of several lengths and radii, some
 * the same box on both frames, some two boxes of one id that differ (a radius that grows, a
 * slide or a turn in the weapon), mirrors kept or flipped, turns, travels and tolerances; then
 * hand-made attacks where the box that reaches farthest needs fewer sub-steps than another. */
static void test_turning_attack_substeps(void) {
    uint64_t seed = 0x9E3779B97F4A7C15u;
    int several = 0, changed = 0, flipped = 0;
    for (int trial = 0; trial < 400; trial++) {
        double u[48];
        for (int k = 0; k < 48; k++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            u[k] = (double)(seed >> 11) * 0x1p-53;
        }
        const int nb = 1 + trial % 6;
        clv_shape s0[6], s1[6];
        bool same[6];
        for (int b = 0; b < nb; b++) {
            float ang = (float)(6.283 * u[6 * b]), len = (float)(150.0 * u[6 * b + 1]);
            float r = (float)(30.0 * u[6 * b + 2]), in = (float)(40.0 * u[6 * b + 3]);
            bool ball = u[6 * b + 4] < 0.2;
            s0[b] = ball ? clv_shape_circle(in * cosf(ang), in * sinf(ang), r)
                         : clv_shape_capsule(in * cosf(ang), in * sinf(ang), (in + len) * cosf(ang),
                                             (in + len) * sinf(ang), r);
            const int kind = (int)(5.0 * u[6 * b + 5]); /* 0, 1: the same box */
            same[b] = kind < 2;
            s1[b] = s0[b];
            if (kind == 2) { /* its radius grows */
                s1[b] = ball
                            ? clv_shape_circle(s0[b].u.circle.c.x, s0[b].u.circle.c.y, 2.0f * r)
                            : clv_shape_capsule(s0[b].u.capsule.a.x, s0[b].u.capsule.a.y,
                                                s0[b].u.capsule.b.x, s0[b].u.capsule.b.y, 2.0f * r);
            } else if (kind == 3) { /* it slides in the weapon */
                s1[b] = clv_shape_translated(&s0[b], clv_v2(25.0f, -10.0f));
            } else if (kind == 4) { /* it turns in the weapon */
                float a1 = ang + 0.4f;
                s1[b] = ball ? clv_shape_circle(in * cosf(a1), in * sinf(a1), r)
                             : clv_shape_capsule(in * cosf(a1), in * sinf(a1),
                                                 (in + len) * cosf(a1), (in + len) * sinf(a1), r);
            }
            changed += !same[b];
        }
        const bool mirror0 = u[40] < 0.5, mirror1 = u[41] < 0.25 ? !mirror0 : mirror0;
        const float f0 = (float)(6.0 * u[42] - 3.0), f1 = f0 + (float)(2.0 * u[43] - 1.0);
        const clv_vec2 o0 = clv_v2((float)(2e4 * u[44] - 1e4), (float)(2e4 * u[45] - 1e4));
        const clv_vec2 o1 =
            clv_v2(o0.x + (float)(60.0 * u[46] - 30.0), o0.y + (float)(60.0 * u[47] - 30.0));
        const float tol = (float)(0.05 + 3.0 * u[39]);
        CHECK(turn_attack(s0, s1, same, nb, mirror0, mirror1, f0, f1, o0, o1, tol) > 0);
        several += nb > 1;
        flipped += mirror0 != mirror1;
    }
    CHECK(several > 300 && changed > 300 && flipped > 60);

    /* A 2,000-unit blade that stays itself leads by reach; a box beside it that grows its
     * radius, slides or turns in the weapon needs more sub-steps than the blade under a small
     * turn of the pose; and a fat ball just inside the blade's reach needs more because of its
     * radius alone (its rounding slack): the tolerance is set between the two covers at 5. */
    const clv_shape blade = clv_shape_capsule(0.0f, 0.0f, 2000.0f, 0.0f, 1.0f);
    const clv_shape grow0 = clv_shape_circle(100.0f, 0.0f, 0.5f);
    const clv_shape grow1 = clv_shape_circle(100.0f, 0.0f, 400.0f);
    const clv_shape slide1 = clv_shape_circle(400.0f, 0.0f, 0.5f);
    const clv_shape turn0 = clv_shape_capsule(0.0f, 0.0f, 500.0f, 0.0f, 1.0f);
    const clv_shape turn1 = clv_shape_capsule(0.0f, 0.0f, 0.0f, 500.0f, 1.0f);
    const clv_shape pairs[3][2] = {{grow0, grow1}, {grow0, slide1}, {turn0, turn1}};
    for (int k = 0; k < 3; k++) {
        const clv_shape s0[2] = {blade, pairs[k][0]}, s1[2] = {blade, pairs[k][1]};
        const bool same[2] = {true, false};
        int32_t lead = own_count(&blade, &blade, 0.01, 0.25f);
        int32_t got = turn_attack(s0, s1, same, 2, false, false, 0.0f, 0.01f, clv_v2(0, 0),
                                  clv_v2(0, 0), 0.25f);
        CHECK(got > lead && got == own_count(&pairs[k][0], &pairs[k][1], 0.01, 0.25f));
    }
    const clv_shape thin = clv_shape_capsule(0.0f, 0.0f, 100.0f, 0.0f, 0.0f);
    const clv_shape ball = clv_shape_circle(0.0f, 99.99f, 1000.0f);
    clv_swept mb, mc;
    CHECK(clv_swept_init(&mb, &thin, false, &thin, false));
    CHECK(clv_swept_init(&mc, &ball, false, &ball, false));
    clv_swept_move(&mb, 0.5, 0.0, 0.0, clv_v2(0.0f, 0.0f));
    clv_swept_move(&mc, 0.5, 0.0, 0.0, clv_v2(0.0f, 0.0f));
    CHECK(mc.rho_u < mb.rho_u);
    const double ob = clv_swept_overcover(&mb, 5), oc = clv_swept_overcover(&mc, 5);
    const float tol = (float)(0.5 * (ob + oc));
    CHECK(ob < (double)tol && (double)tol < oc);
    const clv_shape s0[2] = {thin, ball};
    const bool same[2] = {true, true};
    CHECK(own_count(&thin, &thin, 0.5, tol) <= 5 && own_count(&ball, &ball, 0.5, tol) > 5);
    CHECK(turn_attack(s0, s0, same, 2, false, false, 0.0f, 0.5f, clv_v2(0, 0), clv_v2(0, 0), tol) ==
          own_count(&ball, &ball, 0.5, tol));
}

/* clv__grown_out (a swept hitbox's bounds grown and rounded outward, four lanes at a time) against
 * libm's nextafterf on each bound, bit for bit: zeros of both signs, subnormals, the largest
 * floats, infinities and NaN among random values, where the lanes fall back one by one. */
static void test_bounds_grown_out(void) {
    static const float special[] = {0.0f,    -0.0f,    1e-45f,   -1e-45f,   1e-38f, -1e-38f,
                                    FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN,    1.0f,
                                    -1.0f,   3.5f,     -2.25f,   1e30f,     -7e-3f, 0.5f};
    const int ns = (int)(sizeof special / sizeof special[0]);
    uint64_t seed = 0x2545F4914F6CDD1Du;
    int lanes_checked = 0;
    for (int i = 0; i < 40000; i++) {
        float v[5];
        for (int k = 0; k < 5; k++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            uint32_t bits = (uint32_t)(seed >> 32);
            float f;
            memcpy(&f, &bits, sizeof f);
            v[k] = (seed & 7u) == 0   ? special[(seed >> 8) % (uint64_t)ns]
                   : (seed & 7u) == 1 ? f
                                      : (float)((double)(int32_t)bits * 1e-6);
        }
        const clv_aabb b = {{v[0], v[1]}, {v[2], v[3]}};
        const float g = i % 5 == 0 ? 0.0f : fabsf(v[4]);
        const clv_aabb got = clv__grown_out(b, g);
        const float want[4] = {
            nextafterf(b.min.x - g, -INFINITY), nextafterf(b.min.y - g, -INFINITY),
            nextafterf(b.max.x + g, INFINITY), nextafterf(b.max.y + g, INFINITY)};
        const float have[4] = {got.min.x, got.min.y, got.max.x, got.max.y};
        for (int k = 0; k < 4; k++) {
            uint32_t x, y;
            memcpy(&x, &have[k], sizeof x);
            memcpy(&y, &want[k], sizeof y);
            /* NaN has no one pattern: any NaN for a NaN */
            CHECK(x == y || (isnan(have[k]) && isnan(want[k])));
            lanes_checked++;
        }
    }
    CHECK(lanes_checked == 160000);
}

/* In a program that takes denormals as zero (a -ffast-math program sets the processor so), every
 * path of the move agrees on a subnormal velocity: thirteen calm entities at x = -0 (groups of
 * eight and four and single slots) all move by it, which there leaves x = +0, and so do busy ones.
 */
static void test_move_paths_agree_without_denormals(void) {
#if defined(__SSE2__)
    const unsigned int csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040u); /* flush to zero, denormals are zero */
    enum { N = 13 };
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_entity_id id[N];
    for (int i = 0; i < N; i++) {
        clv_entity_def d = clv_default_entity_def();
        d.position = clv_v2(-0.0f, (float)i);
        d.velocity = clv_v2(1e-45f, 0.0f);
        CHECK(clv_arena_spawn(a, &d, &id[i], NULL) == CLV_HIT_OK);
    }
    CHECK(clv_arena_set_state(a, id[3], CLV_HURT_INVINCIBLE, 9) == CLV_HIT_OK); /* busy */
    for (int f = 0; f < 3; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
    }
    for (int i = 0; i < N; i++) {
        clv_entity_info e;
        CHECK(clv_arena_entity(a, id[i], &e) == CLV_HIT_OK);
        CHECK(e.position.x == 0.0f && !signbit(e.position.x));
    }
    clv_arena_destroy(a);
    _mm_setcsr(csr);
#endif
}

/* Queries given NULL or unknown ids answer "nothing" instead of crashing. */
static void test_null_and_unknown_inputs(void) {
    int32_t n = 7;
    CHECK(clv_arena_hits(NULL, &n) == NULL && n == 0);
    n = 7;
    CHECK(clv_arena_misses(NULL, &n) == NULL && n == 0);
    n = 7;
    CHECK(clv_arena_ticks(NULL, &n) == NULL && n == 0);
    CHECK(clv_arena_snapshot_size(NULL) == 0);
    CHECK(clv_arena_snapshot(NULL, &n, sizeof n, NULL) == CLV_HIT_ERR_NULL);
    CHECK(clv_arena_restore(NULL, &n, sizeof n) == CLV_HIT_ERR_NULL);
    CHECK(clv_arena_frame(NULL) == 0);
    CHECK(clv_arena_entity_count(NULL) == 0);
    clv_arena_profile p = clv_arena_last_profile(NULL);
    CHECK(p.candidates == 0 && p.broadphase == 0);
    CHECK(clv_arena_hash(NULL) == clv_arena_hash(NULL));
    clv_weapon_id none = {3, 0};
    CHECK(clv_arena_find_attack(NULL, none, "x") == -1);
    CHECK(clv_arena_hitbox(NULL, none, 0, 0, 0) == NULL);
    CHECK(clv_weapon_find_attack(NULL, "x") == -1);
    CHECK(clv_weapon_attack_count(NULL) == 0);
    CHECK(clv_weapon_frame_hitbox_count(NULL, 0, 0) == 0);
    clv_hit_diag diag;
    CHECK(clv_arena_add_weapon(NULL, NULL, NULL, &diag) == CLV_HIT_ERR_NULL);
    CHECK(strcmp(diag.message, "arena is NULL") == 0);
    CHECK(clv_arena_start_attack(NULL, NULL, NULL, &diag) == CLV_HIT_ERR_NULL);
    CHECK(clv_arena_set_hurtboxes(NULL, (clv_entity_id){1, 0}, NULL, 0, &diag) == CLV_HIT_ERR_NULL);
    CHECK(clv_hitbox_def_check(NULL, &diag) == CLV_HIT_ERR_NULL);
    CHECK(clv_attack_def_check(NULL, &diag) == CLV_HIT_ERR_NULL);
    clv_weapon_destroy(NULL);
    clv_arena_destroy(NULL);

    clv_arena *a = clv_arena_create(NULL, NULL);
    CHECK(clv_arena_find_attack(a, none, "x") == -1);
    CHECK(clv_arena_hitbox(a, none, 0, 0, 0) == NULL);
    CHECK(clv_arena_step(a) == CLV_HIT_OK); /* an empty arena steps */
    CHECK(clv_arena_frame(a) == 1);
    CHECK(clv_arena_hits(a, &n) != NULL || n == 0);
    CHECK(n == 0);
    size_t size = clv_arena_snapshot_size(a);
    unsigned char *buf = malloc(size);
    CHECK(clv_arena_snapshot(a, buf, size, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    CHECK(clv_arena_restore(a, buf, size) == CLV_HIT_OK);
    CHECK(clv_arena_frame(a) == 1);
    free(buf);
    clv_arena_destroy(a);
    CHECK(strcmp(clv_miss_reason_name(CLV_MISS_REASON_COUNT), "unknown") == 0);
    CHECK(strcmp(clv_miss_reason_name(CLV_MISS_LOCKOUT), "lockout") == 0);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_allocator_zero_live_bytes);
    RUN(test_ids_and_generations);
    RUN(test_spawn_and_start_errors);
    RUN(test_snapshot_errors_and_fresh_arena);
    RUN(test_move_pass_lanes);
    RUN(test_stirred_slots_found);
    RUN(test_turning_attack_substeps);
    RUN(test_bounds_grown_out);
    RUN(test_move_paths_agree_without_denormals);
    RUN(test_snapshot_layout);
    RUN(test_snapshot_forged_motion);
    RUN(test_snapshot_forged_hints);
    RUN(test_snapshot_forged_frame);
    RUN(test_snapshot_forged_cross_references);
    RUN(test_snapshot_bound_to_weapons);
    RUN(test_remove_weapon);
    RUN(test_weapon_arena_bytes);
    RUN(test_snapshot_after_weapon_removal);
    RUN(test_world_limit);
    RUN(test_clamp_world);
    RUN(test_null_and_unknown_inputs);
    return clv_test_report();
}
