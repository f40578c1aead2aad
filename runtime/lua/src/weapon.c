/* cleave.weapon and its helpers: a declarative Lua table validated once, with errors that name
 * file, line and field path, then compiled into a clv_weapon. Lua is not on the frame path.
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
#include "sandbox_internal.h"

/* Registry keys of the weak tables: table -> "file:line", table -> kind name. */
static const char *const k_where = "cleave.where";
static const char *const k_kind = "cleave.kind";

/* ---- recipe storage ---- */

static void *grow(const clv_lalloc *a, void *p, int32_t *cap, int32_t need, size_t elem) {
    if (need <= *cap) {
        return p;
    }
    int32_t n = *cap > 0 ? *cap : 8;
    while (n < need) {
        n *= 2;
    }
    void *q = clv_lalloc_resize(a, p, (size_t)*cap * elem, (size_t)n * elem);
    if (q != NULL) {
        *cap = n;
    }
    return q;
}

static void recipe_free(clv_lweapon *w) {
    const clv_lalloc *a = &w->alloc;
    clv_lalloc_resize(a, w->attacks, sizeof *w->attacks * (size_t)w->attack_cap, 0);
    clv_lalloc_resize(a, w->entries, sizeof *w->entries * (size_t)w->entry_cap, 0);
    clv_lalloc_resize(a, w->effects, sizeof *w->effects * (size_t)w->effect_cap, 0);
    w->attacks = NULL;
    w->entries = NULL;
    w->effects = NULL;
    w->attack_count = w->attack_cap = 0;
    w->entry_count = w->entry_cap = 0;
    w->effect_count = w->effect_cap = 0;
    if (!w->borrowed) {
        clv_weapon_destroy(w->compiled);
    }
    w->compiled = NULL;
    w->borrowed = false;
}

