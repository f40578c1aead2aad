/* Hot reload as a transaction (cleave/mod.h clv_mod_reload): a scripted run of 50 broken and
 * 50 valid edits of one mod folder, checking after each which version is active and what the
 * message says, and a proof that an attack in flight finishes with the weapon it started with
 * after the mod it came from was swapped out and freed. */
#define _XOPEN_SOURCE 700
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cleave/mod.h"
#include "harness.h"

static char g_dir[256];
static char g_file[280];

static bool make_dir(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/clv_reload_XXXXXX", tmp != NULL && *tmp ? tmp : P_tmpdir);
    if (mkdtemp(g_dir) == NULL) {
        return false;
    }
    snprintf(g_file, sizeof g_file, "%s/mod.lua", g_dir);
    return true;
}

static void write_bytes(const void *data, size_t len) {
    FILE *f = fopen(g_file, "wb");
    CHECK(f != NULL);
    if (f != NULL) {
        CHECK(fwrite(data, 1, len, f) == len);
        fclose(f);
    }
}

static void write_text(const char *text) { write_bytes(text, strlen(text)); }

/* Version k of the mod: one weapon whose only hitbox deals k damage on frames 3..4, and (on
 * odd k) a selftest that passes. */
static void valid_source(int k, char *out, size_t outlen) {
    snprintf(out, outlen,
             "local w = cleave.weapon { name = 'w', attacks = { swing = { hitboxes = {\n"
             "  { id = 'blade', frames = {3, 4}, x = 20, y = 0, radius = 6, damage = %d } } } } }\n"
             "return { name = 'edit', version = 'v%d', weapons = { w = w }%s }\n",
             k, k,
             k % 2 == 1 ? ",\n  selftest = function(mod) assert(mod.weapons.w ~= nil) end" : "");
}

/* Damage dealt by the mod's weapon to a target in front of its owner (0 when it misses). */
static float swing_damage(const clv_mod *mod) {
    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_weapon_id wid;
    clv_hit_diag diag;
    if (arena == NULL ||
        clv_arena_add_weapon(arena, clv_mod_weapon(mod, 0), &wid, &diag) != CLV_HIT_OK) {
        clv_arena_destroy(arena);
        return -1;
    }
    clv_entity_def ed = clv_default_entity_def();
    ed.team = 1;
    clv_entity_id owner;
    clv_arena_spawn(arena, &ed, &owner, NULL);
    ed.team = 2;
    ed.position = clv_v2(22, 0);
    clv_arena_spawn(arena, &ed, NULL, NULL);
    clv_attack_start_def sd = clv_default_attack_start_def();
    sd.weapon = wid;
    sd.attack = 0;
    sd.owner = owner;
    clv_arena_start_attack(arena, &sd, NULL, NULL);
    float damage = 0;
    for (int f = 0; f < 10; f++) {
        clv_arena_step(arena);
        int32_t n;
        const clv_hit_event *h = clv_arena_hits(arena, &n);
        for (int32_t i = 0; i < n; i++) {
            damage += h[i].damage;
        }
    }
    clv_arena_destroy(arena);
    return damage;
}

/* A valid chunk compiled to bytecode by a plain Lua state. */
static int dump_writer(lua_State *L, const void *p, size_t sz, void *ud) {
    (void)L;
    luaL_addlstring((luaL_Buffer *)ud, (const char *)p, sz);
    return 0;
}

static void write_bytecode(void) {
    lua_State *L = luaL_newstate();
    CHECK(luaL_loadstring(L, "return { name = 'edit', version = 'bytecode' }") == LUA_OK);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    /* the function stays below the buffer's slot */
    lua_pushvalue(L, 1);
    lua_dump(L, dump_writer, &b, 0);
    lua_pop(L, 1);
    luaL_pushresult(&b);
    size_t len;
    const char *code = lua_tolstring(L, -1, &len);
    CHECK(len > 4 && code[0] == '\x1b');
    write_bytes(code, len);
    lua_close(L);
}

static uint32_t g_rng = 0x9e3779b9u;

static uint32_t next_rand(void) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 17;
    g_rng ^= g_rng << 5;
    return g_rng;
}

