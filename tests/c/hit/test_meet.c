/* Attacks that meet: clank, outprioritize, transcend, trade, parry, swept meetings, and an
 * outcome that no order of spawns, slots or attack starts changes. */
#include "cleave/hit.h"
#include "harness.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- a duel: two fighters, each with a one-attack weapon whose blade meets the other's ---- */

typedef struct blade_spec {
    float damage;
    clv_clash_rule clash;
    int32_t rebound;    /* the attack's */
    int32_t parry_stun; /* the hitbox's */
    float y;            /* weapon-local height of the blade */
} blade_spec;

static blade_spec blade(float damage) {
    blade_spec b = {damage, CLV_CLASH_NORMAL, CLV_FRAMES_AUTO, CLV_FRAMES_AUTO, 0.0f};
    return b;
}

/* One attack of 10 frames with a blade from x = 10 to 40 (radius 3) on its first frame only. */
static clv_weapon *blade_weapon(const blade_spec *b) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    CHECK(w != NULL);
    clv_attack_def at = clv_default_attack_def();
    snprintf(at.name, sizeof at.name, "swing");
    at.frames = 10;
    at.rebound = b->rebound;
    CHECK(clv_weapon_add_attack(w, &at, NULL, NULL) == CLV_HIT_OK);
    clv_hitbox_def d = clv_default_hitbox_def();
    snprintf(d.id, sizeof d.id, "blade");
    d.shape = clv_shape_capsule(10.0f, b->y, 40.0f, b->y, 3.0f);
    d.damage = b->damage;
    d.hitlag = 0;
    d.hitstun = 0;
    d.clash = b->clash;
    d.parry_stun = b->parry_stun;
    clv_hit_diag diag;
    clv_hit_status st = clv_weapon_add_hitbox(w, 0, 0, 0, &d, &diag);
    if (st != CLV_HIT_OK) {
        fprintf(stderr, "add_hitbox: %s\n", diag.message);
    }
    CHECK(st == CLV_HIT_OK);
    return w;
}

typedef struct duel {
    clv_arena *arena;
    clv_entity_id fighter[2];
    clv_attack_id attack[2];
    clv_weapon_id weapon[2];
} duel;

/* Fighter 0 (team 1) at the origin facing +x, fighter 1 (team 2) at x = gap facing -x; both
 * swing on the first step. spawn_reversed spawns fighter 1 first. */
static duel make_duel(const clv_arena_def *ad, blade_spec b0, blade_spec b1, float gap,
                      bool spawn_reversed) {
    duel d;
    memset(&d, 0, sizeof d);
    d.arena = clv_arena_create(ad, NULL);
    CHECK(d.arena != NULL);
    const blade_spec *spec[2] = {&b0, &b1};
    clv_weapon_id *wid = d.weapon;
    for (int i = 0; i < 2; i++) {
        clv_weapon *w = blade_weapon(spec[i]);
        CHECK(clv_arena_add_weapon(d.arena, w, &wid[i], NULL) == CLV_HIT_OK);
        clv_weapon_destroy(w);
    }
    for (int k = 0; k < 2; k++) {
        int i = spawn_reversed ? 1 - k : k;
        clv_entity_def e = clv_default_entity_def();
        e.position = clv_v2(i == 0 ? 0.0f : gap, 0.0f);
        e.team = i + 1;
        e.user = (uint64_t)i;
        CHECK(clv_arena_spawn(d.arena, &e, &d.fighter[i], NULL) == CLV_HIT_OK);
    }
    for (int k = 0; k < 2; k++) {
        int i = spawn_reversed ? 1 - k : k;
        clv_attack_start_def s = clv_default_attack_start_def();
        s.weapon = wid[i];
        s.owner = d.fighter[i];
        s.facing = i == 0 ? 0.0f : 3.14159265f;
        CHECK(clv_arena_start_attack(d.arena, &s, &d.attack[i], NULL) == CLV_HIT_OK);
    }
    return d;
}

static const clv_clash_event *only_clash(const clv_arena *a) {
    int32_t n = 0;
    const clv_clash_event *c = clv_arena_clashes(a, &n);
    CHECK(n == 1);
    return n == 1 ? c : NULL;
}

static int32_t count_misses(const clv_arena *a, clv_miss_reason reason) {
    int32_t n = 0, k = 0;
    const clv_miss_record *m = clv_arena_misses(a, &n);
    for (int32_t i = 0; i < n; i++) {
        k += m[i].reason == reason;
    }
    return k;
}

