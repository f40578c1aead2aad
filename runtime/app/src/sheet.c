/* `cleave render`: a sprite sheet of an attack with its hitboxes and frame-data bar. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "aseprite.h"
#include "cleave/mod.h"

/* Most frames one sheet shows; a longer attack is rendered a range at a time (--frames). */
#define RENDER_MAX_FRAMES 256
/* Hitbox ids that get a colour of their own in a sheet; later ones share the next. */
#define RENDER_MAX_IDS 64

static const uint32_t id_colors[6] = {0xFFFF4A4Au, 0xFFFFA030u, 0xFF50D0FFu,
                                      0xFFB070FFu, 0xFF60F080u, 0xFFFF70C0u};

/* true when frame fr lists a hitbox with the same id as h (labels only on a hitbox's first frame).
 */
static bool same_hit_listed(const app_picked *p, int32_t attack, int32_t fr,
                            const clv_hitbox_def *h) {
    if (fr < 0) {
        return false;
    }
    for (int32_t j = 0;; j++) {
        const clv_hitbox_def *q = clv_arena_hitbox(p->arena, p->wid, attack, fr, j);
        if (q == NULL) {
            return false;
        }
        if (strcmp(q->id, h->id) == 0) {
            return true;
        }
    }
}

static void local_bounds(const app_picked *p, int32_t attack, int32_t first, int32_t last,
                         float *r) {
    *r = 24.0f;
    for (int32_t fr = first; fr <= last; fr++) {
        for (int32_t k = 0;; k++) {
            const clv_hitbox_def *h = clv_arena_hitbox(p->arena, p->wid, attack, fr, k);
            if (h == NULL) {
                break;
            }
            clv_aabb b = clv_shape_bounds(&h->shape);
            float m =
                fmaxf(fmaxf(fabsf(b.min.x), fabsf(b.max.x)), fmaxf(fabsf(b.min.y), fabsf(b.max.y)));
            *r = fmaxf(*r, m);
        }
    }
}

/* "A-B" (1-based, inclusive) into *first and *last; false when it is not such a range. */
static bool parse_range(const char *s, long *first, long *last) {
    char *end;
    *first = strtol(s, &end, 10);
    if (end == s || *end != '-' || *first < 1) {
        return false;
    }
    const char *b = end + 1;
    *last = strtol(b, &end, 10);
    return end != b && *end == '\0' && *last >= *first && *last <= 65535 && b[0] != '-';
}

static const char *const render_usage =
    "usage: cleave render <mod folder> [--weapon NAME] [--attack NAME] [--frames A-B] "
    "[--sheet aseprite.json] --out sheet.png, or cleave render [<mod folder>] --body NAME "
    "--out sheet.png";

const char *app_option_needs(const char *const (*options)[2], size_t count, const char *arg) {
    for (size_t k = 0; k < count; k++) {
        if (strcmp(arg, options[k][0]) == 0) {
            return options[k][1];
        }
    }
    return NULL;
}

/* What an option of render takes, or NULL when arg is not such an option. */
static const char *render_value_needed(const char *arg) {
    static const char *const options[][2] = {{"--frames", "a range of frames FIRST-LAST"},
                                             {"--out", "a file name"},
                                             {"--attack", "an attack name"},
                                             {"--weapon", "a weapon name"},
                                             {"--sheet", "an Aseprite sheet's JSON"},
                                             {"--body", "a body name"}};
    return app_option_needs(options, sizeof options / sizeof options[0], arg);
}

typedef struct render_args {
    const char *dir, *out, *attack_name, *weapon_name, *sheet, *body;
    long range_first, range_last; /* 0 when no --frames */
} render_args;

