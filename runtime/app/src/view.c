/* Drawing the demo: the room, sprites, reactions, and the timing tools a designer reads. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"

#define PANEL_X 584
#define PANEL_W (APP_W - PANEL_X - 8)
#define BAR_Y 490

static const uint32_t group_colors[6] = {0xFFFF4A4Au, 0xFFFFA030u, 0xFF50D0FFu,
                                         0xFFB070FFu, 0xFF60F080u, 0xFFFF70C0u};

static uint32_t fade(uint32_t color, uint32_t alpha) {
    return (color & 0x00FFFFFFu) | (alpha << 24);
}

static uint32_t group_color(int32_t group) {
    return group_colors[(uint32_t)(group < 0 ? 5 : group) % 6u];
}

/* The room's camera: canvas = world * z + o. At zoom 1 it is the identity (the room's centre
 * is the viewport's); zoomed in, it centres on the player plus the pan, kept over the room. */
typedef struct cam {
    float z, ox, oy;
} cam;

static cam camera(const app_view *v, const app_game *g) {
    int32_t zoom = v->zoom < 1 ? 1 : (v->zoom > APP_MAX_ZOOM ? APP_MAX_ZOOM : v->zoom);
    float sx = (float)APP_VIEW_W * 0.5f, sy = (float)(APP_VIEW_Y0 + APP_VIEW_Y1) * 0.5f;
    clv_vec2 centre = clv_v2(sx, sy);
    clv_entity_info pi;
    if (zoom > 1 && clv_arena_entity(g->arena, g->st.player, &pi) == CLV_HIT_OK) {
        centre = clv_v2(fminf(fmaxf(pi.position.x + v->pan.x, APP_ROOM_X0), APP_ROOM_X1),
                        fminf(fmaxf(pi.position.y + v->pan.y, APP_ROOM_Y0), APP_ROOM_Y1));
    }
    cam k = {(float)zoom, sx - centre.x * (float)zoom, sy - centre.y * (float)zoom};
    return k;
}

static clv_vec2 scr(const cam *k, clv_vec2 w) {
    return clv_v2(w.x * k->z + k->ox, w.y * k->z + k->oy);
}

clv_vec2 app_view_to_screen(const app_view *v, const app_game *g, clv_vec2 w) {
    cam k = camera(v, g);
    return scr(&k, w);
}

clv_vec2 app_view_to_world(const app_view *v, const app_game *g, clv_vec2 p) {
    cam k = camera(v, g);
    return clv_v2((p.x - k.ox) / k.z, (p.y - k.oy) / k.z);
}

/* A sprite of img centred at world point w, lifted by dy world pixels. */
static void blit_at(app_canvas *c, const cam *k, const app_image *img, clv_vec2 w, float dx,
                    float dy, int tint, int alpha, bool flip) {
    int z = (int)k->z;
    clv_vec2 p = scr(k, clv_v2(floorf(w.x) + dx, floorf(w.y) + dy));
    app_blit(c, img, (int)floorf(p.x) - img->w * z / 2, (int)floorf(p.y) - img->h * z / 2, z, tint,
             alpha, flip);
}

static void fill_world(app_canvas *c, const cam *k, float x, float y, float w, float h,
                       uint32_t color) {
    clv_vec2 p = scr(k, clv_v2(x, y));
    app_fill_rect(c, (int)floorf(p.x), (int)floorf(p.y), (int)(w * k->z), (int)(h * k->z), color);
}

static void line_world(app_canvas *c, const cam *k, clv_vec2 a, clv_vec2 b, uint32_t color) {
    clv_vec2 p = scr(k, a), q = scr(k, b);
    app_line(c, p.x, p.y, q.x, q.y, color);
}

static void circle_world(app_canvas *c, const cam *k, clv_vec2 w, float r, uint32_t fill,
                         uint32_t line) {
    clv_vec2 p = scr(k, w);
    app_capsule(c, p, p, r * k->z, fill, line);
}

