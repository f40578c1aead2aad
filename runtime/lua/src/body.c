/* cleave.body{...}: a body's animations and their hurtboxes, read with the file, line and
 * field path in every message and compiled into a clv_body (cleave/body.h), which holds them
 * alone; and the cleave.Body userdata that reads them back.
 *
 *   cleave.body { name = "fighter", animations = {
 *     idle  = { length = 30, loop = true, hurtboxes = { { id = "torso", x = 0, y = 0, radius = 10 }
 * } }, punch = { length = 12, frames = { [5] = { { id = "arm", ax = 0, ay = 0, bx = 24, by = 0,
 *                                                 radius = 4 } } },
 *               hurtboxes = { { id = "torso", x = 0, y = 0, radius = 10 } } } } }
 *
 * A hurtbox in `hurtboxes` covers its `frames` (a frame or {first, last}; default: all of
 * them); `frames[n]` lists the hurtboxes of frame n alone. */
#include <string.h>

#include "cleave/body.h"
#include "internal.h"

typedef struct lbody {
    clv_body *body;
    clv_lalloc alloc;
    bool borrowed; /* body is another state's (kept alive by the user value), never freed here */
} lbody;

static const char *const body_fields[] = {"name", "animations", "guard", NULL};
static const char *const guard_fields[] = {"meter", "regen", "guard_break", "all_round", NULL};
static const char *const anim_fields[] = {"length", "loop", "frames", "hurtboxes", NULL};
static const char *const hurt_fields[] = {"id", "frames", "state",  "x",     "y",     "ax", "ay",
                                          "bx", "by",     "radius", "shape", "heavy", NULL};
static const char *const hurt_states[] = {"normal", "invincible", "intangible", "armor", NULL};

static bool has(lua_State *L, int t, const char *key) {
    bool present = lua_getfield(L, t, key) != LUA_TNIL;
    lua_pop(L, 1);
    return present;
}

static float num(clv_fctx *c, int t, const char *key) { return (float)clv_f_req_number(c, t, key); }

/* The hurtbox's shape: ax/ay/bx/by/radius (capsule), x/y/radius (circle) or a cleave.Shape. */
static bool read_hurt_shape(clv_fctx *c, int t, clv_shape *out) {
    lua_State *L = c->L;
    bool capsule = has(L, t, "ax") || has(L, t, "ay") || has(L, t, "bx") || has(L, t, "by");
    bool circle = has(L, t, "x") || has(L, t, "y");
    bool shape = has(L, t, "shape");
    int given = (int)capsule + (int)circle + (int)shape;
    if (given != 1) {
        clv_f_fail_at(c, "%s: ax/ay/bx/by/radius (capsule), x/y/radius (circle) or shape",
                      given == 0 ? "needs a shape" : "give one shape");
    }
    if (capsule) {
        *out = clv_shape_capsule(num(c, t, "ax"), num(c, t, "ay"), num(c, t, "bx"), num(c, t, "by"),
                                 num(c, t, "radius"));
    } else if (circle) {
        *out = clv_shape_circle(num(c, t, "x"), num(c, t, "y"), num(c, t, "radius"));
    } else {
        size_t old;
        clv_f_get(c, t, "shape", &old);
        const clv_shape *sh = clv_lua_toshape(L, -1);
        if (sh == NULL) {
            clv_f_fail(c, "must be a cleave.Shape (got %s)", clv_f_type_name(L, -1));
        }
        *out = *sh;
        lua_pop(L, 1);
        clv_f_pop(c, old);
    }
    return shape;
}

/* heavy = X: armor that takes only hits whose push is slower than X. It makes the hurtbox an
 * armor one when no state is given; with another state it would be ignored, so it is refused. */
static void read_heavy(clv_fctx *c, int t, bool stated, clv_hurtbox_def *def) {
    double d;
    if (!clv_f_opt_number(c, t, "heavy", 0, true, &d)) {
        return;
    }
    if (stated && def->state != CLV_HURTBOX_ARMOR) {
        size_t old = clv_f_key(c, "heavy");
        clv_f_fail(c, "applies to armor hurtboxes only (state is '%s')", hurt_states[def->state]);
        clv_f_pop(c, old);
    }
    def->state = CLV_HURTBOX_ARMOR;
    def->heavy = (float)d;
}