/* Reads render's arguments into a; false (usage printed) when they are not usable. */
static bool parse_render_args(int argc, char **argv, render_args *a) {
    memset(a, 0, sizeof *a);
    for (int i = 0; i < argc; i++) {
        const char *need = render_value_needed(argv[i]);
        if (need != NULL && i + 1 == argc) {
            fprintf(stderr, "cleave render: %s needs %s\n", argv[i], need);
            return false;
        }
        if (strcmp(argv[i], "--frames") == 0) {
            if (!parse_range(argv[++i], &a->range_first, &a->range_last)) {
                fprintf(stderr,
                        "cleave render: --frames needs a range of frames FIRST-LAST, "
                        "1-based (got '%s')\n",
                        argv[i]);
                return false;
            }
        } else if (strcmp(argv[i], "--out") == 0) {
            a->out = argv[++i];
        } else if (strcmp(argv[i], "--attack") == 0) {
            a->attack_name = argv[++i];
        } else if (strcmp(argv[i], "--weapon") == 0) {
            a->weapon_name = argv[++i];
        } else if (strcmp(argv[i], "--sheet") == 0) {
            a->sheet = argv[++i];
        } else if (strcmp(argv[i], "--body") == 0) {
            a->body = argv[++i];
        } else if (argv[i][0] != '-' && a->dir == NULL) {
            a->dir = argv[i];
        } else {
            fprintf(stderr, "cleave render: %s '%s'\n",
                    argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
            return false;
        }
    }
    if ((a->dir == NULL && a->body == NULL) || a->out == NULL) {
        fprintf(stderr, "cleave render: %s (%s)\n",
                a->dir == NULL ? "no mod folder given" : "no --out file given", render_usage);
        return false;
    }
    return true;
}

/* Puts the weapon a names (or the first) in p's arena and finds its attack and facts. */
static bool pick_render_attack(app_picked *p, const render_args *a, int32_t *attack,
                               app_attack_facts *f) {
    int32_t wi = 0;
    if (a->weapon_name) {
        wi = -1;
        for (int32_t i = 0; i < clv_mod_weapon_count(p->mod); i++) {
            if (strcmp(clv_mod_weapon_name(p->mod, i), a->weapon_name) == 0) {
                wi = i;
            }
        }
        if (wi < 0) {
            fprintf(stderr, "cleave render: %s has no weapon '%s'\n", a->dir, a->weapon_name);
            return false;
        }
    }
    if (clv_mod_weapon_count(p->mod) == 0 || !app_pick_weapon(p, wi)) {
        fprintf(stderr, "cleave render: %s has no weapon\n", a->dir);
        return false;
    }
    *attack = 0;
    if (a->attack_name) {
        *attack = clv_weapon_find_attack(p->weapon, a->attack_name);
        if (*attack < 0) {
            fprintf(stderr, "cleave render: weapon '%s' has no attack '%s'\n", p->weapon_name,
                    a->attack_name);
            return false;
        }
    }
    if (!app_attack_facts_of(p->weapon, *attack, f)) {
        fprintf(stderr, "cleave render: cannot read %s of weapon '%s'\n", f->name, p->weapon_name);
        return false;
    }
    return true;
}

/* 0-based frames first..last of the sheet: the whole attack, or the range asked for; a sheet is
 * bounded (about 1152 x 4700 pixels) whatever the attack's length. */
static bool sheet_range(const render_args *a, const app_attack_facts *f, int32_t *first,
                        int32_t *last) {
    *first = 0, *last = f->frames - 1;
    if (a->range_first > 0) {
        *first = (int32_t)a->range_first - 1;
        *last = (int32_t)a->range_last - 1;
    }
    if (*last >= f->frames) {
        fprintf(stderr, "cleave render: attack '%s' has %d frames (asked for %ld-%ld)\n", f->name,
                (int)f->frames, a->range_first, a->range_last);
        return false;
    }
    if (*last - *first + 1 > RENDER_MAX_FRAMES) {
        fprintf(stderr,
                "cleave render: attack '%s' has %d frames; a sheet shows at most %d: pick "
                "them with --frames, e.g. --frames %d-%d\n",
                f->name, (int)f->frames, RENDER_MAX_FRAMES, (int)*first + 1,
                (int)*first + RENDER_MAX_FRAMES);
        return false;
    }
    return true;
}

/* What every cell of a sheet shares. */
typedef struct sheet {
    app_canvas c;
    const app_assets *assets;
    const app_picked *p;
    const app_attack_facts *f;
    int32_t attack, first, last;
    int cols, cell, header, legend_x;
    float scale;
    const app_aseprite *sprites; ///< --sheet: the attacker's animation, NULL without
    const app_image *sprite_image;
    /// The hitbox ids of the frames drawn, in the order they first show (the legend's order):
    /// an id's place here is its colour in every cell.
    char ids[RENDER_MAX_IDS][CLV_HIT_NAME_MAX];
    int32_t id_count;
} sheet;

static void list_ids(sheet *sh) {
    sh->id_count = 0;
    for (int32_t fr = sh->first; fr <= sh->last; fr++) {
        for (int32_t k = 0;; k++) {
            const clv_hitbox_def *h = clv_arena_hitbox(sh->p->arena, sh->p->wid, sh->attack, fr, k);
            if (h == NULL) {
                break;
            }
            bool seen = false;
            for (int32_t i = 0; i < sh->id_count && !seen; i++) {
                seen = strcmp(sh->ids[i], h->id) == 0;
            }
            if (!seen && sh->id_count < RENDER_MAX_IDS) {
                snprintf(sh->ids[sh->id_count++], CLV_HIT_NAME_MAX, "%s", h->id);
            }
        }
    }
}

/* The colour of a hitbox id: by its place among the ids, not in its frame's list, so that a
 * hitbox keeps the colour the legend shows when the hitboxes before it end. */
static uint32_t id_color(const sheet *sh, const char *id) {
    int32_t i = 0;
    while (i < sh->id_count && strcmp(sh->ids[i], id) != 0) {
        i++;
    }
    return id_colors[(uint32_t)i % 6u];
}

/* A legend in the header: each hitbox id once, in its colour, on the first frame it shows. */
static void legend_entry(sheet *sh, int32_t fr, const clv_hitbox_def *h, uint32_t col) {
    if ((fr != sh->first && same_hit_listed(sh->p, sh->attack, fr - 1, h)) ||
        sh->legend_x >= sh->c.w - 60) {
        return;
    }
    for (int32_t q = sh->first; q < fr; q++) {
        if (same_hit_listed(sh->p, sh->attack, q, h)) {
            return;
        }
    }
    sh->legend_x += 10 + app_text(&sh->c, &sh->assets->font, sh->legend_x, 12, h->id, col, 1);
}

static void draw_cell(sheet *sh, int32_t fr) {
    app_canvas *c = &sh->c;
    const app_picked *p = sh->p;
    int cell = sh->cell;
    int cx = ((fr - sh->first) % sh->cols) * cell;
    int cy = sh->header + ((fr - sh->first) / sh->cols) * cell;
    bool active = clv_weapon_frame_hitbox_count(p->weapon, sh->attack, fr) > 0;
    uint32_t phase = fr < sh->f->startup ? 0xFF3C9A5Au : (active ? 0xFFD8463Cu : 0xFF3C64B4u);
    app_fill_rect(c, cx + 2, cy + 2, cell - 4, cell - 4, 0xFF1E222Cu);
    app_fill_rect(c, cx + 2, cy + 2, cell - 4, 4, phase);
    float ox = (float)(cx + cell / 2), oy = (float)(cy + cell / 2 + 4);
    app_line(c, (float)cx + 6.0f, oy, (float)(cx + cell) - 6.0f, oy, 0xFF2C3240u);
    app_line(c, ox, (float)cy + 10.0f, ox, (float)(cy + cell) - 6.0f, 0xFF2C3240u);
    app_image sprite;
    if (sh->sprites != NULL && app_aseprite_sprite(sh->sprites, sh->sprite_image, fr, &sprite)) {
        /* the sheet's frame, its origin on the cell's, at the hitboxes' (whole) scale */
        int ss = (int)sh->scale;
        app_blit(c, &sprite, (int)(ox - sh->sprites->origin.x * (float)ss),
                 (int)(oy - sh->sprites->origin.y * (float)ss), ss, 0, 255, false);
        app_image_free(&sprite);
    } else {
        int ss = sh->scale >= 1.5f ? 2 : 1;
        const app_image *player = &sh->assets->player;
        app_blit(c, player, (int)ox - player->w * ss / 2, (int)oy - player->h * ss / 2, ss, 0, 200,
                 false);
    }
    /* onion skin: the previous frame's hitboxes, faint */
    for (int32_t k = 0; fr > 0; k++) {
        const clv_hitbox_def *h = clv_arena_hitbox(p->arena, p->wid, sh->attack, fr - 1, k);
        if (h == NULL) {
            break;
        }
        app_shape(c, &h->shape, ox, oy, sh->scale, 0u, 0x606080FFu);
    }
    for (int32_t k = 0;; k++) {
        const clv_hitbox_def *h = clv_arena_hitbox(p->arena, p->wid, sh->attack, fr, k);
        if (h == NULL) {
            break;
        }
        uint32_t col = id_color(sh, h->id);
        app_shape(c, &h->shape, ox, oy, sh->scale, (col & 0x00FFFFFFu) | 0x80000000u, col);
        legend_entry(sh, fr, h, col);
    }
    char label[16];
    snprintf(label, sizeof label, "%d", (int)fr + 1);
    app_text(c, &sh->assets->font, cx + 6, cy + 10, label, 0xFFE0E0E0u, 1);
}

/* Sizes and allocates the sheet's canvas; false when there is no memory for it. */
static bool sheet_open(sheet *sh) {
    int32_t shown = sh->last - sh->first + 1;
    float reach;
    local_bounds(sh->p, sh->attack, sh->first, sh->last, &reach);
    sh->cell = 144;
    sh->scale = fminf((float)(sh->cell / 2 - 8) / reach, 2.0f);
    if (sh->sprites != NULL) {
        sh->scale = fmaxf(1.0f, floorf(sh->scale)); /* sprites scale by whole pixels */
    }
    sh->cols = shown < 8 ? shown : 8;
    sh->header = 28;
    int rows = (shown + sh->cols - 1) / sh->cols, footer = 56;
    app_canvas *c = &sh->c;
    c->w = sh->cols * sh->cell < 480 ? 480 : sh->cols * sh->cell;
    c->h = sh->header + rows * sh->cell + footer;
    c->pitch = c->w;
    c->px = calloc((size_t)c->w * (size_t)c->h, sizeof *c->px);
    if (c->px == NULL) {
        fprintf(stderr, "cleave render: out of memory for a %dx%d sheet\n", c->w, c->h);
        return false;
    }
    return true;
}

static bool draw_sheet(sheet *sh, const char *out) {
    app_canvas *c = &sh->c;
    app_clear(c, 0xFF14161Cu);
    char title[160];
    snprintf(title, sizeof title, "%s / %s / %s", clv_mod_name(sh->p->mod), sh->p->weapon_name,
             sh->f->name);
    sh->legend_x = 24 + app_text(c, &sh->assets->font, 8, 8, title, 0xFFFFD070u, 2);
    list_ids(sh);
    for (int32_t fr = sh->first; fr <= sh->last; fr++) {
        draw_cell(sh, fr);
    }
    int rows = (sh->last - sh->first + sh->cols) / sh->cols;
    app_draw_frame_bar(c, &sh->assets->font, 8, sh->header + rows * sh->cell + 10, c->w - 16, sh->f,
                       -1);
    if (!app_canvas_write_png(c, out)) {
        fprintf(stderr, "cleave render: cannot write %s\n", out);
        return false;
    }
    printf("cleave: %s: %d frames, %dx%d pixels\n", out, (int)(sh->last - sh->first + 1), c->w,
           c->h);
    return true;
}

/* The attacker's animation for --sheet: the Aseprite JSON's frames of the attack's tag, and
 * the PNG its meta.image names beside it. */
static bool load_sprites(const char *json, const char *attack, app_aseprite *sprites,
                         app_image *image) {
    size_t len;
    char *text = app_read_json("cleave render", json, &len), err[512];
    bool ok = text != NULL && app_aseprite_read(text, len, attack, sprites, err, sizeof err);
    free(text);
    if (!ok) {
        if (text != NULL) {
            fprintf(stderr, "cleave render: %s: %s\n", json, err);
        }
        return false;
    }
    char path[1024];
    const char *slash = strrchr(json, '/');
    snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - json + 1) : 0, json,
             sprites->image);
    if (!app_image_load(path, 16, 16, image, err, sizeof err)) {
        fprintf(stderr, "cleave render: %s\n", err);
        app_aseprite_free(sprites);
        app_image_free(image);
        return false;
    }
    return true;
}