/* ---- where: call-site tags ---- */

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
static void push_call_site(lua_State *L) {
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
static void tag_table(lua_State *L, int idx, const char *kind) {
    idx = lua_absindex(L, idx);
    weak_table(L, k_where);
    lua_pushvalue(L, idx);
    push_call_site(L);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    weak_table(L, k_kind);
    lua_pushvalue(L, idx);
    lua_pushstring(L, kind);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* The tag of the table at idx (kind or where), or NULL. The string stays in the weak table. */
static const char *table_tag(lua_State *L, int idx, const char *key) {
    idx = lua_absindex(L, idx);
    weak_table(L, key);
    lua_pushvalue(L, idx);
    lua_rawget(L, -2);
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 2);
    return s;
}

/* ---- the validation context ---- */

typedef struct vctx {
    lua_State *L;
    char path[400];
    size_t plen;
    const char *where;
} vctx;

static int vfail(vctx *c, const char *fmt, ...) {
    lua_State *L = c->L;
    va_list ap;
    va_start(ap, fmt);
    const char *msg = lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    c->path[c->plen] = '\0';
    lua_pushfstring(L, "%s: %s%s%s", c->where, c->path, c->plen > 0 ? " " : "", msg);
    return lua_error(L);
}

/* A message about the current table itself, "path: msg". */
static int vfail_at(vctx *c, const char *fmt, ...) {
    lua_State *L = c->L;
    va_list ap;
    va_start(ap, fmt);
    const char *msg = lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    c->path[c->plen] = '\0';
    /* the weapon table itself has an empty path: name it, so every message has one */
    lua_pushfstring(L, "%s: %s: %s", c->where, c->plen > 0 ? c->path : "weapon", msg);
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

static size_t path_key(vctx *c, const char *key) {
    size_t old = c->plen;
    int n;
    size_t room = sizeof c->path - c->plen;
    if (is_ident(key)) {
        n = snprintf(c->path + c->plen, room, "%s%s", c->plen > 0 ? "." : "", key);
    } else {
        n = snprintf(c->path + c->plen, room, "[\"%s\"]", key);
    }
    if (n > 0) {
        c->plen += (size_t)n < room ? (size_t)n : room - 1;
    }
    return old;
}

static size_t path_index(vctx *c, lua_Integer i) {
    size_t old = c->plen;
    size_t room = sizeof c->path - c->plen;
    int n = snprintf(c->path + c->plen, room, "[%lld]", (long long)i);
    if (n > 0) {
        c->plen += (size_t)n < room ? (size_t)n : room - 1;
    }
    return old;
}

static void path_pop(vctx *c, size_t old) {
    c->plen = old;
    c->path[old] = '\0';
}

/* Enters the table at idx: takes its call-site line when it has one. Returns the old where. */
static const char *enter(vctx *c, int idx) {
    const char *old = c->where;
    const char *w = table_tag(c->L, idx, k_where);
    if (w != NULL) {
        c->where = w;
    }
    return old;
}

/* ---- unknown fields and their nearest known name ---- */

static bool in_list(const char *k, const char *const *known) {
    for (int i = 0; known[i] != NULL; i++) {
        if (strcmp(k, known[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* Every key of the table at idx must be a string in known (or, with allow_array, a positive
 * integer). */
static void check_keys(vctx *c, int idx, const char *const *known, bool allow_array) {
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
            vfail_at(c, "unexpected key [%s] (fields are named)", k);
        }
        const char *k = lua_tostring(L, -1);
        if (in_list(k, known)) {
            continue;
        }
        const char *best = clv_lua_nearest(k, known);
        if (best != NULL) {
            vfail_at(c, "unknown field '%s' (did you mean '%s'?)", k, best);
        }
        vfail_at(c, "unknown field '%s'", k);
    }
}

/* ---- typed field readers: the field is pushed by the caller at the top ---- */

static const char *type_name(lua_State *L, int idx) {
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

static const char *value_text(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TNUMBER) {
        clv_lnum v = {lua_isinteger(L, idx) != 0, lua_tointeger(L, idx), lua_tonumber(L, idx)};
        clv_lua_push_lnum(L, v);
        return lua_tostring(L, -1);
    }
    if (lua_type(L, idx) == LUA_TSTRING) {
        return lua_pushfstring(L, "'%s'", lua_tostring(L, idx));
    }
    return type_name(L, idx);
}

/* The number at the top; must be finite and fit a float (cleave_hit's numbers are floats: its
 * own checks, with their narrower ranges, follow). Pops it. */
static double field_number(vctx *c) {
    lua_State *L = c->L;
    if (lua_type(L, -1) != LUA_TNUMBER) {
        vfail(c, "must be a number (got %s)", type_name(L, -1));
    }
    double d = (double)lua_tonumber(L, -1);
    if (!isfinite(d)) {
        vfail(c, "must be a finite number (got %s)", value_text(L, -1));
    }
    if (fabs(d) > (double)FLT_MAX) {
        vfail(c, "must be within +-3.4e38, the range of a float (got %s)", value_text(L, -1));
    }
    lua_pop(L, 1);
    return d;
}

static lua_Integer field_integer(vctx *c, lua_Integer lo, lua_Integer hi) {
    lua_State *L = c->L;
    if (lua_type(L, -1) != LUA_TNUMBER) {
        vfail(c, "must be an integer (got %s)", type_name(L, -1));
    }
    lua_Integer v;
    if (!lua_isinteger(L, -1)) {
        double d = (double)lua_tonumber(L, -1);
        if (!(d == floor(d)) || fabs(d) > 2.0e9) {
            vfail(c, "must be an integer (got %s)", value_text(L, -1));
        }
        v = (lua_Integer)d;
    } else {
        v = lua_tointeger(L, -1);
    }
    if (v < lo) {
        if (lo == 1) {
            vfail(c, "must be >= 1 (got %s)", value_text(L, -1));
        }
        vfail(c, "must be >= %I (got %s)", (LUAI_UACINT)lo, value_text(L, -1));
    }
    if (v > hi) {
        vfail(c, "must be <= %I (got %s)", (LUAI_UACINT)hi, value_text(L, -1));
    }
    lua_pop(L, 1);
    return v;
}

/* Gets field key of the table at idx onto the stack and extends the path; returns the type. */
static int get(vctx *c, int idx, const char *key, size_t *old) {
    *old = path_key(c, key);
    return lua_getfield(c->L, idx, key);
}

/* Optional number field with a lower bound (strict when gt). */
static bool opt_number(vctx *c, int idx, const char *key, double lo, bool gt, double *out) {
    size_t old;
    if (get(c, idx, key, &old) == LUA_TNIL) {
        lua_pop(c->L, 1);
        path_pop(c, old);
        return false;
    }
    lua_pushvalue(c->L, -1);
    double d = field_number(c);
    if (gt ? !(d > lo) : !(d >= lo)) {
        vfail(c, "must be %s %d (got %s)", gt ? ">" : ">=", (int)lo, value_text(c->L, -1));
    }
    lua_pop(c->L, 1);
    path_pop(c, old);
    *out = d;
    return true;
}

static bool opt_any_number(vctx *c, int idx, const char *key, double *out) {
    size_t old;
    if (get(c, idx, key, &old) == LUA_TNIL) {
        lua_pop(c->L, 1);
        path_pop(c, old);
        return false;
    }
    *out = field_number(c);
    path_pop(c, old);
    return true;
}

static bool opt_integer(vctx *c, int idx, const char *key, lua_Integer lo, lua_Integer hi,
                        lua_Integer *out) {
    size_t old;
    if (get(c, idx, key, &old) == LUA_TNIL) {
        lua_pop(c->L, 1);
        path_pop(c, old);
        return false;
    }
    *out = field_integer(c, lo, hi);
    path_pop(c, old);
    return true;
}

static bool opt_bool(vctx *c, int idx, const char *key, bool *out) {
    size_t old;
    int t = get(c, idx, key, &old);
    if (t == LUA_TNIL) {
        lua_pop(c->L, 1);
        path_pop(c, old);
        return false;
    }
    if (t != LUA_TBOOLEAN) {
        vfail(c, "must be a boolean (got %s)", type_name(c->L, -1));
    }
    *out = lua_toboolean(c->L, -1) != 0;
    lua_pop(c->L, 1);
    path_pop(c, old);
    return true;
}

/* Copies a name of at most CLV_HIT_NAME_MAX - 1 bytes from the string at the top, pops it. */
static void field_name(vctx *c, char out[CLV_HIT_NAME_MAX]) {
    lua_State *L = c->L;
    if (lua_type(L, -1) != LUA_TSTRING) {
        vfail(c, "must be a string (got %s)", type_name(L, -1));
    }
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    if (len == 0) {
        vfail(c, "must not be empty");
    }
    char why[96];
    if (!clv_lua_name_ok(s, len, why, sizeof why)) {
        vfail(c, "%s", why);
    }
    if (len >= CLV_HIT_NAME_MAX) {
        vfail(c, "must be a name of at most %d bytes (got %d)", CLV_HIT_NAME_MAX - 1, (int)len);
    }
    memcpy(out, s, len + 1);
    lua_pop(L, 1);
}

/* ---- hitbox fields ---- */

static const char *const hitbox_fields[] = {"id",
                                            "frames",
                                            "ax",
                                            "ay",
                                            "bx",
                                            "by",
                                            "x",
                                            "y",
                                            "radius",
                                            "shape",
                                            "group",
                                            "damage",
                                            "knockback",
                                            "max_hits",
                                            "knockback_ignores_hit_count",
                                            "hitlag",
                                            "hitlag_scale",
                                            "hitstun",
                                            "priority",
                                            "sweep",
                                            "effects",
                                            NULL};

/* The same list without id and frames (its first two): the fields `defaults` may give. */
static const char *const *const default_fields = hitbox_fields + 2;

static const char *const knockback_fields[] = {"kind", "x", "y", "angle", "base", "growth", NULL};

static const char *const effect_fields[] = {"name",    "duration", "period", "magnitude",
                                            "damages", "on_tick",  NULL};

/* State of one weapon compile. */
typedef struct wstate {
    vctx c;
    clv_lweapon *w;
    int weapon_idx;    /* the weapon table */
    int defaults_idx;  /* weapon.defaults or 0 */
    int adefaults_idx; /* attack.defaults or 0 */
    int effects_idx;   /* weapon.effects or 0 */
    int32_t attack;    /* index of the attack being compiled */
    int32_t length;    /* its frames */
    int64_t frames;    /* of the weapon's attacks so far: bounded like cleave_hit's */
    int64_t placed;    /* hitboxes placed so far, one per hitbox and frame */
} wstate;

/* Pushes the value of a hitbox field: the hitbox's own, else attack.defaults, else
 * weapon.defaults. Sets *from_default when it came from a defaults table (for messages). */
static int hb_get(wstate *s, int hb, const char *key, size_t *old) {
    lua_State *L = s->c.L;
    *old = path_key(&s->c, key);
    int t = lua_getfield(L, hb, key);
    if (t != LUA_TNIL) {
        return t;
    }
    lua_pop(L, 1);
    if (s->adefaults_idx != 0 && (t = lua_getfield(L, s->adefaults_idx, key)) != LUA_TNIL) {
        return t;
    }
    if (s->adefaults_idx != 0) {
        lua_pop(L, 1);
    }
    if (s->defaults_idx != 0) {
        return lua_getfield(L, s->defaults_idx, key);
    }
    lua_pushnil(L);
    return LUA_TNIL;
}

static bool hb_number(wstate *s, int hb, const char *key, double *out) {
    size_t old;
    if (hb_get(s, hb, key, &old) == LUA_TNIL) {
        lua_pop(s->c.L, 1);
        path_pop(&s->c, old);
        return false;
    }
    *out = field_number(&s->c);
    path_pop(&s->c, old);
    return true;
}

static double hb_req_number(wstate *s, int hb, const char *key) {
    double d = 0;
    if (!hb_number(s, hb, key, &d)) {
        size_t old = path_key(&s->c, key);
        vfail(&s->c, "is required");
        path_pop(&s->c, old);
    }
    return d;
}

/* Refuses v below lo (or at lo when strict), quoting the field's value as the mod wrote it. */
static void hb_min(wstate *s, int hb, const char *key, double v, double lo, bool strict) {
    if (strict ? !(v > lo) : !(v >= lo)) {
        size_t old;
        hb_get(s, hb, key, &old);
        vfail(&s->c, "must be %s %d (got %s)", strict ? ">" : ">=", (int)lo,
              value_text(s->c.L, -1));
        path_pop(&s->c, old);
    }
}

static bool hb_integer(wstate *s, int hb, const char *key, lua_Integer lo, lua_Integer hi,
                       lua_Integer *out) {
    size_t old;
    if (hb_get(s, hb, key, &old) == LUA_TNIL) {
        lua_pop(s->c.L, 1);
        path_pop(&s->c, old);
        return false;
    }
    *out = field_integer(&s->c, lo, hi);
    path_pop(&s->c, old);
    return true;
}

static bool hb_bool(wstate *s, int hb, const char *key, bool *out) {
    size_t old;
    int t = hb_get(s, hb, key, &old);
    if (t == LUA_TNIL) {
        lua_pop(s->c.L, 1);
        path_pop(&s->c, old);
        return false;
    }
    if (t != LUA_TBOOLEAN) {
        vfail(&s->c, "must be a boolean (got %s)", type_name(s->c.L, -1));
    }
    *out = lua_toboolean(s->c.L, -1) != 0;
    lua_pop(s->c.L, 1);
    path_pop(&s->c, old);
    return true;
}

static bool hb_has(wstate *s, int hb, const char *key) {
    size_t old;
    int t = hb_get(s, hb, key, &old);
    lua_pop(s->c.L, 1);
    path_pop(&s->c, old);
    return t != LUA_TNIL;
}

/* An effect definition table at the top (name given or from the table), pops it. Records its
 * on_tick callback on the weapon. */
static void read_effect(wstate *s, const char *given_name, clv_effect_def *out) {
    lua_State *L = s->c.L;
    vctx *c = &s->c;
    int t = lua_absindex(L, -1);
    if (lua_type(L, t) != LUA_TTABLE) {
        vfail(c, "must be a table (got %s)", type_name(L, t));
    }
    const char *oldw = enter(c, t);
    check_keys(c, t, effect_fields, false);
    *out = clv_default_effect_def();
    size_t old;
    if (given_name != NULL) {
        strcpy(out->name, given_name);
    } else {
        if (get(c, t, "name", &old) == LUA_TNIL) {
            vfail(c, "is required");
        }
        field_name(c, out->name);
        path_pop(c, old);
    }
    lua_Integer i;
    if (opt_integer(c, t, "duration", 1, CLV_ATTACK_MAX_FRAMES * 16, &i)) {
        out->duration = (int32_t)i;
    }
    if (opt_integer(c, t, "period", 1, out->duration, &i)) {
        out->period = (int32_t)i;
    }
    if (out->period > out->duration) {
        out->period = out->duration;
    }
    double d;
    if (opt_number(c, t, "magnitude", 0, false, &d)) {
        out->magnitude = (float)d;
    }
    bool b;
    if (opt_bool(c, t, "damages", &b)) {
        out->damages = b;
    }
    int ft = get(c, t, "on_tick", &old);
    if (ft != LUA_TNIL && ft != LUA_TFUNCTION) {
        vfail(c, "must be a function (got %s)", type_name(L, -1));
    }
    if (ft == LUA_TFUNCTION) {
        clv_lweapon *w = s->w;
        int found = -1;
        for (int32_t k = 0; k < w->effect_count; k++) {
            if (strcmp(w->effects[k].name, out->name) == 0) {
                found = (int)k;
            }
        }
        if (found < 0) {
            void *p = grow(&w->alloc, w->effects, &w->effect_cap, w->effect_count + 1,
                           sizeof *w->effects);
            if (p == NULL) {
                luaL_error(L, "out of memory");
            }
            w->effects = (clv_leffect_cb *)p;
            found = (int)w->effect_count++;
            strcpy(w->effects[found].name, out->name);
            w->effects[found].ref = LUA_NOREF;
        }
        luaL_unref(L, LUA_REGISTRYINDEX, w->effects[found].ref);
        w->effects[found].ref = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
        lua_pop(L, 1);
    }
    path_pop(c, old);
    c->where = oldw;
    lua_pop(L, 1);
}

static void read_knockback(wstate *s, clv_knockback *k) {
    lua_State *L = s->c.L;
    vctx *c = &s->c;
    int t = lua_absindex(L, -1);
    if (lua_type(L, t) != LUA_TTABLE) {
        vfail(c, "must be a table (got %s)", type_name(L, t));
    }
    const char *oldw = enter(c, t);
    check_keys(c, t, knockback_fields, false);
    size_t old;
    const char *kind;
    int kt = get(c, t, "kind", &old);
    if (kt == LUA_TNIL) {
        lua_pop(L, 1);
        if (lua_getfield(L, t, "angle") != LUA_TNIL) {
            kind = "scaling";
        } else if (lua_getfield(L, t, "x") != LUA_TNIL || lua_getfield(L, t, "y") != LUA_TNIL) {
            kind = "fixed";
        } else {
            kind = "radial";
        }
        lua_settop(L, t);
    } else {
        if (kt != LUA_TSTRING) {
            vfail(c, "must be a string (got %s)", type_name(L, -1));
        }
        kind = lua_tostring(L, -1);
        lua_pop(L, 1);
    }
    memset(k, 0, sizeof *k);
    double d;
    if (strcmp(kind, "none") == 0) {
        k->kind = CLV_KNOCKBACK_NONE;
    } else if (strcmp(kind, "fixed") == 0) {
        k->kind = CLV_KNOCKBACK_FIXED;
        path_pop(c, old);
        if (opt_any_number(c, t, "x", &d)) {
            k->vector.x = (float)d;
        }
        if (opt_any_number(c, t, "y", &d)) {
            k->vector.y = (float)d;
        }
    } else if (strcmp(kind, "scaling") == 0 || strcmp(kind, "radial") == 0) {
        k->kind = kind[0] == 's' ? CLV_KNOCKBACK_SCALING : CLV_KNOCKBACK_RADIAL;
        path_pop(c, old);
        if (opt_any_number(c, t, "angle", &d)) {
            k->angle = (float)(d * (CLV_PI / 180.0));
        }
        if (opt_number(c, t, "base", 0, false, &d)) {
            k->base = (float)d;
        }
        if (opt_number(c, t, "growth", 0, false, &d)) {
            k->growth = (float)d;
        }
    } else {
        lua_pushstring(L, kind);
        vfail(c, "must be 'none', 'fixed', 'scaling' or 'radial' (got '%s')", kind);
    }
    path_pop(c, old);
    /* a field of another kind would be dropped without a word: x with angle silently became
     * scaling knockback */
    static const char *const kinds[] = {"none", "fixed", "scaling", "radial"};
    static const char *const takes[] = {"no fields", "x, y", "angle, base, growth",
                                        "angle, base, growth"};
    for (int q = 0; q < 4; q++) {
        if (strcmp(kind, kinds[q]) != 0) {
            continue;
        }
        for (int f = 1; knockback_fields[f] != NULL; f++) {
            const char *key = knockback_fields[f];
            bool fits = q != 0 && (q == 1) == (key[0] == 'x' || key[0] == 'y');
            if (!fits && lua_getfield(L, t, key) != LUA_TNIL) {
                vfail_at(c, "%s does not apply to %s knockback (it takes %s)", key, kind, takes[q]);
            }
            lua_settop(L, t);
        }
    }
    c->where = oldw;
    lua_pop(L, 1);
}

/* Looks up effect `name` in weapon.effects (pushed as a table) and reads it. */
static void named_effect(wstate *s, const char *name, clv_effect_def *out) {
    lua_State *L = s->c.L;
    if (s->effects_idx == 0 || lua_getfield(L, s->effects_idx, name) == LUA_TNIL) {
        vfail(&s->c, "names an effect the weapon does not define ('%s')", name);
    }
    /* keep the path of the reference, not of weapon.effects: that one was checked already */
    read_effect(s, name, out);
}

/* Reads the hitbox table at hb (merged with the defaults) into out. */
static void read_hitbox(wstate *s, int hb, clv_hitbox_def *out) {
    lua_State *L = s->c.L;
    vctx *c = &s->c;
    *out = clv_default_hitbox_def();
    size_t old;

    /* id */
    if (get(c, hb, "id", &old) == LUA_TNIL) {
        vfail(c, "is required");
    }
    field_name(c, out->id);
    path_pop(c, old);

    /* shape: a capsule (ax, ay, bx, by, radius), a circle (x, y, radius) or a cleave.Shape */
    bool has_cap =
        hb_has(s, hb, "ax") || hb_has(s, hb, "bx") || hb_has(s, hb, "ay") || hb_has(s, hb, "by");
    bool has_circle = hb_has(s, hb, "x") || hb_has(s, hb, "y");
    bool has_shape = hb_has(s, hb, "shape");
    if ((int)has_cap + (int)has_circle + (int)has_shape > 1) {
        vfail_at(c, "give one shape: ax/ay/bx/by/radius (capsule), x/y/radius (circle) or shape");
    }
    if (has_shape) {
        hb_get(s, hb, "shape", &old);
        const clv_shape *sh = clv_lua_toshape(L, -1);
        if (sh == NULL) {
            vfail(c, "must be a cleave.Shape (got %s)", type_name(L, -1));
        }
        if (sh->type != CLV_CAPSULE && sh->type != CLV_CIRCLE && sh->type != CLV_OBB) {
            vfail(c, "must be a capsule, circle or obb (got %s)", clv_lua_kind_name(sh->type));
        }
        /* the same rule as the radius field: a zero-radius hitbox is a bare segment */
        if ((sh->type == CLV_CIRCLE && !(sh->u.circle.r > 0.0f)) ||
            (sh->type == CLV_CAPSULE && !(sh->u.capsule.r > 0.0f))) {
            const clv_lshape *ls = (const clv_lshape *)lua_touserdata(L, -1);
            clv_lua_push_lnum(L, ls->v[sh->type == CLV_CIRCLE ? 2 : 4]);
            vfail(c, "must have radius > 0 (got %s)", lua_tostring(L, -1));
        }
        out->shape = *sh;
        lua_pop(L, 1);
        path_pop(c, old);
    } else if (has_cap) {
        double ax = hb_req_number(s, hb, "ax"), ay = hb_req_number(s, hb, "ay");
        double bx = hb_req_number(s, hb, "bx"), by = hb_req_number(s, hb, "by");
        double r = hb_req_number(s, hb, "radius");
        hb_min(s, hb, "radius", r, 0, true);
        out->shape.type = CLV_CAPSULE;
        out->shape.u.capsule.a = clv_v2((float)ax, (float)ay);
        out->shape.u.capsule.b = clv_v2((float)bx, (float)by);
        out->shape.u.capsule.r = (float)r;
    } else if (has_circle) {
        double x = hb_req_number(s, hb, "x"), y = hb_req_number(s, hb, "y");
        double r = hb_req_number(s, hb, "radius");
        hb_min(s, hb, "radius", r, 0, true);
        out->shape.type = CLV_CIRCLE;
        out->shape.u.circle.c = clv_v2((float)x, (float)y);
        out->shape.u.circle.r = (float)r;
    } else {
        vfail_at(c, "needs a shape: ax/ay/bx/by/radius (capsule), x/y/radius (circle) or shape");
    }

    /* group: an integer >= 0, or false for a group of its own */
    int gt = hb_get(s, hb, "group", &old);
    if (gt == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
        out->group = CLV_GROUP_NONE;
        lua_pop(L, 1);
    } else if (gt != LUA_TNIL) {
        if (gt != LUA_TNUMBER) {
            vfail(c, "must be an integer >= 0 or false (got %s)", type_name(L, -1));
        }
        out->group = (int32_t)field_integer(c, 0, INT32_MAX);
    } else {
        lua_pop(L, 1);
    }
    path_pop(c, old);

    double d;
    lua_Integer i;
    bool b;
    if (hb_number(s, hb, "damage", &d)) {
        hb_min(s, hb, "damage", d, 0, false);
        out->damage = (float)d;
    }
    if (hb_get(s, hb, "knockback", &old) != LUA_TNIL) {
        read_knockback(s, &out->knockback);
    } else {
        lua_pop(L, 1);
    }
    path_pop(c, old);
    if (hb_integer(s, hb, "max_hits", 0, INT32_MAX, &i)) {
        out->max_hits = (int32_t)i;
    }
    if (hb_bool(s, hb, "knockback_ignores_hit_count", &b)) {
        out->knockback_ignores_hit_count = b;
    }
    for (int k = 0; k < 2; k++) {
        const char *key = k == 0 ? "hitlag" : "hitstun";
        int32_t *dst = k == 0 ? &out->hitlag : &out->hitstun;
        int t = hb_get(s, hb, key, &old);
        if (t == LUA_TSTRING && strcmp(lua_tostring(L, -1), "auto") == 0) {
            *dst = CLV_FRAMES_AUTO;
            lua_pop(L, 1);
        } else if (t != LUA_TNIL) {
            *dst = (int32_t)field_integer(c, 0, 3600);
        } else {
            lua_pop(L, 1);
        }
        path_pop(c, old);
    }
    if (hb_number(s, hb, "hitlag_scale", &d)) {
        hb_min(s, hb, "hitlag_scale", d, 0, false);
        out->hitlag_scale = (float)d;
    }
    if (hb_integer(s, hb, "priority", -1000000, 1000000, &i)) {
        out->priority = (int32_t)i;
    }
    if (hb_bool(s, hb, "sweep", &b)) {
        out->sweep = b;
    }

    /* effects: names from weapon.effects, or effect tables */
    int et = hb_get(s, hb, "effects", &old);
    if (et != LUA_TNIL) {
        if (et != LUA_TTABLE) {
            vfail(c, "must be a list (got %s)", type_name(L, -1));
        }
        int el = lua_absindex(L, -1);
        const char *oldw = enter(c, el);
        check_keys(c, el, (const char *const[]){NULL}, true);
        lua_Integer n = (lua_Integer)lua_rawlen(L, el);
        if (n > CLV_HITBOX_MAX_EFFECTS) {
            vfail(c, "must hold at most %d effects (got %I)", CLV_HITBOX_MAX_EFFECTS,
                  (LUAI_UACINT)n);
        }
        for (lua_Integer k = 1; k <= n; k++) {
            size_t o2 = path_index(c, k);
            int vt = lua_rawgeti(L, el, k);
            clv_effect_def *e = &out->effects[out->effect_count++];
            if (vt == LUA_TSTRING) {
                char name[CLV_HIT_NAME_MAX];
                field_name(c, name);
                named_effect(s, name, e);
            } else {
                read_effect(s, NULL, e);
            }
            path_pop(c, o2);
        }
        c->where = oldw;
    }
    lua_pop(L, 1);
    path_pop(c, old);

    clv_hit_diag diag;
    if (clv_hitbox_def_check(out, &diag) != CLV_HIT_OK) {
        vfail_at(c, "%s", diag.message);
    }
}

/* ---- recipe building ---- */

/* Raises the sandbox's timeout when its deadline has passed. Validating and compiling a weapon
 * runs in C, where the count hook never fires, and both grow with the square of the hitboxes
 * of one attack (ids are unique per frame): a mod's 16000 hitboxes took seconds. */
static void check_deadline(lua_State *L) {
    if (clv_sandbox_expired(L)) {
        clv_sandbox_push_timeout(L, 1);
        lua_error(L);
    }
}

static void add_entry(wstate *s, int32_t first, int32_t last, const clv_hitbox_def *def) {
    clv_lweapon *w = s->w;
    check_deadline(s->c.L);
    s->placed += last - first + 1;
    if (s->placed > CLV_WEAPON_MAX_PLACED) {
        vfail_at(&s->c,
                 "makes the weapon place %I hitboxes (one per hitbox and frame), more than the "
                 "limit of %d",
                 (LUAI_UACINT)s->placed, CLV_WEAPON_MAX_PLACED);
    }
    /* ids are unique within a frame */
    for (int32_t k = 0; k < w->entry_count; k++) {
        const clv_lentry *e = &w->entries[k];
        if (e->attack == s->attack && e->first <= last && first <= e->last &&
            strcmp(e->def.id, def->id) == 0) {
            int32_t f = e->first > first ? e->first : first;
            vfail_at(&s->c, "id '%s' is used twice on frame %d", def->id, (int)f + 1);
        }
    }
    void *p = grow(&w->alloc, w->entries, &w->entry_cap, w->entry_count + 1, sizeof *w->entries);
    if (p == NULL) {
        luaL_error(s->c.L, "out of memory");
    }
    w->entries = (clv_lentry *)p;
    clv_lentry *e = &w->entries[w->entry_count++];
    e->attack = s->attack;
    e->first = first;
    e->last = last;
    e->def = *def;
}

/* frames = n or {first, last}, 1-based inclusive, within the attack. */
static void read_range(wstate *s, int hb, int32_t *first, int32_t *last) {
    lua_State *L = s->c.L;
    vctx *c = &s->c;
    size_t old;
    int t = get(c, hb, "frames", &old);
    if (t == LUA_TNIL) {
        vfail(c, "is required (a frame or {first, last})");
    }
    lua_Integer hi = s->length > 0 ? s->length : CLV_ATTACK_MAX_FRAMES;
    if (t == LUA_TNUMBER) {
        lua_Integer v = field_integer(c, 1, CLV_ATTACK_MAX_FRAMES);
        if (v > hi) {
            vfail(c, "is past the attack's last frame %I (got %I)", (LUAI_UACINT)hi,
                  (LUAI_UACINT)v);
        }
        *first = *last = (int32_t)v;
    } else if (t == LUA_TTABLE) {
        int r = lua_absindex(L, -1);
        if (lua_rawlen(L, r) != 2) {
            vfail(c, "must be a frame or {first, last}");
        }
        lua_Integer v[2];
        for (int k = 0; k < 2; k++) {
            size_t o2 = path_index(c, k + 1);
            lua_rawgeti(L, r, k + 1);
            v[k] = field_integer(c, 1, CLV_ATTACK_MAX_FRAMES);
            if (v[k] > hi) {
                lua_pushinteger(L, v[k]);
                vfail(c, "is past the attack's last frame %I (got %I)", (LUAI_UACINT)hi,
                      (LUAI_UACINT)v[k]);
            }
            path_pop(c, o2);
        }
        if (v[1] < v[0]) {
            vfail(c, "must not end before it starts (got {%I, %I})", (LUAI_UACINT)v[0],
                  (LUAI_UACINT)v[1]);
        }
        *first = (int32_t)v[0];
        *last = (int32_t)v[1];
        lua_pop(L, 1);
    } else {
        vfail(c, "must be a frame or {first, last} (got %s)", type_name(L, -1));
    }
    path_pop(c, old);
}

static double ease(const char *kind, double u) {
    if (strcmp(kind, "in") == 0) {
        return u * u;
    }
    if (strcmp(kind, "out") == 0) {
        return 1.0 - (1.0 - u) * (1.0 - u);
    }
    if (strcmp(kind, "in_out") == 0) {
        return u * u * (3.0 - 2.0 * u);
    }
    return u;
}

static const char *const arc_fields[] = {
    "id",     "frames",       "pivot",    "from",
    "to",     "inner",        "outer",    "radius",
    "ease",   "links",        "lag",      "group",
    "damage", "knockback",    "max_hits", "knockback_ignores_hit_count",
    "hitlag", "hitlag_scale", "hitstun",  "priority",
    "sweep",  "effects",      NULL};

static const char *const thrust_fields[] = {"id",       "frames",
                                            "origin",   "angle",
                                            "from",     "to",
                                            "length",   "radius",
                                            "ease",     "group",
                                            "damage",   "knockback",
                                            "max_hits", "knockback_ignores_hit_count",
                                            "hitlag",   "hitlag_scale",
                                            "hitstun",  "priority",
                                            "sweep",    "effects",
                                            NULL};

static void read_point(vctx *c, int t, const char *key, double *x, double *y) {
    lua_State *L = c->L;
    size_t old;
    int ty = get(c, t, key, &old);
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        path_pop(c, old);
        return;
    }
    if (ty != LUA_TTABLE || lua_rawlen(L, -1) != 2) {
        vfail(c, "must be {x, y} (got %s)", type_name(L, -1));
    }
    int p = lua_absindex(L, -1);
    for (int k = 0; k < 2; k++) {
        size_t o2 = path_index(c, k + 1);
        lua_rawgeti(L, p, k + 1);
        *(k == 0 ? x : y) = field_number(c);
        path_pop(c, o2);
    }
    lua_pop(L, 1);
    path_pop(c, old);
}

static const char *read_ease(vctx *c, int t) {
    lua_State *L = c->L;
    size_t old;
    int ty = get(c, t, "ease", &old);
    const char *e = "linear";
    if (ty != LUA_TNIL) {
        e = ty == LUA_TSTRING ? lua_tostring(L, -1) : "";
        if (strcmp(e, "linear") != 0 && strcmp(e, "in") != 0 && strcmp(e, "out") != 0 &&
            strcmp(e, "in_out") != 0) {
            vfail(c, "must be 'linear', 'in', 'out' or 'in_out' (got %s)", value_text(L, -1));
        }
    }
    lua_pop(L, 1);
    path_pop(c, old);
    return e;
}

static double req_number(vctx *c, int t, const char *key) {
    double d = 0;
    if (!opt_any_number(c, t, key, &d)) {
        size_t old = path_key(c, key);
        vfail(c, "is required");
        path_pop(c, old);
    }
    return d;
}

/* cleave.arc / cleave.thrust: generated per-frame capsules. The generator's table (at g) holds
 * the hit data fields too; a scratch hitbox table per frame carries the geometry. */
static void expand_generator(wstate *s, int g, const char *kind) {
    lua_State *L = s->c.L;
    vctx *c = &s->c;
    bool arc = strcmp(kind, "arc") == 0;
    check_keys(c, g, arc ? arc_fields : thrust_fields, false);
    int32_t first, last;
    read_range(s, g, &first, &last);
    const char *ez = read_ease(c, g);
    double px = 0, py = 0, a0, a1, inner = 0, outer = 0, len = 0, r;
    lua_Integer links = 1, lag = 0;
    if (arc) {
        read_point(c, g, "pivot", &px, &py);
        a0 = req_number(c, g, "from");
        a1 = req_number(c, g, "to");
        opt_number(c, g, "inner", 0, false, &inner);
        outer = req_number(c, g, "outer");
        if (!(outer > inner)) {
            (void)path_key(c, "outer");
            lua_getfield(L, g, "outer");
            vfail(c, "must be > inner (got %s)", value_text(L, -1));
        }
        opt_integer(c, g, "links", 1, 16, &links);
        opt_integer(c, g, "lag", 0, CLV_ATTACK_MAX_FRAMES, &lag);
    } else {
        read_point(c, g, "origin", &px, &py);
        double ang = 0;
        opt_any_number(c, g, "angle", &ang);
        a0 = a1 = ang;
        inner = req_number(c, g, "from");
        outer = req_number(c, g, "to");
        len = req_number(c, g, "length");
        if (!(len > 0)) {
            (void)path_key(c, "length");
            lua_getfield(L, g, "length");
            vfail(c, "must be > 0 (got %s)", value_text(L, -1));
        }
    }
    r = req_number(c, g, "radius");
    if (!(r > 0)) {
        (void)path_key(c, "radius");
        lua_getfield(L, g, "radius");
        vfail(c, "must be > 0 (got %s)", value_text(L, -1));
    }
    char base_id[CLV_HIT_NAME_MAX];
    {
        size_t old;
        if (get(c, g, "id", &old) == LUA_TNIL) {
            vfail(c, "is required");
        }
        field_name(c, base_id);
        path_pop(c, old);
    }
    int32_t n = last - first + 1;
    for (lua_Integer link = 0; link < links; link++) {
        for (int32_t f = first; f <= last; f++) {
            /* the link trails the one before it by lag frames (held at the start) */
            lua_Integer step = (lua_Integer)(f - first) - link * lag;
            double u = n > 1 ? (double)(step < 0 ? 0 : step) / (double)(n - 1) : 1.0;
            double e = ease(ez, u);
            double ang = (a0 + (a1 - a0) * e) * (CLV_PI / 180.0);
            double dx = cos(ang), dy = sin(ang);
            double ra, rb;
            if (arc) {
                double seg = (outer - inner) / (double)links;
                ra = inner + seg * (double)link;
                rb = ra + seg;
            } else {
                double tip = inner + (outer - inner) * e;
                ra = tip - len;
                rb = tip;
            }
            /* a scratch hitbox: the generator's hit fields with this frame's geometry */
            lua_newtable(L);
            int hb = lua_absindex(L, -1);
            lua_pushnil(L);
            while (lua_next(L, g)) {
                const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
                if (in_list(k, default_fields) && strcmp(k, "radius") != 0) {
                    lua_pushvalue(L, -2);
                    lua_insert(L, -2);
                    lua_rawset(L, hb);
                } else {
                    lua_pop(L, 1);
                }
            }
            if (links > 1) {
                lua_pushfstring(L, "%s%d", base_id, (int)link + 1);
            } else {
                lua_pushstring(L, base_id);
            }
            if (lua_rawlen(L, -1) >= CLV_HIT_NAME_MAX) {
                vfail_at(c, "id '%s' is too long for %d links", base_id, (int)links);
            }
            lua_setfield(L, hb, "id");
            lua_pushnumber(L, (lua_Number)(px + dx * ra));
            lua_setfield(L, hb, "ax");
            lua_pushnumber(L, (lua_Number)(py + dy * ra));
            lua_setfield(L, hb, "ay");
            lua_pushnumber(L, (lua_Number)(px + dx * rb));
            lua_setfield(L, hb, "bx");
            lua_pushnumber(L, (lua_Number)(py + dy * rb));
            lua_setfield(L, hb, "by");
            lua_pushnumber(L, (lua_Number)r);
            lua_setfield(L, hb, "radius");
            clv_hitbox_def def;
            read_hitbox(s, hb, &def);
            add_entry(s, f - 1, f - 1, &def);
            lua_pop(L, 1);
        }
    }
}

/* One entry of attack.hitboxes: a hitbox with frames, a generator, or a list of them. */
static void read_hitbox_entry(wstate *s, int hb, int depth) {
    lua_State *L = s->c.L;
    vctx *c = &s->c;
    if (lua_type(L, hb) != LUA_TTABLE) {
        vfail(c, "must be a hitbox table (got %s)", type_name(L, hb));
    }
    const char *oldw = enter(c, hb);
    const char *kind = table_tag(L, hb, k_kind);
    if (kind != NULL && (strcmp(kind, "arc") == 0 || strcmp(kind, "thrust") == 0)) {
        expand_generator(s, hb, kind);
    } else if (lua_rawlen(L, hb) > 0 && depth < 4) {
        check_keys(c, hb, (const char *const[]){NULL}, true);
        lua_Integer n = (lua_Integer)lua_rawlen(L, hb);
        for (lua_Integer k = 1; k <= n; k++) {
            size_t old = path_index(c, k);
            lua_rawgeti(L, hb, k);
            read_hitbox_entry(s, lua_absindex(L, -1), depth + 1);
            lua_pop(L, 1);
            path_pop(c, old);
        }
    } else {
        check_keys(c, hb, hitbox_fields, false);
        int32_t first, last;
        read_range(s, hb, &first, &last);
        clv_hitbox_def def;
        read_hitbox(s, hb, &def);
        add_entry(s, first - 1, last - 1, &def);
    }
    c->where = oldw;
}

static const char *const attack_fields[] = {"length", "frames",      "hitboxes", "defaults",
                                            "rehit",  "max_targets", "lockout",  NULL};

/* The highest frame an attack's hitboxes mention, for an attack without length. */
static lua_Integer max_frame_of(lua_State *L, int t, int depth) {
    lua_Integer m = 0;
    if (depth > 6 || lua_type(L, t) != LUA_TTABLE) {
        return 0;
    }
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "frames") == 0) {
            if (lua_isinteger(L, -1)) {
                lua_Integer v = lua_tointeger(L, -1);
                m = v > m ? v : m;
            } else if (lua_type(L, -1) == LUA_TTABLE) {
                lua_rawgeti(L, -1, 2);
                if (lua_isinteger(L, -1) && lua_tointeger(L, -1) > m) {
                    m = lua_tointeger(L, -1);
                }
                lua_pop(L, 1);
            }
        } else if (lua_type(L, -1) == LUA_TTABLE) {
            lua_Integer v = max_frame_of(L, lua_absindex(L, -1), depth + 1);
            m = v > m ? v : m;
        }
        lua_pop(L, 1);
    }
    return m;
}

static void read_attack(wstate *s, const char *name, int at) {
    lua_State *L = s->c.L;
    vctx *c = &s->c;
    if (lua_type(L, at) != LUA_TTABLE) {
        vfail(c, "must be a table (got %s)", type_name(L, at));
    }
    const char *oldw = enter(c, at);
    check_keys(c, at, attack_fields, false);
    clv_attack_def def = clv_default_attack_def();
    if (strlen(name) >= CLV_HIT_NAME_MAX) {
        vfail_at(c, "attack name must be shorter than %d bytes", CLV_HIT_NAME_MAX);
    }
    strcpy(def.name, name);

    /* frames: map from frame number to a list of hitboxes */
    size_t old;
    int ft = get(c, at, "frames", &old);
    int frames_idx = 0;
    lua_Integer top_frame = 0;
    if (ft != LUA_TNIL) {
        if (ft != LUA_TTABLE) {
            vfail(c, "must be a table of frame lists (got %s)", type_name(L, -1));
        }
        frames_idx = lua_absindex(L, -1);
        lua_pushnil(L);
        while (lua_next(L, frames_idx)) {
            lua_pop(L, 1);
            if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1) {
                lua_pushvalue(L, -1);
                vfail(c, "keys must be frame numbers >= 1 (got %s)", value_text(L, -1));
            }
            if (lua_tointeger(L, -1) > top_frame) {
                top_frame = lua_tointeger(L, -1);
            }
        }
    } else {
        lua_pop(L, 1);
        lua_pushnil(L); /* keep the stack shape */
    }
    path_pop(c, old);

    lua_Integer i;
    if (opt_integer(c, at, "length", 1, CLV_ATTACK_MAX_FRAMES, &i)) {
        def.frames = (int32_t)i;
    } else {
        lua_getfield(L, at, "hitboxes");
        lua_Integer m = max_frame_of(L, lua_absindex(L, -1), 0);
        bool listed = lua_type(L, -1) == LUA_TTABLE && lua_rawlen(L, -1) > 0;
        lua_pop(L, 1);
        m = m > top_frame ? m : top_frame;
        if (m < 1 && listed) {
            /* hitboxes whose frames are no frame numbers (1.5, 2^53, "x"): reading each one
             * below names the field, where "needs a length" would mislead */
            m = CLV_ATTACK_MAX_FRAMES;
        }
        if (m < 1) {
            vfail_at(c, "needs a length or at least one hitbox");
        }
        def.frames = (int32_t)(m > CLV_ATTACK_MAX_FRAMES ? CLV_ATTACK_MAX_FRAMES : m);
    }
    if (opt_integer(c, at, "rehit", 0, CLV_ATTACK_MAX_FRAMES, &i)) {
        def.rehit = (int32_t)i;
    }
    if (opt_integer(c, at, "max_targets", 0, INT32_MAX, &i)) {
        def.max_targets = (int32_t)i;
    }
    if (opt_integer(c, at, "lockout", 0, CLV_ATTACK_MAX_FRAMES, &i)) {
        def.lockout = (int32_t)i;
    }
    if (top_frame > def.frames) {
        size_t o2 = path_key(c, "frames");
        path_index(c, top_frame);
        c->path[c->plen] = '\0';
        lua_pushfstring(L, "%s: %s is past the attack's last frame (length %d)", c->where, c->path,
                        (int)def.frames);
        path_pop(c, o2);
        lua_error(L);
    }
    s->frames += def.frames;
    if (s->frames > CLV_WEAPON_MAX_FRAMES) {
        vfail_at(c, "makes the weapon's attacks last %I frames together, more than the limit of %d",
                 (LUAI_UACINT)s->frames, CLV_WEAPON_MAX_FRAMES);
    }

    /* attack.defaults: checked like weapon.defaults */
    int dt = get(c, at, "defaults", &old);
    s->adefaults_idx = 0;
    if (dt != LUA_TNIL) {
        if (dt != LUA_TTABLE) {
            vfail(c, "must be a table (got %s)", type_name(L, -1));
        }
        const char *ow = enter(c, -1);
        check_keys(c, -1, default_fields, false);
        c->where = ow;
        s->adefaults_idx = lua_absindex(L, -1);
    } else {
        lua_pop(L, 1);
    }
    path_pop(c, old);

    clv_lweapon *w = s->w;
    void *p = grow(&w->alloc, w->attacks, &w->attack_cap, w->attack_count + 1, sizeof *w->attacks);
    if (p == NULL) {
        luaL_error(L, "out of memory");
    }
    w->attacks = (clv_attack_def *)p;
    s->attack = w->attack_count;
    w->attacks[w->attack_count++] = def;
    s->length = def.frames;

    /* hitboxes: entries with their own frames, in order */
    int ht = get(c, at, "hitboxes", &old);
    if (ht != LUA_TNIL) {
        if (ht != LUA_TTABLE) {
            vfail(c, "must be a list (got %s)", type_name(L, -1));
        }
        int hl = lua_absindex(L, -1);
        check_keys(c, hl, (const char *const[]){NULL}, true);
        lua_Integer n = (lua_Integer)lua_rawlen(L, hl);
        for (lua_Integer k = 1; k <= n; k++) {
            size_t o2 = path_index(c, k);
            lua_rawgeti(L, hl, k);
            read_hitbox_entry(s, lua_absindex(L, -1), 0);
            lua_pop(L, 1);
            path_pop(c, o2);
        }
    }
    lua_pop(L, 1);
    path_pop(c, old);

    /* frames[n]: lists of hitboxes on one frame */
    if (frames_idx != 0) {
        for (lua_Integer f = 1; f <= top_frame; f++) {
            size_t o1 = path_key(c, "frames");
            path_index(c, f);
            int lt = lua_rawgeti(L, frames_idx, f);
            if (lt == LUA_TNIL) {
                lua_pop(L, 1);
                path_pop(c, o1);
                continue;
            }
            if (lt != LUA_TTABLE) {
                vfail(c, "must be a list of hitboxes (got %s)", type_name(L, -1));
            }
            int fl = lua_absindex(L, -1);
            const char *ow = enter(c, fl);
            /* a single hitbox where a list was meant is the common slip */
            if (lua_rawlen(L, fl) == 0 && lua_getfield(L, fl, "id") != LUA_TNIL) {
                vfail(c, "must be a list of hitboxes (got one hitbox: wrap it in {})");
            }
            lua_settop(L, fl);
            check_keys(c, fl, (const char *const[]){NULL}, true);
            lua_Integer n = (lua_Integer)lua_rawlen(L, fl);
            for (lua_Integer k = 1; k <= n; k++) {
                size_t o2 = path_index(c, k);
                int vt = lua_rawgeti(L, fl, k);
                if (vt != LUA_TTABLE) {
                    vfail(c, "must be a hitbox table (got %s)", type_name(L, -1));
                }
                int hb = lua_absindex(L, -1);
                const char *ow2 = enter(c, hb);
                check_keys(c, hb, hitbox_fields, false);
                if (lua_getfield(L, hb, "frames") != LUA_TNIL) {
                    size_t o3 = path_key(c, "frames");
                    vfail(c, "is given by the enclosing frames[%I]", (LUAI_UACINT)f);
                    path_pop(c, o3);
                }
                lua_pop(L, 1);
                clv_hitbox_def hdef;
                read_hitbox(s, hb, &hdef);
                add_entry(s, (int32_t)f - 1, (int32_t)f - 1, &hdef);
                c->where = ow2;
                lua_pop(L, 1);
                path_pop(c, o2);
            }
            c->where = ow;
            lua_pop(L, 1);
            path_pop(c, o1);
        }
    }
    lua_pop(L, 1); /* frames table or placeholder */
    if (s->adefaults_idx != 0) {
        lua_pop(L, 1);
        s->adefaults_idx = 0;
    }
    c->where = oldw;
}

