/* Determinism: one busy scenario (three weapons, six attackers, 300 moving enemies with
 * removals, respawns, state changes and effects) must give the same hash after every frame:
 * - twice in one process, with a snapshot/restore in the middle, and with the grid
 *   broadphase instead of the scan (this test);
 * - in a -O0 and a -O2 build (the same file built twice; `--hashes` prints the sequence and a
 *   CTest script compares the two outputs).
 * A second scenario, printed after the first, has bodies that defend: animated hurtboxes with
 * intangible and armor frames, guards that turn and break, heavy armor, grabs and throws,
 * airborne targets and smash knockback. A third, the volley, has two sides throwing knives and
 * spinning axes (gravity, pierce, loops) through each other's swings: clanks, outprioritizing,
 * trades, transcendence, reflection, absorption and parries. */
#include "cleave/body.h"
#include "cleave/hit.h"
#include "harness.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 300
#define ENEMIES 300
#define ATTACKERS 6

typedef struct rng {
    uint32_t s;
} rng;

static uint32_t next_u32(rng *r) {
    r->s = r->s * 1664525u + 1013904223u;
    return r->s >> 8;
}

/* A float in [lo, hi) made from integers only: the same bits on every build. */
static float uniform(rng *r, float lo, float hi) {
    float u = (float)(next_u32(r) & 0xffffu) / 65536.0f;
    return lo + (hi - lo) * u;
}

/* x is drawn before y: two draws as arguments of one call would run in an order the compiler
 * picks (gcc and clang differ), and the scenario would not be the same program. */
static clv_vec2 uniform_v2(rng *r, float lo_x, float hi_x, float lo_y, float hi_y) {
    float x = uniform(r, lo_x, hi_x);
    float y = uniform(r, lo_y, hi_y);
    return clv_v2(x, y);
}

static clv_hitbox_def hb(const char *id, clv_shape shape, float damage) {
    clv_hitbox_def d = clv_default_hitbox_def();
    snprintf(d.id, sizeof d.id, "%s", id);
    d.shape = shape;
    d.damage = damage;
    return d;
}

static clv_weapon *build_sword(void) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def a = clv_default_attack_def();
    snprintf(a.name, sizeof a.name, "swing");
    a.frames = 18;
    a.lockout = 3;
    clv_weapon_add_attack(w, &a, NULL, NULL);
    clv_hitbox_def blade = hb("blade", clv_shape_capsule(20, 0, 55, 0, 7), 12);
    blade.knockback.kind = CLV_KNOCKBACK_SCALING;
    blade.knockback.angle = -0.6f;
    blade.knockback.base = 2;
    blade.knockback.growth = 0.3f;
    blade.effect_count = 1;
    blade.effects[0] = clv_default_effect_def();
    snprintf(blade.effects[0].name, sizeof blade.effects[0].name, "bleed");
    blade.effects[0].duration = 40;
    blade.effects[0].period = 8;
    clv_hitbox_def handle = hb("handle", clv_shape_capsule(0, 0, 20, 0, 6), 4);
    handle.knockback.kind = CLV_KNOCKBACK_FIXED;
    handle.knockback.vector = clv_v2(3, 1);
    clv_hitbox_def pommel = hb("pommel", clv_shape_circle(-6, 2, 5), 2);
    pommel.group = 1;
    pommel.priority = 2;
    clv_weapon_add_hitbox(w, 0, 3, 12, &blade, NULL);
    clv_weapon_add_hitbox(w, 0, 3, 12, &handle, NULL);
    clv_weapon_add_hitbox(w, 0, 8, 15, &pommel, NULL);
    /* A generated arc: one capsule per frame turned about a pivot beside the wielder (each frame
     * by the 7-24-25 rotation, so the bits need no sin or cos), swept frame to frame. */
    float ux = 0.6f, uy = -0.8f;
    for (int f = 2; f < 15; f++) {
        clv_hitbox_def edge =
            hb("edge", clv_shape_capsule(4 + 25 * ux, 2 + 25 * uy, 4 + 62 * ux, 2 + 62 * uy, 3), 6);
        edge.group = 2;
        edge.hitlag = 2;
        clv_weapon_add_hitbox(w, 0, f, f, &edge, NULL);
        float nx = 0.96f * ux - 0.28f * uy, ny = 0.28f * ux + 0.96f * uy;
        ux = nx;
        uy = ny;
    }
    snprintf(a.name, sizeof a.name, "thrust");
    a.frames = 14;
    a.max_targets = 3;
    clv_weapon_add_attack(w, &a, NULL, NULL);
    clv_hitbox_def tip = hb("tip", clv_shape_capsule(10, 0, 70, 0, 5), 9);
    tip.max_hits = 2;
    tip.knockback_ignores_hit_count = true;
    tip.knockback.kind = CLV_KNOCKBACK_RADIAL;
    tip.knockback.base = 4;
    clv_weapon_add_hitbox(w, 1, 4, 9, &tip, NULL);
    return w;
}