/* --body without a mod folder: one of the bodies the demo builds in C. */
static int render_demo_body(const render_args *a) {
    clv_hit_diag diag;
    clv_body *b = app_demo_body(a->body, &diag);
    if (b == NULL) {
        char name[256];
        fprintf(stderr,
                "cleave render: the demo has no body '%s' (player, knight; a mod's bodies need "
                "its folder)\n",
                clv_mod_escape(a->body, name, sizeof name));
        return 1;
    }
    char title[160];
    snprintf(title, sizeof title, "demo / %s", clv_body_name(b));
    bool ok = app_render_body(b, title, a->out);
    clv_body_destroy(b);
    return ok ? 0 : 1;
}

/* --body with a mod folder: the mod's body of that name (its `bodies` table). */
static int render_mod_body(const render_args *a) {
    if (a->dir == NULL) {
        return render_demo_body(a);
    }
    char folder[1024], name[256], title[320];
    app_picked p;
    if (!app_pick_open(app_mod_folder(a->dir, folder, sizeof folder), &p)) {
        app_pick_close(&p);
        return 1;
    }
    int32_t found = -1, n = clv_mod_body_count(p.mod);
    for (int32_t i = 0; i < n && found < 0; i++) {
        found = strcmp(clv_mod_body_name(p.mod, i), a->body) == 0 ? i : -1;
    }
    bool ok = found >= 0;
    if (!ok) {
        char mod[256];
        fprintf(stderr, "cleave render: mod %s has no body '%s' (%d bodies)\n",
                clv_mod_escape(clv_mod_name(p.mod), mod, sizeof mod),
                clv_mod_escape(a->body, name, sizeof name), (int)n);
    } else {
        snprintf(title, sizeof title, "%s / %s", clv_mod_name(p.mod), a->body);
        ok = app_render_body(clv_mod_body(p.mod, found), title, a->out);
    }
    app_pick_close(&p);
    return ok ? 0 : 1;
}

