/* One test per hit rule of the arena, with numbers. */
#include "cleave/hit.h"
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static clv_hitbox_def box_capsule(const char *id, float ax, float ay, float bx, float by, float r) {
    clv_hitbox_def d = clv_default_hitbox_def();
    snprintf(d.id, sizeof d.id, "%s", id);
    d.shape = clv_shape_capsule(ax, ay, bx, by, r);
    d.hitlag = 0;
    d.hitstun = 0;
    return d;
}

static clv_attack_def attack_def(const char *name, int32_t frames) {
    clv_attack_def a = clv_default_attack_def();
    snprintf(a.name, sizeof a.name, "%s", name);
    a.frames = frames;
    return a;
}

typedef struct world {
    clv_arena *arena;
    clv_weapon_id weapon;
    clv_entity_id hero;
} world;

/* An arena with one weapon (attack 0 = atk, hitboxes on frames first..last) and a hero at the
 * origin on team 1 without hurtboxes. */
static world make_world(const clv_attack_def *atk, const clv_hitbox_def *boxes,
                        const int32_t *first, const int32_t *last, int n) {
    world w;
    memset(&w, 0, sizeof w);
    clv_weapon *wp = clv_weapon_create(NULL, NULL);
    CHECK(wp != NULL);
    CHECK(clv_weapon_add_attack(wp, atk, NULL, NULL) == CLV_HIT_OK);
    for (int i = 0; i < n; i++) {
        clv_hit_diag diag;
        clv_hit_status st = clv_weapon_add_hitbox(wp, 0, first[i], last[i], &boxes[i], &diag);
        if (st != CLV_HIT_OK) {
            fprintf(stderr, "add_hitbox: %s\n", diag.message);
        }
        CHECK(st == CLV_HIT_OK);
    }
    w.arena = clv_arena_create(NULL, NULL);
    CHECK(w.arena != NULL);
    CHECK(clv_arena_add_weapon(w.arena, wp, &w.weapon, NULL) == CLV_HIT_OK);
    clv_weapon_destroy(wp);
    clv_entity_def hero = clv_default_entity_def();
    hero.team = 1;
    hero.hurtbox_count = 0;
    CHECK(clv_arena_spawn(w.arena, &hero, &w.hero, NULL) == CLV_HIT_OK);
    return w;
}

static clv_entity_id spawn_at(world *w, float x, float y, float r) {
    clv_entity_def d = clv_default_entity_def();
    d.position = clv_v2(x, y);
    d.team = 2;
    d.hurtboxes[0] = clv_shape_circle(0.0f, 0.0f, r);
    clv_entity_id id = {0, 0};
    CHECK(clv_arena_spawn(w->arena, &d, &id, NULL) == CLV_HIT_OK);
    return id;
}

static clv_attack_id swing(world *w) {
    clv_attack_start_def s = clv_default_attack_start_def();
    s.weapon = w->weapon;
    s.attack = 0;
    s.owner = w->hero;
    clv_attack_id id = {0, 0};
    CHECK(clv_arena_start_attack(w->arena, &s, &id, NULL) == CLV_HIT_OK);
    return id;
}

static float hp_of(world *w, clv_entity_id id) {
    clv_entity_info info;
    CHECK(clv_arena_entity(w->arena, id, &info) == CLV_HIT_OK);
    return info.hp;
}

static int step_hits(world *w, int32_t *misses) {
    CHECK(clv_arena_step(w->arena) == CLV_HIT_OK);
    int32_t n = 0;
    clv_arena_hits(w->arena, &n);
    if (misses != NULL) {
        clv_arena_misses(w->arena, misses);
    }
    return n;
}

static int count_misses(world *w, clv_miss_reason reason) {
    int32_t n = 0;
    const clv_miss_record *m = clv_arena_misses(w->arena, &n);
    int k = 0;
    for (int32_t i = 0; i < n; i++) {
        k += m[i].reason == reason;
    }
    return k;
}

/* A group hits a target once per swing (rehit 0), however long it overlaps. */
static void test_group_hits_once(void) {
    clv_attack_def atk = attack_def("swing", 10);
    clv_hitbox_def b[2] = {box_capsule("blade", 20, 0, 40, 0, 6),
                           box_capsule("tip", 40, 0, 50, 0, 6)};
    b[0].damage = 7;
    b[1].damage = 9;
    int32_t first[2] = {0, 0}, last[2] = {9, 9};
    world w = make_world(&atk, b, first, last, 2);
    clv_entity_id e = spawn_at(&w, 40, 0, 4); /* inside both hitboxes of group 0 */
    swing(&w);
    int total = 0, rehit = 0, precedence = 0;
    for (int f = 0; f < 10; f++) {
        total += step_hits(&w, NULL);
        rehit += count_misses(&w, CLV_MISS_REHIT);
        precedence += count_misses(&w, CLV_MISS_PRECEDENCE);
    }
    CHECK(total == 1);
    CHECK_NEAR(hp_of(&w, e), 93.0f, 0.0f); /* the blade, first in the list */
    CHECK(precedence == 1);                /* the tip lost on the first frame */
    CHECK(rehit == 18);                    /* 9 later frames x 2 hitboxes */
    clv_arena_destroy(w.arena);
}

/* Precedence: the blade, listed first, wins over the handle; a priority overrides the order. */
static void test_precedence_blade_over_handle(void) {
    for (int variant = 0; variant < 2; variant++) {
        clv_attack_def atk = attack_def("swing", 3);
        clv_hitbox_def blade = box_capsule("blade", 20, 0, 40, 0, 6);
        clv_hitbox_def handle = box_capsule("handle", 0, 0, 20, 0, 6);
        blade.damage = 12;
        handle.damage = 3;
        clv_hitbox_def b[2];
        if (variant == 0) {
            b[0] = blade;
            b[1] = handle;
        } else {
            blade.priority = 5;
            b[0] = handle;
            b[1] = blade;
        }
        int32_t first[2] = {0, 0}, last[2] = {2, 2};
        world w = make_world(&atk, b, first, last, 2);
        clv_entity_id e = spawn_at(&w, 20, 3, 5); /* reaches both */
        swing(&w);
        CHECK(step_hits(&w, NULL) == 1);
        int32_t n = 0;
        const clv_hit_event *ev = clv_arena_hits(w.arena, &n);
        CHECK(n == 1 && ev[0].hitbox == variant); /* the blade's position in the list */
        CHECK_NEAR(ev[0].damage, 12.0f, 0.0f);
        CHECK_NEAR(hp_of(&w, e), 88.0f, 0.0f);
        const clv_hitbox_def *def = clv_arena_hitbox(w.arena, w.weapon, 0, 0, ev[0].hitbox);
        CHECK(def != NULL && strcmp(def->id, "blade") == 0);
        CHECK(count_misses(&w, CLV_MISS_PRECEDENCE) == 1);
        /* where on the blade: the target at x = 20 touches the blade's start (t = 0) */
        CHECK_NEAR(ev[0].blade_t, 0.0f, 1e-4);
        clv_arena_destroy(w.arena);
    }
}