static const char *const weapon_fields[] = {"name",    "defaults", "attacks",
                                            "effects", "on_hit",   NULL};

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Compiles the recipe into w->compiled. */
static void build(lua_State *L, clv_lweapon *w) {
    clv_weapon_def wd = clv_default_weapon_def();
    strcpy(wd.name, w->name);
    wd.allocator = clv_lalloc_hook(&w->alloc);
    clv_hit_diag diag;
    clv_weapon *cw = clv_weapon_create(&wd, &diag);
    if (cw == NULL) {
        luaL_error(L, "cannot create weapon: %s", diag.message);
    }
    for (int32_t k = 0; k < w->attack_count; k++) {
        if (clv_weapon_add_attack(cw, &w->attacks[k], NULL, &diag) != CLV_HIT_OK) {
            clv_weapon_destroy(cw);
            luaL_error(L, "cannot compile weapon: %s", diag.message);
        }
    }
    for (int32_t k = 0; k < w->entry_count; k++) {
        const clv_lentry *e = &w->entries[k];
        if (clv_sandbox_expired(L)) {
            clv_weapon_destroy(cw);
            clv_sandbox_push_timeout(L, 1);
            lua_error(L);
        }
        if (clv_weapon_add_hitbox(cw, e->attack, e->first, e->last, &e->def, &diag) != CLV_HIT_OK) {
            clv_weapon_destroy(cw);
            luaL_error(L, "cannot compile weapon: %s", diag.message);
        }
    }
    clv_weapon_destroy(w->compiled);
    w->compiled = cw;
}

