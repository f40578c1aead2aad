/* The float queries: thin wrappers over the collide API; shapes first, so each one is also a
 * method of cleave.Shape. Geometry goes out as plain numbers, never as small tables. */
#include "cleave/motion.h"

#include "internal.h"

/* Both shapes of a pair query, and nothing more. */
static void check_pair(lua_State *L, clv_lshape **a, clv_lshape **b) {
    *a = clv_lua_check_lshape(L, 1);
    *b = clv_lua_check_lshape(L, 2);
    clv_lua_check_nargs(L, 2);
}

static void push_float(lua_State *L, float v) { lua_pushnumber(L, (lua_Number)v); }

/// overlaps(a, b) -> boolean
static int l_overlaps(lua_State *L) {
    clv_lshape *a, *b;
    check_pair(L, &a, &b);
    lua_pushboolean(L, clv_overlap(&a->f, &b->f));
    return 1;
}

/// distance(a, b) -> gap >= 0
static int l_distance(lua_State *L) {
    clv_lshape *a, *b;
    check_pair(L, &a, &b);
    push_float(L, clv_distance(&a->f, &b->f));
    return 1;
}

/// contact(a, b) -> nil | nx, ny, depth
static int l_contact(lua_State *L) {
    clv_lshape *a, *b;
    check_pair(L, &a, &b);
    clv_contact c;
    if (!clv_contact_shapes(&a->f, &b->f, &c)) {
        lua_pushnil(L);
        return 1;
    }
    push_float(L, c.normal.x);
    push_float(L, c.normal.y);
    push_float(L, c.depth);
    return 3;
}

/// closest(a, b) -> distance, ax, ay, bx, by, ta, tb
static int l_closest(lua_State *L) {
    clv_lshape *a, *b;
    check_pair(L, &a, &b);
    clv_closest c = clv_closest_points(&a->f, &b->f);
    push_float(L, c.distance);
    push_float(L, c.pa.x);
    push_float(L, c.pa.y);
    push_float(L, c.pb.x);
    push_float(L, c.pb.y);
    push_float(L, c.ta);
    push_float(L, c.tb);
    return 7;
}

/// raycast(s, ox, oy, dx, dy, max_t) -> nil | t, nx, ny
static int l_raycast(lua_State *L) {
    static const char *const names[5] = {"ox", "oy", "dx", "dy", "max_t"};
    clv_lshape *s = clv_lua_check_lshape(L, 1);
    clv_lnum v[5];
    for (int i = 0; i < 5; i++) {
        v[i] = clv_lua_check_lnum(L, i + 2, names[i]);
    }
    if (clv_lua_lnum_number(v[4]) < 0) {
        clv_lua_push_lnum(L, v[4]);
        luaL_argerror(L, 6, lua_pushfstring(L, "max_t must be >= 0, got %s", lua_tostring(L, -1)));
    }
    clv_lua_check_nargs(L, 6);
    clv_vec2 origin = clv_v2(clv_lua_lnum_float(v[0]), clv_lua_lnum_float(v[1]));
    clv_vec2 dir = clv_v2(clv_lua_lnum_float(v[2]), clv_lua_lnum_float(v[3]));
    clv_ray_hit hit;
    if (!clv_raycast(&s->f, origin, dir, clv_lua_lnum_float(v[4]), &hit)) {
        lua_pushnil(L);
        return 1;
    }
    push_float(L, hit.t);
    push_float(L, hit.normal.x);
    push_float(L, hit.normal.y);
    return 3;
}

/// sweep(moving, dx, dy, target) -> nil | t in [0, 1], the first time the surfaces meet
static int l_sweep(lua_State *L) {
    clv_lshape *moving = clv_lua_check_lshape(L, 1);
    clv_lnum dx = clv_lua_check_lnum(L, 2, "dx");
    clv_lnum dy = clv_lua_check_lnum(L, 3, "dy");
    clv_lshape *target = clv_lua_check_lshape(L, 4);
    clv_lua_check_nargs(L, 4);
    clv_vec2 delta = clv_v2(clv_lua_lnum_float(dx), clv_lua_lnum_float(dy));
    float t;
    if (!clv_sweep(&moving->f, delta, &target->f, &t)) {
        lua_pushnil(L);
        return 1;
    }
    push_float(L, t);
    return 1;
}

const luaL_Reg clv_lua_query_funcs[] = {
    {"overlaps", l_overlaps},
    {"distance", l_distance},
    {"contact", l_contact},
    {"closest", l_closest},
    {"raycast", l_raycast},
    {"sweep", l_sweep},
    {NULL, NULL},
};
