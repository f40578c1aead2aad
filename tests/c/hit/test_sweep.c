/* Swept hitboxes in the arena: a hitbox on two consecutive frames covers the motion between
 * its two placements (the pose's travel and turn, and the weapon-local shape's own turn). */
#include "cleave/hit.h"
#include "harness.h"

#include <stdint.h>
#include <stdlib.h>

static const double pi = 3.14159265358979323846;

typedef struct rng {
    uint64_t s;
} rng;

static double unit(rng *r) {
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(r->s >> 11) / 9007199254740992.0;
}

static double range(rng *r, double lo, double hi) { return lo + (hi - lo) * unit(r); }

/* A blade hitbox: hit data that keeps the test about geometry (no freeze, no push). */
static clv_hitbox_def blade_def(clv_shape shape, bool sweep) {
    clv_hitbox_def d = clv_default_hitbox_def();
    snprintf(d.id, sizeof d.id, "blade");
    d.shape = shape;
    d.hitlag = 0;
    d.hitstun = 0;
    d.sweep = sweep;
    return d;
}

/* The segment from radius ra to rb along angle ang about the pivot (px, py), radius r. */
static clv_shape arc_capsule(double px, double py, double ang, double ra, double rb, double r) {
    double c = cos(ang), s = sin(ang);
    return clv_shape_capsule((float)(px + ra * c), (float)(py + ra * s), (float)(px + rb * c),
                             (float)(py + rb * s), (float)r);
}

typedef struct world {
    clv_arena *a;
    clv_weapon_id wid;
    clv_entity_id hero;
} world;

/* An arena holding w, with a hero at the origin (no hurtbox) on team 1. */
static world make_world(clv_weapon *w, float tolerance, float miss_margin) {
    world o;
    clv_arena_def ad = clv_default_arena_def();
    ad.sweep_tolerance = tolerance;
    ad.miss_margin = miss_margin;
    o.a = clv_arena_create(&ad, NULL);
    CHECK(o.a != NULL);
    CHECK(clv_arena_add_weapon(o.a, w, &o.wid, NULL) == CLV_HIT_OK);
    clv_entity_def h = clv_default_entity_def();
    h.team = 1;
    h.hurtbox_count = 0;
    CHECK(clv_arena_spawn(o.a, &h, &o.hero, NULL) == CLV_HIT_OK);
    return o;
}

static clv_entity_id enemy(world *o, double x, double y, double r) {
    clv_entity_def d = clv_default_entity_def();
    d.position = clv_v2((float)x, (float)y);
    d.team = 2;
    d.hurtboxes[0] = clv_shape_circle(0, 0, (float)r);
    clv_entity_id id;
    CHECK(clv_arena_spawn(o->a, &d, &id, NULL) == CLV_HIT_OK);
    return id;
}

static clv_attack_id start_mirrored(world *o, float x, float y, float facing, bool mirror) {
    clv_attack_start_def s = clv_default_attack_start_def();
    s.mirror = mirror;
    s.weapon = o->wid;
    s.owner = o->hero;
    s.position = clv_v2(x, y);
    s.facing = facing;
    s.follow_owner = false;
    clv_attack_id id;
    CHECK(clv_arena_start_attack(o->a, &s, &id, NULL) == CLV_HIT_OK);
    return id;
}

static clv_attack_id start(world *o, float x, float y, float facing) {
    return start_mirrored(o, x, y, facing, false);
}

/* The hit on target in the last step, or NULL. */
static const clv_hit_event *hit_on(const world *o, clv_entity_id target) {
    int32_t n = 0;
    const clv_hit_event *h = clv_arena_hits(o->a, &n);
    for (int32_t i = 0; i < n; i++) {
        if (h[i].target.index1 == target.index1) {
            return &h[i];
        }
    }
    return NULL;
}

/* One attack of two frames with the same blade on both. */
static clv_weapon *two_frame_weapon(clv_shape shape, bool sweep) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def at = clv_default_attack_def();
    snprintf(at.name, sizeof at.name, "swing");
    at.frames = 2;
    CHECK(clv_weapon_add_attack(w, &at, NULL, NULL) == CLV_HIT_OK);
    clv_hitbox_def d = blade_def(shape, sweep);
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 1, &d, NULL) == CLV_HIT_OK);
    return w;
}

