/* cleave.Shape: constructors, read-back methods and metamethods. */
#include <math.h>
#include <string.h>

#include "internal.h"

const char *const clv_lua_param_names[CLV_SHAPE_TYPE_COUNT][CLV_LUA_MAX_NUMS] = {
    [CLV_POINT] = {"x", "y", NULL, NULL, NULL},
    [CLV_CIRCLE] = {"x", "y", "radius", NULL, NULL},
    [CLV_CAPSULE] = {"ax", "ay", "bx", "by", "radius"},
    [CLV_AABB] = {"min_x", "min_y", "max_x", "max_y", NULL},
    [CLV_OBB] = {"cx", "cy", "half_w", "half_h", "angle"},
};

static const int param_counts[CLV_SHAPE_TYPE_COUNT] = {
    [CLV_POINT] = 2, [CLV_CIRCLE] = 3, [CLV_CAPSULE] = 5, [CLV_AABB] = 4, [CLV_OBB] = 5,
};

static const char *const kind_names[CLV_SHAPE_TYPE_COUNT] = {
    [CLV_POINT] = "point", [CLV_CIRCLE] = "circle", [CLV_CAPSULE] = "capsule",
    [CLV_AABB] = "aabb",   [CLV_OBB] = "obb",
};

const char *clv_lua_kind_name(clv_shape_type type) {
    return (unsigned)type < CLV_SHAPE_TYPE_COUNT ? kind_names[type] : "?";
}

/* The unit x axis of a box rotated by deg degrees. The angle is reduced to the nearest
 * quarter turn first, so multiples of 90 give exact 0 and +-1 (cos(pi/2) in floating point is
 * 6e-17, not 0, and would tilt an axis-aligned obb). */
static clv_vec2 axis_from_degrees(double deg) {
    double turn = fmod(deg, 360.0); /* exact */
    double quarter = nearbyint(turn / 90.0);
    double rad = (turn - quarter * 90.0) * (CLV_PI / 180.0);
    double c = cos(rad), s = sin(rad);
    int q = ((int)quarter % 4 + 4) % 4;
    switch (q) {
    case 1:
        return clv_v2((float)-s, (float)c);
    case 2:
        return clv_v2((float)-c, (float)-s);
    case 3:
        return clv_v2((float)s, (float)-c);
    default:
        return clv_v2((float)c, (float)s);
    }
}

/* Lua-precision a < b for two checked numbers, mixed integer/float included. */
static bool lnum_less(clv_lnum a, clv_lnum b) {
    if (a.is_int && b.is_int) {
        return a.i < b.i;
    }
    if (!a.is_int && !b.is_int) {
        return a.n < b.n;
    }
    /* mixed: compare the way Lua does, without rounding the integer to a float */
    lua_Number x = a.is_int ? b.n : a.n;
    lua_Integer k = a.is_int ? a.i : b.i;
    lua_Number fl = floor(x);
    /* x is finite; 2^63 is exact as a double, and beyond +-2^63 the answer needs no cast */
    if (fl >= 9223372036854775808.0) {
        return a.is_int; /* k < x, never x < k */
    }
    if (fl < -9223372036854775808.0) {
        return !a.is_int;
    }
    lua_Integer xf = (lua_Integer)fl;
    if (a.is_int) { /* k < x */
        return k < xf || (k == xf && x > fl);
    }
    return xf < k; /* x < k */
}