static void draw_room(app_canvas *c, const app_assets *a, const cam *k) {
    int x0 = (int)APP_ROOM_X0, y0 = (int)APP_ROOM_Y0, x1 = (int)APP_ROOM_X1, y1 = (int)APP_ROOM_Y1;
    int z = (int)k->z;
    for (int y = y0 - 32; y < y1 + 32; y += 32) {
        for (int x = x0 - 32; x < x1 + 32; x += 32) {
            bool wall = x < x0 || y < y0 || x >= x1 || y >= y1;
            clv_vec2 p = scr(k, clv_v2((float)x, (float)y));
            app_blit(c, wall ? &a->wall : &a->floor, (int)floorf(p.x), (int)floorf(p.y), z, 0, 255,
                     false);
        }
    }
    /* A soft shadow along the top wall gives the room depth. */
    for (int i = 0; i < 10; i++) {
        fill_world(c, k, (float)x0, (float)(y0 + i), (float)(x1 - x0), 1.0f,
                   app_rgba(0, 0, 0, (uint32_t)(90 - i * 9)));
    }
}

static void draw_hitboxes_at(app_canvas *c, const cam *k, const app_game *g, clv_weapon_id wid,
                             int32_t attack, int32_t frame, clv_vec2 pos, float facing, bool mirror,
                             uint32_t alpha_fill, uint32_t alpha_line, bool group_tint,
                             uint32_t tint) {
    for (int32_t n = 0;; n++) {
        const clv_hitbox_def *hd = clv_arena_hitbox(g->arena, wid, attack, frame, n);
        if (hd == NULL) {
            break;
        }
        clv_shape s = app_place_shape(&hd->shape, pos, facing, mirror);
        /* by list order (precedence), as in `cleave render`: blade and handle read apart */
        uint32_t col = group_tint ? group_color(n) : tint;
        app_shape(c, &s, k->ox, k->oy, k->z, fade(col, alpha_fill), fade(col, alpha_line));
    }
}

static clv_vec2 lerp2(clv_vec2 a, clv_vec2 b, float t) {
    return clv_v2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
}

static const clv_hitbox_def *hitbox_named(const app_game *g, const clv_attack_info *ai,
                                          int32_t frame, const char *id) {
    const clv_hitbox_def *found = NULL;
    for (int32_t j = 0;; j++) {
        const clv_hitbox_def *p = clv_arena_hitbox(g->arena, ai->weapon, ai->attack, frame, j);
        if (p == NULL) {
            return found;
        }
        found = strcmp(p->id, id) == 0 ? p : found;
    }
}

/* The area a hitbox covered between last frame's pose and this one, drawn as in-between
 * poses of the same hitbox id (what the arena's sweep tests against). */
static void draw_swept(app_canvas *c, const cam *k, const app_game *g, const clv_attack_info *ai) {
    const app_state *st = &g->st;
    if (st->attack_prev_frame < 0 || ai->frame <= 0) {
        return;
    }
    for (int32_t n = 0;; n++) {
        const clv_hitbox_def *cur =
            clv_arena_hitbox(g->arena, ai->weapon, ai->attack, ai->frame, n);
        if (cur == NULL) {
            break;
        }
        const clv_hitbox_def *prev =
            cur->sweep ? hitbox_named(g, ai, st->attack_prev_frame, cur->id) : NULL;
        if (prev == NULL || prev->shape.type != cur->shape.type) {
            continue;
        }
        clv_shape a = app_place_shape(&prev->shape, st->attack_prev_pos, ai->facing, ai->mirror);
        clv_shape b = app_place_shape(&cur->shape, ai->position, ai->facing, ai->mirror);
        const int steps = 10;
        for (int i = 0; i <= steps; i++) {
            float t = (float)i / (float)steps;
            clv_shape m = b;
            if (a.type == CLV_CAPSULE) {
                m.u.capsule.a = lerp2(a.u.capsule.a, b.u.capsule.a, t);
                m.u.capsule.b = lerp2(a.u.capsule.b, b.u.capsule.b, t);
            } else if (a.type == CLV_CIRCLE) {
                m.u.circle.c = lerp2(a.u.circle.c, b.u.circle.c, t);
            } else if (a.type == CLV_OBB) {
                m.u.obb.c = lerp2(a.u.obb.c, b.u.obb.c, t);
            }
            app_shape(c, &m, k->ox, k->oy, k->z, 0x22FFE060u, i == 0 ? 0x90FFE060u : 0u);
        }
    }
}

