/* The cost of driving the arena from LuaJIT through cleave.ffi: the scenario of
 * tests/bench/bench_lua_arena.c (load mods/flail, 600 frames of its whirl among a ring of 48
 * enemies), run from C through libcleave.so and from a LuaJIT script with cleave.ffi, in one
 * process (LuaJIT's lua_* and the library's private Lua 5.4 side by side), rounds alternating.
 * The script runs three ways: counting hits only (as the C side does), reading every hit's
 * damage through arena:hits() (a table per hit), and through arena:hit_events() (the C array).
 * Prints the medians of CPU time and the FFI overhead, and of the setup (loading the mod,
 * making the arena, spawning) apart. Not a test: figures depend on the machine. Run from the
 * source root. --json FILE appends one line per figure; --quick runs one round; --rounds N
 * (default 31, at most 64). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "cleave/mod.h"

#define ENEMIES 48
#define FRAMES 600
#define MAX_ROUNDS 64

/* CPU time of this thread: other processes on the machine do not count. */
static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the setup of the last run of each side: up to its first frame. */
static double setup_c, setup_ffi;

/* cpu_now() in the script: the thread's CPU time, as the C side reads it. */
static int l_cpu_now(lua_State *L) {
    lua_pushnumber(L, cpu_s());
    return 1;
}

static void fail(const char *what, const char *msg) {
    fprintf(stderr, "bench_ffi_arena: %s: %s\n", what, msg);
    exit(1);
}

/* The scenario from C, as bench_lua_arena.c's run_c. */
static double run_c(const char *mod_dir, long *hits_out) {
    double t0 = cpu_s();
    char err[512];
    clv_mod *mod = clv_mod_load(mod_dir, err, sizeof err);
    if (mod == NULL) {
        fail("load", err);
    }
    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_weapon_id wid;
    if (!clv_mod_add_weapons(mod, arena, &wid, err, sizeof err)) {
        fail("add weapons", err);
    }
    clv_entity_def ed = clv_default_entity_def();
    ed.team = 1;
    clv_entity_id player;
    clv_arena_spawn(arena, &ed, &player, NULL);
    ed.team = 2;
    ed.hp = 1e6f;
    for (int i = 0; i < ENEMIES; i++) {
        double a = 6.283185307179586 * (double)i / (double)ENEMIES;
        ed.position = clv_v2((float)(45.0 * cos(a)), (float)(45.0 * sin(a)));
        clv_arena_spawn(arena, &ed, NULL, NULL);
    }
    clv_attack_start_def sd = clv_default_attack_start_def();
    sd.weapon = wid;
    sd.attack = clv_arena_find_attack(arena, wid, "whirl");
    sd.owner = player;
    clv_attack_id att = {0, 0};
    long hits = 0;
    setup_c = cpu_s() - t0;
    for (int f = 0; f < FRAMES; f++) {
        if (!clv_arena_attack_valid(arena, att)) {
            clv_arena_start_attack(arena, &sd, &att, NULL);
        }
        clv_arena_step(arena);
        int32_t n;
        clv_arena_hits(arena, &n);
        hits += n;
        clv_mod_run_callbacks(mod, arena, err, sizeof err);
    }
    clv_arena_destroy(arena);
    clv_mod_free(mod);
    *hits_out = hits;
    return cpu_s() - t0;
}

/* The same from LuaJIT; `read` says how the hits are read: "count", "tables" or "arrays". */
static const char *script =
    "local cleave, dir, enemies, frames, read = require 'cleave.ffi', ...\n"
    "local mod = cleave.load_mod(dir)\n"
    "local arena = cleave.arena {}\n"
    "local player = arena:spawn { team = 1 }\n"
    "for i = 0, enemies - 1 do\n"
    "  local a = 2 * math.pi * i / enemies\n"
    "  arena:spawn { x = 45 * math.cos(a), y = 45 * math.sin(a), team = 2, hp = 1e6 }\n"
    "end\n"
    "local setup_end = cpu_now()\n"
    "local swing, hits, damage = nil, 0, 0\n"
    "local def = { weapon = mod.weapons.flail, attack = 'whirl', owner = player }\n"
    "for _ = 1, frames do\n"
    "  if not (swing and swing:running()) then swing = arena:attack(def) end\n"
    "  hits = hits + arena:step(1)\n"
    "  if read == 'tables' then\n"
    "    for _, h in ipairs(arena:hits()) do damage = damage + h.damage end\n"
    "  elseif read == 'arrays' then\n"
    "    local events, n = arena:hit_events()\n"
    "    for i = 0, n - 1 do damage = damage + events[i].damage end\n"
    "  end\n"
    "end\n"
    "arena:close()\n"
    "return hits, damage, setup_end\n";

