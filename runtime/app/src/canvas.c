/* Software drawing into 32-bit ARGB pixels. Everything is clipped and alpha-blended here, so
 * a window and a headless run produce the same pixels. */
#include <math.h>
#include <string.h>

#include "app.h"

static inline uint32_t blend(uint32_t dst, uint32_t src) {
    uint32_t a = src >> 24;
    if (a == 255) {
        return src | 0xFF000000u;
    }
    if (a == 0) {
        return dst;
    }
    uint32_t ia = 255 - a;
    uint32_t r = (((src >> 16) & 255) * a + ((dst >> 16) & 255) * ia) / 255;
    uint32_t g = (((src >> 8) & 255) * a + ((dst >> 8) & 255) * ia) / 255;
    uint32_t b = ((src & 255) * a + (dst & 255) * ia) / 255;
    return 0xFF000000u | (r << 16) | (g << 8) | b;
}

static inline void plot(app_canvas *c, int x, int y, uint32_t color) {
    if (x < 0 || y < 0 || x >= c->w || y >= c->h) {
        return;
    }
    uint32_t *p = &c->px[(size_t)y * (size_t)c->pitch + (size_t)x];
    *p = blend(*p, color);
}

static inline uint32_t with_alpha(uint32_t color, uint32_t alpha) {
    return (color & 0x00FFFFFFu) | (((color >> 24) * alpha / 255) << 24);
}

void app_clear(app_canvas *c, uint32_t color) {
    for (int y = 0; y < c->h; y++) {
        uint32_t *row = &c->px[(size_t)y * (size_t)c->pitch];
        for (int x = 0; x < c->w; x++) {
            row[x] = color | 0xFF000000u;
        }
    }
}

void app_fill_rect(app_canvas *c, int x, int y, int w, int h, uint32_t color) {
    int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    int x1 = x + w > c->w ? c->w : x + w, y1 = y + h > c->h ? c->h : y + h;
    for (int j = y0; j < y1; j++) {
        uint32_t *row = &c->px[(size_t)j * (size_t)c->pitch];
        for (int i = x0; i < x1; i++) {
            row[i] = blend(row[i], color);
        }
    }
}

void app_rect(app_canvas *c, int x, int y, int w, int h, uint32_t color) {
    if (w <= 0 || h <= 0) {
        return;
    }
    app_fill_rect(c, x, y, w, 1, color);
    if (h > 1) {
        app_fill_rect(c, x, y + h - 1, w, 1, color);
    }
    app_fill_rect(c, x, y + 1, 1, h - 2, color);
    if (w > 1) {
        app_fill_rect(c, x + w - 1, y + 1, 1, h - 2, color);
    }
}

void app_line(app_canvas *c, float x0, float y0, float x1, float y1, uint32_t color) {
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1)) {
        return;
    }
    float dx = x1 - x0, dy = y1 - y0;
    float len = fmaxf(fabsf(dx), fabsf(dy));
    if (len > 4096.0f) {
        return;
    }
    int n = (int)len + 1;
    for (int i = 0; i <= n; i++) {
        float t = (float)i / (float)n;
        plot(c, (int)floorf(x0 + dx * t), (int)floorf(y0 + dy * t), color);
    }
}

/* Distance from p to segment ab (a == b allowed). */
static float seg_dist(clv_vec2 p, clv_vec2 a, clv_vec2 b) {
    float abx = b.x - a.x, aby = b.y - a.y;
    float apx = p.x - a.x, apy = p.y - a.y;
    float dd = abx * abx + aby * aby;
    float t = dd > 0.0f ? (apx * abx + apy * aby) / dd : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    float qx = apx - abx * t, qy = apy - aby * t;
    return sqrtf(qx * qx + qy * qy);
}

/* Clips the pixel box x0..x1, y0..y1 to the canvas. */
static void clip_box(const app_canvas *c, int *x0, int *y0, int *x1, int *y1) {
    *x0 = *x0 < 0 ? 0 : *x0;
    *y0 = *y0 < 0 ? 0 : *y0;
    *x1 = *x1 > c->w - 1 ? c->w - 1 : *x1;
    *y1 = *y1 > c->h - 1 ? c->h - 1 : *y1;
}