/* The attack starts at the origin facing +x, then turns 1.2 rad in one frame: the hit on e in
 * that frame (none in the first), or NULL. */
static const clv_hit_event *turn_over(world *o, clv_entity_id e) {
    clv_attack_id at = start(o, 0, 0, 0.0f);
    CHECK(clv_arena_step(o->a) == CLV_HIT_OK);
    CHECK(hit_on(o, e) == NULL);
    CHECK(clv_arena_set_attack_pose(o->a, at, clv_v2(0, 0), 1.2f, false) == CLV_HIT_OK);
    CHECK(clv_arena_step(o->a) == CLV_HIT_OK);
    return hit_on(o, e);
}

/* The owner turns the blade 1.2 rad in one frame over a thin enemy that neither placement
 * touches: the sweep hits it, halfway through the turn and halfway along the blade. */
static void test_fast_swing_hits_thin_enemy(void) {
    for (int sweep = 1; sweep >= 0; sweep--) {
        clv_weapon *w = two_frame_weapon(clv_shape_capsule(20, 0, 100, 0, 2), sweep != 0);
        world o = make_world(w, 1.0f, 50.0f);
        clv_weapon_destroy(w);
        clv_entity_id e = enemy(&o, 60.0 * cos(0.6), 60.0 * sin(0.6), 1.0);
        const clv_hit_event *h = turn_over(&o, e);
        if (sweep) {
            CHECK(h != NULL);
            if (h != NULL) {
                CHECK(h->attack_frame == 1);
                CHECK(h->sweep_t > 0.4f && h->sweep_t < 0.5f); /* contact at 0.6 / 1.2 */
                CHECK_NEAR(h->blade_t, 0.5, 0.05);
                CHECK_NEAR(h->point.x, 60.0 * cos(0.6), 3.5);
                CHECK_NEAR(h->point.y, 60.0 * sin(0.6), 3.5);
                CHECK(h->damage == 1.0f);
            }
        } else {
            /* Without the sweep only this frame's placement counts: a near miss with its gap. */
            CHECK(h == NULL);
            int32_t n = 0;
            const clv_miss_record *m = clv_arena_misses(o.a, &n);
            CHECK(n == 1);
            if (n == 1) {
                CHECK(m[0].reason == CLV_MISS_OUT_OF_REACH);
                CHECK_NEAR(m[0].distance, 60.0 * sin(0.6) - 3.0, 0.01);
            }
        }
        clv_arena_destroy(o.a);
    }
}

/* The same turn over an enemy of two thin hurtboxes, the one at 0.9 rad listed first: the hit
 * names the one at 0.3 rad, which the sweep touches at an earlier sub-step. */
static void test_swept_hit_names_the_first_hurtbox_touched(void) {
    clv_weapon *w = two_frame_weapon(clv_shape_capsule(20, 0, 100, 0, 2), true);
    world o = make_world(w, 1.0f, 0.0f);
    clv_weapon_destroy(w);
    clv_entity_def d = clv_default_entity_def();
    d.team = 2;
    d.hurtbox_count = 2;
    d.hurtboxes[0] = clv_shape_circle((float)(60.0 * cos(0.9)), (float)(60.0 * sin(0.9)), 1.0f);
    d.hurtboxes[1] = clv_shape_circle((float)(60.0 * cos(0.3)), (float)(60.0 * sin(0.3)), 1.0f);
    clv_entity_id e;
    CHECK(clv_arena_spawn(o.a, &d, &e, NULL) == CLV_HIT_OK);
    const clv_hit_event *h = turn_over(&o, e);
    CHECK(h != NULL);
    if (h != NULL) {
        CHECK(h->hurtbox == 1 && h->hurtbox_id[0] == '\0');
        CHECK(h->sweep_t < 0.25f); /* contact at 0.3 / 1.2 */
        CHECK_NEAR(h->point.y, 60.0 * sin(0.3), 3.5);
    }
    clv_arena_destroy(o.a);
}

/* A generated arc: one capsule per frame, turned about a pivot beside the wielder, the pose
 * still. The blade's own turn is swept as a turn about that pivot, not cut across. */
