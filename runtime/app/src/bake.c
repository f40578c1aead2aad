/* `cleave bake`: a mod's attacks, generated ones (cleave.arc, cleave.thrust) included, written
 * as frames files that `cleave.frames` reads back. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "cleave/mod.h"

static const char *const bake_usage =
    "usage: cleave bake <mod folder> [--weapon NAME] [--attack NAME] [--out DIR]";

typedef struct bake_args {
    const char *dir, *weapon, *attack, *out;
} bake_args;

static const char *bake_value_needed(const char *arg) {
    static const char *const options[][2] = {
        {"--weapon", "a weapon name"}, {"--attack", "an attack name"}, {"--out", "a folder"}};
    return app_option_needs(options, sizeof options / sizeof options[0], arg);
}

static bool parse_bake_args(int argc, char **argv, bake_args *a) {
    memset(a, 0, sizeof *a);
    for (int i = 0; i < argc; i++) {
        const char *need = bake_value_needed(argv[i]);
        if (need != NULL && i + 1 == argc) {
            fprintf(stderr, "cleave bake: %s needs %s\n", argv[i], need);
            return false;
        }
        if (need != NULL) {
            const char **dst = strcmp(argv[i], "--weapon") == 0   ? &a->weapon
                               : strcmp(argv[i], "--attack") == 0 ? &a->attack
                                                                  : &a->out;
            *dst = argv[++i];
        } else if (argv[i][0] != '-' && a->dir == NULL) {
            a->dir = argv[i];
        } else {
            fprintf(stderr, "cleave bake: %s '%s' (%s)\n",
                    argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i],
                    bake_usage);
            return false;
        }
    }
    if (a->dir == NULL) {
        fprintf(stderr, "cleave bake: no mod folder given (%s)\n", bake_usage);
        return false;
    }
    return true;
}

/* The weapon to bake: the one named, or the mod's only one. */
static bool pick_bake_weapon(app_picked *p, const bake_args *a) {
    int32_t n = clv_mod_weapon_count(p->mod), wi = -1;
    for (int32_t i = 0; i < n && a->weapon != NULL; i++) {
        if (strcmp(clv_mod_weapon_name(p->mod, i), a->weapon) == 0) {
            wi = i;
        }
    }
    if (a->weapon == NULL && n == 1) {
        wi = 0;
    }
    if (wi < 0) {
        if (a->weapon != NULL) {
            fprintf(stderr, "cleave bake: %s has no weapon '%s'\n", a->dir, a->weapon);
        } else {
            fprintf(stderr, "cleave bake: %s has %d weapons: name one with --weapon\n", a->dir,
                    (int)n);
        }
        return false;
    }
    return app_pick_weapon(p, wi);
}

typedef struct bake_ud {
    const app_picked *p;
    int32_t attack;
} bake_ud;

static const clv_hitbox_def *arena_hitbox(void *ud, int32_t fr, int32_t k) {
    const bake_ud *b = ud;
    return clv_arena_hitbox(b->p->arena, b->p->wid, b->attack, fr, k);
}

static const clv_hurtbox_def *arena_hurtboxes(void *ud, int32_t fr, int32_t *count) {
    const bake_ud *b = ud;
    return clv_arena_frame_hurtboxes(b->p->arena, b->p->wid, b->attack, fr, count);
}

static bool bake_attack(const app_picked *p, int32_t attack, const char *out_dir) {
    clv_attack_def def;
    if (clv_weapon_attack(p->weapon, attack, &def) != CLV_HIT_OK) {
        fprintf(stderr, "cleave bake: cannot read attack %d\n", (int)attack + 1);
        return false;
    }
    /* the file takes the attack's name, which cleave.frames checks the same way */
    if (strchr(def.name, '/') != NULL || def.name[0] == '.' || strstr(def.name, "..") != NULL) {
        fprintf(stderr, "cleave bake: attack '%s' cannot name a file\n", def.name);
        return false;
    }
    char path[1100], err[256];
    snprintf(path, sizeof path, "%s/%s.lua", out_dir, def.name);
    bake_ud ud = {p, attack};
    app_frames_src src = {p->weapon_name, &def, arena_hitbox, &ud, arena_hurtboxes};
    if (!app_frames_write(path, &src, err, sizeof err)) {
        fprintf(stderr, "cleave bake: %s: %s\n", path, err);
        return false;
    }
    printf("cleave: %s: %d frames\n", path, (int)def.frames);
    return true;
}

int app_cmd_bake(int argc, char **argv) {
    bake_args a;
    if (!parse_bake_args(argc, argv, &a)) {
        return 2;
    }
    char folder[1024], out[1024];
    const char *dir = app_mod_folder(a.dir, folder, sizeof folder);
    app_picked p;
    if (!app_pick_open(dir, &p) || !pick_bake_weapon(&p, &a)) {
        app_pick_close(&p);
        return 1;
    }
    snprintf(out, sizeof out, "%s", a.out != NULL ? a.out : dir);
    if (a.out == NULL) {
        snprintf(out, sizeof out, "%s/frames", dir);
    }
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "cleave bake: cannot make the folder %s\n", out);
        app_pick_close(&p);
        return 1;
    }
    int32_t only = a.attack != NULL ? clv_weapon_find_attack(p.weapon, a.attack) : -1;
    if (a.attack != NULL && only < 0) {
        fprintf(stderr, "cleave bake: weapon '%s' has no attack '%s'\n", p.weapon_name, a.attack);
        app_pick_close(&p);
        return 1;
    }
    bool ok = true;
    for (int32_t i = 0; i < clv_weapon_attack_count(p.weapon) && ok; i++) {
        if (only < 0 || i == only) {
            ok = bake_attack(&p, i, out);
        }
    }
    app_pick_close(&p);
    return ok ? 0 : 1;
}
