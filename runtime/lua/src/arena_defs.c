/* The definition tables of cleave.arena{...}, arena:spawn{...} and arena:attack{...}: each
 * field checked by name, range and type, with the function and field in the message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena_internal.h"

/* ---- reading definition tables ---- */

/* The spawn table's fields, numbered for the set check_fields returns. */
enum {
    SF_X,
    SF_Y,
    SF_VX,
    SF_VY,
    SF_WEIGHT,
    SF_FRICTION,
    SF_HP,
    SF_TEAM,
    SF_STATE,
    SF_HURTBOX,
    SF_HURTBOXES,
    SF_RADIUS,
    SF_NAME,
    SF_USER,
    SF_BODY,
    SF_ANIMATION,
    SF_FACING,
    SF_MIRROR,
    SF_AIRBORNE,
    SF_COUNT
};
static const char *const spawn_fields[] = {[SF_X] = "x",
                                           [SF_Y] = "y",
                                           [SF_VX] = "vx",
                                           [SF_VY] = "vy",
                                           [SF_WEIGHT] = "weight",
                                           [SF_FRICTION] = "friction",
                                           [SF_HP] = "hp",
                                           [SF_TEAM] = "team",
                                           [SF_STATE] = "state",
                                           [SF_HURTBOX] = "hurtbox",
                                           [SF_HURTBOXES] = "hurtboxes",
                                           [SF_RADIUS] = "radius",
                                           [SF_NAME] = "name",
                                           [SF_USER] = "user",
                                           [SF_BODY] = "body",
                                           [SF_ANIMATION] = "animation",
                                           [SF_FACING] = "facing",
                                           [SF_MIRROR] = "mirror",
                                           [SF_AIRBORNE] = "airborne",
                                           [SF_COUNT] = NULL};
static const char *const attack_fields[] = {"weapon", "attack", "owner",  "facing", "x",
                                            "y",      "mirror", "follow", NULL};
static const char *const arena_fields[] = {
    "miss_margin", "capacity", "sweep_tolerance", "on_error", "clank_range", "parry_stun", NULL};

/* A bound as text: integral bounds without a fraction. */
static const char *bound_text(lua_State *L, double b) {
    clv_lnum v = {b == floor(b) && fabs(b) < 9.0e15, (lua_Integer)b, (lua_Number)b};
    clv_lua_push_lnum(L, v);
    return lua_tostring(L, -1);
}

/* "fname: key must <rule> (got <value at vidx>)" */
static int field_error(lua_State *L, const char *fname, const char *key, int vidx,
                       const char *rule) {
    vidx = lua_absindex(L, vidx);
    return luaL_error(L, "%s: %s must %s (got %s)", fname, key, rule, clv_f_value_text(L, vidx));
}

/* "fname: key must <rule> (got <type of the value at vidx>)", for a value of the wrong type. */
static int type_error(lua_State *L, const char *fname, const char *key, int vidx,
                      const char *rule) {
    const char *got = luaL_typename(L, vidx);
    if (luaL_getmetafield(L, vidx, "__name") == LUA_TSTRING) {
        got = lua_tostring(L, -1);
    }
    return luaL_error(L, "%s: %s must %s (got %s)", fname, key, rule, got);
}

/* The keys a definition table gives, as bits by their position in its list of names, and the
 * numbers among their values, read in the same pass (a spawn then looks up none of them). */
typedef struct given_fields {
    uint32_t given, numeric;
    double num[32];
} given_fields;

/* Whether every key of the table at idx is a string in known; fills g when it is. */
static bool keys_known(lua_State *L, int idx, const char *const *known, given_fields *g) {
    bool ok = true;
    g->given = g->numeric = 0;
    lua_pushnil(L);
    while (ok && lua_next(L, idx)) {
        int k = lua_type(L, -2) == LUA_TSTRING ? clv_f_name_at(lua_tostring(L, -2), known) : -1;
        ok = k >= 0 && k < 32; /* a bit each in given_fields (the lists are shorter) */
        if (ok) {
            g->given |= 1u << k;
            if (lua_type(L, -1) == LUA_TNUMBER) {
                g->numeric |= 1u << k;
                g->num[k] = (double)lua_tonumber(L, -1);
            }
        }
        lua_pop(L, 1);
    }
    if (!ok) {
        lua_pop(L, 1); /* the key lua_next left */
    }
    return ok;
}

