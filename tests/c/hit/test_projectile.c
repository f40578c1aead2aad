/* Projectiles: sweeping, pierce, lifetime, gravity, meetings, reflection, absorption, and their
 * snapshots (with forged fields refused). */
#include "cleave/hit.h"
#include "harness.h"

#include "../../../runtime/hit/src/hit_internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The snapshot header's size and where its checksum lies (snapshot.c's layout). */
#define SNAP_HEADER 112
#define AT_CHECK 80

typedef struct knife_spec {
    float radius, damage;
    int32_t frames;
    clv_hitbox_kind kind;
    float reflect_speed, reflect_damage;
    bool along_facing;
    bool upright; /* a capsule from y -10 to 10 instead of a circle */
    bool tip;     /* a second hitbox: a circle of radius 1 at (30, 0) */
} knife_spec;

static knife_spec knife(float radius, float damage) {
    knife_spec k = {radius, damage, 60, CLV_HITBOX_HIT, 1.0f, 1.0f, false, false, false};
    return k;
}

/* A weapon of one attack of k.frames frames with one hitbox on all of them. */
static clv_weapon_id add_weapon(clv_arena *a, knife_spec k) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def ad = clv_default_attack_def();
    snprintf(ad.name, sizeof ad.name, "fly");
    ad.frames = k.frames;
    CHECK(clv_weapon_add_attack(w, &ad, NULL, NULL) == CLV_HIT_OK);
    clv_hitbox_def d = clv_default_hitbox_def();
    snprintf(d.id, sizeof d.id, "edge");
    d.shape = k.upright ? clv_shape_capsule(0.0f, -10.0f, 0.0f, 10.0f, k.radius)
                        : clv_shape_circle(0.0f, 0.0f, k.radius);
    d.damage = k.damage;
    d.hitlag = 0;
    d.hitstun = 0;
    d.kind = k.kind;
    d.reflect_speed = k.reflect_speed;
    d.reflect_damage = k.reflect_damage;
    d.reflect_along_facing = k.along_facing;
    clv_hit_diag diag;
    clv_hit_status st = clv_weapon_add_hitbox(w, 0, 0, k.frames - 1, &d, &diag);
    if (st != CLV_HIT_OK) {
        fprintf(stderr, "add_hitbox: %s\n", diag.message);
    }
    CHECK(st == CLV_HIT_OK);
    if (k.tip) {
        snprintf(d.id, sizeof d.id, "tip");
        d.shape = clv_shape_circle(30.0f, 0.0f, 1.0f);
        CHECK(clv_weapon_add_hitbox(w, 0, 0, k.frames - 1, &d, NULL) == CLV_HIT_OK);
    }
    clv_weapon_id id = {0, 0};
    CHECK(clv_arena_add_weapon(a, w, &id, NULL) == CLV_HIT_OK);
    clv_weapon_destroy(w);
    return id;
}

static clv_entity_id spawn(clv_arena *a, float x, float y, float r, int32_t team) {
    clv_entity_def e = clv_default_entity_def();
    e.position = clv_v2(x, y);
    e.team = team;
    e.hurtbox_count = r > 0.0f ? 1 : 0;
    e.hurtboxes[0] = clv_shape_circle(0.0f, 0.0f, r);
    clv_entity_id id = {0, 0};
    CHECK(clv_arena_spawn(a, &e, &id, NULL) == CLV_HIT_OK);
    return id;
}

static clv_attack_id throw_at(clv_arena *a, clv_weapon_id w, clv_entity_id owner, clv_vec2 at,
                              clv_vec2 vel, clv_projectile_def d) {
    d.weapon = w;
    d.owner = owner;
    d.position = at;
    d.velocity = vel;
    clv_attack_id id = {0, 0};
    clv_hit_diag diag;
    clv_hit_status st = clv_arena_spawn_projectile(a, &d, &id, &diag);
    if (st != CLV_HIT_OK) {
        fprintf(stderr, "spawn_projectile: %s\n", diag.message);
    }
    CHECK(st == CLV_HIT_OK);
    return id;
}

static int32_t count_pevents(const clv_arena *a, clv_projectile_event_kind kind) {
    int32_t n = 0, k = 0;
    const clv_projectile_event *e = clv_arena_projectile_events(a, &n);
    for (int32_t i = 0; i < n; i++) {
        k += e[i].kind == kind;
    }
    return k;
}