static clv_weapon *build_hammer(void) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def a = clv_default_attack_def();
    snprintf(a.name, sizeof a.name, "slam");
    a.frames = 24;
    a.rehit = 6;
    clv_weapon_add_attack(w, &a, NULL, NULL);
    clv_hitbox_def head = hb("head", clv_shape_obb(40, 0, 12, 9, 0.3f), 18);
    head.hitlag_scale = 1.5f;
    head.knockback.kind = CLV_KNOCKBACK_SCALING;
    head.knockback.angle = 1.2f;
    head.knockback.base = 1;
    head.knockback.growth = 0.25f;
    clv_hitbox_def shock = hb("shock", clv_shape_circle(40, 0, 30), 3);
    shock.group = CLV_GROUP_NONE;
    shock.knockback.kind = CLV_KNOCKBACK_RADIAL;
    shock.knockback.base = 5;
    shock.hitstun = 4;
    shock.max_hits = 4;
    clv_weapon_add_hitbox(w, 0, 6, 20, &head, NULL);
    clv_weapon_add_hitbox(w, 0, 10, 22, &shock, NULL);
    return w;
}

static clv_weapon *build_aura(void) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def a = clv_default_attack_def();
    snprintf(a.name, sizeof a.name, "pulse");
    a.frames = 40;
    a.rehit = 10;
    clv_weapon_add_attack(w, &a, NULL, NULL);
    clv_hitbox_def ring = hb("ring", clv_shape_circle(0, 0, 45), 1.5f);
    ring.hitlag = 0;
    ring.knockback.kind = CLV_KNOCKBACK_RADIAL;
    ring.knockback.base = 1;
    ring.knockback.growth = 1;
    ring.effect_count = 1;
    ring.effects[0] = clv_default_effect_def();
    snprintf(ring.effects[0].name, sizeof ring.effects[0].name, "burn");
    ring.effects[0].duration = 30;
    ring.effects[0].period = 5;
    ring.effects[0].magnitude = 0.5f;
    clv_weapon_add_hitbox(w, 0, 0, 39, &ring, NULL);
    return w;
}

typedef struct scenario {
    clv_arena *arena;
    clv_weapon_id weapons[3];
    clv_entity_id attackers[ATTACKERS];
    clv_attack_id attacks[ATTACKERS];
    clv_entity_id enemies[ENEMIES];
    rng r;
} scenario;

static clv_entity_def enemy_def(rng *r) {
    clv_entity_def d = clv_default_entity_def();
    d.position = uniform_v2(r, -400, 400, -300, 300);
    d.velocity = uniform_v2(r, -1.5f, 1.5f, -1.5f, 1.5f);
    d.friction = uniform(r, 0.0f, 0.05f);
    d.weight = uniform(r, 0.5f, 3.0f);
    d.hp = uniform(r, 30, 120);
    d.team = 2;
    uint32_t kind = next_u32(r) % 4;
    if (kind == 0) {
        d.hurtboxes[0] = clv_shape_circle(0, 0, uniform(r, 4, 12));
    } else if (kind == 1) {
        d.hurtboxes[0] = clv_shape_capsule(0, -10, 0, 10, uniform(r, 3, 8));
    } else if (kind == 2) {
        d.hurtboxes[0] = clv_shape_aabb(-6, -12, 6, 12);
    } else {
        d.hurtbox_count = 2;
        d.hurtboxes[0] = clv_shape_obb(0, 0, 8, 4, uniform(r, 0, 3));
        d.hurtboxes[1] = clv_shape_circle(0, -10, 5);
    }
    return d;
}

static void setup(scenario *sc, int grid) {
    memset(sc, 0, sizeof *sc);
    sc->r.s = 12345u;
    clv_arena_def ad = clv_default_arena_def();
    if (grid) {
        /* smaller than the field: the enemies that leave it are filed at its border */
        ad.grid_cell_size = 48.0f;
        ad.grid_origin = clv_v2(-300.0f, -200.0f);
        ad.grid_cols = 12;
        ad.grid_rows = 9;
    }
    sc->arena = clv_arena_create(&ad, NULL);
    CHECK(sc->arena != NULL);
    clv_weapon *ws[3] = {build_sword(), build_hammer(), build_aura()};
    for (int i = 0; i < 3; i++) {
        CHECK(clv_arena_add_weapon(sc->arena, ws[i], &sc->weapons[i], NULL) == CLV_HIT_OK);
        clv_weapon_destroy(ws[i]);
    }
    for (int i = 0; i < ATTACKERS; i++) {
        clv_entity_def d = clv_default_entity_def();
        d.position = clv_v2(-250.0f + 100.0f * (float)i, (i % 2) ? 80.0f : -80.0f);
        d.velocity = clv_v2((i % 2) ? 0.7f : -0.7f, 0.3f);
        d.team = i < 3 ? 1 : 3; /* two sides: they hit each other too */
        d.hp = 500;
        CHECK(clv_arena_spawn(sc->arena, &d, &sc->attackers[i], NULL) == CLV_HIT_OK);
    }
    for (int i = 0; i < ENEMIES; i++) {
        clv_entity_def d = enemy_def(&sc->r);
        CHECK(clv_arena_spawn(sc->arena, &d, &sc->enemies[i], NULL) == CLV_HIT_OK);
    }
}