static int new_shape(lua_State *L, clv_shape_type type) {
    const char *const *names = clv_lua_param_names[type];
    int n = param_counts[type];
    clv_lshape tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.count = n;
    float f[CLV_LUA_MAX_NUMS] = {0};
    for (int i = 0; i < n; i++) {
        tmp.v[i] = clv_lua_check_lnum(L, i + 1, names[i]);
        f[i] = clv_lua_lnum_float(tmp.v[i]);
    }
    clv_lua_check_nargs(L, n);

    /* the rules of each kind, checked on the numbers as given */
    clv_lnum zero = {true, 0, 0};
    int radius_arg = type == CLV_CIRCLE ? 3 : type == CLV_CAPSULE ? 5 : 0;
    if (radius_arg && lnum_less(tmp.v[radius_arg - 1], zero)) {
        clv_lua_push_lnum(L, tmp.v[radius_arg - 1]);
        luaL_argerror(L, radius_arg,
                      lua_pushfstring(L, "radius must be >= 0, got %s", lua_tostring(L, -1)));
    }
    if (type == CLV_AABB) {
        for (int axis = 0; axis < 2; axis++) {
            if (lnum_less(tmp.v[axis + 2], tmp.v[axis])) {
                clv_lua_push_lnum(L, tmp.v[axis]);
                clv_lua_push_lnum(L, tmp.v[axis + 2]);
                luaL_argerror(L, axis + 3,
                              lua_pushfstring(L, "%s must be >= %s (%s), got %s", names[axis + 2],
                                              names[axis], lua_tostring(L, -2),
                                              lua_tostring(L, -1)));
            }
        }
    }
    if (type == CLV_OBB) {
        for (int i = 2; i < 4; i++) {
            if (lnum_less(tmp.v[i], zero)) {
                clv_lua_push_lnum(L, tmp.v[i]);
                luaL_argerror(
                    L, i + 1,
                    lua_pushfstring(L, "%s must be >= 0, got %s", names[i], lua_tostring(L, -1)));
            }
        }
    }

    switch (type) {
    case CLV_POINT:
        tmp.f = clv_shape_point(f[0], f[1]);
        break;
    case CLV_CIRCLE:
        tmp.f = clv_shape_circle(f[0], f[1], f[2]);
        break;
    case CLV_CAPSULE:
        tmp.f = clv_shape_capsule(f[0], f[1], f[2], f[3], f[4]);
        break;
    case CLV_AABB:
        tmp.f = clv_shape_aabb(f[0], f[1], f[2], f[3]);
        break;
    case CLV_OBB: {
        double deg = (double)clv_lua_lnum_number(tmp.v[4]);
        double rad = fmod(deg, 360.0) * (CLV_PI / 180.0);
        tmp.f = clv_shape_obb(f[0], f[1], f[2], f[3], (float)rad);
        /* the collide API takes radians, whose float cos/sin are off at quarter turns */
        tmp.f.u.obb.u = axis_from_degrees(deg);
        break;
    }
    default:
        break;
    }

    clv_lshape *s = (clv_lshape *)lua_newuserdatauv(L, sizeof *s, 0);
    *s = tmp;
    luaL_setmetatable(L, CLV_LUA_SHAPE);
    return 1;
}

static int l_point(lua_State *L) { return new_shape(L, CLV_POINT); }
static int l_circle(lua_State *L) { return new_shape(L, CLV_CIRCLE); }
static int l_capsule(lua_State *L) { return new_shape(L, CLV_CAPSULE); }
static int l_aabb(lua_State *L) { return new_shape(L, CLV_AABB); }
static int l_obb(lua_State *L) { return new_shape(L, CLV_OBB); }

static int l_is_shape(lua_State *L) {
    if (lua_isnone(L, 1)) {
        luaL_typeerror(L, 1, "value");
    }
    clv_lua_check_nargs(L, 1);
    lua_pushboolean(L, luaL_testudata(L, 1, CLV_LUA_SHAPE) != NULL);
    return 1;
}

/* ---- methods ---- */

static int m_kind(lua_State *L) {
    clv_lshape *s = clv_lua_check_lshape(L, 1);
    clv_lua_check_nargs(L, 1);
    lua_pushstring(L, kind_names[s->f.type]);
    return 1;
}

static void push_value(lua_State *L, clv_lnum v) {
    if (v.is_int) {
        lua_pushinteger(L, v.i);
    } else {
        lua_pushnumber(L, v.n);
    }
}

static int m_unpack(lua_State *L) {
    clv_lshape *s = clv_lua_check_lshape(L, 1);
    clv_lua_check_nargs(L, 1);
    luaL_checkstack(L, s->count, "too many values");
    for (int i = 0; i < s->count; i++) {
        push_value(L, s->v[i]);
    }
    return s->count;
}

static int m_bounds(lua_State *L) {
    clv_lshape *s = clv_lua_check_lshape(L, 1);
    clv_lua_check_nargs(L, 1);
    clv_aabb b = clv_shape_bounds(&s->f);
    lua_pushnumber(L, (lua_Number)b.min.x);
    lua_pushnumber(L, (lua_Number)b.min.y);
    lua_pushnumber(L, (lua_Number)b.max.x);
    lua_pushnumber(L, (lua_Number)b.max.y);
    return 4;
}

static int mm_tostring(lua_State *L) {
    clv_lshape *s = clv_lua_check_lshape(L, 1);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, kind_names[s->f.type]);
    luaL_addchar(&b, '(');
    for (int i = 0; i < s->count; i++) {
        if (i > 0) {
            luaL_addstring(&b, ", ");
        }
        bool last = i == s->count - 1;
        if (last && (s->f.type == CLV_CIRCLE || s->f.type == CLV_CAPSULE)) {
            luaL_addstring(&b, "r=");
        } else if (last && s->f.type == CLV_OBB) {
            luaL_addstring(&b, "angle=");
        }
        clv_lua_push_lnum(L, s->v[i]);
        luaL_addvalue(&b);
    }
    luaL_addchar(&b, ')');
    luaL_pushresult(&b);
    return 1;
}

