/* Enemies that throw knives, and the player's parry. A thrower keeps its distance from the
 * player, stands still with its knife raised for APP_THROW_WINDUP frames (the startup a player
 * reads), then throws the knives mod's attack as a projectile aimed where the player stands. */
#include <math.h>
#include <string.h>

#include "app.h"

#define THROW_PERIOD 150   /* frames from one throw to the next */
#define THROW_RANGE 150.0f /* how far from the player a thrower likes to stand */
#define KNIFE_SPEED 4.0f   /* units per frame */
#define KNIFE_LIFETIME 120
#define KNIFE_OFFSET 17.0f /* from the thrower's centre: just outside its hurtbox */

int32_t app_knife_slot(const app_game *g) {
    for (int32_t i = 0; i < g->slot_count; i++) {
        if (g->slots[i].weapon != NULL && strcmp(g->slots[i].label, "knives") == 0) {
            return i;
        }
    }
    return -1;
}

static void throw_knife(app_game *g, const app_enemy *e, const clv_entity_info *ei,
                        const clv_entity_info *pi) {
    int32_t slot = app_knife_slot(g);
    clv_vec2 d = clv_v2(pi->position.x - ei->position.x, pi->position.y - ei->position.y);
    float len = sqrtf(d.x * d.x + d.y * d.y);
    if (slot < 0 || len < 1.0f) {
        return; /* no knives mod loaded, or nowhere to aim */
    }
    clv_vec2 u = clv_v2(d.x / len, d.y / len);
    clv_projectile_def pd = clv_default_projectile_def();
    pd.weapon = g->slots[slot].id;
    int32_t fly = clv_arena_find_attack(g->arena, pd.weapon, "fly");
    pd.attack = fly >= 0 ? fly : 0;
    pd.owner = e->id;
    pd.position = clv_v2(ei->position.x + u.x * KNIFE_OFFSET, ei->position.y + u.y * KNIFE_OFFSET);
    pd.velocity = clv_v2(u.x * KNIFE_SPEED, u.y * KNIFE_SPEED);
    pd.facing = atan2f(u.y, u.x);
    pd.lifetime = KNIFE_LIFETIME;
    pd.pierce = 1;
    pd.loop = true;
    clv_hit_diag diag;
    if (clv_arena_spawn_projectile(g->arena, &pd, NULL, &diag) != CLV_HIT_OK) {
        app_game_log(g, 0xFFFF6060u, "f%lld #%u cannot throw: %.40s", (long long)g->st.frame,
                     (unsigned)e->id.index1, diag.message);
        return;
    }
    app_game_log_event(g, APP_LOG_INFO, e->id.index1, NULL, 0xFFC0A0E0u, "f%lld #%u throws %s",
                       (long long)g->st.frame, (unsigned)e->id.index1, g->slots[slot].label);
}

/* The thrower's own place on a ring around the player (golden-angle spacing), in the room. */
static clv_vec2 thrower_spot(int32_t i, clv_vec2 player) {
    float ang = (float)i * 2.39996323f;
    clv_vec2 p = clv_v2(player.x + cosf(ang) * THROW_RANGE, player.y + sinf(ang) * THROW_RANGE);
    p.x = fminf(fmaxf(p.x, APP_ROOM_X0 + 24.0f), APP_ROOM_X1 - 24.0f);
    p.y = fminf(fmaxf(p.y, APP_ROOM_Y0 + 24.0f), APP_ROOM_Y1 - 24.0f);
    return p;
}

clv_vec2 app_thrower_step(app_game *g, int32_t i, const clv_entity_info *ei,
                          const clv_entity_info *pi) {
    app_enemy *e = &g->enemies[i];
    if (--e->throw_in <= 0) {
        throw_knife(g, e, ei, pi);
        e->throw_in = THROW_PERIOD;
    }
    if (e->throw_in <= APP_THROW_WINDUP) {
        return clv_v2(0.0f, 0.0f); /* winding up: it stands, so the throw can be read */
    }
    clv_vec2 spot = thrower_spot(i, pi->position);
    clv_vec2 to = clv_v2(spot.x - ei->position.x, spot.y - ei->position.y);
    float dist = sqrtf(to.x * to.x + to.y * to.y);
    if (dist <= 1.0f) {
        return clv_v2(0.0f, 0.0f);
    }
    float sp = dist < e->speed ? dist : e->speed;
    return clv_v2(to.x / dist * sp, to.y / dist * sp);
}

void app_player_parry(app_game *g, const app_input *in) {
    app_state *st = &g->st;
    if (st->parry_cooldown > 0) {
        st->parry_cooldown--;
    }
    if (!in->parry || st->parry_cooldown > 0 || st->down > 0 ||
        clv_arena_set_state(g->arena, st->player, CLV_HURT_PARRY, APP_PARRY_FRAMES) != CLV_HIT_OK) {
        return;
    }
    st->parry_cooldown = APP_PARRY_COOLDOWN;
    app_game_log_event(g, APP_LOG_INFO, st->player.index1, NULL, 0xFF60E0FFu,
                       "f%lld parry up for %d frames", (long long)st->frame, APP_PARRY_FRAMES);
}