/* The inputs of frame f: everything the game would do before stepping. */
static void drive(void *state, int f) {
    scenario *sc = state;
    clv_arena *a = sc->arena;
    for (int i = 0; i < ATTACKERS; i++) {
        if (!clv_arena_attack_valid(a, sc->attacks[i])) {
            clv_attack_start_def s = clv_default_attack_start_def();
            s.weapon = sc->weapons[i % 3];
            s.attack = (i % 3 == 0) ? (f / 20) % 2 : 0;
            s.owner = sc->attackers[i];
            s.facing = 0.37f * (float)f + (float)i;
            s.mirror = ((f / 7 + i) % 2) == 1;
            CHECK(clv_arena_start_attack(a, &s, &sc->attacks[i], NULL) == CLV_HIT_OK);
        } else {
            clv_attack_info info;
            clv_arena_attack(a, sc->attacks[i], &info);
            clv_arena_set_attack_pose(a, sc->attacks[i], clv_v2(0, 0), info.facing + 0.21f,
                                      info.mirror);
        }
    }
    /* every 25 frames: the dead leave and new enemies come in the free slots */
    if (f % 25 == 24) {
        for (int i = 0; i < ENEMIES; i++) {
            clv_entity_info info;
            if (clv_arena_entity(a, sc->enemies[i], &info) == CLV_HIT_OK && !info.alive) {
                CHECK(clv_arena_remove(a, sc->enemies[i]) == CLV_HIT_OK);
                clv_entity_def d = enemy_def(&sc->r);
                CHECK(clv_arena_spawn(a, &d, &sc->enemies[i], NULL) == CLV_HIT_OK);
            }
        }
    }
    /* a few state changes: dodges (intangible) and shields (invincible) */
    uint32_t k = next_u32(&sc->r) % ENEMIES;
    clv_arena_set_state(a, sc->enemies[k], CLV_HURT_INTANGIBLE, 6);
    k = next_u32(&sc->r) % ENEMIES;
    clv_arena_set_state(a, sc->enemies[k], CLV_HURT_INVINCIBLE, 10);
    k = next_u32(&sc->r) % ENEMIES;
    clv_arena_set_velocity(a, sc->enemies[k], uniform_v2(&sc->r, -2, 2, -2, 2));
}

/* A speculative future thrown away, as rollback netcode has it: snapshots the arena, runs
 * `ahead` frames of drive on the scenario sc (size bytes; it holds the arena's pointer, which
 * stays) from frame f, then restores both the arena and sc (the input generator with it). */
static void speculate(clv_arena *arena, void *sc, size_t size, void (*drive_fn)(void *, int), int f,
                      int ahead) {
    size_t n = clv_arena_snapshot_size(arena);
    unsigned char *buf = malloc(n), *saved = malloc(size);
    CHECK(buf != NULL && saved != NULL);
    CHECK(clv_arena_snapshot(arena, buf, n, NULL) == CLV_HIT_OK);
    memcpy(saved, sc, size);
    for (int g = 0; g < ahead; g++) {
        drive_fn(sc, f + g);
        clv_arena_step(arena);
    }
    memcpy(sc, saved, size);
    CHECK(clv_arena_restore(arena, buf, n) == CLV_HIT_OK);
    free(buf);
    free(saved);
}

typedef struct trace {
    uint64_t hash[FRAMES];
    int32_t hits[FRAMES], misses[FRAMES], ticks[FRAMES];
} trace;

/* Runs the scenario; when snap_at >= 0, snapshots there, runs on, restores (rewinding the
 * input generator too) and replays, as rollback netcode would. */