static clv_entity_info info_of(const duel *d, int i) {
    clv_entity_info e;
    memset(&e, 0, sizeof e);
    CHECK(clv_arena_entity(d->arena, d->fighter[i], &e) == CLV_HIT_OK);
    return e;
}

/* Damages 10 and 15 (within the default range 9) at a gap where each blade also reaches the
 * other fighter: both attacks end, neither hits, each owner recovers its rebound. */
static void test_clank_within_range(void) {
    blade_spec b1 = blade(15.0f);
    b1.rebound = 17;
    duel d = make_duel(NULL, blade(10.0f), b1, 45.0f, false);
    CHECK(clv_arena_step(d.arena) == CLV_HIT_OK);
    const clv_clash_event *c = only_clash(d.arena);
    if (c != NULL) {
        CHECK(c->kind == CLV_CLASH_CLANK);
        CHECK(c->winner == -1);
        CHECK(c->owner[0].index1 == d.fighter[0].index1); /* side 0: the lower team */
        CHECK(c->damage[0] == 10.0f && c->damage[1] == 15.0f);
        CHECK(c->stun[0] == 9);  /* floor(4 + 10 / 2) */
        CHECK(c->stun[1] == 17); /* the attack's rebound */
        CHECK(c->hitbox[0] == 0 && c->hitbox[1] == 0);
        CHECK(c->point.x > 20.0f && c->point.x < 40.0f);
        CHECK(c->sweep_t == 1.0f);
    }
    int32_t hits = -1;
    clv_arena_hits(d.arena, &hits);
    CHECK(hits == 0);
    CHECK(count_misses(d.arena, CLV_MISS_CLANKED) == 4); /* the meeting and the body, each side */
    CHECK(!clv_arena_attack_valid(d.arena, d.attack[0]));
    CHECK(!clv_arena_attack_valid(d.arena, d.attack[1]));
    /* each miss names its attack's weapon and owner, though the attack has ended */
    int32_t nm = 0;
    const clv_miss_record *m = clv_arena_misses(d.arena, &nm);
    for (int32_t i = 0; i < nm; i++) {
        int side = m[i].attack.index1 == d.attack[0].index1 ? 0 : 1;
        CHECK(m[i].attack.index1 == d.attack[side].index1);
        CHECK(m[i].weapon.index1 == d.weapon[side].index1 && m[i].weapon.gen == d.weapon[side].gen);
        CHECK(m[i].attacker.index1 == d.fighter[side].index1 &&
              m[i].attacker.gen == d.fighter[side].gen);
    }
    CHECK(info_of(&d, 0).hitstun == 9);
    CHECK(info_of(&d, 1).hitstun == 17);
    CHECK(info_of(&d, 0).hp == 100.0f && info_of(&d, 1).hp == 100.0f);
    clv_arena_destroy(d.arena);
}

/* Damages 20 and 5 (15 apart): the stronger goes on and hits on the same frame; the weaker ends.
 * With clank_range 15 the same blades clank. */
static void test_outprioritize_beyond_range(void) {
    duel d = make_duel(NULL, blade(5.0f), blade(20.0f), 45.0f, false);
    CHECK(clv_arena_step(d.arena) == CLV_HIT_OK);
    const clv_clash_event *c = only_clash(d.arena);
    if (c != NULL) {
        CHECK(c->kind == CLV_CLASH_OUTPRIORITIZE);
        CHECK(c->winner == 1);
        CHECK(c->stun[0] == 6); /* floor(4 + 5 / 2) */
        CHECK(c->stun[1] == 0);
    }
    int32_t n = 0;
    const clv_hit_event *h = clv_arena_hits(d.arena, &n);
    CHECK(n == 1);
    if (n == 1) {
        CHECK(h[0].target.index1 == d.fighter[0].index1);
        CHECK(h[0].damage == 20.0f);
        CHECK((h[0].flags & CLV_HIT_FLAG_TRADE) == 0);
    }
    CHECK(count_misses(d.arena, CLV_MISS_OUTPRIORITIZED) == 2);
    CHECK(!clv_arena_attack_valid(d.arena, d.attack[0]));
    CHECK(clv_arena_attack_valid(d.arena, d.attack[1]));
    CHECK(info_of(&d, 0).hp == 80.0f);
    CHECK(info_of(&d, 0).hitstun == 6);
    clv_arena_destroy(d.arena);

    clv_arena_def ad = clv_default_arena_def();
    ad.clank_range = 15.0f;
    d = make_duel(&ad, blade(5.0f), blade(20.0f), 45.0f, false);
    CHECK(clv_arena_step(d.arena) == CLV_HIT_OK);
    c = only_clash(d.arena);
    CHECK(c != NULL && c->kind == CLV_CLASH_CLANK);
    clv_arena_destroy(d.arena);
}