void app_draw_frame_bar_lag(app_canvas *c, const app_font *f, int x, int y, int w,
                            const app_attack_facts *facts, int32_t current, int32_t lag_done,
                            int32_t lag_total) {
    char line[160];
    snprintf(line, sizeof line, "%s  startup %d  active %d  recovery %d  total %d", facts->name,
             (int)facts->startup, (int)facts->active_count, (int)facts->recovery,
             (int)facts->frames);
    int tw = app_text(c, f, x, y, line, 0xFFE8E8E8u, 1);
    bool lag = lag_total > 0 && current >= 0;
    const uint32_t lag_col = 0xFFFFD040u;
    if (lag) {
        snprintf(line, sizeof line, "hitlag %d/%d", (int)lag_done, (int)lag_total);
        app_text(c, f, x + tw + 18, y, line, lag_col, 1);
    }
    int n = facts->frames > 0 ? facts->frames : 1;
    int cell = w / n;
    if (cell > 24) {
        cell = 24;
    }
    if (cell < 2) {
        cell = 2;
    }
    int by = y + 12, bh = 16;
    for (int i = 0; i < facts->frames && x + i * cell < x + w; i++) {
        bool active =
            facts->active_first >= 0 && i >= facts->active_first && i <= facts->active_last;
        uint32_t col = i < facts->startup ? 0xFF3C9A5Au : (active ? 0xFFD8463Cu : 0xFF3C64B4u);
        app_fill_rect(c, x + i * cell, by, cell - (cell > 3 ? 1 : 0), bh, col);
        if (cell >= 12 && (i + 1) % 5 == 0) {
            char num[16];
            snprintf(num, sizeof num, "%d", i + 1);
            app_text(c, f, x + i * cell + 1, by + 4, num, 0xB0FFFFFFu, 1);
        }
    }
    if (current >= 0 && current < facts->frames) {
        int cx = x + current * cell;
        uint32_t mark = lag ? lag_col : 0xFFFFFFFFu;
        if (lag) {
            /* the frozen frames fill the stalled cell from the bottom, one step at a time */
            int fill = bh * (lag_done < lag_total ? lag_done : lag_total) / lag_total;
            app_fill_rect(c, cx, by + bh - fill, cell - (cell > 3 ? 1 : 0), fill, 0xC0FFD040u);
        }
        app_rect(c, cx - 1, by - 2, cell + 1, bh + 4, mark);
        for (int i = 0; i < 4; i++) {
            app_fill_rect(c, cx + cell / 2 - i, by + bh + 3 + i, 2 * i + 1, 1, mark);
        }
    }
}

void app_draw_frame_bar(app_canvas *c, const app_font *f, int x, int y, int w,
                        const app_attack_facts *facts, int32_t current) {
    app_draw_frame_bar_lag(c, f, x, y, w, facts, current, 0, 0);
}

int app_wrap_words(const char *text, int cols, int max_lines, int *start, int *len) {
    int n = 0;
    size_t i = 0, total = strlen(text), width = (size_t)(cols < 1 ? 1 : cols);
    while (i < total) {
        size_t para_end = i;
        while (para_end < total && text[para_end] != '\n') {
            para_end++;
        }
        size_t end = para_end;
        bool wrapped = para_end - i > width;
        if (wrapped) {
            size_t sp = i + width;
            while (sp > i && text[sp] != ' ') {
                sp--;
            }
            end = sp > i ? sp : i + width; /* no space: a word longer than a line is cut */
        }
        if (n < max_lines) {
            start[n] = (int)i;
            len[n] = (int)(end - i);
        }
        n++;
        i = end;
        if (wrapped) {
            while (i < total && text[i] == ' ') {
                i++;
            }
        }
        if (i == para_end && i < total) {
            i++; /* the '\n' */
        }
    }
    return n;
}