static void run(trace *t, int snap_at, int grid) {
    scenario sc;
    setup(&sc, grid);
    for (int f = 0; f < FRAMES; f++) {
        if (f == snap_at) {
            speculate(sc.arena, &sc, sizeof sc, drive, f, 40);
        }
        drive(&sc, f);
        CHECK(clv_arena_step(sc.arena) == CLV_HIT_OK);
        t->hash[f] = clv_arena_hash(sc.arena);
        clv_arena_hits(sc.arena, &t->hits[f]);
        clv_arena_misses(sc.arena, &t->misses[f]);
        clv_arena_ticks(sc.arena, &t->ticks[f]);
    }
    clv_arena_destroy(sc.arena);
}

static trace first_run;

static void test_same_run_twice(void) {
    static trace again;
    run(&first_run, -1, 0);
    run(&again, -1, 0);
    CHECK(memcmp(first_run.hash, again.hash, sizeof again.hash) == 0);
    long hits = 0, misses = 0, ticks = 0;
    for (int f = 0; f < FRAMES; f++) {
        hits += first_run.hits[f];
        misses += first_run.misses[f];
        ticks += first_run.ticks[f];
    }
    /* the scenario exercises the rules: hits, refusals and effect ticks all happen */
    printf("scenario: %ld hits, %ld misses, %ld ticks over %d frames\n", hits, misses, ticks,
           FRAMES);
    CHECK(hits > 100);
    CHECK(misses > 100);
    CHECK(ticks > 50);
    int distinct = 0;
    for (int f = 1; f < FRAMES; f++) {
        distinct += first_run.hash[f] != first_run.hash[f - 1];
    }
    CHECK(distinct == FRAMES - 1);
}

static void test_rollback_replays_the_same(void) {
    static trace rolled;
    if (first_run.hash[0] == 0) {
        run(&first_run, -1, 0);
    }
    run(&rolled, 120, 0);
    CHECK(memcmp(first_run.hash, rolled.hash, sizeof rolled.hash) == 0);
    CHECK(memcmp(first_run.hits, rolled.hits, sizeof rolled.hits) == 0);
}

/* The grid broadphase finds the same pairs as the scan, so every hash is the same. */
static void test_grid_matches_scan(void) {
    static trace gridded;
    if (first_run.hash[0] == 0) {
        run(&first_run, -1, 0);
    }
    run(&gridded, -1, 1);
    CHECK(memcmp(first_run.hash, gridded.hash, sizeof gridded.hash) == 0);
    CHECK(memcmp(first_run.misses, gridded.misses, sizeof gridded.misses) == 0);
}

/* ---- the defenders: bodies, guard, armor, grabs ---- */

#define DEFENDERS 40
#define DFRAMES 240

static clv_body *build_dancer(void) {
    clv_body *b = clv_body_create("dancer", NULL, NULL);
    clv_animation_def an;
    memset(&an, 0, sizeof an);
    snprintf(an.name, sizeof an.name, "sway");
    an.frames = 16;
    an.loop = true;
    CHECK(clv_body_add_animation(b, &an, NULL, NULL) == CLV_HIT_OK);
    clv_hurtbox_def d = clv_default_hurtbox_def();
    snprintf(d.id, sizeof d.id, "core");
    d.shape = clv_shape_capsule(0, -10, 0, 10, 7);
    CHECK(clv_body_add_hurtbox(b, 0, 0, 15, &d, NULL) == CLV_HIT_OK);
    snprintf(d.id, sizeof d.id, "arm");
    d.shape = clv_shape_circle(16, -4, 5);
    CHECK(clv_body_add_hurtbox(b, 0, 2, 5, &d, NULL) == CLV_HIT_OK);
    d.state = CLV_HURTBOX_INTANGIBLE;
    CHECK(clv_body_add_hurtbox(b, 0, 6, 9, &d, NULL) == CLV_HIT_OK);
    d.state = CLV_HURTBOX_ARMOR;
    d.heavy = 2.5f;
    d.shape = clv_shape_obb(14, 6, 6, 3, 0.4f);
    CHECK(clv_body_add_hurtbox(b, 0, 10, 13, &d, NULL) == CLV_HIT_OK);
    clv_guard_def g = clv_default_guard_def();
    g.meter = 30.0f;
    g.regen = 0.25f;
    g.guard_break = 40;
    CHECK(clv_body_set_guard(b, &g, NULL) == CLV_HIT_OK);
    return b;
}