/* A transcendent blade passes through: both attacks go on, both land (a trade), and the meeting
 * is a TRANSCENDED miss of each side. */
static void test_transcend_passes_through(void) {
    blade_spec b0 = blade(10.0f);
    b0.clash = CLV_CLASH_TRANSCEND;
    duel d = make_duel(NULL, b0, blade(10.0f), 45.0f, false);
    CHECK(clv_arena_step(d.arena) == CLV_HIT_OK);
    const clv_clash_event *c = only_clash(d.arena);
    CHECK(c != NULL && c->kind == CLV_CLASH_TRANSCENDED);
    int32_t n = 0;
    const clv_hit_event *h = clv_arena_hits(d.arena, &n);
    CHECK(n == 2);
    for (int32_t i = 0; i < n; i++) {
        CHECK((h[i].flags & CLV_HIT_FLAG_TRADE) != 0);
    }
    CHECK(count_misses(d.arena, CLV_MISS_TRANSCENDED) == 2);
    CHECK(clv_arena_attack_valid(d.arena, d.attack[0]));
    CHECK(clv_arena_attack_valid(d.arena, d.attack[1]));
    CHECK(info_of(&d, 0).hp == 90.0f && info_of(&d, 1).hp == 90.0f);
    clv_arena_destroy(d.arena);
}

/* A trade blade meets the other but cancels nothing: both hit their bodies on the same frame,
 * whichever fighter was spawned and started first. */
static void test_trade_hits_both(void) {
    for (int rev = 0; rev < 2; rev++) {
        blade_spec b1 = blade(12.0f);
        b1.clash = CLV_CLASH_TRADE;
        duel d = make_duel(NULL, blade(10.0f), b1, 45.0f, rev != 0);
        CHECK(clv_arena_step(d.arena) == CLV_HIT_OK);
        const clv_clash_event *c = only_clash(d.arena);
        CHECK(c != NULL && c->kind == CLV_CLASH_TRADED);
        CHECK(c != NULL && c->owner[0].index1 == d.fighter[0].index1);
        int32_t n = 0;
        const clv_hit_event *h = clv_arena_hits(d.arena, &n);
        CHECK(n == 2);
        for (int32_t i = 0; i < n; i++) {
            CHECK((h[i].flags & CLV_HIT_FLAG_TRADE) != 0);
        }
        CHECK(info_of(&d, 0).hp == 88.0f);
        CHECK(info_of(&d, 1).hp == 90.0f);
        clv_arena_destroy(d.arena);
    }
}

/* Blades at different heights never meet; each lands on the other fighter: both hits apply in
 * either spawn order, and both say trade. */
static void test_mutual_hits_trade_any_order(void) {
    for (int rev = 0; rev < 2; rev++) {
        blade_spec b0 = blade(10.0f), b1 = blade(30.0f);
        b0.y = 5.0f;
        b1.y = 5.0f; /* mirrored by the half turn: world y = -5 */
        duel d = make_duel(NULL, b0, b1, 45.0f, rev != 0);
        CHECK(clv_arena_step(d.arena) == CLV_HIT_OK);
        int32_t n = -1;
        clv_arena_clashes(d.arena, &n);
        CHECK(n == 0);
        const clv_hit_event *h = clv_arena_hits(d.arena, &n);
        CHECK(n == 2);
        for (int32_t i = 0; i < n; i++) {
            CHECK((h[i].flags & CLV_HIT_FLAG_TRADE) != 0);
        }
        CHECK(info_of(&d, 0).hp == 70.0f);
        CHECK(info_of(&d, 1).hp == 90.0f);
        clv_arena_destroy(d.arena);
    }
}

/* Fighter 1 parries for 3 frames; fighter 0's hit meets it: no damage, fighter 0's attack ends
 * and it is stunned for the arena's parry_stun (20), or the hitbox's own, which then runs out. */