void app_capsule(app_canvas *c, clv_vec2 a, clv_vec2 b, float r, uint32_t fill, uint32_t line) {
    if (!isfinite(a.x) || !isfinite(a.y) || !isfinite(b.x) || !isfinite(b.y) || !isfinite(r)) {
        return;
    }
    float rr = r < 0.5f ? 0.5f : r;
    int x0 = (int)floorf(fminf(a.x, b.x) - rr - 1.0f), x1 = (int)ceilf(fmaxf(a.x, b.x) + rr + 1.0f);
    int y0 = (int)floorf(fminf(a.y, b.y) - rr - 1.0f), y1 = (int)ceilf(fmaxf(a.y, b.y) + rr + 1.0f);
    clip_box(c, &x0, &y0, &x1, &y1);
    for (int y = y0; y <= y1; y++) {
        for (int x = x0; x <= x1; x++) {
            float d = seg_dist(clv_v2((float)x + 0.5f, (float)y + 0.5f), a, b);
            if (d < rr) {
                bool edge = d > rr - 1.25f;
                if (edge && (line >> 24) != 0) {
                    plot(c, x, y, line);
                } else if ((fill >> 24) != 0) {
                    plot(c, x, y, fill);
                }
            }
        }
    }
}

static float cross3(clv_vec2 o, clv_vec2 a, clv_vec2 b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

void app_quad(app_canvas *c, const clv_vec2 p[4], uint32_t fill, uint32_t line) {
    float minx = p[0].x, maxx = p[0].x, miny = p[0].y, maxy = p[0].y;
    for (int i = 1; i < 4; i++) {
        if (!isfinite(p[i].x) || !isfinite(p[i].y)) {
            return;
        }
        minx = fminf(minx, p[i].x);
        maxx = fmaxf(maxx, p[i].x);
        miny = fminf(miny, p[i].y);
        maxy = fmaxf(maxy, p[i].y);
    }
    if ((fill >> 24) != 0) {
        int x0 = (int)floorf(minx), x1 = (int)ceilf(maxx), y0 = (int)floorf(miny),
            y1 = (int)ceilf(maxy);
        clip_box(c, &x0, &y0, &x1, &y1);
        for (int y = y0; y <= y1; y++) {
            for (int x = x0; x <= x1; x++) {
                clv_vec2 q = clv_v2((float)x + 0.5f, (float)y + 0.5f);
                int pos = 0, neg = 0;
                for (int i = 0; i < 4; i++) {
                    float s = cross3(p[i], p[(i + 1) % 4], q);
                    pos += s > 0.0f;
                    neg += s < 0.0f;
                }
                if (pos == 0 || neg == 0) {
                    plot(c, x, y, fill);
                }
            }
        }
    }
    if ((line >> 24) != 0) {
        for (int i = 0; i < 4; i++) {
            app_line(c, p[i].x, p[i].y, p[(i + 1) % 4].x, p[(i + 1) % 4].y, line);
        }
    }
}

void app_shape(app_canvas *c, const clv_shape *s, float ox, float oy, float scale, uint32_t fill,
               uint32_t line) {
    switch (s->type) {
    case CLV_POINT: {
        clv_vec2 p = clv_v2(ox + s->u.point.x * scale, oy + s->u.point.y * scale);
        app_capsule(c, p, p, 1.5f, line, line);
        break;
    }
    case CLV_CIRCLE: {
        clv_vec2 p = clv_v2(ox + s->u.circle.c.x * scale, oy + s->u.circle.c.y * scale);
        app_capsule(c, p, p, s->u.circle.r * scale, fill, line);
        break;
    }
    case CLV_CAPSULE: {
        const clv_capsule *k = &s->u.capsule;
        app_capsule(c, clv_v2(ox + k->a.x * scale, oy + k->a.y * scale),
                    clv_v2(ox + k->b.x * scale, oy + k->b.y * scale), k->r * scale, fill, line);
        break;
    }
    case CLV_AABB: {
        const clv_aabb *b = &s->u.aabb;
        clv_vec2 q[4] = {{ox + b->min.x * scale, oy + b->min.y * scale},
                         {ox + b->max.x * scale, oy + b->min.y * scale},
                         {ox + b->max.x * scale, oy + b->max.y * scale},
                         {ox + b->min.x * scale, oy + b->max.y * scale}};
        app_quad(c, q, fill, line);
        break;
    }
    case CLV_OBB: {
        const clv_obb *b = &s->u.obb;
        clv_vec2 ux = clv_v2(b->u.x * b->h.x, b->u.y * b->h.x);
        clv_vec2 uy = clv_v2(-b->u.y * b->h.y, b->u.x * b->h.y);
        clv_vec2 q[4];
        static const float sx[4] = {-1.0f, 1.0f, 1.0f, -1.0f}, sy[4] = {-1.0f, -1.0f, 1.0f, 1.0f};
        for (int i = 0; i < 4; i++) {
            q[i] = clv_v2(ox + (b->c.x + ux.x * sx[i] + uy.x * sy[i]) * scale,
                          oy + (b->c.y + ux.y * sx[i] + uy.y * sy[i]) * scale);
        }
        app_quad(c, q, fill, line);
        break;
    }
    default:
        break;
    }
}

void app_blit(app_canvas *c, const app_image *img, int x, int y, int scale, int tint_white,
              int alpha, bool flip) {
    if (img->rgba == NULL || scale < 1) {
        return;
    }
    uint32_t tw = (uint32_t)(tint_white < 0 ? 0 : (tint_white > 255 ? 255 : tint_white));
    uint32_t al = (uint32_t)(alpha < 0 ? 0 : (alpha > 255 ? 255 : alpha));
    if (al == 0) {
        return;
    }
    /* Clip once, then no test per pixel: a crowd of 2,000 sprites is drawn every frame. */
    int i0 = x < 0 ? -x : 0, j0 = y < 0 ? -y : 0;
    int i1 = img->w * scale, j1 = img->h * scale;
    if (x + i1 > c->w) {
        i1 = c->w - x;
    }
    if (y + j1 > c->h) {
        j1 = c->h - y;
    }
    for (int j = j0; j < j1; j++) {
        const uint8_t *row = img->rgba + (size_t)(j / scale) * (size_t)img->w * 4;
        /* the row's start, indexed by x + i >= 0: a sprite left of the canvas (zoomed in)
         * must not form a pointer before the pixels */
        uint32_t *dst_row = &c->px[(size_t)(y + j) * (size_t)c->pitch];
        for (int i = i0; i < i1; i++) {
            int sx = scale == 1 ? i : i / scale;
            if (flip) {
                sx = img->w - 1 - sx;
            }
            const uint8_t *p = row + (size_t)sx * 4;
            uint32_t a = p[3];
            if (a == 0) {
                continue;
            }
            uint32_t r = p[0], g = p[1], b = p[2];
            if (tw != 0) {
                r += (255 - r) * tw / 255;
                g += (255 - g) * tw / 255;
                b += (255 - b) * tw / 255;
            }
            if (al != 255) {
                a = a * al / 255;
            }
            if (a == 255) {
                dst_row[x + i] = 0xFF000000u | (r << 16) | (g << 8) | b;
            } else {
                dst_row[x + i] = blend(dst_row[x + i], (a << 24) | (r << 16) | (g << 8) | b);
            }
        }
    }
}

void app_blit_turned(app_canvas *c, const app_image *img, clv_vec2 at, clv_vec2 pivot, float scale,
                     float angle, bool mirror) {
    if (img->rgba == NULL || !(scale > 0.0f)) {
        return;
    }
    float cs = cosf(angle), sn = sinf(angle), ym = mirror ? -1.0f : 1.0f;
    /* the image's corners on the canvas bound the pixels to visit */
    float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
    for (int k = 0; k < 4; k++) {
        float lx = ((k & 1) ? (float)img->w : 0.0f) - pivot.x;
        float ly = (((k & 2) ? (float)img->h : 0.0f) - pivot.y) * ym;
        float px = at.x + (lx * cs - ly * sn) * scale, py = at.y + (lx * sn + ly * cs) * scale;
        x0 = fminf(x0, px), x1 = fmaxf(x1, px), y0 = fminf(y0, py), y1 = fmaxf(y1, py);
    }
    int i0 = (int)fmaxf(floorf(x0), 0.0f), i1 = (int)fminf(ceilf(x1), (float)c->w);
    int j0 = (int)fmaxf(floorf(y0), 0.0f), j1 = (int)fminf(ceilf(y1), (float)c->h);
    for (int j = j0; j < j1; j++) {
        for (int i = i0; i < i1; i++) {
            /* each canvas pixel's centre, turned back into the image: the nearest pixel */
            float dx = ((float)i + 0.5f - at.x) / scale, dy = ((float)j + 0.5f - at.y) / scale;
            float lx = dx * cs + dy * sn, ly = (-dx * sn + dy * cs) * ym;
            int sx = (int)floorf(lx + pivot.x), sy = (int)floorf(ly + pivot.y);
            if (sx < 0 || sy < 0 || sx >= img->w || sy >= img->h) {
                continue;
            }
            const uint8_t *p = img->rgba + ((size_t)sy * (size_t)img->w + (size_t)sx) * 4;
            if (p[3] != 0) {
                uint32_t *dst = &c->px[(size_t)j * (size_t)c->pitch + (size_t)i];
                *dst = blend(*dst, ((uint32_t)p[3] << 24) | ((uint32_t)p[0] << 16) |
                                       ((uint32_t)p[1] << 8) | p[2]);
            }
        }
    }
}

int app_font_cell_h(const app_font *f) {
    bool boxes = f->img.placeholder || f->img.rgba == NULL;
    return boxes ? 10 : f->img.h / 6;
}

int app_text(app_canvas *c, const app_font *f, int x, int y, const char *s, uint32_t color,
             int scale) {
    int cx = x, w = 0, cell_h = app_font_cell_h(f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\n') {
            cx = x;
            y += (cell_h + 1) * scale;
            continue;
        }
        int ch = (*p < 32 || *p > 126) ? '?' : *p;
        int gi = ch - 32, gx = (gi % 16) * APP_GLYPH_W, gy = (gi / 16) * cell_h;
        for (int j = 0; j < cell_h; j++) {
            for (int i = 0; i < APP_GLYPH_W; i++) {
                bool on;
                if (f->img.placeholder || f->img.rgba == NULL) {
                    /* No font: a box per character keeps the layout readable as such. */
                    on = ch != ' ' && (i == 0 || i == 4 || j == 0 || j == 6) && i < 5 && j < 7;
                } else {
                    on = f->img.rgba[((size_t)(gy + j) * (size_t)f->img.w + (size_t)(gx + i)) * 4 +
                                     3] > 127;
                }
                if (on) {
                    for (int v = 0; v < scale; v++) {
                        for (int u = 0; u < scale; u++) {
                            plot(c, cx + i * scale + u, y + j * scale + v, color);
                        }
                    }
                }
            }
        }
        cx += APP_GLYPH_W * scale;
        if (cx - x > w) {
            w = cx - x;
        }
    }
    return w;
}

