/* A full arena frame: 8 attackers swinging 8 hitboxes each against N moving enemies.
 *
 * Usage: bench_arena [--quick] [--knives] [--json PATH]
 * Prints, for N = 1,000, 10,000, 100,000 and 1,000,000 (the scan up to 100,000), the median
 * over 5 repetitions of the mean time per frame (20 frames each, after a warm-up), and how the
 * step's time splits between its phases, from the arena's own profile clock, with the median
 * of the move's (the profile's integrate) time per entity over the frames. With the grid,
 * every frame of the arena is followed by the collision-only frame of the same world: the
 * collision the arena must at least do (clv_grid_query_boxes over the enemies' positions and
 * radii and the 64 hitboxes' bounds, then the capsule-circle test of every candidate); both
 * are timed in the thread's CPU time and the ratio is the median of the frames' ratios. Then
 * the frame with 1,000 knives against the same without (--knives: only that). --json appends
 * one line per figure: {"bench": "...", "impl": "cleave", "ns": ...}.
 * The enemies' wall bounces are the game's work and are not timed.
 */
#define _POSIX_C_SOURCE 200809L
#include "cleave/broadphase.h"
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

/* The thread's CPU time: the ratios and the knives' figures are medians of single frames, which
 * time taken by other programs on a loaded machine would otherwise inflate at random. */
