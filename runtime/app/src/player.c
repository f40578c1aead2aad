/* The player's body at work: it guards toward the aim while the guard key is held, rolls on the
 * dodge key (intangible for 8 frames), walks or stands, and when its hp runs out it is down
 * for APP_PLAYER_RESPAWN frames and comes back in the room's centre. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"

#define DODGE_SPEED 4.5f /* units per frame while the roll carries the player */
#define DODGE_GLIDE 8    /* the roll's last frames, slow */
#define RESPAWN_SAFE 60  /* frames of invincibility after the player comes back */

static void play(app_game *g, int32_t anim) {
    if (g->st.player_anim != anim) {
        g->st.player_anim = anim;
        clv_arena_play(g->arena, g->st.player, g->fighters.player_body, anim);
    }
}

static void stop_guard(app_game *g, const clv_entity_info *pi) {
    if (pi->state == CLV_HURT_GUARD) {
        clv_arena_set_state(g->arena, g->st.player, CLV_HURT_NORMAL, 0);
    }
    g->st.guarding = false;
}

/* Down: it waits, then returns with full hp and a moment of invincibility. */
static bool player_down(app_game *g) {
    app_state *st = &g->st;
    clv_arena_set_velocity(g->arena, st->player, clv_v2(0.0f, 0.0f));
    st->guarding = false;
    st->dodge = 0;
    if (++st->down == 1) {
        st->deaths++;
        app_game_log(g, 0xFFFF8080u, "f%lld #%u down, back in %d frames", (long long)st->frame,
                     (unsigned)st->player.index1, APP_PLAYER_RESPAWN);
    }
    if (st->down < APP_PLAYER_RESPAWN) {
        return false;
    }
    st->down = 0;
    clv_vec2 centre =
        clv_v2((APP_ROOM_X0 + APP_ROOM_X1) * 0.5f, (APP_ROOM_Y0 + APP_ROOM_Y1) * 0.5f);
    clv_arena_set_position(g->arena, st->player, centre);
    clv_arena_set_hp(g->arena, st->player, APP_PLAYER_HP);
    clv_arena_set_state(g->arena, st->player, CLV_HURT_INVINCIBLE, RESPAWN_SAFE);
    st->player_anim = -1;
    play(g, g->fighters.idle);
    app_game_log(g, 0xFF80FF80u, "f%lld #%u respawns", (long long)st->frame,
                 (unsigned)st->player.index1);
    return false;
}

static void start_dodge(app_game *g, const app_input *in) {
    app_state *st = &g->st;
    float len = sqrtf(in->move_x * in->move_x + in->move_y * in->move_y);
    /* without a direction held, the roll goes back, away from the aim */
    st->dodge_dir = len > 0.1f ? clv_v2(in->move_x / len, in->move_y / len)
                               : clv_v2(-cosf(st->facing), -sinf(st->facing));
    st->dodge = APP_DODGE_FRAMES;
    st->dodge_cooldown = APP_DODGE_COOLDOWN;
    play(g, g->fighters.dodge);
}

/* The roll carries the player; false while it lasts. */
static void dodge_step(app_game *g) {
    app_state *st = &g->st;
    float sp = st->dodge > DODGE_GLIDE ? DODGE_SPEED : 1.0f;
    clv_arena_set_velocity(g->arena, st->player,
                           clv_v2(st->dodge_dir.x * sp, st->dodge_dir.y * sp));
    if (--st->dodge == 0) {
        play(g, g->fighters.idle);
    }
}

bool app_player_control(app_game *g, const app_input *in, const clv_entity_info *pi) {
    app_state *st = &g->st;
    if (!pi->alive) {
        return player_down(g);
    }
    st->guard_broken -= st->guard_broken > 0;
    st->dodge_cooldown -= st->dodge_cooldown > 0;
    clv_arena_set_facing(g->arena, st->player, st->facing, false);
    bool stunned = pi->hitstun > 0;
    if (st->dodge == 0 && in->dodge && !stunned && st->dodge_cooldown == 0) {
        stop_guard(g, pi);
        start_dodge(g, in);
    }
    if (st->dodge > 0) {
        dodge_step(g);
        return false;
    }
    bool swinging = clv_arena_attack_valid(g->arena, st->attack);
    bool free_state = pi->state == CLV_HURT_NORMAL || pi->state == CLV_HURT_GUARD;
    if (in->guard && !stunned && !swinging && free_state) {
        if (pi->state != CLV_HURT_GUARD) {
            clv_arena_set_state(g->arena, st->player, CLV_HURT_GUARD, 0);
        }
        st->guarding = true;
        play(g, g->fighters.guard);
    } else {
        stop_guard(g, pi);
        bool moving = in->move_x != 0.0f || in->move_y != 0.0f;
        play(g, moving && !stunned ? g->fighters.walk : g->fighters.idle);
    }
    return !stunned;
}

void app_note_guard_break(app_game *g, const clv_hit_event *h) {
    if (!(h->flags & CLV_HIT_FLAG_GUARD_BREAK)) {
        return;
    }
    clv_entity_body_info bi;
    int32_t stun =
        clv_arena_entity_body(g->arena, h->target, &bi) == CLV_HIT_OK ? bi.guard.guard_break : 0;
    if (h->target.index1 == g->st.player.index1) {
        g->st.guard_broken = APP_GUARD_BREAK_SHOW;
    }
    /* a line of its own: the hit's line is already as long as the panel is wide */
    app_game_log_event(g, APP_LOG_HIT, h->target.index1, NULL, 0xFFFF5050u,
                       "f%lld #%u guard break, stunned %d frames", (long long)g->st.frame,
                       (unsigned)h->target.index1, (int)stun);
}

const char *app_hit_flag_words(const clv_hit_event *h, char *buf, size_t n) {
    uint32_t flags = h->flags;
    char stun[24] = "";
    if (flags & CLV_HIT_FLAG_BLOCKED) {
        snprintf(stun, sizeof stun, " blocked stun %d", (int)h->hitstun);
    }
    snprintf(buf, n, "%s%s%s%s", (flags & CLV_HIT_FLAG_INVINCIBLE) ? " invincible" : "", stun,
             (flags & CLV_HIT_FLAG_ARMOR) ? " armor" : "",
             (flags & CLV_HIT_FLAG_GRAB) ? " grab" : "");
    return buf;
}