/* A grab (one frame) and a smash swing with chip and shield damage. */
static clv_weapon *build_brawler(void) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def a = clv_default_attack_def();
    snprintf(a.name, sizeof a.name, "grab");
    a.frames = 3;
    CHECK(clv_weapon_add_attack(w, &a, NULL, NULL) == CLV_HIT_OK);
    snprintf(a.name, sizeof a.name, "smash");
    a.frames = 10;
    CHECK(clv_weapon_add_attack(w, &a, NULL, NULL) == CLV_HIT_OK);
    clv_hitbox_def h = hb("hand", clv_shape_circle(20, 0, 9), 2);
    h.kind = CLV_HITBOX_GRAB;
    CHECK(clv_weapon_add_hitbox(w, 0, 1, 1, &h, NULL) == CLV_HIT_OK);
    h = hb("fist", clv_shape_capsule(5, 0, 30, 0, 6), 9);
    h.knockback.kind = CLV_KNOCKBACK_SMASH;
    h.knockback.base = 20;
    h.knockback.growth = 80;
    h.knockback.sakurai = true;
    h.chip = 0.2f;
    h.shield_damage = 3;
    h.facing_restrict = CLV_FACING_AWAY;
    CHECK(clv_weapon_add_hitbox(w, 1, 3, 6, &h, NULL) == CLV_HIT_OK);
    return w;
}

typedef struct defenders {
    clv_arena *arena;
    clv_weapon_id brawler;
    clv_body_id dancer;
    clv_entity_id fighters[DEFENDERS];
    clv_attack_id attacks[DEFENDERS];
    rng r;
} defenders;

static void defenders_setup(defenders *sc) {
    memset(sc, 0, sizeof *sc);
    sc->r.s = 777u;
    sc->arena = clv_arena_create(NULL, NULL);
    clv_weapon *w = build_brawler();
    CHECK(clv_arena_add_weapon(sc->arena, w, &sc->brawler, NULL) == CLV_HIT_OK);
    clv_weapon_destroy(w);
    clv_body *b = build_dancer();
    CHECK(clv_arena_add_body(sc->arena, b, &sc->dancer, NULL) == CLV_HIT_OK);
    clv_body_destroy(b);
    for (int i = 0; i < DEFENDERS; i++) {
        clv_entity_def d = clv_default_entity_def();
        d.position = uniform_v2(&sc->r, -150, 150, -100, 100);
        d.team = i % 2;
        d.hp = 1000;
        d.weight = uniform(&sc->r, 0.6f, 1.6f);
        d.friction = 0.2f;
        CHECK(clv_arena_spawn(sc->arena, &d, &sc->fighters[i], NULL) == CLV_HIT_OK);
        if (i % 4 != 3) { /* a quarter keep their own hurtbox */
            CHECK(clv_arena_play(sc->arena, sc->fighters[i], sc->dancer, 0) == CLV_HIT_OK);
        }
    }
}

static void defenders_drive(void *state, int f) {
    defenders *sc = state;
    clv_arena *a = sc->arena;
    for (int i = 0; i < DEFENDERS; i++) {
        clv_entity_id e = sc->fighters[i];
        uint32_t roll = next_u32(&sc->r) % 16;
        clv_arena_set_facing(a, e, uniform(&sc->r, -3.2f, 3.2f), (roll & 1) != 0);
        if (roll == 2) {
            clv_arena_set_state(a, e, CLV_HURT_GUARD, 12);
        } else if (roll == 3) {
            clv_arena_set_airborne(a, e, (f / 5 + i) % 3 == 0);
        } else if (roll == 4) {
            clv_arena_set_armor(a, e, CLV_ARMOR_HEAVY, 2.0f);
        } else if (roll == 5) {
            clv_arena_release(a, e);
        }
        if (clv_arena_attack_valid(a, sc->attacks[i])) {
            continue;
        }
        clv_attack_start_def s = clv_default_attack_start_def();
        s.weapon = sc->brawler;
        s.owner = e;
        s.facing = uniform(&sc->r, -3.2f, 3.2f);
        clv_entity_body_info bi;
        clv_arena_entity_body(a, e, &bi);
        s.attack = 1;
        if (bi.holding.index1 != 0) {
            clv_arena_throw(a, &s, &sc->attacks[i], NULL);
        } else {
            s.attack = roll < 6 ? 0 : 1;
            clv_arena_start_attack(a, &s, &sc->attacks[i], NULL);
        }
    }
}

/* How often each defending rule happened in the last run_defenders: hit flags, then misses. */
static long flag_count[8], reason_count[CLV_MISS_REASON_COUNT];

static void count_rules(const clv_arena *a) {
    int32_t n = 0;
    const clv_hit_event *h = clv_arena_hits(a, &n);
    for (int32_t i = 0; i < n; i++) {
        for (int b = 0; b < 8; b++) {
            flag_count[b] += (h[i].flags >> b) & 1u;
        }
    }
    const clv_miss_record *m = clv_arena_misses(a, &n);
    for (int32_t i = 0; i < n; i++) {
        reason_count[m[i].reason]++;
    }
}

