/* The cost of driving the arena from Lua: load the flail mod and run 600 frames of a swinging
 * player among a ring of enemies, once from C (cleave/mod.h + cleave/hit.h) and once from a Lua
 * script (cleave.load_mod + cleave.arena), in the same process, and print both times and the
 * Lua overhead. Not a test: figures depend on the machine. Run from the source root (it reads
 * mods/flail). --json FILE appends one line per figure; --quick runs a single short round;
 * --only c|lua runs one side (for a profiler's instruction counts; no overhead is printed);
 * --rounds N sets the number of rounds (default 31, at most 64). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cleave/lua.h"
#include "cleave/mod.h"

/* --enemies N and --frames N change them; the defaults are the scenario. */
static int ENEMIES = 48;
static int FRAMES = 600;

/* The thread's CPU time: a round is a few milliseconds, and time the machine gives to other
 * programs would otherwise land on one side at random. */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Same scenario as the Lua script below: a ring of enemies at radius 45, hp 1e6, the whirl
 * started again whenever it ends. */
static double run_c(const char *mod_dir, long *hits_out) {
    double t0 = now_s();
    char err[512];
    clv_mod *mod = clv_mod_load(mod_dir, err, sizeof err);
    if (mod == NULL) {
        fprintf(stderr, "bench_lua_arena: %s\n", err);
        exit(1);
    }
    clv_arena *arena = clv_arena_create(NULL, NULL);
    clv_weapon_id wid;
    if (!clv_mod_add_weapons(mod, arena, &wid, err, sizeof err)) {
        fprintf(stderr, "bench_lua_arena: %s\n", err);
        exit(1);
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
    return now_s() - t0;
}

static const char *script =
    "local cleave, dir, enemies, frames = require 'cleave', ...\n"
    "local mod = cleave.load_mod(dir)\n"
    "local arena = cleave.arena {}\n"
    "local player = arena:spawn { team = 1 }\n"
    "for i = 0, enemies - 1 do\n"
    "  local a = 2 * math.pi * i / enemies\n"
    "  arena:spawn { x = 45 * math.cos(a), y = 45 * math.sin(a), team = 2, hp = 1e6 }\n"
    "end\n"
    "local swing, hits = nil, 0\n"
    "local def = { weapon = mod.weapons.flail, attack = 'whirl', owner = player }\n"
    "for _ = 1, frames do\n"
    "  if not (swing and swing:running()) then swing = arena:attack(def) end\n"
    "  hits = hits + arena:step(1)\n"
    "end\n"
    "return hits\n";

/* The script compiled once, as a game's code is, and kept in the registry: the rounds time
 * running it, as the C side's are of running compiled code. */
static int compile_script(lua_State *L) {
    if (luaL_loadstring(L, script) != LUA_OK) {
        fprintf(stderr, "bench_lua_arena: %s\n", lua_tostring(L, -1));
        exit(1);
    }
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

static double run_lua(lua_State *L, int script_ref, const char *mod_dir, long *hits_out) {
    double t0 = now_s();
    lua_settop(L, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, script_ref);
    lua_pushstring(L, mod_dir);
    lua_pushinteger(L, ENEMIES);
    lua_pushinteger(L, FRAMES);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
        fprintf(stderr, "bench_lua_arena: %s\n", lua_tostring(L, -1));
        exit(1);
    }
    *hits_out = (long)lua_tointeger(L, -1);
    double t = now_s() - t0;
    /* the arena and the mod are garbage now: collect them outside the timed part, as the C
     * run's destroy calls are inside it (both are small next to the run) */
    lua_settop(L, 0);
    lua_gc(L, LUA_GCCOLLECT);
    return t;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    const char *json = NULL;
    const char *only = NULL;
    int rounds = 31;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            json = argv[++i];
        } else if (strcmp(argv[i], "--enemies") == 0 && i + 1 < argc) {
            ENEMIES = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
        } else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            FRAMES = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 0;
        } else if (strcmp(argv[i], "--quick") == 0) {
            rounds = 1;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = atoi(argv[++i]);
            rounds = rounds < 1 ? 1 : rounds > 64 ? 64 : rounds;
        }
    }
    const char *dir = "mods/flail";
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    luaL_requiref(L, "cleave", luaopen_cleave, 0);
    lua_pop(L, 1);
    int script_ref = compile_script(L);

    double tc[64], tl[64], ratio[64];
    long hc = 0, hl = 0;
    for (int r = 0; r < rounds; r++) {
        /* alternate, so drift in the machine's speed hits both the same */
        tc[r] = only == NULL || strcmp(only, "c") == 0 ? run_c(dir, &hc) : 0;
        tl[r] = only == NULL || strcmp(only, "lua") == 0 ? run_lua(L, script_ref, dir, &hl) : 0;
        ratio[r] = tc[r] > 0 ? tl[r] / tc[r] : 0;
    }
    lua_close(L);
    if (only != NULL) {
        printf("%s only: %.3f ms (round 1)\n", only, (tc[0] + tl[0]) * 1e3);
        return 0;
    }
    if (hc != hl) {
        fprintf(stderr, "bench_lua_arena: C saw %ld hits, Lua %ld: not the same scenario\n", hc,
                hl);
        return 1;
    }
    qsort(tc, (size_t)rounds, sizeof tc[0], cmp_double);
    qsort(tl, (size_t)rounds, sizeof tl[0], cmp_double);
    qsort(ratio, (size_t)rounds, sizeof ratio[0], cmp_double);
    double c = tc[rounds / 2], l = tl[rounds / 2];
    /* the median of the rounds' ratios: each round's two runs are a few milliseconds apart */
    double overhead = (ratio[rounds / 2] - 1.0) * 100.0;
    /* and their quartiles: how far one run's median can move with the machine's load */
    double q1 = (ratio[rounds / 4] - 1.0) * 100.0, q3 = (ratio[3 * rounds / 4] - 1.0) * 100.0;
    printf("load flail + %d frames, %d enemies, %ld hits (medians of %d rounds, thread CPU time; "
           "the overhead is the median of the rounds' ratios)\n",
           FRAMES, ENEMIES, hc, rounds);
    printf("  from C:   %.3f ms\n  from Lua: %.3f ms\n  Lua overhead: %+.1f %% (quartiles of the "
           "rounds: %+.1f, %+.1f %%)\n",
           c * 1e3, l * 1e3, overhead, q1, q3);
    if (json != NULL) {
        FILE *f = fopen(json, "a");
        if (f != NULL) {
            fprintf(f, "{\"bench\":\"lua_arena\",\"figure\":\"c_ms\",\"value\":%.4f}\n", c * 1e3);
            fprintf(f, "{\"bench\":\"lua_arena\",\"figure\":\"lua_ms\",\"value\":%.4f}\n", l * 1e3);
            fprintf(f, "{\"bench\":\"lua_arena\",\"figure\":\"overhead_pct\",\"value\":%.2f}\n",
                    overhead);
            fprintf(f, "{\"bench\":\"lua_arena\",\"figure\":\"overhead_q1_pct\",\"value\":%.2f}\n",
                    q1);
            fprintf(f, "{\"bench\":\"lua_arena\",\"figure\":\"overhead_q3_pct\",\"value\":%.2f}\n",
                    q3);
            fclose(f);
        }
    }
    return 0;
}
