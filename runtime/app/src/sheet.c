/* `cleave render` (a sprite sheet of an attack with its hitboxes and frame-data bar) and
 * `cleave check` (validate a mod and print its frame data). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "cleave/mod.h"

typedef struct picked {
    clv_mod *mod;
    clv_arena *arena;
    clv_weapon_id wid;
    const clv_weapon *weapon;
    const char *weapon_name;
    const clv_weapon *arena_weapon; /* the weapon wid names */
} picked;

/* Most frames one sheet shows; a longer attack is rendered a range at a time (--frames). */
#define RENDER_MAX_FRAMES 256

/* The mod folder an argument names: the folder itself, or the folder of a mod.lua given in its
 * place. */
static const char *mod_folder(const char *arg, char *buf, size_t n) {
    size_t len = strlen(arg);
    struct stat sb;
    if (len >= 7 && strcmp(arg + len - 7, "mod.lua") == 0 && (len == 7 || arg[len - 8] == '/') &&
        stat(arg, &sb) == 0 && S_ISREG(sb.st_mode) && len < n) {
        if (len == 7) {
            return ".";
        }
        snprintf(buf, n, "%.*s", (int)(len - 8 > 0 ? len - 8 : 1), arg);
        return buf;
    }
    return arg;
}

static bool open_mod(const char *dir, picked *p) {
    memset(p, 0, sizeof *p);
    char err[1024] = "";
    p->mod = clv_mod_load(dir, err, sizeof err);
    if (p->mod == NULL) {
        fprintf(stderr, "cleave: %s\n", err[0] ? err : "cannot load the mod");
        return false;
    }
    /* the arena's copies of the weapons count against the mod's memory budget */
    clv_arena_def def = clv_default_arena_def();
    def.allocator = clv_mod_allocator(p->mod);
    p->arena = clv_arena_create(&def, NULL);
    if (p->arena == NULL) {
        fprintf(stderr, "cleave: out of memory\n");
        return false;
    }
    return true;
}

static bool pick_weapon(picked *p, int32_t index) {
    p->weapon = clv_mod_weapon(p->mod, index);
    p->weapon_name = clv_mod_weapon_name(p->mod, index);
    if (p->weapon == p->arena_weapon) {
        return true; /* the same weapon under another name: already in the arena */
    }
    p->arena_weapon = p->weapon;
    clv_hit_diag diag;
    if (p->weapon == NULL ||
        clv_arena_add_weapon(p->arena, p->weapon, &p->wid, &diag) != CLV_HIT_OK) {
        fprintf(stderr, "cleave: weapon %d cannot be used (%s)\n", (int)index,
                p->weapon != NULL ? diag.message : "no such weapon");
        return false;
    }
    return true;
}

static void close_mod(picked *p) {
    clv_arena_destroy(p->arena);
    clv_mod_free(p->mod);
}

static const char *kb_text(const clv_knockback *k, char *buf, size_t n) {
    switch (k->kind) {
    case CLV_KNOCKBACK_NONE:
        snprintf(buf, n, "none");
        break;
    case CLV_KNOCKBACK_FIXED:
        snprintf(buf, n, "fixed (%.3g, %.3g)", (double)k->vector.x, (double)k->vector.y);
        break;
    case CLV_KNOCKBACK_SCALING:
        snprintf(buf, n, "%.0fdeg %.3g+%.3g*dmg", (double)(k->angle * (float)(180.0 / CLV_PI)),
                 (double)k->base, (double)k->growth);
        break;
    case CLV_KNOCKBACK_RADIAL:
        snprintf(buf, n, "radial %.3g+%.3g*dmg", (double)k->base, (double)k->growth);
        break;
    default:
        snprintf(buf, n, "?");
        break;
    }
    return buf;
}

static const char *frames_text(int32_t v, char *buf, size_t n) {
    if (v == CLV_FRAMES_AUTO) {
        snprintf(buf, n, "auto");
    } else {
        snprintf(buf, n, "%d", (int)v);
    }
    return buf;
}

static const char *shape_name(clv_shape_type t) {
    static const char *names[] = {"point", "circle", "capsule", "aabb", "obb"};
    return (unsigned)t < 5u ? names[t] : "?";
}

/* Two hitboxes carry the same hit data when everything but the shape's place is equal. */
static bool same_hit(const clv_hitbox_def *a, const clv_hitbox_def *b) {
    return strcmp(a->id, b->id) == 0 && a->shape.type == b->shape.type && a->group == b->group &&
           a->damage == b->damage &&
           memcmp(&a->knockback, &b->knockback, sizeof a->knockback) == 0 &&
           a->max_hits == b->max_hits && a->hitlag == b->hitlag && a->hitstun == b->hitstun &&
           a->priority == b->priority && a->effect_count == b->effect_count &&
           a->knockback_ignores_hit_count == b->knockback_ignores_hit_count;
}