static float hp(const clv_arena *a, clv_entity_id id) {
    clv_entity_info e;
    CHECK(clv_arena_entity(a, id, &e) == CLV_HIT_OK);
    return e.hp;
}

/* A knife of radius 1 at 2,000 units per frame passes 20 targets of radius 0.5 between two
 * placements: it hits every one on the frame it passes them, and one 1.6 off its line (a gap
 * of 0.1) not at all, while one 1.4 off is hit. */
static void test_fast_projectile_hits_thin_targets(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_weapon_id w = add_weapon(a, knife(1.0f, 1.0f));
    clv_entity_id thrower = spawn(a, -50.0f, 0.0f, 0.0f, 1);
    clv_entity_id t[22];
    for (int i = 0; i < 20; i++) {
        t[i] = spawn(a, 100.0f + 95.0f * (float)i, 0.0f, 0.5f, 2);
    }
    t[20] = spawn(a, 1000.5f, 1.6f, 0.5f, 2);
    t[21] = spawn(a, 1200.5f, -1.4f, 0.5f, 2);
    clv_projectile_def d = clv_default_projectile_def();
    d.pierce = 0;
    clv_attack_id k = throw_at(a, w, thrower, clv_v2(0.0f, 0.0f), clv_v2(2000.0f, 0.0f), d);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    int32_t n = -1;
    clv_arena_hits(a, &n);
    CHECK(n == 0);
    CHECK(count_pevents(a, CLV_PROJECTILE_SPAWNED) == 1);
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    const clv_hit_event *h = clv_arena_hits(a, &n);
    CHECK(n == 21);
    for (int32_t i = 0; i < n; i++) {
        CHECK(h[i].target.index1 != t[20].index1);
        CHECK(h[i].sweep_t < 1.0f);
    }
    for (int i = 0; i < 20; i++) {
        CHECK(hp(a, t[i]) == 99.0f);
    }
    CHECK(hp(a, t[20]) == 100.0f && hp(a, t[21]) == 99.0f);
    clv_projectile_info info;
    CHECK(clv_arena_projectile(a, k, &info) == CLV_HIT_OK);
    CHECK(info.position.x == 2000.0f && info.hits == 21);
    clv_arena_destroy(a);
}

/* pierce 2: the first two targets on its line are hit, then it is destroyed before the third. */
static void test_pierce_destroys_after_n_hits(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_weapon_id w = add_weapon(a, knife(1.0f, 4.0f));
    clv_entity_id thrower = spawn(a, -50.0f, 0.0f, 0.0f, 1);
    clv_entity_id t0 = spawn(a, 20.0f, 0.0f, 2.0f, 2), t1 = spawn(a, 45.0f, 0.0f, 2.0f, 2);
    clv_entity_id t2 = spawn(a, 70.0f, 0.0f, 2.0f, 2);
    clv_projectile_def d = clv_default_projectile_def();
    d.pierce = 2;
    clv_attack_id k = throw_at(a, w, thrower, clv_v2(0.0f, 0.0f), clv_v2(10.0f, 0.0f), d);
    int32_t destroyed_on = -1;
    for (int f = 1; f <= 10; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        if (count_pevents(a, CLV_PROJECTILE_DESTROYED) == 1) {
            destroyed_on = f;
            int32_t n = 0;
            const clv_projectile_event *e = clv_arena_projectile_events(a, &n);
            CHECK(e[n - 1].reason == -1);
        }
    }
    CHECK(destroyed_on == 6); /* placed at x = 50 on frame 6: the second target */
    CHECK(hp(a, t0) == 96.0f && hp(a, t1) == 96.0f && hp(a, t2) == 100.0f);
    CHECK(!clv_arena_attack_valid(a, k));
    clv_arena_destroy(a);
}

/* lifetime 5 with a looping 2-frame attack: placed on 5 frames, expired on the 6th; without
 * loop a 3-frame attack with lifetime 10 expires after its last frame. Gravity bends it. */
