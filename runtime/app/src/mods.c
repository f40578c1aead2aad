/* Mods in the demo: load every mods/<name>/mod.lua, give its weapons slots, and reload a mod
 * when its files change. A reload is loaded aside and swapped in only when it succeeded. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "cleave/mod.h"

/* Digest of (name, mtime, size) of the files directly in the mod's folder: any save changes it,
 * including a save that keeps the size, or one that truncates or deletes a file. */
static int64_t folder_stamp(const char *dir) {
    uint64_t h = 1469598103934665603ull;
    DIR *d = opendir(dir);
    if (d == NULL) {
        return 0;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') {
            continue;
        }
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            continue;
        }
        uint64_t k = 1469598103934665603ull;
        for (const char *p = de->d_name; *p; p++) {
            k = (k ^ (uint8_t)*p) * 1099511628211ull;
        }
        k ^= (uint64_t)sb.st_mtim.tv_sec * 1000000007ull + (uint64_t)sb.st_mtim.tv_nsec;
        k = k * 1099511628211ull ^ (uint64_t)sb.st_size;
        h += k * 0x9E3779B97F4A7C15ull; /* order-independent: readdir order is not fixed */
    }
    closedir(d);
    return (int64_t)h;
}

/* The stamp of the mod's folder and of its frames/ folder (cleave.frames reads the attacks kept
 * there), so that a save of either reloads the mod. */
static int64_t mod_stamp(const char *dir) {
    char frames[1024];
    snprintf(frames, sizeof frames, "%s/frames", dir);
    return (int64_t)((uint64_t)folder_stamp(dir) ^ ((uint64_t)folder_stamp(frames) * 31u));
}

static void weapon_label(char *out, size_t n, const char *mod, const char *weapon) {
    int w = strcmp(mod, weapon) == 0 ? snprintf(out, n, "%s", weapon)
                                     : snprintf(out, n, "%s/%s", mod, weapon);
    if (w < 0 || (size_t)w >= n) {
        snprintf(out, n, "%.*s", (int)n - 1, weapon); /* too long: the weapon name alone */
    }
}

/* Slots still holding a weapon of old that next (which replaces it) did not take over are
 * marked retired, with nothing to swing: old is about to be freed, and its weapons leave the
 * arena (each once, however many names list it) as soon as no swing uses them. */
static void retire_version(app_game *g, const clv_mod *old, const clv_weapon_id *ids) {
    for (int32_t s = 0; s < g->slot_count; s++) {
        for (int32_t i = 0; i < clv_mod_weapon_count(old); i++) {
            if (g->slots[s].weapon == clv_mod_weapon(old, i)) {
                g->slots[s].weapon = NULL;
                g->slots[s].anim = NULL;
                g->slots[s].id = (clv_weapon_id){0, 0};
                g->slots[s].attack_count = 0;
            }
        }
    }
    for (int32_t i = 0; i < clv_mod_weapon_count(old); i++) {
        if (clv_mod_weapon_first(old, i) == i) {
            app_game_retire_weapon(g, ids[i]);
        }
    }
}

/* Another loaded mod named name: its weapons' slot labels would be the same, and the later
 * would silently take the earlier's slots. */
static const app_mod_entry *same_name(const app_mods *m, const app_mod_entry *e, const char *name) {
    for (int32_t i = 0; i < m->count; i++) {
        if (&m->e[i] != e && m->e[i].mod != NULL && strcmp(m->e[i].name, name) == 0) {
            return &m->e[i];
        }
    }
    return NULL;
}

static void free_anims(app_mod_entry *e) {
    for (size_t i = 0; i < sizeof e->anims / sizeof e->anims[0]; i++) {
        app_anim_free(&e->anims[i]);
    }
}

/* The attacker's sheet for each weapon of the mod, when its folder has one. A sheet that
 * cannot be used is reported (stderr, and err for the banner) and the weapons swing without
 * it. */
static void load_anims(app_mod_entry *e, const clv_mod *mod, char *err, size_t errlen) {
    free_anims(e);
    err[0] = '\0';
    for (int32_t i = 0; i < clv_mod_weapon_count(mod); i++) {
        if (clv_mod_weapon_first(mod, i) == i &&
            !app_anim_load(&e->anims[i], e->dir, clv_mod_weapon(mod, i), err, errlen) &&
            err[0] != '\0') {
            fprintf(stderr, "cleave: %s\n", err);
            return;
        }
    }
}

