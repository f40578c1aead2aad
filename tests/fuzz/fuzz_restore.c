/* Fuzz target: clv_arena_restore with bytes a mod controls (arena:restore takes any string).
 * An arena with one weapon, a body, a player and a ring of targets (one playing the body, one
 * guarding, one grabbing) is restored from the input, then stepped; the seed corpus holds real
 * snapshots of that arena mid-swing.
 *
 * A snapshot carries a checksum, which random bytes never match, but a mod can compute it (it
 * guards against corruption, not forgery). So each input is restored twice: as it is, and with
 * its checksum recomputed (by the library's own clv__snapshot_check), which lets the fuzzer
 * reach the field checks behind it. The checksum's place in the header is re-derived here; if
 * a real snapshot does not agree (the format changed), the second restore is skipped with a
 * note.
 *
 * Invariants: nothing crashes or trips a sanitizer (leaks included); a refused snapshot leaves
 * the arena unchanged (same hash) and says why; a restored one spawns, starts attacks, steps,
 * removes and spawns again without an error, snapshots again, and restoring that snapshot gives
 * the same hash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleave/body.h"
#include "cleave/hit.h"

#include "../../runtime/hit/src/hit_internal.h"

static clv_weapon *g_weapon;
static clv_body *g_body;

/* Two looping frames: a torso, and an arm that is intangible on the second. */
static clv_body *make_body(void) {
    clv_body *b = clv_body_create("dodger", NULL, NULL);
    clv_animation_def an;
    memset(&an, 0, sizeof an);
    strcpy(an.name, "roll");
    an.frames = 2;
    an.loop = true;
    clv_hurtbox_def hd = clv_default_hurtbox_def();
    strcpy(hd.id, "torso");
    if (b == NULL || clv_body_add_animation(b, &an, NULL, NULL) != CLV_HIT_OK ||
        clv_body_add_hurtbox(b, 0, 0, 1, &hd, NULL) != CLV_HIT_OK) {
        abort();
    }
    strcpy(hd.id, "arm");
    hd.shape = clv_shape_capsule(0, 0, 14, 0, 3);
    hd.state = CLV_HURTBOX_INTANGIBLE;
    if (clv_body_add_hurtbox(b, 0, 1, 1, &hd, NULL) != CLV_HIT_OK) {
        abort();
    }
    return b;
}

static clv_weapon *make_weapon(void) {
    clv_weapon_def wd = clv_default_weapon_def();
    clv_weapon *w = clv_weapon_create(&wd, NULL);
    clv_attack_def ad = clv_default_attack_def();
    strcpy(ad.name, "swing");
    ad.frames = 12;
    ad.rehit = 4;
    int32_t ai;
    if (w == NULL || clv_weapon_add_attack(w, &ad, &ai, NULL) != CLV_HIT_OK) {
        abort();
    }
    clv_hitbox_def hd = clv_default_hitbox_def();
    strcpy(hd.id, "blade");
    hd.shape = clv_shape_capsule(0, 0, 30, 0, 6);
    hd.damage = 3;
    if (clv_weapon_add_hitbox(w, ai, 2, 9, &hd, NULL) != CLV_HIT_OK) {
        abort();
    }
    /* a reflecting bat on the same swing, and a looping knife to throw (attack 1) */
    strcpy(hd.id, "bat");
    hd.shape = clv_shape_circle(12, 0, 5);
    hd.kind = CLV_HITBOX_REFLECT;
    hd.reflect_speed = 1.5f;
    hd.reflect_damage = 2.0f;
    if (clv_weapon_add_hitbox(w, ai, 0, 11, &hd, NULL) != CLV_HIT_OK) {
        abort();
    }
    strcpy(ad.name, "throw");
    ad.frames = 4;
    if (clv_weapon_add_attack(w, &ad, &ai, NULL) != CLV_HIT_OK) {
        abort();
    }
    hd = clv_default_hitbox_def();
    strcpy(hd.id, "knife");
    hd.shape = clv_shape_capsule(-3, 0, 3, 0, 1);
    hd.damage = 4;
    hd.clash = CLV_CLASH_TRADE;
    if (clv_weapon_add_hitbox(w, ai, 0, 3, &hd, NULL) != CLV_HIT_OK) {
        abort();
    }
    strcpy(ad.name, "grab");
    ad.frames = 3;
    hd = clv_default_hitbox_def();
    strcpy(hd.id, "hand");
    hd.shape = clv_shape_circle(10, 0, 9);
    hd.kind = CLV_HITBOX_GRAB;
    if (clv_weapon_add_attack(w, &ad, &ai, NULL) != CLV_HIT_OK ||
        clv_weapon_add_hitbox(w, ai, 0, 2, &hd, NULL) != CLV_HIT_OK) {
        abort();
    }
    return w;
}

