/* The field reader behind every table the binding validates (weapons, arena spawn and attack
 * tables, mods): typed fields with errors that name file, line and field path, and unknown keys
 * with the nearest known name.
 *
 * Table constructors carry no line numbers, so the constructor functions (cleave.weapon,
 * cleave.hitbox, cleave.arc, cleave.thrust, cleave.effect) record the line of their call site
 * in a weak table; an error is reported at the line of the innermost such call that encloses
 * the bad field. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void weak_table(lua_State *L, const char *key) {
    if (lua_getfield(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) {
        return;
    }
    lua_pop(L, 1);
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, key);
}

/* Pushes "file:line" of the nearest Lua function up the stack from the running C function. */
void clv_lua_push_call_site(lua_State *L) {
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0) {
            lua_pushfstring(L, "%s:%d", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "?");
}

/* Tags the table at idx with the caller's line and a kind. */
void clv_lua_tag_table(lua_State *L, int idx, const char *kind) {
    idx = lua_absindex(L, idx);
    weak_table(L, CLV_LUA_TAG_WHERE);
    lua_pushvalue(L, idx);
    clv_lua_push_call_site(L);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    weak_table(L, CLV_LUA_TAG_KIND);
    lua_pushvalue(L, idx);
    lua_pushstring(L, kind);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* The tag of the table at idx (kind or where), or NULL. The string stays in the weak table. */
const char *clv_lua_table_tag(lua_State *L, int idx, const char *key) {
    idx = lua_absindex(L, idx);
    weak_table(L, key);
    lua_pushvalue(L, idx);
    lua_rawget(L, -2);
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 2);
    return s;
}

/* Pushes the formatted message and ends the path at its current length. */
static const char *push_message(clv_fctx *c, const char *fmt, va_list ap) {
    const char *msg = lua_pushvfstring(c->L, fmt, ap);
    c->path[c->plen] = '\0';
    return msg;
}

/* The caller's "file:line: " when the context asks for it (looked up only on failure), else "". */
static const char *caller_pos(clv_fctx *c) {
    if (!c->at_caller) {
        return "";
    }
    luaL_where(c->L, 1); /* level 1: the Lua function that called the running C function */
    return lua_tostring(c->L, -1);
}

/* The remark said after the path, or "". */
static const char *remark_of(const clv_fctx *c) { return c->remark != NULL ? c->remark : ""; }

int clv_f_fail(clv_fctx *c, const char *fmt, ...) {
    lua_State *L = c->L;
    va_list ap;
    va_start(ap, fmt);
    const char *msg = push_message(c, fmt, ap);
    va_end(ap);
    const char *pos = caller_pos(c);
    lua_pushfstring(L, "%s%s: %s%s%s%s", pos, c->where, c->path, remark_of(c),
                    c->plen > 0 ? " " : "", msg);
    return lua_error(L);
}

/* A message about the current table itself, "path: msg". */
int clv_f_fail_at(clv_fctx *c, const char *fmt, ...) {
    lua_State *L = c->L;
    va_list ap;
    va_start(ap, fmt);
    const char *msg = push_message(c, fmt, ap);
    va_end(ap);
    const char *at = c->plen > 0 ? c->path : c->table, *pos = caller_pos(c);
    if (at == NULL) {
        lua_pushfstring(L, "%s%s: %s", pos, c->where, msg);
    } else {
        lua_pushfstring(L, "%s%s: %s%s: %s", pos, c->where, at, c->plen > 0 ? remark_of(c) : "",
                        msg);
    }
    return lua_error(L);
}

static bool is_ident(const char *s) {
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) {
        return false;
    }
    for (; *s; s++) {
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
              (*s >= '0' && *s <= '9'))) {
            return false;
        }
    }
    return true;
}

/* Appends n bytes of s to the path, as much as fits (the path stays terminated): what snprintf
 * of the whole piece would leave. Every field a mod's tables are read through extends the
 * path, so it is copied, not formatted. */
static void path_add(clv_fctx *c, const char *s, size_t n) {
    size_t room = sizeof c->path - c->plen;
    size_t take = n < room ? n : room - 1;
    memcpy(c->path + c->plen, s, take);
    c->plen += take;
    c->path[c->plen] = '\0';
}

size_t clv_f_key(clv_fctx *c, const char *key) {
    size_t old = c->plen;
    if (is_ident(key)) {
        if (c->plen > 0) {
            path_add(c, ".", 1);
        }
        path_add(c, key, strlen(key));
    } else {
        path_add(c, "[\"", 2);
        path_add(c, key, strlen(key));
        path_add(c, "\"]", 2);
    }
    return old;
}

