/* Drawing the fighters' bodies: hurtboxes by state (the overlay), the guard's shield arc, the
 * player's health and guard meter, its roll and its time down, and a knight's wind-up: the
 * blade's first active frame outlined where it will land, with a bar that fills as it comes. */
#include <math.h>
#include <stdio.h>

#include "app.h"

#define DASHES 28

/* Every other piece of a ring of radius r about c, from angle a0 over span (radians). */
static void dashed_arc(app_canvas *c, const app_xf *t, clv_vec2 ctr, float r, float a0, float span,
                       uint32_t color) {
    for (int i = 0; i < DASHES; i += 2) {
        float u = a0 + span * (float)i / DASHES, w = a0 + span * (float)(i + 1) / DASHES;
        clv_vec2 p = app_xf_point(t, clv_v2(ctr.x + r * cosf(u), ctr.y + r * sinf(u)));
        clv_vec2 q = app_xf_point(t, clv_v2(ctr.x + r * cosf(w), ctr.y + r * sinf(w)));
        app_line(c, p.x, p.y, q.x, q.y, color);
    }
}

static void dashed_line(app_canvas *c, const app_xf *t, clv_vec2 a, clv_vec2 b, uint32_t color) {
    for (int i = 0; i < 8; i += 2) {
        float u = (float)i / 8.0f, w = (float)(i + 1) / 8.0f;
        clv_vec2 p = app_xf_point(t, clv_v2(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u));
        clv_vec2 q = app_xf_point(t, clv_v2(a.x + (b.x - a.x) * w, a.y + (b.y - a.y) * w));
        app_line(c, p.x, p.y, q.x, q.y, color);
    }
}

/* A shape's outline in dashes: what hits pass through, or what is not there yet. */
static void dashed_shape(app_canvas *c, const app_xf *t, const clv_shape *s, uint32_t color) {
    const float pi = 3.14159265f;
    if (s->type == CLV_CIRCLE) {
        dashed_arc(c, t, s->u.circle.c, s->u.circle.r, 0.0f, 2.0f * pi, color);
    } else if (s->type == CLV_CAPSULE) {
        const clv_capsule *k = &s->u.capsule;
        float ang = atan2f(k->b.y - k->a.y, k->b.x - k->a.x);
        clv_vec2 n = clv_v2(-sinf(ang) * k->r, cosf(ang) * k->r);
        dashed_arc(c, t, k->b, k->r, ang - pi / 2, pi, color);
        dashed_arc(c, t, k->a, k->r, ang + pi / 2, pi, color);
        dashed_line(c, t, clv_v2(k->a.x + n.x, k->a.y + n.y), clv_v2(k->b.x + n.x, k->b.y + n.y),
                    color);
        dashed_line(c, t, clv_v2(k->a.x - n.x, k->a.y - n.y), clv_v2(k->b.x - n.x, k->b.y - n.y),
                    color);
    } else if (s->type == CLV_OBB) {
        const clv_obb *b = &s->u.obb;
        clv_vec2 ux = clv_v2(b->u.x * b->h.x, b->u.y * b->h.x);
        clv_vec2 uy = clv_v2(-b->u.y * b->h.y, b->u.x * b->h.y);
        static const float sx[5] = {-1, 1, 1, -1, -1}, sy[5] = {-1, -1, 1, 1, -1};
        for (int i = 0; i < 4; i++) {
            clv_vec2 p =
                clv_v2(b->c.x + ux.x * sx[i] + uy.x * sy[i], b->c.y + ux.y * sx[i] + uy.y * sy[i]);
            clv_vec2 q = clv_v2(b->c.x + ux.x * sx[i + 1] + uy.x * sy[i + 1],
                                b->c.y + ux.y * sx[i + 1] + uy.y * sy[i + 1]);
            dashed_line(c, t, p, q, color);
        }
    }
}

/* The colours of a hurtbox state; an entity's own state overrides its hurtboxes'. */
static void state_colors(clv_hurtbox_state s, uint32_t *fill, uint32_t *line) {
    switch (s) {
    case CLV_HURTBOX_INTANGIBLE:
        *fill = 0x148080FFu;
        *line = 0xFF9090FFu; /* dashed */
        break;
    case CLV_HURTBOX_INVINCIBLE:
        *fill = 0x50E0E8FFu;
        *line = 0xFFFFFFFFu;
        break;
    case CLV_HURTBOX_ARMOR:
        *fill = 0x50FFA030u;
        *line = 0xFFFFB040u;
        break;
    default:
        *fill = 0x3040FFFFu;
        *line = 0xFF40FFFFu;
        break;
    }
}

static clv_hurtbox_state effective(clv_hurt_state entity, clv_hurtbox_state box) {
    if (entity == CLV_HURT_INTANGIBLE) {
        return CLV_HURTBOX_INTANGIBLE;
    }
    return entity == CLV_HURT_INVINCIBLE ? CLV_HURTBOX_INVINCIBLE : box;
}