static void run_defenders(trace *t, int snap_at) {
    memset(flag_count, 0, sizeof flag_count);
    memset(reason_count, 0, sizeof reason_count);
    defenders sc;
    defenders_setup(&sc);
    for (int f = 0; f < DFRAMES; f++) {
        if (f == snap_at) {
            speculate(sc.arena, &sc, sizeof sc, defenders_drive, f, 30);
        }
        defenders_drive(&sc, f);
        CHECK(clv_arena_step(sc.arena) == CLV_HIT_OK);
        count_rules(sc.arena);
        t->hash[f] = clv_arena_hash(sc.arena);
        clv_arena_hits(sc.arena, &t->hits[f]);
        clv_arena_misses(sc.arena, &t->misses[f]);
        clv_arena_ticks(sc.arena, &t->ticks[f]);
    }
    clv_arena_destroy(sc.arena);
}

/* The defenders' rules all happen, the run repeats, and a rollback replays it. */
static void test_defenders(void) {
    static trace one, two, rolled;
    run_defenders(&one, -1);
    run_defenders(&two, -1);
    run_defenders(&rolled, 100);
    CHECK(memcmp(one.hash, two.hash, sizeof(uint64_t) * DFRAMES) == 0);
    CHECK(memcmp(one.hash, rolled.hash, sizeof(uint64_t) * DFRAMES) == 0);
    long hits = 0, misses = 0;
    for (int f = 0; f < DFRAMES; f++) {
        hits += one.hits[f];
        misses += one.misses[f];
    }
    printf("defenders: %ld hits, %ld misses over %d frames; blocked %ld, armor %ld, grab %ld, "
           "guard break %ld; misses intangible %ld, airborne %ld, interrupted %ld, not thrown "
           "%ld\n",
           hits, misses, DFRAMES, flag_count[4], flag_count[5], flag_count[6], flag_count[7],
           reason_count[CLV_MISS_INTANGIBLE], reason_count[CLV_MISS_AIRBORNE],
           reason_count[CLV_MISS_INTERRUPTED], reason_count[CLV_MISS_NOT_THROWN]);
    CHECK(hits > 50 && misses > 20);
    for (int b = 4; b < 8; b++) {
        CHECK(flag_count[b] > 0);
    }
    CHECK(reason_count[CLV_MISS_INTANGIBLE] > 0 && reason_count[CLV_MISS_AIRBORNE] > 0);
}

/* ---- the volley: projectiles and attacks that meet ---- */

#define SIDE 16
#define VFRAMES 200
#define VTHROWN 48

/* A knife (one box, straight), an axe (two boxes turning by frame) and four swings: a bat that
 * reflects, a greatsword, a trading club and a transcendent whip, and a shield that absorbs. */
static clv_weapon *build_volley(void) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    const char *names[6] = {"knife", "axe", "bat", "greatsword", "club", "shield"};
    const int32_t frames[6] = {4, 4, 14, 16, 12, 10};
    for (int i = 0; i < 6; i++) {
        clv_attack_def a = clv_default_attack_def();
        snprintf(a.name, sizeof a.name, "%s", names[i]);
        a.frames = frames[i];
        a.rehit = i == 1 ? 3 : 0;
        CHECK(clv_weapon_add_attack(w, &a, NULL, NULL) == CLV_HIT_OK);
    }
    clv_hitbox_def h = hb("edge", clv_shape_capsule(-4, 0, 4, 0, 1.5f), 4);
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 3, &h, NULL) == CLV_HIT_OK);
    for (int f = 0; f < 4; f++) {
        float c = f % 2 == 0 ? 1.0f : 0.0f, sn = f % 2 == 0 ? 0.0f : 1.0f;
        h = hb("blade", clv_shape_capsule(-9 * c, -9 * sn, 9 * c, 9 * sn, 3), 7);
        CHECK(clv_weapon_add_hitbox(w, 1, f, f, &h, NULL) == CLV_HIT_OK);
    }
    h = hb("haft", clv_shape_circle(0, 0, 2), 2); /* the same box while the blade turns */
    CHECK(clv_weapon_add_hitbox(w, 1, 0, 3, &h, NULL) == CLV_HIT_OK);
    h = hb("barrel", clv_shape_capsule(10, 0, 40, 0, 6), 3);
    h.kind = CLV_HITBOX_REFLECT;
    h.reflect_speed = 1.25f;
    h.reflect_damage = 1.5f;
    CHECK(clv_weapon_add_hitbox(w, 2, 2, 10, &h, NULL) == CLV_HIT_OK);
    h = hb("great", clv_shape_capsule(15, 0, 70, 0, 8), 22);
    CHECK(clv_weapon_add_hitbox(w, 3, 4, 12, &h, NULL) == CLV_HIT_OK);
    h = hb("club", clv_shape_capsule(10, 0, 45, 0, 7), 9);
    h.clash = CLV_CLASH_TRADE;
    CHECK(clv_weapon_add_hitbox(w, 4, 2, 9, &h, NULL) == CLV_HIT_OK);
    h = hb("whip", clv_shape_capsule(10, 0, 80, 0, 3), 5);
    h.clash = CLV_CLASH_TRANSCEND;
    CHECK(clv_weapon_add_hitbox(w, 4, 6, 11, &h, NULL) == CLV_HIT_OK);
    h = hb("boss", clv_shape_circle(18, 0, 14), 1);
    h.kind = CLV_HITBOX_ABSORB;
    CHECK(clv_weapon_add_hitbox(w, 5, 1, 8, &h, NULL) == CLV_HIT_OK);
    return w;
}

