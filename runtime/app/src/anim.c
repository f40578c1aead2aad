/* The attacker animated from a mod's Aseprite sheet: `sheet.json` in the mod's folder (the
 * export `cleave render --sheet` reads) and the PNG its meta.image names, beside it. Each
 * attack plays the frames of the tag named like it, drawn in weapon-local space under the
 * hitboxes: one sheet pixel is one unit, the `origin` slice's pivot on the wielder, turned
 * with the swing's facing. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aseprite.h"

/* The sheet's frames for each attack of the weapon, by attack index. */
static bool read_attacks(app_anim *a, const char *json, const char *text, size_t len,
                         const clv_weapon *w, char *err, size_t errlen) {
    a->attacks = clv_weapon_attack_count(w);
    a->attack = calloc((size_t)(a->attacks > 0 ? a->attacks : 1), sizeof *a->attack);
    if (a->attack == NULL) {
        snprintf(err, errlen, "%s: out of memory", json);
        return false;
    }
    for (int32_t i = 0; i < a->attacks; i++) {
        clv_attack_def def;
        char why[400];
        if (clv_weapon_attack(w, i, &def) != CLV_HIT_OK) {
            continue;
        }
        if (!app_aseprite_read(text, len, def.name, &a->attack[i], why, sizeof why)) {
            snprintf(err, errlen, "%s: %s", json, why);
            return false;
        }
    }
    return true;
}

static bool load_image(app_anim *a, const char *dir, char *err, size_t errlen) {
    const char *name = a->attacks > 0 ? a->attack[0].image : "";
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (name[0] == '\0' || strchr(name, '/') != NULL) {
        /* only a file beside the sheet: a mod reads nothing outside its folder */
        snprintf(err, errlen, "%s/sheet.json: meta.image must name a PNG beside it (got '%s')", dir,
                 name);
        return false;
    }
    return app_image_load(path, 16, 16, &a->image, err, errlen);
}

bool app_anim_load(app_anim *a, const char *dir, const clv_weapon *w, char *err, size_t errlen) {
    memset(a, 0, sizeof *a);
    err[0] = '\0';
    char json[1024];
    snprintf(json, sizeof json, "%s/sheet.json", dir);
    struct stat sb;
    if (stat(json, &sb) != 0) {
        return false; /* no sheet: the attacker is the player's sprite */
    }
    size_t len = 0;
    char *text = app_read_json("cleave", json, &len);
    bool ok = text != NULL && read_attacks(a, json, text, len, w, err, errlen) &&
              load_image(a, dir, err, errlen);
    if (text == NULL) {
        snprintf(err, errlen, "%s cannot be read (see above)", json);
    }
    free(text);
    if (!ok) {
        app_anim_free(a);
    }
    return ok;
}

void app_anim_free(app_anim *a) {
    for (int32_t i = 0; a->attack != NULL && i < a->attacks; i++) {
        app_aseprite_free(&a->attack[i]);
    }
    free(a->attack);
    app_image_free(&a->image);
    memset(a, 0, sizeof *a);
}

bool app_anim_draw(app_canvas *c, const app_anim *a, int32_t attack, int32_t frame, clv_vec2 at,
                   float scale, float facing, bool mirror) {
    if (a == NULL || attack < 0 || attack >= a->attacks || a->attack[attack].frames <= 0) {
        return false;
    }
    app_image sprite;
    if (!app_aseprite_sprite(&a->attack[attack], &a->image, frame, &sprite)) {
        return false;
    }
    app_blit_turned(c, &sprite, at, a->attack[attack].origin, scale, facing, mirror);
    app_image_free(&sprite);
    return true;
}