/* A knife thrown by owner along -x (a loop, pierce 2, a little gravity). */
static void throw_knife(clv_arena *a, clv_entity_id owner, clv_vec2 at) {
    clv_projectile_def pd = clv_default_projectile_def();
    pd.weapon.index1 = 1;
    pd.attack = 1;
    pd.owner = owner;
    pd.position = at;
    pd.velocity = clv_v2(-9.0f, 0.0f);
    pd.gravity = 0.125f;
    pd.loop = true;
    pd.pierce = 2;
    pd.lifetime = 40;
    clv_arena_spawn_projectile(a, &pd, NULL, NULL);
}

static clv_arena *make_arena(void) {
    clv_arena *a = clv_arena_create(NULL, NULL);
    clv_weapon_id wid;
    clv_body_id bid;
    if (a == NULL || clv_arena_add_weapon(a, g_weapon, &wid, NULL) != CLV_HIT_OK ||
        clv_arena_add_body(a, g_body, &bid, NULL) != CLV_HIT_OK) {
        abort();
    }
    clv_entity_def ed = clv_default_entity_def();
    ed.team = 1;
    clv_entity_id owner;
    clv_arena_spawn(a, &ed, &owner, NULL);
    ed.team = 2;
    clv_entity_id last = {0, 0}, ring[6];
    for (int i = 0; i < 6; i++) {
        ed.position = clv_v2(20.0f + 4.0f * (float)i, -10.0f + 4.0f * (float)i);
        clv_arena_spawn(a, &ed, &last, NULL);
        ring[i] = last;
    }
    clv_arena_set_state(a, last, CLV_HURT_PARRY, 5);
    clv_arena_play(a, ring[0], bid, 0);
    clv_arena_set_facing(a, ring[0], 2.5f, true);
    clv_arena_set_state(a, ring[1], CLV_HURT_GUARD, 0);
    clv_arena_set_facing(a, ring[1], 3.14159265f, false);
    clv_arena_set_armor(a, ring[2], CLV_ARMOR_HEAVY, 2.0f);
    clv_attack_start_def gd = clv_default_attack_start_def();
    gd.weapon = wid;
    gd.attack = 2;
    gd.owner = ring[3];
    gd.facing = 3.14159265f;
    clv_arena_start_attack(a, &gd, NULL, NULL);
    throw_knife(a, last, clv_v2(60.0f, 0.0f));
    clv_attack_start_def sd = clv_default_attack_start_def();
    sd.weapon = wid;
    sd.attack = 0;
    sd.owner = owner;
    clv_arena_start_attack(a, &sd, NULL, NULL);
    return a;
}

static void *snapshot(const clv_arena *a, size_t *len) {
    size_t cap = clv_arena_snapshot_size(a);
    void *buf = malloc(cap > 0 ? cap : 1);
    if (buf == NULL || clv_arena_snapshot(a, buf, cap, len) != CLV_HIT_OK) {
        fprintf(stderr, "fuzz_restore: cannot snapshot\n");
        abort();
    }
    return buf;
}

/* The header's size and where its checksum sits. */
#define SNAP_HEADER 112
#define SNAP_CHECK_AT 80

static void fix_checksum(unsigned char *buf, size_t len) {
    uint64_t h = clv__snapshot_check(buf, len);
    memcpy(buf + SNAP_CHECK_AT, &h, 8);
}

static int g_fix = -1; /* 1 when fix_checksum reproduces real snapshots */

static void probe_fix(void) {
    clv_arena *a = make_arena();
    clv_arena_step(a);
    size_t len;
    unsigned char *buf = snapshot(a, &len);
    uint64_t stored;
    memcpy(&stored, buf + SNAP_CHECK_AT, 8);
    fix_checksum(buf, len);
    uint64_t again;
    memcpy(&again, buf + SNAP_CHECK_AT, 8);
    g_fix = len > SNAP_HEADER && again == stored && clv_arena_restore(a, buf, len) == CLV_HIT_OK;
    if (!g_fix) {
        fprintf(stderr, "fuzz_restore: the snapshot format changed; restoring inputs as given "
                        "only\n");
    }
    free(buf);
    clv_arena_destroy(a);
}

/* A step must succeed, except at the last frame an arena reaches. */
static void step_checked(clv_arena *a) {
    clv_hit_status st = clv_arena_step(a);
    if (st != CLV_HIT_OK &&
        !(st == CLV_HIT_ERR_NUMBER && clv_arena_frame(a) == CLV_ARENA_MAX_FRAME)) {
        fprintf(stderr, "fuzz_restore: a restored arena does not step (%s)\n",
                clv_hit_status_name(st));
        abort();
    }
}

/* What a game does next with a restored arena: every call that uses the free-slot hints, the
 * records and the attacks, each of which must succeed. */
