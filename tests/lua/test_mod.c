/* cleave/mod.h as the demo uses it: load a mod folder, copy its weapons into a C arena, step,
 * run the mod's callbacks; load errors name file, line and field. Runs from the source root. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleave/mod.h"
#include "harness.h"

static void test_load_example(void) {
    char err[1024] = "";
    clv_mod *mod = clv_mod_load("mods/scythe", err, sizeof err);
    CHECK(mod != NULL);
    if (mod == NULL) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    CHECK(strcmp(clv_mod_name(mod), "scythe") == 0);
    CHECK(strcmp(clv_mod_version(mod), "1.0.0") == 0);
    CHECK(clv_mod_weapon_count(mod) == 1);
    CHECK(strcmp(clv_mod_weapon_name(mod, 0), "scythe") == 0);
    CHECK(clv_mod_weapon_name(mod, 1) == NULL);
    CHECK(clv_mod_weapon(mod, -1) == NULL);
    const clv_weapon *w = clv_mod_weapon(mod, 0);
    CHECK(w != NULL);
    int32_t swing = clv_weapon_find_attack(w, "swing");
    CHECK(swing == 0);
    CHECK(clv_weapon_frame_hitbox_count(w, swing, 5) == 2); /* frame 6 in Lua */
    CHECK(clv_weapon_frame_hitbox_count(w, swing, 4) == 0);

    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_weapon_id id;
    CHECK(clv_mod_run_callbacks(mod, arena, err, sizeof err) == false); /* not added yet */
    CHECK(strcmp(err, "the mod's weapons were not added to this arena") == 0);
    CHECK(clv_mod_add_weapons(mod, arena, &id, err, sizeof err));
    clv_entity_def ed = clv_default_entity_def();
    ed.team = 1;
    clv_entity_id player, target;
    CHECK(clv_arena_spawn(arena, &ed, &player, NULL) == CLV_HIT_OK);
    ed.team = 2;
    ed.position = clv_v2(74, -13);
    ed.hurtboxes[0].u.circle.r = 6;
    CHECK(clv_arena_spawn(arena, &ed, &target, NULL) == CLV_HIT_OK);
    clv_attack_start_def sd = clv_default_attack_start_def();
    sd.weapon = id;
    sd.attack = swing;
    sd.owner = player;
    CHECK(clv_arena_start_attack(arena, &sd, NULL, NULL) == CLV_HIT_OK);
    int hits = 0, ticks = 0;
    for (int f = 0; f < 90; f++) {
        CHECK(clv_arena_step(arena) == CLV_HIT_OK);
        int32_t n;
        clv_arena_hits(arena, &n);
        hits += n;
        clv_arena_ticks(arena, &n);
        ticks += n;
        if (!clv_mod_run_callbacks(mod, arena, err, sizeof err)) {
            CHECK(false);
            fprintf(stderr, "  %s\n", err);
        }
    }
    CHECK(hits == 1);  /* the blade, once (the handle loses on precedence) */
    CHECK(ticks == 3); /* bleed: 60 frames, a tick every 20 */
    clv_entity_info info;
    CHECK(clv_arena_entity(arena, target, &info) == CLV_HIT_OK);
    CHECK_NEAR(info.hp, 100.0f - 12.0f - 6.0f, 1e-4f);
    clv_arena_destroy(arena);
    clv_mod_free(mod);
}

/* Writes a mod folder under a fresh temporary folder; returns the folder (static storage). */
static const char *write_mod(const char *source) {
    static char dir[256];
    char root[] = "/tmp/clv_mod_XXXXXX";
    if (mkdtemp(root) == NULL) {
        return NULL;
    }
    snprintf(dir, sizeof dir, "%s/m", root);
    char path[300];
    snprintf(path, sizeof path, "mkdir '%s'", dir);
    if (system(path) != 0) {
        return NULL;
    }
    snprintf(path, sizeof path, "%s/mod.lua", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return NULL;
    }
    fputs(source, f);
    fclose(f);
    return dir;
}

static void remove_mod(const char *dir) {
    char path[300];
    if (snprintf(path, sizeof path, "%s/mod.lua", dir) < (int)sizeof path) {
        remove(path);
    }
    remove(dir);
    int len = snprintf(path, sizeof path, "%s", dir);
    char *slash = len < (int)sizeof path ? strrchr(path, '/') : NULL;
    if (slash != NULL) {
        *slash = '\0';
        remove(path);
    }
}