static void test_lifetime_and_loop(void) {
    for (int loop = 0; loop < 2; loop++) {
        clv_arena *a = clv_arena_create(NULL, NULL);
        knife_spec ks = knife(1.0f, 1.0f);
        ks.frames = loop ? 2 : 3;
        clv_weapon_id w = add_weapon(a, ks);
        clv_entity_id thrower = spawn(a, 0.0f, 0.0f, 0.0f, 1);
        clv_projectile_def d = clv_default_projectile_def();
        d.lifetime = loop ? 5 : 10;
        d.loop = loop != 0;
        d.gravity = 0.5f;
        clv_attack_id k = throw_at(a, w, thrower, clv_v2(0.0f, 0.0f), clv_v2(3.0f, -2.0f), d);
        int32_t placed = 0, expired_on = -1;
        for (int f = 1; f <= 12; f++) {
            CHECK(clv_arena_step(a) == CLV_HIT_OK);
            placed += clv_arena_attack_valid(a, k);
            if (count_pevents(a, CLV_PROJECTILE_EXPIRED) == 1) {
                expired_on = f;
            }
            if (f == 3) {
                clv_projectile_info info;
                CHECK(clv_arena_projectile(a, k, &info) == CLV_HIT_OK);
                CHECK(info.position.x == 6.0f);
                CHECK(info.position.y == -2.5f); /* -1.5 then -1.0 */
                CHECK(info.velocity.y == -1.0f);
                CHECK(info.lifetime == d.lifetime - 3);
            }
        }
        CHECK(placed == (loop ? 5 : 3));
        CHECK(expired_on == (loop ? 6 : 4));
        clv_arena_destroy(a);
    }
}

/* A knife (5 damage) meets a sword's blade (10, within the clank range): both stop; the knife is
 * destroyed, or flies on without destroy_on_clank. Two knives head on clank each other. */
static void test_projectile_clanks(void) {
    for (int keep = 0; keep < 2; keep++) {
        clv_arena *a = clv_arena_create(NULL, NULL);
        clv_weapon_id kw = add_weapon(a, knife(2.0f, 5.0f));
        knife_spec sword = knife(3.0f, 10.0f);
        sword.upright = true;
        sword.frames = 10;
        clv_weapon_id sw = add_weapon(a, sword);
        clv_entity_id thrower = spawn(a, -100.0f, 0.0f, 0.0f, 2);
        clv_entity_id fencer = spawn(a, 0.0f, 0.0f, 8.0f, 1);
        clv_attack_start_def s = clv_default_attack_start_def();
        s.weapon = sw;
        s.owner = fencer;
        s.position = clv_v2(20.0f, 0.0f);
        clv_attack_id swing;
        CHECK(clv_arena_start_attack(a, &s, &swing, NULL) == CLV_HIT_OK);
        clv_projectile_def d = clv_default_projectile_def();
        d.destroy_on_clank = keep == 0;
        clv_attack_id k = throw_at(a, kw, thrower, clv_v2(50.0f, 0.0f), clv_v2(-30.0f, 0.0f), d);
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        CHECK(clv_arena_step(a) == CLV_HIT_OK); /* placed at 20: on the blade */
        int32_t n = 0;
        const clv_clash_event *c = clv_arena_clashes(a, &n);
        CHECK(n == 1 && c[0].kind == CLV_CLASH_CLANK);
        CHECK(count_pevents(a, CLV_PROJECTILE_DESTROYED) == (keep ? 0 : 1));
        CHECK(clv_arena_attack_valid(a, k) == (keep != 0));
        CHECK(!clv_arena_attack_valid(a, swing));
        CHECK(hp(a, fencer) == 100.0f);
        clv_arena_destroy(a);
    }
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_weapon_id kw = add_weapon(a, knife(2.0f, 5.0f));
    clv_entity_id p = spawn(a, -100.0f, 0.0f, 0.0f, 1), q = spawn(a, 100.0f, 0.0f, 0.0f, 2);
    clv_projectile_def d = clv_default_projectile_def();
    throw_at(a, kw, p, clv_v2(-40.0f, 0.0f), clv_v2(30.0f, 0.0f), d);
    throw_at(a, kw, q, clv_v2(40.0f, 0.0f), clv_v2(-30.0f, 0.0f), d);
    int32_t n = 0;
    for (int f = 0; f < 2; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        clv_arena_clashes(a, &n);
        CHECK(n == 0);
    }
    /* from -10 and 10 they cross between two placements: only their sweeps meet */
    CHECK(clv_arena_step(a) == CLV_HIT_OK);
    const clv_clash_event *c = clv_arena_clashes(a, &n);
    CHECK(n == 1 && c[0].kind == CLV_CLASH_CLANK);
    CHECK(n == 1 && c[0].sweep_t == 0.0f);
    CHECK(count_pevents(a, CLV_PROJECTILE_DESTROYED) == 2);
    clv_arena_destroy(a);
}