/* The guard's shield: a thick arc on the facing side, blue while it holds, red as it breaks. */
static void shield_arc(app_canvas *c, const app_xf *t, clv_vec2 at, float facing, float frac) {
    uint32_t color = frac > 0.3f ? 0xFF70B0FFu : 0xFFFF6050u;
    for (float r = 15.0f; r <= 17.5f; r += 0.75f) {
        float a0 = facing - 1.1f;
        for (int i = 0; i < 12; i++) {
            float u = a0 + 2.2f * (float)i / 12, w = a0 + 2.2f * (float)(i + 1) / 12;
            clv_vec2 p = app_xf_point(t, clv_v2(at.x + r * cosf(u), at.y + r * sinf(u)));
            clv_vec2 q = app_xf_point(t, clv_v2(at.x + r * cosf(w), at.y + r * sinf(w)));
            app_line(c, p.x, p.y, q.x, q.y, color);
        }
    }
}

void app_draw_hurtbox(app_canvas *c, const clv_shape *s, clv_vec2 o, float z,
                      clv_hurtbox_state state) {
    app_xf t = {z, o.x, o.y};
    uint32_t fill, line;
    state_colors(state, &fill, &line);
    if (state == CLV_HURTBOX_INTANGIBLE) {
        app_shape(c, s, t.ox, t.oy, t.z, fill, 0);
        dashed_shape(c, &t, s, line);
    } else {
        app_shape(c, s, t.ox, t.oy, t.z, fill, line);
    }
}

uint32_t app_hurtbox_color(clv_hurtbox_state state) {
    uint32_t fill, line;
    state_colors(state, &fill, &line);
    return line;
}

static void entity_hurtboxes(app_canvas *c, const app_xf *t, const app_game *g, clv_entity_id id) {
    clv_entity_info ei;
    if (clv_arena_entity(g->arena, id, &ei) != CLV_HIT_OK || !ei.alive) {
        return;
    }
    clv_shape shapes[CLV_BODY_MAX_HURTBOXES];
    clv_hurtbox_state states[CLV_BODY_MAX_HURTBOXES];
    int32_t n = clv_arena_entity_hurtboxes(g->arena, id, shapes, states, CLV_BODY_MAX_HURTBOXES);
    for (int32_t k = 0; k < n && k < CLV_BODY_MAX_HURTBOXES; k++) {
        app_draw_hurtbox(c, &shapes[k], clv_v2(t->ox, t->oy), t->z, effective(ei.state, states[k]));
    }
}

void app_draw_hurtboxes(app_canvas *c, const app_game *g, const app_view *v) {
    app_xf t = app_view_xf(v, g);
    for (int32_t i = 0; i < g->st.enemy_count; i++) {
        entity_hurtboxes(c, &t, g, g->enemies[i].id);
    }
    entity_hurtboxes(c, &t, g, g->st.player);
}

/* A bar of frac (0..1) of w world units, centred under or over a point. */
static void bar(app_canvas *c, const app_xf *t, clv_vec2 at, float w, float frac, uint32_t color) {
    clv_vec2 p = app_xf_point(t, clv_v2(at.x - w * 0.5f, at.y));
    int pw = (int)(w * t->z), ph = (int)(3.0f * t->z);
    frac = frac < 0.0f ? 0.0f : (frac > 1.0f ? 1.0f : frac);
    app_fill_rect(c, (int)p.x - 1, (int)p.y - 1, pw + 2, ph + 2, 0xC0101018u);
    app_fill_rect(c, (int)p.x, (int)p.y, (int)((float)pw * frac), ph, color);
}

static void draw_down(app_canvas *c, const app_xf *t, const app_font *f, const app_game *g,
                      clv_vec2 at) {
    char line[32];
    float left = (float)(APP_PLAYER_RESPAWN - g->st.down) / 60.0f;
    snprintf(line, sizeof line, "DOWN %.1fs", (double)(left > 0.0f ? left : 0.0f));
    clv_vec2 p = app_xf_point(t, clv_v2(at.x, at.y - 30.0f));
    app_text_shadow(c, f, (int)p.x - app_text_width(line, 1) / 2, (int)p.y, line, 0xFFFF7070u, 1);
    clv_vec2 a = app_xf_point(t, clv_v2(at.x - 8.0f, at.y - 8.0f));
    clv_vec2 b = app_xf_point(t, clv_v2(at.x + 8.0f, at.y + 8.0f));
    app_line(c, a.x, a.y, b.x, b.y, 0xFFFF5050u);
    app_line(c, a.x, b.y, b.x, a.y, 0xFFFF5050u);
}

/* The player's health over it and its guard meter under it; the shield while it guards, a
 * trail while it rolls, BREAK while its broken guard stuns it. */
