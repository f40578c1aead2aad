/* cleave.exact: the integer-only queries. They read the numbers a shape was built from, not
 * its float copy, so a coordinate like 2^24 + 1 is seen as it was written. */
#include <math.h>

#include "internal.h"

/* Converts one stored number, or raises naming the shape's argument position. */
static int64_t exact_value(lua_State *L, int arg, const char *pname, clv_lnum v, bool radius) {
    int64_t lo = radius ? 0 : -CLV_EXACT_LIMIT;
    int64_t hi = CLV_EXACT_LIMIT;
    if (v.is_int) {
        if (v.i >= lo && v.i <= hi) {
            return (int64_t)v.i;
        }
    } else {
        double d = (double)v.n;
        if (floor(d) != d) {
            clv_lua_push_lnum(L, v);
            luaL_argerror(L, arg,
                          lua_pushfstring(L, "exact mode: %s must be an integer, got %s", pname,
                                          lua_tostring(L, -1)));
        }
        if (d >= (double)lo && d <= (double)hi) {
            return (int64_t)d;
        }
    }
    clv_lua_push_lnum(L, v);
    luaL_argerror(L, arg,
                  lua_pushfstring(L, "exact mode: %s must be in [%s, 2^30], got %s", pname,
                                  radius ? "0" : "-2^30", lua_tostring(L, -1)));
    return 0;
}

static clv_ishape check_ishape(lua_State *L, int arg) {
    clv_lshape *s = clv_lua_check_lshape(L, arg);
    clv_ishape out = {s->f.type, 0, 0, 0, 0, 0};
    if (s->f.type == CLV_OBB) {
        /* a rotated box has irrational corners in general: no integer test can be exact */
        luaL_argerror(L, arg, "exact mode: obb is not supported");
    }
    const char *const *names = clv_lua_param_names[s->f.type];
    int64_t *slots[CLV_LUA_MAX_NUMS] = {&out.ax, &out.ay, &out.bx, &out.by, &out.r};
    if (s->f.type == CLV_CIRCLE) {
        slots[2] = &out.r; /* circle(x, y, radius) */
    }
    for (int i = 0; i < s->count; i++) {
        bool radius = slots[i] == &out.r;
        *slots[i] = exact_value(L, arg, names[i], s->v[i], radius);
    }
    return out;
}

/// exact.overlaps(a, b) -> boolean, integers only
static int l_exact_overlaps(lua_State *L) {
    clv_ishape a = check_ishape(L, 1);
    clv_ishape b = check_ishape(L, 2);
    clv_lua_check_nargs(L, 2);
    lua_pushboolean(L, clv_exact_overlap(&a, &b));
    return 1;
}

const luaL_Reg clv_lua_exact_funcs[] = {
    {"overlaps", l_exact_overlaps},
    {NULL, NULL},
};