static int weapon_gc(lua_State *L) {
    clv_lweapon *w = (clv_lweapon *)luaL_checkudata(L, 1, CLV_LUA_WEAPON);
    if (w->host == NULL) {
        /* callbacks live in this state */
        luaL_unref(L, LUA_REGISTRYINDEX, w->on_hit_ref);
        for (int32_t k = 0; k < w->effect_count; k++) {
            luaL_unref(L, LUA_REGISTRYINDEX, w->effects[k].ref);
        }
    }
    w->on_hit_ref = LUA_NOREF;
    recipe_free(w);
    return 0;
}

clv_lweapon *clv_lua_new_weapon(lua_State *L) {
    clv_lua_weapon_meta(L);
    lua_pop(L, 1);
    clv_lweapon *w = (clv_lweapon *)lua_newuserdatauv(L, sizeof *w, 1);
    memset(w, 0, sizeof *w);
    w->on_hit_ref = LUA_NOREF;
    w->alloc = clv_lua_lalloc(L);
    luaL_setmetatable(L, CLV_LUA_WEAPON);
    return w;
}

bool clv_lua_weapon_copy(lua_State *L, clv_lweapon *dst, const clv_lweapon *src) {
    (void)L;
    memcpy(dst->name, src->name, sizeof dst->name);
    /* caps first: recipe_free gives back cap elements of each array */
    dst->attack_cap = src->attack_count;
    dst->entry_cap = src->entry_count;
    dst->effect_cap = src->effect_count;
    size_t na = sizeof *dst->attacks * (size_t)src->attack_count;
    size_t ne = sizeof *dst->entries * (size_t)src->entry_count;
    size_t nf = sizeof *dst->effects * (size_t)src->effect_count;
    dst->attacks = (clv_attack_def *)clv_lalloc_resize(&dst->alloc, NULL, 0, na);
    dst->entries = (clv_lentry *)clv_lalloc_resize(&dst->alloc, NULL, 0, ne);
    dst->effects = (clv_leffect_cb *)clv_lalloc_resize(&dst->alloc, NULL, 0, nf);
    if ((na > 0 && dst->attacks == NULL) || (ne > 0 && dst->entries == NULL) ||
        (nf > 0 && dst->effects == NULL)) {
        recipe_free(dst);
        return false;
    }
    /* memcpy from a NULL array is undefined even for 0 bytes. */
    if (na > 0) {
        memcpy(dst->attacks, src->attacks, na);
    }
    if (ne > 0) {
        memcpy(dst->entries, src->entries, ne);
    }
    if (nf > 0) {
        memcpy(dst->effects, src->effects, nf);
    }
    dst->attack_count = src->attack_count;
    dst->entry_count = src->entry_count;
    dst->effect_count = src->effect_count;
    dst->on_hit_ref = src->on_hit_ref;
    dst->compiled = src->compiled;
    dst->borrowed = true;
    return true;
}

