/* The hit fields of a weapon that are tables of their own (knockback, effects), and
 * cleave_hit's verdict on a hitbox told at the Lua field that holds the value. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const knockback_fields[] = {"kind", "x",      "y",   "angle",
                                               "base", "growth", "set", NULL};

static const char *const effect_fields[] = {"name",    "duration", "period", "magnitude",
                                            "damages", "on_tick",  NULL};

/* An effect definition table at the top (name given or from the table), pops it. Records its
 * on_tick callback on the weapon. */
void clv_lua_read_effect(clv_fctx *c, clv_lweapon *w, const char *given_name, clv_effect_def *out) {
    lua_State *L = c->L;
    int t = lua_absindex(L, -1);
    const char *oldw = clv_f_enter_fields(c, t, effect_fields);
    *out = clv_default_effect_def();
    size_t old;
    if (given_name != NULL) {
        strcpy(out->name, given_name);
    } else {
        if (clv_f_get(c, t, "name", &old) == LUA_TNIL) {
            clv_f_fail(c, "is required");
        }
        clv_f_name(c, out->name);
        clv_f_pop(c, old);
    }
    lua_Integer i;
    if (clv_f_opt_integer(c, t, "duration", 1, CLV_ATTACK_MAX_FRAMES * 16, &i)) {
        out->duration = (int32_t)i;
    }
    if (clv_f_opt_integer(c, t, "period", 1, out->duration, &i)) {
        out->period = (int32_t)i;
    }
    if (out->period > out->duration) {
        out->period = out->duration;
    }
    double d;
    if (clv_f_opt_number(c, t, "magnitude", 0, false, &d)) {
        out->magnitude = (float)d;
    }
    bool b;
    if (clv_f_opt_bool(c, t, "damages", &b)) {
        out->damages = b;
    }
    int ft = clv_f_get(c, t, "on_tick", &old);
    if (ft != LUA_TNIL && ft != LUA_TFUNCTION) {
        clv_f_fail(c, "must be a function (got %s)", clv_f_type_name(L, -1));
    }
    if (ft == LUA_TFUNCTION) {
        int found = -1;
        for (int32_t k = 0; k < w->effect_count; k++) {
            if (strcmp(w->effects[k].name, out->name) == 0) {
                found = (int)k;
            }
        }
        if (found < 0) {
            if (!clv_lalloc_grow(&w->alloc, (void **)&w->effects, &w->effect_cap,
                                 w->effect_count + 1, sizeof *w->effects)) {
                luaL_error(L, "out of memory");
            }
            found = (int)w->effect_count++;
            strcpy(w->effects[found].name, out->name);
            w->effects[found].ref = LUA_NOREF;
        }
        luaL_unref(L, LUA_REGISTRYINDEX, w->effects[found].ref);
        w->effects[found].ref = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
        lua_pop(L, 1);
    }
    clv_f_pop(c, old);
    c->where = oldw;
    lua_pop(L, 1);
}

int clv_lua_one_of(clv_fctx *c, const char *const *names, const char *said) {
    lua_State *L = c->L;
    if (lua_type(L, -1) == LUA_TSTRING) {
        for (int k = 0; names[k] != NULL; k++) {
            if (strcmp(lua_tostring(L, -1), names[k]) == 0) {
                lua_pop(L, 1);
                return k;
            }
        }
    }
    return clv_f_fail(c, "must be %s (got %s)", said, clv_f_value_text(L, -1));
}

/* Smash knockback: base, growth (percent) and set as given, and angle in degrees like the other
 * kinds, or "sakurai" for the angle that depends on the target being on the ground. */
static void read_smash(clv_fctx *c, int t, clv_knockback *k) {
    lua_State *L = c->L;
    double d;
    size_t old;
    int at = clv_f_get(c, t, "angle", &old);
    if (at == LUA_TSTRING) {
        if (strcmp(lua_tostring(L, -1), "sakurai") != 0) {
            clv_f_fail(c, "must be a number of degrees or 'sakurai' (got %s)",
                       clv_f_value_text(L, -1));
        }
        k->sakurai = true;
        lua_pop(L, 1);
    } else if (at != LUA_TNIL) {
        k->angle = (float)(clv_f_number(c) * (CLV_PI / 180.0));
    } else {
        lua_pop(L, 1);
    }
    clv_f_pop(c, old);
    if (clv_f_opt_any_number(c, t, "base", &d)) {
        k->base = (float)d;
    }
    if (clv_f_opt_any_number(c, t, "growth", &d)) {
        k->growth = (float)d;
    }
    if (clv_f_opt_any_number(c, t, "set", &d)) {
        k->set = (float)d;
    }
}