/* max_hits = 2, three enemies in reach: the two nearest are damaged; the third is pushed only
 * with knockback_ignores_hit_count, and refused (max_hits) without it. */
static void test_max_hits_nearest_two(void) {
    for (int ignores = 0; ignores < 2; ignores++) {
        clv_attack_def atk = attack_def("sweep", 2);
        clv_hitbox_def b = box_capsule("arc", 0, 0, 100, 0, 10);
        b.damage = 10;
        b.max_hits = 2;
        b.knockback_ignores_hit_count = ignores != 0;
        b.knockback.kind = CLV_KNOCKBACK_FIXED;
        b.knockback.vector = clv_v2(0.0f, 5.0f);
        int32_t first = 0, last = 1;
        world w = make_world(&atk, &b, &first, &last, 1);
        /* Spawned farthest first: ids do not follow distance. Gaps to the core: 7, 1, 4. */
        clv_entity_id far = spawn_at(&w, 70, 9, 2);
        clv_entity_id near = spawn_at(&w, 50, 3, 2);
        clv_entity_id mid = spawn_at(&w, 30, -6, 2);
        swing(&w);
        step_hits(&w, NULL);
        CHECK_NEAR(hp_of(&w, near), 90.0f, 0.0f);
        CHECK_NEAR(hp_of(&w, mid), 90.0f, 0.0f);
        CHECK_NEAR(hp_of(&w, far), 100.0f, 0.0f);
        clv_entity_info fi;
        CHECK(clv_arena_entity(w.arena, far, &fi) == CLV_HIT_OK);
        int32_t n = 0;
        const clv_hit_event *ev = clv_arena_hits(w.arena, &n);
        if (ignores) {
            CHECK(n == 3);
            CHECK_NEAR(fi.velocity.y, 5.0f, 0.0f);
            int push = 0;
            for (int32_t i = 0; i < n; i++) {
                if (ev[i].flags & CLV_HIT_FLAG_PUSH_ONLY) {
                    push++;
                    CHECK(ev[i].target.index1 == far.index1);
                    CHECK_NEAR(ev[i].damage, 0.0f, 0.0f);
                }
            }
            CHECK(push == 1);
            CHECK(count_misses(&w, CLV_MISS_MAX_HITS) == 0);
        } else {
            CHECK(n == 2);
            CHECK_NEAR(fi.velocity.y, 0.0f, 0.0f);
            CHECK(count_misses(&w, CLV_MISS_MAX_HITS) == 1);
        }
        /* events come sorted by target id */
        for (int32_t i = 1; i < n; i++) {
            CHECK(ev[i - 1].target.index1 < ev[i].target.index1);
        }
        clv_arena_destroy(w.arena);
    }
}

/* rehit = 10 on a 25-frame lingering hitbox: hits on attack frames 0, 10 and 20. */
static void test_rehit_every_10_frames(void) {
    clv_attack_def atk = attack_def("linger", 25);
    atk.rehit = 10;
    clv_hitbox_def b = box_capsule("field", -30, 0, 30, 0, 20);
    b.damage = 4;
    int32_t first = 0, last = 24;
    world w = make_world(&atk, &b, &first, &last, 1);
    clv_entity_id e = spawn_at(&w, 10, 5, 6);
    clv_attack_id at = swing(&w);
    int hits = 0;
    int64_t frames[8];
    for (int f = 0; f < 30; f++) {
        if (step_hits(&w, NULL) > 0) {
            const clv_hit_event *ev = clv_arena_hits(w.arena, NULL);
            if (hits < 8) {
                frames[hits] = ev[0].frame;
                CHECK(ev[0].attack_frame == (int32_t)(ev[0].frame - 1));
            }
            hits++;
        }
        if (f == 24) {
            CHECK(clv_arena_attack_valid(w.arena, at)); /* its 25th and last frame */
        }
        if (f == 25) {
            CHECK(!clv_arena_attack_valid(w.arena, at));
        }
    }
    CHECK(hits == 3);
    CHECK(hits >= 3 && frames[0] == 1 && frames[1] == 11 && frames[2] == 21);
    CHECK_NEAR(hp_of(&w, e), 88.0f, 0.0f);
    clv_arena_destroy(w.arena);
}

/* Invincible: the hit connects, is used up, the attacker takes hitlag, the target takes
 * nothing. Intangible: no contact; the lingering hitbox hits once the target is normal. */
static void test_invincible_vs_intangible(void) {
    clv_attack_def atk = attack_def("linger", 20);
    clv_hitbox_def b = box_capsule("field", -30, 0, 30, 0, 20);
    b.damage = 10;
    b.hitlag = CLV_FRAMES_AUTO; /* floor(10 * 0.3846154 + 5) = 8 */
    b.knockback.kind = CLV_KNOCKBACK_FIXED;
    b.knockback.vector = clv_v2(3.0f, 0.0f);
    int32_t first = 0, last = 19;

    world w = make_world(&atk, &b, &first, &last, 1);
    clv_entity_id e = spawn_at(&w, 10, 0, 6);
    CHECK(clv_arena_set_state(w.arena, e, CLV_HURT_INVINCIBLE, 0) == CLV_HIT_OK);
    swing(&w);
    CHECK(step_hits(&w, NULL) == 1);
    const clv_hit_event *ev = clv_arena_hits(w.arena, NULL);
    CHECK(ev[0].flags == CLV_HIT_FLAG_INVINCIBLE);
    CHECK(ev[0].hitlag == 8);
    CHECK_NEAR(ev[0].damage, 0.0f, 0.0f);
    clv_entity_info hero, tgt;
    CHECK(clv_arena_entity(w.arena, w.hero, &hero) == CLV_HIT_OK);
    CHECK(clv_arena_entity(w.arena, e, &tgt) == CLV_HIT_OK);
    CHECK(hero.hitlag == 8 && tgt.hitlag == 0);
    CHECK_NEAR(tgt.hp, 100.0f, 0.0f);
    CHECK_NEAR(tgt.velocity.x, 0.0f, 0.0f);
    CHECK(clv_arena_set_state(w.arena, e, CLV_HURT_NORMAL, 0) == CLV_HIT_OK);
    int later = 0;
    for (int f = 0; f < 25; f++) {
        later += step_hits(&w, NULL);
    }
    CHECK(later == 0); /* used up */
    CHECK_NEAR(hp_of(&w, e), 100.0f, 0.0f);
    clv_arena_destroy(w.arena);

    w = make_world(&atk, &b, &first, &last, 1);
    e = spawn_at(&w, 10, 0, 6);
    CHECK(clv_arena_set_state(w.arena, e, CLV_HURT_INTANGIBLE, 3) == CLV_HIT_OK);
    swing(&w);
    int hits = 0, intangible = 0;
    int64_t hit_frame = -1;
    for (int f = 0; f < 10; f++) {
        int n = step_hits(&w, NULL);
        intangible += count_misses(&w, CLV_MISS_INTANGIBLE);
        if (n > 0 && hit_frame < 0) {
            hit_frame = clv_arena_frame(w.arena);
        }
        hits += n;
    }
    /* intangible for 3 frames counted from the next step: frames 1, 2 and 3 pass through; the
     * state is back to normal on frame 4, where the lingering hitbox connects */
    CHECK(intangible == 3);
    CHECK(hits == 1);
    CHECK(hit_frame == 4);
    CHECK_NEAR(hp_of(&w, e), 90.0f, 0.0f);
    clv_arena_destroy(w.arena);
}

