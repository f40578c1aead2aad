/* `cleave demo`: one loop — inputs, simulation steps, drawing — run by a window or headless.
 * The window only changes where inputs come from and whether the canvas is presented. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <SDL.h>

#include "app.h"
#include "editor.h"

typedef struct demo_opts {
    bool headless, bench, overlay;
    int64_t frames; ///< headless: frames to run; window: quit after (0 = never)
    int32_t enemies;
    int32_t throwers; ///< enemies that throw knives, when the knives mod is loaded
    int32_t knights;  ///< enemies that swing a blade
    const char *inputs;
    const char *screenshot;
    const char *status; ///< file rewritten with the state line whenever it changes
    const char *mods_dir;
    const char *mod_dir;
    const char *assets;
    uint64_t seed;
    float miss_margin;
    int32_t zoom;
    int32_t log_filter;
} demo_opts;

typedef struct demo {
    demo_opts o;
    app_game g;
    app_mods mods;
    app_assets assets;
    app_view view;
    app_editor ed; ///< the edit mode; the game is paused while it is on
    SDL_Surface *surface;
    app_canvas cv;
    char status[128];
    char *status_tmp;      ///< o.status + ".tmp": written, then renamed over o.status
    char status_line[384]; ///< last line written to o.status (room for the longest labels)
    int64_t display_frame;
    int32_t slow_phase;
    uint64_t *sim_ns, *draw_ns;
    int64_t timed;
} demo;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool file_exists(const char *p) {
    struct stat sb;
    return stat(p, &sb) == 0;
}

/* An installed cleave finds its data beside it (<prefix>/bin/../share/cleave/<sub>), wherever
 * the prefix was moved; NULL when there is none (a build in its tree). */
static const char *installed_dir(char *buf, size_t len, const char *sub) {
    char exe[4000];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash == NULL) {
        return NULL;
    }
    *slash = '\0';
    snprintf(buf, len, "%s/../share/cleave/%s", exe, sub);
    return file_exists(buf) ? buf : NULL;
}

const char *app_assets_dir(void) {
    static char installed[4096];
    const char *env = getenv("CLEAVE_ASSETS");
    if (env && env[0]) {
        return env;
    }
    if (file_exists("assets/font.png")) {
        return "assets";
    }
    if (installed_dir(installed, sizeof installed, "assets")) {
        return installed;
    }
#ifdef CLEAVE_DATA_DIR
    return CLEAVE_DATA_DIR "/assets";
#else
    return "assets";
#endif
}

static const char *default_mods_dir(void) {
    static char installed[4096];
    if (file_exists("mods")) {
        return "mods";
    }
    if (installed_dir(installed, sizeof installed, "mods")) {
        return installed;
    }
#ifdef CLEAVE_DATA_DIR
    return CLEAVE_DATA_DIR "/mods";
#else
    return "mods";
#endif
}

/* What an option of demo takes, or NULL when arg is not such an option. */
static const char *demo_value_needed(const char *arg) {
    static const char *const options[][2] = {
        {"--frames", "a frame count"},   {"--quit-after", "a frame count"},
        {"--enemies", "a count"},        {"--throwers", "a count"},
        {"--knights", "a count"},        {"--seed", "a whole number"},
        {"--miss-margin", "a distance"}, {"--inputs", "a file name"},
        {"--screenshot", "a file name"}, {"--status", "a file name"},
        {"--mods", "a folder"},          {"--mod", "a mod folder"},
        {"--assets", "a folder"},        {"--zoom", "a whole factor"},
        {"--log", "hits, enemy or all"}};
    return app_option_needs(options, sizeof options / sizeof options[0], arg);
}