size_t clv_f_index(clv_fctx *c, lua_Integer i) {
    size_t old = c->plen;
    char digits[24], *d = digits + sizeof digits;
    uint64_t u = i < 0 ? 0u - (uint64_t)i : (uint64_t)i;
    *--d = ']';
    do {
        *--d = (char)('0' + u % 10u);
        u /= 10u;
    } while (u != 0);
    if (i < 0) {
        *--d = '-';
    }
    *--d = '[';
    path_add(c, d, (size_t)(digits + sizeof digits - d));
    return old;
}

void clv_f_remark(clv_fctx *c, const char *text) {
    c->remark = text;
    c->remark_at = c->plen;
}

void clv_f_pop(clv_fctx *c, size_t old) {
    c->plen = old;
    c->path[old] = '\0';
    if (c->remark != NULL && old < c->remark_at) {
        c->remark = NULL;
    }
}

/* Enters the table at idx: takes its call-site line when it has one. Returns the old where. */
const char *clv_f_enter(clv_fctx *c, int idx) {
    const char *old = c->where;
    const char *w = clv_lua_table_tag(c->L, idx, CLV_LUA_TAG_WHERE);
    if (w != NULL) {
        c->where = w;
    }
    return old;
}

/* ---- unknown fields and their nearest known name ---- */

int clv_f_name_at(const char *k, const char *const *known) {
    for (int i = 0; known[i] != NULL; i++) {
        /* the first letter rules out most names without a call: a weapon's hitboxes and a
         * crowd's spawns ask often */
        if (k[0] == known[i][0] && strcmp(k, known[i]) == 0) {
            return i;
        }
    }
    return -1;
}

bool clv_f_in_list(const char *k, const char *const *known) { return clv_f_name_at(k, known) >= 0; }

/* Every key of the table at idx must be a string in known (or, with allow_array, a positive
 * integer). */
void clv_f_check_keys(clv_fctx *c, int idx, const char *const *known, bool allow_array) {
    lua_State *L = c->L;
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TNUMBER && allow_array && lua_isinteger(L, -1) &&
            lua_tointeger(L, -1) >= 1) {
            continue;
        }
        if (lua_type(L, -1) != LUA_TSTRING) {
            lua_pushvalue(L, -1);
            const char *k = luaL_tolstring(L, -1, NULL);
            clv_f_fail_at(c, "unexpected key [%s] (fields are named)", k);
        }
        const char *k = lua_tostring(L, -1);
        if (clv_f_in_list(k, known)) {
            continue;
        }
        const char *best = clv_lua_nearest(k, known);
        if (best != NULL) {
            clv_f_fail_at(c, "unknown field '%s' (did you mean '%s'?)", k, best);
        }
        clv_f_fail_at(c, "unknown field '%s'", k);
    }
}

const char *clv_f_enter_fields(clv_fctx *c, int idx, const char *const *known) {
    if (lua_type(c->L, idx) != LUA_TTABLE) {
        clv_f_fail(c, "must be a table (got %s)", clv_f_type_name(c->L, idx));
    }
    const char *old = clv_f_enter(c, idx);
    clv_f_check_keys(c, idx, known, false);
    return old;
}

/* ---- typed field readers: the field is pushed by the caller at the top ---- */

const char *clv_f_type_name(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TNUMBER) {
        return lua_isinteger(L, idx) ? "integer" : "number";
    }
    if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING) {
        const char *n = lua_tostring(L, -1);
        lua_pop(L, 1);
        return n;
    }
    return luaL_typename(L, idx);
}

const char *clv_f_value_text(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TNUMBER) {
        clv_lnum v = {lua_isinteger(L, idx) != 0, lua_tointeger(L, idx), lua_tonumber(L, idx)};
        clv_lua_push_lnum(L, v);
        return lua_tostring(L, -1);
    }
    if (lua_type(L, idx) == LUA_TSTRING) {
        return lua_pushfstring(L, "'%s'", lua_tostring(L, idx));
    }
    return clv_f_type_name(L, idx);
}

/* The number at the top; must be finite and fit a float (cleave_hit's numbers are floats: its
 * own checks, with their narrower ranges, follow). Pops it. */
double clv_f_number(clv_fctx *c) {
    lua_State *L = c->L;
    if (lua_type(L, -1) != LUA_TNUMBER) {
        clv_f_fail(c, "must be a number (got %s)", clv_f_type_name(L, -1));
    }
    double d = (double)lua_tonumber(L, -1);
    if (!isfinite(d)) {
        clv_f_fail(c, "must be finite (got %s)", clv_f_value_text(L, -1));
    }
    if (fabs(d) > (double)FLT_MAX) {
        clv_f_fail(c, "must be within +-3.4e38, the range of a float (got %s)",
                   clv_f_value_text(L, -1));
    }
    lua_pop(L, 1);
    return d;
}