/* true when frame fr lists a hitbox with the same id as h (labels only on a hitbox's first frame).
 */
static bool same_hit_listed(const picked *p, int32_t attack, int32_t fr, const clv_hitbox_def *h) {
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

/* Text a mod gave, made safe for a terminal (see clv_mod_escape). */
#define SHOWN(s, buf) clv_mod_escape((s), (buf), sizeof(buf))

static void check_attack(const picked *p, int32_t attack) {
    app_attack_facts f;
    char name[CLV_HIT_NAME_MAX * 4], id[CLV_HIT_NAME_MAX * 4];
    bool ok = app_attack_facts_of(p->weapon, attack, &f);
    SHOWN(f.name, name);
    if (!ok) {
        printf("  %s: cannot read its definition\n", name);
        return;
    }
    if (f.active_first < 0) {
        printf("  %s: %d frames, no hitbox\n", name, (int)f.frames);
        return;
    }
    printf("  %s: %d frames  startup %d  active %d-%d (%d frames)  recovery %d\n", name,
           (int)f.frames, (int)f.startup, (int)f.active_first + 1, (int)f.active_last + 1,
           (int)f.active_count, (int)f.recovery);
    printf("    %-12s %-7s %-8s %5s %6s %-24s %4s %6s %6s %4s %s\n", "hitbox", "frames", "shape",
           "group", "damage", "knockback", "hits", "hitlag", "hitstun", "prio", "effects");
    /* One row per run of consecutive frames where a hitbox id keeps the same hit data. */
    for (int32_t fr = 0; fr < f.frames; fr++) {
        for (int32_t k = 0;; k++) {
            const clv_hitbox_def *h = clv_arena_hitbox(p->arena, p->wid, attack, fr, k);
            if (h == NULL) {
                break;
            }
            bool continues = false;
            if (fr > 0) {
                for (int32_t j = 0;; j++) {
                    const clv_hitbox_def *q = clv_arena_hitbox(p->arena, p->wid, attack, fr - 1, j);
                    if (q == NULL) {
                        break;
                    }
                    continues = continues || same_hit(q, h);
                }
            }
            if (continues) {
                continue;
            }
            int32_t last = fr;
            for (bool more = true; more && last + 1 < f.frames;) {
                more = false;
                for (int32_t j = 0;; j++) {
                    const clv_hitbox_def *q =
                        clv_arena_hitbox(p->arena, p->wid, attack, last + 1, j);
                    if (q == NULL) {
                        break;
                    }
                    if (same_hit(q, h)) {
                        more = true;
                    }
                }
                last += more ? 1 : 0;
            }
            char range[24], kb[48], lag[12], stun[12], fx[96] = "", hits[12];
            if (last == fr) {
                snprintf(range, sizeof range, "%d", (int)fr + 1);
            } else {
                snprintf(range, sizeof range, "%d-%d", (int)fr + 1, (int)last + 1);
            }
            for (int32_t e = 0; e < h->effect_count; e++) {
                size_t used = strlen(fx);
                char ename[CLV_HIT_NAME_MAX * 4];
                snprintf(fx + used, sizeof fx - used, "%s%s %gx%.3g/%df", used ? ", " : "",
                         SHOWN(h->effects[e].name, ename),
                         (double)(h->effects[e].duration / h->effects[e].period),
                         (double)h->effects[e].magnitude, (int)h->effects[e].period);
            }
            if (h->max_hits > 0) {
                snprintf(hits, sizeof hits, "%d%s", (int)h->max_hits,
                         h->knockback_ignores_hit_count ? "+" : "");
            } else {
                snprintf(hits, sizeof hits, "-");
            }
            printf("    %-12s %-7s %-8s %5d %6.3g %-24s %4s %6s %6s %4d %s\n", SHOWN(h->id, id),
                   range, shape_name(h->shape.type), (int)h->group, (double)h->damage,
                   kb_text(&h->knockback, kb, sizeof kb), hits,
                   frames_text(h->hitlag, lag, sizeof lag),
                   frames_text(h->hitstun, stun, sizeof stun), (int)h->priority, fx[0] ? fx : "-");
        }
    }
}

/* Names the first argument that is not the one mod folder, or says the folder is missing. */
static bool check_args_ok(int argc, char **argv) {
    const char *const usage = "usage: cleave check <mod folder>";
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] == '-') {
            fprintf(stderr, "cleave check: unknown option '%s' (%s)\n", argv[i], usage);
            return false;
        }
        if (i > 0) {
            fprintf(stderr, "cleave check: unexpected argument '%s' (%s)\n", argv[i], usage);
            return false;
        }
    }
    if (argc == 0) {
        fprintf(stderr, "cleave check: no mod folder given (%s)\n", usage);
        return false;
    }
    return true;
}