typedef struct volley {
    clv_arena *arena;
    clv_weapon_id weapon;
    clv_entity_id fighters[2 * SIDE];
    clv_attack_id swings[2 * SIDE], thrown[VTHROWN];
    rng r;
} volley;

static void volley_setup(volley *sc, int grid) {
    memset(sc, 0, sizeof *sc);
    sc->r.s = 4242u;
    clv_arena_def ad = clv_default_arena_def();
    if (grid) {
        ad.grid_cell_size = 32.0f;
        ad.grid_origin = clv_v2(-240.0f, -160.0f);
        ad.grid_cols = 15;
        ad.grid_rows = 10;
    }
    sc->arena = clv_arena_create(&ad, NULL);
    CHECK(sc->arena != NULL);
    clv_weapon *w = build_volley();
    CHECK(clv_arena_add_weapon(sc->arena, w, &sc->weapon, NULL) == CLV_HIT_OK);
    clv_weapon_destroy(w);
    for (int i = 0; i < 2 * SIDE; i++) {
        clv_entity_def d = clv_default_entity_def();
        float x = uniform(&sc->r, 20, 200);
        float y = uniform(&sc->r, -140, 140);
        d.position = clv_v2(i < SIDE ? -x : x, y);
        d.velocity = uniform_v2(&sc->r, -0.5f, 0.5f, -0.5f, 0.5f);
        d.team = i < SIDE ? 1 : 2;
        d.hp = 400;
        d.hurtboxes[0] = clv_shape_circle(0, 0, uniform(&sc->r, 0.5f, 12.0f));
        CHECK(clv_arena_spawn(sc->arena, &d, &sc->fighters[i], NULL) == CLV_HIT_OK);
    }
}

/* A projectile from a random fighter towards the other side: knives fast and straight, axes
 * slower, turning, falling and piercing. */
static void volley_throw(volley *sc, int k) {
    clv_projectile_def p = clv_default_projectile_def();
    uint32_t who = next_u32(&sc->r) % (2 * SIDE), kind = next_u32(&sc->r) % 4;
    clv_entity_info e;
    if (clv_arena_entity(sc->arena, sc->fighters[who], &e) != CLV_HIT_OK || !e.alive) {
        return;
    }
    float dir = who < SIDE ? 1.0f : -1.0f, speed = uniform(&sc->r, 4, kind == 0 ? 60 : 12);
    p.weapon = sc->weapon;
    p.attack = kind == 3 ? 1 : 0;
    p.owner = sc->fighters[who];
    p.position = e.position;
    p.velocity = clv_v2(dir * speed, uniform(&sc->r, -2, 2));
    p.facing = kind == 1 ? uniform(&sc->r, -0.5f, 0.5f) : 0.0f;
    p.mirror = kind == 2;
    p.lifetime = 20 + (int32_t)(next_u32(&sc->r) % 40);
    p.loop = true;
    p.pierce = (int32_t)(kind % 3);
    p.gravity = kind == 3 ? 0.15f : 0.0f;
    p.destroy_on_clank = kind != 2;
    p.reflectable = kind != 1;
    CHECK(clv_arena_spawn_projectile(sc->arena, &p, &sc->thrown[k], NULL) == CLV_HIT_OK);
}

static void volley_drive(void *state, int f) {
    volley *sc = state;
    clv_arena *a = sc->arena;
    for (int k = 0; k < VTHROWN; k++) {
        if (!clv_arena_attack_valid(a, sc->thrown[k]) && next_u32(&sc->r) % 3 == 0) {
            volley_throw(sc, k);
        }
    }
    for (int i = 0; i < 2 * SIDE; i++) {
        clv_entity_id e = sc->fighters[i];
        uint32_t roll = next_u32(&sc->r) % 24;
        if (roll == 0) {
            clv_arena_set_state(a, e, CLV_HURT_PARRY, 4);
        }
        if (clv_arena_attack_valid(a, sc->swings[i])) {
            clv_attack_info info;
            clv_arena_attack(a, sc->swings[i], &info);
            clv_arena_set_attack_pose(a, sc->swings[i], clv_v2(0, 0), info.facing + 0.3f,
                                      info.mirror);
            continue;
        }
        clv_attack_start_def s = clv_default_attack_start_def();
        s.weapon = sc->weapon;
        s.owner = e;
        s.attack = 2 + (int32_t)(roll % 4);
        s.facing = (i < SIDE ? 0.0f : 3.14159f) + uniform(&sc->r, -1.2f, 1.2f);
        s.mirror = (f + i) % 3 == 0;
        clv_arena_start_attack(a, &s, &sc->swings[i], NULL);
    }
}