lua_Integer clv_f_integer(clv_fctx *c, lua_Integer lo, lua_Integer hi) {
    lua_State *L = c->L;
    if (lua_type(L, -1) != LUA_TNUMBER) {
        clv_f_fail(c, "must be an integer (got %s)", clv_f_type_name(L, -1));
    }
    lua_Integer v;
    if (!lua_isinteger(L, -1)) {
        double d = (double)lua_tonumber(L, -1);
        if (!(d == floor(d)) || fabs(d) > 2.0e9) {
            clv_f_fail(c, "must be an integer (got %s)", clv_f_value_text(L, -1));
        }
        v = (lua_Integer)d;
    } else {
        v = lua_tointeger(L, -1);
    }
    if (v < lo) {
        if (lo == 1) {
            clv_f_fail(c, "must be >= 1 (got %s)", clv_f_value_text(L, -1));
        }
        clv_f_fail(c, "must be >= %I (got %s)", (LUAI_UACINT)lo, clv_f_value_text(L, -1));
    }
    if (v > hi) {
        clv_f_fail(c, "must be <= %I (got %s)", (LUAI_UACINT)hi, clv_f_value_text(L, -1));
    }
    lua_pop(L, 1);
    return v;
}

/* Gets field key of the table at idx onto the stack and extends the path; returns the type. */
int clv_f_get(clv_fctx *c, int idx, const char *key, size_t *old) {
    *old = clv_f_key(c, key);
    return lua_getfield(c->L, idx, key);
}

/* Like clv_f_get for an optional field: an absent (nil) one is popped and the path restored. */
static int get_opt(clv_fctx *c, int idx, const char *key, size_t *old) {
    int t = clv_f_get(c, idx, key, old);
    if (t == LUA_TNIL) {
        lua_pop(c->L, 1);
        clv_f_pop(c, *old);
    }
    return t;
}

/* Optional number field with a lower bound (strict when gt). */
bool clv_f_opt_number(clv_fctx *c, int idx, const char *key, double lo, bool gt, double *out) {
    size_t old;
    if (get_opt(c, idx, key, &old) == LUA_TNIL) {
        return false;
    }
    lua_pushvalue(c->L, -1);
    double d = clv_f_number(c);
    if (gt ? !(d > lo) : !(d >= lo)) {
        clv_f_fail(c, "must be %s %d (got %s)", gt ? ">" : ">=", (int)lo,
                   clv_f_value_text(c->L, -1));
    }
    lua_pop(c->L, 1);
    clv_f_pop(c, old);
    *out = d;
    return true;
}

bool clv_f_opt_any_number(clv_fctx *c, int idx, const char *key, double *out) {
    size_t old;
    if (get_opt(c, idx, key, &old) == LUA_TNIL) {
        return false;
    }
    *out = clv_f_number(c);
    clv_f_pop(c, old);
    return true;
}

bool clv_f_opt_integer(clv_fctx *c, int idx, const char *key, lua_Integer lo, lua_Integer hi,
                       lua_Integer *out) {
    size_t old;
    if (get_opt(c, idx, key, &old) == LUA_TNIL) {
        return false;
    }
    *out = clv_f_integer(c, lo, hi);
    clv_f_pop(c, old);
    return true;
}

bool clv_f_opt_bool(clv_fctx *c, int idx, const char *key, bool *out) {
    size_t old;
    int t = get_opt(c, idx, key, &old);
    if (t == LUA_TNIL) {
        return false;
    }
    if (t != LUA_TBOOLEAN) {
        clv_f_fail(c, "must be a boolean (got %s)", clv_f_type_name(c->L, -1));
    }
    *out = lua_toboolean(c->L, -1) != 0;
    lua_pop(c->L, 1);
    clv_f_pop(c, old);
    return true;
}

/* Copies a name of at most CLV_HIT_NAME_MAX - 1 bytes from the string at the top, pops it. */
void clv_f_name(clv_fctx *c, char out[CLV_HIT_NAME_MAX]) {
    lua_State *L = c->L;
    if (lua_type(L, -1) != LUA_TSTRING) {
        clv_f_fail(c, "must be a string (got %s)", clv_f_type_name(L, -1));
    }
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    if (len == 0) {
        clv_f_fail(c, "must not be empty");
    }
    char why[96];
    if (!clv_lua_name_ok(s, len, why, sizeof why)) {
        clv_f_fail(c, "%s", why);
    }
    if (len >= CLV_HIT_NAME_MAX) {
        clv_f_fail(c, "must be a name of at most %d bytes (got %d)", CLV_HIT_NAME_MAX - 1,
                   (int)len);
    }
    memcpy(out, s, len + 1);
    lua_pop(L, 1);
}

