/* The search for hitboxes that meet finds every pair of attacks of different teams whose
 * hitboxes overlap, wherever they stand: left edges below and above zero, at zero, equal, and
 * across magnitudes from units to a million (every byte of the edges' sort keys differs); with
 * two even teams, three teams, and two teams of which one is small. */
#include "cleave/hit.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#define FIGHTERS 240

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t next_u32(rng *r) {
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(r->s >> 32);
}

/* One attack of one frame: a circle that passes through what it meets (transcend), so every
 * meeting is its own event and cancels nothing. */
static clv_weapon *circle_weapon(float radius) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def at = clv_default_attack_def();
    snprintf(at.name, sizeof at.name, "poke");
    at.frames = 2;
    CHECK(clv_weapon_add_attack(w, &at, NULL, NULL) == CLV_HIT_OK);
    clv_hitbox_def d = clv_default_hitbox_def();
    snprintf(d.id, sizeof d.id, "disc");
    d.shape = clv_shape_circle(0.0f, 0.0f, radius);
    d.clash = CLV_CLASH_TRANSCEND;
    CHECK(clv_weapon_add_hitbox(w, 0, 0, 0, &d, NULL) == CLV_HIT_OK);
    return w;
}

/* A centre near one of a few spots spread over the magnitudes, or exactly at a spot (equal
 * edges), or with its left edge at -0 or +0. */
static clv_vec2 spot(rng *r, float radius) {
    static const float at[] = {-1.0e6f, -3.0e4f, -700.0f, -9.0f, 0.0f,
                               9.0f,    700.0f,  3.0e4f,  1.0e6f};
    float x = at[next_u32(r) % 9u], y = at[next_u32(r) % 3u + 3u];
    uint32_t kind = next_u32(r) % 4u;
    if (kind == 0) {
        x = radius * (next_u32(r) % 2u ? 1.0f : -1.0f); /* left edge at +0 or right at -0 */
    } else if (kind != 1) {
        x += (float)(next_u32(r) % 64u) - 32.0f;
        y += (float)(next_u32(r) % 64u) - 32.0f;
    }
    return clv_v2(x, y);
}

/* The team of a fighter from a draw u: two even teams, three teams, or two teams of which one
 * has at most a few dozen (a sort of both sides, a sweep over all, and bit masks). */
static int32_t side_of(uint32_t u, int scene) {
    switch (scene % 3) {
    case 0:
        return 1 + (int32_t)(u % 2u);
    case 1:
        return 1 + (int32_t)(u % 3u);
    default:
        return u % 8u == 0 ? 2 : 1;
    }
}

static void test_every_overlapping_pair_meets(void) {
    rng r = {11};
    long found = 0, expected = 0, negative = 0;
    for (int scene = 0; scene < 20; scene++) {
        clv_arena_def ad = clv_default_arena_def();
        ad.entity_capacity = FIGHTERS;
        clv_arena *a = clv_arena_create(&ad, NULL);
        const float radius = 6.0f;
        clv_weapon *w = circle_weapon(radius);
        clv_weapon_id wid;
        CHECK(clv_arena_add_weapon(a, w, &wid, NULL) == CLV_HIT_OK);
        clv_weapon_destroy(w);
        clv_vec2 pos[FIGHTERS];
        int32_t team[FIGHTERS];
        for (int i = 0; i < FIGHTERS; i++) {
            clv_entity_def e = clv_default_entity_def();
            pos[i] = spot(&r, radius);
            team[i] = side_of(next_u32(&r), scene);
            e.position = pos[i];
            e.team = team[i];
            e.hurtbox_count = 0;
            clv_entity_id id;
            CHECK(clv_arena_spawn(a, &e, &id, NULL) == CLV_HIT_OK);
            clv_attack_start_def s = clv_default_attack_start_def();
            s.weapon = wid;
            s.owner = id;
            CHECK(clv_arena_start_attack(a, &s, NULL, NULL) == CLV_HIT_OK);
        }
        CHECK(clv_arena_step(a) == CLV_HIT_OK);
        int32_t n = 0;
        clv_arena_clashes(a, &n);
        found += n;
        for (int i = 0; i < FIGHTERS; i++) {
            for (int j = i + 1; j < FIGHTERS; j++) {
                clv_shape ci = clv_shape_circle(pos[i].x, pos[i].y, radius);
                clv_shape cj = clv_shape_circle(pos[j].x, pos[j].y, radius);
                bool meet = team[i] != team[j] && clv_overlap(&ci, &cj);
                expected += meet;
                negative += meet && pos[i].x < 0.0f && pos[j].x < 0.0f;
            }
        }
        clv_arena_destroy(a);
    }
    printf("meeting search: %ld meetings, %ld expected (%ld left of zero)\n", found, expected,
           negative);
    CHECK(found == expected);
    CHECK(expected > 5000 && negative > 1000);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_every_overlapping_pair_meets);
    return clv_test_report();
}
