/* Allocation-failure sweep: loading and running every example mod (mods/<name>) with an
 * allocator that refuses its N-th growing request and every one after it, for every N from 1
 * until a run needs no refusal. Two allocators are swept: the mod sandbox's (clv_mod from C,
 * its callbacks run by a C arena) and the host state's (cleave.load_mod and cleave.arena from
 * Lua). Each run must end in success or a clean "not enough memory" error, never a crash, and
 * give every byte back: the host allocator's count is checked here, and a sanitizer build's
 * LeakSanitizer checks the C side. Runs from the source root. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cleave/lua.h"
#include "cleave/mod.h"
#include "harness.h"
#include "mod_internal.h"

/* Sorted names of the folders under mods/ that hold a mod.lua. */
static int list_mods(char names[][64], int cap) {
    DIR *d = opendir("mods");
    int n = 0;
    if (d == NULL) {
        return 0;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < cap) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= 64) {
            continue;
        }
        char path[128];
        snprintf(path, sizeof path, "mods/%.63s/mod.lua", e->d_name);
        FILE *f = fopen(path, "rb");
        if (f != NULL) {
            fclose(f);
            snprintf(names[n++], 64, "%.63s", e->d_name);
        }
    }
    closedir(d);
    qsort(names, (size_t)n, 64, (int (*)(const void *, const void *))strcmp);
    return n;
}

static bool is_memory_error(const char *err) { return strstr(err, "not enough memory") != NULL; }

/* One run of a mod from C: load, every attack of every weapon against a ring of targets, 90
 * frames with callbacks. true when everything succeeded; false after a clean memory error. */
static bool run_c(const char *dir, long fail_after, bool *clean) {
    char err[2048] = "";
    *clean = true;
    clv_mod *mod = clv_mod_load_failing(dir, NULL, fail_after, err, sizeof err);
    if (mod == NULL) {
        *clean = is_memory_error(err);
        if (!*clean) {
            fprintf(stderr, "  %s, fail at %ld: %s\n", dir, fail_after, err);
        }
        return false;
    }
    bool ok = true;
    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_weapon_id ids[16];
    int32_t wc = clv_mod_weapon_count(mod);
    if (wc > 16 || !clv_mod_add_weapons(mod, arena, ids, err, sizeof err)) {
        /* the mod's weapon list is charged to its budget, so this can fail cleanly too */
        *clean = wc <= 16 && is_memory_error(err);
        if (!*clean) {
            fprintf(stderr, "  %s: add_weapons: %s\n", dir, err);
        }
        ok = false;
    }
    clv_entity_def ed = clv_default_entity_def();
    ed.team = 1;
    clv_entity_id owner;
    clv_arena_spawn(arena, &ed, &owner, NULL);
    ed.team = 2;
    ed.hp = 1e6f;
    for (int i = 0; i < 12; i++) {
        ed.position = clv_v2(40.0f * (float)(i % 4 - 1), 30.0f * (float)(i / 4 - 1));
        clv_arena_spawn(arena, &ed, NULL, NULL);
    }
    for (int32_t w = 0; ok && w < wc; w++) {
        const clv_weapon *cw = clv_mod_weapon(mod, w);
        for (int32_t a = 0; a < clv_weapon_attack_count(cw); a++) {
            clv_attack_start_def sd = clv_default_attack_start_def();
            sd.weapon = ids[w];
            sd.attack = a;
            sd.owner = owner;
            clv_arena_start_attack(arena, &sd, NULL, NULL);
            for (int f = 0; f < 90; f++) {
                clv_arena_step(arena);
                if (!clv_mod_run_callbacks(mod, arena, err, sizeof err)) {
                    ok = false;
                    if (!is_memory_error(err)) {
                        *clean = false;
                        fprintf(stderr, "  %s, fail at %ld: callback: %s\n", dir, fail_after, err);
                    }
                }
            }
        }
    }
    clv_arena_destroy(arena);
    clv_mod_free(mod);
    return ok;
}

/* ---- the host state's allocator ---- */