/* A timed state set between steps covers exactly the next n frames, n = 1 included: a hitbox on
 * frames 1-3 over an enemy made intangible for 1 frame misses on frame 1 and hits on frame 2.
 */
static void test_timed_state_covers_n_frames(void) {
    clv_attack_def atk = attack_def("linger", 3);
    atk.rehit = 1;
    clv_hitbox_def b = box_capsule("field", -30, 0, 30, 0, 20);
    b.damage = 10;
    int32_t first = 0, last = 2;
    world w = make_world(&atk, &b, &first, &last, 1);
    clv_entity_id e = spawn_at(&w, 10, 0, 6);
    CHECK(clv_arena_set_state(w.arena, e, CLV_HURT_INTANGIBLE, 1) == CLV_HIT_OK);
    swing(&w);
    CHECK(step_hits(&w, NULL) == 0);
    CHECK(count_misses(&w, CLV_MISS_INTANGIBLE) == 1);
    clv_entity_info info;
    CHECK(clv_arena_entity(w.arena, e, &info) == CLV_HIT_OK);
    CHECK(info.state == CLV_HURT_NORMAL && info.state_frames == 0);
    CHECK(step_hits(&w, NULL) == 1);
    CHECK(clv_arena_hits(w.arena, NULL)[0].frame == 2);
    CHECK_NEAR(hp_of(&w, e), 90.0f, 0.0f);
    clv_arena_destroy(w.arena);

    for (int n = 1; n <= 3; n++) {
        w = make_world(&atk, &b, &first, &last, 1);
        e = spawn_at(&w, 10, 0, 6);
        CHECK(clv_arena_set_state(w.arena, e, CLV_HURT_INTANGIBLE, n) == CLV_HIT_OK);
        swing(&w);
        int passed = 0;
        for (int f = 0; f < 3; f++) {
            step_hits(&w, NULL);
            passed += count_misses(&w, CLV_MISS_INTANGIBLE);
        }
        CHECK(passed == n);
        clv_arena_destroy(w.arena);
    }
}

/* Lockout: after group 0 hits, group 1 of the same swing must wait `lockout` frames. */
static void test_lockout(void) {
    for (int lockout = 0; lockout <= 5; lockout += 5) {
        clv_attack_def atk = attack_def("combo", 12);
        atk.lockout = lockout;
        clv_hitbox_def b[2] = {box_capsule("jab", 0, 0, 30, 0, 10),
                               box_capsule("cross", 0, 0, 30, 0, 10)};
        b[1].group = 1;
        b[0].damage = 1;
        b[1].damage = 2;
        int32_t first[2] = {0, 2}, last[2] = {1, 11};
        world w = make_world(&atk, b, first, last, 2);
        clv_entity_id e = spawn_at(&w, 15, 0, 5);
        swing(&w);
        int64_t hit_frames[4] = {0, 0, 0, 0};
        int hits = 0, locked = 0;
        for (int f = 0; f < 12; f++) {
            if (step_hits(&w, NULL) > 0 && hits < 4) {
                hit_frames[hits++] = clv_arena_frame(w.arena);
            }
            locked += count_misses(&w, CLV_MISS_LOCKOUT);
        }
        CHECK(hits == 2);
        CHECK(hit_frames[0] == 1);
        /* jab on attack frame 0 (elapsed 1); cross is active from frame 2 (elapsed 3) and may
         * hit when elapsed - 1 >= lockout */
        CHECK(hit_frames[1] == (lockout == 0 ? 3 : 6));
        CHECK(locked == (lockout == 0 ? 0 : 3));
        CHECK_NEAR(hp_of(&w, e), 97.0f, 0.0f);
        clv_arena_destroy(w.arena);
    }
    /* Two groups on the same frame with a lockout: one hit, the other group locked out. */
    clv_attack_def atk = attack_def("both", 2);
    atk.lockout = 4;
    clv_hitbox_def b[2] = {box_capsule("a", 0, 0, 30, 0, 10), box_capsule("b", 0, 0, 30, 0, 10)};
    b[1].group = 1;
    int32_t first[2] = {0, 0}, last[2] = {1, 1};
    world w = make_world(&atk, b, first, last, 2);
    spawn_at(&w, 15, 0, 5);
    swing(&w);
    CHECK(step_hits(&w, NULL) == 1);
    CHECK(count_misses(&w, CLV_MISS_LOCKOUT) == 1);
    clv_arena_destroy(w.arena);
}

/* Hitlag freezes the attacker (its attack and its movement) and the target for the computed
 * number of frames: floor(floor(d * 0.3846154 + 5) * scale). */