static void test_parry_stuns_attacker(void) {
    for (int own = 0; own < 2; own++) {
        blade_spec b0 = blade(10.0f), b1 = blade(10.0f);
        b0.parry_stun = own ? 7 : CLV_FRAMES_AUTO;
        duel d = make_duel(NULL, b0, b1, 45.0f, false);
        CHECK(clv_arena_cancel_attack(d.arena, d.attack[1]) == CLV_HIT_OK);
        CHECK(clv_arena_set_state(d.arena, d.fighter[1], CLV_HURT_PARRY, 3) == CLV_HIT_OK);
        CHECK(clv_arena_step(d.arena) == CLV_HIT_OK);
        const clv_clash_event *c = only_clash(d.arena);
        if (c != NULL) {
            CHECK(c->kind == CLV_CLASH_PARRY);
            CHECK(c->attack[0].index1 == d.attack[0].index1);
            CHECK(c->owner[1].index1 == d.fighter[1].index1);
            CHECK(c->attack[1].index1 == 0 && c->hitbox[1] == -1);
            CHECK(c->stun[0] == (own ? 7 : 20));
        }
        int32_t n = -1;
        clv_arena_hits(d.arena, &n);
        CHECK(n == 0);
        CHECK(count_misses(d.arena, CLV_MISS_PARRIED) == 1);
        CHECK(!clv_arena_attack_valid(d.arena, d.attack[0]));
        int32_t nm = 0;
        const clv_miss_record *m = clv_arena_misses(d.arena, &nm);
        for (int32_t i = 0; i < nm; i++) {
            CHECK(m[i].weapon.index1 == d.weapon[0].index1);
            CHECK(m[i].attacker.index1 == d.fighter[0].index1);
        }
        CHECK(info_of(&d, 0).hitstun == (own ? 7 : 20));
        CHECK(info_of(&d, 1).hp == 100.0f);
        /* the stun counts down, frame by frame, though the attacker had no timer before it */
        for (int32_t left = own ? 6 : 19; left >= 0; left--) {
            CHECK(clv_arena_step(d.arena) == CLV_HIT_OK);
            CHECK(info_of(&d, 0).hitstun == left);
        }
        clv_arena_destroy(d.arena);
    }
}

/* ---- swept meetings ---- */

/* Two upright blades that swap sides between frames 0 and 1 (100 units each way) cross at
 * x = 50 halfway through: they meet when they sweep, and not when they do not. */
static void test_swept_blades_meet(void) {
    for (int sweep = 0; sweep < 2; sweep++) {
        clv_arena *a = clv_arena_create(NULL, NULL);
        clv_entity_id f[2];
        clv_attack_id at[2];
        for (int i = 0; i < 2; i++) {
            clv_weapon *w = clv_weapon_create(NULL, NULL);
            clv_attack_def ad = clv_default_attack_def();
            snprintf(ad.name, sizeof ad.name, "pass");
            ad.frames = 4;
            CHECK(clv_weapon_add_attack(w, &ad, NULL, NULL) == CLV_HIT_OK);
            for (int fr = 0; fr < 2; fr++) {
                clv_hitbox_def d = clv_default_hitbox_def();
                snprintf(d.id, sizeof d.id, "blade");
                float x = fr == 0 ? 0.0f : 100.0f;
                d.shape = clv_shape_capsule(x, -10.0f, x, 10.0f, 1.0f);
                d.damage = 10.0f;
                d.sweep = sweep != 0;
                CHECK(clv_weapon_add_hitbox(w, 0, fr, fr, &d, NULL) == CLV_HIT_OK);
            }
            clv_weapon_id wid;
            CHECK(clv_arena_add_weapon(a, w, &wid, NULL) == CLV_HIT_OK);
            clv_weapon_destroy(w);
            clv_entity_def e = clv_default_entity_def();
            e.position = clv_v2(i == 0 ? 0.0f : 100.0f, 0.0f);
            e.team = i + 1;
            e.hurtbox_count = 0;
            CHECK(clv_arena_spawn(a, &e, &f[i], NULL) == CLV_HIT_OK);
            clv_attack_start_def s = clv_default_attack_start_def();
            s.weapon = wid;
            s.owner = f[i];
            s.facing = i == 0 ? 0.0f : 3.14159265f;
            CHECK(clv_arena_start_attack(a, &s, &at[i], NULL) == CLV_HIT_OK);
        }
        int32_t n0 = -1, n1 = -1;
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        clv_arena_clashes(a, &n0);
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        const clv_clash_event *c = clv_arena_clashes(a, &n1);
        CHECK(n0 == 0);
        CHECK(n1 == (sweep ? 1 : 0));
        if (sweep && n1 == 1) {
            CHECK(c->kind == CLV_CLASH_CLANK);
            CHECK(c->sweep_t >= 0.4f && c->sweep_t <= 0.5f);
            CHECK_NEAR(c->point.x, 50.0f, 3.0);
            CHECK(!clv_arena_attack_valid(a, at[0]) && !clv_arena_attack_valid(a, at[1]));
        }
        clv_arena_destroy(a);
    }
}