/* The hurtbox table at t into def; the numbers are checked by cleave_hit's rule. */
void clv_lua_read_hurtbox(clv_fctx *c, int t, clv_hurtbox_def *def) {
    lua_State *L = c->L;
    if (lua_type(L, t) != LUA_TTABLE) {
        clv_f_fail(c, "must be a hurtbox table (got %s)", clv_f_type_name(L, t));
    }
    const char *oldw = clv_f_enter_fields(c, t, hurt_fields);
    *def = clv_default_hurtbox_def();
    size_t old;
    if (clv_f_get(c, t, "id", &old) == LUA_TNIL) {
        clv_f_fail(c, "is required");
    }
    clv_f_name(c, def->id);
    clv_f_pop(c, old);
    if (clv_f_get(c, t, "state", &old) != LUA_TNIL) {
        const char *st = lua_tostring(L, -1);
        int k = 0;
        while (st != NULL && lua_type(L, -1) == LUA_TSTRING && hurt_states[k] != NULL &&
               strcmp(st, hurt_states[k]) != 0) {
            k++;
        }
        if (st == NULL || lua_type(L, -1) != LUA_TSTRING || hurt_states[k] == NULL) {
            clv_f_fail(c, "must be normal, invincible, intangible or armor (got %s)",
                       clv_f_value_text(L, -1));
        }
        def->state = (clv_hurtbox_state)k;
    }
    bool stated = lua_type(L, -1) != LUA_TNIL;
    lua_pop(L, 1);
    clv_f_pop(c, old);
    read_heavy(c, t, stated, def);
    bool from_shape = read_hurt_shape(c, t, &def->shape);
    clv_hit_diag d;
    if (clv_hurtbox_def_check(def, &d) != CLV_HIT_OK) {
        clv_lua_fail_check(c, &d, from_shape, NULL, NULL);
    }
    c->where = oldw;
}

void clv_lua_read_hurtbox_list(clv_fctx *c, int at, const char *what, int32_t length,
                               clv_lua_add_hurtbox add, void *ud) {
    lua_State *L = c->L;
    size_t old;
    int t = clv_f_get(c, at, "hurtboxes", &old);
    if (t != LUA_TNIL && t != LUA_TTABLE) {
        clv_f_fail(c, "must be a list of hurtboxes (got %s)", clv_f_type_name(L, -1));
    }
    int list = lua_absindex(L, -1);
    for (lua_Integer i = 1; t == LUA_TTABLE && i <= (lua_Integer)lua_rawlen(L, list); i++) {
        size_t o2 = clv_f_index(c, i);
        lua_rawgeti(L, list, i);
        int h = lua_absindex(L, -1);
        clv_hurtbox_def def;
        clv_lua_read_hurtbox(c, h, &def);
        int32_t first = 1, last = length;
        if (has(L, h, "frames")) {
            clv_f_frames(c, h, what, length, &first, &last);
        }
        add(c, ud, first - 1, last - 1, &def);
        lua_pop(L, 1);
        clv_f_pop(c, o2);
    }
    lua_pop(L, 1);
    clv_f_pop(c, old);
}

typedef struct body_anim {
    clv_body *b;
    int32_t anim;
} body_anim;

static void add_hurtbox(clv_fctx *c, void *ud, int32_t first, int32_t last,
                        const clv_hurtbox_def *def) {
    const body_anim *ba = ud;
    clv_hit_diag d;
    if (clv_body_add_hurtbox(ba->b, ba->anim, first, last, def, &d) != CLV_HIT_OK) {
        clv_f_fail_at(c, "%s", d.message);
    }
}