/* The attacks of the selected weapon with the keys that start them, wrapped to the panel. */
static int draw_attack_keys(app_canvas *c, const app_font *f, const app_slot *s, int y) {
    char line[400];
    size_t used = (size_t)snprintf(line, sizeof line, "keys:");
    int keys = (int)strlen(APP_ATTACK_KEYS);
    for (int32_t i = 0; i < s->attack_count && used < sizeof line; i++) {
        const char *name = i < APP_MAX_FACTS ? s->facts[i].name : "?";
        if (i < keys) {
            used += (size_t)snprintf(line + used, sizeof line - used, " %c %s ", APP_ATTACK_KEYS[i],
                                     name);
        } else if (i < 2 * keys) {
            used += (size_t)snprintf(line + used, sizeof line - used, " Shift+%c %s ",
                                     APP_ATTACK_KEYS[i - keys], name);
        } else {
            used +=
                (size_t)snprintf(line + used, sizeof line - used, " (%s: inputs file only)", name);
        }
    }
    int start[4], len[4];
    int n = app_wrap_words(line, PANEL_W / APP_GLYPH_W, 4, start, len);
    for (int i = 0; i < n && i < 4; i++) {
        char part[128];
        snprintf(part, sizeof part, "%.*s", len[i], line + start[i]);
        app_text(c, f, PANEL_X + 6, y, part, 0xFFD0C090u, 1);
        y += 11;
    }
    return y;
}