static void test_hitlag_freezes_both(void) {
    const float scales[2] = {1.0f, 1.5f};
    const int32_t expect[2] = {8, 12};
    for (int v = 0; v < 2; v++) {
        clv_attack_def atk = attack_def("slam", 30);
        clv_hitbox_def b = box_capsule("head", 0, 0, 30, 0, 10);
        b.damage = 10;
        b.hitlag = CLV_FRAMES_AUTO;
        b.hitlag_scale = scales[v];
        int32_t first = 0, last = 29;
        world w = make_world(&atk, &b, &first, &last, 1);
        clv_entity_id e = spawn_at(&w, 15, 0, 5);
        CHECK(clv_arena_set_velocity(w.arena, e, clv_v2(0.0f, 1.0f)) == CLV_HIT_OK);
        CHECK(clv_arena_set_velocity(w.arena, w.hero, clv_v2(0.0f, -1.0f)) == CLV_HIT_OK);
        clv_attack_id at = swing(&w);
        /* frame 1: both move one unit, then the hit */
        CHECK(step_hits(&w, NULL) == 1);
        const clv_hit_event *ev = clv_arena_hits(w.arena, NULL);
        CHECK(ev[0].hitlag == expect[v]);
        int frozen_frames = 0;
        for (int f = 0; f < 20; f++) {
            clv_attack_info ai;
            clv_entity_info ti, hi;
            step_hits(&w, NULL);
            CHECK(clv_arena_attack(w.arena, at, &ai) == CLV_HIT_OK);
            CHECK(clv_arena_entity(w.arena, e, &ti) == CLV_HIT_OK);
            CHECK(clv_arena_entity(w.arena, w.hero, &hi) == CLV_HIT_OK);
            bool frozen = ai.frame == 0;
            if (frozen) {
                frozen_frames++;
                CHECK_NEAR(ti.position.y, 1.0f, 0.0f);
                CHECK_NEAR(hi.position.y, -1.0f, 0.0f);
            } else {
                /* frame k after the freeze: the attack is at k, both moved k more units */
                int32_t k = (int32_t)(clv_arena_frame(w.arena) - 1 - expect[v]);
                CHECK(ai.frame == k);
                CHECK_NEAR(ti.position.y, 1.0f + (float)k, 0.0f);
                CHECK_NEAR(hi.position.y, -1.0f - (float)k, 0.0f);
            }
        }
        CHECK(frozen_frames == expect[v]);
        clv_arena_destroy(w.arena);
    }
}

/* Bleed 2 hp every 10 frames for 60 frames ticks 6 times: 12 hp on top of the hit's 5. */
static void test_bleed_total(void) {
    clv_attack_def atk = attack_def("cut", 1);
    clv_hitbox_def b = box_capsule("edge", 0, 0, 30, 0, 10);
    b.damage = 5;
    b.effect_count = 1;
    b.effects[0] = clv_default_effect_def();
    snprintf(b.effects[0].name, sizeof b.effects[0].name, "bleed");
    b.effects[0].duration = 60;
    b.effects[0].period = 10;
    b.effects[0].magnitude = 2;
    int32_t first = 0, last = 0;
    world w = make_world(&atk, &b, &first, &last, 1);
    clv_entity_id e = spawn_at(&w, 15, 0, 5);
    swing(&w);
    CHECK(step_hits(&w, NULL) == 1);
    CHECK(clv_arena_hits(w.arena, NULL)[0].effects == 1u);
    int ticks = 0, expired = 0;
    float ticked = 0.0f;
    int64_t last_tick = 0;
    for (int f = 0; f < 100; f++) {
        step_hits(&w, NULL);
        int32_t n = 0;
        const clv_tick_event *t = clv_arena_ticks(w.arena, &n);
        for (int32_t i = 0; i < n; i++) {
            CHECK(strcmp(t[i].name, "bleed") == 0);
            CHECK(t[i].target.index1 == e.index1);
            ticks++;
            ticked += t[i].damage;
            expired += t[i].expired;
            last_tick = t[i].frame;
        }
    }
    CHECK(ticks == 6);
    CHECK(expired == 1);
    CHECK(last_tick == 61); /* applied on frame 1, ticks on 11, 21, ..., 61 */
    CHECK_NEAR(ticked, 12.0f, 0.0f);
    CHECK_NEAR(hp_of(&w, e), 83.0f, 0.0f);
    clv_entity_info info;
    CHECK(clv_arena_entity(w.arena, e, &info) == CLV_HIT_OK);
    CHECK(info.effect_count == 0);
    CHECK_NEAR(info.damage_taken, 17.0f, 0.0f);
    clv_arena_destroy(w.arena);
}

/* Knockback models: fixed (turned by facing and mirror), scaling (base + growth * damage),
 * radial (away from the hitbox); all divided by weight. Hitstun auto = floor(0.4 * speed). */
static void test_knockback_models(void) {
    clv_attack_def atk = attack_def("push", 1);
    clv_hitbox_def b = box_capsule("fist", 0, 0, 20, 0, 10);
    b.damage = 10;
    int32_t first = 0, last = 0;
    for (int kind = 1; kind <= 3; kind++) {
        b.knockback.kind = (clv_knockback_kind)kind;
        b.knockback.vector = clv_v2(10.0f, 5.0f);
        b.knockback.angle = 0.0f;
        b.knockback.base = 4.0f;
        b.knockback.growth = 0.65f; /* 4 + 0.65 * 10 = 10.5 */
        b.hitstun = CLV_FRAMES_AUTO;
        world w = make_world(&atk, &b, &first, &last, 1);
        clv_entity_def d = clv_default_entity_def();
        d.team = 2;
        d.weight = 2.0f;
        d.position = clv_v2(0.0f, 25.0f); /* below the hero: facing +y puts the fist on it */
        d.hurtboxes[0] = clv_shape_circle(0.0f, 0.0f, 8.0f);
        clv_entity_id e;
        CHECK(clv_arena_spawn(w.arena, &d, &e, NULL) == CLV_HIT_OK);
        clv_attack_start_def s = clv_default_attack_start_def();
        s.weapon = w.weapon;
        s.owner = w.hero;
        s.facing = 1.5707963705062866f; /* +x turns to +y */
        s.mirror = true;                /* weapon-local +y then points to world -x */
        CHECK(clv_arena_start_attack(w.arena, &s, NULL, NULL) == CLV_HIT_OK);
        CHECK(step_hits(&w, NULL) == 1);
        const clv_hit_event *ev = clv_arena_hits(w.arena, NULL);
        clv_vec2 expect;
        if (kind == CLV_KNOCKBACK_FIXED) {
            expect = clv_v2(5.0f / 2.0f, 10.0f / 2.0f); /* (10, 5) mirrored (10,-5), turned */
        } else {
            expect = clv_v2(0.0f, 10.5f / 2.0f); /* along facing, or straight away from the fist */
        }
        CHECK_NEAR(ev[0].knockback.x, expect.x, 1e-5);
        CHECK_NEAR(ev[0].knockback.y, expect.y, 1e-5);
        float speed = sqrtf(expect.x * expect.x + expect.y * expect.y);
        CHECK(ev[0].hitstun == (int32_t)floorf(0.4f * speed));
        clv_entity_info info;
        CHECK(clv_arena_entity(w.arena, e, &info) == CLV_HIT_OK);
        CHECK_NEAR(info.velocity.x, expect.x, 1e-5);
        CHECK_NEAR(info.velocity.y, expect.y, 1e-5);
        CHECK(info.hitstun == ev[0].hitstun);
        clv_arena_destroy(w.arena);
    }
}