void clv_lua_read_knockback(clv_fctx *c, clv_knockback *k) {
    lua_State *L = c->L;
    int t = lua_absindex(L, -1);
    const char *oldw = clv_f_enter_fields(c, t, knockback_fields);
    size_t old;
    const char *kind;
    int kt = clv_f_get(c, t, "kind", &old);
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
            clv_f_fail(c, "must be a string (got %s)", clv_f_type_name(L, -1));
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
        clv_f_pop(c, old);
        if (clv_f_opt_any_number(c, t, "x", &d)) {
            k->vector.x = (float)d;
        }
        if (clv_f_opt_any_number(c, t, "y", &d)) {
            k->vector.y = (float)d;
        }
    } else if (strcmp(kind, "scaling") == 0 || strcmp(kind, "radial") == 0) {
        k->kind = kind[0] == 's' ? CLV_KNOCKBACK_SCALING : CLV_KNOCKBACK_RADIAL;
        clv_f_pop(c, old);
        if (clv_f_opt_any_number(c, t, "angle", &d)) {
            k->angle = (float)(d * (CLV_PI / 180.0));
        }
        if (clv_f_opt_any_number(c, t, "base", &d)) {
            k->base = (float)d;
        }
        if (clv_f_opt_any_number(c, t, "growth", &d)) {
            k->growth = (float)d;
        }
    } else if (strcmp(kind, "smash") == 0) {
        k->kind = CLV_KNOCKBACK_SMASH;
        clv_f_pop(c, old);
        read_smash(c, t, k);
    } else {
        lua_pushstring(L, kind);
        clv_f_fail(c, "must be 'none', 'fixed', 'scaling', 'radial' or 'smash' (got '%s')", kind);
    }
    clv_f_pop(c, old);
    /* a field of another kind would be dropped without a word: x with angle silently became
     * scaling knockback */
    static const char *const kinds[] = {"none", "fixed", "scaling", "radial", "smash"};
    static const char *const takes[] = {"no fields", "x, y", "angle, base, growth",
                                        "angle, base, growth", "angle, base, growth, set"};
    for (int q = 0; q < 5; q++) {
        if (strcmp(kind, kinds[q]) != 0) {
            continue;
        }
        for (int f = 1; knockback_fields[f] != NULL; f++) {
            const char *key = knockback_fields[f];
            bool point = key[0] == 'x' || key[0] == 'y';
            bool fits = q == 1 ? point : q != 0 && !point && (q == 4 || strcmp(key, "set") != 0);
            if (!fits && lua_getfield(L, t, key) != LUA_TNIL) {
                clv_f_fail_at(c, "%s does not apply to %s knockback (it takes %s)", key, kind,
                              takes[q]);
            }
            lua_settop(L, t);
        }
    }
    c->where = oldw;
    lua_pop(L, 1);
}

/* The Lua field behind a field of clv_hitbox_def_check's diagnostic: the radius, ax... of a
 * hitbox table, shape for a cleave.Shape, and effects counted from 1. */
static void lua_field_of(const char *field, bool from_shape, char *out, size_t len) {
    int i, n = 0;
    if (strncmp(field, "shape", 5) == 0 && from_shape) {
        snprintf(out, len, "shape");
    } else if (strcmp(field, "shape.r") == 0) {
        snprintf(out, len, "radius");
    } else if (strncmp(field, "shape.", 6) == 0) {
        snprintf(out, len, "%.40s", field + 6);
    } else if (sscanf(field, "effects[%d]%n", &i, &n) == 1 && n > 0) {
        snprintf(out, len, "effects[%d]%.40s", i + 1, field + n);
    } else {
        snprintf(out, len, "%.40s", field);
    }
}

/* Raises cleave_hit's verdict on the hitbox at the field that holds the value: "shape.r must be
 * >= 0 (got -3)" becomes "<where>: <path>.radius must be >= 0 (got -3)". from_default(key, ud)
 * (may be NULL) gives a remark when the value of the hitbox's field key came from defaults. */
void clv_lua_fail_check(clv_fctx *c, const clv_hit_diag *d, bool from_shape,
                        clv_lua_remark_fn from_default, void *ud) {
    char key[64];
    lua_field_of(d->field, from_shape, key, sizeof key);
    size_t n = strlen(d->field);
    const char *rule = d->message;
    if (n > 0 && strncmp(rule, d->field, n) == 0 && rule[n] == ' ') {
        rule += n + 1;
    }
    char top[64]; /* the hitbox's own field: radius of radius, effects of effects[2].chance */
    snprintf(top, sizeof top, "%.*s", (int)strcspn(key, ".["), key);
    const char *remark = from_default != NULL ? from_default(top, ud) : "";
    c->path[c->plen] = '\0';
    lua_pushfstring(c->L, "%s: %s%s%s%s %s", c->where, c->path, c->plen > 0 ? "." : "", key, remark,
                    rule);
    lua_error(c->L);
}