typedef struct vtrace {
    uint64_t hash[VFRAMES];
    int32_t hits[VFRAMES], misses[VFRAMES], clashes[VFRAMES], pevents[VFRAMES];
} vtrace;

static void run_volley(vtrace *t, int snap_at, int grid) {
    volley sc;
    volley_setup(&sc, grid);
    for (int f = 0; f < VFRAMES; f++) {
        if (f == snap_at) {
            speculate(sc.arena, &sc, sizeof sc, volley_drive, f, 30);
        }
        volley_drive(&sc, f);
        CHECK(clv_arena_step(sc.arena) == CLV_HIT_OK);
        t->hash[f] = clv_arena_hash(sc.arena);
        clv_arena_hits(sc.arena, &t->hits[f]);
        clv_arena_misses(sc.arena, &t->misses[f]);
        clv_arena_clashes(sc.arena, &t->clashes[f]);
        clv_arena_projectile_events(sc.arena, &t->pevents[f]);
    }
    clv_arena_destroy(sc.arena);
}

/* How many clashes of each kind one run of the volley has. */
static void volley_kinds(int grid, long kinds[7]) {
    volley sc;
    volley_setup(&sc, grid);
    for (int f = 0; f < VFRAMES; f++) {
        volley_drive(&sc, f);
        CHECK(clv_arena_step(sc.arena) == CLV_HIT_OK);
        int32_t n = 0;
        const clv_clash_event *c = clv_arena_clashes(sc.arena, &n);
        for (int32_t i = 0; i < n; i++) {
            kinds[c[i].kind]++;
        }
    }
    clv_arena_destroy(sc.arena);
}

/* The volley repeats, a rollback replays it, the grid finds what the scan finds, and every kind
 * of meeting happens in it. */
static void test_volley(void) {
    static vtrace one, two, rolled, gridded;
    run_volley(&one, -1, 0);
    run_volley(&two, -1, 0);
    run_volley(&rolled, 90, 0);
    run_volley(&gridded, -1, 1);
    CHECK(memcmp(&one, &two, sizeof one) == 0);
    CHECK(memcmp(&one, &rolled, sizeof one) == 0);
    CHECK(memcmp(&one, &gridded, sizeof one) == 0);
    long kinds[7] = {0}, hits = 0, clashes = 0, pevents = 0;
    volley_kinds(0, kinds);
    for (int f = 0; f < VFRAMES; f++) {
        hits += one.hits[f];
        clashes += one.clashes[f];
        pevents += one.pevents[f];
    }
    printf("volley: %ld hits, %ld clashes, %ld projectile events over %d frames; clank %ld, "
           "outprioritize %ld, transcend %ld, trade %ld, parry %ld, reflect %ld, absorb %ld\n",
           hits, clashes, pevents, VFRAMES, kinds[0], kinds[1], kinds[2], kinds[3], kinds[4],
           kinds[5], kinds[6]);
    CHECK(hits > 50);
    for (int k = 0; k < 7; k++) {
        CHECK(kinds[k] > 0);
    }
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--hashes") == 0) {
        static trace t;
        run(&t, -1, 0);
        for (int f = 0; f < FRAMES; f++) {
            printf("%d %016" PRIx64 " %d %d %d\n", f + 1, t.hash[f], (int)t.hits[f],
                   (int)t.misses[f], (int)t.ticks[f]);
        }
        run_defenders(&t, -1);
        for (int f = 0; f < DFRAMES; f++) {
            printf("d%d %016" PRIx64 " %d %d\n", f + 1, t.hash[f], (int)t.hits[f],
                   (int)t.misses[f]);
        }
        static vtrace v;
        run_volley(&v, -1, 0);
        for (int f = 0; f < VFRAMES; f++) {
            printf("v%d %016" PRIx64 " %d %d %d %d\n", f + 1, v.hash[f], (int)v.hits[f],
                   (int)v.misses[f], (int)v.clashes[f], (int)v.pevents[f]);
        }
        return 0; /* the hashes are the output: another program compares them */
    }
    clv_test_init(argc, argv);
    RUN(test_same_run_twice);
    RUN(test_rollback_replays_the_same);
    RUN(test_grid_matches_scan);
    RUN(test_defenders);
    RUN(test_volley);
    return clv_test_report();
}
