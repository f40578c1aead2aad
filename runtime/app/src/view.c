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

static void draw_room(app_canvas *c, const app_assets *a) {
    int x0 = (int)APP_ROOM_X0, y0 = (int)APP_ROOM_Y0, x1 = (int)APP_ROOM_X1, y1 = (int)APP_ROOM_Y1;
    for (int y = y0 - 32; y < y1 + 32; y += 32) {
        for (int x = x0 - 32; x < x1 + 32; x += 32) {
            bool wall = x < x0 || y < y0 || x >= x1 || y >= y1;
            app_blit(c, wall ? &a->wall : &a->floor, x, y, 1, 0, 255, false);
        }
    }
    /* A soft shadow along the top wall gives the room depth. */
    for (int i = 0; i < 10; i++) {
        app_fill_rect(c, x0, y0 + i, x1 - x0, 1, app_rgba(0, 0, 0, (uint32_t)(90 - i * 9)));
    }
}

static void draw_hitboxes_at(app_canvas *c, const app_game *g, clv_weapon_id wid, int32_t attack,
                             int32_t frame, clv_vec2 pos, float facing, bool mirror,
                             uint32_t alpha_fill, uint32_t alpha_line, bool group_tint,
                             uint32_t tint) {
    const app_slot *slot = NULL;
    for (int32_t i = 0; i < g->slot_count; i++) {
        if (g->slots[i].id.index1 == wid.index1) {
            slot = &g->slots[i];
        }
    }
    for (int32_t k = 0;; k++) {
        const clv_hitbox_def *hd = clv_arena_hitbox(g->arena, wid, attack, frame, k);
        if (hd == NULL) {
            break;
        }
        clv_shape s = app_place_shape(&hd->shape, pos, facing, mirror);
        /* by list order (precedence), as in `cleave render`: blade and handle read apart */
        uint32_t col = group_tint ? group_color(k) : tint;
        app_shape(c, &s, 0.0f, 0.0f, 1.0f, fade(col, alpha_fill), fade(col, alpha_line));
    }
    (void)slot;
}

/* The area a hitbox covered between last frame's pose and this one, drawn as in-between
 * poses of the same hitbox id (what the arena's sweep tests against). */
static void draw_swept(app_canvas *c, const app_game *g, const clv_attack_info *ai) {
    const app_state *st = &g->st;
    if (st->attack_prev_frame < 0 || ai->frame <= 0) {
        return;
    }
    for (int32_t k = 0;; k++) {
        const clv_hitbox_def *cur =
            clv_arena_hitbox(g->arena, ai->weapon, ai->attack, ai->frame, k);
        if (cur == NULL) {
            break;
        }
        if (!cur->sweep) {
            continue;
        }
        const clv_hitbox_def *prev = NULL;
        for (int32_t j = 0;; j++) {
            const clv_hitbox_def *p =
                clv_arena_hitbox(g->arena, ai->weapon, ai->attack, st->attack_prev_frame, j);
            if (p == NULL) {
                break;
            }
            if (strcmp(p->id, cur->id) == 0) {
                prev = p;
            }
        }
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
                m.u.capsule.a = clv_v2(a.u.capsule.a.x + (b.u.capsule.a.x - a.u.capsule.a.x) * t,
                                       a.u.capsule.a.y + (b.u.capsule.a.y - a.u.capsule.a.y) * t);
                m.u.capsule.b = clv_v2(a.u.capsule.b.x + (b.u.capsule.b.x - a.u.capsule.b.x) * t,
                                       a.u.capsule.b.y + (b.u.capsule.b.y - a.u.capsule.b.y) * t);
            } else if (a.type == CLV_CIRCLE) {
                m.u.circle.c = clv_v2(a.u.circle.c.x + (b.u.circle.c.x - a.u.circle.c.x) * t,
                                      a.u.circle.c.y + (b.u.circle.c.y - a.u.circle.c.y) * t);
            } else if (a.type == CLV_OBB) {
                m.u.obb.c = clv_v2(a.u.obb.c.x + (b.u.obb.c.x - a.u.obb.c.x) * t,
                                   a.u.obb.c.y + (b.u.obb.c.y - a.u.obb.c.y) * t);
            }
            app_shape(c, &m, 0.0f, 0.0f, 1.0f, 0x22FFE060u, i == 0 ? 0x90FFE060u : 0u);
        }
    }
}

