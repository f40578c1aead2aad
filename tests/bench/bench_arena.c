/* A full arena frame: 8 attackers swinging 8 hitboxes each against N moving enemies.
 *
 * Usage: bench_arena [--quick] [--json PATH]
 * Prints, for N = 1,000, 10,000, 100,000 and 1,000,000 (the scan up to 100,000), the median
 * over 5 repetitions of the mean time per frame (20 frames each, after a warm-up), and how the
 * step's time splits between its phases, from the arena's own profile clock. --json appends
 * one line per figure: {"bench": "...", "impl": "cleave", "ns": ...}.
 * The enemies' wall bounces are the game's work and are not timed.
 */
#include "cleave/hit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WORLD 8192.0f
#define ATTACKERS 8
#define BOXES 8
#define REPS 5
#define WARM 5
#define FRAMES 20

static uint64_t clock_ns(void *ctx) {
    (void)ctx;
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

typedef struct rng {
    uint64_t s;
} rng;

static float unit(rng *r) {
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (float)(r->s >> 40) / 16777216.0f;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static clv_weapon *make_weapon(void) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def a = clv_default_attack_def();
    snprintf(a.name, sizeof a.name, "whirl");
    a.frames = 60;
    a.rehit = 10;
    clv_weapon_add_attack(w, &a, NULL, NULL);
    for (int k = 0; k < BOXES; k++) {
        clv_hitbox_def h = clv_default_hitbox_def();
        snprintf(h.id, sizeof h.id, "blade%d", k);
        float s = 0.0f, c = 1.0f;
        /* eight blades around the attacker, 20 to 80 units long */
        const float dirs[BOXES][2] = {{1, 0},  {0.7071f, 0.7071f},   {0, 1},  {-0.7071f, 0.7071f},
                                      {-1, 0}, {-0.7071f, -0.7071f}, {0, -1}, {0.7071f, -0.7071f}};
        c = dirs[k][0];
        s = dirs[k][1];
        h.shape = clv_shape_capsule(20.0f * c, 20.0f * s, 80.0f * c, 80.0f * s, 10.0f);
        h.group = k % 2;
        h.damage = 1.0f;
        h.hitlag = 0; /* keep all 64 hitboxes active every frame */
        h.hitstun = 0;
        h.knockback.kind = CLV_KNOCKBACK_RADIAL;
        h.knockback.base = 1.0f;
        clv_weapon_add_hitbox(w, 0, 0, 59, &h, NULL);
    }
    return w;
}

typedef struct result {
    double us;
    double share[5];
    double candidates, contacts, hits;
} result;

static result run(uint32_t n, int grid) {
    rng r = {42};
    clv_arena_def ad = clv_default_arena_def();
    ad.entity_capacity = (int32_t)n + ATTACKERS;
    ad.clock_ns = clock_ns;
    if (grid) {
        /* the broadphase benchmark's grid: 64-unit cells over the world */
        ad.grid_cell_size = 64.0f;
        ad.grid_origin = clv_v2(0.0f, 0.0f);
        ad.grid_cols = (int32_t)(WORLD / 64.0f);
        ad.grid_rows = (int32_t)(WORLD / 64.0f);
    }
    clv_arena *a = clv_arena_create(&ad, NULL);
    clv_weapon *w = make_weapon();
    clv_weapon_id wid;
    clv_arena_add_weapon(a, w, &wid, NULL);
    clv_weapon_destroy(w);
    clv_entity_id *ids = malloc(n * sizeof *ids);
    clv_entity_id heroes[ATTACKERS];
    clv_attack_id attacks[ATTACKERS];
    for (int i = 0; i < ATTACKERS; i++) {
        clv_entity_def d = clv_default_entity_def();
        d.position = clv_v2(WORLD * unit(&r), WORLD * unit(&r));
        d.team = 1;
        d.hurtbox_count = 0;
        clv_arena_spawn(a, &d, &heroes[i], NULL);
        attacks[i].index1 = 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        clv_entity_def d = clv_default_entity_def();
        d.position = clv_v2(WORLD * unit(&r), WORLD * unit(&r));
        d.velocity = clv_v2(6.0f * unit(&r) - 3.0f, 6.0f * unit(&r) - 3.0f);
        d.hp = CLV_WORLD_LIMIT; /* never dies within the run */
        d.team = 2;
        d.hurtboxes[0] = clv_shape_circle(0, 0, 8.0f + 8.0f * unit(&r));
        if (clv_arena_spawn(a, &d, &ids[i], NULL) != CLV_HIT_OK) {
            fprintf(stderr, "spawn failed\n");
            exit(1);
        }
    }
    double per_frame[REPS];
    uint64_t phase[5] = {0, 0, 0, 0, 0};
    double cand = 0, cont = 0, hits = 0;
    int frame = 0;
    for (int rep = 0; rep < REPS; rep++) {
        uint64_t total = 0;
        for (int f = -WARM; f < FRAMES; f++, frame++) {
            /* the game's part: swing, turn, bounce off the walls */
            for (int i = 0; i < ATTACKERS; i++) {
                if (!clv_arena_attack_valid(a, attacks[i])) {
                    clv_attack_start_def s = clv_default_attack_start_def();
                    s.weapon = wid;
                    s.owner = heroes[i];
                    clv_arena_start_attack(a, &s, &attacks[i], NULL);
                }
                clv_arena_set_attack_pose(a, attacks[i], clv_v2(0, 0), 0.15f * (float)frame, false);
            }
            for (uint32_t i = 0; i < n; i++) {
                clv_entity_info e;
                clv_arena_entity(a, ids[i], &e);
                clv_vec2 v = e.velocity;
                if ((e.position.x < 0.0f && v.x < 0.0f) || (e.position.x > WORLD && v.x > 0.0f)) {
                    v.x = -v.x;
                }
                if ((e.position.y < 0.0f && v.y < 0.0f) || (e.position.y > WORLD && v.y > 0.0f)) {
                    v.y = -v.y;
                }
                if (v.x != e.velocity.x || v.y != e.velocity.y) {
                    clv_arena_set_velocity(a, ids[i], v);
                }
            }
            uint64_t t0 = clock_ns(NULL);
            if (clv_arena_step(a) != CLV_HIT_OK) {
                fprintf(stderr, "step failed\n");
                exit(1);
            }
            uint64_t dt = clock_ns(NULL) - t0;
            if (f < 0) {
                continue;
            }
            total += dt;
            clv_arena_profile p = clv_arena_last_profile(a);
            phase[0] += p.integrate + p.place;
            phase[1] += p.broadphase;
            phase[2] += p.narrowphase;
            phase[3] += p.rules;
            phase[4] += dt;
            cand += (double)p.candidates;
            cont += (double)p.contacts;
            int32_t nh = 0;
            clv_arena_hits(a, &nh);
            hits += nh;
        }
        per_frame[rep] = (double)total / FRAMES / 1e3;
    }
    qsort(per_frame, REPS, sizeof per_frame[0], cmp_double);
    result res;
    res.us = per_frame[REPS / 2];
    for (int k = 0; k < 4; k++) {
        res.share[k] = (double)phase[k] / (double)phase[4];
    }
    res.share[4] = 1.0 - (res.share[0] + res.share[1] + res.share[2] + res.share[3]);
    res.candidates = cand / (REPS * FRAMES);
    res.contacts = cont / (REPS * FRAMES);
    res.hits = hits / (REPS * FRAMES);
    free(ids);
    clv_arena_destroy(a);
    return res;
}

/* A frame of the same scene (10k enemies, the grid) with 1,000 knives in flight, thrown by
 * enemies so that they meet the 64 melee hitboxes, against the frame without them: the median
 * of REPS mean times per frame, each side with its own arena. */
static double projectile_frame(uint32_t n, int32_t knives) {
    rng r = {7};
    clv_arena_def ad = clv_default_arena_def();
    ad.entity_capacity = (int32_t)n + ATTACKERS;
    ad.grid_cell_size = 64.0f;
    ad.grid_cols = ad.grid_rows = (int32_t)(WORLD / 64.0f);
    clv_arena *a = clv_arena_create(&ad, NULL);
    clv_weapon *w = make_weapon();
    clv_weapon *k = clv_weapon_create(NULL, NULL);
    clv_attack_def fly = clv_default_attack_def();
    snprintf(fly.name, sizeof fly.name, "fly");
    fly.frames = 4;
    clv_weapon_add_attack(k, &fly, NULL, NULL);
    clv_hitbox_def edge = clv_default_hitbox_def();
    snprintf(edge.id, sizeof edge.id, "edge");
    edge.shape = clv_shape_capsule(-4.0f, 0.0f, 4.0f, 0.0f, 1.5f);
    clv_weapon_add_hitbox(k, 0, 0, 3, &edge, NULL);
    clv_weapon_id wid, kid;
    clv_arena_add_weapon(a, w, &wid, NULL);
    clv_arena_add_weapon(a, k, &kid, NULL);
    clv_weapon_destroy(w);
    clv_weapon_destroy(k);
    clv_entity_id *ids = malloc(n * sizeof *ids);
    clv_attack_id attacks[ATTACKERS] = {{0, 0}};
    clv_attack_id *thrown = calloc((size_t)knives + 1, sizeof *thrown);
    clv_entity_id heroes[ATTACKERS];
    for (uint32_t i = 0; i < ATTACKERS + n; i++) {
        clv_entity_def d = clv_default_entity_def();
        d.position = clv_v2(WORLD * unit(&r), WORLD * unit(&r));
        d.team = i < ATTACKERS ? 1 : 2;
        d.hp = CLV_WORLD_LIMIT;
        d.hurtbox_count = i < ATTACKERS ? 0 : 1;
        clv_arena_spawn(a, &d, i < ATTACKERS ? &heroes[i] : &ids[i - ATTACKERS], NULL);
    }
    double per_frame[REPS];
    for (int rep = 0, frame = 0; rep < REPS; rep++) {
        uint64_t total = 0;
        for (int f = -WARM; f < FRAMES; f++, frame++) {
            for (int i = 0; i < ATTACKERS; i++) {
                if (!clv_arena_attack_valid(a, attacks[i])) {
                    clv_attack_start_def s = clv_default_attack_start_def();
                    s.weapon = wid;
                    s.owner = heroes[i];
                    clv_arena_start_attack(a, &s, &attacks[i], NULL);
                }
                clv_arena_set_attack_pose(a, attacks[i], clv_v2(0, 0), 0.15f * (float)frame, false);
            }
            for (int32_t i = 0; i < knives; i++) {
                if (!clv_arena_attack_valid(a, thrown[i])) {
                    clv_projectile_def p = clv_default_projectile_def();
                    p.weapon = kid;
                    p.owner = ids[(uint32_t)i % n];
                    p.position = clv_v2(WORLD * unit(&r), WORLD * unit(&r));
                    p.velocity = clv_v2(16.0f * unit(&r) - 8.0f, 16.0f * unit(&r) - 8.0f);
                    p.lifetime = 120;
                    p.loop = true;
                    p.pierce = 0;
                    clv_arena_spawn_projectile(a, &p, &thrown[i], NULL);
                }
            }
            uint64_t t0 = clock_ns(NULL);
            clv_arena_step(a);
            total += f >= 0 ? clock_ns(NULL) - t0 : 0;
        }
        per_frame[rep] = (double)total / FRAMES / 1e3;
    }
    qsort(per_frame, REPS, sizeof per_frame[0], cmp_double);
    free(ids);
    free(thrown);
    clv_arena_destroy(a);
    return per_frame[REPS / 2];
}

int main(int argc, char **argv) {
    const char *json_path = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            json_path = argv[++i];
        } else if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else {
            fprintf(stderr, "usage: %s [--quick] [--json PATH]\n", argv[0]);
            return 2;
        }
    }
    FILE *json = json_path != NULL ? fopen(json_path, "a") : NULL;
    if (json_path != NULL && json == NULL) {
        fprintf(stderr, "cannot open %s\n", json_path);
        return 2;
    }
    const uint32_t sizes[4] = {1000u, 10000u, 100000u, 1000000u};
    printf("== Arena frame: %d attackers x %d hitboxes vs N moving enemies (%gx%g world)\n",
           ATTACKERS, BOXES, (double)WORLD, (double)WORLD);
    printf("%-6s %8s %10s %10s %8s %8s %8s %8s %11s %9s %7s\n", "broad", "N", "us/frame",
           "move+place", "broad", "narrow", "rules", "other", "candidates", "contacts", "hits");
    for (int grid = 1; grid >= 0; grid--) {
        /* a scan of a million enemies per hitbox would take the whole run */
        for (int s = 0; s < (grid ? 4 : 3); s++) {
            uint32_t n = quick ? sizes[s] / 10 : sizes[s];
            result r = run(n, grid);
            const char *impl = grid ? "grid" : "scan";
            printf("%-6s %8u %10.1f %9.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% %11.1f %9.1f %7.1f\n",
                   impl, n, r.us, 100 * r.share[0], 100 * r.share[1], 100 * r.share[2],
                   100 * r.share[3], 100 * r.share[4], r.candidates, r.contacts, r.hits);
            if (json == NULL) {
                continue;
            }
            const char *names[4] = {"integrate_place", "broadphase", "narrowphase", "rules"};
            fprintf(json,
                    "{\"bench\": \"arena/frame_64_vs_%u/%s\", \"impl\": \"cleave\", "
                    "\"ns\": %.1f, \"candidates\": %.1f, \"contacts\": %.1f, \"hits\": %.1f}\n",
                    n, impl, r.us * 1e3, r.candidates, r.contacts, r.hits);
            for (int k = 0; k < 4; k++) {
                fprintf(json,
                        "{\"bench\": \"arena/frame_64_vs_%u/%s/%s\", \"impl\": \"cleave\", "
                        "\"ns\": %.1f, \"share\": %.4f}\n",
                        n, impl, names[k], r.us * 1e3 * r.share[k], r.share[k]);
            }
        }
    }
    uint32_t crowd = quick ? 1000u : 10000u;
    double without = projectile_frame(crowd, 0), with = projectile_frame(crowd, 1000);
    printf("projectiles: %u enemies, 64 melee hitboxes: %.1f us/frame, with 1000 knives %.1f "
           "us/frame (x%.2f)\n",
           crowd, without, with, with / without);
    if (json != NULL) {
        fprintf(json,
                "{\"bench\": \"arena/knives_1000_vs_%u\", \"impl\": \"cleave\", \"ns\": %.1f, "
                "\"without_ns\": %.1f}\n",
                crowd, with * 1e3, without * 1e3);
        fclose(json);
    }
    return 0;
}