static void test_arc_generator_turn_is_swept(void) {
    const double px = 10, py = -5;
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def at = clv_default_attack_def();
    snprintf(at.name, sizeof at.name, "arc");
    at.frames = 3;
    CHECK(clv_weapon_add_attack(w, &at, NULL, NULL) == CLV_HIT_OK);
    const double angles[3] = {-1.0, 0.4, 1.8};
    for (int f = 0; f < 3; f++) {
        clv_hitbox_def d = blade_def(arc_capsule(px, py, angles[f], 30, 90, 3), true);
        CHECK(clv_weapon_add_hitbox(w, 0, f, f, &d, NULL) == CLV_HIT_OK);
    }
    world o = make_world(w, 0.5f, 0.0f);
    clv_weapon_destroy(w);
    /* On the arc at radius 88 from the pivot (inside the tip's reach of 93), halfway between
     * two frames' blades, where a straight cut between the tips is only 90 cos 0.7 = 69 out. */
    clv_entity_id e1 = enemy(&o, px + 88 * cos(-0.3), py + 88 * sin(-0.3), 1.0);
    clv_entity_id e2 = enemy(&o, px + 88 * cos(1.1), py + 88 * sin(1.1), 1.0);
    /* Beyond the tip's reach by twice the tolerance: never hit. */
    clv_entity_id far = enemy(&o, px + 95.0 * cos(0.4 + 0.35), py + 95.0 * sin(0.4 + 0.35), 1.0);
    start(&o, 0, 0, 0.0f);
    int hit1 = -1, hit2 = -1, hit_far = 0;
    for (int f = 0; f < 3; f++) {
        CHECK(clv_arena_step(o.a) == CLV_HIT_OK);
        if (hit_on(&o, e1) != NULL) {
            hit1 = f;
        }
        if (hit_on(&o, e2) != NULL) {
            hit2 = f;
        }
        hit_far += hit_on(&o, far) != NULL;
    }
    CHECK(hit1 == 1);
    CHECK(hit2 == 2);
    CHECK(hit_far == 0);
    clv_arena_destroy(o.a);
}

/* The owner turns round in one frame: the blade sweeps the half disc on the turn's side. */
static void test_half_turn_hits_behind(void) {
    for (int sweep = 1; sweep >= 0; sweep--) {
        clv_weapon *w = two_frame_weapon(clv_shape_capsule(10, 0, 70, 0, 3), sweep != 0);
        world o = make_world(w, 1.0f, 0.0f);
        clv_weapon_destroy(w);
        /* Turning 0 -> 3.0 rad goes through +y (down): behind-below is hit, above is not. */
        clv_entity_id below = enemy(&o, 50 * cos(2.5), 50 * sin(2.5), 2.0);
        clv_entity_id side = enemy(&o, 0, 40, 2.0);
        clv_entity_id above = enemy(&o, 0, -40, 2.0);
        clv_attack_id at = start(&o, 0, 0, 0.0f);
        CHECK(clv_arena_step(o.a) == CLV_HIT_OK);
        CHECK(clv_arena_set_attack_pose(o.a, at, clv_v2(0, 0), 3.0f, false) == CLV_HIT_OK);
        CHECK(clv_arena_step(o.a) == CLV_HIT_OK);
        CHECK((hit_on(&o, below) != NULL) == (sweep != 0));
        CHECK((hit_on(&o, side) != NULL) == (sweep != 0));
        CHECK(hit_on(&o, above) == NULL);
        clv_arena_destroy(o.a);
    }
    /* Exactly half a turn takes the negative way (through -y); a facing 2 pi on is no turn. */
    clv_weapon *w = two_frame_weapon(clv_shape_capsule(10, 0, 70, 0, 3), true);
    world o = make_world(w, 1.0f, 0.0f);
    clv_weapon_destroy(w);
    clv_entity_id below = enemy(&o, 0, 40, 2.0), above = enemy(&o, 0, -40, 2.0);
    clv_attack_id at = start(&o, 0, 0, 0.0f);
    CHECK(clv_arena_step(o.a) == CLV_HIT_OK);
    CHECK(clv_arena_set_attack_pose(o.a, at, clv_v2(0, 0), (float)pi, false) == CLV_HIT_OK);
    CHECK(clv_arena_step(o.a) == CLV_HIT_OK);
    CHECK(hit_on(&o, above) != NULL);
    CHECK(hit_on(&o, below) == NULL);
    clv_arena_destroy(o.a);

    w = two_frame_weapon(clv_shape_capsule(10, 0, 70, 0, 3), true);
    o = make_world(w, 1.0f, 0.0f);
    clv_weapon_destroy(w);
    below = enemy(&o, 0, 40, 2.0);
    at = start(&o, 0, 0, 0.0f);
    CHECK(clv_arena_step(o.a) == CLV_HIT_OK);
    CHECK(clv_arena_set_attack_pose(o.a, at, clv_v2(0, 0), (float)(2.0 * pi), false) == CLV_HIT_OK);
    CHECK(clv_arena_step(o.a) == CLV_HIT_OK);
    CHECK(hit_on(&o, below) == NULL);
    clv_arena_destroy(o.a);
}