/* The script is compiled once (slot 1 of the stack) and run every round, as a game's code
 * stays loaded: LuaJIT keeps the traces it recorded in earlier rounds. */
static double run_ffi(lua_State *L, const char *mod_dir, const char *read, long *hits_out) {
    double t0 = cpu_s();
    lua_settop(L, 1);
    lua_pushvalue(L, 1);
    lua_pushstring(L, mod_dir);
    lua_pushinteger(L, ENEMIES);
    lua_pushinteger(L, FRAMES);
    lua_pushstring(L, read);
    if (lua_pcall(L, 4, 3, 0) != 0) {
        fail("script", lua_tostring(L, -1));
    }
    double t = cpu_s() - t0;
    *hits_out = (long)lua_tointeger(L, 2);
    setup_ffi = lua_tonumber(L, 4) - t0;
    /* the mod is garbage now: collect it outside the timed part, as C frees its mod inside */
    lua_settop(L, 1);
    lua_gc(L, LUA_GCCOLLECT, 0);
    return t;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return v[n / 2];
}

/* A LuaJIT state whose require finds scripts/cleave/ffi.lua under the source root. */
static lua_State *new_luajit(void) {
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    lua_register(L, "cpu_now", l_cpu_now);
    if (luaL_dostring(L, "package.path = 'scripts/?.lua;' .. package.path") != 0) {
        fail("package.path", lua_tostring(L, -1));
    }
    lua_settop(L, 0);
    if (luaL_loadstring(L, script) != 0) {
        fail("script", lua_tostring(L, -1));
    }
    return L;
}

int main(int argc, char **argv) {
    const char *json = NULL;
    int rounds = 31;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            json = argv[++i];
        } else if (strcmp(argv[i], "--quick") == 0) {
            rounds = 1;
        } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = atoi(argv[++i]);
            rounds = rounds < 1 ? 1 : rounds > MAX_ROUNDS ? MAX_ROUNDS : rounds;
        }
    }
    const char *dir = "mods/flail";
    /* cleave.ffi loads the library this program is linked with (CLEAVE_LIB may name another) */
    setenv("CLEAVE_LIB", CLEAVE_LIB_PATH, 0);
    lua_State *L = new_luajit();
    static const char *const reads[3] = {"count", "tables", "arrays"};
    double tc[MAX_ROUNDS], tf[3][MAX_ROUNDS], sc[MAX_ROUNDS], sf[MAX_ROUNDS];
    long hc = 0, hf[3] = {0, 0, 0};
    for (int r = 0; r < rounds; r++) {
        /* alternate, so drift in the machine's speed hits every side the same */
        tc[r] = run_c(dir, &hc);
        sc[r] = setup_c;
        for (int k = 0; k < 3; k++) {
            tf[k][r] = run_ffi(L, dir, reads[k], &hf[k]);
        }
        sf[r] = setup_ffi; /* the same script and setup in every way of reading */
    }
    lua_close(L);
    for (int k = 0; k < 3; k++) {
        if (hf[k] != hc) {
            fprintf(stderr, "bench_ffi_arena: C saw %ld hits, LuaJIT (%s) %ld\n", hc, reads[k],
                    hf[k]);
            return 1;
        }
    }
    double c = median(tc, rounds);
    printf("load flail + %d frames, %d enemies, %ld hits (median CPU time of %d rounds)\n", FRAMES,
           ENEMIES, hc, rounds);
    printf("  from C (libcleave.so):           %.3f ms\n", c * 1e3);
    printf("  of which setup (load, arena, spawns): C %.3f ms, LuaJIT %.3f ms\n",
           median(sc, rounds) * 1e3, median(sf, rounds) * 1e3);
    for (int k = 0; k < 3; k++) {
        double f = median(tf[k], rounds);
        double overhead = (f - c) / c * 100.0;
        printf("  from LuaJIT, hits read by %-6s  %.3f ms  (%+.1f %%)\n", reads[k], f * 1e3,
               overhead);
        FILE *out = json != NULL ? fopen(json, "a") : NULL;
        if (out != NULL) {
            fprintf(out, "{\"bench\":\"ffi_arena\",\"figure\":\"%s_ms\",\"value\":%.4f}\n",
                    reads[k], f * 1e3);
            fprintf(out,
                    "{\"bench\":\"ffi_arena\",\"figure\":\"%s_overhead_pct\",\"value\":%.2f}\n",
                    reads[k], overhead);
            fclose(out);
        }
    }
    return 0;
}
