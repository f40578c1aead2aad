/* `cleave render --body`: a body's animation sheet. Every frame of every animation in a cell of
 * its own (each animation starts a row), the body at the cell's centre facing right, its
 * hurtboxes coloured by state as the demo's overlay draws them, with a legend of the states. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"

#define BODY_CELL 112
#define BODY_COLS 8
#define BODY_HEADER 44
#define BODY_MAX_CELLS 256

static const uint32_t anim_colors[4] = {0xFF3C9A5Au, 0xFF3C64B4u, 0xFFB4823Cu, 0xFF8C4CB4u};

/* How far from the body's origin its farthest hurtbox reaches, at least 1. */
static float body_reach(const clv_body *b) {
    float reach = 1.0f;
    for (int32_t a = 0; a < clv_body_animation_count(b); a++) {
        for (int32_t fr = 0; fr < clv_body_animation(b, a)->frames; fr++) {
            int32_t n = 0;
            const clv_hurtbox_def *h = clv_body_hurtboxes(b, a, fr, &n);
            for (int32_t k = 0; k < n; k++) {
                const clv_shape *s = &h[k].shape;
                float r = 0.0f;
                if (s->type == CLV_CIRCLE) {
                    r = hypotf(s->u.circle.c.x, s->u.circle.c.y) + s->u.circle.r;
                } else if (s->type == CLV_CAPSULE) {
                    const clv_capsule *c = &s->u.capsule;
                    r = fmaxf(hypotf(c->a.x, c->a.y), hypotf(c->b.x, c->b.y)) + c->r;
                } else if (s->type == CLV_OBB) {
                    r = hypotf(s->u.obb.c.x, s->u.obb.c.y) + hypotf(s->u.obb.h.x, s->u.obb.h.y);
                }
                reach = fmaxf(reach, r);
            }
        }
    }
    return reach;
}

/* Rows the sheet needs: each animation starts one. */
static int32_t body_rows(const clv_body *b, int32_t *cells) {
    int32_t rows = 0;
    *cells = 0;
    for (int32_t a = 0; a < clv_body_animation_count(b); a++) {
        int32_t n = clv_body_animation(b, a)->frames;
        rows += (n + BODY_COLS - 1) / BODY_COLS;
        *cells += n;
    }
    return rows;
}

static void body_cell(app_canvas *c, const app_font *f, const clv_body *b, int32_t a, int32_t fr,
                      int x, int y, float scale) {
    const clv_animation_def *ad = clv_body_animation(b, a);
    app_fill_rect(c, x + 2, y + 2, BODY_CELL - 4, BODY_CELL - 4, 0xFF1E222Cu);
    app_fill_rect(c, x + 2, y + 2, BODY_CELL - 4, 4, anim_colors[(uint32_t)a % 4u]);
    float ox = (float)(x + BODY_CELL / 2), oy = (float)(y + BODY_CELL / 2 + 4);
    app_line(c, (float)x + 6.0f, oy, (float)(x + BODY_CELL) - 6.0f, oy, 0xFF2C3240u);
    app_line(c, ox, (float)y + 10.0f, ox, (float)(y + BODY_CELL) - 6.0f, 0xFF2C3240u);
    int32_t n = 0;
    const clv_hurtbox_def *h = clv_body_hurtboxes(b, a, fr, &n);
    for (int32_t k = 0; k < n; k++) {
        app_draw_hurtbox(c, &h[k].shape, clv_v2(ox, oy), scale, h[k].state);
    }
    char label[CLV_HIT_NAME_MAX + 16];
    snprintf(label, sizeof label, "%s %d", ad->name, (int)fr + 1);
    app_text(c, f, x + 6, y + 10, label, 0xFFE0E0E0u, 1);
    if (fr == ad->frames - 1) {
        app_text(c, f, x + 6, y + BODY_CELL - 16, ad->loop ? "loop" : "hold", 0xFF8C96AAu, 1);
    }
}

/* The title, and a legend entry per hurtbox state in its colour. */
static void body_header(app_canvas *c, const app_font *f, const char *title) {
    static const char *const names[4] = {"normal", "invincible", "intangible", "armor"};
    app_text(c, f, 8, 8, title, 0xFFFFD070u, 2);
    int x = 8;
    for (int s = 0; s < 4; s++) {
        uint32_t col = app_hurtbox_color((clv_hurtbox_state)s);
        app_fill_rect(c, x, 30, 8, 8, col);
        x += 12 + app_text(c, f, x + 12, 30, names[s], col, 1) + 8;
    }
}

bool app_render_body(const clv_body *body, const char *title, const char *out) {
    int32_t cells = 0, rows = body_rows(body, &cells);
    if (cells > BODY_MAX_CELLS) {
        fprintf(stderr, "cleave render: body %s has %d frames; a sheet shows at most %d\n",
                clv_body_name(body), (int)cells, BODY_MAX_CELLS);
        return false;
    }
    app_canvas c = {0};
    c.w = c.pitch = BODY_COLS * BODY_CELL;
    c.h = BODY_HEADER + rows * BODY_CELL + 8;
    c.px = calloc((size_t)c.w * (size_t)c.h, sizeof *c.px);
    if (c.px == NULL) {
        fprintf(stderr, "cleave render: out of memory for a %dx%d sheet\n", c.w, c.h);
        return false;
    }
    app_assets assets;
    app_assets_load(&assets, app_assets_dir());
    app_clear(&c, 0xFF14161Cu);
    body_header(&c, &assets.font, title);
    float scale = fminf((float)(BODY_CELL / 2 - 12) / body_reach(body), 3.0f);
    int row = 0;
    for (int32_t a = 0; a < clv_body_animation_count(body); a++) {
        int32_t n = clv_body_animation(body, a)->frames;
        for (int32_t fr = 0; fr < n; fr++) {
            body_cell(&c, &assets.font, body, a, fr, (fr % BODY_COLS) * BODY_CELL,
                      BODY_HEADER + (row + fr / BODY_COLS) * BODY_CELL, scale);
        }
        row += (n + BODY_COLS - 1) / BODY_COLS;
    }
    bool ok = app_canvas_write_png(&c, out);
    if (ok) {
        printf("cleave: %s: %d frames, %dx%d pixels\n", out, (int)cells, c.w, c.h);
    } else {
        fprintf(stderr, "cleave render: cannot write %s\n", out);
    }
    free(c.px);
    app_assets_free(&assets);
    return ok;
}