/* Loads e->dir; on success the new mod's weapons take (or replace) their slots and the version
 * it replaces is freed at once: the arena holds its own copy of every weapon, so swings in
 * flight finish with the old data (that copy is freed when they end), and nothing else refers
 * to the old mod. Errors go to e->error and the banner, and to stderr when report is set. */
static bool load_entry(app_mods *m, app_mod_entry *e, app_game *g, bool report) {
    char err[512] = "";
    clv_mod *mod = clv_mod_load(e->dir, err, sizeof err);
    clv_weapon_id ids[APP_MAX_SLOTS * 2];
    if (mod != NULL) {
        const app_mod_entry *twin = same_name(m, e, clv_mod_name(mod));
        if (twin != NULL) {
            char dir[200], other[200], name[100];
            snprintf(err, sizeof err,
                     "%s: a mod named '%s' is already loaded from %s; skipped (rename one)",
                     clv_mod_escape(e->dir, dir, sizeof dir),
                     clv_mod_escape(clv_mod_name(mod), name, sizeof name),
                     clv_mod_escape(twin->dir, other, sizeof other));
            clv_mod_free(mod);
            mod = NULL;
        } else if (clv_mod_weapon_count(mod) > (int32_t)(sizeof ids / sizeof ids[0])) {
            char dir[420];
            snprintf(err, sizeof err, "%s: too many weapons (%d)",
                     clv_mod_escape(e->dir, dir, sizeof dir), (int)clv_mod_weapon_count(mod));
            clv_mod_free(mod);
            mod = NULL;
        } else if (!clv_mod_add_weapons(mod, g->arena, ids, err, sizeof err)) {
            clv_mod_free(mod);
            mod = NULL;
        }
    }
    if (mod == NULL) {
        snprintf(e->error, sizeof e->error, "%s", err[0] ? err : "unknown error");
        snprintf(m->banner, sizeof m->banner, "%s%s",
                 e->mod ? "reload failed, keeping the last good version: " : "", e->error);
        if (report || e->mod != NULL) {
            fprintf(stderr, "cleave: %s\n", m->banner);
        }
        return false;
    }
    snprintf(e->name, sizeof e->name, "%s", clv_mod_name(mod));
    char anim_err[480];
    load_anims(e, mod, anim_err, sizeof anim_err);
    for (int32_t i = 0; i < clv_mod_weapon_count(mod); i++) {
        char label[48], serr[256];
        weapon_label(label, sizeof label, e->name, clv_mod_weapon_name(mod, i));
        int32_t k = app_game_set_slot(g, label, clv_mod_weapon(mod, i), ids[i], serr, sizeof serr);
        if (k < 0) {
            fprintf(stderr, "cleave: %s\n", serr);
        } else if (e->anims[clv_mod_weapon_first(mod, i)].attacks > 0) {
            g->slots[k].anim = &e->anims[clv_mod_weapon_first(mod, i)];
        }
    }
    if (e->mod != NULL) {
        retire_version(g, e->mod, e->ids);
        clv_mod_free(e->mod);
        char dir[520];
        printf("cleave: reloaded %s\n", clv_mod_escape(e->dir, dir, sizeof dir));
        if (strstr(m->banner, e->dir) != NULL || strstr(m->banner, e->name) != NULL) {
            m->banner[0] = '\0';
        }
    }
    e->mod = mod;
    memcpy(e->ids, ids, (size_t)clv_mod_weapon_count(mod) * sizeof ids[0]);
    e->error[0] = '\0';
    if (anim_err[0] != '\0') {
        snprintf(m->banner, sizeof m->banner, "%s", anim_err);
    }
    return true;
}

int32_t app_mods_loaded(const app_mods *m) {
    int32_t n = 0;
    for (int32_t i = 0; i < m->count; i++) {
        n += m->e[i].mod != NULL;
    }
    return n;
}