/// cleave.weapon{name=, defaults=, attacks=, effects=, on_hit=} -> cleave.Weapon
static int l_weapon(lua_State *L) {
    if (lua_type(L, 1) != LUA_TTABLE) {
        return luaL_typeerror(L, 1, "table");
    }
    clv_lua_check_nargs(L, 1);
    lua_settop(L, 1);
    push_call_site(L);
    wstate s;
    memset(&s, 0, sizeof s);
    s.c.L = L;
    s.c.where = lua_tostring(L, -1); /* kept alive on the stack at index 2 */
    s.weapon_idx = 1;
    vctx *c = &s.c;
    enter(c, 1);
    check_keys(c, 1, weapon_fields, false);

    s.w = clv_lua_new_weapon(L); /* index 3: freed by __gc if anything below fails */
    clv_lweapon *w = s.w;
    size_t old;
    if (get(c, 1, "name", &old) != LUA_TNIL) {
        field_name(c, w->name);
    } else {
        lua_pop(L, 1);
    }
    path_pop(c, old);

    /* index 4: defaults or nil */
    int dt = get(c, 1, "defaults", &old);
    if (dt != LUA_TNIL) {
        if (dt != LUA_TTABLE) {
            vfail(c, "must be a table (got %s)", type_name(L, -1));
        }
        const char *ow = enter(c, -1);
        check_keys(c, -1, default_fields, false);
        c->where = ow;
        s.defaults_idx = 4;
    }
    path_pop(c, old);

    /* index 5: effects or nil; each checked once here */
    int et = get(c, 1, "effects", &old);
    if (et != LUA_TNIL) {
        if (et != LUA_TTABLE) {
            vfail(c, "must be a table of effects by name (got %s)", type_name(L, -1));
        }
        s.effects_idx = 5;
        lua_pushnil(L);
        while (lua_next(L, 5)) {
            if (lua_type(L, -2) != LUA_TSTRING) {
                lua_pushvalue(L, -2);
                vfail(c, "keys must be effect names (got %s)", value_text(L, -1));
            }
            char name[CLV_HIT_NAME_MAX];
            lua_pushvalue(L, -2);
            size_t o2 = path_key(c, lua_tostring(L, -1));
            field_name(c, name);
            clv_effect_def e;
            read_effect(&s, name, &e); /* pops the value */
            path_pop(c, o2);
        }
    }
    path_pop(c, old);

    /* on_hit */
    int ht = get(c, 1, "on_hit", &old);
    if (ht != LUA_TNIL && ht != LUA_TFUNCTION) {
        vfail(c, "must be a function (got %s)", type_name(L, -1));
    }
    if (ht == LUA_TFUNCTION) {
        w->on_hit_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
        lua_pop(L, 1);
    }
    path_pop(c, old);

    /* attacks, in the order of their names */
    int at = get(c, 1, "attacks", &old);
    if (at == LUA_TNIL) {
        vfail(c, "is required");
    }
    if (at != LUA_TTABLE) {
        vfail(c, "must be a table of attacks by name (got %s)", type_name(L, -1));
    }
    int atab = lua_absindex(L, -1);
    int count = 0;
    lua_pushnil(L);
    while (lua_next(L, atab)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            lua_pushvalue(L, -1);
            vfail(c, "keys must be attack names (got %s)", value_text(L, -1));
        }
        size_t klen;
        const char *key = lua_tolstring(L, -1, &klen);
        char why[96];
        if (!clv_lua_name_ok(key, klen, why, sizeof why)) {
            vfail(c, "key %s", why);
        }
        count++;
    }
    if (count == 0) {
        vfail(c, "must hold at least one attack");
    }
    const char **names = (const char **)lua_newuserdatauv(L, sizeof(char *) * (size_t)count, 0);
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, atab)) {
        lua_pop(L, 1);
        names[n++] = lua_tostring(L, -1); /* anchored by the attacks table */
    }
    qsort(names, (size_t)count, sizeof *names, cmp_str);
    for (int k = 0; k < count; k++) {
        size_t o2 = path_key(c, names[k]);
        lua_getfield(L, atab, names[k]);
        read_attack(&s, names[k], lua_absindex(L, -1));
        lua_pop(L, 1);
        path_pop(c, o2);
    }
    lua_pop(L, 2);
    path_pop(c, old);

    build(L, w);
    lua_pushvalue(L, 3);
    return 1;
}