/* A bat's REFLECT blade (upright at x = 20, speed x1.5, damage x2) meets a knife flying -x at
 * 10: the knife turns to +15 (mirrored about the normal), joins the batter's team and hits its
 * thrower for twice its damage. Along the facing (a quarter turn) it leaves along +y at 15. */
static void test_reflect_turns_back(void) {
    for (int along = 0; along < 2; along++) {
        clv_arena *a = clv_arena_create(NULL, NULL);
        clv_weapon_id kw = add_weapon(a, knife(1.0f, 6.0f));
        knife_spec bat = knife(2.0f, 3.0f);
        bat.upright = along == 0; /* a circle turned a quarter turn is the same circle */
        bat.frames = 30;
        bat.kind = CLV_HITBOX_REFLECT;
        bat.reflect_speed = 1.5f;
        bat.reflect_damage = 2.0f;
        bat.along_facing = along != 0;
        clv_weapon_id bw = add_weapon(a, bat);
        clv_entity_id batter = spawn(a, 0.0f, 0.0f, 0.0f, 1);
        clv_entity_id thrower = spawn(a, 90.0f, 0.0f, 4.0f, 2);
        clv_attack_start_def s = clv_default_attack_start_def();
        s.weapon = bw;
        s.owner = batter;
        s.position = clv_v2(20.0f, 0.0f);
        s.facing = along ? 1.57079633f : 0.0f;
        CHECK(clv_arena_start_attack(a, &s, NULL, NULL) == CLV_HIT_OK);
        clv_projectile_def d = clv_default_projectile_def();
        clv_attack_id k = throw_at(a, kw, thrower, clv_v2(40.0f, 0.0f), clv_v2(-10.0f, 0.0f), d);
        int32_t reflected_on = -1;
        clv_vec2 v = {0.0f, 0.0f};
        for (int f = 1; f <= 3 && reflected_on < 0; f++) {
            CHECK(clv_arena_step(a) == CLV_HIT_OK);
            int32_t n = 0;
            const clv_projectile_event *e = clv_arena_projectile_events(a, &n);
            for (int32_t i = 0; i < n; i++) {
                if (e[i].kind == CLV_PROJECTILE_REFLECTED) {
                    reflected_on = f;
                    v = e[i].velocity;
                    CHECK(e[i].by.index1 == batter.index1);
                    CHECK(e[i].owner.index1 == thrower.index1);
                }
            }
        }
        CHECK(reflected_on == 3); /* placed at 40, 30, 20: the blade's edge is at 22 */
        clv_projectile_info info;
        CHECK(clv_arena_projectile(a, k, &info) == CLV_HIT_OK);
        CHECK(info.team == 1 && info.owner.index1 == batter.index1);
        CHECK(info.damage_scale == 2.0f);
        if (along) {
            CHECK_NEAR(v.x, 0.0f, 1e-5);
            CHECK_NEAR(v.y, 15.0f, 1e-5);
        } else {
            CHECK_NEAR(v.x, 15.0f, 1e-5);
            CHECK_NEAR(v.y, 0.0f, 1e-5);
            for (int f = 0; f < 8; f++) {
                CHECK(clv_arena_step(a) == CLV_HIT_OK);
            }
            CHECK(hp(a, thrower) == 88.0f);
        }
        clv_arena_destroy(a);
    }
}

/* An ABSORB hitbox takes the knife: destroyed, its damage reported, its hits this frame missed
 * with ABSORBED; an unabsorbable knife clanks instead. */
