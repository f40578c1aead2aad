/* Argument checking shared by every function of the module. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int clv_lua_argerror(lua_State *L, int arg, const char *msg) {
    lua_Debug ar;
    if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "nf", &ar) && ar.name == NULL &&
        luaL_getmetafield(L, 1, "__index") == LUA_TTABLE) {
        lua_pushnil(L); /* stack: function, methods, key */
        while (lua_next(L, -2)) {
            if (lua_type(L, -2) == LUA_TSTRING && lua_rawequal(L, -1, -4)) {
                return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, lua_tostring(L, -2),
                                  msg);
            }
            lua_pop(L, 1);
        }
    }
    return luaL_argerror(L, arg, msg);
}

int clv_lua_typeerror(lua_State *L, int arg, const char *expected) {
    const char *got = luaL_typename(L, arg);
    if (luaL_getmetafield(L, arg, "__name") == LUA_TSTRING) {
        got = lua_tostring(L, -1);
    } else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA) {
        got = "light userdata";
    }
    return clv_lua_argerror(L, arg, lua_pushfstring(L, "%s expected, got %s", expected, got));
}

bool clv_lua_createmeta(lua_State *L, const char *name, const luaL_Reg *metamethods,
                        const luaL_Reg *methods, bool self_upvalue) {
    if (!luaL_newmetatable(L, name)) {
        return false;
    }
    if (metamethods != NULL) {
        luaL_setfuncs(L, metamethods, 0);
    }
    lua_newtable(L);
    if (self_upvalue) {
        lua_pushvalue(L, -2);
    }
    luaL_setfuncs(L, methods, self_upvalue ? 1 : 0);
    lua_setfield(L, -2, "__index");
    /* scripts cannot reach the methods through getmetatable and change them */
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    return true;
}

void clv_lua_check_nargs(lua_State *L, int n) {
    if (lua_gettop(L) > n) {
        luaL_typeerror(L, n + 1, "no value");
    }
}

/* Edits that turn a into b: insertions, deletions, substitutions, and swaps of two neighbours
 * (so that the slip "kidn" is one edit from "kind", not two as from "id"). */
static size_t edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40) {
        return 99;
    }
    size_t rows[3][41], *two = rows[0], *one = rows[1], *row = rows[2];
    for (size_t j = 0; j <= lb; j++) {
        one[j] = j;
    }
    for (size_t i = 1; i <= la; i++) {
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t best = one[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            if (one[j] + 1 < best) {
                best = one[j] + 1;
            }
            if (row[j - 1] + 1 < best) {
                best = row[j - 1] + 1;
            }
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                two[j - 2] + 1 < best) {
                best = two[j - 2] + 1;
            }
            row[j] = best;
        }
        size_t *t = two;
        two = one, one = row, row = t;
    }
    return one[lb];
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

clv_lnum clv_lua_check_lnum(lua_State *L, int arg, const char *pname) {
    clv_lnum v = {false, 0, 0};
    if (lua_type(L, arg) != LUA_TNUMBER) {
        /* numeric strings are refused too: a shape built from "10" is almost always a bug */
        luaL_typeerror(L, arg, "number");
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
        luaL_argerror(L, arg, lua_pushfstring(L, "%s must not be nan", pname));
    }
    if (isinf(d) || fabs(d) > (double)FLT_MAX) {
        clv_lua_push_lnum(L, v);
        const char *got = lua_tostring(L, -1);
        const char *rule = isinf(d) ? "be finite" : "fit in a float";
        luaL_argerror(L, arg, lua_pushfstring(L, "%s must %s, got %s", pname, rule, got));
    }
    return v;
}

float clv_lua_lnum_float(clv_lnum v) { return v.is_int ? (float)v.i : (float)v.n; }

lua_Number clv_lua_lnum_number(clv_lnum v) { return v.is_int ? (lua_Number)v.i : v.n; }

clv_lshape *clv_lua_check_lshape(lua_State *L, int arg) {
    return (clv_lshape *)luaL_checkudata(L, arg, CLV_LUA_SHAPE);
}

/* Length of the printable UTF-8 character at p (n bytes left), or 0 when the byte at p starts
 * none: a control byte, DEL, a malformed or overlong sequence, a surrogate, a C1 control, or a
 * character that moves text around on a terminal (line and paragraph separators, bidi
 * overrides and isolates). */
static size_t printable_len(const unsigned char *p, size_t n) {
    unsigned c = p[0];
    if (c >= 0x20 && c < 0x7f) {
        return 1;
    }
    size_t len;
    uint32_t cp, min;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2, cp = c & 0x1fu, min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3, cp = c & 0x0fu, min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4, cp = c & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len) {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0u) != 0x80u) {
            return 0;
        }
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    bool moves = cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
                 (cp >= 0x2066 && cp <= 0x2069);
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp <= 0x9f || moves) {
        return 0;
    }
    return len;
}

bool clv_lua_name_ok(const char *s, size_t len, char *why, size_t whylen) {
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t k = printable_len(p + i, len - i);
        if (k == 0) {
            const char *what = p[i] == 0                     ? "a NUL byte"
                               : p[i] < 0x20 || p[i] == 0x7f ? "a control byte"
                                                             : "a byte that is not printable UTF-8";
            snprintf(why, whylen, "holds %s (\\%u at byte %zu); names are printable UTF-8", what,
                     (unsigned)p[i], i + 1);
            return false;
        }
        i += k;
    }
    return true;
}

const char *clv_lua_escape(const char *s, char *out, size_t outlen) {
    if (out == NULL || outlen == 0) {
        return out;
    }
    size_t o = 0, n = s != NULL ? strlen(s) : 0;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = printable_len(p + i, n - i);
        char esc[8];
        const char *src = (const char *)p + i;
        if (k == 0) {
            k = (size_t)snprintf(esc, sizeof esc, "\\%u", (unsigned)p[i]);
            src = esc;
            i++;
        } else {
            i += k;
        }
        if (o + k >= outlen) {
            break; /* a character is written whole or not at all */
        }
        memcpy(out + o, src, k);
        o += k;
    }
    out[o] = '\0';
    return out;
}