/* A hitbox that does not move keeps the open-set rule: touching is not a hit. */
static void test_still_hitbox_touching_is_no_hit(void) {
    clv_weapon *w = two_frame_weapon(clv_shape_capsule(0, 0, 50, 0, 5), true);
    world o = make_world(w, 1.0f, 0.0f);
    clv_weapon_destroy(w);
    clv_entity_id touch = enemy(&o, 25, 10, 5.0); /* gap 0 */
    clv_entity_id inside = enemy(&o, 25, 9, 5.0); /* overlap 1 */
    start(&o, 0, 0, 0.0f);
    CHECK(clv_arena_step(o.a) == CLV_HIT_OK);
    CHECK(hit_on(&o, touch) == NULL);
    CHECK(hit_on(&o, inside) != NULL);
    if (hit_on(&o, inside) != NULL) {
        CHECK(hit_on(&o, inside)->sweep_t == 1.0f);
    }
    CHECK(clv_arena_step(o.a) == CLV_HIT_OK);
    CHECK(hit_on(&o, touch) == NULL);
    clv_arena_destroy(o.a);
}

/* Where the blade truly is at s in [0, 1]: the pose (x, y, facing) moves linearly, the local
 * blade turns by phi about the pivot; its core ends in out[0..3]. */
typedef struct truth {
    double x0, y0, f0, dx, dy, df;
    double px, py, ang0, phi, ra, rb, r;
    bool mirror; /* the blade mirrored across the pose's x axis */
} truth;

static void truth_at(const truth *t, double s, double *out) {
    double ang = t->ang0 + s * t->phi;
    double f = t->f0 + s * t->df, c = cos(f), sn = sin(f);
    double ox = t->x0 + s * t->dx, oy = t->y0 + s * t->dy;
    for (int e = 0; e < 2; e++) {
        double rr = e == 0 ? t->ra : t->rb;
        double lx = t->px + rr * cos(ang), ly = t->py + rr * sin(ang);
        ly = t->mirror ? -ly : ly;
        out[2 * e] = c * lx - sn * ly + ox;
        out[2 * e + 1] = sn * lx + c * ly + oy;
    }
}

static double seg_dist(double px, double py, const double *e) {
    double ex = e[2] - e[0], ey = e[3] - e[1];
    double l2 = ex * ex + ey * ey;
    double u = l2 > 0 ? ((px - e[0]) * ex + (py - e[1]) * ey) / l2 : 0.0;
    u = u < 0 ? 0 : (u > 1 ? 1 : u);
    return hypot(px - (e[0] + u * ex), py - (e[1] + u * ey));
}

#define SAMPLES 4000

/* Random swings (travel, turns of the pose and of the blade about an offset pivot, up to 2.5
 * rad and 400 units a frame) against thin enemies near the swept area's edge. Against a fine
 * sampling of the motion: every enemy the blade truly touches is hit, none is hit that lies
 * farther than the tolerance from the swept area. */
