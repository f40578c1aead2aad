/* The attract mode's defence: when a knight winds up near the player, the player turns to it
 * and holds its guard, or on every third swing rolls through it just before the blade comes;
 * it does not swing at a knight that is ready to swing, so the fight shows both sides, and its
 * attacks then punish the knight's recovery and rest. */
#include <math.h>

#include "app.h"

#define THREAT_RANGE 70.0f /* a knight this near, swinging, is answered */
#define DODGE_LEAD 3       /* frames before the blade's first active frame the roll starts */

/* The knight whose swing comes soonest within reach (its index), or -1; *until receives the
 * frames before its blade is active (<= 0 while it is). */
static int32_t nearest_threat(const app_game *g, clv_vec2 player, int32_t *until) {
    const app_attack_facts *bf = &g->fighters.blade_facts;
    int32_t best = -1;
    for (int32_t i = 0; i < g->st.enemy_count; i++) {
        const app_enemy *e = &g->enemies[i];
        clv_attack_info ai;
        clv_entity_info ei;
        if (e->kind != APP_ENEMY_KNIGHT ||
            clv_arena_attack(g->arena, e->swing, &ai) != CLV_HIT_OK ||
            clv_arena_entity(g->arena, e->id, &ei) != CLV_HIT_OK || ai.frame > bf->active_last ||
            hypotf(ei.position.x - player.x, ei.position.y - player.y) > THREAT_RANGE) {
            continue;
        }
        int32_t left = bf->startup - (ai.frame < 0 ? -1 : ai.frame) - 1;
        if (best < 0 || left < *until) {
            best = i;
            *until = left;
        }
    }
    return best;
}

/* A knight near the player, rested and ready to swing: the attract mode lets it. */
static bool knight_ready(const app_game *g, clv_vec2 player) {
    for (int32_t i = 0; i < g->st.enemy_count; i++) {
        const app_enemy *e = &g->enemies[i];
        clv_entity_info ei;
        if (e->kind == APP_ENEMY_KNIGHT && e->cooldown == 0 &&
            !clv_arena_attack_valid(g->arena, e->swing) &&
            clv_arena_entity(g->arena, e->id, &ei) == CLV_HIT_OK && ei.alive &&
            hypotf(ei.position.x - player.x, ei.position.y - player.y) < THREAT_RANGE) {
            return true;
        }
    }
    return false;
}

void app_attract_defend(const app_game *g, app_input *out) {
    clv_entity_info pi;
    if (clv_arena_entity(g->arena, g->st.player, &pi) != CLV_HIT_OK || !pi.alive) {
        return;
    }
    int32_t until = 0;
    int32_t k = nearest_threat(g, pi.position, &until);
    clv_entity_info ki;
    if (k < 0 || clv_arena_entity(g->arena, g->enemies[k].id, &ki) != CLV_HIT_OK) {
        if (knight_ready(g, pi.position)) {
            out->attack = 0; /* it waits for the knight's swing, to answer it, then punishes */
        }
        return;
    }
    out->aim = ki.position;
    out->attack = 0;
    out->move_x = out->move_y = 0.0f;
    /* which answer: fixed by when the swing started, so a run is the same every time */
    int64_t started = g->st.frame - (int64_t)(g->fighters.blade_facts.startup - until);
    if ((started / 7 + k) % 3 == 0) {
        if (until == DODGE_LEAD) {
            float dx = ki.position.x - pi.position.x, dy = ki.position.y - pi.position.y;
            float d = sqrtf(dx * dx + dy * dy);
            out->dodge = true; /* through the knight: the blade passes over the roll */
            out->move_x = d > 0.5f ? dx / d : 1.0f;
            out->move_y = d > 0.5f ? dy / d : 0.0f;
        }
        return;
    }
    out->guard = true;
}