static bool parse_args(int argc, char **argv, demo_opts *o) {
    memset(o, 0, sizeof *o);
    o->enemies = -1;
    o->throwers = -1;
    o->knights = -1;
    o->seed = 12345;
    o->miss_margin = -1.0f;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        const char *need = demo_value_needed(a);
        if (need != NULL && !has) {
            fprintf(stderr, "cleave: %s needs %s\n", a, need);
            return false;
        }
        if (strcmp(a, "--headless") == 0) {
            o->headless = true;
        } else if (strcmp(a, "--bench") == 0) {
            o->bench = true;
        } else if (strcmp(a, "--overlay") == 0) {
            o->overlay = true;
        } else if ((strcmp(a, "--frames") == 0 || strcmp(a, "--quit-after") == 0) && has) {
            char *end;
            long long v = strtoll(argv[++i], &end, 10);
            if (end == argv[i] || *end || v < 0) {
                fprintf(stderr, "cleave: %s needs a frame count >= 0 (got '%s')\n", a, argv[i]);
                return false;
            }
            o->frames = v;
        } else if ((strcmp(a, "--enemies") == 0 || strcmp(a, "--throwers") == 0 ||
                    strcmp(a, "--knights") == 0) &&
                   has) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || v < 0 || v > 200000) {
                fprintf(stderr, "cleave: %s needs a count in 0..200000 (got '%s')\n", a, argv[i]);
                return false;
            }
            if (strcmp(a, "--enemies") == 0) {
                o->enemies = (int32_t)v;
            } else if (strcmp(a, "--knights") == 0) {
                o->knights = (int32_t)v;
            } else {
                o->throwers = (int32_t)v;
            }
        } else if (strcmp(a, "--seed") == 0 && has) {
            const char *v = argv[++i];
            char *end;
            o->seed = strtoull(v, &end, 10);
            if (v[0] < '0' || v[0] > '9' || *end) {
                fprintf(stderr, "cleave: --seed needs a whole number >= 0 (got '%s')\n", v);
                return false;
            }
        } else if (strcmp(a, "--miss-margin") == 0 && has) {
            char *end;
            double v = strtod(argv[++i], &end);
            if (end == argv[i] || *end || !(v >= 0.0 && v <= 1000.0)) {
                fprintf(stderr, "cleave: --miss-margin needs a distance in 0..1000 (got '%s')\n",
                        argv[i]);
                return false;
            }
            o->miss_margin = (float)v;
        } else if (strcmp(a, "--inputs") == 0 && has) {
            o->inputs = argv[++i];
        } else if (strcmp(a, "--screenshot") == 0 && has) {
            o->screenshot = argv[++i];
        } else if (strcmp(a, "--status") == 0 && has) {
            o->status = argv[++i];
        } else if (strcmp(a, "--mods") == 0 && has) {
            o->mods_dir = argv[++i];
        } else if (strcmp(a, "--mod") == 0 && has) {
            o->mod_dir = argv[++i];
        } else if (strcmp(a, "--assets") == 0 && has) {
            o->assets = argv[++i];
        } else if (strcmp(a, "--zoom") == 0 && has) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || v < 1 || v > APP_MAX_ZOOM) {
                fprintf(stderr, "cleave: --zoom needs a whole factor in 1..%d (got '%s')\n",
                        APP_MAX_ZOOM, argv[i]);
                return false;
            }
            o->zoom = (int32_t)v;
        } else if (strcmp(a, "--log") == 0 && has) {
            const char *want = argv[++i];
            o->log_filter = -1;
            for (int32_t k = 0; k < APP_FILTER_COUNT; k++) {
                if (strcmp(want, app_log_filter_name((app_log_filter)k)) == 0) {
                    o->log_filter = k;
                }
            }
            if (o->log_filter < 0) {
                fprintf(stderr, "cleave: --log needs hits, enemy or all (got '%s')\n", want);
                return false;
            }
        } else {
            fprintf(stderr, "cleave demo: %s '%s'\n",
                    a[0] == '-' ? "unknown option" : "unexpected argument", a);
            return false;
        }
    }
    if (o->enemies < 0) {
        o->enemies = 8;
    }
    if (o->throwers < 0) {
        o->throwers = o->enemies > 0 ? 2 : 0;
    }
    if (o->knights < 0) {
        o->knights = o->enemies > 0 ? 2 : 0;
    }
    if (o->headless && o->frames == 0) {
        o->frames = 600;
    }
    return true;
}