typedef struct host_alloc {
    size_t bytes;
    long growths, fail_after;
} host_alloc;

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    host_alloc *h = (host_alloc *)ud;
    if (ptr == NULL) {
        osize = 0;
    }
    if (nsize == 0) {
        free(ptr);
        h->bytes -= osize;
        return NULL;
    }
    if (nsize > osize && h->fail_after > 0 && ++h->growths >= h->fail_after) {
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p != NULL) {
        h->bytes = h->bytes - osize + nsize;
    }
    return p;
}

static const char *script =
    "local cleave, dir = require 'cleave', ...\n"
    "local mod = cleave.load_mod(dir)\n"
    "local arena = cleave.arena {}\n"
    "local owner = arena:spawn { team = 1 }\n"
    "for i = 0, 11 do\n"
    "  arena:spawn { team = 2, hp = 1e6, x = 40 * (i % 4 - 1), y = 30 * (i // 4 - 1) }\n"
    "end\n"
    "local n = 0\n"
    "for _, w in pairs(mod.weapons) do\n"
    "  for _, a in ipairs(w:attacks()) do\n"
    "    arena:attack { weapon = w, attack = a, owner = owner }\n"
    "    for _ = 1, 90 do n = n + arena:step(1) ; arena:hits() ; arena:misses() end\n"
    "  end\n"
    "end\n"
    "return n\n";

static int open_libs(lua_State *L) {
    luaL_openlibs(L);
    luaL_requiref(L, "cleave", luaopen_cleave, 0);
    return 0;
}

/* One run of the Lua script on a host state whose allocator fails from fail_after on. */
static bool run_lua(const char *dir, long fail_after, bool *clean) {
    host_alloc h = {0, 0, 0};
    *clean = true;
    lua_State *L = lua_newstate(failing_alloc, &h);
    if (L == NULL) {
        CHECK(false);
        return false;
    }
    /* the state itself is built before the sweep starts counting */
    lua_pushcfunction(L, open_libs);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        CHECK(false);
        lua_close(L);
        return false;
    }
    /* nothing outside a protected call may allocate once failures start */
    if (luaL_loadstring(L, script) != LUA_OK) {
        CHECK(false);
        lua_close(L);
        return false;
    }
    lua_pushstring(L, dir);
    h.fail_after = fail_after;
    bool ok = lua_pcall(L, 1, 1, 0) == LUA_OK;
    if (!ok) {
        const char *msg = lua_tostring(L, -1);
        *clean = msg != NULL && is_memory_error(msg);
        if (!*clean) {
            fprintf(stderr, "  %s, host fail at %ld: %s\n", dir, fail_after,
                    msg != NULL ? msg : "(not a string)");
        }
    }
    h.fail_after = 0;
    lua_close(L);
    if (h.bytes != 0) {
        *clean = false;
        fprintf(stderr, "  %s, host fail at %ld: %zu bytes left after lua_close\n", dir, fail_after,
                h.bytes);
    }
    return ok;
}

typedef bool (*run_fn)(const char *dir, long fail_after, bool *clean);

/* Sweeps N = 1, 2, ... until a run succeeds; returns how many runs it took. */
static long sweep(const char *dir, run_fn run) {
    long n = 0;
    for (;;) {
        n++;
        bool clean;
        bool ok = run(dir, n, &clean);
        CHECK(clean);
        if (ok || !clean || n > 200000) {
            break;
        }
    }
    return n;
}

static void test_sweep(void) {
    char names[32][64];
    int count = list_mods(names, 32);
    CHECK(count >= 6);
    for (int i = 0; i < count; i++) {
        char dir[80];
        snprintf(dir, sizeof dir, "mods/%s", names[i]);
        long nc = sweep(dir, run_c);
        long nl = sweep(dir, run_lua);
        printf("  %-8s sandbox allocator: %ld runs, host allocator: %ld runs\n", names[i], nc, nl);
        /* a sweep that stops early covered nothing */
        CHECK(nc > 100);
        CHECK(nl > 100);
    }
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_sweep);
    return clv_test_report();
}
