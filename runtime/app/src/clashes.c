/* The demo's reactions to attacks that meet: a log line and a spark for every clash and parry
 * (clv_arena_clashes), and a line for each projectile reflected, absorbed or stopped. */
#include <math.h>
#include <stdio.h>

#include "app.h"

static const char *clash_name(clv_clash_kind k) {
    static const char *const names[] = {"clank", "outprioritize", "transcend", "trade",
                                        "parry", "reflect",       "absorb"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static void add_spark(app_state *st, clv_vec2 at, clv_clash_kind kind) {
    app_spark *s = &st->sparks[(uint32_t)st->spark_next % APP_SPARKS];
    st->spark_next++;
    s->pos = at;
    s->kind = (int32_t)kind;
    s->age = 0;
    s->used = true;
}

static const char *side_id(const app_game *g, const clv_clash_event *c, int side) {
    const clv_hitbox_def *hd = clv_arena_hitbox(g->arena, c->weapon[side], c->attack_index[side],
                                                c->attack_frame[side], c->hitbox[side]);
    return hd ? hd->id : "?";
}

static void log_clash(app_game *g, const clv_clash_event *c) {
    long long fr = (long long)g->st.frame;
    if (c->kind == CLV_CLASH_PARRY) {
        app_game_log_event(g, APP_LOG_CLASH, c->owner[1].index1, NULL, 0xFF60E0FFu,
                           "f%lld parry %s of #%u by #%u stun %d", fr, side_id(g, c, 0),
                           (unsigned)c->owner[0].index1, (unsigned)c->owner[1].index1,
                           (int)c->stun[0]);
        return;
    }
    app_game_log_event(g, APP_LOG_CLASH, c->owner[0].index1, NULL, 0xFFFFE890u,
                       "f%lld clash %s %s #%u / %s #%u", fr, clash_name(c->kind), side_id(g, c, 0),
                       (unsigned)c->owner[0].index1, side_id(g, c, 1),
                       (unsigned)c->owner[1].index1);
}

static void log_projectile(app_game *g, const clv_projectile_event *p) {
    long long fr = (long long)g->st.frame;
    const char *name = clv_arena_weapon_name(g->arena, p->weapon);
    name = name && name[0] ? name : "projectile";
    if (p->kind == CLV_PROJECTILE_REFLECTED) {
        float speed = sqrtf(p->velocity.x * p->velocity.x + p->velocity.y * p->velocity.y);
        app_game_log_event(g, APP_LOG_CLASH, p->by.index1, NULL, 0xFFFFA040u,
                           "f%lld %s reflected by #%u speed %.1f", fr, name, (unsigned)p->by.index1,
                           (double)speed);
    } else if (p->kind == CLV_PROJECTILE_ABSORBED) {
        app_game_log_event(g, APP_LOG_CLASH, p->by.index1, NULL, 0xFFC080FFu,
                           "f%lld %s absorbed by #%u dmg %.1f", fr, name, (unsigned)p->by.index1,
                           (double)p->damage);
    } else if (p->kind == CLV_PROJECTILE_DESTROYED && p->reason >= 0) {
        app_game_log_event(g, APP_LOG_INFO, p->owner.index1, NULL, 0xFF8FA0B8u,
                           "f%lld %s of #%u stopped: %s", fr, name, (unsigned)p->owner.index1,
                           clv_miss_reason_name((clv_miss_reason)p->reason));
    }
}

void app_game_react_meetings(app_game *g) {
    int32_t n = 0;
    const clv_clash_event *cs = clv_arena_clashes(g->arena, &n);
    for (int32_t i = 0; i < n; i++) {
        g->st.clashes++;
        add_spark(&g->st, cs[i].point, cs[i].kind);
        log_clash(g, &cs[i]);
    }
    const clv_projectile_event *ps = clv_arena_projectile_events(g->arena, &n);
    for (int32_t i = 0; i < n; i++) {
        log_projectile(g, &ps[i]);
    }
}
