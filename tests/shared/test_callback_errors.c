/* clv_mod_run_callbacks reports every callback error of a frame, as a list in the caller's
 * buffer: each message followed by a NUL, the list by an empty message. tests/shared/mods/lua54
 * raises in its on_hit; its rod hits two targets on the first frame, so two errors.
 * usage: shared_test_callback_errors SOURCE_DIR */
#include <stdio.h>
#include <string.h>

#include "cleave/mod.h"

static int failures;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        failures++;
    }
}

/* The number of messages in the list err; each must begin with "on_hit: integer 4". */
static int count_messages(const char *err, size_t errlen) {
    int n = 0;
    size_t at = 0;
    while (at < errlen && err[at] != '\0') {
        check(strncmp(err + at, "on_hit: integer 4", 17) == 0, "a message is the rod's error");
        at += strlen(err + at) + 1;
        n++;
    }
    check(at < errlen, "the list ends inside the buffer");
    return n;
}

/* An arena where the rod has just hit two targets. */
static clv_arena *two_hits(clv_mod *mod) {
    char err[256];
    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_weapon_id wid;
    check(clv_mod_add_weapons(mod, arena, &wid, err, sizeof err), "add the rod");
    clv_entity_def ed = clv_default_entity_def();
    ed.team = 1;
    clv_entity_id owner;
    clv_arena_spawn(arena, &ed, &owner, NULL);
    ed.team = 2;
    for (int k = 0; k < 2; k++) {
        ed.position = clv_v2(20.0f, k == 0 ? -3.0f : 3.0f);
        clv_arena_spawn(arena, &ed, NULL, NULL);
    }
    clv_attack_start_def sd = clv_default_attack_start_def();
    sd.weapon = wid;
    sd.owner = owner;
    check(clv_arena_start_attack(arena, &sd, NULL, NULL) == CLV_HIT_OK, "start the poke");
    check(clv_arena_step(arena) == CLV_HIT_OK, "step");
    int32_t n;
    clv_arena_hits(arena, &n);
    check(n == 2, "two hits on the first frame");
    return arena;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s SOURCE_DIR\n", argv[0]);
        return 2;
    }
    char dir[1024], err[4096];
    snprintf(dir, sizeof dir, "%s/tests/shared/mods/lua54", argv[1]);
    clv_mod *mod = clv_mod_load(dir, err, sizeof err);
    if (mod == NULL) {
        fprintf(stderr, "FAIL: load: %s\n", err);
        return 1;
    }
    clv_arena *arena = two_hits(mod);

    check(!clv_mod_run_callbacks(mod, arena, err, sizeof err), "the callbacks fail");
    size_t first = strlen(err);
    check(count_messages(err, sizeof err) == 2, "both errors are in the list");

    /* room for the first message only: the second is left out, the list still ends */
    char small[4096];
    memset(small, 'x', sizeof small);
    check(!clv_mod_run_callbacks(mod, arena, small, first + 3), "the callbacks fail again");
    check(count_messages(small, first + 3) == 1, "one whole message fits");
    check(strlen(small) == first, "the first is whole");

    /* less room than the first: it is cut, and the list still ends */
    memset(small, 'x', sizeof small);
    check(!clv_mod_run_callbacks(mod, arena, small, 12), "the callbacks fail a third time");
    check(strlen(small) == 10 && small[11] == '\0', "the first is cut to fit");

    clv_arena_destroy(arena);
    clv_mod_free(mod);
    if (failures == 0) {
        printf("callback errors: every one in the list, cut to fit\n");
    }
    return failures == 0 ? 0 : 1;
}