/* The log lines the filter shows, newest last, as many as fit in rows. */
static int draw_log(app_canvas *c, const app_font *f, const app_state *st, const app_view *v, int y,
                    int rows) {
    int have = st->log_next < APP_LOG_LINES ? st->log_next : APP_LOG_LINES;
    int pick[APP_LOG_LINES], n = 0;
    for (int back = 1; back <= have && n < rows; back++) {
        const app_log_line *l = &st->log[(uint32_t)(st->log_next - back) % APP_LOG_LINES];
        if (app_log_visible(l, (app_log_filter)v->log_filter, v->log_target)) {
            pick[n++] = back;
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        const app_log_line *l = &st->log[(uint32_t)(st->log_next - pick[i]) % APP_LOG_LINES];
        int w = app_text(c, f, PANEL_X, y, l->text, l->color, 1);
        if (l->count > 1) {
            char times[16];
            snprintf(times, sizeof times, " x%d", (int)l->count);
            app_text(c, f, PANEL_X + w, y, times, 0xFFFFFFFFu, 1);
        }
        y += 10;
    }
    return n;
}

static const char *const help_text = "WASD move  mouse aim  1-9/wheel weapon  Q parry\n"
                                     "G (hold) guard  R dodge\n"
                                     "J K L U I O P attacks 1-7, +Shift 8-14, LMB 1, RMB 2\n"
                                     "H overlay  F log filter  Space pause\n"
                                     ". step  , back  Tab slow  F12 shot  Esc quit\n"
                                     "+ - Ctrl+wheel zoom  arrows/middle drag pan  0 reset";

static void draw_panel(app_canvas *c, const app_assets *a, const app_game *g, const app_view *v) {
    const app_font *f = &a->font;
    const app_state *st = &g->st;
    app_fill_rect(c, PANEL_X - 8, 0, APP_W - PANEL_X + 8, APP_H, 0xFF15171Du);
    app_fill_rect(c, PANEL_X - 8, 0, 1, APP_H, 0xFF343844u);
    char line[128];
    int y = 8;
    app_text(c, f, PANEL_X, y, "WEAPONS", 0xFF9AA4B8u, 1);
    y += 12;
    if (g->slot_count == 0) {
        app_text(c, f, PANEL_X, y,
                 v->banner && v->banner[0] ? "none loaded: see the error on the left"
                                           : "none loaded: put mods in mods/",
                 0xFFFF8080u, 1);
        y += 10;
    }
    for (int32_t i = 0; i < g->slot_count; i++) {
        bool sel = i == st->slot;
        snprintf(line, sizeof line, "%d %s%s", (int)i + 1, g->slots[i].label,
                 g->slots[i].weapon == NULL ? " (retired)" : "");
        if (sel) {
            app_fill_rect(c, PANEL_X - 3, y - 2, PANEL_W, 11, 0xFF2E3A58u);
        }
        app_text(c, f, PANEL_X, y, line, sel ? 0xFFFFFFFFu : 0xFFB0B8C8u, 1);
        y += 11;
        if (sel) {
            y = draw_attack_keys(c, f, &g->slots[i], y);
        }
    }
    y += 6;
    snprintf(line, sizeof line, "frame %lld  hits %d  misses %d  KOs %d", (long long)st->frame,
             (int)st->hits, (int)st->misses, (int)st->kills);
    app_text(c, f, PANEL_X, y, line, 0xFFE0E0E0u, 1);
    y += 14;
    int tx = PANEL_X + app_text(c, f, PANEL_X, y, "HIT LOG", 0xFF9AA4B8u, 1);
    if (v->log_filter == APP_FILTER_ENEMY && v->log_target == 0) {
        snprintf(line, sizeof line, "  F: enemy (point at one)");
    } else if (v->log_filter == APP_FILTER_ENEMY) {
        snprintf(line, sizeof line, "  F: enemy #%u", (unsigned)v->log_target);
    } else {
        snprintf(line, sizeof line, "  F: %s", app_log_filter_name((app_log_filter)v->log_filter));
    }
    app_text(c, f, tx, y, line, 0xFF70F090u, 1);
    y += 12;
    int help_y = APP_H - 6 * 11 - 4;
    draw_log(c, f, st, v, y, (help_y - 4 - y) / 10);
    app_text(c, f, PANEL_X, help_y, help_text, 0xFF6E7890u, 1);
}

static void draw_enemy(app_canvas *c, const cam *k, const app_assets *a, const app_game *g,
                       const app_enemy *e, const clv_entity_info *ei) {
    const app_image *sprite = e->kind == APP_ENEMY_THROWER  ? &a->thrower
                              : e->kind == APP_ENEMY_KNIGHT ? &a->knight
                                                            : &a->enemy;
    if (!ei->alive) {
        int alpha = 160 - e->dead * 160 / 90;
        blit_at(c, k, sprite, ei->position, 0.0f, 1.0f, 0, alpha < 0 ? 0 : alpha, false);
        return;
    }
    /* hitlag: a small shake so the freeze reads as impact, not as a stall */
    float shake = ei->hitlag > 0 ? ((g->st.frame & 1) ? 2.0f : -2.0f) : 0.0f;
    blit_at(c, k, sprite, ei->position, shake, -2.0f, e->flash > 0 ? 230 : 0, 255,
            ei->position.x > 0.0f && e->flash > 0 && (e->flash & 2));
    float top = floorf(ei->position.y) - (float)a->enemy.h / 2.0f - 5.0f;
    float left = floorf(ei->position.x) - (float)a->enemy.w / 2.0f + 4.0f;
    if (ei->damage_taken > 0.0f && ei->hp > 0.0f) {
        float frac = ei->hp / (ei->hp + ei->damage_taken);
        frac = frac > 1.0f ? 1.0f : frac;
        fill_world(c, k, left, top, 24.0f, 3.0f, 0xC0200000u);
        fill_world(c, k, left, top, floorf(24.0f * frac), 3.0f, 0xFF50E050u);
    }
    if (ei->effect_count > 0 && (g->st.frame / 8) % 2 == 0) {
        circle_world(c, k, clv_v2(ei->position.x + 9.0f, ei->position.y + 8.0f), 2.5f, 0xFFD02040u,
                     0xFF801020u);
    }
}

static const app_slot *slot_of(const app_game *g, clv_weapon_id wid) {
    const app_slot *slot = NULL;
    for (int32_t i = 0; i < g->slot_count; i++) {
        if (g->slots[i].id.index1 == wid.index1) {
            slot = &g->slots[i];
        }
    }
    return slot;
}

/* The attacker drawn from its weapon's sheet on the swing's current frame, in place of the
 * player's sprite; false when the weapon has no sheet for it. */
static bool draw_attacker(app_canvas *c, const cam *k, const app_game *g,
                          const clv_attack_info *ai) {
    const app_slot *slot = ai != NULL ? slot_of(g, ai->weapon) : NULL;
    return slot != NULL && app_anim_draw(c, slot->anim, ai->attack, ai->frame, scr(k, ai->position),
                                         k->z, ai->facing, ai->mirror);
}

/* ai: the player's swing in progress, NULL when none. */
static void draw_actors(app_canvas *c, const cam *k, const app_assets *a, const app_game *g,
                        const clv_attack_info *ai, clv_entity_info *pi) {
    const app_state *st = &g->st;
    /* Enemies: dead ones first, under the living. */
    for (int pass = 0; pass < 2; pass++) {
        for (int32_t i = 0; i < st->enemy_count; i++) {
            clv_entity_info ei;
            if (clv_arena_entity(g->arena, g->enemies[i].id, &ei) == CLV_HIT_OK &&
                (pass == 0) != ei.alive) {
                draw_enemy(c, k, a, g, &g->enemies[i], &ei);
            }
        }
    }
    if (clv_arena_entity(g->arena, st->player, pi) == CLV_HIT_OK) {
        clv_vec2 p = pi->position;
        float cs = cosf(st->facing), sn = sinf(st->facing);
        line_world(c, k, clv_v2(p.x + cs * 16.0f, p.y + sn * 16.0f),
                   clv_v2(p.x + cs * 26.0f, p.y + sn * 26.0f), 0xC0FFFFFFu);
        float shake = pi->hitlag > 0 ? ((st->frame & 1) ? 1.0f : -1.0f) : 0.0f;
        if (!draw_attacker(c, k, g, ai)) {
            blit_at(c, k, &a->player, p, shake, 0.0f, 0, 255, cs < 0.0f);
        }
    }
}

static void draw_swing(app_canvas *c, const cam *k, const app_game *g, const app_view *v,
                       const clv_attack_info *ai) {
    if (!v->overlay) {
        /* Without the overlay the swing still shows, as a blade-coloured trail. */
        draw_hitboxes_at(c, k, g, ai->weapon, ai->attack, ai->frame, ai->position, ai->facing,
                         ai->mirror, 0xB0u, 0xFFu, false, 0xFFE8ECF4u);
        return;
    }
    /* onion skin: the attack's other frames at this pose, faint */
    const app_slot *slot = slot_of(g, ai->weapon);
    int32_t frames = slot && ai->attack < APP_MAX_FACTS ? slot->facts[ai->attack].frames : 0;
    for (int32_t fr = 0; fr < frames; fr++) {
        if (fr != ai->frame) {
            uint32_t tint = fr < ai->frame ? 0xFF6080FFu : 0xFFC070FFu;
            draw_hitboxes_at(c, k, g, ai->weapon, ai->attack, fr, ai->position, ai->facing,
                             ai->mirror, 0x00u, 0x50u, false, tint);
        }
    }
    draw_swept(c, k, g, ai);
    draw_hitboxes_at(c, k, g, ai->weapon, ai->attack, ai->frame, ai->position, ai->facing,
                     ai->mirror, 0x70u, 0xFFu, true, 0);
}

/* Where the hit landed, and the push it gave (6 frames of travel at that speed). */
static void draw_contact(app_canvas *c, const cam *k, const app_popup *pp) {
    float kb2 = pp->knockback.x * pp->knockback.x + pp->knockback.y * pp->knockback.y;
    if (pp->age >= 30 || kb2 <= 0.0f) {
        return;
    }
    clv_vec2 c0 = scr(k, pp->contact);
    clv_vec2 c1 = scr(
        k, clv_v2(pp->contact.x + pp->knockback.x * 6.0f, pp->contact.y + pp->knockback.y * 6.0f));
    app_line(c, c0.x - 3.0f, c0.y - 3.0f, c0.x + 3.0f, c0.y + 3.0f, 0xFFFFFFFFu);
    app_line(c, c0.x - 3.0f, c0.y + 3.0f, c0.x + 3.0f, c0.y - 3.0f, 0xFFFFFFFFu);
    app_line(c, c0.x, c0.y, c1.x, c1.y, 0xFFFFE040u);
    float kl = sqrtf(kb2);
    clv_vec2 u = clv_v2(pp->knockback.x / kl, pp->knockback.y / kl);
    app_line(c, c1.x, c1.y, c1.x - u.x * 6.0f - u.y * 4.0f, c1.y - u.y * 6.0f + u.x * 4.0f,
             0xFFFFE040u);
    app_line(c, c1.x, c1.y, c1.x - u.x * 6.0f + u.y * 4.0f, c1.y - u.y * 6.0f - u.x * 4.0f,
             0xFFFFE040u);
}

static void draw_popups(app_canvas *c, const cam *k, const app_font *f, const app_game *g,
                        const app_view *v) {
    for (int i = 0; i < APP_POPUPS; i++) {
        const app_popup *pp = &g->st.popups[i];
        if (!pp->used || pp->age > 45) {
            continue;
        }
        if (v->overlay) {
            draw_contact(c, k, pp);
        }
        char num[16];
        if (pp->value > 0.0f) {
            snprintf(num, sizeof num, pp->value == floorf(pp->value) ? "%.0f" : "%.1f",
                     (double)pp->value);
        } else {
            snprintf(num, sizeof num, "push");
        }
        int scale = pp->value > 0.0f ? 2 : 1;
        int w = app_text_width(num, scale);
        uint32_t alpha = (uint32_t)(pp->age < 30 ? 255 : 255 - (pp->age - 30) * 16);
        clv_vec2 p = scr(k, pp->pos);
        app_text_shadow(c, f, (int)p.x - w / 2, (int)(p.y - (float)pp->age * 0.6f) - 8, num,
                        fade(pp->color, alpha), scale);
    }
}

static void draw_top_bar(app_canvas *c, const app_font *f, const app_game *g, const app_view *v) {
    app_fill_rect(c, 0, 0, PANEL_X - 8, APP_VIEW_Y0, 0xFF15171Du);
    app_text(c, f, 10, 7, "cleave", 0xFFFFD070u, 2);
    char line[200];
    const char *wname = g->slot_count > 0 ? g->slots[g->st.slot].label : "no weapon";
    int n = snprintf(line, sizeof line, "%s   %s", wname, v->paused ? "PAUSED  " : "");
    if (v->slow > 1 && n > 0 && (size_t)n < sizeof line) {
        n += snprintf(line + n, sizeof line - (size_t)n, "slow 1/%d  ", (int)v->slow);
    }
    if (v->zoom > 1 && n > 0 && (size_t)n < sizeof line) {
        snprintf(line + n, sizeof line - (size_t)n, "zoom %dx", (int)v->zoom);
    }
    app_text(c, f, 96, 9, line, 0xFFE0E0E0u, 1);
    if (v->overlay) {
        app_text(c, f, PANEL_X - 8 - 90, 9, "overlay H", 0xFF70F090u, 1);
    }
    if (v->status) {
        app_text(c, f, 96, 19, v->status, 0xFF808898u, 1);
    }
}

/* Frame-data bar: the swing in progress, else the selected weapon's first attack. */
static void draw_bar(app_canvas *c, const app_font *f, const app_game *g, bool swinging,
                     const clv_attack_info *ai) {
    const app_state *st = &g->st;
    app_fill_rect(c, 0, BAR_Y - 8, PANEL_X - 8, APP_H - BAR_Y + 8, 0xFF15171Du);
    if (g->slot_count == 0) {
        app_text(c, f, 12, BAR_Y, "no weapon: the frame-data bar shows the current attack",
                 0xFF808898u, 1);
        return;
    }
    const app_slot *slot = &g->slots[st->slot];
    int32_t which = 0, cur = -1;
    if (swinging) {
        const app_slot *s = slot_of(g, ai->weapon);
        slot = s ? s : slot;
        which = ai->attack < APP_MAX_FACTS ? ai->attack : 0;
        cur = ai->frame;
    }
    if (slot->attack_count > 0) {
        app_draw_frame_bar_lag(c, f, 12, BAR_Y, PANEL_X - 32, &slot->facts[which], cur,
                               st->lag_done, st->lag_total);
    }
}

#define BANNER_LINES 9

/* The error banner: the message's first line whole, wrapped at words, then as much of the rest
 * (a traceback) as fits. */
static void draw_banner(app_canvas *c, const app_font *f, const char *banner) {
    char text[1024];
    snprintf(text, sizeof text, "%s", banner);
    for (char *t = text; *t; t++) {
        *t = *t == '\t' ? ' ' : *t; /* tracebacks indent with tabs */
    }
    int w = PANEL_X - 24, cols = w / APP_GLYPH_W;
    int start[64], len[64];
    int total = app_wrap_words(text, cols, 64, start, len);
    total = total > 64 ? 64 : total;
    const char *nl = strchr(text, '\n');
    int first = 0;
    while (first < total && (nl == NULL || text + start[first] < nl)) {
        first++;
    }
    int show =
        total <= BANNER_LINES ? total : (first > BANNER_LINES - 1 ? first : BANNER_LINES - 1);
    bool more = show < total;
    app_fill_rect(c, 8, 36, w + 8, 12 + (show + more) * 11, 0xE0601818u);
    for (int i = 0; i < show; i++) {
        char part[256];
        snprintf(part, sizeof part, "%.*s", len[i], text + start[i]);
        app_text(c, f, 12, 42 + i * 11, part, 0xFFFFE0E0u, 1);
    }
    if (more) {
        char part[64];
        snprintf(part, sizeof part, "... %d more line(s) on stderr", total - show);
        app_text(c, f, 12, 42 + show * 11, part, 0xFFE0A0A0u, 1);
    }
}

void app_draw_game(app_canvas *c, const app_assets *a, const app_game *g, const app_view *v) {
    const app_font *f = &a->font;
    cam k = camera(v, g);
    app_clear(c, 0xFF0E0F13u);
    draw_room(c, a, &k);

    clv_attack_info ai;
    bool swinging = clv_arena_attack(g->arena, g->st.attack, &ai) == CLV_HIT_OK && ai.frame >= 0;
    clv_entity_info pi;
    memset(&pi, 0, sizeof pi);
    draw_actors(c, &k, a, g, swinging ? &ai : NULL, &pi);
    if (swinging) {
        draw_swing(c, &k, g, v, &ai);
    }
    app_draw_meetings(c, f, g, v);
    if (v->overlay) {
        app_draw_hurtboxes(c, g, v);
    }
    app_draw_fighters(c, f, g, v);
    draw_popups(c, &k, f, g, v);
    draw_top_bar(c, f, g, v);
    draw_bar(c, f, g, swinging, &ai);
    if (v->banner && v->banner[0]) {
        draw_banner(c, f, v->banner);
    }
    if (a->problems[0]) {
        char line[200];
        snprintf(line, sizeof line, "asset problem (placeholder shown): %.150s", a->problems);
        app_text_shadow(c, f, 40, (int)APP_ROOM_Y1 - 14, line, 0xFFFF80FFu, 1);
    }
    draw_panel(c, a, g, v);
}

app_xf app_view_xf(const app_view *v, const app_game *g) {
    clv_vec2 o = app_view_to_screen(v, g, clv_v2(0.0f, 0.0f));
    clv_vec2 one = app_view_to_screen(v, g, clv_v2(1.0f, 0.0f));
    app_xf t = {one.x - o.x, o.x, o.y};
    return t;
}

clv_vec2 app_xf_point(const app_xf *t, clv_vec2 w) {
    return clv_v2(w.x * t->z + t->ox, w.y * t->z + t->oy);
}