/* anim.frames: [n] = list of hurtboxes of frame n alone. */
static void read_frame_lists(clv_fctx *c, int at, clv_body *b, int32_t anim, int32_t length) {
    lua_State *L = c->L;
    size_t old;
    int t = clv_f_get(c, at, "frames", &old);
    if (t != LUA_TNIL && t != LUA_TTABLE) {
        clv_f_fail(c, "must be a table of hurtbox lists by frame (got %s)", clv_f_type_name(L, -1));
    }
    for (lua_Integer f = 1; t == LUA_TTABLE && f <= length; f++) {
        size_t o2 = clv_f_index(c, f);
        int ft = lua_rawgeti(L, -1, f);
        if (ft != LUA_TNIL && ft != LUA_TTABLE) {
            clv_f_fail(c, "must be a list of hurtboxes (got %s)", clv_f_type_name(L, -1));
        }
        for (lua_Integer i = 1; ft == LUA_TTABLE && i <= (lua_Integer)lua_rawlen(L, -1); i++) {
            size_t o3 = clv_f_index(c, i);
            lua_rawgeti(L, -1, i);
            clv_hurtbox_def def;
            clv_lua_read_hurtbox(c, lua_gettop(L), &def);
            body_anim ba = {b, anim};
            add_hurtbox(c, &ba, (int32_t)f - 1, (int32_t)f - 1, &def);
            lua_pop(L, 1);
            clv_f_pop(c, o3);
        }
        lua_pop(L, 1);
        clv_f_pop(c, o2);
    }
    if (t == LUA_TTABLE) {
        /* a key past the length, or one that is not a frame, would be silently ignored */
        static const char *const none[] = {NULL};
        clv_f_check_keys(c, lua_gettop(L), none, true);
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pop(L, 1);
            if (lua_tointeger(L, -1) > length) {
                clv_f_fail(c, "holds frame %I, past the animation's last frame (length %I)",
                           (LUAI_UACINT)lua_tointeger(L, -1), (LUAI_UACINT)length);
            }
        }
    }
    lua_pop(L, 1);
    clv_f_pop(c, old);
}

static void read_animation(clv_fctx *c, clv_body *b, const char *name, int at) {
    const char *oldw = clv_f_enter_fields(c, at, anim_fields);
    clv_animation_def def;
    memset(&def, 0, sizeof def);
    snprintf(def.name, sizeof def.name, "%s", name);
    size_t old;
    if (clv_f_get(c, at, "length", &old) == LUA_TNIL) {
        clv_f_fail(c, "is required");
    }
    def.frames = (int32_t)clv_f_integer(c, 1, CLV_BODY_MAX_FRAMES);
    clv_f_pop(c, old);
    clv_f_opt_bool(c, at, "loop", &def.loop);
    int32_t index;
    clv_hit_diag d;
    if (clv_body_add_animation(b, &def, &index, &d) != CLV_HIT_OK) {
        clv_f_fail_at(c, "%s", d.message);
    }
    body_anim ba = {b, index};
    clv_lua_read_hurtbox_list(c, at, "animation", def.frames, add_hurtbox, &ba);
    read_frame_lists(c, at, b, index, def.frames);
    c->where = oldw;
}

/* body.guard = { meter =, regen =, guard_break =, all_round = }: each field optional. */
static void read_guard(clv_fctx *c, int t, clv_body *b) {
    lua_State *L = c->L;
    size_t old;
    if (clv_f_get(c, t, "guard", &old) == LUA_TNIL) {
        lua_pop(L, 1);
        clv_f_pop(c, old);
        return;
    }
    int g = lua_absindex(L, -1);
    const char *oldw = clv_f_enter_fields(c, g, guard_fields);
    clv_guard_def def = clv_default_guard_def();
    double d;
    lua_Integer i;
    if (clv_f_opt_number(c, g, "meter", 0, true, &d)) {
        def.meter = (float)d;
    }
    if (clv_f_opt_number(c, g, "regen", 0, false, &d)) {
        def.regen = (float)d;
    }
    if (clv_f_opt_integer(c, g, "guard_break", 0, 3600, &i)) {
        def.guard_break = (int32_t)i;
    }
    clv_f_opt_bool(c, g, "all_round", &def.all_round);
    clv_hit_diag diag;
    if (clv_body_set_guard(b, &def, &diag) != CLV_HIT_OK) {
        clv_f_fail_at(c, "%s", diag.message);
    }
    c->where = oldw;
    lua_pop(L, 1);
    clv_f_pop(c, old);
}