static void update_status(demo *d) {
    snprintf(d->status, sizeof d->status, "%d mod(s) loaded, %d weapon(s), %d enemies",
             (int)app_mods_loaded(&d->mods), (int)d->g.slot_count, (int)d->g.st.enemy_count);
    d->view.status = d->status;
}

static bool demo_open(demo *d, char *err, size_t errlen) {
    if (!app_game_init(&d->g, d->o.enemies, d->o.seed, d->o.miss_margin, err, errlen)) {
        return false;
    }
    /* only the window steps back (the , key): a headless run keeps no history to rewind */
    d->g.hist_disabled = d->g.hist_disabled || d->o.headless;
    d->g.log_stdout = d->o.headless && !d->o.bench;
    d->g.stdout_filter = d->o.log_filter;
    app_assets_load(&d->assets, d->o.assets ? d->o.assets : app_assets_dir());
    if (d->o.mod_dir) {
        app_mods_add(&d->mods, d->o.mod_dir, &d->g);
    } else {
        app_mods_open(&d->mods, d->o.mods_dir ? d->o.mods_dir : default_mods_dir(), &d->g);
    }
    if (app_mods_loaded(&d->mods) == 0) {
        /* nothing to swing: the banner says why (the mod's error, or no mod found) */
        snprintf(err, errlen, "%.500s", d->mods.banner[0] ? d->mods.banner : "no mod loaded");
        return false;
    }
    /* after the slimes, so that their places and speeds do not depend on the throwers */
    for (int32_t i = 0; app_knife_slot(&d->g) >= 0 && i < d->o.throwers; i++) {
        if (!app_game_spawn_enemy(&d->g, APP_ENEMY_THROWER, app_game_spawn_point(&d->g), err,
                                  errlen)) {
            return false;
        }
    }
    for (int32_t i = 0; i < d->o.knights; i++) {
        if (!app_game_spawn_enemy(&d->g, APP_ENEMY_KNIGHT, app_game_spawn_point(&d->g), err,
                                  errlen)) {
            return false;
        }
    }
    d->surface = SDL_CreateRGBSurfaceWithFormat(0, APP_W, APP_H, 32, SDL_PIXELFORMAT_ARGB8888);
    if (d->surface == NULL) {
        snprintf(err, errlen, "cannot create the drawing surface: %s", SDL_GetError());
        return false;
    }
    d->cv.px = d->surface->pixels;
    d->cv.w = APP_W;
    d->cv.h = APP_H;
    d->cv.pitch = d->surface->pitch / 4;
    d->view.slow = 1;
    d->view.zoom = d->o.zoom > 0 ? d->o.zoom : 1;
    d->view.log_filter = d->o.log_filter;
    d->view.overlay = d->o.overlay;
    d->view.headless = d->o.headless;
    d->view.banner = d->mods.banner;
    update_status(d);
    if (!d->o.bench) {
        for (int32_t i = 0; i < d->g.slot_count; i++) {
            printf("cleave: weapon %d: %s\n", (int)i + 1, d->g.slots[i].label);
        }
        fflush(stdout); /* a script driving the window reads the list while the demo runs */
    }
    if (d->o.status) {
        size_t n = strlen(d->o.status) + sizeof ".tmp";
        d->status_tmp = malloc(n);
        if (d->status_tmp == NULL) {
            snprintf(err, errlen, "out of memory for the status file's name");
            return false;
        }
        snprintf(d->status_tmp, n, "%s.tmp", d->o.status);
    }
    if (d->o.bench) {
        size_t n = (size_t)(d->o.frames > 0 ? d->o.frames : 1);
        d->sim_ns = calloc(n, sizeof *d->sim_ns);
        d->draw_ns = calloc(n, sizeof *d->draw_ns);
        if (!d->sim_ns || !d->draw_ns) {
            snprintf(err, errlen, "out of memory for timings");
            return false;
        }
    }
    return true;
}