/* ---- the outcome does not depend on order ---- */

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t next_u32(rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static float uniform(rng *r, float lo, float hi) {
    return lo + (hi - lo) * (float)(next_u32(r) & 0xffffu) / 65536.0f;
}

#define POOL 6
#define MAX_FIGHTERS 6
#define SCENE_FRAMES 8

/* A weapon of one 8-frame attack: a blade turning about the wielder (a hitbox per frame, so it
 * sweeps) and a hilt circle, with random damage, clash rule and priority. No knockback: the
 * velocity of several pushes on one frame is a float sum in candidate order. */
static clv_weapon *random_weapon(rng *r) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def ad = clv_default_attack_def();
    snprintf(ad.name, sizeof ad.name, "swing");
    ad.frames = SCENE_FRAMES;
    ad.rehit = (int32_t)(next_u32(r) % 3u);
    CHECK(clv_weapon_add_attack(w, &ad, NULL, NULL) == CLV_HIT_OK);
    static const float damages[] = {3.0f, 8.0f, 12.0f, 20.0f, 30.0f};
    float len = uniform(r, 20.0f, 60.0f), rad = uniform(r, 1.0f, 4.0f);
    float turn = uniform(r, -0.8f, 0.8f), start = uniform(r, -1.5f, 1.5f);
    float damage = damages[next_u32(r) % 5u];
    uint32_t rule = next_u32(r) % 7u;
    clv_clash_rule clash = rule == 0   ? CLV_CLASH_TRANSCEND
                           : rule == 1 ? CLV_CLASH_TRADE
                                       : CLV_CLASH_NORMAL;
    int32_t priority = (int32_t)(next_u32(r) % 2u);
    for (int32_t f = 0; f < SCENE_FRAMES - 2; f++) {
        float t = start + turn * (float)f;
        float c = cosf(t), s = sinf(t);
        clv_hitbox_def d = clv_default_hitbox_def();
        snprintf(d.id, sizeof d.id, "blade");
        d.shape = clv_shape_capsule(8.0f * c, 8.0f * s, (8.0f + len) * c, (8.0f + len) * s, rad);
        d.damage = damage;
        d.clash = clash;
        d.priority = priority;
        d.hitlag = (int32_t)(next_u32(r) % 3u);
        CHECK(clv_weapon_add_hitbox(w, 0, f, f, &d, NULL) == CLV_HIT_OK);
    }
    clv_hitbox_def hilt = clv_default_hitbox_def();
    snprintf(hilt.id, sizeof hilt.id, "hilt");
    hilt.shape = clv_shape_circle(6.0f, 0.0f, 3.0f);
    hilt.damage = damage * 0.5f;
    hilt.group = 1;
    CHECK(clv_weapon_add_hitbox(w, 0, 0, SCENE_FRAMES - 3, &hilt, NULL) == CLV_HIT_OK);
    return w;
}

typedef struct fighter {
    clv_vec2 pos;
    float facing;
    int32_t team, weapon, parry;
    bool attacks;
} fighter;

typedef struct scene {
    int32_t n;
    fighter f[MAX_FIGHTERS];
} scene;