/* Team, dead and max_targets reasons; a kill flag; a near miss with its distance. */
static void test_team_dead_max_targets(void) {
    clv_attack_def atk = attack_def("wide", 2);
    atk.max_targets = 2;
    clv_hitbox_def b = box_capsule("arc", 0, 0, 100, 0, 10);
    b.damage = 50;
    int32_t first = 0, last = 1;
    world w = make_world(&atk, &b, &first, &last, 1);
    clv_entity_def friend_def = clv_default_entity_def();
    friend_def.team = 1;
    friend_def.position = clv_v2(10.0f, 0.0f);
    CHECK(clv_arena_spawn(w.arena, &friend_def, NULL, NULL) == CLV_HIT_OK);
    clv_entity_id dead = spawn_at(&w, 20, 0, 3);
    CHECK(clv_arena_set_hp(w.arena, dead, 0.0f) == CLV_HIT_OK);
    clv_entity_id e1 = spawn_at(&w, 80, 4, 3); /* gap to the core 1 */
    clv_entity_id e2 = spawn_at(&w, 60, 8, 3); /* 5 */
    clv_entity_id e3 = spawn_at(&w, 40, 6, 3); /* 3 */
    CHECK(clv_arena_set_hp(w.arena, e1, 40.0f) == CLV_HIT_OK);
    swing(&w);
    CHECK(step_hits(&w, NULL) == 2);
    CHECK(count_misses(&w, CLV_MISS_TEAM) == 1);
    CHECK(count_misses(&w, CLV_MISS_DEAD) == 1);
    CHECK(count_misses(&w, CLV_MISS_MAX_TARGETS) == 1);
    CHECK_NEAR(hp_of(&w, e2), 100.0f, 0.0f); /* the farthest one */
    CHECK_NEAR(hp_of(&w, e3), 50.0f, 0.0f);
    CHECK_NEAR(hp_of(&w, e1), -10.0f, 0.0f);
    const clv_hit_event *ev = clv_arena_hits(w.arena, NULL);
    CHECK(ev[0].target.index1 == e1.index1 && (ev[0].flags & CLV_HIT_FLAG_KILLED));
    CHECK(ev[1].target.index1 == e3.index1 && !(ev[1].flags & CLV_HIT_FLAG_KILLED));
    clv_attack_info ai;
    clv_arena_attack(w.arena, clv_arena_hits(w.arena, NULL)[0].attack, &ai);
    CHECK(ai.targets_hit == 2);
    /* frame 2: the swing is full; the farthest is still refused */
    CHECK(step_hits(&w, NULL) == 0);
    CHECK(count_misses(&w, CLV_MISS_MAX_TARGETS) == 1);
    clv_arena_destroy(w.arena);

    /* near misses: recorded with their gap when miss_margin allows */
    clv_arena_def ad = clv_default_arena_def();
    ad.miss_margin = 10.0f;
    clv_arena *a = clv_arena_create(&ad, NULL);
    clv_weapon *wp = clv_weapon_create(NULL, NULL);
    clv_attack_def one = attack_def("poke", 1);
    clv_hitbox_def tip = box_capsule("tip", 0, 0, 30, 0, 5);
    CHECK(clv_weapon_add_attack(wp, &one, NULL, NULL) == CLV_HIT_OK);
    CHECK(clv_weapon_add_hitbox(wp, 0, 0, 0, &tip, NULL) == CLV_HIT_OK);
    clv_weapon_id wid;
    CHECK(clv_arena_add_weapon(a, wp, &wid, NULL) == CLV_HIT_OK);
    clv_weapon_destroy(wp);
    clv_entity_def hero = clv_default_entity_def();
    hero.hurtbox_count = 0;
    hero.team = 1;
    clv_entity_id hid;
    CHECK(clv_arena_spawn(a, &hero, &hid, NULL) == CLV_HIT_OK);
    clv_entity_def target = clv_default_entity_def();
    target.position = clv_v2(20.0f, 12.0f); /* circle r 4: gap 12 - 4 - 5 = 3 */
    target.hurtboxes[0] = clv_shape_circle(0.0f, 0.0f, 4.0f);
    CHECK(clv_arena_spawn(a, &target, NULL, NULL) == CLV_HIT_OK);
    clv_attack_start_def s = clv_default_attack_start_def();
    s.weapon = wid;
    s.owner = hid;
    CHECK(clv_arena_start_attack(a, &s, NULL, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    int32_t n = 0;
    const clv_miss_record *m = clv_arena_misses(a, &n);
    CHECK(n == 1);
    CHECK(n == 1 && m[0].reason == CLV_MISS_OUT_OF_REACH);
    CHECK(n == 1 && fabsf(m[0].distance - 3.0f) < 1e-4f);
    CHECK(strcmp(clv_miss_reason_name(CLV_MISS_OUT_OF_REACH), "out_of_reach") == 0);
    clv_arena_destroy(a);
}

/* Huge but valid numbers: damage 1e38 with growth 1e6 (an infinite speed in float), a fixed
 * push of 3e38 and a weight of 1e-30 each give a finite push of the world limit's speed in the
 * push's own direction, a hitstun consistent with it (the 3600 cap), and a finite state. */
static void test_huge_knockback_is_clamped(void) {
    clv_attack_def atk = attack_def("push", 1);
    int32_t first = 0, last = 0;
    for (int c = 0; c < 4; c++) {
        clv_hitbox_def b = box_capsule("fist", 0, 0, 20, 0, 10);
        b.hitstun = CLV_FRAMES_AUTO;
        b.damage = c < 2 ? 1.0e38f : 10.0f;
        b.knockback.kind = c == 2   ? CLV_KNOCKBACK_FIXED
                           : c == 1 ? CLV_KNOCKBACK_RADIAL
                                    : CLV_KNOCKBACK_SCALING;
        b.knockback.angle = 0.5f;
        b.knockback.base = 4.0f;
        b.knockback.growth = 1.0e6f;
        b.knockback.vector = clv_v2(3.0e38f, -3.0e38f);
        world w = make_world(&atk, &b, &first, &last, 1);
        clv_entity_def d = clv_default_entity_def();
        d.team = 2;
        d.position = clv_v2(15.0f, 6.0f);
        d.weight = c == 3 ? 1.0e-30f : 1.0f;
        clv_entity_id e;
        CHECK(clv_arena_spawn(w.arena, &d, &e, NULL) == CLV_HIT_OK);
        swing(&w);
        CHECK(step_hits(&w, NULL) == 1);
        const clv_hit_event *ev = clv_arena_hits(w.arena, NULL);
        clv_vec2 kb = ev[0].knockback;
        double mag = sqrt((double)kb.x * (double)kb.x + (double)kb.y * (double)kb.y);
        CHECK(isfinite(kb.x) && isfinite(kb.y));
        CHECK_NEAR(mag, CLV_WORLD_LIMIT, 100.0);
        CHECK(ev[0].hitstun == 3600);
        if (c == 0 || c == 3) { /* scaling at 0.5 rad */
            CHECK_NEAR(atan2((double)kb.y, (double)kb.x), 0.5, 1e-6);
        } else if (c == 2) { /* fixed (3e38, -3e38): along (1, -1) */
            CHECK_NEAR(kb.x, -kb.y, 1.0);
        } else { /* radial: away from the fist, towards the target's side */
            CHECK(kb.y > 0.0f);
        }
        clv_entity_info info;
        CHECK(clv_arena_entity(w.arena, e, &info) == CLV_HIT_OK);
        CHECK(info.hitstun == 3600);
        CHECK(fabsf(info.velocity.x) <= CLV_WORLD_LIMIT &&
              fabsf(info.velocity.y) <= CLV_WORLD_LIMIT);
        CHECK(info.hp >= -CLV_WORLD_LIMIT && isfinite(info.damage_taken));
        size_t size = clv_arena_snapshot_size(w.arena);
        unsigned char *buf = malloc(size);
        CHECK(clv_arena_snapshot(w.arena, buf, size, NULL) == CLV_HIT_OK);
        CHECK(clv_arena_restore(w.arena, buf, size) == CLV_HIT_OK);
        free(buf);
        clv_arena_destroy(w.arena);
    }
}

/* max_hits limits one frame only: a target it skipped is hit on the next frame by the lingering
 * hitbox. A push-only hit (knockback_ignores_hit_count) gets the full push of the hitbox's
 * damage and does not use up the group's hit: the same target is damaged on the next frame. */
static void test_max_hits_skip_is_hit_next_frame(void) {
    for (int ignores = 0; ignores < 2; ignores++) {
        clv_attack_def atk = attack_def("linger", 2);
        clv_hitbox_def b = box_capsule("arc", 0, 0, 100, 0, 10);
        b.damage = 10;
        b.max_hits = 1;
        b.knockback_ignores_hit_count = ignores != 0;
        b.knockback.kind = CLV_KNOCKBACK_SCALING;
        b.knockback.angle = 1.5707963705062866f; /* +y */
        b.knockback.base = 1.0f;
        b.knockback.growth = 0.5f; /* 1 + 0.5 * 10 = 6 */
        int32_t first = 0, last = 1;
        world w = make_world(&atk, &b, &first, &last, 1);
        clv_entity_id near = spawn_at(&w, 50, 1, 2);
        clv_entity_id far = spawn_at(&w, 30, -6, 2);
        swing(&w);
        int32_t n = step_hits(&w, NULL);
        const clv_hit_event *ev = clv_arena_hits(w.arena, NULL);
        CHECK(n == (ignores ? 2 : 1));
        CHECK_NEAR(hp_of(&w, near), 90.0f, 0.0f);
        CHECK_NEAR(hp_of(&w, far), 100.0f, 0.0f);
        if (ignores) {
            /* the push-only event carries the same push as the damaging one */
            CHECK(ev[1].target.index1 == far.index1 && ev[1].flags == CLV_HIT_FLAG_PUSH_ONLY);
            CHECK_NEAR(ev[1].knockback.y, ev[0].knockback.y, 0.0f);
            CHECK_NEAR(ev[1].knockback.y, 6.0f, 1e-5);
        } else {
            CHECK(count_misses(&w, CLV_MISS_MAX_HITS) == 1);
        }
        /* frame 2: near was hit by the group (rehit 0), far was not: far takes the hit */
        CHECK(step_hits(&w, NULL) == 1);
        ev = clv_arena_hits(w.arena, NULL);
        CHECK(ev[0].target.index1 == far.index1 && ev[0].flags == 0);
        CHECK_NEAR(hp_of(&w, far), 90.0f, 0.0f);
        CHECK(count_misses(&w, CLV_MISS_REHIT) == 1);
        clv_arena_destroy(w.arena);
    }
}

/* A swing counts a target once a frame, even when a push-only hit of another group sits
 * between two of its hits on that target (events come sorted by hitbox position). */
static void test_target_counted_once_around_push_only(void) {
    clv_attack_def atk = attack_def("three", 1);
    clv_hitbox_def b[3];
    for (int k = 0; k < 3; k++) {
        char id[8];
        snprintf(id, sizeof id, "g%d", k);
        b[k] = box_capsule(id, 0, 0, 100, 0, 12);
        b[k].group = k;
        b[k].knockback.kind = CLV_KNOCKBACK_FIXED;
        b[k].knockback.vector = clv_v2(0.0f, 1.0f);
    }
    b[1].shape = clv_shape_capsule(0, -4, 100, -4, 12); /* nearer the upper target */
    b[1].max_hits = 1;
    b[1].knockback_ignores_hit_count = true;
    int32_t first[3] = {0, 0, 0}, last[3] = {0, 0, 0};
    world w = make_world(&atk, b, first, last, 3);
    spawn_at(&w, 40, -6, 2);
    clv_entity_id lower = spawn_at(&w, 60, 6, 2);
    clv_attack_id at = swing(&w);
    CHECK(step_hits(&w, NULL) == 6);
    const clv_hit_event *ev = clv_arena_hits(w.arena, NULL);
    CHECK(ev[4].target.index1 == lower.index1 && ev[4].flags == CLV_HIT_FLAG_PUSH_ONLY);
    clv_attack_info info;
    CHECK(clv_arena_attack(w.arena, at, &info) == CLV_HIT_OK);
    CHECK(info.targets_hit == 2);
    clv_arena_destroy(w.arena);
}

/* Snapshot, 30 frames, restore, the same 30 frames: the same hashes twice. */
static void test_snapshot_restore_same_hash(void) {
    clv_attack_def atk = attack_def("spin", 40);
    atk.rehit = 7;
    clv_hitbox_def b = box_capsule("blade", 10, 0, 60, 0, 8);
    b.damage = 3;
    b.knockback.kind = CLV_KNOCKBACK_RADIAL;
    b.knockback.base = 2;
    b.effect_count = 1;
    b.effects[0] = clv_default_effect_def();
    snprintf(b.effects[0].name, sizeof b.effects[0].name, "burn");
    int32_t first = 0, last = 39;
    world w = make_world(&atk, &b, &first, &last, 1);
    for (int i = 0; i < 40; i++) {
        clv_entity_id e =
            spawn_at(&w, (float)(i % 8) * 12.0f - 40.0f, (float)(i / 8) * 12.0f - 30.0f, 5);
        clv_arena_set_velocity(w.arena, e,
                               clv_v2((float)(i % 3) - 1.0f, (float)(i % 5) * 0.25f - 0.5f));
    }
    clv_attack_id at = swing(&w);
    for (int f = 0; f < 10; f++) {
        clv_arena_set_attack_pose(w.arena, at, clv_v2(0.0f, 0.0f), (float)f * 0.3f, false);
        step_hits(&w, NULL);
    }
    uint64_t at_snapshot = clv_arena_hash(w.arena);
    size_t size = clv_arena_snapshot_size(w.arena);
    unsigned char *buf = malloc(size);
    size_t written = 0;
    CHECK(clv_arena_snapshot(w.arena, buf, size, &written) == CLV_HIT_OK);
    CHECK(written == size);
    uint64_t seq[2][30];
    int total_hits[2] = {0, 0};
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            CHECK(clv_arena_restore(w.arena, buf, written) == CLV_HIT_OK);
            CHECK(clv_arena_hash(w.arena) == at_snapshot);
        }
        for (int f = 0; f < 30; f++) {
            if (clv_arena_attack_valid(w.arena, at)) {
                clv_arena_set_attack_pose(w.arena, at, clv_v2(0.0f, 0.0f), (float)(f + 10) * 0.3f,
                                          false);
            }
            total_hits[round] += step_hits(&w, NULL);
            seq[round][f] = clv_arena_hash(w.arena);
        }
    }
    CHECK(total_hits[0] > 0);
    CHECK(total_hits[0] == total_hits[1]);
    CHECK(memcmp(seq[0], seq[1], sizeof seq[0]) == 0);
    CHECK(seq[0][29] != at_snapshot);
    free(buf);
    clv_arena_destroy(w.arena);
}

