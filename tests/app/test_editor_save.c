/* The edit mode's save is a transaction: a model that cleave_hit refuses is not written, the
 * refusal reads as a reload's would (frame, hitbox, field, value), and nothing is lost — the
 * frames file, the running weapon, the editor's model and its undo history stay as they were.
 * A save whose file cannot be written loses nothing either. No editor action can make a hitbox
 * the checks refuse (radii, damage and limits are clamped), so the refused model is set up
 * here directly, as a bug or a future action could leave it. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"
#include "editor.h"
#include "harness.h"

#define WORK "editsave"
#define FRAMES_FILE WORK "/frames/swing.lua"

/* The whole file, malloc'd and NUL-terminated, or NULL. */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    char *buf = calloc(1, 1 << 16);
    size_t n = buf != NULL ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    if (buf != NULL) {
        buf[n] = '\0';
    }
    return buf;
}

typedef struct fixture {
    app_game g;
    app_mods m;
    app_editor e;
    char *original; /* the frames file before any save */
} fixture;

/* The blade mod of tests/app/edit copied aside, loaded, and the edit mode turned on. */
static bool open_fixture(fixture *fx) {
    memset(fx, 0, sizeof *fx);
    char err[256];
    if (system("rm -rf " WORK " && cp -R " CLEAVE_SOURCE_DIR "/tests/app/edit/blade " WORK) != 0 ||
        !app_game_init(&fx->g, 0, 1, -1.0f, err, sizeof err) ||
        !app_mods_add(&fx->m, WORK, &fx->g)) {
        return false;
    }
    app_ed_action toggle = {APP_ED_TOGGLE, 0.0f, 0.0f, false, 0};
    app_editor_apply(&fx->e, &fx->g, &fx->m, &toggle);
    fx->original = slurp(FRAMES_FILE);
    return fx->e.on && fx->e.count > 0 && fx->original != NULL;
}

static void close_fixture(fixture *fx) {
    free(fx->original);
    app_editor_free(&fx->e);
    app_mods_close(&fx->m);
    app_game_free(&fx->g);
}

static void save(fixture *fx) {
    app_ed_action a = {APP_ED_KEY, 0.0f, 0.0f, false, APP_EK_SAVE};
    app_editor_apply(&fx->e, &fx->g, &fx->m, &a);
}

/* The radius the running weapon's hitbox k of frame fr has. */
static float running_radius(const fixture *fx, int32_t fr, int32_t k) {
    const clv_hitbox_def *h = clv_arena_hitbox(fx->g.arena, fx->g.slots[0].id, 0, fr, k);
    return h != NULL ? h->shape.u.capsule.r : -1.0f;
}

static void test_invalid_model_is_refused_and_loses_nothing(void) {
    fixture fx;
    CHECK(open_fixture(&fx));
    if (!fx.e.on) {
        close_fixture(&fx);
        return;
    }
    /* an edit the undo history holds (damage +1 on every frame of the board)... */
    app_ed_action sel = {APP_ED_PRESS, 250.0f, 230.0f, false, 0};
    app_ed_action up = {APP_ED_KEY, 0.0f, 0.0f, false, APP_EK_RIGHT};
    app_editor_apply(&fx.e, &fx.g, &fx.m, &sel);
    app_editor_apply(&fx.e, &fx.g, &fx.m, &up);
    CHECK(fx.e.sel >= 0 && fx.e.undo_count == 1);
    /* ...and a radius the checks refuse on the board's second frame */
    app_ed_box *bad = &fx.e.box[1];
    CHECK(bad->frame == 4 && strcmp(bad->def.id, "board") == 0);
    bad->def.shape.u.capsule.r = -3.0f;
    int32_t count = fx.e.count;
    save(&fx);
    fprintf(stderr, "message: %s\n", fx.e.message);
    CHECK(strncmp(fx.e.message, "save refused: frame 5, hitbox 'board': ", 39) == 0);
    CHECK(strstr(fx.e.message, "radius") != NULL || strstr(fx.e.message, "shape.r") != NULL);
    CHECK(strstr(fx.e.message, "-3") != NULL);
    /* nothing lost: the file, the running weapon, the model with its edits, the history */
    char *now = slurp(FRAMES_FILE);
    CHECK(now != NULL && strcmp(now, fx.original) == 0);
    free(now);
    struct stat sb;
    CHECK(stat(FRAMES_FILE ".tmp", &sb) != 0);
    CHECK(running_radius(&fx, 4, 0) == 2.0f);
    CHECK(fx.e.on && fx.e.count == count && fx.e.box[1].def.shape.u.capsule.r == -3.0f);
    CHECK(fx.e.box[0].def.damage == 7.0f && fx.e.undo_count == 1);
    CHECK(fx.m.banner[0] == '\0');
    /* fixed, the same save goes through and the running weapon takes the edit */
    fx.e.box[1].def.shape.u.capsule.r = 2.5f;
    save(&fx);
    CHECK(strncmp(fx.e.message, "saved ", 6) == 0);
    CHECK(running_radius(&fx, 4, 0) == 2.5f);
    close_fixture(&fx);
}

static void test_unwritable_file_loses_nothing(void) {
    fixture fx;
    CHECK(open_fixture(&fx));
    if (!fx.e.on) {
        close_fixture(&fx);
        return;
    }
    /* the save writes FILE.tmp then renames it: a folder in that place makes the write fail,
     * for root too */
    CHECK(mkdir(FRAMES_FILE ".tmp", 0755) == 0);
    fx.e.box[0].def.damage = 9.0f;
    save(&fx);
    fprintf(stderr, "message: %s\n", fx.e.message);
    CHECK(strstr(fx.e.message, "save failed: cannot write " FRAMES_FILE ".tmp") != NULL);
    char *now = slurp(FRAMES_FILE);
    CHECK(now != NULL && strcmp(now, fx.original) == 0);
    free(now);
    CHECK(fx.e.box[0].def.damage == 9.0f);
    const clv_hitbox_def *h = clv_arena_hitbox(fx.g.arena, fx.g.slots[0].id, 0, 3, 0);
    CHECK(h != NULL && h->damage == 6.0f);
    CHECK(rmdir(FRAMES_FILE ".tmp") == 0);
    save(&fx);
    CHECK(strncmp(fx.e.message, "saved ", 6) == 0);
    h = clv_arena_hitbox(fx.g.arena, fx.g.slots[0].id, 0, 3, 0);
    CHECK(h != NULL && h->damage == 9.0f);
    close_fixture(&fx);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_invalid_model_is_refused_and_loses_nothing);
    RUN(test_unwritable_file_loses_nothing);
    return clv_test_report();
}