static void test_absorb_reports_damage(void) {
    for (int refuse = 0; refuse < 2; refuse++) {
        clv_arena *a = clv_arena_create(NULL, NULL);
        clv_weapon_id kw = add_weapon(a, knife(1.0f, 7.0f));
        knife_spec shield = knife(2.0f, 0.0f);
        shield.upright = true;
        shield.frames = 30;
        shield.kind = CLV_HITBOX_ABSORB;
        clv_weapon_id bw = add_weapon(a, shield);
        clv_entity_id holder = spawn(a, 0.0f, 0.0f, 8.0f, 1);
        clv_entity_id thrower = spawn(a, 90.0f, 0.0f, 4.0f, 2);
        clv_attack_start_def s = clv_default_attack_start_def();
        s.weapon = bw;
        s.owner = holder;
        s.position = clv_v2(10.0f, 0.0f);
        CHECK(clv_arena_start_attack(a, &s, NULL, NULL) == CLV_HIT_OK);
        clv_projectile_def d = clv_default_projectile_def();
        d.absorbable = refuse == 0;
        throw_at(a, kw, thrower, clv_v2(30.0f, 0.0f), clv_v2(-10.0f, 0.0f), d);
        float absorbed = -1.0f;
        int32_t clashes = 0;
        for (int f = 1; f <= 3; f++) {
            CHECK(clv_arena_step(a) == CLV_HIT_OK);
            int32_t n = 0;
            const clv_projectile_event *e = clv_arena_projectile_events(a, &n);
            for (int32_t i = 0; i < n; i++) {
                absorbed = e[i].kind == CLV_PROJECTILE_ABSORBED ? e[i].damage : absorbed;
            }
            const clv_clash_event *c = clv_arena_clashes(a, &n);
            for (int32_t i = 0; i < n; i++) {
                clashes++;
                CHECK(c[i].kind == (refuse ? CLV_CLASH_CLANK : CLV_CLASH_ABSORB));
            }
        }
        CHECK(clashes == 1);
        CHECK(absorbed == (refuse ? -1.0f : 7.0f));
        CHECK(hp(a, holder) == 100.0f);
        clv_arena_destroy(a);
    }
}

static void reseal(unsigned char *buf, size_t len) {
    uint64_t h = clv__snapshot_check(buf, len);
    memcpy(buf + AT_CHECK, &h, 8);
}

/* A snapshot with a knife in flight restores to the same hash and the same next frames; one
 * field of its flight forged at a time is refused, naming the projectile. */
static void test_projectile_snapshot(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_weapon_id kw = add_weapon(a, knife(1.0f, 2.0f));
    clv_entity_id thrower = spawn(a, 0.0f, 0.0f, 0.0f, 1);
    spawn(a, 60.0f, 0.0f, 4.0f, 2);
    clv_projectile_def d = clv_default_projectile_def();
    d.gravity = 0.25f;
    d.loop = true;
    throw_at(a, kw, thrower, clv_v2(0.0f, 0.0f), clv_v2(7.0f, 0.0f), d);
    for (int f = 0; f < 3; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
    }
    size_t len = clv_arena_snapshot_size(a);
    unsigned char *buf = malloc(len);
    CHECK(clv_arena_snapshot(a, buf, len, NULL) == CLV_HIT_OK);
    uint64_t hashes[8];
    for (int f = 0; f < 8; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        hashes[f] = clv_arena_hash(a);
    }
    CHECK(clv_arena_restore(a, buf, len) == CLV_HIT_OK);
    for (int f = 0; f < 8; f++) {
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        CHECK(clv_arena_hash(a) == hashes[f]);
    }
    size_t at = SNAP_HEADER + (size_t)a->ent_count *
                                  (sizeof(clv__entity) + sizeof(clv__vitals) + sizeof(clv__hurt) +
                                   CLV_ENTITY_MAX_EFFECTS * sizeof(clv__effect));
    struct {
        size_t off;
        int32_t value;
    } forged[] = {
        {offsetof(clv__attack, lifetime), -1},
        {offsetof(clv__attack, pierce), -3},
        {offsetof(clv__attack, projectile), 2},
        {offsetof(clv__attack, damage_scale), 0x7f800000}, /* infinity */
        {offsetof(clv__attack, vel), 0x7fc00000},          /* NaN */
        {offsetof(clv__attack, follow), 1},
    };
    for (size_t i = 0; i < sizeof forged / sizeof forged[0]; i++) {
        unsigned char *b = malloc(len);
        memcpy(b, buf, len);
        if (forged[i].off == offsetof(clv__attack, projectile)) {
            b[at + forged[i].off] = (unsigned char)forged[i].value;
        } else {
            memcpy(b + at + forged[i].off, &forged[i].value, 4);
        }
        reseal(b, len);
        clv_hit_diag diag;
        CHECK(clv_arena_restore_diag(a, b, len, &diag) == CLV_HIT_ERR_SNAPSHOT);
        CHECK(strcmp(diag.field, "projectile") == 0);
        CHECK(strstr(diag.message, "attack slot 0") != NULL);
        free(b);
    }
    /* a frame at the int32 limit: refused, without an overflow on the way (the sanitizer build
     * stops at one) */
    unsigned char *b = malloc(len);
    memcpy(b, buf, len);
    int32_t frame = INT32_MAX;
    memcpy(b + at + offsetof(clv__attack, frame), &frame, sizeof frame);
    reseal(b, len);
    clv_hit_diag diag;
    CHECK(clv_arena_restore_diag(a, b, len, &diag) == CLV_HIT_ERR_SNAPSHOT);
    CHECK(strcmp(diag.field, "attack") == 0);
    free(b);
    free(buf);
    clv_arena_destroy(a);
}