void app_draw_frame_bar(app_canvas *c, const app_font *f, int x, int y, int w,
                        const app_attack_facts *facts, int32_t current) {
    char line[160];
    snprintf(line, sizeof line, "%s  startup %d  active %d  recovery %d  total %d", facts->name,
             (int)facts->startup, (int)facts->active_count, (int)facts->recovery,
             (int)facts->frames);
    app_text(c, f, x, y, line, 0xFFE8E8E8u, 1);
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
        app_rect(c, cx - 1, by - 2, cell + 1, bh + 4, 0xFFFFFFFFu);
        for (int i = 0; i < 4; i++) {
            app_fill_rect(c, cx + cell / 2 - i, by + bh + 3 + i, 2 * i + 1, 1, 0xFFFFFFFFu);
        }
    }
}

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
    }
    y += 6;
    snprintf(line, sizeof line, "frame %lld  hits %d  misses %d  KOs %d", (long long)st->frame,
             (int)st->hits, (int)st->misses, (int)st->kills);
    app_text(c, f, PANEL_X, y, line, 0xFFE0E0E0u, 1);
    y += 14;
    app_text(c, f, PANEL_X, y, "HIT LOG", 0xFF9AA4B8u, 1);
    y += 12;
    int rows = (APP_H - 44 - y) / 10;
    int have = st->log_next < APP_LOG_LINES ? st->log_next : APP_LOG_LINES;
    int show = have < rows ? have : rows;
    for (int i = show; i >= 1; i--) {
        const app_log_line *l = &st->log[(st->log_next - i) % APP_LOG_LINES];
        app_text(c, f, PANEL_X, y, l->text, l->color, 1);
        y += 10;
    }
    const char *help = "WASD move  mouse aim  J/LMB swing  K/RMB 2nd\n"
                       "1-9/wheel weapon  H overlay  Space pause\n"
                       ". step  , back  Tab slow  F12 shot  Esc quit";
    app_text(c, f, PANEL_X, APP_H - 34, help, 0xFF6E7890u, 1);
}