static scene random_scene(rng *r) {
    scene sc;
    memset(&sc, 0, sizeof sc);
    sc.n = 2 + (int32_t)(next_u32(r) % (MAX_FIGHTERS - 1));
    for (int32_t i = 0; i < sc.n; i++) {
        fighter *f = &sc.f[i];
        f->pos.x = uniform(r, -50.0f, 50.0f);
        f->pos.y = uniform(r, -50.0f, 50.0f);
        f->facing = uniform(r, -3.1f, 3.1f);
        f->team = i < 2 ? i + 1 : 1 + (int32_t)(next_u32(r) % 2u);
        f->weapon = (int32_t)(next_u32(r) % POOL);
        f->parry = next_u32(r) % 8u == 0 ? 1 + (int32_t)(next_u32(r) % 4u) : 0;
        f->attacks = next_u32(r) % 6u != 0;
    }
    return sc;
}

/* One event or the end state of an entity, as text naming fighters by their index in the scene
 * (the user tag) and numbers by their bits. */
typedef struct lines {
    char (*line)[160];
    int32_t count, cap;
} lines;

static void add_line(lines *l, const char *s) {
    if (l->count == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->line = realloc(l->line, (size_t)l->cap * sizeof *l->line);
    }
    snprintf(l->line[l->count++], sizeof *l->line, "%s", s);
}

static uint32_t bits(float v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static long tag(const clv_arena *a, clv_entity_id id) {
    clv_entity_info e;
    return clv_arena_entity(a, id, &e) == CLV_HIT_OK ? (long)e.user : -1L;
}

static void record_frame(const clv_arena *a, const clv_entity_id *by_attack_owner, lines *out) {
    char s[160];
    int32_t n = 0;
    const clv_hit_event *h = clv_arena_hits(a, &n);
    for (int32_t i = 0; i < n; i++) {
        snprintf(s, sizeof s, "%" PRId64 " hit %ld>%ld box%d dmg%08x lag%d fl%u pt%08x,%08x t%08x",
                 h[i].frame, tag(a, h[i].attacker), tag(a, h[i].target), (int)h[i].hitbox,
                 bits(h[i].damage), (int)h[i].hitlag, (unsigned)h[i].flags, bits(h[i].point.x),
                 bits(h[i].point.y), bits(h[i].sweep_t));
        add_line(out, s);
    }
    const clv_miss_record *m = clv_arena_misses(a, &n);
    for (int32_t i = 0; i < n; i++) {
        snprintf(s, sizeof s, "%" PRId64 " miss %ld>%ld box%d why%d d%08x", m[i].frame,
                 tag(a, by_attack_owner[m[i].attack.index1]), tag(a, m[i].target), (int)m[i].hitbox,
                 (int)m[i].reason, bits(m[i].distance));
        add_line(out, s);
    }
    const clv_clash_event *c = clv_arena_clashes(a, &n);
    for (int32_t i = 0; i < n; i++) {
        snprintf(s, sizeof s,
                 "%" PRId64 " clash k%d w%d %ld/%ld box%d/%d st%d/%d pt%08x,%08x t%08x", c[i].frame,
                 (int)c[i].kind, (int)c[i].winner, tag(a, c[i].owner[0]), tag(a, c[i].owner[1]),
                 (int)c[i].hitbox[0], (int)c[i].hitbox[1], (int)c[i].stun[0], (int)c[i].stun[1],
                 bits(c[i].point.x), bits(c[i].point.y), bits(c[i].sweep_t));
        add_line(out, s);
    }
}

static void record_end(const clv_arena *a, const clv_entity_id *ids, int32_t n, lines *out) {
    for (int32_t i = 0; i < n; i++) {
        clv_entity_info e;
        CHECK(clv_arena_entity(a, ids[i], &e) == CLV_HIT_OK);
        char s[160];
        snprintf(s, sizeof s, "end %d hp%08x lag%d stun%d state%d", (int)i, bits(e.hp),
                 (int)e.hitlag, (int)e.hitstun, (int)e.state);
        add_line(out, s);
    }
}

static int cmp_line(const void *x, const void *y) { return strcmp(x, y); }

static uint64_t g_last_hash; /* the arena hash at the end of the last run_scene */

typedef struct order {
    int32_t spawn[MAX_FIGHTERS]; /* fighters in spawn order */
    int32_t start[MAX_FIGHTERS]; /* fighters in attack start order */
    int32_t holes;               /* entities spawned first and removed: the slots shift */
} order;

/* Runs the scene with the weapons pool[] (added to the arena in that order) and returns every
 * event sorted, then the end state by fighter; counts[kind] adds up the clashes seen. */
static void run_scene(clv_weapon *const *pool, const scene *sc, const order *o, lines *out,
                      int32_t *counts) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_weapon_id wid[POOL];
    for (int i = 0; i < POOL; i++) {
        CHECK(clv_arena_add_weapon(a, pool[i], &wid[i], NULL) == CLV_HIT_OK);
    }
    clv_entity_id filler[MAX_FIGHTERS], ids[MAX_FIGHTERS];
    clv_entity_id by_attack_owner[MAX_FIGHTERS + 1];
    memset(by_attack_owner, 0, sizeof by_attack_owner);
    for (int32_t k = 0; k < o->holes; k++) {
        clv_entity_def e = clv_default_entity_def();
        CHECK(clv_arena_spawn(a, &e, &filler[k], NULL) == CLV_HIT_OK);
    }
    for (int32_t k = 0; k < sc->n; k++) {
        const fighter *f = &sc->f[o->spawn[k]];
        clv_entity_def e = clv_default_entity_def();
        e.position = f->pos;
        e.team = f->team;
        e.user = (uint64_t)o->spawn[k];
        CHECK(clv_arena_spawn(a, &e, &ids[o->spawn[k]], NULL) == CLV_HIT_OK);
        if (f->parry > 0) {
            CHECK(clv_arena_set_state(a, ids[o->spawn[k]], CLV_HURT_PARRY, f->parry) == 0);
        }
    }
    for (int32_t k = 0; k < o->holes; k++) {
        CHECK(clv_arena_remove(a, filler[k]) == CLV_HIT_OK);
    }
    for (int32_t k = 0; k < sc->n; k++) {
        const fighter *f = &sc->f[o->start[k]];
        if (!f->attacks) {
            continue;
        }
        clv_attack_start_def s = clv_default_attack_start_def();
        s.weapon = wid[f->weapon];
        s.owner = ids[o->start[k]];
        s.facing = f->facing;
        clv_attack_id at;
        CHECK(clv_arena_start_attack(a, &s, &at, NULL) == CLV_HIT_OK);
        by_attack_owner[at.index1] = s.owner;
    }
    for (int32_t fr = 0; fr < SCENE_FRAMES; fr++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        int32_t n = 0;
        const clv_clash_event *c = clv_arena_clashes(a, &n);
        for (int32_t i = 0; i < n; i++) {
            counts[c[i].kind]++;
        }
        record_frame(a, by_attack_owner, out);
    }
    if (out->count > 1) {
        qsort(out->line, (size_t)out->count, sizeof *out->line, cmp_line);
    }
    record_end(a, ids, sc->n, out);
    g_last_hash = clv_arena_hash(a);
    clv_arena_destroy(a);
}