static void test_projectile_def_checked(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_weapon_id kw = add_weapon(a, knife(1.0f, 2.0f));
    clv_entity_id thrower = spawn(a, 0.0f, 0.0f, 0.0f, 1);
    clv_projectile_def d = clv_default_projectile_def();
    d.weapon = kw;
    d.owner = thrower;
    clv_hit_diag diag;
    d.lifetime = 0;
    CHECK(clv_arena_spawn_projectile(a, &d, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "lifetime") == 0);
    d.lifetime = 5;
    d.pierce = -1;
    CHECK(clv_arena_spawn_projectile(a, &d, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "pierce") == 0);
    d.pierce = 0;
    d.velocity.x = 2e9f;
    CHECK(clv_arena_spawn_projectile(a, &d, NULL, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "velocity") == 0);
    d.velocity.x = 0.0f;
    d.owner.gen = 9;
    CHECK(clv_arena_spawn_projectile(a, &d, NULL, &diag) == CLV_HIT_ERR_STALE_ID);
    clv_hitbox_def h = clv_default_hitbox_def();
    snprintf(h.id, sizeof h.id, "bat");
    h.kind = (clv_hitbox_kind)4;
    CHECK(clv_hitbox_def_check(&h, &diag) == CLV_HIT_ERR_ENUM);
    CHECK(strcmp(diag.field, "kind") == 0);
    h.kind = CLV_HITBOX_REFLECT;
    h.reflect_speed = -1.0f;
    CHECK(clv_hitbox_def_check(&h, &diag) == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "reflect_speed") == 0);
    clv_arena_destroy(a);
}

/* What the arena placed for an attack on its last step: the geometry of each of its hitboxes
 * and, when swept by one sub-step, their cores. */
typedef struct placed_set {
    int32_t n;
    clv__placed pl[2];
    clv_vec2 sub[2][4];
} placed_set;

static placed_set placed_of(const clv_arena *a, clv_attack_id id) {
    placed_set c;
    memset(&c, 0, sizeof c);
    for (int32_t i = 0; i < a->placed_count && c.n < 2; i++) {
        if (a->placed[i].attack1 == id.index1) {
            c.pl[c.n] = a->placed[i];
            if (c.pl[c.n].nsub == 1) {
                memcpy(c.sub[c.n], &a->sub[c.pl[c.n].sub0], sizeof c.sub[0]);
            }
            c.n++;
        }
    }
    return c;
}

static bool same_geometry(const placed_set *x, const placed_set *y) {
    bool same = x->n > 0 && x->n == y->n;
    for (int32_t k = 0; same && k < x->n; k++) {
        const clv__placed *p = &x->pl[k], *q = &y->pl[k];
        same = memcmp(&p->shape, &q->shape, sizeof p->shape) == 0 &&
               memcmp(&p->bounds, &q->bounds, sizeof p->bounds) == 0 && p->nsub == q->nsub &&
               memcmp(&p->r0, &q->r0, sizeof p->r0) == 0 &&
               memcmp(&p->r1, &q->r1, sizeof p->r1) == 0 &&
               memcmp(&p->grow, &q->grow, sizeof p->grow) == 0 &&
               memcmp(x->sub[k], y->sub[k], sizeof x->sub[k]) == 0;
    }
    return same;
}