void clv_f_check_pair(clv_fctx *c) {
    lua_State *L = c->L;
    if (lua_type(L, -1) != LUA_TTABLE) {
        clv_f_fail(c, "must be {x, y} (got %s)", clv_f_type_name(L, -1));
    }
    lua_Unsigned n = lua_rawlen(L, -1);
    if (n == 2) {
        return;
    }
    /* A named key is the likely mistake ({x = 1, y = 2}); name it rather than count. */
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING) {
            clv_f_fail(c, "must be a list of two numbers {x, y} (got a table with key '%s')",
                       lua_tostring(L, -1));
        }
    }
    clv_f_fail(c, "must be a list of two numbers {x, y} (got %I value%s)", (LUAI_UACINT)n,
               n == 1 ? "" : "s");
}

void clv_f_point(clv_fctx *c, int t, const char *key, double *x, double *y) {
    lua_State *L = c->L;
    size_t old;
    int ty = get_opt(c, t, key, &old);
    if (ty == LUA_TNIL) {
        return;
    }
    clv_f_check_pair(c);
    int p = lua_absindex(L, -1);
    for (int k = 0; k < 2; k++) {
        size_t o2 = clv_f_index(c, k + 1);
        lua_rawgeti(L, p, k + 1);
        *(k == 0 ? x : y) = clv_f_number(c);
        clv_f_pop(c, o2);
    }
    lua_pop(L, 1);
    clv_f_pop(c, old);
}

double clv_f_req_number(clv_fctx *c, int t, const char *key) {
    double d = 0;
    if (!clv_f_opt_any_number(c, t, key, &d)) {
        size_t old = clv_f_key(c, key);
        clv_f_fail(c, "is required");
        clv_f_pop(c, old);
    }
    return d;
}

void clv_f_frames(clv_fctx *c, int hb, const char *owner, int32_t length, int32_t *first,
                  int32_t *last) {
    lua_State *L = c->L;
    size_t old;
    int t = clv_f_get(c, hb, "frames", &old);
    if (t == LUA_TNIL) {
        clv_f_fail(c, "is required (a frame or {first, last})");
    }
    lua_Integer hi = length > 0 ? length : CLV_ATTACK_MAX_FRAMES;
    if (t == LUA_TNUMBER) {
        lua_Integer v = clv_f_integer(c, 1, CLV_ATTACK_MAX_FRAMES);
        if (v > hi) {
            clv_f_fail(c, "is past the %s's last frame %I (got %I)", owner, (LUAI_UACINT)hi,
                       (LUAI_UACINT)v);
        }
        *first = *last = (int32_t)v;
    } else if (t == LUA_TTABLE) {
        int r = lua_absindex(L, -1);
        if (lua_rawlen(L, r) != 2) {
            clv_f_fail(c, "must be a frame or {first, last}");
        }
        lua_Integer v[2];
        for (int k = 0; k < 2; k++) {
            size_t o2 = clv_f_index(c, k + 1);
            lua_rawgeti(L, r, k + 1);
            v[k] = clv_f_integer(c, 1, CLV_ATTACK_MAX_FRAMES);
            if (v[k] > hi) {
                lua_pushinteger(L, v[k]);
                clv_f_fail(c, "is past the %s's last frame %I (got %I)", owner, (LUAI_UACINT)hi,
                           (LUAI_UACINT)v[k]);
            }
            clv_f_pop(c, o2);
        }
        if (v[1] < v[0]) {
            clv_f_fail(c, "must not end before it starts (got {%I, %I})", (LUAI_UACINT)v[0],
                       (LUAI_UACINT)v[1]);
        }
        *first = (int32_t)v[0];
        *last = (int32_t)v[1];
        lua_pop(L, 1);
    } else {
        clv_f_fail(c, "must be a frame or {first, last} (got %s)", clv_f_type_name(L, -1));
    }
    clv_f_pop(c, old);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **clv_f_sorted_names(clv_fctx *c, int tab, const char *what, int *count) {
    lua_State *L = c->L;
    tab = lua_absindex(L, tab);
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, tab)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            lua_pushvalue(L, -1);
            clv_f_fail(c, "keys must be %s names (got %s)", what, clv_f_value_text(L, -1));
        }
        size_t klen;
        const char *key = lua_tolstring(L, -1, &klen);
        char why[96];
        if (!clv_lua_name_ok(key, klen, why, sizeof why)) {
            clv_f_fail(c, "key %s", why);
        }
        n++;
    }
    if (n == 0) {
        clv_f_fail(c, "must hold at least one %s", what);
    }
    const char **names = (const char **)lua_newuserdatauv(L, sizeof(char *) * (size_t)n, 0);
    int k = 0;
    lua_pushnil(L);
    while (lua_next(L, tab)) {
        lua_pop(L, 1);
        names[k++] = lua_tostring(L, -1); /* anchored by the table */
    }
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    *count = n;
    return names;
}