/* Only mods that loaded count toward APP_MAX_MODS: a broken folder does not push a good one out. */
static bool add_entry(app_mods *m, const char *dir, app_game *g, bool report) {
    if (app_mods_loaded(m) >= APP_MAX_MODS || m->count >= APP_MAX_MOD_FOLDERS) {
        char shown[520];
        fprintf(stderr, "cleave: more than %d mods (or %d mod folders); %s skipped\n", APP_MAX_MODS,
                APP_MAX_MOD_FOLDERS, clv_mod_escape(dir, shown, sizeof shown));
        return false;
    }
    app_mod_entry *e = &m->e[m->count];
    memset(e, 0, sizeof *e);
    int len = snprintf(e->dir, sizeof e->dir, "%s", dir);
    if (len < 0 || (size_t)len >= sizeof e->dir) {
        char shown[520];
        fprintf(stderr, "cleave: a mod folder's path is longer than %d bytes; %s skipped\n",
                (int)sizeof e->dir - 1, clv_mod_escape(dir, shown, sizeof shown));
        return false;
    }
    m->count++;
    e->stamp = mod_stamp(dir);
    return load_entry(m, e, g, report);
}

/* A single mod's first load does not print its error: the caller fails with it (the banner). */
bool app_mods_add(app_mods *m, const char *dir, app_game *g) { return add_entry(m, dir, g, false); }

static int cmp_names(const void *a, const void *b) {
    return strcmp((const char *)a, (const char *)b);
}

void app_mods_open(app_mods *m, const char *root, app_game *g) {
    char shown[520];
    clv_mod_escape(root, shown, sizeof shown);
    DIR *d = opendir(root);
    if (d == NULL) {
        snprintf(m->banner, sizeof m->banner, "no mods folder at %s", shown);
        return;
    }
    char names[APP_MAX_MOD_FOLDERS + 1][128];
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && n < APP_MAX_MOD_FOLDERS + 1) {
        if (de->d_name[0] == '.') {
            continue;
        }
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/mod.lua", root, de->d_name);
        struct stat sb;
        if (stat(path, &sb) == 0 && strlen(de->d_name) < sizeof names[0]) {
            snprintf(names[n++], sizeof names[0], "%.127s", de->d_name);
        }
    }
    closedir(d);
    /* Slots in name order, so 1..9 mean the same weapons on every machine. */
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    for (int i = 0; i < n; i++) {
        char dir[700];
        int w = snprintf(dir, sizeof dir, "%s/%s", root, names[i]);
        if (w > 0 && (size_t)w < sizeof dir) {
            add_entry(m, dir, g, true);
        }
    }
    if (n == 0) {
        snprintf(m->banner, sizeof m->banner,
                 "no mod found in %s (a mod is a folder holding mod.lua)", shown);
    } else if (app_mods_loaded(m) == 0) {
        snprintf(m->banner, sizeof m->banner, "no mod of %s loaded", shown);
    }
}

bool app_mods_poll(app_mods *m, app_game *g) {
    bool changed = false;
    for (int32_t i = 0; i < m->count; i++) {
        app_mod_entry *e = &m->e[i];
        int64_t s = mod_stamp(e->dir);
        if (s != e->stamp) {
            e->stamp = s;
            load_entry(m, e, g, true);
            changed = true;
        }
    }
    return changed;
}

void app_mods_callbacks(app_mods *m, app_game *g) {
    for (int32_t i = 0; i < m->count; i++) {
        app_mod_entry *e = &m->e[i];
        if (e->mod == NULL) {
            continue;
        }
        char err[512] = "";
        if (!clv_mod_run_callbacks(e->mod, g->arena, err, sizeof err)) {
            if (strcmp(e->error, err) != 0) {
                /* the loader escaped err; e->name passed the name check */
                fprintf(stderr, "cleave: %s: callback error: %s\n", e->name, err);
                snprintf(e->error, sizeof e->error, "%s", err);
            }
            snprintf(m->banner, sizeof m->banner, "%s: %s", e->name, err);
        }
    }
}

void app_mods_close(app_mods *m) {
    for (int32_t i = 0; i < m->count; i++) {
        clv_mod_free(m->e[i].mod);
        free_anims(&m->e[i]);
    }
    memset(m, 0, sizeof *m);
}
