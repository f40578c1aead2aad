/* One mod loaded for a command, and the weapon it looks at placed in an arena. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "cleave/mod.h"

/* The mod folder an argument names: the folder itself, or the folder of a mod.lua given in its
 * place. */
const char *app_mod_folder(const char *arg, char *buf, size_t n) {
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

bool app_pick_open(const char *dir, app_picked *p) {
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

bool app_pick_weapon(app_picked *p, int32_t index) {
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

void app_pick_close(app_picked *p) {
    clv_arena_destroy(p->arena);
    clv_mod_free(p->mod);
}