/* Every key of the table at idx must be a field in known: "file:line: fname: unknown field 'k'",
 * with the nearest known name when one is close; the position is the caller's, as luaL_error
 * gives it for the other messages of the method. The position is looked up only for a table
 * that fails: spawns and attacks are made in a game's frames. */
static void check_fields_read(lua_State *L, int idx, const char *const *known, const char *fname,
                              given_fields *g) {
    idx = lua_absindex(L, idx);
    if (keys_known(L, idx, known, g)) {
        return;
    }
    luaL_where(L, 1);
    clv_fctx c = {.L = L, .where = lua_pushfstring(L, "%s%s", lua_tostring(L, -1), fname)};
    clv_f_check_keys(&c, idx, known, false); /* raises the error */
    lua_pop(L, 2);
}

/* check_fields_read for a table whose numbers are read later by name. */
static uint32_t check_fields(lua_State *L, int idx, const char *const *known, const char *fname) {
    given_fields g;
    check_fields_read(L, idx, known, fname, &g);
    return g.given;
}

/* Whether d is finite and within [lo, hi] (lo excluded when strict): what opt_num_in accepts. */
static bool num_in(double d, double lo, bool strict, double hi) {
    return isfinite(d) && (strict ? d > lo : d >= lo) && d <= hi;
}

