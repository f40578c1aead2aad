/* Drawing what meets in the room: knives in flight, a thrower's raised knife before it throws,
 * the player's parry, and the sparks where attacks clashed or a parry stopped one. */
#include <math.h>

#include "app.h"

#define SPARK_FRAMES 12

static uint32_t spark_color(int32_t kind) {
    switch (kind) {
    case CLV_CLASH_PARRY:
        return 0x60E0FFu;
    case CLV_CLASH_REFLECT:
        return 0xFFA040u;
    case CLV_CLASH_ABSORB:
        return 0xC080FFu;
    case CLV_CLASH_TRADED:
    case CLV_CLASH_TRANSCENDED:
        return 0xA0C8FFu;
    default:
        return 0xFFF0A0u; /* clank, outprioritize */
    }
}

/* A burst of eight rays that grows and fades, with a white flash for its first frames. */
static void draw_spark(app_canvas *c, const app_xf *t, const app_spark *s) {
    if (!s->used || s->age >= SPARK_FRAMES) {
        return;
    }
    clv_vec2 p = app_xf_point(t, s->pos);
    float k = (float)(s->age + 1) / (float)SPARK_FRAMES;
    uint32_t alpha = (uint32_t)(255.0f * (1.0f - k * 0.7f));
    uint32_t col = (alpha << 24) | spark_color(s->kind);
    float r0 = (2.0f + 8.0f * k) * t->z, r1 = (7.0f + 12.0f * k) * t->z;
    for (int i = 0; i < 8; i++) {
        float a = (float)i * 0.785398f + (i % 2 ? 0.2f : 0.0f);
        float len = i % 2 ? 0.7f : 1.0f; /* long and short rays: a star, not a wheel */
        app_line(c, p.x + cosf(a) * r0, p.y + sinf(a) * r0, p.x + cosf(a) * r1 * len,
                 p.y + sinf(a) * r1 * len, col);
    }
    if (s->age < 4) {
        app_capsule(c, p, p, (float)(4 - s->age) * 1.5f * t->z, 0xE0FFFFFFu, 0u);
    }
}

/* Every projectile's hitboxes, a streak behind it; the player's (reflected) ones in orange. */
static void draw_knives(app_canvas *c, const app_xf *t, const app_game *g) {
    clv_attack_id cur = {0, 0};
    while (clv_arena_next_attack(g->arena, &cur)) {
        clv_projectile_info pi;
        if (clv_arena_projectile(g->arena, cur, &pi) != CLV_HIT_OK) {
            continue;
        }
        bool ours = pi.team == 0;
        clv_vec2 p = app_xf_point(t, pi.position);
        clv_vec2 q = app_xf_point(
            t, clv_v2(pi.position.x - pi.velocity.x * 4.0f, pi.position.y - pi.velocity.y * 4.0f));
        app_line(c, p.x, p.y, q.x, q.y, ours ? 0x80FFA040u : 0x80E0E6F0u);
        clv_shape shapes[8];
        int32_t n = clv_arena_attack_hitboxes(g->arena, cur, shapes, 8);
        for (int32_t i = 0; i < n && i < 8; i++) {
            app_shape(c, &shapes[i], t->ox, t->oy, t->z, ours ? 0xFFFFA040u : 0xFFE8ECF4u,
                      0xFF202430u);
        }
    }
}

/* A thrower winding up holds its knife over its head, and a '!' blinks above it. */
static void draw_windups(app_canvas *c, const app_xf *t, const app_font *f, const app_game *g) {
    for (int32_t i = 0; i < g->st.enemy_count; i++) {
        const app_enemy *e = &g->enemies[i];
        clv_entity_info ei;
        if (e->kind != APP_ENEMY_THROWER || e->throw_in > APP_THROW_WINDUP || e->stagger > 0 ||
            clv_arena_entity(g->arena, e->id, &ei) != CLV_HIT_OK || !ei.alive) {
            continue;
        }
        clv_vec2 a = app_xf_point(t, clv_v2(ei.position.x + 8.0f, ei.position.y - 12.0f));
        clv_vec2 b = app_xf_point(t, clv_v2(ei.position.x + 8.0f, ei.position.y - 22.0f));
        app_capsule(c, a, b, 1.5f * t->z, 0xFFE8ECF4u, 0xFF202430u);
        if ((e->throw_in / 4) % 2 == 0) {
            clv_vec2 m = app_xf_point(t, clv_v2(ei.position.x - 3.0f, ei.position.y - 34.0f));
            app_text_shadow(c, f, (int)m.x, (int)m.y, "!", 0xFFFF5050u, 2);
        }
    }
}

/* The player's parry window: a cyan ring just outside its hurtbox. */
static void draw_parry(app_canvas *c, const app_xf *t, const app_game *g) {
    clv_entity_info pi;
    if (clv_arena_entity(g->arena, g->st.player, &pi) == CLV_HIT_OK && pi.state == CLV_HURT_PARRY) {
        clv_vec2 p = app_xf_point(t, pi.position);
        app_capsule(c, p, p, 16.0f * t->z, 0x3060E0FFu, 0xFF60E0FFu);
    }
}

void app_draw_meetings(app_canvas *c, const app_font *f, const app_game *g, const app_view *v) {
    app_xf t = app_view_xf(v, g);
    draw_parry(c, &t, g);
    draw_windups(c, &t, f, g);
    draw_knives(c, &t, g);
    for (int32_t i = 0; i < APP_SPARKS; i++) {
        draw_spark(c, &t, &g->st.sparks[i]);
    }
}