static void demo_close(demo *d) {
    app_editor_free(&d->ed);
    app_mods_close(&d->mods);
    app_game_free(&d->g);
    app_assets_free(&d->assets);
    if (d->surface) {
        SDL_FreeSurface(d->surface);
    }
    free(d->sim_ns);
    free(d->draw_ns);
    free(d->status_tmp);
}

/* One line of where the demo is, for the exit summary and the status file alike, so that a
 * script reads the same fields in both. */
static void describe_state(const demo *d, char *out, size_t len) {
    const app_state *st = &d->g.st;
    const app_slot *last = st->last_slot >= 0 ? &d->g.slots[st->last_slot] : NULL;
    snprintf(out, len,
             "frame=%lld overlay=%s paused=%s slow=%d zoom=%d log=%s last_attack=%s/%s "
             "swings=%d attacking=%s hits=%d weapon=%s",
             (long long)st->frame, d->view.overlay ? "on" : "off",
             d->view.paused || d->ed.on ? "yes" : "no", /* the edit mode pauses too */
             (int)d->view.slow, (int)d->view.zoom,
             app_log_filter_name((app_log_filter)d->view.log_filter), last ? last->label : "-",
             last && st->attack_index < APP_MAX_FACTS ? last->facts[st->attack_index].name : "-",
             (int)st->swings, clv_arena_attack_valid(d->g.arena, st->attack) ? "yes" : "no",
             (int)st->hits, d->g.slot_count > 0 ? d->g.slots[st->slot].label : "-");
}

/* Rewrites the status file when the line changed: a temporary file renamed over it, so that a
 * reader never sees half a line. false with the reason on stderr when it cannot be written. */
static bool write_status(demo *d) {
    char line[sizeof d->status_line];
    describe_state(d, line, sizeof line);
    if (strcmp(line, d->status_line) == 0) {
        return true;
    }
    FILE *f = fopen(d->status_tmp, "w");
    bool ok = f != NULL && fprintf(f, "%s\n", line) > 0;
    if (f != NULL && fclose(f) != 0) {
        ok = false;
    }
    if (!ok || rename(d->status_tmp, d->o.status) != 0) {
        fprintf(stderr, "cleave: cannot write the status file %s: %s\n", d->o.status,
                strerror(errno));
        remove(d->status_tmp);
        return false;
    }
    memcpy(d->status_line, line, sizeof line);
    return true;
}

/* The view requests an input carries, and the enemy the log's ENEMY filter follows: the one
 * last under the aim (the mouse, in a window). */
static void apply_view_input(demo *d, const app_input *in) {
    if (in->zoom >= 1 && in->zoom <= APP_MAX_ZOOM) {
        d->view.zoom = in->zoom;
    }
    uint32_t under = app_enemy_at(&d->g, in->aim);
    if (under != 0) {
        d->view.log_target = under;
    }
    d->g.stdout_target = d->view.log_target;
}

