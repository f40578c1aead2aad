/* The host's memory stays within a mod's cap plus a constant: hostile mods as large as a small
 * cap allows are loaded, their weapons copied into an arena that allocates with malloc, and the
 * host's heap growth is bounded by HOST_K * cap + HOST_C (docs/reliability.md, "The host's
 * memory"). Measured with the allocator's own count of bytes in use, never time. */
#define _POSIX_C_SOURCE 200809L
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cleave/lua.h"
#include "cleave/mod.h"
#include "harness.h"
#include "heap_count.h"

/* The documented bound: the sandbox's bytes (at most the cap, plus malloc's per-block overhead)
 * and the arena's copies of weapons whose boxes span few frames (smaller than the Weapon objects
 * the cap paid for), plus the host's fixed structures and glibc's caches of freed blocks. */
#define HOST_K 2
#define HOST_C ((size_t)1 << 20)

#define CAP ((size_t)4 << 20)

/* A hostile shape: mod.lua written with a size parameter n. */
typedef struct shape {
    const char *name;
    const char *source; /* printf format taking n twice */
} shape;

static const shape shapes[] = {
    /* one weapon under many names */
    {"names", "local n = %d\n"
              "local w = cleave.weapon { attacks = { swing = { length = 60, hitboxes = {\n"
              "  { id = 'b', frames = { 1, 60 }, ax = 0, ay = 0, bx = 60, by = 0, radius = 2 },\n"
              "  { id = 'c', frames = { 1, 60 }, ax = 0, ay = 9, bx = 60, by = 9, radius = 2 },\n"
              "} } } }\n"
              "local ws = {}\n"
              "for i = 1, n do ws[string.format('weapon_name_%%08d', i)] = w end\n"
              "-- %d\n"
              "return { name = 'names', version = '1', weapons = ws }\n"},
    /* many distinct weapons */
    {"many", "local n = %d\n"
             "local ws = {}\n"
             "for i = 1, n do\n"
             "  ws['w' .. i] = cleave.weapon { attacks = { swing = { length = 20, hitboxes = {\n"
             "    { id = 'b', frames = { 1, 20 }, ax = 0, ay = 0, bx = i, by = 0, radius = 2 },\n"
             "  } } } }\n"
             "end\n"
             "-- %d\n"
             "return { name = 'many', version = '1', weapons = ws }\n"},
    /* weapons whose boxes span every frame: the arena's copy has an entry per box per frame,
     * hundreds of times the definition the mod builds (one fits a 4 MiB cap) */
    {"long", "local n = %d\n"
             "local ws = {}\n"
             "for i = 1, n do\n"
             "  local attacks = {}\n"
             "  for a = 1, 4 do\n"
             "    local boxes = {}\n"
             "    for b = 1, 4 do\n"
             "      boxes[b] = { id = 'b' .. b, frames = { 1, 16384 }, x = 0, y = 0, radius = b }\n"
             "    end\n"
             "    attacks['a' .. a] = { length = 16384, hitboxes = boxes }\n"
             "  end\n"
             "  ws['w' .. i] = cleave.weapon { attacks = attacks }\n"
             "end\n"
             "-- %d\n"
             "return { name = 'long', version = '1', weapons = ws }\n"},
};

static void write_mod(const shape *s, int n) {
    char path[128];
    snprintf(path, sizeof path, "host_mem/%s", s->name);
    mkdir("host_mem", 0755);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "host_mem/%s/mod.lua", s->name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f != NULL) {
        fprintf(f, s->source, n, n);
        fclose(f);
    }
}

/* Loads the mod under CAP and copies its weapons into a malloc arena; false when the mod does
 * not fit its cap, else the heap growth while both are alive in *grown (0 where the heap is not
 * counted). */
static bool load_and_add(const shape *s, int n, int32_t *weapons, size_t *grown) {
    write_mod(s, n);
    char dir[64], err[512];
    snprintf(dir, sizeof dir, "host_mem/%s", s->name);
    clv_mod_limits lim = clv_mod_default_limits();
    lim.memory_bytes = CAP;
    lim.load_ms = 5000; /* CPU time; only the cap is under test */
    size_t before = heap_in_use();
    clv_mod *mod = clv_mod_load_with(dir, &lim, err, sizeof err);
    if (mod == NULL) {
        return false;
    }
    clv_arena *arena = clv_arena_create(NULL, NULL);
    bool added = arena != NULL && clv_mod_add_weapons(mod, arena, NULL, err, sizeof err);
    *grown = heap_in_use() - before;
    *weapons = clv_mod_weapon_count(mod);
    clv_arena_destroy(arena);
    clv_mod_free(mod);
    return added;
}