/* A projectile in straight flight takes a placing path of its own (place_flight): frame by
 * frame it must place exactly what the general path places for the same hitbox moved by hand
 * along the same positions (an attack that does not follow its owner, its pose set each frame):
 * the same shape, bounds, sub-steps, slack and cores of every hitbox, bit for bit. Capsules and
 * circles, turned and mirrored, fast, falling, far from the origin and still, alone or with a
 * second box farther out (whose slack is its own). */
static void test_flight_places_as_moved_by_hand(void) {
    typedef struct flight {
        bool upright, tip;
        float radius, facing, gravity;
        bool mirror;
        clv_vec2 at, vel;
    } flight;
    const flight cases[] = {
        {true, false, 2.0f, 0.7f, 0.0f, true, {100.0f, 50.0f}, {3.3f, -1.7f}},
        {false, false, 1.5f, 0.0f, 0.0f, false, {-40.0f, 7.0f}, {1000.25f, 0.0f}},
        {true, false, 0.5f, -2.2f, 0.4f, false, {0.0f, 0.0f}, {2.0f, -5.0f}},
        {true, false, 3.0f, 1.0f, 0.0f, false, {1.0e6f, -3.0e5f}, {7.1f, 0.3f}},
        {false, false, 1.0f, 0.3f, 0.0f, true, {5.0f, 5.0f}, {0.0f, 0.0f}},
        {true, true, 2.0f, 0.4f, 0.0f, true, {-200.0f, 30.0f}, {5.5f, 2.25f}},
        {false, true, 1.0f, -1.3f, 0.2f, false, {3.0e5f, 1.0e5f}, {-6.0f, 1.5f}},
    };
    enum { FRAMES = 12 };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const flight *f = &cases[c];
        knife_spec k = knife(f->radius, 1.0f);
        k.upright = f->upright;
        k.tip = f->tip;
        placed_set flown[FRAMES];
        clv_vec2 path[FRAMES];
        clv_arena *a = clv_arena_create(NULL, NULL);
        clv_weapon_id w = add_weapon(a, k);
        clv_entity_id owner = spawn(a, -5000.0f, -5000.0f, 0.0f, 1);
        clv_projectile_def d = clv_default_projectile_def();
        d.facing = f->facing;
        d.mirror = f->mirror;
        d.gravity = f->gravity;
        clv_attack_id p = throw_at(a, w, owner, f->at, f->vel, d);
        for (int i = 0; i < FRAMES; i++) {
            CHECK(clv_arena_step(a) == CLV_HIT_OK);
            flown[i] = placed_of(a, p);
            path[i] = a->att[p.index1 - 1].offset;
        }
        clv_arena_destroy(a);

        a = clv_arena_create(NULL, NULL);
        w = add_weapon(a, k);
        owner = spawn(a, -5000.0f, -5000.0f, 0.0f, 1);
        clv_attack_start_def s = clv_default_attack_start_def();
        s.weapon = w;
        s.owner = owner;
        s.follow_owner = false;
        clv_attack_id m = {0, 0};
        CHECK(clv_arena_start_attack(a, &s, &m, NULL) == CLV_HIT_OK);
        for (int i = 0; i < FRAMES; i++) {
            CHECK(clv_arena_set_attack_pose(a, m, path[i], f->facing, f->mirror) == CLV_HIT_OK);
            CHECK(clv_arena_step(a) == CLV_HIT_OK);
            placed_set moved = placed_of(a, m);
            CHECK(same_geometry(&flown[i], &moved));
            CHECK(moved.n == (f->tip ? 2 : 1));
            CHECK(i == 0 || f->vel.x == 0.0f || moved.pl[0].nsub >= 1); /* swept after its first */
        }
        clv_arena_destroy(a);
    }
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_fast_projectile_hits_thin_targets);
    RUN(test_pierce_destroys_after_n_hits);
    RUN(test_lifetime_and_loop);
    RUN(test_projectile_clanks);
    RUN(test_reflect_turns_back);
    RUN(test_absorb_reports_damage);
    RUN(test_projectile_snapshot);
    RUN(test_projectile_def_checked);
    RUN(test_flight_places_as_moved_by_hand);
    return clv_test_report();
}