/* The one loop body: steps the simulation 0 or more times, then draws. */
static bool demo_frame(demo *d, const app_input *in, int steps, bool rewind) {
    char err[256];
    uint64_t t0 = now_ns();
    apply_view_input(d, in);
    for (int32_t i = 0; i < in->ed_count; i++) {
        app_editor_apply(&d->ed, &d->g, &d->mods, &in->ed[i]);
    }
    if (d->ed.on) {
        steps = 0, rewind = false; /* the edit mode pauses the game */
    }
    if (rewind) {
        app_game_rewind(&d->g);
    }
    for (int i = 0; i < steps; i++) {
        app_game_remember(&d->g);
        if (!app_game_step(&d->g, in, err, sizeof err)) {
            fprintf(stderr, "cleave: %s\n", err);
            return false;
        }
        app_mods_callbacks(&d->mods, &d->g);
    }
    uint64_t t1 = now_ns();
    if (steps > 0 || rewind) {
        update_status(d); /* the enemy count moves only with the simulation */
    }
    app_draw_game(&d->cv, &d->assets, &d->g, &d->view);
    app_editor_draw(&d->cv, &d->assets.font, &d->ed);
    uint64_t t2 = now_ns();
    if (d->sim_ns && d->timed < d->o.frames) {
        d->sim_ns[d->timed] = t1 - t0;
        d->draw_ns[d->timed] = t2 - t1;
        d->timed++;
    }
    d->display_frame++;
    if (!d->o.bench && d->display_frame % 20 == 0 && app_mods_poll(&d->mods, &d->g)) {
        update_status(d);
    }
    return d->o.status == NULL || write_status(d);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

static double pct_ms(uint64_t *v, int64_t n, double p) {
    if (n <= 0) {
        return 0.0;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_u64);
    int64_t k = (int64_t)(p * (double)(n - 1) + 0.5);
    return (double)v[k] / 1e6;
}

static void print_bench(demo *d) {
    int64_t n = d->timed;
    uint64_t *tot = calloc((size_t)(n > 0 ? n : 1), sizeof *tot);
    for (int64_t i = 0; tot && i < n; i++) {
        tot[i] = d->sim_ns[i] + d->draw_ns[i];
    }
    printf("bench: %lld frames, %d enemies, %d weapon(s)\n", (long long)n, (int)d->g.st.enemy_count,
           (int)d->g.slot_count);
    printf("  simulation  p50 %7.3f ms   p99 %7.3f ms\n", pct_ms(d->sim_ns, n, 0.5),
           pct_ms(d->sim_ns, n, 0.99));
    printf("  drawing     p50 %7.3f ms   p99 %7.3f ms\n", pct_ms(d->draw_ns, n, 0.5),
           pct_ms(d->draw_ns, n, 0.99));
    if (tot) {
        printf("  frame       p50 %7.3f ms   p99 %7.3f ms\n", pct_ms(tot, n, 0.5),
               pct_ms(tot, n, 0.99));
    }
    printf("  hits %d  misses %d  KOs %d\n", (int)d->g.st.hits, (int)d->g.st.misses,
           (int)d->g.st.kills);
    free(tot);
}

static int run_headless(demo *d) {
    app_script script;
    bool scripted = d->o.inputs != NULL;
    if (scripted) {
        char err[512];
        if (!app_script_load(&script, d->o.inputs, err, sizeof err)) {
            fprintf(stderr, "cleave: %s\n", err);
            return 1;
        }
    }
    int rc = 0;
    for (int64_t f = 0; f < d->o.frames; f++) {
        app_input in;
        if (scripted) {
            /* the run's frame, which is the game's unless the edit mode pauses it */
            app_script_input(&script, f, &in);
        } else {
            app_attract_input(&d->g, &in);
        }
        if (!demo_frame(d, &in, 1, false)) {
            rc = 1;
            break;
        }
    }
    if (scripted) {
        app_script_free(&script);
    }
    if (d->o.bench) {
        print_bench(d);
    } else {
        printf("cleave: %lld frames, %d hits, %d misses, %d KOs\n", (long long)d->g.st.frame,
               (int)d->g.st.hits, (int)d->g.st.misses, (int)d->g.st.kills);
    }
    if (d->o.screenshot) {
        if (!app_canvas_write_png(&d->cv, d->o.screenshot)) {
            fprintf(stderr, "cleave: cannot write %s\n", d->o.screenshot);
            return 1;
        }
        printf("cleave: screenshot %s\n", d->o.screenshot);
    }
    return rc;
}

static void no_display(const char *why) {
    fprintf(stderr,
            "cleave: no display (%s).\n"
            "Run the demo headless instead, for example:\n"
            "  build/cleave demo --headless --frames 600 --screenshot demo.png\n"
            "or under a virtual display: xvfb-run -a build/cleave demo\n",
            why);
}

bool app_claim_free_name(const char *pattern, int *next, char *out, size_t outlen) {
    for (int tries = 0; tries < 1000; tries++, (*next)++) {
        snprintf(out, outlen, pattern, *next);
        /* O_EXCL: the name is ours even if another program picks the same one meanwhile */
        int fd = open(out, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            close(fd);
            (*next)++;
            return true;
        }
        if (errno != EEXIST) {
            return false;
        }
    }
    return false;
}

/* What the window's events set between two drawn frames. */
typedef struct win_input {
    app_input latched; ///< presses, kept until a simulated frame takes them
    clv_vec2 mouse;    ///< canvas point
    bool quit, step_once, back_once;
    int shot_next;
} win_input;

static void screenshot(demo *d, win_input *w) {
    char name[64];
    if (app_claim_free_name("cleave-shot-%03d.png", &w->shot_next, name, sizeof name) &&
        app_canvas_write_png(&d->cv, name)) {
        printf("cleave: screenshot %s\n", name);
    } else {
        fprintf(stderr, "cleave: cannot write a screenshot in the current folder\n");
    }
}

static void zoom_by(demo *d, int32_t step) {
    int32_t z = d->view.zoom + step;
    d->view.zoom = z < 1 ? 1 : (z > APP_MAX_ZOOM ? APP_MAX_ZOOM : z);
}

static void pan_by(demo *d, float dx, float dy) {
    float z = (float)(d->view.zoom > 0 ? d->view.zoom : 1);
    d->view.pan = clv_v2(d->view.pan.x + dx / z, d->view.pan.y + dy / z);
}

static void on_key(demo *d, win_input *w, SDL_Keycode k, bool shift) {
    if (k >= SDLK_1 && k <= SDLK_9) {
        w->latched.select_slot = (int32_t)(k - SDLK_1) + 1;
        return;
    }
    const char *attack = k >= SDLK_a && k <= SDLK_z ? strchr(APP_ATTACK_KEYS, (int)(k - 32)) : NULL;
    if (attack != NULL) {
        int32_t keys = (int32_t)strlen(APP_ATTACK_KEYS);
        w->latched.attack = (int32_t)(attack - APP_ATTACK_KEYS) + 1 + (shift ? keys : 0);
        return;
    }
    switch (k) {
    case SDLK_ESCAPE:
        w->quit = true;
        break;
    case SDLK_h:
        d->view.overlay = !d->view.overlay;
        break;
    case SDLK_q:
        w->latched.parry = true;
        break;
    case SDLK_r:
        w->latched.dodge = true;
        break;
    case SDLK_f:
        d->view.log_filter = (d->view.log_filter + 1) % APP_FILTER_COUNT;
        break;
    case SDLK_SPACE:
        d->view.paused = !d->view.paused;
        break;
    case SDLK_PERIOD:
        d->view.paused = true;
        w->step_once = true;
        break;
    case SDLK_COMMA:
        d->view.paused = true;
        w->back_once = true;
        break;
    case SDLK_TAB:
        d->view.slow = d->view.slow >= 8 ? 1 : d->view.slow * 2;
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        zoom_by(d, 1);
        break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        zoom_by(d, -1);
        break;
    case SDLK_0:
        d->view.zoom = 1;
        d->view.pan = clv_v2(0.0f, 0.0f);
        break;
    case SDLK_LEFT:
    case SDLK_RIGHT:
    case SDLK_UP:
    case SDLK_DOWN:
        pan_by(d, k == SDLK_LEFT ? -48.0f : (k == SDLK_RIGHT ? 48.0f : 0.0f),
               k == SDLK_UP ? -48.0f : (k == SDLK_DOWN ? 48.0f : 0.0f));
        break;
    case SDLK_F12:
        screenshot(d, w);
        break;
    default:
        break;
    }
}

/* The edit mode's key for a key of the keyboard, -1 for none. */
static int32_t editor_key(SDL_Keycode k) {
    static const SDL_Keycode keys[APP_EK_COUNT] = {SDLK_PERIOD, SDLK_COMMA, SDLK_n,    SDLK_d,
                                                   SDLK_DELETE, SDLK_z,     SDLK_y,    SDLK_s,
                                                   SDLK_UP,     SDLK_DOWN,  SDLK_LEFT, SDLK_RIGHT};
    for (int32_t i = 0; i < APP_EK_COUNT; i++) {
        if (keys[i] == k) {
            return i;
        }
    }
    return k == SDLK_BACKSPACE ? APP_EK_DEL : -1;
}

/* While the edit mode is on it takes the mouse and the keys (E leaves it, Alt turns snapping
 * off); true when it took the event. */
static bool editor_event(demo *d, const SDL_Event *ev) {
    app_ed_action a = {0, 0.0f, 0.0f, (SDL_GetModState() & KMOD_ALT) != 0, 0};
    if (ev->type == SDL_KEYDOWN && ev->key.keysym.sym == SDLK_e) {
        a.kind = APP_ED_TOGGLE;
    } else if (!d->ed.on) {
        return false;
    } else if (ev->type == SDL_KEYDOWN && editor_key(ev->key.keysym.sym) >= 0) {
        a.kind = APP_ED_KEY, a.key = editor_key(ev->key.keysym.sym);
    } else if (ev->type == SDL_MOUSEBUTTONDOWN && ev->button.button == SDL_BUTTON_LEFT) {
        a.kind = APP_ED_PRESS, a.x = (float)ev->button.x, a.y = (float)ev->button.y;
    } else if (ev->type == SDL_MOUSEMOTION && (ev->motion.state & SDL_BUTTON_LMASK)) {
        a.kind = APP_ED_MOTION, a.x = (float)ev->motion.x, a.y = (float)ev->motion.y;
    } else if (ev->type == SDL_MOUSEBUTTONUP && ev->button.button == SDL_BUTTON_LEFT) {
        a.kind = APP_ED_RELEASE;
    } else {
        return ev->type == SDL_KEYDOWN || ev->type == SDL_MOUSEBUTTONDOWN;
    }
    app_editor_apply(&d->ed, &d->g, &d->mods, &a);
    return true;
}

static void on_event(demo *d, win_input *w, const SDL_Event *ev) {
    if (ev->type != SDL_QUIT && editor_event(d, ev)) {
        return;
    }
    switch (ev->type) {
    case SDL_QUIT:
        w->quit = true;
        break;
    case SDL_MOUSEMOTION:
        w->mouse = clv_v2((float)ev->motion.x, (float)ev->motion.y);
        if (ev->motion.state & SDL_BUTTON_MMASK) {
            pan_by(d, (float)-ev->motion.xrel, (float)-ev->motion.yrel);
        }
        break;
    case SDL_MOUSEBUTTONDOWN:
        if (ev->button.button == SDL_BUTTON_LEFT) {
            w->latched.attack = 1;
        } else if (ev->button.button == SDL_BUTTON_RIGHT) {
            w->latched.attack = 2;
        }
        break;
    case SDL_MOUSEWHEEL:
        if (SDL_GetModState() & KMOD_CTRL) {
            zoom_by(d, ev->wheel.y > 0 ? 1 : (ev->wheel.y < 0 ? -1 : 0));
        } else {
            w->latched.cycle = ev->wheel.y > 0 ? -1 : (ev->wheel.y < 0 ? 1 : w->latched.cycle);
        }
        break;
    case SDL_KEYDOWN:
        on_key(d, w, ev->key.keysym.sym, (ev->key.keysym.mod & KMOD_SHIFT) != 0);
        break;
    default:
        break;
    }
}

static void pace(uint64_t *next) {
    *next += 16666667ull;
    uint64_t t = now_ns();
    if (*next > t) {
        SDL_Delay((Uint32)((*next - t) / 1000000ull));
    } else if (t - *next > 100000000ull) {
        *next = t; /* fell far behind (a debugger, a slow machine): do not rush to catch up */
    }
}

static int run_window(demo *d) {
    SDL_Window *win = SDL_CreateWindow("cleave demo", SDL_WINDOWPOS_CENTERED,
                                       SDL_WINDOWPOS_CENTERED, APP_W, APP_H, SDL_WINDOW_RESIZABLE);
    if (win == NULL) {
        no_display(SDL_GetError());
        return 2;
    }
    SDL_Renderer *ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_PRESENTVSYNC);
    if (ren == NULL) {
        ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
    }
    SDL_Texture *tex = ren ? SDL_CreateTexture(ren, SDL_PIXELFORMAT_ARGB8888,
                                               SDL_TEXTUREACCESS_STREAMING, APP_W, APP_H)
                           : NULL;
    if (tex == NULL) {
        fprintf(stderr, "cleave: cannot present the window: %s\n", SDL_GetError());
        SDL_DestroyWindow(win);
        return 1;
    }
    SDL_RenderSetLogicalSize(ren, APP_W, APP_H);

    bool ok = true;
    win_input w;
    memset(&w, 0, sizeof w);
    w.mouse = clv_v2(APP_ROOM_X1, (APP_ROOM_Y0 + APP_ROOM_Y1) * 0.5f);
    uint64_t next = now_ns();
    while (!w.quit && ok) {
        w.step_once = w.back_once = false;
        SDL_Event ev;
        while (SDL_PollEvent(&ev)) {
            on_event(d, &w, &ev);
        }
        const Uint8 *keys = SDL_GetKeyboardState(NULL);
        app_input in = w.latched;
        in.move_x = (float)(keys[SDL_SCANCODE_D] - keys[SDL_SCANCODE_A]);
        in.move_y = (float)(keys[SDL_SCANCODE_S] - keys[SDL_SCANCODE_W]);
        in.guard = keys[SDL_SCANCODE_G] != 0;
        in.aim = app_view_to_world(&d->view, &d->g, w.mouse);
        int steps = 0;
        if (d->view.paused) {
            steps = w.step_once ? 1 : 0;
        } else if (++d->slow_phase >= d->view.slow) {
            d->slow_phase = 0;
            steps = 1;
        }
        ok = demo_frame(d, &in, steps, w.back_once);
        if (steps > 0) {
            memset(&w.latched, 0, sizeof w.latched); /* presses wait for the next simulated frame */
        }
        SDL_UpdateTexture(tex, NULL, d->surface->pixels, d->surface->pitch);
        SDL_RenderClear(ren);
        SDL_RenderCopy(ren, tex, NULL, NULL);
        SDL_RenderPresent(ren);
        if (d->o.frames > 0 && d->display_frame >= d->o.frames) {
            w.quit = true;
        }
        pace(&next);
    }
    char line[sizeof d->status_line];
    describe_state(d, line, sizeof line);
    printf("cleave: exit %s\n", line);
    if (d->o.screenshot) {
        if (app_canvas_write_png(&d->cv, d->o.screenshot)) {
            printf("cleave: screenshot %s\n", d->o.screenshot);
        } else {
            fprintf(stderr, "cleave: cannot write %s\n", d->o.screenshot);
            ok = false;
        }
    }
    SDL_DestroyTexture(tex);
    SDL_DestroyRenderer(ren);
    SDL_DestroyWindow(win);
    return ok ? 0 : 1;
}

int app_cmd_demo(int argc, char **argv) {
    demo *d = calloc(1, sizeof *d);
    if (d == NULL) {
        return 1;
    }
    if (!parse_args(argc, argv, &d->o)) {
        free(d);
        return 2;
    }
    if (d->o.bench && !d->o.headless) {
        fprintf(stderr, "cleave: --bench runs headless\n");
        d->o.headless = true;
        if (d->o.frames == 0) {
            d->o.frames = 600;
        }
    }
    int rc;
    if (!d->o.headless) {
        const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
        if ((x == NULL || !x[0]) && (w == NULL || !w[0])) {
            no_display("$DISPLAY and $WAYLAND_DISPLAY are unset");
            free(d);
            return 2;
        }
        if (SDL_Init(SDL_INIT_VIDEO) != 0) {
            no_display(SDL_GetError());
            free(d);
            return 2;
        }
    }
    char err[512];
    if (!demo_open(d, err, sizeof err)) {
        fprintf(stderr, "cleave: %s\n", err);
        rc = 1;
    } else {
        rc = d->o.headless ? run_headless(d) : run_window(d);
    }
    demo_close(d);
    if (!d->o.headless) {
        SDL_Quit();
    }
    free(d);
    return rc;
}