/* Writes broken edit number i (of a cycle of kinds); sets the text the message must hold. */
static const char *write_broken(int i, char *want, size_t wantlen) {
    char src[1024];
    switch (i % 10) {
    case 0:
        write_text("local w = 1\nreturn {\n  name = 'edit' version = 'x' }\n");
        snprintf(want, wantlen, "%s:3:", g_file);
        return "syntax error";
    case 1:
        write_text("local w = 1\nerror('the edit is not finished')\n");
        snprintf(want, wantlen, "%s:2: the edit is not finished", g_file);
        return "error at load";
    case 2:
        write_text("local n = 0\nwhile true do n = n + 1 end\n");
        snprintf(want, wantlen, "%s:2: time limit exceeded (40 ms per load)", g_file);
        return "loop at load";
    case 3:
        write_text("local s = 'x'\nwhile true do s = s .. s end\n");
        snprintf(want, wantlen, "%s:2: not enough memory", g_file);
        return "memory bomb at load";
    case 4:
        valid_source(1000, src, sizeof src);
        write_bytes(src, strlen(src) / 2);
        snprintf(want, wantlen, "%s:", g_file);
        return "truncated file";
    case 5:
        remove(g_file);
        snprintf(want, wantlen, "cannot open %s", g_file);
        return "deleted file";
    case 6:
        write_bytecode();
        snprintf(want, wantlen, "%s: attempt to load a binary chunk", g_file);
        return "bytecode";
    case 7: {
        unsigned char bytes[400];
        for (size_t k = 0; k < sizeof bytes; k++) {
            bytes[k] = (unsigned char)(next_rand() >> 24);
        }
        write_bytes(bytes, sizeof bytes);
        snprintf(want, wantlen, "%s:", g_file);
        return "random bytes";
    }
    case 8:
        write_text(
            "local w = cleave.weapon { attacks = { swing = { hitboxes = {\n"
            "  { id = 'b', frames = 1, x = 0, y = 0, radius = 4 } } } } }\n"
            "return { name = 'edit', version = 'bad', weapons = { w = w },\n"
            "  selftest = function(mod) assert(mod.version == 'good', 'selftest says no') end }\n");
        snprintf(want, wantlen, "%s:4: selftest says no (selftest of %s)", g_file, g_file);
        return "failing selftest";
    default:
        write_text("local w = cleave.weapon { attacks = { swing = { hitboxes = {\n"
                   "  { id = 'b', frames = 1, x = 0, y = 0, radius = -3 } } } } }\n"
                   "return { name = 'edit', version = 'bad', weapons = { w = w } }\n");
        snprintf(want, wantlen, "%s:1: attacks.swing.hitboxes[1].radius must be >= 0 (got -3)",
                 g_file);
        return "validation error";
    }
}

static void test_edit_series(void) {
    if (!make_dir()) {
        CHECK(false);
        return;
    }
    char src[1024], err[2048], want[2048];
    valid_source(0, src, sizeof src);
    write_text(src);
    clv_mod_limits limits = clv_mod_default_limits();
    limits.load_ms = 40;
    limits.memory_bytes = (size_t)8 << 20;
    clv_mod *current = clv_mod_load_with(g_dir, &limits, err, sizeof err);
    CHECK(current != NULL);
    if (current == NULL) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    int version = 0, broken = 0, valid = 0;
    for (int edit = 0; edit < 100; edit++) {
        if (edit % 2 == 0) {
            const char *kind = write_broken(broken, want, sizeof want);
            broken++;
            const clv_weapon *before = clv_mod_weapon(current, 0);
            clv_mod *next = clv_mod_reload(current, err, sizeof err);
            CHECK(next == NULL);
            clv_mod_free(next);
            CHECK(clv_mod_weapon(current, 0) == before); /* untouched */
            bool has = strstr(err, want) != NULL && strchr(err, '\n') == NULL;
            CHECK(has);
            if (!has) {
                fprintf(stderr, "  edit %d (%s): want '%s' in '%s'\n", edit, kind, want, err);
            }
        } else {
            version++;
            valid++;
            valid_source(version, src, sizeof src);
            write_text(src);
            clv_mod *next = clv_mod_reload(current, err, sizeof err);
            CHECK(next != NULL);
            if (next == NULL) {
                fprintf(stderr, "  edit %d: %s\n", edit, err);
                version--;
                continue;
            }
            clv_mod_free(current); /* the swap, at a frame boundary */
            current = next;
        }
        /* after every edit the last good version is the active one, whole and working */
        char v[32];
        snprintf(v, sizeof v, "v%d", version);
        CHECK(strcmp(clv_mod_version(current), v) == 0);
        CHECK_NEAR(swing_damage(current), (float)(version > 0 ? version : 0), 0);
        CHECK(strcmp(clv_mod_dir(current), g_dir) == 0);
        CHECK(clv_mod_get_limits(current).load_ms == 40.0);
    }
    CHECK(broken == 50 && valid == 50 && version == 50);
    clv_mod_free(current);
    remove(g_file);
    rmdir(g_dir);
}