int app_text_shadow(app_canvas *c, const app_font *f, int x, int y, const char *s, uint32_t color,
                    int scale) {
    app_text(c, f, x + 1, y + 1, s, with_alpha(0xC0000000u, 255), scale);
    return app_text(c, f, x, y, s, color, scale);
}

int app_text_width(const char *s, int scale) {
    int best = 0, cur = 0;
    for (; *s; s++) {
        if (*s == '\n') {
            cur = 0;
            continue;
        }
        cur += 6 * scale;
        best = cur > best ? cur : best;
    }
    return best;
}

clv_shape app_place_shape(const clv_shape *local, clv_vec2 pos, float facing, bool mirror) {
    float cs = cosf(facing), sn = sinf(facing);
    float my = mirror ? -1.0f : 1.0f;
#define APP_XF(v) clv_v2(pos.x + cs * (v).x - sn * (v).y * my, pos.y + sn * (v).x + cs * (v).y * my)
    clv_shape s = *local;
    switch (local->type) {
    case CLV_POINT:
        s.u.point = APP_XF(local->u.point);
        break;
    case CLV_CIRCLE:
        s.u.circle.c = APP_XF(local->u.circle.c);
        break;
    case CLV_CAPSULE:
        s.u.capsule.a = APP_XF(local->u.capsule.a);
        s.u.capsule.b = APP_XF(local->u.capsule.b);
        break;
    case CLV_OBB: {
        s.u.obb.c = APP_XF(local->u.obb.c);
        clv_vec2 u = clv_v2(local->u.obb.u.x, local->u.obb.u.y * my);
        s.u.obb.u = clv_v2(cs * u.x - sn * u.y, sn * u.x + cs * u.y);
        break;
    }
    case CLV_AABB: {
        /* A turned box is an obb. */
        clv_vec2 mn = local->u.aabb.min, mx = local->u.aabb.max;
        clv_vec2 cc = clv_v2((mn.x + mx.x) * 0.5f, (mn.y + mx.y) * 0.5f);
        s.type = CLV_OBB;
        s.u.obb.c = APP_XF(cc);
        s.u.obb.h = clv_v2((mx.x - mn.x) * 0.5f, (mx.y - mn.y) * 0.5f);
        s.u.obb.u = clv_v2(cs, sn);
        break;
    }
    default:
        break;
    }
#undef APP_XF
    return s;
}