/* Placement: mirror flips weapon-local y, facing turns, then the pose (plus the owner's
 * position when following) translates; compared with libm's sin and cos in double. */
static void test_placement_matches_libm(void) {
    clv_attack_def atk = attack_def("pose", 2);
    clv_hitbox_def b[3] = {box_capsule("cap", 10, 5, 40, -3, 4),
                           box_capsule("round", 0, 0, 0, 0, 0), box_capsule("box", 0, 0, 0, 0, 0)};
    b[1].shape = clv_shape_circle(7, 2, 3);
    b[2].shape = clv_shape_obb(20, 6, 5, 2, 0.4f);
    int32_t first[3] = {0, 0, 0}, last[3] = {1, 1, 1};
    const float angles[6] = {0.0f, 0.7f, -2.5f, 3.14159f, 100.25f, -1234.5f};
    for (int k = 0; k < 12; k++) {
        world w = make_world(&atk, b, first, last, 3);
        CHECK(clv_arena_set_position(w.arena, w.hero, clv_v2(10.0f, 20.0f)) == CLV_HIT_OK);
        CHECK(clv_arena_set_velocity(w.arena, w.hero, clv_v2(1.0f, 0.0f)) == CLV_HIT_OK);
        clv_attack_start_def s = clv_default_attack_start_def();
        s.weapon = w.weapon;
        s.owner = w.hero;
        s.position = clv_v2(5.0f, -2.0f);
        s.facing = angles[k % 6];
        s.mirror = k >= 6;
        clv_attack_id id;
        CHECK(clv_arena_start_attack(w.arena, &s, &id, NULL) == CLV_HIT_OK);
        CHECK(clv_arena_attack_hitboxes(w.arena, id, NULL, 0) == 0); /* not started yet */
        step_hits(&w, NULL);
        clv_shape out[4];
        CHECK(clv_arena_attack_hitboxes(w.arena, id, out, 4) == 3);
        double c = cos((double)s.facing), sn = sin((double)s.facing), m = s.mirror ? -1.0 : 1.0;
        double ox = 11.0 + 5.0, oy = 20.0 - 2.0; /* the owner moved one unit first */
#define PX(x, y) (ox + c * (double)(x)-sn * m * (double)(y))
#define PY(x, y) (oy + sn * (double)(x) + c * m * (double)(y))
        CHECK(out[0].type == CLV_CAPSULE);
        CHECK_NEAR(out[0].u.capsule.a.x, PX(10, 5), 1e-4);
        CHECK_NEAR(out[0].u.capsule.a.y, PY(10, 5), 1e-4);
        CHECK_NEAR(out[0].u.capsule.b.x, PX(40, -3), 1e-4);
        CHECK_NEAR(out[0].u.capsule.b.y, PY(40, -3), 1e-4);
        CHECK_NEAR(out[0].u.capsule.r, 4.0, 0.0);
        CHECK(out[1].type == CLV_CIRCLE);
        CHECK_NEAR(out[1].u.circle.c.x, PX(7, 2), 1e-4);
        CHECK_NEAR(out[1].u.circle.c.y, PY(7, 2), 1e-4);
        CHECK(out[2].type == CLV_OBB);
        CHECK_NEAR(out[2].u.obb.c.x, PX(20, 6), 1e-4);
        CHECK_NEAR(out[2].u.obb.c.y, PY(20, 6), 1e-4);
        double ux = cos(0.4), uy = sin(0.4);
        CHECK_NEAR(out[2].u.obb.u.x, c * ux - sn * m * uy, 1e-5);
        CHECK_NEAR(out[2].u.obb.u.y, sn * ux + c * m * uy, 1e-5);
#undef PX
#undef PY
        CHECK(clv_shape_valid(&out[2]));
        CHECK(clv_arena_attack_hitboxes(w.arena, id, out, 1) == 3); /* count, even past cap */
        const clv_attack_def *ad = clv_arena_attack_def(w.arena, w.weapon, 0);
        CHECK(ad != NULL && ad->frames == 2 && strcmp(ad->name, "pose") == 0);
        CHECK(clv_arena_frame_hitbox_count(w.arena, w.weapon, 0, 1) == 3);
        CHECK(clv_arena_frame_hitbox_count(w.arena, w.weapon, 0, 2) == 0);
        CHECK(clv_arena_attack_def(w.arena, w.weapon, 1) == NULL);
        clv_arena_cancel_attack(w.arena, id);
        CHECK(clv_arena_attack_hitboxes(w.arena, id, out, 4) == -1);
        clv_arena_destroy(w.arena);
    }
}