/* Version 0 deals 0 damage: swing_damage can't tell it from a miss, so check v0 directly. */
static void test_first_version_hits(void) {
    if (!make_dir()) {
        CHECK(false);
        return;
    }
    char src[1024], err[1024];
    valid_source(3, src, sizeof src);
    write_text(src);
    clv_mod *m = clv_mod_load(g_dir, err, sizeof err);
    CHECK(m != NULL);
    if (m != NULL) {
        CHECK_NEAR(swing_damage(m), 3.0f, 0);
    }
    clv_mod_free(m);
    remove(g_file);
    rmdir(g_dir);
}

/* An attack started with version 1 finishes with version 1's hitboxes after version 2 is
 * swapped in and version 1's mod is freed (the arena holds its own copy of the weapon). */
static void test_attack_in_flight(void) {
    if (!make_dir()) {
        CHECK(false);
        return;
    }
    char src[1024], err[1024];
    valid_source(1, src, sizeof src);
    write_text(src);
    clv_mod *v1 = clv_mod_load(g_dir, err, sizeof err);
    CHECK(v1 != NULL);
    if (v1 == NULL) {
        return;
    }
    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_weapon_id w1, w2;
    CHECK(clv_mod_add_weapons(v1, arena, &w1, err, sizeof err));
    clv_entity_def ed = clv_default_entity_def();
    ed.team = 1;
    clv_entity_id p1, p2;
    clv_arena_spawn(arena, &ed, &p1, NULL);
    ed.position = clv_v2(0, 200);
    clv_arena_spawn(arena, &ed, &p2, NULL);
    ed.team = 2;
    ed.position = clv_v2(22, 0);
    clv_entity_id t1, t2;
    clv_arena_spawn(arena, &ed, &t1, NULL);
    ed.position = clv_v2(22, 200);
    clv_arena_spawn(arena, &ed, &t2, NULL);
    clv_attack_start_def sd = clv_default_attack_start_def();
    sd.weapon = w1;
    sd.attack = 0;
    sd.owner = p1;
    CHECK(clv_arena_start_attack(arena, &sd, NULL, NULL) == CLV_HIT_OK);
    CHECK(clv_arena_step(arena) == CLV_HIT_OK); /* frame 1 of 4: not active yet */

    valid_source(7, src, sizeof src);
    write_text(src);
    clv_mod *v2 = clv_mod_reload(v1, err, sizeof err);
    CHECK(v2 != NULL);
    if (v2 == NULL) {
        clv_arena_destroy(arena);
        clv_mod_free(v1);
        return;
    }
    CHECK(clv_mod_add_weapons(v2, arena, &w2, err, sizeof err));
    CHECK(w2.index1 != w1.index1);
    clv_mod_free(v1); /* swapped out while its attack is in flight */
    sd.weapon = w2;
    sd.owner = p2;
    CHECK(clv_arena_start_attack(arena, &sd, NULL, NULL) == CLV_HIT_OK);
    float d1 = 0, d2 = 0;
    int n1 = 0, n2 = 0;
    for (int f = 0; f < 10; f++) {
        CHECK(clv_arena_step(arena) == CLV_HIT_OK);
        int32_t n;
        const clv_hit_event *h = clv_arena_hits(arena, &n);
        for (int32_t i = 0; i < n; i++) {
            if (h[i].weapon.index1 == w1.index1) {
                CHECK(h[i].target.index1 == t1.index1);
                d1 += h[i].damage;
                n1++;
            } else {
                CHECK(h[i].weapon.index1 == w2.index1 && h[i].target.index1 == t2.index1);
                d2 += h[i].damage;
                n2++;
            }
        }
        CHECK(clv_mod_run_callbacks(v2, arena, err, sizeof err));
    }
    CHECK(n1 == 1 && n2 == 1);
    CHECK_NEAR(d1, 1.0f, 0);
    CHECK_NEAR(d2, 7.0f, 0);
    clv_arena_destroy(arena);
    clv_mod_free(v2);
    remove(g_file);
    rmdir(g_dir);
}

static void test_reload_errors(void) {
    char err[256];
    CHECK(clv_mod_reload(NULL, err, sizeof err) == NULL);
    CHECK(strcmp(err, "mod is NULL") == 0);
    CHECK(clv_mod_dir(NULL) == NULL);
    clv_mod_limits bad = clv_mod_default_limits();
    bad.load_ms = 0.0 / 0.0;
    CHECK(clv_mod_load_with("mods/plank", &bad, err, sizeof err) == NULL);
    CHECK(strcmp(err, "mod limits: time limits must be > 0 ms and finite, memory at least "
                      "65536 bytes") == 0);
    bad = clv_mod_default_limits();
    bad.memory_bytes = 1000;
    CHECK(clv_mod_load_with("mods/plank", &bad, err, sizeof err) == NULL);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_first_version_hits);
    RUN(test_edit_series);
    RUN(test_attack_in_flight);
    RUN(test_reload_errors);
    return clv_test_report();
}