/* Optional number field within [lo, hi] (lo excluded when strict). */
static bool opt_num_in(lua_State *L, int idx, const char *key, const char *fname, double lo,
                       bool strict, double hi, double *out) {
    int t = lua_getfield(L, idx, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    if (t != LUA_TNUMBER) {
        type_error(L, fname, key, -1, "be a number");
    }
    int vi = lua_gettop(L);
    double d = (double)lua_tonumber(L, vi);
    if (num_in(d, lo, strict, hi)) {
        lua_pop(L, 1);
        *out = d;
        return true;
    }
    if (!isfinite(d)) {
        field_error(L, fname, key, vi, "be finite");
    }
    if (strict ? !(d > lo) : !(d >= lo)) {
        const char *b = bound_text(L, lo);
        field_error(L, fname, key, vi, lua_pushfstring(L, "be %s %s", strict ? ">" : ">=", b));
    }
    const char *b = bound_text(L, hi); /* the only rule left: d > hi */
    field_error(L, fname, key, vi, lua_pushfstring(L, "be <= %s", b));
    return false; /* (field_error raises) */
}

/* Optional number field anywhere in world range. */
static bool opt_world(lua_State *L, int idx, const char *key, const char *fname, double *out) {
    return opt_num_in(L, idx, key, fname, -(double)CLV_WORLD_LIMIT, false, (double)CLV_WORLD_LIMIT,
                      out);
}

/* Optional finite number field that fits a float. */
static bool opt_num(lua_State *L, int idx, const char *key, const char *fname, double *out) {
    return opt_num_in(L, idx, key, fname, -3.0e38, false, 3.0e38, out);
}

/* Optional integer field within [lo, hi]. */
static bool opt_int(lua_State *L, int idx, const char *key, const char *fname, lua_Integer lo,
                    lua_Integer hi, lua_Integer *out) {
    int t = lua_getfield(L, idx, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    int isnum = 0;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    if (t != LUA_TNUMBER) {
        type_error(L, fname, key, -1, "be an integer");
    }
    if (!isnum) {
        field_error(L, fname, key, -1, "be an integer");
    }
    if (v < lo || v > hi) {
        int vi = lua_gettop(L);
        field_error(L, fname, key, vi,
                    lua_pushfstring(L, "be in %I..%I", (LUAI_UACINT)lo, (LUAI_UACINT)hi));
    }
    lua_pop(L, 1);
    *out = v;
    return true;
}

/* Field f of the spawn table at stack index 2, given: its number read by check_fields_read when
 * it lies in [lo, hi] (lo excluded when strict); otherwise opt_num_in reads the field and raises
 * its message. */
static double given_num(lua_State *L, const given_fields *g, int f, const char *fname, double lo,
                        bool strict, double hi) {
    if ((g->numeric >> f & 1u) != 0 && num_in(g->num[f], lo, strict, hi)) {
        return g->num[f];
    }
    double d = 0.0;
    opt_num_in(L, 2, spawn_fields[f], fname, lo, strict, hi, &d);
    return d;
}

/* Field f of the spawn table, given, as an integer in lo..hi (both within 2^53, where a double
 * holds every integer): as given_num, opt_int raises the message of a value that fails. */
static lua_Integer given_int(lua_State *L, const given_fields *g, int f, const char *fname,
                             lua_Integer lo, lua_Integer hi) {
    if ((g->numeric >> f & 1u) != 0) {
        double d = g->num[f];
        if (d == floor(d) && d >= (double)lo && d <= (double)hi) {
            return (lua_Integer)d;
        }
    }
    lua_Integer v = 0;
    opt_int(L, 2, spawn_fields[f], fname, lo, hi, &v);
    return v;
}

static bool opt_boolean(lua_State *L, int idx, const char *key, const char *fname, bool *out) {
    int t = lua_getfield(L, idx, key);
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    if (t != LUA_TBOOLEAN) {
        type_error(L, fname, key, -1, "be a boolean");
    }
    *out = lua_toboolean(L, -1) != 0;
    lua_pop(L, 1);
    return true;
}

/* ---- weapons in the arena ---- */

/* Whether w has a Lua callback a frame's events could call. */
static bool has_callbacks(const clv_lweapon *w) {
    if (w->on_hit_ref != LUA_NOREF || w->on_clash_ref != LUA_NOREF ||
        w->on_reflect_ref != LUA_NOREF) {
        return true;
    }
    for (int32_t k = 0; k < w->effect_count; k++) {
        if (w->effects[k].ref != LUA_NOREF) {
            return true;
        }
    }
    return false;
}

/* The arena id of the weapon userdata at widx, adding it on first use. */
clv_weapon_id clv_larena_weapon(lua_State *L, int arena_idx, larena *A, int widx) {
    clv_lweapon *w = (clv_lweapon *)lua_touserdata(L, widx);
    uint32_t known = clv_larena_cached(L, arena_idx, UV_WEAPONS, widx);
    if (known != 0) {
        lua_pop(L, 1);
        return (clv_weapon_id){known, 0}; /* never removed: gen 0 */
    }
    if (w->compiled == NULL) {
        luaL_error(L, "weapon '%s' is not compiled", clv_lua_weapon_name(w));
    }
    if (!clv_lalloc_grow(&A->alloc, (void **)&A->weapons, &A->weapon_cap, A->weapon_count + 1,
                         sizeof *A->weapons)) {
        luaL_error(L, "out of memory");
    }
    clv_weapon_id id;
    clv_hit_diag diag;
    if (clv_arena_add_weapon(A->a, w->compiled, &id, &diag) != CLV_HIT_OK) {
        luaL_error(L, "cannot add weapon '%s': %s", clv_lua_weapon_name(w), diag.message);
    }
    A->weapons[A->weapon_count++] = w;
    A->callback_weapons += has_callbacks(w) ? 1 : 0;
    clv_larena_cache(L, widx, id.index1);
    return id;
}

/* ---- cleave.arena ---- */

/// cleave.arena{miss_margin=, capacity=, on_error=} -> cleave.Arena
int clv_larena_new(lua_State *L) {
    const char *fname = "cleave.arena";
    if (lua_isnoneornil(L, 1)) {
        lua_settop(L, 0);
        lua_newtable(L);
    }
    if (lua_type(L, 1) != LUA_TTABLE) {
        return clv_lua_typeerror(L, 1, "table");
    }
    clv_lua_check_nargs(L, 1);
    check_fields(L, 1, arena_fields, fname);
    clv_arena_def def = clv_default_arena_def();
    double d;
    if (opt_num_in(L, 1, "miss_margin", fname, 0.0, false, (double)CLV_WORLD_LIMIT, &d)) {
        def.miss_margin = (float)d;
    }
    if (opt_num_in(L, 1, "sweep_tolerance", fname, 0.0, true, (double)CLV_WORLD_LIMIT, &d)) {
        def.sweep_tolerance = (float)d;
    }
    lua_Integer cap;
    if (opt_int(L, 1, "capacity", fname, 0, 1 << 20, &cap)) {
        def.entity_capacity = (int32_t)cap;
    }
    if (opt_num_in(L, 1, "clank_range", fname, 0.0, false, 3.0e38, &d)) {
        def.clank_range = (float)d;
    }
    if (opt_int(L, 1, "parry_stun", fname, 0, 3600, &cap)) {
        def.parry_stun = (int32_t)cap;
    }
    int eh = lua_getfield(L, 1, "on_error");
    if (eh != LUA_TNIL && eh != LUA_TFUNCTION) {
        type_error(L, fname, "on_error", -1, "be a function");
    }
    larena *A = (larena *)lua_newuserdatauv(L, sizeof *A, 1);
    memset(A, 0, sizeof *A);
    A->alloc = clv_lua_lalloc(L);
    def.allocator = clv_lalloc_hook(&A->alloc);
    luaL_setmetatable(L, CLV_LUA_ARENA);
    lua_createtable(L, UV_COUNT, 0);
    for (int k = 1; k <= UV_COUNT; k++) {
        if (k == UV_ON_ERROR) {
            lua_pushvalue(L, 2);
        } else {
            lua_newtable(L);
        }
        lua_rawseti(L, -2, k);
    }
    lua_setiuservalue(L, -2, 1);
    clv_hit_diag diag;
    A->a = clv_arena_create(&def, &diag);
    if (A->a == NULL) {
        luaL_error(L, "%s: %s", fname, diag.message);
    }
    return 1;
}

/* The shape at idx as hurtbox `key` (the Lua path, "hurtboxes[2]"): shapes are valid by
 * construction, but an entity also keeps every number within the world's range. */
static void read_hurtbox(lua_State *L, const char *fname, const char *key, int idx,
                         clv_shape *out) {
    const clv_lshape *s = (const clv_lshape *)luaL_testudata(L, idx, CLV_LUA_SHAPE);
    if (s == NULL) {
        type_error(L, fname, key, idx, "be a cleave.Shape");
    }
    const char *const *names = clv_lua_param_names[s->f.type];
    for (int k = 0; k < s->count; k++) {
        if (s->f.type == CLV_OBB && k == 4) {
            continue; /* the angle */
        }
        double v = (double)clv_lua_lnum_number(s->v[k]);
        if (!(fabs(v) <= (double)CLV_WORLD_LIMIT)) {
            clv_lua_push_lnum(L, s->v[k]);
            luaL_error(L, "%s: %s.%s must be in -1000000000..1000000000 (got %s)", fname, key,
                       names[k], lua_tostring(L, -1));
        }
    }
    *out = s->f;
}

/* The animation an entity spawned with body and no animation plays: "idle" when the body has
 * one, else its first by name. Preferring "idle" keeps a body whose names sort "brace" or
 * "dodge" first from spawning guarded or intangible. */
static int32_t default_animation(const struct clv_body *body) {
    int32_t idle = clv_body_find_animation(body, "idle");
    return idle >= 0 ? idle : 0;
}

/* The spawn table's body, animation (by name; default_animation without one), facing
 * (degrees), mirror and airborne, checked before anything is spawned. The body is left on the
 * stack at x->body_idx. */
static void read_spawn_body(lua_State *L, const char *fname, clv_larena_spawn_extra *x) {
    memset(x, 0, sizeof *x);
    double d;
    if (opt_num(L, 2, "facing", fname, &d)) {
        x->facing = (float)(d * RAD);
    }
    opt_boolean(L, 2, "mirror", fname, &x->mirror);
    opt_boolean(L, 2, "airborne", fname, &x->airborne);
    int at = lua_getfield(L, 2, "animation");
    int bt = lua_getfield(L, 2, "body");
    const struct clv_body *body = clv_lua_to_body(L, -1);
    if (bt != LUA_TNIL && body == NULL) {
        type_error(L, fname, "body", -1, "be a cleave.Body");
    }
    if (body == NULL && at != LUA_TNIL) {
        luaL_error(L, "%s: animation needs a body", fname);
    }
    if (body != NULL && at != LUA_TNIL) {
        int ai = lua_gettop(L) - 1;
        x->animation = at == LUA_TSTRING ? clv_body_find_animation(body, lua_tostring(L, ai)) : -1;
        if (x->animation < 0) {
            const char *rule =
                lua_pushfstring(L, "name an animation of body '%s'", clv_body_name(body));
            field_error(L, fname, "animation", ai, rule);
        }
    }
    lua_remove(L, -2);
    if (body != NULL && clv_body_animation_count(body) == 0) {
        luaL_error(L, "%s: body '%s' has no animation", fname, clv_body_name(body));
    }
    if (body != NULL && at == LUA_TNIL) {
        x->animation = default_animation(body);
    }
    x->body_idx = body != NULL ? lua_gettop(L) : 0;
    if (body == NULL) {
        lua_pop(L, 1);
    }
}

/* The hurtboxes of a spawn table, from one of radius, hurtbox and hurtboxes. */
static void read_spawn_hurtboxes(lua_State *L, const char *fname, clv_entity_def *def) {
    /* one way to give the hurtboxes: a second would silently win over the first */
    const char *given = NULL;
    static const char *const hurt_keys[] = {"radius", "hurtbox", "hurtboxes"};
    for (int k = 0; k < 3; k++) {
        if (lua_getfield(L, 2, hurt_keys[k]) != LUA_TNIL) {
            if (given != NULL) {
                luaL_error(L, "%s: give one of radius, hurtbox, hurtboxes (got %s and %s)", fname,
                           given, hurt_keys[k]);
            }
            given = hurt_keys[k];
        }
        lua_pop(L, 1);
    }
    double d;
    if (opt_num_in(L, 2, "radius", fname, 0.0, false, (double)CLV_WORLD_LIMIT, &d)) {
        def->hurtbox_count = 1;
        def->hurtboxes[0].type = CLV_CIRCLE;
        def->hurtboxes[0].u.circle.c = clv_v2(0, 0);
        def->hurtboxes[0].u.circle.r = (float)d;
    }
    if (lua_getfield(L, 2, "hurtbox") != LUA_TNIL) {
        def->hurtbox_count = 1;
        read_hurtbox(L, fname, "hurtbox", lua_gettop(L), &def->hurtboxes[0]);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 2, "hurtboxes") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TTABLE) {
            type_error(L, fname, "hurtboxes", -1, "be a list of cleave.Shape");
        }
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        if (n > CLV_MAX_HURTBOXES) {
            luaL_error(L, "%s: hurtboxes must hold at most %d shapes (got %I)", fname,
                       CLV_MAX_HURTBOXES, (LUAI_UACINT)n);
        }
        def->hurtbox_count = (int32_t)n;
        for (lua_Integer k = 1; k <= n; k++) {
            lua_rawgeti(L, -1, k);
            const char *key = lua_pushfstring(L, "hurtboxes[%I]", (LUAI_UACINT)k);
            read_hurtbox(L, fname, key, lua_gettop(L) - 1, &def->hurtboxes[k - 1]);
            lua_pop(L, 2);
        }
    }
    lua_pop(L, 1);
}