static void play_on(clv_arena *a) {
    clv_entity_id first = {0, 0};
    bool any = clv_arena_next_entity(a, &first);
    clv_entity_def ed = clv_default_entity_def();
    ed.team = 3;
    clv_entity_id fresh;
    clv_attack_start_def sd = clv_default_attack_start_def();
    sd.weapon.index1 = 1;
    if (clv_arena_spawn(a, &ed, &fresh, NULL) != CLV_HIT_OK) {
        fprintf(stderr, "fuzz_restore: a restored arena cannot spawn\n");
        abort();
    }
    for (int k = 0; k < 2; k++) {
        sd.owner = k == 0 ? fresh : first;
        if ((k == 0 || any) && clv_arena_start_attack(a, &sd, NULL, NULL) != CLV_HIT_OK) {
            fprintf(stderr, "fuzz_restore: a restored arena cannot start an attack\n");
            abort();
        }
    }
    throw_knife(a, fresh, clv_v2(40.0f, 2.0f));
    /* whoever holds someone throws them; the body plays again */
    for (clv_entity_id e = {0, 0}; clv_arena_next_entity(a, &e);) {
        clv_entity_body_info bi;
        if (clv_arena_entity_body(a, e, &bi) != CLV_HIT_OK) {
            abort();
        }
        if (bi.holding.index1 != 0) {
            sd.owner = e;
            if (clv_arena_throw(a, &sd, NULL, NULL) != CLV_HIT_OK) {
                fprintf(stderr, "fuzz_restore: a restored grabber cannot throw\n");
                abort();
            }
        }
        if (bi.body.index1 != 0 && clv_arena_play(a, e, bi.body, 0) != CLV_HIT_OK) {
            fprintf(stderr, "fuzz_restore: a restored body cannot play\n");
            abort();
        }
    }
    for (int f = 0; f < 3; f++) {
        step_checked(a);
    }
    if (any && clv_arena_remove(a, first) != CLV_HIT_OK) {
        fprintf(stderr, "fuzz_restore: a restored entity cannot be removed\n");
        abort();
    }
    if (clv_arena_spawn(a, &ed, NULL, NULL) != CLV_HIT_OK) {
        fprintf(stderr, "fuzz_restore: a restored arena cannot spawn after a removal\n");
        abort();
    }
    for (int f = 0; f < 3; f++) {
        step_checked(a);
    }
}

static void restore_and_check(const unsigned char *data, size_t size) {
    clv_arena *a = make_arena();
    clv_arena_step(a);
    uint64_t before = clv_arena_hash(a);
    clv_hit_diag diag;
    if (clv_arena_restore_diag(a, data, size, &diag) != CLV_HIT_OK) {
        if (clv_arena_hash(a) != before || diag.message[0] == '\0') {
            fprintf(stderr, "fuzz_restore: a refused snapshot changed the arena or said nothing\n");
            abort();
        }
    } else {
        play_on(a);
        size_t len;
        void *buf = snapshot(a, &len);
        uint64_t h = clv_arena_hash(a);
        clv_hit_status st = clv_arena_restore_diag(a, buf, len, &diag);
        if (st != CLV_HIT_OK) {
            fprintf(stderr, "fuzz_restore: a snapshot of a restored arena is refused (%s)\n",
                    diag.message);
            abort();
        }
        if (clv_arena_hash(a) != h) {
            fprintf(stderr,
                    "fuzz_restore: a snapshot of a restored arena restores another state\n");
            abort();
        }
        free(buf);
    }
    clv_arena_destroy(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (g_weapon == NULL) {
        g_weapon = make_weapon();
        g_body = make_body();
        /* write the seeds' shape once, for a corpus: CLV_FUZZ_SEED=dir */
        const char *seed = getenv("CLV_FUZZ_SEED");
        if (seed != NULL) {
            clv_arena *a = make_arena();
            for (int f = 0; f < 8; f++) {
                size_t len;
                void *buf = snapshot(a, &len);
                char path[512];
                snprintf(path, sizeof path, "%s/frame%d", seed, f);
                FILE *out = fopen(path, "wb");
                if (out != NULL) {
                    fwrite(buf, 1, len, out);
                    fclose(out);
                }
                free(buf);
                clv_arena_step(a);
            }
            clv_arena_destroy(a);
        }
    }
    if (g_fix < 0) {
        probe_fix();
    }
    restore_and_check(data, size);
    if (g_fix == 1 && size > SNAP_HEADER) {
        unsigned char *copy = malloc(size);
        if (copy == NULL) {
            abort();
        }
        memcpy(copy, data, size);
        fix_checksum(copy, size);
        restore_and_check(copy, size);
        free(copy);
    }
    return 0;
}