int app_cmd_render(int argc, char **argv) {
    render_args a;
    if (!parse_render_args(argc, argv, &a)) {
        return 2;
    }
    if (a.body != NULL) {
        return render_mod_body(&a);
    }
    char folder[1024];
    app_picked p;
    app_attack_facts f;
    sheet sh = {.p = &p, .f = &f};
    const char *dir = app_mod_folder(a.dir, folder, sizeof folder);
    if (!app_pick_open(dir, &p) || !pick_render_attack(&p, &a, &sh.attack, &f) ||
        !sheet_range(&a, &f, &sh.first, &sh.last)) {
        app_pick_close(&p);
        return 1;
    }
    char own[1100];
    snprintf(own, sizeof own, "%s/sheet.json", dir);
    FILE *probe = a.sheet == NULL ? fopen(own, "rb") : NULL;
    if (probe != NULL) {
        fclose(probe);
        a.sheet = own; /* the mod's own sheet, the one the demo animates its attacker from */
    }
    app_aseprite sprites = {0};
    app_image image = {0};
    if (a.sheet != NULL && !load_sprites(a.sheet, f.name, &sprites, &image)) {
        app_pick_close(&p);
        return 1;
    }
    sh.sprites = a.sheet != NULL ? &sprites : NULL;
    sh.sprite_image = &image;
    app_assets assets;
    app_assets_load(&assets, app_assets_dir());
    sh.assets = &assets;
    bool ok = sheet_open(&sh) && draw_sheet(&sh, a.out);
    app_aseprite_free(&sprites);
    app_image_free(&image);
    free(sh.c.px);
    app_assets_free(&assets);
    app_pick_close(&p);
    return ok ? 0 : 1;
}
