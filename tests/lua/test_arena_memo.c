/* The memo behind the arena's and the attack handle's self check (clv_lmemo, upvalue 2 of their
 * methods): it holds the object a method last took, and never an object that is closed or
 * collected, whose memory may then hold another object. */
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "arena_internal.h"
#include "cleave/lua.h"
#include "harness.h"

/* A state with the module, and the scene's arena, attack, arena.step and attack.running at
 * stack indices 1 to 4, each method called once on its own object. */
static lua_State *scene(void) {
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    luaL_requiref(L, "cleave", luaopen_cleave, 0);
    lua_pop(L, 1);
    const char *chunk =
        "local cleave = require 'cleave'\n"
        "local w = cleave.weapon { name = 'stick', attacks = { swing = { length = 6, hitboxes = {\n"
        "  { id = 'tip', frames = { 2, 4 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4 } } } } }\n"
        "local a = cleave.arena {}\n"
        "local s = a:attack { weapon = w, attack = 'swing', owner = a:spawn { team = 1 } }\n"
        "a:step(1)\n"
        "assert(s:running())\n"
        "return a, s, a.step, s.running\n";
    int st = luaL_loadstring(L, chunk);
    if (st == LUA_OK) {
        st = lua_pcall(L, 0, 4, 0);
    }
    if (st != LUA_OK) {
        fprintf(stderr, "scene: %s\n", lua_tostring(L, -1));
    }
    CHECK(st == LUA_OK && lua_gettop(L) == 4);
    return L;
}

/* The memo of the method at idx. */
static const clv_lmemo *memo_of(lua_State *L, int idx) {
    CHECK(lua_getupvalue(L, idx, 2) != NULL);
    const clv_lmemo *m = (const clv_lmemo *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    CHECK(m != NULL);
    return m;
}

/* Calls the method at fidx with the value at vidx as its self; returns the status. */
static int call(lua_State *L, int fidx, int vidx) {
    lua_pushvalue(L, fidx);
    lua_pushvalue(L, vidx);
    int st = lua_pcall(L, 1, 0, 0);
    if (st != LUA_OK) {
        lua_pop(L, 1);
    }
    return st;
}

static void test_remembers_the_last_object(void) {
    lua_State *L = scene();
    const clv_lmemo *am = memo_of(L, 3), *sm = memo_of(L, 4);
    CHECK(am->last == lua_touserdata(L, 1));
    CHECK(sm->last == lua_touserdata(L, 2));
    /* one memo per type, shared by its methods */
    lua_getfield(L, 1, "spawn");
    CHECK(memo_of(L, -1) == am);
    lua_pop(L, 1);
    CHECK(am != sm);
    /* a refused self leaves it as it was */
    CHECK(call(L, 3, 2) == LUA_ERRRUN);
    CHECK(am->last == lua_touserdata(L, 1));
    lua_close(L);
}

static void test_forgets_a_closed_arena(void) {
    lua_State *L = scene();
    const clv_lmemo *am = memo_of(L, 3);
    lua_getfield(L, 1, "close");
    lua_pushvalue(L, 1);
    CHECK(lua_pcall(L, 1, 0, 0) == LUA_OK);
    CHECK(am->last == NULL);
    /* a closed arena raises, and is not remembered again */
    CHECK(call(L, 3, 1) == LUA_ERRRUN);
    CHECK(am->last == NULL);
    /* its attack raises too: the handle is remembered, its arena checked on every call */
    CHECK(call(L, 4, 2) == LUA_ERRRUN);
    lua_close(L);
}

static void test_forgets_collected_objects(void) {
    lua_State *L = scene();
    const clv_lmemo *am = memo_of(L, 3), *sm = memo_of(L, 4);
    CHECK(am->last != NULL && sm->last != NULL);
    lua_pushnil(L);
    lua_replace(L, 2); /* the attack handle: its last reference */
    lua_gc(L, LUA_GCCOLLECT);
    CHECK(sm->last == NULL);
    CHECK(am->last == lua_touserdata(L, 1));
    lua_pushnil(L);
    lua_replace(L, 1); /* the arena */
    lua_gc(L, LUA_GCCOLLECT);
    CHECK(am->last == NULL);
    lua_close(L);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_remembers_the_last_object);
    RUN(test_forgets_a_closed_arena);
    RUN(test_forgets_collected_objects);
    return clv_test_report();
}