/* CLV_GROUP_NONE makes each hitbox a group of its own: two such hitboxes over one target both
 * hit it on the same frame, and each is then used up for that target (rehit 0). */
static void test_group_none_hits_separately(void) {
    clv_attack_def atk = attack_def("swing", 2);
    clv_hitbox_def b[2] = {box_capsule("blade", 20, 0, 40, 0, 6),
                           box_capsule("tip", 40, 0, 50, 0, 6)};
    b[0].damage = 7;
    b[1].damage = 9;
    b[0].group = CLV_GROUP_NONE;
    b[1].group = CLV_GROUP_NONE;
    int32_t first[2] = {0, 0}, last[2] = {1, 1};
    world w = make_world(&atk, b, first, last, 2);
    clv_entity_id e = spawn_at(&w, 40, 0, 4);
    swing(&w);
    CHECK(step_hits(&w, NULL) == 2);
    CHECK(count_misses(&w, CLV_MISS_PRECEDENCE) == 0);
    CHECK_NEAR(hp_of(&w, e), 84.0f, 0.0f);
    CHECK(step_hits(&w, NULL) == 0);
    CHECK(count_misses(&w, CLV_MISS_REHIT) == 2);
    clv_arena_destroy(w.arena);
}

/* Each rejected candidate gets the first reason of the filter order: a dead teammate is TEAM,
 * a dead intangible enemy is DEAD, and an intangible enemy the group already hit is
 * INTANGIBLE, not REHIT. */