static int mm_eq(lua_State *L) {
    /* __eq only runs for two userdata; either may be a foreign type */
    clv_lshape *a = (clv_lshape *)luaL_testudata(L, 1, CLV_LUA_SHAPE);
    clv_lshape *b = (clv_lshape *)luaL_testudata(L, 2, CLV_LUA_SHAPE);
    bool eq = a != NULL && b != NULL && a->f.type == b->f.type && a->count == b->count;
    for (int i = 0; eq && i < a->count; i++) {
        push_value(L, a->v[i]);
        push_value(L, b->v[i]);
        eq = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
    }
    lua_pushboolean(L, eq);
    return 1;
}

const luaL_Reg clv_lua_shape_funcs[] = {
    {"point", l_point}, {"circle", l_circle},     {"capsule", l_capsule}, {"aabb", l_aabb},
    {"obb", l_obb},     {"is_shape", l_is_shape}, {NULL, NULL},
};

static const luaL_Reg shape_methods[] = {
    {"kind", m_kind},
    {"unpack", m_unpack},
    {"bounds", m_bounds},
    {NULL, NULL},
};

static const luaL_Reg shape_metamethods[] = {
    {"__tostring", mm_tostring},
    {"__eq", mm_eq},
    {NULL, NULL},
};

void clv_lua_shape_meta(lua_State *L) {
    if (clv_lua_createmeta(L, CLV_LUA_SHAPE, shape_metamethods, shape_methods, false)) {
        /* every query takes the shape first, so a:overlaps(b) is cleave.overlaps(a, b) */
        lua_getfield(L, -1, "__index");
        luaL_setfuncs(L, clv_lua_query_funcs, 0);
        lua_pop(L, 1);
    }
}

/* ---- C helpers of the public header ---- */

const clv_shape *clv_lua_toshape(lua_State *L, int idx) {
    clv_lshape *s = (clv_lshape *)luaL_testudata(L, idx, CLV_LUA_SHAPE);
    return s != NULL ? &s->f : NULL;
}

const clv_shape *clv_lua_checkshape(lua_State *L, int idx) {
    return &clv_lua_check_lshape(L, idx)->f;
}

void clv_lua_pushshape(lua_State *L, const clv_shape *in) {
    clv_lua_shape_meta(L); /* the state may never have required the module */
    lua_pop(L, 1);
    clv_lshape tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.f = *in;
    float f[CLV_LUA_MAX_NUMS] = {0};
    double angle = 0;
    int n = (unsigned)in->type < CLV_SHAPE_TYPE_COUNT ? param_counts[in->type] : 0;
    switch (in->type) {
    case CLV_POINT:
        f[0] = in->u.point.x, f[1] = in->u.point.y;
        break;
    case CLV_CIRCLE:
        f[0] = in->u.circle.c.x, f[1] = in->u.circle.c.y, f[2] = in->u.circle.r;
        break;
    case CLV_CAPSULE:
        f[0] = in->u.capsule.a.x, f[1] = in->u.capsule.a.y;
        f[2] = in->u.capsule.b.x, f[3] = in->u.capsule.b.y, f[4] = in->u.capsule.r;
        break;
    case CLV_AABB:
        f[0] = in->u.aabb.min.x, f[1] = in->u.aabb.min.y;
        f[2] = in->u.aabb.max.x, f[3] = in->u.aabb.max.y;
        break;
    case CLV_OBB:
        f[0] = in->u.obb.c.x, f[1] = in->u.obb.c.y;
        f[2] = in->u.obb.h.x, f[3] = in->u.obb.h.y;
        angle = atan2((double)in->u.obb.u.y, (double)in->u.obb.u.x) * (180.0 / CLV_PI);
        break;
    default:
        break;
    }
    tmp.count = n;
    for (int i = 0; i < n; i++) {
        tmp.v[i].n = (lua_Number)f[i];
    }
    if (in->type == CLV_OBB) {
        tmp.v[4].n = (lua_Number)angle;
    }
    clv_lshape *s = (clv_lshape *)lua_newuserdatauv(L, sizeof *s, 0);
    *s = tmp;
    luaL_setmetatable(L, CLV_LUA_SHAPE);
}