int app_cmd_check(int argc, char **argv) {
    if (!check_args_ok(argc, argv)) {
        return 2;
    }
    char folder[1024], dir[1024], name[256], version[256], wname[CLV_HIT_NAME_MAX * 4];
    picked p;
    if (!open_mod(mod_folder(argv[0], folder, sizeof folder), &p)) {
        close_mod(&p);
        return 1;
    }
    int32_t nw = clv_mod_weapon_count(p.mod);
    printf("mod %s %s (%s): %d weapon(s), valid\n", SHOWN(clv_mod_name(p.mod), name),
           SHOWN(clv_mod_version(p.mod), version), SHOWN(argv[0], dir), (int)nw);
    for (int32_t w = 0; w < nw; w++) {
        int32_t first = clv_mod_weapon_first(p.mod, w);
        if (first != w) {
            /* one weapon under several names: its frame data once, under its first name */
            printf("weapon %s: the same weapon as %s\n", SHOWN(clv_mod_weapon_name(p.mod, w), name),
                   SHOWN(clv_mod_weapon_name(p.mod, first), wname));
            continue;
        }
        if (!pick_weapon(&p, w)) {
            close_mod(&p);
            return 1;
        }
        int32_t na = clv_weapon_attack_count(p.weapon);
        printf("weapon %s: %d attack(s)\n", SHOWN(p.weapon_name, wname), (int)na);
        for (int32_t a = 0; a < na; a++) {
            check_attack(&p, a);
        }
    }
    close_mod(&p);
    return 0;
}

/* ---- render ---- */

static void local_bounds(const picked *p, int32_t attack, int32_t first, int32_t last, float *r) {
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
                                             {"--weapon", "a weapon name"}};
    return app_option_needs(options, sizeof options / sizeof options[0], arg);
}

typedef struct render_args {
    const char *dir, *out, *attack_name, *weapon_name;
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
        } else if (argv[i][0] != '-' && a->dir == NULL) {
            a->dir = argv[i];
        } else {
            fprintf(stderr, "cleave render: %s '%s'\n",
                    argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
            return false;
        }
    }
    if (a->dir == NULL || a->out == NULL) {
        fprintf(stderr, "cleave render: %s (%s)\n",
                a->dir == NULL ? "no mod folder given" : "no --out file given", render_usage);
        return false;
    }
    return true;
}

/* Puts the weapon a names (or the first) in p's arena and finds its attack and facts. */
static bool pick_render_attack(picked *p, const render_args *a, int32_t *attack,
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
    if (clv_mod_weapon_count(p->mod) == 0 || !pick_weapon(p, wi)) {
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
    const picked *p;
    const app_attack_facts *f;
    int32_t attack, first, last;
    int cols, cell, header, legend_x;
    float scale;
} sheet;

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
    const picked *p = sh->p;
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
    int ss = sh->scale >= 1.5f ? 2 : 1;
    const app_image *player = &sh->assets->player;
    app_blit(c, player, (int)ox - player->w * ss / 2, (int)oy - player->h * ss / 2, ss, 0, 200,
             false);
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
        static const uint32_t gc[6] = {0xFFFF4A4Au, 0xFFFFA030u, 0xFF50D0FFu,
                                       0xFFB070FFu, 0xFF60F080u, 0xFFFF70C0u};
        /* colour by precedence (list order), so blade and handle read apart */
        uint32_t col = gc[(uint32_t)k % 6u];
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

int app_cmd_render(int argc, char **argv) {
    render_args a;
    if (!parse_render_args(argc, argv, &a)) {
        return 2;
    }
    char folder[1024];
    picked p;
    app_attack_facts f;
    sheet sh = {.p = &p, .f = &f};
    if (!open_mod(mod_folder(a.dir, folder, sizeof folder), &p) ||
        !pick_render_attack(&p, &a, &sh.attack, &f) || !sheet_range(&a, &f, &sh.first, &sh.last)) {
        close_mod(&p);
        return 1;
    }
    app_assets assets;
    app_assets_load(&assets, app_assets_dir());
    sh.assets = &assets;
    bool ok = sheet_open(&sh) && draw_sheet(&sh, a.out);
    free(sh.c.px);
    app_assets_free(&assets);
    close_mod(&p);
    return ok ? 0 : 1;
}