/* body.animations, in the order of their names (so that indices do not depend on hashing). */
static void read_animations(clv_fctx *c, int t, clv_body *b) {
    lua_State *L = c->L;
    size_t old;
    int at = clv_f_get(c, t, "animations", &old);
    if (at != LUA_TTABLE) {
        clv_f_fail(c, at == LUA_TNIL ? "is required" : "must be a table of animations by name");
    }
    int tab = lua_absindex(L, -1);
    int count;
    const char **names = clv_f_sorted_names(c, tab, "animation", &count);
    for (int i = 0; i < count; i++) {
        char name[CLV_HIT_NAME_MAX];
        lua_pushstring(L, names[i]);
        size_t o2 = clv_f_key(c, names[i]);
        clv_f_name(c, name);
        lua_getfield(L, tab, names[i]);
        read_animation(c, b, name, lua_gettop(L));
        lua_pop(L, 1);
        clv_f_pop(c, o2);
    }
    lua_pop(L, 2);
    clv_f_pop(c, old);
}

static int body_gc(lua_State *L) {
    lbody *u = (lbody *)luaL_checkudata(L, 1, CLV_LUA_BODY);
    if (!u->borrowed) {
        clv_body_destroy(u->body);
    }
    u->body = NULL;
    return 0;
}

const clv_body *clv_lua_to_body(lua_State *L, int idx) {
    lbody *u = (lbody *)luaL_testudata(L, idx, CLV_LUA_BODY);
    return u != NULL ? u->body : NULL;
}

void clv_lua_push_borrowed_body(lua_State *L, const clv_body *body, int keep) {
    keep = lua_absindex(L, keep);
    clv_lua_body_meta(L);
    lua_pop(L, 1);
    lbody *u = (lbody *)lua_newuserdatauv(L, sizeof *u, 1);
    memset(u, 0, sizeof *u);
    u->body = (clv_body *)body; /* read only: no method of a Body changes it */
    u->borrowed = true;
    luaL_setmetatable(L, CLV_LUA_BODY);
    lua_pushvalue(L, keep);
    lua_setiuservalue(L, -2, 1);
}

static const clv_body *check_body(lua_State *L) {
    lbody *u = (lbody *)luaL_checkudata(L, 1, CLV_LUA_BODY);
    return u->body;
}

/// cleave.body{name=, animations=} -> cleave.Body
static int l_body(lua_State *L) {
    if (lua_type(L, 1) != LUA_TTABLE) {
        return luaL_typeerror(L, 1, "table");
    }
    clv_lua_check_nargs(L, 1);
    lua_settop(L, 1);
    clv_lua_push_call_site(L);
    clv_fctx c;
    memset(&c, 0, sizeof c);
    c.L = L;
    c.where = lua_tostring(L, 2);
    c.table = "body";
    clv_f_enter(&c, 1);
    clv_f_check_keys(&c, 1, body_fields, false);
    char name[CLV_HIT_NAME_MAX];
    size_t old;
    if (clv_f_get(&c, 1, "name", &old) == LUA_TNIL) {
        clv_f_fail(&c, "is required");
    }
    clv_f_name(&c, name);
    clv_f_pop(&c, old);
    clv_lua_body_meta(L);
    lua_pop(L, 1);
    lbody *u = (lbody *)lua_newuserdatauv(L, sizeof *u, 0); /* index 3: freed by __gc */
    memset(u, 0, sizeof *u);
    luaL_setmetatable(L, CLV_LUA_BODY);
    u->alloc = clv_lua_lalloc(L);
    clv_allocator al = clv_lalloc_hook(&u->alloc);
    clv_hit_diag d;
    u->body = clv_body_create(name, &al, &d);
    if (u->body == NULL) {
        return luaL_error(L, "%s: %s", c.where, d.message);
    }
    read_guard(&c, 1, u->body);
    read_animations(&c, 1, u->body);
    lua_settop(L, 3);
    return 1;
}

/// body:name() -> string
static int b_name(lua_State *L) {
    lua_pushstring(L, clv_body_name(check_body(L)));
    return 1;
}