static void test_load_errors(void) {
    char err[1024];
    CHECK(clv_mod_load("no/such/folder", err, sizeof err) == NULL);
    CHECK(strcmp(err, "cannot open no/such/folder/mod.lua (a mod folder holds mod.lua)") == 0);
    const char *dir =
        write_mod("return { name = 'x', version = '1', weapons = {\n"
                  "  w = cleave.weapon { attacks = { swing = { frames = {\n"
                  "    [6] = { { id = 'a', x = 0, y = 0, radius = 1 },\n"
                  "            { id = 'b', x = 0, y = 0, radius = -3 } } } } } } } }\n");
    CHECK(dir != NULL);
    if (dir == NULL) {
        return;
    }
    CHECK(clv_mod_load(dir, err, sizeof err) == NULL);
    char want[512];
    snprintf(want, sizeof want,
             "%s/mod.lua:2: attacks.swing.frames[6][2].radius must be >= 0 (got -3)", dir);
    CHECK(strcmp(err, want) == 0);
    if (strcmp(err, want) != 0) {
        fprintf(stderr, "  got: %s\n", err);
    }
    remove_mod(dir);
}

static void test_callback_errors(void) {
    const char *dir = write_mod(
        "local w = cleave.weapon { name = 'w', on_hit = function(hit) error('boom') end,\n"
        "  attacks = { a = { hitboxes = { { id = 'p', frames = 1, x = 20, y = 0, radius = 4 } } } "
        "} }\n"
        "return { name = 'x', version = '1', weapons = { w = w } }\n");
    CHECK(dir != NULL);
    if (dir == NULL) {
        return;
    }
    char err[1024];
    clv_mod *mod = clv_mod_load(dir, err, sizeof err);
    CHECK(mod != NULL);
    if (mod == NULL) {
        remove_mod(dir);
        return;
    }
    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_weapon_id id;
    CHECK(clv_mod_add_weapons(mod, arena, &id, err, sizeof err));
    clv_entity_def ed = clv_default_entity_def();
    clv_entity_id player, target;
    ed.team = 1;
    clv_arena_spawn(arena, &ed, &player, NULL);
    ed.team = 2;
    ed.position = clv_v2(20, 0);
    clv_arena_spawn(arena, &ed, &target, NULL);
    clv_attack_start_def sd = clv_default_attack_start_def();
    sd.weapon = id;
    sd.owner = player;
    clv_arena_start_attack(arena, &sd, NULL, NULL);
    clv_arena_step(arena);
    uint64_t before = clv_arena_hash(arena);
    CHECK(clv_mod_run_callbacks(mod, arena, err, sizeof err) == false);
    char want[512];
    snprintf(want, sizeof want, "%s/mod.lua:1: boom", dir);
    CHECK(strncmp(err, want, strlen(want)) == 0);
    CHECK(clv_arena_hash(arena) == before); /* the callback's failure changed nothing */
    clv_arena_destroy(arena);
    clv_mod_free(mod);
    remove_mod(dir);
}

/* Two mods whose swings clank in a C arena: each mod's on_clash hears its own side, with the
 * other weapon's name (a callback's error is how a C host sees what it was told). */
static void test_clash_callbacks(void) {
    static const char *const names[2] = {"light", "heavy"};
    static const int damage[2] = {10, 15};
    char dirs[2][256], err[1024];
    clv_mod *mods[2] = {NULL, NULL};
    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_entity_def ed = clv_default_entity_def();
    for (int k = 0; k < 2; k++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "local w = cleave.weapon { name = '%s',\n"
                 "  on_clash = function(c) error(('%%s side %%d vs %%s'):format(c.kind, c.side,\n"
                 "    c.sides[3 - c.side].weapon), 0) end,\n"
                 "  attacks = { swing = { length = 10, hitboxes = { { id = 'blade', frames = 1,\n"
                 "    ax = 10, ay = 0, bx = 40, by = 0, radius = 3, damage = %d, hitlag = 0,\n"
                 "    hitstun = 0 } } } } }\n"
                 "return { name = '%s', version = '1', weapons = { w = w } }\n",
                 names[k], damage[k], names[k]);
        const char *dir = write_mod(src);
        CHECK(dir != NULL);
        if (dir == NULL) {
            return;
        }
        snprintf(dirs[k], sizeof dirs[k], "%s", dir);
        mods[k] = clv_mod_load(dirs[k], err, sizeof err);
        CHECK(mods[k] != NULL);
        clv_weapon_id id = {0};
        CHECK(mods[k] != NULL && clv_mod_add_weapons(mods[k], arena, &id, err, sizeof err));
        ed.team = k + 1;
        ed.position = clv_v2(45.0f * (float)k, 0);
        clv_entity_id owner;
        CHECK(clv_arena_spawn(arena, &ed, &owner, NULL) == CLV_HIT_OK);
        clv_attack_start_def sd = clv_default_attack_start_def();
        sd.weapon = id;
        sd.owner = owner;
        sd.facing = k == 0 ? 0.0f : (float)CLV_PI;
        CHECK(clv_arena_start_attack(arena, &sd, NULL, NULL) == CLV_HIT_OK);
    }
    CHECK(clv_arena_step(arena) == CLV_HIT_OK);
    int32_t n;
    clv_arena_clashes(arena, &n);
    CHECK(n == 1);
    for (int k = 0; k < 2 && mods[k] != NULL; k++) {
        CHECK(!clv_mod_run_callbacks(mods[k], arena, err, sizeof err));
        char want[128];
        snprintf(want, sizeof want, "clank side %d vs %s", k + 1, names[1 - k]);
        CHECK(strstr(err, want) != NULL);
        if (strstr(err, want) == NULL) {
            fprintf(stderr, "  want %s, got: %s\n", want, err);
        }
    }
    clv_arena_destroy(arena);
    for (int k = 0; k < 2; k++) {
        clv_mod_free(mods[k]);
        remove_mod(dirs[k]);
    }
}