static void test_no_tunnelling_and_bounded_reach(void) {
    rng r = {12345};
    const float tols[2] = {1.0f, 0.25f};
    int must_hit = 0, must_miss = 0, hits = 0, bad_miss = 0, bad_hit = 0;
    int one_boxes = 0, mirrored = 0;
    static double path[SAMPLES + 1][4];
    for (int trial = 0; trial < 300; trial++) {
        float tol = tols[trial % 2];
        truth t;
        t.x0 = range(&r, -300, 300), t.y0 = range(&r, -300, 300);
        t.dx = range(&r, -200, 200) * (trial % 3 == 0 ? 2.0 : 0.3);
        t.dy = range(&r, -200, 200) * (trial % 3 == 0 ? 2.0 : 0.3);
        t.f0 = range(&r, -pi, pi);
        t.df = trial % 4 == 1 ? 0.0 : range(&r, -2.5, 2.5);
        t.px = trial % 5 == 0 ? 0.0 : range(&r, -30, 30);
        t.py = trial % 5 == 0 ? 0.0 : range(&r, -30, 30);
        t.ang0 = range(&r, -pi, pi);
        t.phi = trial % 4 == 2 ? 0.0 : range(&r, -2.5, 2.5);
        t.ra = range(&r, 0, 40);
        t.rb = t.ra + range(&r, 0, 120);
        t.r = range(&r, 0.5, 6);
        t.mirror = trial % 3 == 0;
        /* a blade that does not turn in the weapon is, every other time, one hitbox on both
         * frames (which the arena turns whole) instead of two */
        const bool one_box = t.phi == 0.0 && trial % 8 == 2;
        /* The poses and shapes as the arena gets them (floats); the truth uses the same. */
        float fx0 = (float)t.x0, fy0 = (float)t.y0, ff0 = (float)t.f0;
        float fx1 = (float)(t.x0 + t.dx), fy1 = (float)(t.y0 + t.dy), ff1 = (float)(t.f0 + t.df);
        clv_shape l0 = arc_capsule(t.px, t.py, t.ang0, t.ra, t.rb, t.r);
        clv_shape l1 = arc_capsule(t.px, t.py, t.ang0 + t.phi, t.ra, t.rb, t.r);
        t.x0 = (double)fx0, t.y0 = (double)fy0, t.f0 = (double)ff0;
        t.dx = (double)fx1 - (double)fx0, t.dy = (double)fy1 - (double)fy0;
        t.df = (double)ff1 - (double)ff0;
        double h = 0.0;
        for (int k = 0; k <= SAMPLES; k++) {
            truth_at(&t, (double)k / SAMPLES, path[k]);
            if (k > 0) {
                for (int e = 0; e < 2; e++) {
                    double m = hypot(path[k][2 * e] - path[k - 1][2 * e],
                                     path[k][2 * e + 1] - path[k - 1][2 * e + 1]);
                    h = m > h ? m : h;
                }
            }
        }
        h = h / 2.0 + 1e-3; /* a point's gap is within this of its sampled gap (+ float slack) */

        clv_weapon *w = clv_weapon_create(NULL, NULL);
        clv_attack_def at = clv_default_attack_def();
        snprintf(at.name, sizeof at.name, "swing");
        at.frames = 2;
        CHECK(clv_weapon_add_attack(w, &at, NULL, NULL) == CLV_HIT_OK);
        clv_hitbox_def d0 = blade_def(l0, true), d1 = blade_def(l1, true);
        CHECK(clv_weapon_add_hitbox(w, 0, 0, one_box ? 1 : 0, &d0, NULL) == CLV_HIT_OK);
        if (!one_box) {
            CHECK(clv_weapon_add_hitbox(w, 0, 1, 1, &d1, NULL) == CLV_HIT_OK);
        }
        one_boxes += one_box;
        mirrored += t.mirror;
        world o = make_world(w, tol, 0.0f);
        clv_weapon_destroy(w);

        enum { ENEMIES = 40 };
        clv_entity_id ids[ENEMIES];
        double gap[ENEMIES];
        const double er = 0.5;
        for (int i = 0; i < ENEMIES; i++) {
            /* Near a random point of a random placement, at a gap around the edge. */
            const double *e = path[(int)(unit(&r) * SAMPLES)];
            double u = unit(&r), dir = range(&r, -pi, pi);
            double off = t.r + er + range(&r, -2.0, (double)tol + 6.0);
            double ex = e[0] + u * (e[2] - e[0]) + off * cos(dir);
            double ey = e[1] + u * (e[3] - e[1]) + off * sin(dir);
            ex = (double)(float)ex;
            ey = (double)(float)ey;
            double best = HUGE_VAL;
            for (int k = 0; k <= SAMPLES; k++) {
                double dd = seg_dist(ex, ey, path[k]);
                best = dd < best ? dd : best;
            }
            gap[i] = best - t.r - er;
            ids[i] = enemy(&o, ex, ey, er);
        }
        bool hit[ENEMIES] = {false};
        clv_attack_id aid = start_mirrored(&o, fx0, fy0, ff0, t.mirror);
        for (int f = 0; f < 2; f++) {
            if (f == 1) {
                CHECK(clv_arena_set_attack_pose(o.a, aid, clv_v2(fx1, fy1), ff1, t.mirror) ==
                      CLV_HIT_OK);
            }
            CHECK(clv_arena_step(o.a) == CLV_HIT_OK);
            for (int i = 0; i < ENEMIES; i++) {
                hit[i] = hit[i] || hit_on(&o, ids[i]) != NULL;
            }
        }
        for (int i = 0; i < ENEMIES; i++) {
            hits += hit[i];
            if (gap[i] < -h) {
                must_hit++;
                if (!hit[i]) {
                    bad_miss++;
                    fprintf(stderr, "trial %d enemy %d: gap %g, missed\n", trial, i, gap[i]);
                }
            } else if (gap[i] > (double)tol + h) {
                must_miss++;
                if (hit[i]) {
                    bad_hit++;
                    fprintf(stderr, "trial %d enemy %d: gap %g > tol %g, hit\n", trial, i, gap[i],
                            (double)tol);
                }
            }
        }
        clv_arena_destroy(o.a);
    }
    CHECK(bad_miss == 0);
    CHECK(bad_hit == 0);
    /* The trials exercise both sides of the edge. */
    CHECK(must_hit > 500);
    CHECK(must_miss > 500);
    CHECK(one_boxes >= 30 && mirrored >= 90);
    printf("no tunnelling: %d must-hit, %d must-miss, %d hits, %d missed, %d over-reached\n",
           must_hit, must_miss, hits, bad_miss, bad_hit);
}