static bool has(uint32_t given, int field) { return (given >> field & 1u) != 0; }

/// arena:spawn{x=, y=, vx=, vy=, hp=, weight=, friction=, team=, state=, hurtbox=|hurtboxes=|
/// radius=, name=, user=, body=, animation=, facing=, mirror=, airborne=} -> cleave.Entity
int clv_larena_spawn(lua_State *L) {
    const char *fname = "spawn";
    larena *A = clv_larena_check(L, 1);
    if (lua_type(L, 2) != LUA_TTABLE) {
        return clv_lua_typeerror(L, 2, "table");
    }
    clv_lua_check_nargs(L, 2);
    /* one pass over the table's keys reads its numbers; a field it does not give is not looked
     * up: a crowd spawns with few of them */
    given_fields g;
    check_fields_read(L, 2, spawn_fields, fname, &g);
    uint32_t given = g.given;
    clv_entity_def def = clv_default_entity_def();
    const double world = (double)CLV_WORLD_LIMIT;
    if (has(given, SF_X)) {
        def.position.x = (float)given_num(L, &g, SF_X, fname, -world, false, world);
    }
    if (has(given, SF_Y)) {
        def.position.y = (float)given_num(L, &g, SF_Y, fname, -world, false, world);
    }
    if (has(given, SF_VX)) {
        def.velocity.x = (float)given_num(L, &g, SF_VX, fname, -world, false, world);
    }
    if (has(given, SF_VY)) {
        def.velocity.y = (float)given_num(L, &g, SF_VY, fname, -world, false, world);
    }
    if (has(given, SF_WEIGHT)) {
        def.weight = (float)given_num(L, &g, SF_WEIGHT, fname, 0.0, true, 3.0e38);
    }
    if (has(given, SF_FRICTION)) {
        def.friction = (float)given_num(L, &g, SF_FRICTION, fname, 0.0, false, 3.0e38);
    }
    if (has(given, SF_HP)) {
        def.hp = (float)given_num(L, &g, SF_HP, fname, 0.0, true, 3.0e38);
    }
    if (has(given, SF_TEAM)) {
        def.team = (int32_t)given_int(L, &g, SF_TEAM, fname, INT32_MIN, INT32_MAX);
    }
    lua_Integer i;
    if (has(given, SF_USER) && opt_int(L, 2, "user", fname, LUA_MININTEGER, LUA_MAXINTEGER, &i)) {
        def.user = (uint64_t)i;
    }
    if (has(given, SF_STATE)) {
        lua_getfield(L, 2, "state");
        int st = -1;
        for (int k = 0; lua_type(L, -1) == LUA_TSTRING && clv_larena_states[k] != NULL; k++) {
            if (strcmp(lua_tostring(L, -1), clv_larena_states[k]) == 0) {
                st = k;
            }
        }
        if (st < 0) {
            field_error(L, fname, "state", -1,
                        "be one of 'normal', 'invincible', 'intangible', 'parry', 'guard'");
        }
        def.state = (clv_hurt_state)st;
        lua_pop(L, 1);
    }
    if (has(given, SF_RADIUS) || has(given, SF_HURTBOX) || has(given, SF_HURTBOXES)) {
        read_spawn_hurtboxes(L, fname, &def);
    }
    if (has(given, SF_NAME)) {
        if (lua_getfield(L, 2, "name") != LUA_TSTRING) {
            type_error(L, fname, "name", -1, "be a string");
        }
        lua_pop(L, 1);
    }
    clv_larena_spawn_extra extra;
    if (has(given, SF_BODY) || has(given, SF_ANIMATION) || has(given, SF_FACING) ||
        has(given, SF_MIRROR) || has(given, SF_AIRBORNE)) {
        read_spawn_body(L, fname, &extra);
    } else {
        memset(&extra, 0, sizeof extra); /* what read_spawn_body reads from a table without them */
    }
    clv_entity_id id;
    clv_hit_diag diag;
    if (clv_arena_spawn(A->a, &def, &id, &diag) != CLV_HIT_OK) {
        luaL_error(L, "%s: %s", fname, diag.message);
    }
    clv_larena_spawn_body(L, A, id, &extra);
    clv_larena_push_entity(L, 1, id);
    if (has(given, SF_NAME)) {
        lua_getfield(L, 2, "name");
        lua_setiuservalue(L, -2, 2);
    }
    return 1;
}