static void shuffle(rng *r, int32_t *v, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        v[i] = i;
    }
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)(next_u32(r) % (uint32_t)(i + 1));
        int32_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

static bool same_lines(const lines *x, const lines *y) {
    if (x->count != y->count) {
        return false;
    }
    for (int32_t i = 0; i < x->count; i++) {
        if (strcmp(x->line[i], y->line[i]) != 0) {
            fprintf(stderr, "  %s\n  %s\n", x->line[i], y->line[i]);
            return false;
        }
    }
    return true;
}

/* 1,000 random two-sided scenes, each run in spawn and start order, then with both orders
 * shuffled and the slots shifted by removed entities: the same events and end states. Every
 * kind of meeting and parry occurs. */
static void test_meeting_outcome_ignores_order(void) {
    rng r = {20261125u};
    int32_t counts[7] = {0}, other[7] = {0}, differ = 0, events = 0;
    for (int32_t round = 0; round < 10; round++) {
        clv_weapon *pool[POOL];
        for (int i = 0; i < POOL; i++) {
            pool[i] = random_weapon(&r);
        }
        for (int32_t k = 0; k < 100; k++) {
            scene sc = random_scene(&r);
            order o1, o2;
            memset(&o1, 0, sizeof o1);
            for (int32_t i = 0; i < sc.n; i++) {
                o1.spawn[i] = o1.start[i] = i;
            }
            shuffle(&r, o2.spawn, sc.n);
            shuffle(&r, o2.start, sc.n);
            o2.holes = 1 + (int32_t)(next_u32(&r) % 3u);
            lines l1 = {NULL, 0, 0}, l2 = {NULL, 0, 0};
            run_scene(pool, &sc, &o1, &l1, counts);
            run_scene(pool, &sc, &o2, &l2, other);
            if (!same_lines(&l1, &l2)) {
                differ++;
            }
            events += l1.count - sc.n;
            free(l1.line);
            free(l2.line);
        }
        for (int i = 0; i < POOL; i++) {
            clv_weapon_destroy(pool[i]);
        }
    }
    CHECK(differ == 0);
    CHECK(memcmp(counts, other, sizeof counts) == 0);
    for (int k = 0; k < 5; k++) {
        CHECK(counts[k] >= 10);
    }
    printf("1000 scenes: %d events; clank %d, outprioritize %d, transcended %d, traded %d, "
           "parry %d\n",
           (int)events, (int)counts[0], (int)counts[1], (int)counts[2], (int)counts[3],
           (int)counts[4]);
}

