/* Fuzz target: the mod loader. Each input is written as mod.lua of a scratch mod folder and
 * loaded with clv_mod_load_with (the real sandbox, small limits); a mod that loads has its
 * weapons and bodies added to an arena, its bodies played by the targets (some guarding, one
 * in the air), every attack started, 40 frames stepped with its callbacks, and a throw
 * started whenever the owner holds a target.
 * Run with -timeout=1: the load deadline must stop any loop long before that.
 *
 * Invariants: nothing crashes or trips a sanitizer (leaks included); a failed load gives one
 * line naming the mod's file, or a memory error; a loaded mod has at least one weapon, a name
 * and a version.
 */
#define _XOPEN_SOURCE 700
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleave/mod.h"

static char g_dir[256];
static char g_file[300];

static void setup(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/clv_fuzz_mod_XXXXXX", tmp != NULL && *tmp ? tmp : P_tmpdir);
    if (mkdtemp(g_dir) == NULL) {
        perror("fuzz_modload: mkdtemp");
        abort();
    }
    snprintf(g_file, sizeof g_file, "%s/mod.lua", g_dir);
}

static void cleanup(void) {
    remove(g_file);
    rmdir(g_dir);
}

static void swing_all(clv_mod *mod) {
    char err[1024];
    clv_arena *arena = clv_arena_create(NULL, NULL);
    int32_t wc = clv_mod_weapon_count(mod);
    clv_weapon_id *ids = calloc((size_t)wc, sizeof *ids);
    if (arena == NULL || ids == NULL || !clv_mod_add_weapons(mod, arena, ids, err, sizeof err)) {
        fprintf(stderr, "fuzz_modload: add_weapons failed: %s\n", err);
        abort();
    }
    int32_t bc = clv_mod_body_count(mod);
    clv_body_id *bodies = calloc((size_t)bc + 1, sizeof *bodies);
    if (bodies == NULL || !clv_mod_add_bodies(mod, arena, bodies, err, sizeof err)) {
        fprintf(stderr, "fuzz_modload: add_bodies failed: %s\n", err);
        abort();
    }
    clv_entity_def ed = clv_default_entity_def();
    ed.team = 1;
    clv_entity_id owner;
    clv_arena_spawn(arena, &ed, &owner, NULL);
    ed.team = 2;
    for (int i = 0; i < 6; i++) {
        ed.position = clv_v2(20.0f * (float)(i % 3), 15.0f * (float)(i / 3) - 8.0f);
        clv_entity_id target;
        if (clv_arena_spawn(arena, &ed, &target, NULL) == CLV_HIT_OK && bc > 0) {
            /* the mod's bodies, facing the owner, some guarding, some in the air */
            clv_arena_play(arena, target, bodies[i % bc], 0);
            clv_arena_set_facing(arena, target, 3.14159265f, i % 2 == 1);
            clv_arena_set_state(arena, target, i % 3 == 0 ? CLV_HURT_GUARD : CLV_HURT_NORMAL, 0);
            clv_arena_set_airborne(arena, target, i == 4);
        }
    }
    for (int32_t w = 0; w < wc; w++) {
        for (int32_t a = 0; a < clv_weapon_attack_count(clv_mod_weapon(mod, w)); a++) {
            clv_attack_start_def sd = clv_default_attack_start_def();
            sd.weapon = ids[w];
            sd.attack = a;
            sd.owner = owner;
            clv_arena_start_attack(arena, &sd, NULL, NULL);
        }
    }
    for (int f = 0; f < 40; f++) {
        clv_arena_step(arena);
        (void)clv_mod_run_callbacks(mod, arena, err, sizeof err);
        clv_entity_body_info bi;
        if (f % 10 == 9 && clv_arena_entity_body(arena, owner, &bi) == CLV_HIT_OK &&
            bi.holding.index1 != 0) { /* a grab held: throw with the first attack */
            clv_attack_start_def sd = clv_default_attack_start_def();
            sd.weapon = ids[0];
            sd.owner = owner;
            clv_arena_throw(arena, &sd, NULL, NULL);
        }
    }
    free(bodies);
    free(ids);
    clv_arena_destroy(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (g_dir[0] == '\0') {
        setup();
        atexit(cleanup);
    }
    FILE *f = fopen(g_file, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size) {
        perror("fuzz_modload: write");
        abort();
    }
    fclose(f);
    clv_mod_limits limits = clv_mod_default_limits();
    limits.memory_bytes = (size_t)4 << 20;
    limits.load_ms = 50;
    limits.callback_ms = 5;
    char err[2048];
    clv_mod *mod = clv_mod_load_with(g_dir, &limits, err, sizeof err);
    if (mod == NULL) {
        if (strchr(err, '\n') != NULL ||
            (strstr(err, g_file) == NULL && strstr(err, "not enough memory") == NULL)) {
            fprintf(stderr, "fuzz_modload: the message does not name the file: %s\n", err);
            abort();
        }
        return 0;
    }
    if (clv_mod_weapon_count(mod) < 1 || clv_mod_name(mod)[0] == '\0' ||
        clv_mod_version(mod)[0] == '\0') {
        fprintf(stderr, "fuzz_modload: a loaded mod without a weapon, name or version\n");
        abort();
    }
    swing_all(mod);
    clv_mod_free(mod);
    return 0;
}