void app_draw_game(app_canvas *c, const app_assets *a, const app_game *g, const app_view *v) {
    const app_state *st = &g->st;
    const app_font *f = &a->font;
    app_clear(c, 0xFF0E0F13u);
    draw_room(c, a);

    clv_attack_info ai;
    bool swinging = clv_arena_attack(g->arena, st->attack, &ai) == CLV_HIT_OK && ai.frame >= 0;

    /* Enemies: dead ones first, under the living. */
    for (int pass = 0; pass < 2; pass++) {
        for (int32_t i = 0; i < st->enemy_count; i++) {
            const app_enemy *e = &g->enemies[i];
            clv_entity_info ei;
            if (clv_arena_entity(g->arena, e->id, &ei) != CLV_HIT_OK || (pass == 0) == ei.alive) {
                continue;
            }
            int x = (int)floorf(ei.position.x) - a->enemy.w / 2;
            int y = (int)floorf(ei.position.y) - a->enemy.h / 2 - 2;
            if (!ei.alive) {
                int alpha = 160 - e->dead * 160 / 90;
                app_blit(c, &a->enemy, x, y + 3, 1, 0, alpha < 0 ? 0 : alpha, false);
                continue;
            }
            /* hitlag: a small shake so the freeze reads as impact, not as a stall */
            int shake = ei.hitlag > 0 ? ((int)(st->frame & 1) ? 2 : -2) : 0;
            app_blit(c, &a->enemy, x + shake, y, 1, e->flash > 0 ? 230 : 0, 255,
                     ei.position.x > 0.0f && e->flash > 0 && (e->flash & 2));
            if (ei.damage_taken > 0.0f && ei.hp > 0.0f) {
                float frac = ei.hp / (ei.hp + ei.damage_taken);
                frac = frac > 1.0f ? 1.0f : frac;
                app_fill_rect(c, x + 4, y - 3, 24, 3, 0xC0200000u);
                app_fill_rect(c, x + 4, y - 3, (int)(24.0f * frac), 3, 0xFF50E050u);
            }
            if (ei.effect_count > 0 && (st->frame / 8) % 2 == 0) {
                app_capsule(c, clv_v2(ei.position.x + 9.0f, ei.position.y + 8.0f),
                            clv_v2(ei.position.x + 9.0f, ei.position.y + 8.0f), 2.5f, 0xFFD02040u,
                            0xFF801020u);
            }
        }
    }

    clv_entity_info pi;
    if (clv_arena_entity(g->arena, st->player, &pi) == CLV_HIT_OK) {
        clv_vec2 p = pi.position;
        float cs = cosf(st->facing), sn = sinf(st->facing);
        app_line(c, p.x + cs * 16.0f, p.y + sn * 16.0f, p.x + cs * 26.0f, p.y + sn * 26.0f,
                 0xC0FFFFFFu);
        int shake = pi.hitlag > 0 ? ((int)(st->frame & 1) ? 1 : -1) : 0;
        app_blit(c, &a->player, (int)floorf(p.x) - a->player.w / 2 + shake,
                 (int)floorf(p.y) - a->player.h / 2, 1, 0, 255, cs < 0.0f);
    }

    if (swinging) {
        if (v->overlay) {
            /* onion skin: the attack's other frames at this pose, faint */
            const app_slot *slot = NULL;
            for (int32_t i = 0; i < g->slot_count; i++) {
                if (g->slots[i].id.index1 == ai.weapon.index1) {
                    slot = &g->slots[i];
                }
            }
            int32_t frames = slot && ai.attack < 4 ? slot->facts[ai.attack].frames : 0;
            for (int32_t fr = 0; fr < frames; fr++) {
                if (fr != ai.frame) {
                    uint32_t tint = fr < ai.frame ? 0xFF6080FFu : 0xFFC070FFu;
                    draw_hitboxes_at(c, g, ai.weapon, ai.attack, fr, ai.position, ai.facing,
                                     ai.mirror, 0x00u, 0x50u, false, tint);
                }
            }
            draw_swept(c, g, &ai);
            draw_hitboxes_at(c, g, ai.weapon, ai.attack, ai.frame, ai.position, ai.facing,
                             ai.mirror, 0x70u, 0xFFu, true, 0);
        } else {
            /* Without the overlay the swing still shows, as a blade-coloured trail. */
            draw_hitboxes_at(c, g, ai.weapon, ai.attack, ai.frame, ai.position, ai.facing,
                             ai.mirror, 0xB0u, 0xFFu, false, 0xFFE8ECF4u);
        }
    }

    if (v->overlay) {
        for (int32_t i = 0; i < st->enemy_count; i++) {
            clv_entity_info ei;
            if (clv_arena_entity(g->arena, g->enemies[i].id, &ei) == CLV_HIT_OK && ei.alive) {
                app_capsule(c, ei.position, ei.position, 11.0f,
                            ei.state == CLV_HURT_NORMAL ? 0x3040FFFFu : 0x304080FFu,
                            ei.state == CLV_HURT_NORMAL ? 0xFF40FFFFu : 0xFF4080FFu);
            }
        }
        app_capsule(c, pi.position, pi.position, 11.0f, 0x3040FFFFu, 0xFF40FFFFu);
    }

    for (int i = 0; i < APP_POPUPS; i++) {
        const app_popup *pp = &st->popups[i];
        if (!pp->used || pp->age > 45) {
            continue;
        }
        float kb2 = pp->knockback.x * pp->knockback.x + pp->knockback.y * pp->knockback.y;
        if (v->overlay && pp->age < 30 && kb2 > 0.0f) {
            /* where the hit landed, and the push it gave (6 frames of travel at that speed) */
            clv_vec2 c0 = pp->contact;
            clv_vec2 c1 = clv_v2(c0.x + pp->knockback.x * 6.0f, c0.y + pp->knockback.y * 6.0f);
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
        app_text_shadow(c, f, (int)pp->pos.x - w / 2, (int)(pp->pos.y - (float)pp->age * 0.6f) - 8,
                        num, fade(pp->color, alpha), scale);
    }

    /* Top bar */
    app_fill_rect(c, 0, 0, PANEL_X - 8, 30, 0xFF15171Du);
    app_text(c, f, 10, 7, "cleave", 0xFFFFD070u, 2);
    char line[200];
    const char *wname = g->slot_count > 0 ? g->slots[st->slot].label : "no weapon";
    snprintf(line, sizeof line, "%s   %s%s%s", wname, v->paused ? "PAUSED  " : "",
             v->slow > 1 ? "slow 1/" : "", "");
    int tx = 96 + app_text(c, f, 96, 11, line, 0xFFE0E0E0u, 1);
    if (v->slow > 1) {
        snprintf(line, sizeof line, "%d", (int)v->slow);
        app_text(c, f, tx, 11, line, 0xFFE0E0E0u, 1);
    }
    if (v->overlay) {
        app_text(c, f, PANEL_X - 8 - 90, 11, "overlay H", 0xFF70F090u, 1);
    }
    if (v->status) {
        app_text(c, f, 96, 20, v->status, 0xFF808898u, 1);
    }

    /* Frame-data bar: the swing in progress, else the selected weapon's first attack. */
    app_fill_rect(c, 0, BAR_Y - 8, PANEL_X - 8, APP_H - BAR_Y + 8, 0xFF15171Du);
    if (g->slot_count > 0) {
        const app_slot *slot = &g->slots[st->slot];
        int32_t which = 0, cur = -1;
        if (swinging) {
            for (int32_t i = 0; i < g->slot_count; i++) {
                if (g->slots[i].id.index1 == ai.weapon.index1) {
                    slot = &g->slots[i];
                }
            }
            which = ai.attack < 4 ? ai.attack : 0;
            cur = ai.frame;
        }
        if (slot->attack_count > 0) {
            app_draw_frame_bar(c, f, 12, BAR_Y, PANEL_X - 32, &slot->facts[which], cur);
        }
    } else {
        app_text(c, f, 12, BAR_Y, "no weapon: the frame-data bar shows the current attack",
                 0xFF808898u, 1);
    }

    if (v->banner && v->banner[0]) {
        int w = PANEL_X - 24;
        int lines = 1 + app_text_width(v->banner, 1) / w;
        app_fill_rect(c, 8, 36, w + 8, 12 + lines * 10, 0xE0601818u);
        /* wrap by characters: the message is a path and a sentence, not prose */
        int per = w / 6;
        char chunk[128];
        size_t len = strlen(v->banner);
        for (int i = 0; i < lines && (size_t)(i * per) < len; i++) {
            snprintf(chunk, sizeof chunk, "%.*s", per, v->banner + i * per);
            app_text(c, f, 12, 42 + i * 10, chunk, 0xFFFFE0E0u, 1);
        }
    }
    if (a->problems[0]) {
        snprintf(line, sizeof line, "asset problem (placeholder shown): %.150s", a->problems);
        app_text_shadow(c, f, 40, (int)APP_ROOM_Y1 - 14, line, 0xFFFF80FFu, 1);
    }
    draw_panel(c, a, g, v);
}