static const char *weapon_label(lua_State *L, int idx) {
    clv_lweapon *w = (clv_lweapon *)luaL_testudata(L, idx, CLV_LUA_WEAPON);
    return w != NULL ? clv_lua_weapon_name(w) : "?";
}

/// arena:attack{weapon=, attack=, owner=, facing=, x=, y=, mirror=, follow=} -> cleave.Attack
int clv_larena_attack(lua_State *L) { return clv_larena_start(L, false); }

int clv_larena_start(lua_State *L, bool throw) {
    const char *fname = throw ? "throw" : "attack";
    larena *A = clv_larena_check(L, 1);
    if (lua_type(L, 2) != LUA_TTABLE) {
        return clv_lua_typeerror(L, 2, "table");
    }
    clv_lua_check_nargs(L, 2);
    check_fields(L, 2, attack_fields, fname);
    lua_settop(L, 2);
    lua_getfield(L, 2, "weapon"); /* 3 */
    clv_lweapon *w = (clv_lweapon *)luaL_testudata(L, 3, CLV_LUA_WEAPON);
    if (w == NULL) {
        return type_error(L, fname, "weapon", 3, "be a cleave.Weapon");
    }
    clv_attack_start_def def = clv_default_attack_start_def();
    lua_getfield(L, 2, "attack"); /* 4 */
    if (lua_isnil(L, 4) && clv_weapon_attack_count(w->compiled) == 1) {
        def.attack = 0;
    } else {
        if (lua_type(L, 4) != LUA_TSTRING) {
            return type_error(L, fname, "attack", 4, "be an attack name");
        }
        const char *an = lua_tostring(L, 4);
        def.attack = clv_weapon_find_attack(w->compiled, an);
        if (def.attack < 0) {
            return luaL_error(L, "%s: weapon '%s' has no attack '%s'", fname, weapon_label(L, 3),
                              an);
        }
    }
    lua_getfield(L, 2, "owner"); /* 5 */
    if (luaL_testudata(L, 5, CLV_LUA_ENTITY) == NULL) {
        return type_error(L, fname, "owner", 5, "be a cleave.Entity");
    }
    larena *oa;
    lentity *owner = clv_larena_check_entity(L, 5, &oa);
    if (oa != A) {
        return luaL_error(L, "%s: owner belongs to another arena", fname);
    }
    def.owner = owner->id;
    double d;
    if (opt_num(L, 2, "facing", fname, &d)) {
        def.facing = (float)(d * RAD);
    }
    if (opt_world(L, 2, "x", fname, &d)) {
        def.position.x = (float)d;
    }
    if (opt_world(L, 2, "y", fname, &d)) {
        def.position.y = (float)d;
    }
    bool b;
    if (opt_boolean(L, 2, "mirror", fname, &b)) {
        def.mirror = b;
    }
    if (opt_boolean(L, 2, "follow", fname, &b)) {
        def.follow_owner = b;
    }
    def.weapon = clv_larena_weapon(L, 1, A, 3);
    clv_attack_id id;
    clv_hit_diag diag;
    clv_hit_status st = throw ? clv_arena_throw(A->a, &def, &id, &diag)
                              : clv_arena_start_attack(A->a, &def, &id, &diag);
    if (st != CLV_HIT_OK) {
        return luaL_error(L, "%s: %s", fname, diag.message);
    }
    return clv_larena_push_attack(L, 1, A, id);
}