/* Tags and returns the table argument. */
static int tagger(lua_State *L, const char *kind) {
    if (lua_type(L, 1) != LUA_TTABLE) {
        return luaL_typeerror(L, 1, "table");
    }
    clv_lua_check_nargs(L, 1);
    tag_table(L, 1, kind);
    return 1;
}

/// cleave.hitbox{...} -> the same table, remembered with the line of this call
static int l_hitbox(lua_State *L) { return tagger(L, "hitbox"); }
/// cleave.arc{...} -> a generator of per-frame capsules rotating about a pivot
static int l_arc(lua_State *L) { return tagger(L, "arc"); }
/// cleave.thrust{...} -> a generator of per-frame capsules moving along a direction
static int l_thrust(lua_State *L) { return tagger(L, "thrust"); }
/// cleave.effect{...} -> the same table, remembered with the line of this call
static int l_effect(lua_State *L) { return tagger(L, "effect"); }

/* ---- cleave.Weapon methods ---- */

clv_lweapon *clv_lua_check_weapon(lua_State *L, int arg) {
    return (clv_lweapon *)luaL_checkudata(L, arg, CLV_LUA_WEAPON);
}

int32_t clv_lua_check_attack(lua_State *L, const clv_lweapon *w, int arg) {
    if (lua_type(L, arg) != LUA_TSTRING) {
        clv_lua_typeerror(L, arg, "string");
    }
    const char *name = lua_tostring(L, arg);
    for (int32_t k = 0; k < w->attack_count; k++) {
        if (strcmp(w->attacks[k].name, name) == 0) {
            return k;
        }
    }
    clv_lua_argerror(L, arg, lua_pushfstring(L, "weapon '%s' has no attack '%s'", w->name, name));
    return -1;
}