static uint64_t cpu_ns(void *ctx) {
    (void)ctx;
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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

/* The collision-only frame on the arena's world: the enemies' centres (as the arena's
 * integration puts them: position plus velocity) and radii, and the 64 hitboxes as the arena
 * placed them on this frame, each with bounds covering its capsule on this frame and the one
 * before (the arena's swept bounds also cover the arc between the two). */
typedef struct collide {
    uint32_t n;
    float *px, *py, *vx, *vy; /* the enemies before the step, read by the game's part */
    float *x, *y, *r;
    clv_grid *grid;
    uint32_t *out, cap;
    uint32_t first[ATTACKERS * BOXES + 1];
    clv_capsule caps[ATTACKERS * BOXES], prev[ATTACKERS * BOXES];
    clv_aabb boxes[ATTACKERS * BOXES];
    int placed[ATTACKERS * BOXES]; /* on this frame; prev is meaningful where it was before */
} collide;

static float *floats(uint32_t n) {
    float *p = calloc(n, sizeof *p);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static void collide_init(collide *c, const clv_arena_def *ad, uint32_t n) {
    memset(c, 0, sizeof *c);
    c->n = n;
    c->px = floats(n), c->py = floats(n), c->vx = floats(n), c->vy = floats(n);
    c->x = floats(n), c->y = floats(n), c->r = floats(n);
    clv_grid_def gd = clv_grid_default_def();
    gd.cell_size = ad->grid_cell_size;
    gd.origin = ad->grid_origin;
    gd.cols = (uint32_t)ad->grid_cols;
    gd.rows = (uint32_t)ad->grid_rows;
    gd.capacity = n;
    c->grid = clv_grid_create(&gd, NULL);
    c->cap = n;
    c->out = malloc(c->cap * sizeof *c->out);
    if (c->grid == NULL || c->out == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
}

static void collide_free(collide *c) {
    float *arrays[7] = {c->px, c->py, c->vx, c->vy, c->x, c->y, c->r};
    for (int i = 0; i < 7; i++) {
        free(arrays[i]);
    }
    clv_grid_destroy(c->grid);
    free(c->out);
}

static clv_aabb capsule_bounds(const clv_capsule *k) {
    clv_shape s = clv_shape_capsule(k->a.x, k->a.y, k->b.x, k->b.y, k->r);
    return clv_shape_bounds(&s);
}

/* Untimed: the hitboxes the arena placed on this frame (and their bounds), and the enemies
 * moved as the arena moved them, written just before the frame as a crowd's step would. A
 * swing that ended in the step placed nothing: its boxes are empty (min > max). */
static void collide_prepare(collide *c, clv_arena *a, const clv_attack_id *attacks) {
    for (int i = 0; i < ATTACKERS; i++) {
        clv_shape sh[BOXES];
        int32_t got = clv_arena_attack_hitboxes(a, attacks[i], sh, BOXES);
        for (int k = 0; k < BOXES; k++) {
            int q = i * BOXES + k, was = c->placed[q];
            c->prev[q] = c->caps[q];
            c->placed[q] = k < got;
            if (!c->placed[q]) {
                c->boxes[q] = (clv_aabb){{1.0f, 1.0f}, {0.0f, 0.0f}};
                continue;
            }
            c->caps[q] = sh[k].u.capsule;
            clv_aabb b = capsule_bounds(&c->caps[q]);
            if (was) {
                clv_aabb p = capsule_bounds(&c->prev[q]);
                b.min.x = p.min.x < b.min.x ? p.min.x : b.min.x;
                b.min.y = p.min.y < b.min.y ? p.min.y : b.min.y;
                b.max.x = p.max.x > b.max.x ? p.max.x : b.max.x;
                b.max.y = p.max.y > b.max.y ? p.max.y : b.max.y;
            }
            c->boxes[q] = b;
        }
    }
    for (uint32_t i = 0; i < c->n; i++) {
        c->x[i] = c->px[i] + c->vx[i];
        c->y[i] = c->py[i] + c->vy[i];
    }
}

/* Timed: the broadphase and the narrowphase of the frame; returns the contacts and sets
 * *candidates. */
static uint32_t collide_frame(collide *c, uint32_t *candidates) {
    const uint32_t nq = ATTACKERS * BOXES;
    uint32_t total;
    while ((total = clv_grid_query_boxes(c->grid, c->boxes, nq, c->x, c->y, c->r, c->n, c->first,
                                         c->out, c->cap)) > c->cap) {
        free(c->out);
        c->cap = total;
        c->out = malloc(c->cap * sizeof *c->out);
        if (c->out == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    uint32_t contacts = 0;
    for (uint32_t k = 0; k < nq; k++) {
        for (uint32_t j = c->first[k]; j < c->first[k + 1]; j++) {
            uint32_t s = c->out[j];
            clv_circle e = {{c->x[s], c->y[s]}, c->r[s]};
            contacts += clv_overlap_circle_capsule(&e, &c->caps[k]);
        }
    }
    *candidates = total;
    return contacts;
}

typedef struct result {
    double us;
    double share[5];
    double candidates, contacts, hits;
    /* grid only: medians over the frames of the arena's and the collision-only frame's CPU
     * times (us) and of their ratios; the collision-only frame's candidates and contacts */
    double arena_us, collide_us, ratio;
    double collide_candidates, collide_contacts;
    double move_ns; /* the median over the frames of the move (integrate) per entity */
} result;

static double median_of(double *v, int n) {
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return v[n / 2];
}

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
    collide col;
    if (grid) {
        collide_init(&col, &ad, n);
    }
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
        if (grid) {
            col.r[i] = d.hurtboxes[0].u.circle.r;
        }
        if (clv_arena_spawn(a, &d, &ids[i], NULL) != CLV_HIT_OK) {
            fprintf(stderr, "spawn failed\n");
            exit(1);
        }
    }
    double per_frame[REPS];
    uint64_t phase[5] = {0, 0, 0, 0, 0};
    double cand = 0, cont = 0, hits = 0;
    static double ta[REPS * FRAMES], tc[REPS * FRAMES], ratio[REPS * FRAMES];
    static double move[REPS * FRAMES];
    int frame = 0, timed = 0, moves = 0;
    double ccand = 0, ccont = 0; /* the collision-only frame's */
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
                if (grid) {
                    col.px[i] = e.position.x, col.py[i] = e.position.y;
                    col.vx[i] = v.x, col.vy[i] = v.y;
                }
            }
            uint64_t c0 = cpu_ns(NULL), t0 = clock_ns(NULL);
            if (clv_arena_step(a) != CLV_HIT_OK) {
                fprintf(stderr, "step failed\n");
                exit(1);
            }
            uint64_t dt = clock_ns(NULL) - t0, dc = cpu_ns(NULL) - c0;
            if (grid) {
                collide_prepare(&col, a, attacks);
                uint32_t kc = 0;
                uint64_t k0 = cpu_ns(NULL);
                uint32_t kn = collide_frame(&col, &kc);
                uint64_t dk = cpu_ns(NULL) - k0;
                if (f >= 0) {
                    ta[timed] = (double)dc / 1e3;
                    tc[timed] = (double)dk / 1e3;
                    ratio[timed] = (double)dc / (double)(dk > 0 ? dk : 1);
                    ccand += kc;
                    ccont += kn;
                    timed++;
                }
            }
            if (f < 0) {
                continue;
            }
            total += dt;
            clv_arena_profile p = clv_arena_last_profile(a);
            move[moves++] = (double)p.integrate / (double)(n + ATTACKERS);
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
    res.move_ns = median_of(move, moves);
    res.arena_us = res.collide_us = res.ratio = 0;
    res.collide_candidates = res.collide_contacts = 0;
    if (grid) {
        res.arena_us = median_of(ta, timed);
        res.collide_us = median_of(tc, timed);
        res.ratio = median_of(ratio, timed);
        res.collide_candidates = ccand / timed;
        res.collide_contacts = ccont / timed;
        collide_free(&col);
    }
    free(ids);
    clv_arena_destroy(a);
    return res;
}

/* The scene of the knives: 10k still enemies and the 8 attackers on the grid, and `knives`
 * knives in flight, thrown by enemies so that they meet the 64 melee hitboxes. */
typedef struct knife_scene {
    clv_arena *a;
    rng r;
    uint32_t n;
    int32_t knives;
    clv_weapon_id wid, kid;
    clv_entity_id *ids, heroes[ATTACKERS];
    clv_attack_id attacks[ATTACKERS], *thrown;
    int profiling; /* the arena's profile clock reads the CPU time only while set */
} knife_scene;

/* The arena's profile clock: a thread CPU clock read costs 0.4-0.9 us here and a step reads it
 * six times, so the timed frames run without it and the split comes from frames of their own. */
static uint64_t knife_clock(void *ctx) {
    const knife_scene *k = ctx;
    return k->profiling ? cpu_ns(NULL) : 0;
}

static clv_weapon *make_knife(void) {
    clv_weapon *k = clv_weapon_create(NULL, NULL);
    clv_attack_def fly = clv_default_attack_def();
    snprintf(fly.name, sizeof fly.name, "fly");
    fly.frames = 4;
    clv_weapon_add_attack(k, &fly, NULL, NULL);
    clv_hitbox_def edge = clv_default_hitbox_def();
    snprintf(edge.id, sizeof edge.id, "edge");
    edge.shape = clv_shape_capsule(-4.0f, 0.0f, 4.0f, 0.0f, 1.5f);
    clv_weapon_add_hitbox(k, 0, 0, 3, &edge, NULL);
    return k;
}

static void knife_scene_init(knife_scene *k, uint32_t n, int32_t knives) {
    memset(k, 0, sizeof *k);
    k->r.s = 7;
    k->n = n;
    k->knives = knives;
    clv_arena_def ad = clv_default_arena_def();
    ad.entity_capacity = (int32_t)n + ATTACKERS;
    ad.grid_cell_size = 64.0f;
    ad.grid_cols = ad.grid_rows = (int32_t)(WORLD / 64.0f);
    ad.clock_ns = knife_clock;
    ad.clock_ctx = k;
    k->a = clv_arena_create(&ad, NULL);
    clv_weapon *w = make_weapon(), *knife = make_knife();
    clv_arena_add_weapon(k->a, w, &k->wid, NULL);
    clv_arena_add_weapon(k->a, knife, &k->kid, NULL);
    clv_weapon_destroy(w);
    clv_weapon_destroy(knife);
    k->ids = malloc(n * sizeof *k->ids);
    k->thrown = calloc((size_t)knives + 1, sizeof *k->thrown);
    for (uint32_t i = 0; i < ATTACKERS + n; i++) {
        clv_entity_def d = clv_default_entity_def();
        d.position = clv_v2(WORLD * unit(&k->r), WORLD * unit(&k->r));
        d.team = i < ATTACKERS ? 1 : 2;
        d.hp = CLV_WORLD_LIMIT;
        d.hurtbox_count = i < ATTACKERS ? 0 : 1;
        clv_arena_spawn(k->a, &d, i < ATTACKERS ? &k->heroes[i] : &k->ids[i - ATTACKERS], NULL);
    }
}

/* The game's part of a frame (not timed): swing, turn, throw a knife for each that ended. */
static void knife_scene_play(knife_scene *k, int frame) {
    for (int i = 0; i < ATTACKERS; i++) {
        if (!clv_arena_attack_valid(k->a, k->attacks[i])) {
            clv_attack_start_def s = clv_default_attack_start_def();
            s.weapon = k->wid;
            s.owner = k->heroes[i];
            clv_arena_start_attack(k->a, &s, &k->attacks[i], NULL);
        }
        clv_arena_set_attack_pose(k->a, k->attacks[i], clv_v2(0, 0), 0.15f * (float)frame, false);
    }
    for (int32_t i = 0; i < k->knives; i++) {
        if (!clv_arena_attack_valid(k->a, k->thrown[i])) {
            clv_projectile_def p = clv_default_projectile_def();
            p.weapon = k->kid;
            p.owner = k->ids[(uint32_t)i % k->n];
            p.position = clv_v2(WORLD * unit(&k->r), WORLD * unit(&k->r));
            p.velocity = clv_v2(16.0f * unit(&k->r) - 8.0f, 16.0f * unit(&k->r) - 8.0f);
            p.lifetime = 120;
            p.loop = true;
            p.pierce = 0;
            clv_arena_spawn_projectile(k->a, &p, &k->thrown[i], NULL);
        }
    }
}

static void knife_scene_free(knife_scene *k) {
    free(k->ids);
    free(k->thrown);
    clv_arena_destroy(k->a);
}

enum { KNIFE_FRAMES = REPS * FRAMES };

/* The frame with 1,000 knives against the same without them, the two arenas stepped in turn
 * frame by frame: the medians of the frames' CPU times (us) and of their ratios, then, over as
 * many frames again with the profile clock on, of each part of the frame (integrate + place,
 * broadphase, narrowphase, rules) on either side. */
typedef struct knife_result {
    double without, with, ratio;
    double split[2][4];
} knife_result;

static knife_result knife_frames(uint32_t n) {
    knife_scene k[2];
    knife_scene_init(&k[0], n, 0);
    knife_scene_init(&k[1], n, 1000);
    static double t[2][KNIFE_FRAMES], part[2][4][KNIFE_FRAMES], ratio[KNIFE_FRAMES];
    for (int f = -WARM; f < 2 * KNIFE_FRAMES; f++) {
        bool split = f >= KNIFE_FRAMES;
        int i = split ? f - KNIFE_FRAMES : f;
        for (int side = 0; side < 2; side++) {
            k[side].profiling = split;
            knife_scene_play(&k[side], f + WARM);
            uint64_t t0 = cpu_ns(NULL);
            clv_arena_step(k[side].a);
            uint64_t dt = cpu_ns(NULL) - t0;
            if (f < 0) {
                continue;
            }
            if (!split) {
                t[side][i] = (double)dt / 1e3;
                continue;
            }
            clv_arena_profile p = clv_arena_last_profile(k[side].a);
            const uint64_t ns[4] = {p.integrate + p.place, p.broadphase, p.narrowphase, p.rules};
            for (int ph = 0; ph < 4; ph++) {
                part[side][ph][i] = (double)ns[ph] / 1e3;
            }
        }
        if (f >= 0 && !split) {
            ratio[i] = t[1][i] / t[0][i];
        }
    }
    knife_result res;
    qsort(ratio, KNIFE_FRAMES, sizeof ratio[0], cmp_double);
    res.ratio = ratio[KNIFE_FRAMES / 2];
    for (int side = 0; side < 2; side++) {
        qsort(t[side], KNIFE_FRAMES, sizeof t[side][0], cmp_double);
        for (int ph = 0; ph < 4; ph++) {
            qsort(part[side][ph], KNIFE_FRAMES, sizeof part[side][ph][0], cmp_double);
            res.split[side][ph] = part[side][ph][KNIFE_FRAMES / 2];
        }
        knife_scene_free(&k[side]);
    }
    res.without = t[0][KNIFE_FRAMES / 2];
    res.with = t[1][KNIFE_FRAMES / 2];
    return res;
}

/* The arena step against the collision-only frame of the same world, with the targets. */
static void collide_table(const result *r, const uint32_t *sizes, int quick, FILE *json) {
    const double target[4] = {0.0, 2.5, 2.0, 2.0}; /* 0: none at 1,000 */
    printf("== Arena step against the collision-only frame of the same world (grid; thread CPU "
           "time, medians of %d frames, the frames alternating)\n",
           REPS * FRAMES);
    printf("%8s %10s %11s %8s %18s %18s %s\n", "N", "arena us", "collide us", "ratio",
           "cand arena/coll", "contacts a/c", "target");
    for (int s = 0; s < 4; s++) {
        uint32_t n = quick ? sizes[s] / 10 : sizes[s];
        char goal[40] = "-";
        if (target[s] > 0.0) {
            snprintf(goal, sizeof goal, "<= %.1fx: %s", target[s],
                     r[s].ratio <= target[s] ? "met" : "not met");
        }
        printf("%8u %10.1f %11.1f %7.2fx %8.1f/%-9.1f %8.1f/%-9.1f %s\n", n, r[s].arena_us,
               r[s].collide_us, r[s].ratio, r[s].candidates, r[s].collide_candidates, r[s].contacts,
               r[s].collide_contacts, goal);
        if (json != NULL) {
            fprintf(json,
                    "{\"bench\": \"arena/vs_collide_%u\", \"impl\": \"cleave\", \"ns\": %.1f, "
                    "\"collide_ns\": %.1f, \"ratio\": %.3f, \"candidates\": %.1f, "
                    "\"collide_candidates\": %.1f}\n",
                    n, r[s].arena_us * 1e3, r[s].collide_us * 1e3, r[s].ratio, r[s].candidates,
                    r[s].collide_candidates);
        }
    }
}

int main(int argc, char **argv) {
    const char *json_path = NULL;
    int quick = 0, knives_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            json_path = argv[++i];
        } else if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--knives") == 0) {
            knives_only = 1;
        } else {
            fprintf(stderr, "usage: %s [--quick] [--knives] [--json PATH]\n", argv[0]);
            return 2;
        }
    }
    FILE *json = json_path != NULL ? fopen(json_path, "a") : NULL;
    if (json_path != NULL && json == NULL) {
        fprintf(stderr, "cannot open %s\n", json_path);
        return 2;
    }
    const uint32_t sizes[4] = {1000u, 10000u, 100000u, 1000000u};
    if (!knives_only) {
        printf("== Arena frame: %d attackers x %d hitboxes vs N moving enemies (%gx%g world)\n",
               ATTACKERS, BOXES, (double)WORLD, (double)WORLD);
        printf("%-6s %8s %10s %10s %8s %8s %8s %8s %11s %9s %7s %8s\n", "broad", "N", "us/frame",
               "move+place", "broad", "narrow", "rules", "other", "candidates", "contacts", "hits",
               "move ns");
    }
    result by_grid[4];
    for (int grid = knives_only ? -1 : 1; grid >= 0; grid--) {
        /* a scan of a million enemies per hitbox would take the whole run */
        for (int s = 0; s < (grid ? 4 : 3); s++) {
            uint32_t n = quick ? sizes[s] / 10 : sizes[s];
            result r = run(n, grid);
            if (grid) {
                by_grid[s] = r;
            }
            const char *impl = grid ? "grid" : "scan";
            printf("%-6s %8u %10.1f %9.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% %11.1f %9.1f %7.1f "
                   "%8.2f\n",
                   impl, n, r.us, 100 * r.share[0], 100 * r.share[1], 100 * r.share[2],
                   100 * r.share[3], 100 * r.share[4], r.candidates, r.contacts, r.hits, r.move_ns);
            if (json == NULL) {
                continue;
            }
            const char *names[4] = {"integrate_place", "broadphase", "narrowphase", "rules"};
            fprintf(json,
                    "{\"bench\": \"arena/frame_64_vs_%u/%s\", \"impl\": \"cleave\", "
                    "\"ns\": %.1f, \"candidates\": %.1f, \"contacts\": %.1f, \"hits\": %.1f, "
                    "\"move_ns_per_entity\": %.3f}\n",
                    n, impl, r.us * 1e3, r.candidates, r.contacts, r.hits, r.move_ns);
            for (int k = 0; k < 4; k++) {
                fprintf(json,
                        "{\"bench\": \"arena/frame_64_vs_%u/%s/%s\", \"impl\": \"cleave\", "
                        "\"ns\": %.1f, \"share\": %.4f}\n",
                        n, impl, names[k], r.us * 1e3 * r.share[k], r.share[k]);
            }
        }
    }
    if (!knives_only) {
        collide_table(by_grid, sizes, quick, json);
    }
    uint32_t crowd = quick ? 1000u : 10000u;
    knife_result kr = knife_frames(crowd);
    printf("projectiles: %u enemies, 64 melee hitboxes: %.1f us/frame, with 1000 knives %.1f "
           "us/frame (x%.2f, the median of the frames' ratios; thread CPU time)\n",
           crowd, kr.without, kr.with, kr.ratio);
    printf("  median us without / with: move+place %.1f / %.1f, broadphase %.1f / %.1f, "
           "narrowphase %.1f / %.1f, rules %.1f / %.1f\n",
           kr.split[0][0], kr.split[1][0], kr.split[0][1], kr.split[1][1], kr.split[0][2],
           kr.split[1][2], kr.split[0][3], kr.split[1][3]);
    if (json != NULL) {
        fprintf(json,
                "{\"bench\": \"arena/knives_1000_vs_%u\", \"impl\": \"cleave\", \"ns\": %.1f, "
                "\"without_ns\": %.1f, \"ratio\": %.3f}\n",
                crowd, kr.with * 1e3, kr.without * 1e3, kr.ratio);
        fclose(json);
    }
    return 0;
}
