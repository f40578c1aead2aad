/* Argument checking shared by every function of the module. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int clv_lua_argerror(lua_State *L, int arg, const char *fallback, const char *msg) {
    /* Same rules as luaL_argerror (method calls do not count self), except the fallback name:
     * luaL_argerror looks the function up in package.loaded, which cannot see through the
     * module's read-only proxy and would print '?'. */
    lua_Debug ar;
    const char *name = fallback;
    if (lua_getstack(L, 0, &ar)) {
        lua_getinfo(L, "n", &ar);
        if (ar.namewhat != NULL && strcmp(ar.namewhat, "method") == 0) {
            arg--;
            if (arg == 0) {
                return luaL_error(L, "calling '%s' on bad self (%s)", ar.name, msg);
            }
        }
        if (ar.name != NULL) {
            name = ar.name;
        }
    }
    return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, name, msg);
}

int clv_lua_typeerror(lua_State *L, int arg, const char *fallback, const char *expected) {
    const char *got;
    if (luaL_getmetafield(L, arg, "__name") == LUA_TSTRING) {
        got = lua_tostring(L, -1);
    } else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA) {
        got = "light userdata";
    } else {
        got = luaL_typename(L, arg);
    }
    const char *msg = lua_pushfstring(L, "%s expected, got %s", expected, got);
    return clv_lua_argerror(L, arg, fallback, msg);
}

void clv_lua_check_nargs(lua_State *L, int n, const char *fallback) {
    if (lua_gettop(L) > n) {
        clv_lua_typeerror(L, n + 1, fallback, "no value");
    }
}

static size_t edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40) {
        return 99;
    }
    size_t row[41];
    for (size_t j = 0; j <= lb; j++) {
        row[j] = j;
    }
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = diag + cost;
            if (row[j] + 1 < best) {
                best = row[j] + 1;
            }
            if (row[j - 1] + 1 < best) {
                best = row[j - 1] + 1;
            }
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *clv_lua_nearest(const char *key, const char *const *known) {
    const char *best = NULL;
    size_t bestd = 99;
    for (int i = 0; known[i] != NULL; i++) {
        size_t d = edit_distance(key, known[i]);
        if (d < bestd) {
            bestd = d, best = known[i];
        }
    }
    /* a one-letter slip in a short name, up to three in a long one */
    size_t lim = strlen(key) / 2;
    if (lim < 1) {
        lim = 1;
    }
    if (lim > 3) {
        lim = 3;
    }
    return best != NULL && bestd <= lim ? best : NULL;
}

void clv_lua_push_lnum(lua_State *L, clv_lnum v) {
    if (v.is_int) {
        lua_pushfstring(L, "%I", (LUAI_UACINT)v.i);
        return;
    }
    double d = (double)v.n;
    if (isnan(d)) {
        lua_pushliteral(L, "nan");
        return;
    }
    if (isinf(d)) {
        lua_pushstring(L, d > 0 ? "inf" : "-inf");
        return;
    }
    /* Lua's own tostring prints 14 digits, which can show two different floats the same way;
     * a shape's text must tell them apart, so take the fewest digits that read back exactly. */
    char buf[64];
    for (int prec = 14; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (strtod(buf, NULL) == d) {
            break;
        }
    }
    if (buf[strspn(buf, "-0123456789")] == '\0') {
        /* looks like an integer: mark it as a float, as Lua does */
        strcat(buf, ".0");
    }
    lua_pushstring(L, buf);
}

clv_lnum clv_lua_check_lnum(lua_State *L, int arg, const char *fallback, const char *pname) {
    clv_lnum v = {false, 0, 0};
    if (lua_type(L, arg) != LUA_TNUMBER) {
        /* numeric strings are refused too: a shape built from "10" is almost always a bug */
        clv_lua_typeerror(L, arg, fallback, "number");
    }
    if (lua_isinteger(L, arg)) {
        /* every 64-bit integer is below FLT_MAX, so it always converts */
        v.is_int = true;
        v.i = lua_tointeger(L, arg);
        return v;
    }
    v.n = lua_tonumber(L, arg);
    double d = (double)v.n;
    if (isnan(d)) {
        clv_lua_argerror(L, arg, fallback, lua_pushfstring(L, "%s must not be nan", pname));
    }
    if (isinf(d) || fabs(d) > (double)FLT_MAX) {
        clv_lua_push_lnum(L, v);
        const char *got = lua_tostring(L, -1);
        const char *rule = isinf(d) ? "be finite" : "fit in a float";
        clv_lua_argerror(L, arg, fallback,
                         lua_pushfstring(L, "%s must %s, got %s", pname, rule, got));
    }
    return v;
}

float clv_lua_lnum_float(clv_lnum v) { return v.is_int ? (float)v.i : (float)v.n; }

lua_Number clv_lua_lnum_number(clv_lnum v) { return v.is_int ? (lua_Number)v.i : v.n; }

clv_lshape *clv_lua_check_lshape(lua_State *L, int arg, const char *fallback) {
    clv_lshape *s = (clv_lshape *)luaL_testudata(L, arg, CLV_LUA_SHAPE);
    if (s == NULL) {
        clv_lua_typeerror(L, arg, fallback, CLV_LUA_SHAPE);
    }
    return s;
}