static void draw_player(app_canvas *c, const app_xf *t, const app_font *f, const app_game *g) {
    const app_state *st = &g->st;
    clv_entity_info pi;
    clv_entity_body_info bi;
    if (clv_arena_entity(g->arena, st->player, &pi) != CLV_HIT_OK ||
        clv_arena_entity_body(g->arena, st->player, &bi) != CLV_HIT_OK) {
        return;
    }
    if (!pi.alive) {
        draw_down(c, t, f, g, pi.position);
        return;
    }
    float meter = bi.guard.meter > 0.0f ? bi.guard_meter / bi.guard.meter : 0.0f;
    bar(c, t, clv_v2(pi.position.x, pi.position.y - 22.0f), 26.0f, pi.hp / APP_PLAYER_HP,
        pi.hp > APP_PLAYER_HP * 0.3f ? 0xFF50E050u : 0xFFFF5040u);
    bool broken = st->guard_broken > 0;
    bar(c, t, clv_v2(pi.position.x, pi.position.y + 17.0f), 26.0f, broken ? 1.0f : meter,
        broken ? ((st->frame / 4) % 2 ? 0xFFFF4040u : 0xFF801010u) : 0xFF4F8FE0u);
    if (st->guarding) {
        shield_arc(c, t, pi.position, bi.facing, meter);
    }
    if (broken) {
        clv_vec2 p = app_xf_point(t, clv_v2(pi.position.x, pi.position.y - 36.0f));
        app_text_shadow(c, f, (int)p.x - app_text_width("GUARD BREAK", 1) / 2, (int)p.y,
                        "GUARD BREAK", (st->frame / 4) % 2 ? 0xFFFF5050u : 0xFFFFD060u, 1);
    }
    for (int k = 1; st->dodge > 0 && k <= 3; k++) {
        clv_vec2 p = app_xf_point(t, clv_v2(pi.position.x - st->dodge_dir.x * 7.0f * (float)k,
                                            pi.position.y - st->dodge_dir.y * 7.0f * (float)k));
        app_capsule(c, p, p, (11.0f - 2.0f * (float)k) * t->z,
                    app_rgba(120, 150, 255, (uint32_t)(90 - 25 * k)), 0);
    }
}

/* A knight winding up: where its blade's first active frame will be, outlined, and a bar under
 * it that fills through the startup; red once the blade is out. */
static void draw_knight(app_canvas *c, const app_xf *t, const app_font *f, const app_game *g,
                        const app_enemy *e) {
    const app_fighters *fi = &g->fighters;
    clv_attack_info ai;
    clv_entity_info ei;
    if (clv_arena_attack(g->arena, e->swing, &ai) != CLV_HIT_OK ||
        clv_arena_entity(g->arena, e->id, &ei) != CLV_HIT_OK || !ei.alive) {
        return;
    }
    const app_attack_facts *bf = &fi->blade_facts;
    int32_t frame = ai.frame < 0 ? 0 : ai.frame;
    if (frame < bf->startup) {
        int32_t first = bf->active_first;
        int32_t n = clv_arena_frame_hitbox_count(g->arena, fi->blade, ai.attack, first);
        for (int32_t k = 0; k < n; k++) {
            const clv_hitbox_def *h = clv_arena_hitbox(g->arena, fi->blade, ai.attack, first, k);
            if (h != NULL) {
                clv_shape s = app_place_shape(&h->shape, ai.position, ai.facing, ai.mirror);
                dashed_shape(c, t, &s, 0xFFFF6050u);
            }
        }
        if ((frame / 4) % 2 == 0) {
            clv_vec2 m = app_xf_point(t, clv_v2(ei.position.x - 3.0f, ei.position.y - 36.0f));
            app_text_shadow(c, f, (int)m.x, (int)m.y, "!", 0xFFFF5050u, 2);
        }
    }
    int32_t n = clv_arena_frame_hitbox_count(g->arena, fi->blade, ai.attack, frame);
    for (int32_t k = 0; k < n; k++) {
        const clv_hitbox_def *h = clv_arena_hitbox(g->arena, fi->blade, ai.attack, frame, k);
        if (h != NULL) {
            clv_shape s = app_place_shape(&h->shape, ai.position, ai.facing, ai.mirror);
            app_shape(c, &s, t->ox, t->oy, t->z, 0xC0E8ECF4u, 0xFFFF6050u);
        }
    }
    float frac = frame < bf->startup ? (float)(frame + 1) / (float)bf->startup : 1.0f;
    bar(c, t, clv_v2(ei.position.x, ei.position.y + 17.0f), 26.0f, frac,
        frame < bf->startup ? 0xFF60E060u : 0xFFFF4040u);
}

void app_draw_fighters(app_canvas *c, const app_font *f, const app_game *g, const app_view *v) {
    app_xf t = app_view_xf(v, g);
    for (int32_t i = 0; i < g->st.enemy_count; i++) {
        if (g->enemies[i].kind == APP_ENEMY_KNIGHT) {
            draw_knight(c, &t, f, g, &g->enemies[i]);
        }
    }
    draw_player(c, &t, f, g);
}