/* The largest n (by doubling, then bisection) whose mod loads and adds under the cap. */
static int largest_fitting(const shape *s) {
    int32_t w = 0;
    size_t grown = 0;
    int lo = 1, hi = 2;
    while (hi < (1 << 24) && load_and_add(s, hi, &w, &grown)) {
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > 1 && hi - lo > lo / 64) {
        int mid = lo + (hi - lo) / 2;
        if (load_and_add(s, mid, &w, &grown)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static void test_hostile_mods_near_their_cap(void) {
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const shape *s = &shapes[i];
        int n = largest_fitting(s);
        int32_t weapons = 0;
        size_t grown = 0;
        CHECK(load_and_add(s, n, &weapons, &grown));
        printf("%-6s n = %-7d %5d weapon names: heap +%zu bytes (%.2f x cap)\n", s->name, n,
               (int)weapons, grown, (double)grown / (double)CAP);
        CHECK(n >= 1);
        if (HEAP_COUNTED) {
            CHECK(grown > 0);
            CHECK(grown <= HOST_K * CAP + HOST_C);
        }
    }
    (void)!system("rm -rf host_mem");
}

/* A weapon whose arena copy does not fit what is left of the cap is refused at its line. */
static void test_arena_copy_charged_to_the_mod(void) {
    const shape *s = &shapes[2];
    write_mod(s, 2);
    char err[512];
    clv_mod_limits lim = clv_mod_default_limits();
    lim.memory_bytes = CAP;
    lim.load_ms = 5000;
    clv_mod *mod = clv_mod_load_with("host_mem/long", &lim, err, sizeof err);
    CHECK(mod == NULL);
    printf("two long weapons: %s\n", err);
    const char *want = "host_mem/long/mod.lua:12: not enough memory (the mod's limit is 4194304 "
                       "bytes)";
    CHECK(strncmp(err, want, strlen(want)) == 0);
    clv_mod_free(mod);
    (void)!system("rm -rf host_mem");
}

/* A Lua host's cleave.sandbox result: 40 references to one string of 1.5 MiB under a 4 MiB cap. */
static const char *const big_result =
    "local sandbox, memory = ...\n"
    "local sb = sandbox.new { memory = memory }\n"
    "local r = table.pack(sb:run([[\n"
    "  local s = string.rep('x', 3 << 19)\n"
    "  return s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s,\n"
    "         s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s ]]))\n"
    "sb:close()\n"
    "return r[1], r[2]\n";

static void test_sandbox_result_within_the_cap(void) {
    lua_State *L = luaL_newstate();
    CHECK(L != NULL);
    if (L == NULL) {
        return;
    }
    luaL_openlibs(L);
    luaL_requiref(L, "cleave", luaopen_cleave, 0);
    CHECK(luaL_loadstring(L, big_result) == LUA_OK);
    lua_getfield(L, -2, "sandbox");
    lua_pushinteger(L, (lua_Integer)CAP);
    lua_gc(L, LUA_GCCOLLECT);
    size_t before = heap_in_use();
    CHECK(lua_pcall(L, 2, 2, 0) == LUA_OK);
    size_t grown = heap_in_use() - before;
    const char *msg = lua_tostring(L, -1);
    printf("sandbox result: %s; heap +%zu bytes (%.2f x cap)\n", msg ? msg : "(none)", grown,
           (double)grown / (double)CAP);
    CHECK(lua_isnil(L, -2));
    CHECK(msg != NULL && strstr(msg, "more bytes than the mod's memory limit") != NULL);
    if (HEAP_COUNTED) {
        CHECK(grown <= HOST_K * CAP + HOST_C);
    }
    lua_close(L);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_hostile_mods_near_their_cap);
    RUN(test_arena_copy_charged_to_the_mod);
    RUN(test_sandbox_result_within_the_cap);
    return clv_test_report();
}
