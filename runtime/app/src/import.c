/* `cleave import aseprite sheet.json --attack NAME --out FILE`: an Aseprite sheet's frames and
 * slices written as a frames file (docs/modding.md, "Frames files"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aseprite.h"

static const char *const import_usage =
    "usage: cleave import aseprite <sheet.json> --attack NAME --out mods/<name>/frames/NAME.lua";

/* Largest JSON read: a sheet of a thousand frames and slices is far below it. */
#define IMPORT_MAX_BYTES (16u << 20)

typedef struct import_args {
    const char *json, *attack, *out;
} import_args;

static bool parse_import_args(int argc, char **argv, import_args *a) {
    memset(a, 0, sizeof *a);
    if (argc < 1 || strcmp(argv[0], "aseprite") != 0) {
        fprintf(stderr, "cleave import: the only format is aseprite (%s)\n", import_usage);
        return false;
    }
    for (int i = 1; i < argc; i++) {
        bool value = strcmp(argv[i], "--attack") == 0 || strcmp(argv[i], "--out") == 0;
        if (value && i + 1 == argc) {
            fprintf(stderr, "cleave import: %s needs a value (%s)\n", argv[i], import_usage);
            return false;
        }
        if (value) {
            *(argv[i][2] == 'a' ? &a->attack : &a->out) = argv[i + 1];
            i++;
        } else if (argv[i][0] != '-' && a->json == NULL) {
            a->json = argv[i];
        } else {
            fprintf(stderr, "cleave import: %s '%s' (%s)\n",
                    argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i],
                    import_usage);
            return false;
        }
    }
    if (a->json == NULL || a->attack == NULL || a->out == NULL) {
        fprintf(stderr, "cleave import: %s (%s)\n",
                a->json == NULL ? "no sheet given" : "--attack and --out are required",
                import_usage);
        return false;
    }
    return true;
}

char *app_read_json(const char *who, const char *path, size_t *len) {
    const char *why = NULL;
    FILE *f = app_open_regular(path, &why);
    if (f == NULL) {
        fprintf(stderr, "%s: %s: %s\n", who, path, why);
        return NULL;
    }
    char *buf = malloc(IMPORT_MAX_BYTES + 1);
    *len = buf != NULL ? fread(buf, 1, IMPORT_MAX_BYTES + 1, f) : 0;
    bool bad = buf == NULL || ferror(f) || *len > IMPORT_MAX_BYTES;
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: %s: %s\n", who, path,
                buf == NULL ? "out of memory" : "cannot be read, or larger than 16 MiB");
        free(buf);
        return NULL;
    }
    buf[*len] = '\0';
    return buf;
}

static const clv_hitbox_def *sheet_hitbox(void *ud, int32_t fr, int32_t k) {
    const app_aseprite *a = ud;
    for (int32_t i = 0; i < a->count; i++) {
        if (a->box[i].frame == fr && k-- == 0) {
            return &a->box[i].def;
        }
    }
    return NULL;
}

int app_cmd_import(int argc, char **argv) {
    import_args a;
    if (!parse_import_args(argc, argv, &a)) {
        return 2;
    }
    size_t len;
    char *text = app_read_json("cleave import", a.json, &len);
    if (text == NULL) {
        return 1;
    }
    app_aseprite sheet;
    char err[512];
    bool ok = app_aseprite_read(text, len, a.attack, &sheet, err, sizeof err);
    free(text);
    if (!ok) {
        fprintf(stderr, "cleave import: %s: %s\n", a.json, err);
        return 1;
    }
    clv_attack_def def = clv_default_attack_def();
    snprintf(def.name, sizeof def.name, "%s", a.attack);
    def.frames = sheet.frames;
    app_frames_src src = {"aseprite", &def, sheet_hitbox, &sheet, NULL};
    ok = app_frames_write(a.out, &src, err, sizeof err);
    if (ok) {
        printf("cleave: %s: %d frames, %d hitbox frames, from sprite frames %d-%d of %s\n", a.out,
               (int)sheet.frames, (int)sheet.count, (int)sheet.first, (int)sheet.last, a.json);
    } else {
        fprintf(stderr, "cleave import: %s: %s\n", a.out, err);
    }
    if (sheet.notes[0] != '\0') {
        fprintf(stderr, "cleave import: not mapped as it stands:\n%s", sheet.notes);
    }
    app_aseprite_free(&sheet);
    return ok ? 0 : 1;
}
