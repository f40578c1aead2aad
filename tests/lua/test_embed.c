/* The static library as an app uses it: open the module in a fresh state, hand shapes between
 * C and Lua, and check that Lua errors reach C as errors. */
#include <math.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cleave/lua.h"
#include "harness.h"

/* Runs chunk with the module as the global `cleave` (the app's choice, not the module's) and
 * returns its single result as a string, or the error message. */
static const char *run(lua_State *L, const char *chunk) {
    lua_settop(L, 0);
    if (luaL_loadstring(L, chunk) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
        return lua_tostring(L, -1);
    }
    return luaL_tolstring(L, -1, NULL);
}

static void test_require(void) {
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    luaL_requiref(L, "cleave", luaopen_cleave, 0);
    lua_pop(L, 1);
    CHECK(strcmp(run(L, "return rawget(_G, 'cleave') == nil"), "true") == 0);
    CHECK(strcmp(run(L, "local c = require 'cleave' return c.overlaps(c.capsule(-100, -100, "
                        "100, 100, 1), c.capsule(-100, 100, 100, -100, 1))"),
                 "true") == 0);
    CHECK(strcmp(run(L, "return tostring(require 'cleave'.circle(1, 2, 3))"),
                 "circle(1, 2, r=3)") == 0);
    CHECK(strcmp(run(L, "return require 'cleave'.circle(1, 2, -3)"),
                 "[string \"return require 'cleave'.circle(1, 2, -3)\"]:1: bad argument #3 to "
                 "'circle' (radius must be >= 0, got -3)") == 0);
    lua_close(L);
}

static void test_shapes_cross_the_boundary(void) {
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);

    /* pushing works before the module was ever opened in this state */
    clv_shape cap = clv_shape_capsule(1.5f, -2.0f, 4.0f, 8.0f, 0.25f);
    clv_lua_pushshape(L, &cap);
    const clv_shape *back = clv_lua_toshape(L, -1);
    CHECK(back != NULL);
    CHECK(back != NULL && memcmp(back, &cap, sizeof cap) == 0);
    CHECK(strcmp(luaL_tolstring(L, -1, NULL), "capsule(1.5, -2.0, 4.0, 8.0, r=0.25)") == 0);
    lua_pop(L, 2);

    clv_shape box = clv_shape_obb(0.0f, 0.0f, 3.0f, 1.0f, 0.5f);
    clv_lua_pushshape(L, &box);
    lua_setglobal(L, "box");
    luaL_requiref(L, "cleave", luaopen_cleave, 0);
    lua_pop(L, 1);
    /* the angle reads back in degrees */
    CHECK(strcmp(run(L, "local _, _, _, _, a = box:unpack() "
                        "return math.abs(a - math.deg(0.5)) < 1e-4"),
                 "true") == 0);
    CHECK(strcmp(run(L, "return box:kind()"), "obb") == 0);
    CHECK(strcmp(run(L, "return require 'cleave'.overlaps(box, require 'cleave'.point(2, 1))"),
                 "true") == 0);

    /* a shape made in Lua reaches C as the same float shape */
    lua_settop(L, 0);
    CHECK(luaL_dostring(L, "return require 'cleave'.aabb(-1, -2, 3, 4)") == LUA_OK);
    const clv_shape *a = clv_lua_checkshape(L, 1);
    CHECK(a->type == CLV_AABB);
    CHECK(a->u.aabb.min.x == -1.0f && a->u.aabb.min.y == -2.0f);
    CHECK(a->u.aabb.max.x == 3.0f && a->u.aabb.max.y == 4.0f);
    lua_pushinteger(L, 7);
    CHECK(clv_lua_toshape(L, -1) == NULL);
    lua_close(L);
}

static int check_number(lua_State *L) {
    clv_lua_checkshape(L, 1);
    return 0;
}

static void test_checkshape_raises(void) {
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    lua_pushcfunction(L, check_number);
    lua_pushinteger(L, 7);
    CHECK(lua_pcall(L, 1, 0, 0) == LUA_ERRRUN);
    CHECK(strcmp(lua_tostring(L, -1),
                 "bad argument #1 to '?' (cleave.Shape expected, got number)") == 0);
    lua_close(L);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_require);
    RUN(test_shapes_cross_the_boundary);
    RUN(test_checkshape_raises);
    return clv_test_report();
}
