/* Knights: enemies with a body and a blade that close in on the player, wind up where it can
 * be read (the blade's long startup, drawn as its outline), swing, and rest before the next
 * swing. Their torso is heavy armor while they swing, so light hits do not stop a swing; a hit
 * that gets through during the wind-up spoils it. */
#include <math.h>
#include <string.h>

#include "app.h"

#define KNIGHT_REACH 40.0f /* from the player's centre: the blade reaches 45 */
#define KNIGHT_RING 32.0f  /* where each knight stands around the player */
#define KNIGHT_FIRST 40    /* frames from its arrival to its first swing */
#define KNIGHT_REST 50     /* frames from one swing's end to the next wind-up */
#define KNIGHT_SPOILED 40  /* frames before it winds up again after a spoiled swing */
#define KNIGHT_HP 80.0f

void app_knight_spawned(app_game *g, app_enemy *e) {
    clv_arena_play(g->arena, e->id, g->fighters.knight_body, g->fighters.knight_idle);
    clv_arena_set_hp(g->arena, e->id, KNIGHT_HP);
    e->cooldown = KNIGHT_FIRST;
    e->swing = (clv_attack_id){0, 0};
}

static void start_cleave(app_game *g, app_enemy *e, float facing) {
    const app_fighters *f = &g->fighters;
    clv_attack_start_def d = clv_default_attack_start_def();
    d.weapon = f->blade;
    d.attack = f->blade_attack;
    d.owner = e->id;
    d.facing = facing;
    d.follow_owner = true;
    clv_hit_diag diag;
    if (clv_arena_start_attack(g->arena, &d, &e->swing, &diag) != CLV_HIT_OK) {
        app_game_log(g, 0xFFFF6060u, "f%lld #%u cannot swing: %.40s", (long long)g->st.frame,
                     (unsigned)e->id.index1, diag.message);
        return;
    }
    clv_arena_play(g->arena, e->id, f->knight_body, f->knight_swing);
    app_game_log_event(g, APP_LOG_INFO, e->id.index1, NULL, 0xFFFFB080u, "f%lld #%u winds up %s",
                       (long long)g->st.frame, (unsigned)e->id.index1, f->blade_facts.name);
}

/* Its own place on a ring around the player (golden-angle spacing), so knights come from
 * different sides. */
static clv_vec2 knight_walk(const app_enemy *e, int32_t i, clv_vec2 at, clv_vec2 player) {
    float ang = (float)i * 2.39996323f + 1.2f;
    clv_vec2 spot = clv_v2(player.x + cosf(ang) * KNIGHT_RING, player.y + sinf(ang) * KNIGHT_RING);
    clv_vec2 to = clv_v2(spot.x - at.x, spot.y - at.y);
    float dist = sqrtf(to.x * to.x + to.y * to.y);
    if (dist <= 1.0f) {
        return clv_v2(0.0f, 0.0f);
    }
    float sp = dist < e->speed ? dist : e->speed;
    return clv_v2(to.x / dist * sp, to.y / dist * sp);
}

clv_vec2 app_knight_step(app_game *g, int32_t i, const clv_entity_info *ei,
                         const clv_entity_info *pi) {
    app_enemy *e = &g->enemies[i];
    if (clv_arena_attack_valid(g->arena, e->swing)) {
        return clv_v2(0.0f, 0.0f); /* it plants its feet for the whole swing */
    }
    if (e->swing.index1 != 0) {
        e->swing = (clv_attack_id){0, 0};
        e->cooldown = KNIGHT_REST;
        clv_arena_play(g->arena, e->id, g->fighters.knight_body, g->fighters.knight_idle);
    }
    clv_vec2 d = clv_v2(pi->position.x - ei->position.x, pi->position.y - ei->position.y);
    float dist = sqrtf(d.x * d.x + d.y * d.y);
    float facing = dist > 0.5f ? atan2f(d.y, d.x) : 0.0f;
    clv_arena_set_facing(g->arena, e->id, facing, false);
    if (pi->alive && dist < KNIGHT_REACH && e->cooldown == 0) {
        start_cleave(g, e, facing);
        return clv_v2(0.0f, 0.0f);
    }
    return knight_walk(e, i, ei->position, pi->position);
}

void app_knight_hurt(app_game *g, app_enemy *e, const clv_hit_event *h) {
    clv_attack_info ai;
    if (e->kind != APP_ENEMY_KNIGHT || (h->flags & CLV_HIT_FLAG_ARMOR) ||
        clv_arena_attack(g->arena, e->swing, &ai) != CLV_HIT_OK ||
        ai.frame >= g->fighters.blade_facts.startup) {
        return; /* its armor took the hit, or the blade is already out */
    }
    clv_arena_cancel_attack(g->arena, e->swing);
    e->swing = (clv_attack_id){0, 0};
    e->cooldown = KNIGHT_SPOILED;
    clv_arena_play(g->arena, e->id, g->fighters.knight_body, g->fighters.knight_idle);
    app_game_log_event(g, APP_LOG_INFO, e->id.index1, NULL, 0xFFFFB080u, "f%lld #%u swing spoiled",
                       (long long)g->st.frame, (unsigned)e->id.index1);
}