/// weapon:name() -> string
static int m_name(lua_State *L) {
    clv_lweapon *w = clv_lua_check_weapon(L, 1);
    lua_pushstring(L, w->name);
    return 1;
}

/// weapon:attacks() -> {names in index order}
static int m_attacks(lua_State *L) {
    clv_lweapon *w = clv_lua_check_weapon(L, 1);
    lua_createtable(L, w->attack_count, 0);
    for (int32_t k = 0; k < w->attack_count; k++) {
        lua_pushstring(L, w->attacks[k].name);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/// weapon:length(attack) -> frames
static int m_length(lua_State *L) {
    clv_lweapon *w = clv_lua_check_weapon(L, 1);
    int32_t a = clv_lua_check_attack(L, w, 2);
    lua_pushinteger(L, w->attacks[a].frames);
    return 1;
}

/* An attack frame argument: an integer in 1..frames, else "bad argument #n to 'f' (frame must
 * be an integer in 1..frames, got v)". */
static lua_Integer frame_arg(lua_State *L, int arg, int32_t frames) {
    if (lua_type(L, arg) != LUA_TNUMBER) {
        clv_lua_typeerror(L, arg, "number");
    }
    lua_Integer f = 0;
    int isint = 0;
    f = lua_tointegerx(L, arg, &isint);
    if (!isint || f < 1 || f > frames) {
        clv_lnum v = {lua_isinteger(L, arg) != 0, lua_tointeger(L, arg), lua_tonumber(L, arg)};
        clv_lua_push_lnum(L, v);
        clv_lua_argerror(L, arg,
                         lua_pushfstring(L, "frame must be an integer in 1..%d, got %s",
                                         (int)frames, lua_tostring(L, -1)));
    }
    return f;
}

/// weapon:hitboxes(attack, frame) -> {ids in precedence order} (frame 1-based)
static int m_hitboxes(lua_State *L) {
    clv_lweapon *w = clv_lua_check_weapon(L, 1);
    int32_t a = clv_lua_check_attack(L, w, 2);
    lua_Integer f = frame_arg(L, 3, w->attacks[a].frames);
    lua_newtable(L);
    int n = 0;
    for (int32_t k = 0; k < w->entry_count; k++) {
        const clv_lentry *e = &w->entries[k];
        if (e->attack == a && e->first <= f - 1 && f - 1 <= e->last) {
            lua_pushstring(L, e->def.id);
            lua_rawseti(L, -2, ++n);
        }
    }
    return 1;
}

void clv_lua_push_hitbox_def(lua_State *L, const clv_hitbox_def *d) {
    lua_newtable(L);
    lua_pushstring(L, d->id);
    lua_setfield(L, -2, "id");
    clv_lua_pushshape(L, &d->shape);
    lua_setfield(L, -2, "shape");
    if (d->shape.type == CLV_CAPSULE || d->shape.type == CLV_CIRCLE) {
        lua_pushnumber(L, (lua_Number)(d->shape.type == CLV_CAPSULE ? d->shape.u.capsule.r
                                                                    : d->shape.u.circle.r));
        lua_setfield(L, -2, "radius");
    }
    if (d->group == CLV_GROUP_NONE) {
        lua_pushboolean(L, 0);
    } else {
        lua_pushinteger(L, d->group);
    }
    lua_setfield(L, -2, "group");
    lua_pushnumber(L, (lua_Number)d->damage);
    lua_setfield(L, -2, "damage");
    lua_pushinteger(L, d->max_hits);
    lua_setfield(L, -2, "max_hits");
    lua_pushboolean(L, d->knockback_ignores_hit_count);
    lua_setfield(L, -2, "knockback_ignores_hit_count");
    if (d->hitlag == CLV_FRAMES_AUTO) {
        lua_pushliteral(L, "auto");
    } else {
        lua_pushinteger(L, d->hitlag);
    }
    lua_setfield(L, -2, "hitlag");
    lua_pushnumber(L, (lua_Number)d->hitlag_scale);
    lua_setfield(L, -2, "hitlag_scale");
    if (d->hitstun == CLV_FRAMES_AUTO) {
        lua_pushliteral(L, "auto");
    } else {
        lua_pushinteger(L, d->hitstun);
    }
    lua_setfield(L, -2, "hitstun");
    lua_pushinteger(L, d->priority);
    lua_setfield(L, -2, "priority");
    lua_pushboolean(L, d->sweep);
    lua_setfield(L, -2, "sweep");
    static const char *const kinds[] = {"none", "fixed", "scaling", "radial"};
    lua_newtable(L);
    lua_pushstring(L, (unsigned)d->knockback.kind < 4 ? kinds[d->knockback.kind] : "?");
    lua_setfield(L, -2, "kind");
    lua_pushnumber(L, (lua_Number)d->knockback.vector.x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, (lua_Number)d->knockback.vector.y);
    lua_setfield(L, -2, "y");
    lua_pushnumber(L, (lua_Number)d->knockback.angle * (180.0 / CLV_PI));
    lua_setfield(L, -2, "angle");
    lua_pushnumber(L, (lua_Number)d->knockback.base);
    lua_setfield(L, -2, "base");
    lua_pushnumber(L, (lua_Number)d->knockback.growth);
    lua_setfield(L, -2, "growth");
    lua_setfield(L, -2, "knockback");
    lua_createtable(L, d->effect_count, 0);
    for (int32_t k = 0; k < d->effect_count; k++) {
        lua_pushstring(L, d->effects[k].name);
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "effects");
}

/// weapon:hitbox(attack, frame, id) -> table of the compiled fields, or nil
static int m_hitbox(lua_State *L) {
    clv_lweapon *w = clv_lua_check_weapon(L, 1);
    int32_t a = clv_lua_check_attack(L, w, 2);
    lua_Integer f = frame_arg(L, 3, w->attacks[a].frames);
    if (lua_type(L, 4) != LUA_TSTRING) {
        return clv_lua_typeerror(L, 4, "string");
    }
    const char *id = lua_tostring(L, 4);
    for (int32_t k = 0; k < w->entry_count; k++) {
        const clv_lentry *e = &w->entries[k];
        if (e->attack == a && e->first <= f - 1 && f - 1 <= e->last && strcmp(e->def.id, id) == 0) {
            clv_lua_push_hitbox_def(L, &e->def);
            return 1;
        }
    }
    lua_pushnil(L);
    return 1;
}

static int weapon_tostring(lua_State *L) {
    clv_lweapon *w = clv_lua_check_weapon(L, 1);
    lua_pushfstring(L, "cleave.Weapon '%s' (%d attacks)", w->name, (int)w->attack_count);
    return 1;
}

static const luaL_Reg weapon_methods[] = {
    {"name", m_name},         {"attacks", m_attacks}, {"length", m_length},
    {"hitboxes", m_hitboxes}, {"hitbox", m_hitbox},   {NULL, NULL},
};

void clv_lua_weapon_meta(lua_State *L) {
    if (!luaL_newmetatable(L, CLV_LUA_WEAPON)) {
        return;
    }
    lua_pushcfunction(L, weapon_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, weapon_tostring);
    lua_setfield(L, -2, "__tostring");
    luaL_newlib(L, weapon_methods);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
}

const luaL_Reg clv_lua_weapon_funcs[] = {
    {"weapon", l_weapon}, {"hitbox", l_hitbox}, {"arc", l_arc},
    {"thrust", l_thrust}, {"effect", l_effect}, {NULL, NULL},
};
