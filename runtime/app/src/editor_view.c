/* Drawing the edit mode: the frame's hitboxes large over a grid, the selection's handles and
 * knockback arrow, the frame strip, and the inspector. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "editor.h"

static const uint32_t precedence_colors[6] = {0xFFFF4A4Au, 0xFFFFA030u, 0xFF50D0FFu,
                                              0xFFB070FFu, 0xFF60F080u, 0xFFFF70C0u};

static void draw_grid(app_canvas *c) {
    app_fill_rect(c, APP_ED_X0, APP_ED_Y0, APP_ED_W, APP_ED_H, 0xF0101218u);
    app_rect(c, APP_ED_X0, APP_ED_Y0, APP_ED_W, APP_ED_H, 0xFF6080A0u);
    /* a line every 8 units, the axes brighter: the wielder is at their crossing */
    for (int k = -40; k <= 40; k++) {
        float x = APP_ED_OX + (float)k * 8.0f * APP_ED_SCALE;
        float y = APP_ED_OY + (float)k * 8.0f * APP_ED_SCALE;
        uint32_t col = k == 0 ? 0xFF506070u : 0xFF1C2230u;
        if (x > APP_ED_X0 && x < APP_ED_X0 + APP_ED_W) {
            app_line(c, x, APP_ED_Y0 + 1.0f, x, APP_ED_STRIP_Y - 4.0f, col);
        }
        if (y > APP_ED_Y0 && y < APP_ED_STRIP_Y - 4) {
            app_line(c, APP_ED_X0 + 1.0f, y, APP_ED_X0 + APP_ED_W - 1.0f, y, col);
        }
    }
}

static void draw_box(app_canvas *c, const clv_hitbox_def *d, uint32_t fill, uint32_t line) {
    app_shape(c, &d->shape, APP_ED_OX, APP_ED_OY, APP_ED_SCALE, fill, line);
}

static void draw_handles(app_canvas *c, const clv_hitbox_def *d) {
    clv_vec2 h[APP_ED_HANDLES];
    app_editor_handles(d, h);
    app_line(c, h[3].x, h[3].y, h[5].x, h[5].y, 0xFFFFE060u); /* the knockback arrow */
    app_fill_rect(c, (int)h[5].x - 3, (int)h[5].y - 3, 7, 7, 0xFFFFE060u);
    for (int k = 1; k <= 4; k++) {
        uint32_t col = k == 3 ? 0xFFFFFFFFu : (k == 4 ? 0xFF60F0FFu : 0xFFFFE060u);
        app_fill_rect(c, (int)h[k].x - 3, (int)h[k].y - 3, 7, 7, 0xFF000000u);
        app_rect(c, (int)h[k].x - 3, (int)h[k].y - 3, 7, 7, col);
    }
}

/* The frame strip: a cell a frame, red where the attack has a hitbox, the selection's run
 * underlined, the current frame boxed. */
static void draw_strip(app_canvas *c, const app_font *f, const app_editor *e) {
    float cw = (float)(APP_ED_W - 16) / (float)e->attack.frames;
    const char *sel = e->sel >= 0 ? e->box[e->sel].def.id : NULL;
    for (int32_t fr = 0; fr < e->attack.frames; fr++) {
        bool any = false, mine = false;
        for (int32_t i = 0; i < e->count; i++) {
            any = any || e->box[i].frame == fr;
            mine = mine || (e->box[i].frame == fr && sel && strcmp(e->box[i].def.id, sel) == 0);
        }
        int x = APP_ED_X0 + 8 + (int)((float)fr * cw), w = (int)cw > 2 ? (int)cw - 1 : 1;
        app_fill_rect(c, x, APP_ED_STRIP_Y, w, APP_ED_STRIP_H, any ? 0xFFD8463Cu : 0xFF3C64B4u);
        if (mine) {
            app_fill_rect(c, x, APP_ED_STRIP_Y + APP_ED_STRIP_H - 4, w, 4, 0xFFFFE060u);
        }
        if (fr == e->frame) {
            app_rect(c, x - 1, APP_ED_STRIP_Y - 1, w + 2, APP_ED_STRIP_H + 2, 0xFFFFFFFFu);
        }
    }
    char label[32];
    snprintf(label, sizeof label, "frame %d/%d", (int)e->frame + 1, (int)e->attack.frames);
    app_text(c, f, APP_ED_X0 + 8, APP_ED_STRIP_Y - 14, label, 0xFFE0E0E0u, 1);
}

static void draw_inspector(app_canvas *c, const app_font *f, const app_editor *e) {
    int x = APP_ED_X0 + APP_ED_W - 150, y = APP_ED_Y0 + 30;
    if (e->sel < 0) {
        app_text(c, f, x, y, "click a hitbox", 0xFF9098A8u, 1);
        return;
    }
    const clv_hitbox_def *d = &e->box[e->sel].def;
    char line[5][48];
    snprintf(line[0], 48, "damage   %g", (double)d->damage);
    snprintf(line[1], 48, "angle    %.0f", (double)d->knockback.angle * (180.0 / CLV_PI));
    snprintf(line[2], 48, "max_hits %d", (int)d->max_hits);
    if (d->group == CLV_GROUP_NONE) {
        snprintf(line[3], 48, "group    own");
    } else {
        snprintf(line[3], 48, "group    %d", (int)d->group);
    }
    snprintf(line[4], 48, "priority %d", (int)d->priority);
    app_text(c, f, x, y - 14, d->id, 0xFFFFE060u, 1);
    for (int k = 0; k < APP_ED_FIELDS; k++) {
        uint32_t col = k == e->field ? 0xFFFFFFFFu : 0xFFA0A8B8u;
        app_text(c, f, x, y + k * 12, line[k], col, 1);
        if (k == e->field) {
            app_text(c, f, x - 10, y + k * 12, ">", col, 1);
        }
    }
}

void app_editor_draw(app_canvas *c, const app_font *f, const app_editor *e) {
    if (!e->on) {
        return;
    }
    draw_grid(c);
    for (int32_t i = 0; i < e->count; i++) {
        if (e->box[i].frame == e->frame - 1) { /* onion skin: the frame before, faint */
            draw_box(c, &e->box[i].def, 0u, 0x606080FFu);
        }
    }
    int32_t k = 0;
    for (int32_t i = 0; i < e->count; i++) {
        if (e->box[i].frame == e->frame) {
            uint32_t col = precedence_colors[(uint32_t)k++ % 6u];
            draw_box(c, &e->box[i].def, (col & 0x00FFFFFFu) | 0x80000000u,
                     i == e->sel ? 0xFFFFFFFFu : col);
        }
    }
    app_fill_rect(c, (int)APP_ED_OX - 2, (int)APP_ED_OY - 2, 5, 5, 0xFF4080FFu); /* the hand */
    if (e->sel >= 0) {
        draw_handles(c, &e->box[e->sel].def);
    }
    char title[96];
    snprintf(title, sizeof title, "EDIT %s  (E: leave, S: save, Z/Y: undo/redo)", e->attack.name);
    app_text(c, f, APP_ED_X0 + 8, APP_ED_Y0 + 6, title, 0xFFFFD070u, 1);
    app_text(c, f, APP_ED_X0 + 8, APP_ED_Y0 + 20, e->message, 0xFFA0D0A0u, 1);
    draw_strip(c, f, e);
    draw_inspector(c, f, e);
}