/* A mod's bodies: listed in name order, copied into an arena that then plays them; a body
 * that is no cleave.Body is refused by file and name. */
static void test_bodies(void) {
    const char *dir = write_mod(
        "local function body(name, r)\n"
        "  return cleave.body { name = name, guard = { meter = 30 }, animations = {\n"
        "    stand = { length = 1, hurtboxes = { { id = 't', x = 0, y = 0, radius = r } } } } }\n"
        "end\n"
        "return { name = 'b', version = '1', bodies = { zed = body('zed', 5), amy = body('amy', "
        "7) },\n"
        "  weapons = { w = cleave.weapon { attacks = { a = { length = 1, hitboxes = {\n"
        "    { id = 'x', frames = 1, x = 0, y = 0, radius = 1 } } } } } } }\n");
    CHECK(dir != NULL);
    if (dir == NULL) {
        return;
    }
    char err[1024] = "";
    clv_mod *mod = clv_mod_load(dir, err, sizeof err);
    CHECK(mod != NULL);
    if (mod == NULL) {
        fprintf(stderr, "  %s\n", err);
        remove_mod(dir);
        return;
    }
    CHECK(clv_mod_body_count(mod) == 2);
    CHECK(strcmp(clv_mod_body_name(mod, 0), "amy") == 0);
    CHECK(strcmp(clv_mod_body_name(mod, 1), "zed") == 0);
    CHECK(clv_mod_body_name(mod, 2) == NULL && clv_mod_body(mod, -1) == NULL);
    CHECK(strcmp(clv_body_name(clv_mod_body(mod, 1)), "zed") == 0);
    CHECK(clv_body_guard(clv_mod_body(mod, 0)).meter == 30.0f);
    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_body_id ids[2];
    CHECK(clv_mod_add_bodies(mod, arena, ids, err, sizeof err));
    clv_entity_def e = clv_default_entity_def();
    clv_entity_id ent;
    CHECK(clv_arena_spawn(arena, &e, &ent, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_play(arena, ent, ids[0], 0) == CLV_HIT_OK);
    clv_shape s[4];
    CHECK(clv_arena_entity_hurtboxes(arena, ent, s, NULL, 4) == 1);
    CHECK(s[0].type == CLV_CIRCLE && s[0].u.circle.r == 7.0f); /* amy's */
    clv_arena_destroy(arena);
    clv_mod_free(mod);
    remove_mod(dir);

    dir = write_mod("return { name = 'b', version = '1', bodies = { knight = 3 },\n"
                    "  weapons = { w = cleave.weapon { attacks = { a = { length = 1, hitboxes = {\n"
                    "    { id = 'x', frames = 1, x = 0, y = 0, radius = 1 } } } } } } }\n");
    CHECK(dir != NULL);
    if (dir == NULL) {
        return;
    }
    CHECK(clv_mod_load(dir, err, sizeof err) == NULL);
    char want[512];
    snprintf(want, sizeof want, "%s/mod.lua: bodies.knight must be a cleave.Body (got number)",
             dir);
    CHECK(strcmp(err, want) == 0);
    if (strcmp(err, want) != 0) {
        fprintf(stderr, "  got: %s\n", err);
    }
    remove_mod(dir);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_load_example);
    RUN(test_load_errors);
    RUN(test_callback_errors);
    RUN(test_clash_callbacks);
    RUN(test_bodies);
    return clv_test_report();
}