/* A sweeping scenario gives the same hashes with a snapshot/restore in the middle, and with the
 * grid broadphase (which is queried with the swept bounds) instead of the scan. */
static uint64_t run_scenario(int grid, int rollback_at, uint64_t *hashes, int frames) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def at = clv_default_attack_def();
    snprintf(at.name, sizeof at.name, "spin");
    at.frames = 12;
    at.rehit = 3;
    CHECK(clv_weapon_add_attack(w, &at, NULL, NULL) == CLV_HIT_OK);
    for (int f = 0; f < 12; f++) {
        clv_hitbox_def d = blade_def(arc_capsule(5, 3, -1.5 + 0.45 * f, 15, 80 + 2 * f, 4), true);
        d.knockback.kind = CLV_KNOCKBACK_RADIAL;
        d.knockback.base = 1.5f;
        CHECK(clv_weapon_add_hitbox(w, 0, f, f, &d, NULL) == CLV_HIT_OK);
        clv_hitbox_def tip = blade_def(clv_shape_circle(95, 0, 6), f % 3 != 0);
        snprintf(tip.id, sizeof tip.id, "tip");
        tip.group = 1;
        CHECK(clv_weapon_add_hitbox(w, 0, f, f, &tip, NULL) == CLV_HIT_OK);
    }
    clv_arena_def ad = clv_default_arena_def();
    if (grid) {
        ad.grid_cell_size = 32.0f;
        ad.grid_origin = clv_v2(-400, -400);
        ad.grid_cols = 25;
        ad.grid_rows = 25;
    }
    clv_arena *a = clv_arena_create(&ad, NULL);
    clv_weapon_id wid;
    CHECK(clv_arena_add_weapon(a, w, &wid, NULL) == CLV_HIT_OK);
    clv_weapon_destroy(w);
    rng r = {99};
    clv_entity_id heroes[4];
    for (int i = 0; i < 4; i++) {
        clv_entity_def d = clv_default_entity_def();
        d.position = clv_v2((float)range(&r, -250, 250), (float)range(&r, -250, 250));
        d.velocity = clv_v2((float)range(&r, -4, 4), (float)range(&r, -4, 4));
        d.team = 1;
        d.hurtbox_count = 0;
        CHECK(clv_arena_spawn(a, &d, &heroes[i], NULL) == CLV_HIT_OK);
    }
    for (int i = 0; i < 150; i++) {
        clv_entity_def d = clv_default_entity_def();
        d.position = clv_v2((float)range(&r, -350, 350), (float)range(&r, -350, 350));
        d.velocity = clv_v2((float)range(&r, -1, 1), (float)range(&r, -1, 1));
        d.friction = 0.05f;
        d.hp = 1e6f;
        d.team = 2;
        d.hurtboxes[0] = clv_shape_circle(0, 0, (float)range(&r, 0.5, 8));
        CHECK(clv_arena_spawn(a, &d, NULL, NULL) == CLV_HIT_OK);
    }
    clv_attack_id atk[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    unsigned char *snap = NULL;
    size_t snap_size = 0;
    uint64_t total_hits = 0;
    for (int f = 0; f < frames; f++) {
        if (f == rollback_at) {
            snap_size = clv_arena_snapshot_size(a);
            snap = malloc(snap_size);
            CHECK(clv_arena_snapshot(a, snap, snap_size, NULL) == CLV_HIT_OK);
            /* Play ahead on a different input, then come back. */
            for (int k = 0; k < 7; k++) {
                clv_arena_step(a);
            }
            CHECK(clv_arena_restore(a, snap, snap_size) == CLV_HIT_OK);
            free(snap);
        }
        for (int i = 0; i < 4; i++) {
            if (!clv_arena_attack_valid(a, atk[i])) {
                clv_attack_start_def s = clv_default_attack_start_def();
                s.weapon = wid;
                s.owner = heroes[i];
                s.facing = 0.7f * (float)i;
                s.mirror = i % 2 == 1;
                CHECK(clv_arena_start_attack(a, &s, &atk[i], NULL) == CLV_HIT_OK);
            } else {
                clv_attack_info info;
                clv_arena_attack(a, atk[i], &info);
                clv_arena_set_attack_pose(a, atk[i], clv_v2(0, 0), info.facing + 0.3f * (float)i,
                                          (f / 5) % 2 == 1);
            }
        }
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        int32_t n = 0;
        clv_arena_hits(a, &n);
        total_hits += (uint64_t)n;
        hashes[f] = clv_arena_hash(a);
    }
    clv_arena_destroy(a);
    return total_hits;
}