static void test_filter_order_gives_first_reason(void) {
    clv_attack_def atk = attack_def("linger", 2);
    clv_hitbox_def b = box_capsule("field", 0, 0, 100, 0, 10);
    b.damage = 10;
    int32_t first = 0, last = 1;
    world w = make_world(&atk, &b, &first, &last, 1);
    clv_entity_def mate = clv_default_entity_def();
    mate.team = 1;
    mate.position = clv_v2(20.0f, 0.0f);
    clv_entity_id m;
    CHECK(clv_arena_spawn(w.arena, &mate, &m, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_set_hp(w.arena, m, 0.0f) == CLV_HIT_OK);
    clv_entity_id ghost = spawn_at(&w, 50, 0, 3);
    CHECK(clv_arena_set_hp(w.arena, ghost, 0.0f) == CLV_HIT_OK);
    CHECK(clv_arena_set_state(w.arena, ghost, CLV_HURT_INTANGIBLE, 0) == CLV_HIT_OK);
    clv_entity_id e = spawn_at(&w, 80, 0, 3);
    swing(&w);
    CHECK(step_hits(&w, NULL) == 1);
    CHECK(count_misses(&w, CLV_MISS_TEAM) == 1);
    CHECK(count_misses(&w, CLV_MISS_DEAD) == 1);
    CHECK(count_misses(&w, CLV_MISS_INTANGIBLE) == 0);
    CHECK(clv_arena_set_state(w.arena, e, CLV_HURT_INTANGIBLE, 0) == CLV_HIT_OK);
    CHECK(step_hits(&w, NULL) == 0);
    CHECK(count_misses(&w, CLV_MISS_INTANGIBLE) == 1);
    CHECK(count_misses(&w, CLV_MISS_REHIT) == 0);
    clv_arena_destroy(w.arena);
}

/* The knockbacks of one frame add up and replace the velocity; then the target moves by it and
 * friction takes its amount of speed away: (3, 0) + (0, 4) over (0, -6), friction 1. */
static void test_knockbacks_sum_replace_velocity(void) {
    clv_attack_def atk = attack_def("pair", 1);
    clv_hitbox_def b[2] = {box_capsule("left", 0, 0, 30, 0, 10),
                           box_capsule("right", 0, 0, 30, 0, 10)};
    b[1].group = 1;
    b[0].knockback.kind = CLV_KNOCKBACK_FIXED;
    b[0].knockback.vector = clv_v2(3.0f, 0.0f);
    b[1].knockback.kind = CLV_KNOCKBACK_FIXED;
    b[1].knockback.vector = clv_v2(0.0f, 4.0f);
    int32_t first[2] = {0, 0}, last[2] = {0, 0};
    world w = make_world(&atk, b, first, last, 2);
    clv_entity_def d = clv_default_entity_def();
    d.team = 2;
    d.position = clv_v2(15.0f, 0.0f);
    d.velocity = clv_v2(0.0f, -7.0f);
    d.friction = 1.0f;
    d.hurtboxes[0] = clv_shape_circle(0.0f, 0.0f, 5.0f);
    clv_entity_id e;
    CHECK(clv_arena_spawn(w.arena, &d, &e, NULL) == CLV_HIT_OK);
    swing(&w);
    CHECK(step_hits(&w, NULL) == 2); /* moved to (15, -7), slowed to (0, -6), then hit */
    clv_entity_info info;
    CHECK(clv_arena_entity(w.arena, e, &info) == CLV_HIT_OK);
    CHECK_NEAR(info.velocity.x, 3.0f, 0.0f);
    CHECK_NEAR(info.velocity.y, 4.0f, 0.0f);
    step_hits(&w, NULL);
    CHECK(clv_arena_entity(w.arena, e, &info) == CLV_HIT_OK);
    CHECK_NEAR(info.position.x, 18.0f, 1e-5);
    CHECK_NEAR(info.position.y, -3.0f, 1e-5);
    CHECK_NEAR(info.velocity.x, 2.4f, 1e-5); /* speed 5 - 1 = 4 */
    CHECK_NEAR(info.velocity.y, 3.2f, 1e-5);
    clv_arena_destroy(w.arena);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_group_hits_once);
    RUN(test_precedence_blade_over_handle);
    RUN(test_max_hits_nearest_two);
    RUN(test_timed_state_covers_n_frames);
    RUN(test_huge_knockback_is_clamped);
    RUN(test_max_hits_skip_is_hit_next_frame);
    RUN(test_target_counted_once_around_push_only);
    RUN(test_rehit_every_10_frames);
    RUN(test_invincible_vs_intangible);
    RUN(test_lockout);
    RUN(test_hitlag_freezes_both);
    RUN(test_bleed_total);
    RUN(test_knockback_models);
    RUN(test_team_dead_max_targets);
    RUN(test_snapshot_restore_same_hash);
    RUN(test_placement_matches_libm);
    RUN(test_group_none_hits_separately);
    RUN(test_filter_order_gives_first_reason);
    RUN(test_knockbacks_sum_replace_velocity);
    return clv_test_report();
}