static void test_meeting_fields_checked(void) {
    clv_hitbox_def d = clv_default_hitbox_def();
    snprintf(d.id, sizeof d.id, "blade");
    CHECK(d.clash == CLV_CLASH_NORMAL && d.parry_stun == CLV_FRAMES_AUTO);
    clv_hit_diag diag;
    d.clash = (clv_clash_rule)3;
    CHECK(clv_hitbox_def_check(&d, &diag) == CLV_HIT_ERR_ENUM);
    CHECK(strcmp(diag.field, "clash") == 0);
    d.clash = CLV_CLASH_TRADE;
    d.parry_stun = 3601;
    CHECK(clv_hitbox_def_check(&d, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "parry_stun") == 0);
    clv_attack_def at = clv_default_attack_def();
    snprintf(at.name, sizeof at.name, "swing");
    CHECK(at.rebound == CLV_FRAMES_AUTO);
    at.rebound = -2;
    CHECK(clv_attack_def_check(&at, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "rebound") == 0);
    clv_arena_def ad = clv_default_arena_def();
    CHECK(ad.clank_range == 9.0f && ad.parry_stun == 20);
    ad.clank_range = -1.0f;
    CHECK(clv_arena_create(&ad, &diag) == NULL);
    CHECK(strcmp(diag.field, "clank_range") == 0);
    ad.clank_range = 0.0f;
    ad.parry_stun = 3601;
    CHECK(clv_arena_create(&ad, &diag) == NULL);
    CHECK(strcmp(diag.field, "parry_stun") == 0);
    CHECK(strcmp(clv_miss_reason_name(CLV_MISS_OUTPRIORITIZED), "outprioritized") == 0);
}

/* --hashes: every scene's sorted events and end states, and the arena hash it ends with, as a
 * 64-bit digest a line; a -O0 and a -O2 build must print the same (runtime/hit/CMakeLists.txt). */
static void print_hashes(void) {
    rng r = {20261125u};
    int32_t counts[7] = {0};
    for (int32_t round = 0; round < 10; round++) {
        clv_weapon *pool[POOL];
        for (int i = 0; i < POOL; i++) {
            pool[i] = random_weapon(&r);
        }
        for (int32_t k = 0; k < 100; k++) {
            scene sc = random_scene(&r);
            order o;
            memset(&o, 0, sizeof o);
            for (int32_t i = 0; i < sc.n; i++) {
                o.spawn[i] = o.start[i] = i;
            }
            lines l = {NULL, 0, 0};
            run_scene(pool, &sc, &o, &l, counts);
            uint64_t h = 0xcbf29ce484222325u;
            for (int32_t i = 0; i < l.count; i++) {
                for (const char *c = l.line[i]; *c != '\0'; c++) {
                    h = (h ^ (unsigned char)*c) * 0x100000001b3u;
                }
            }
            printf("%016" PRIx64 " %016" PRIx64 "\n", h, g_last_hash);
            free(l.line);
        }
        for (int i = 0; i < POOL; i++) {
            clv_weapon_destroy(pool[i]);
        }
    }
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--hashes") == 0) {
        print_hashes();
        return 0;
    }
    clv_test_init(argc, argv);
    RUN(test_clank_within_range);
    RUN(test_outprioritize_beyond_range);
    RUN(test_transcend_passes_through);
    RUN(test_trade_hits_both);
    RUN(test_mutual_hits_trade_any_order);
    RUN(test_parry_stuns_attacker);
    RUN(test_swept_blades_meet);
    RUN(test_meeting_outcome_ignores_order);
    RUN(test_meeting_fields_checked);
    return clv_test_report();
}