/// body:animations() -> list of {name=, length=, loop=}, in the order of their names
static int b_animations(lua_State *L) {
    const clv_body *b = check_body(L);
    int32_t n = clv_body_animation_count(b);
    lua_createtable(L, n, 0);
    for (int32_t i = 0; i < n; i++) {
        const clv_animation_def *a = clv_body_animation(b, i);
        lua_createtable(L, 0, 3);
        lua_pushstring(L, a->name);
        lua_setfield(L, -2, "name");
        lua_pushinteger(L, a->frames);
        lua_setfield(L, -2, "length");
        lua_pushboolean(L, a->loop);
        lua_setfield(L, -2, "loop");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int32_t check_animation(lua_State *L, const clv_body *b, int arg) {
    const char *name = luaL_checkstring(L, arg);
    int32_t a = clv_body_find_animation(b, name);
    if (a < 0) {
        return clv_lua_argerror(L, arg, lua_pushfstring(L, "no animation '%s'", name));
    }
    return a;
}

/// body:hurtboxes(animation, frame) -> list of {id=, state=, shape=cleave.Shape} (frame 1-based)
static int b_hurtboxes(lua_State *L) {
    const clv_body *b = check_body(L);
    int32_t a = check_animation(L, b, 2);
    lua_Integer f = luaL_checkinteger(L, 3);
    int32_t length = clv_body_animation(b, a)->frames;
    if (f < 1 || f > length) {
        return clv_lua_argerror(
            L, 3,
            lua_pushfstring(L, "frame must be in 1..%d, got %I", (int)length, (LUAI_UACINT)f));
    }
    int32_t n = 0;
    const clv_hurtbox_def *hb = clv_body_hurtboxes(b, a, (int32_t)f - 1, &n);
    lua_createtable(L, n, 0);
    for (int32_t k = 0; k < n; k++) {
        lua_createtable(L, 0, 3);
        lua_pushstring(L, hb[k].id);
        lua_setfield(L, -2, "id");
        lua_pushstring(L, hurt_states[hb[k].state]);
        lua_setfield(L, -2, "state");
        clv_lua_pushshape(L, &hb[k].shape);
        lua_setfield(L, -2, "shape");
        if (hb[k].state == CLV_HURTBOX_ARMOR && hb[k].heavy > 0.0f) {
            lua_pushnumber(L, (lua_Number)hb[k].heavy);
            lua_setfield(L, -2, "heavy");
        }
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    return 1;
}

/// body:frame_at(animation, elapsed) -> the 1-based frame shown `elapsed` frames after it began
static int b_frame_at(lua_State *L) {
    const clv_body *b = check_body(L);
    int32_t a = check_animation(L, b, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    luaL_argcheck(L, e >= 0, 3, "elapsed frames must be >= 0");
    lua_pushinteger(L, (lua_Integer)clv_body_frame_at(b, a, (int64_t)e) + 1);
    return 1;
}

/// body:guard() -> {meter=, regen=, guard_break=, all_round=}
static int b_guard(lua_State *L) {
    clv_guard_def g = clv_body_guard(check_body(L));
    lua_createtable(L, 0, 4);
    lua_pushnumber(L, (lua_Number)g.meter);
    lua_setfield(L, -2, "meter");
    lua_pushnumber(L, (lua_Number)g.regen);
    lua_setfield(L, -2, "regen");
    lua_pushinteger(L, g.guard_break);
    lua_setfield(L, -2, "guard_break");
    lua_pushboolean(L, g.all_round);
    lua_setfield(L, -2, "all_round");
    return 1;
}

static int body_tostring(lua_State *L) {
    const clv_body *b = check_body(L);
    lua_pushfstring(L, "cleave.Body(%s)", b != NULL ? clv_body_name(b) : "closed");
    return 1;
}

void clv_lua_body_meta(lua_State *L) {
    static const luaL_Reg methods[] = {{"name", b_name},           {"animations", b_animations},
                                       {"hurtboxes", b_hurtboxes}, {"frame_at", b_frame_at},
                                       {"guard", b_guard},         {NULL, NULL}};
    static const luaL_Reg metamethods[] = {
        {"__gc", body_gc}, {"__tostring", body_tostring}, {NULL, NULL}};
    clv_lua_createmeta(L, CLV_LUA_BODY, metamethods, methods, false);
}

const luaL_Reg clv_lua_body_funcs[] = {{"body", l_body}, {NULL, NULL}};