static void test_sweeping_scenario_is_deterministic(void) {
    enum { FRAMES = 120 };
    static uint64_t h0[FRAMES], h1[FRAMES], h2[FRAMES];
    uint64_t n0 = run_scenario(0, -1, h0, FRAMES);
    uint64_t n1 = run_scenario(0, 40, h1, FRAMES);
    uint64_t n2 = run_scenario(1, -1, h2, FRAMES);
    CHECK(n0 > 50);
    int same01 = 0, same02 = 0;
    for (int f = 0; f < FRAMES; f++) {
        same01 += h0[f] == h1[f];
        same02 += h0[f] == h2[f];
    }
    CHECK(same01 == FRAMES);
    CHECK(same02 == FRAMES);
    CHECK(n1 == n0);
    CHECK(n2 == n0);
    printf("sweeping scenario: %llu hits over %d frames\n", (unsigned long long)n0, FRAMES);
}

static void test_tolerance_errors(void) {
    clv_arena_def ad = clv_default_arena_def();
    CHECK(ad.sweep_tolerance == 1.0f);
    clv_hit_diag diag;
    ad.sweep_tolerance = -1.0f;
    CHECK(clv_arena_create(&ad, &diag) == NULL);
    CHECK(diag.code == CLV_HIT_ERR_NUMBER);
    CHECK(strcmp(diag.field, "sweep_tolerance") == 0);
    CHECK(strcmp(diag.message,
                 "sweep_tolerance must be finite and > 0, or 0 for the default (got -1)") == 0);
    ad.sweep_tolerance = NAN;
    CHECK(clv_arena_create(&ad, &diag) == NULL);
    ad.sweep_tolerance = 0.0f; /* the default */
    clv_arena *a = clv_arena_create(&ad, &diag);
    CHECK(a != NULL);
    clv_arena_destroy(a);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_fast_swing_hits_thin_enemy);
    RUN(test_swept_hit_names_the_first_hurtbox_touched);
    RUN(test_arc_generator_turn_is_swept);
    RUN(test_half_turn_hits_behind);
    RUN(test_still_hitbox_touching_is_no_hit);
    RUN(test_no_tunnelling_and_bounded_reach);
    RUN(test_sweeping_scenario_is_deterministic);
    RUN(test_tolerance_errors);
    return clv_test_report();
}
