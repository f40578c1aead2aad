/* cleave.arena: the hit arena of cleave_hit driven from Lua, with entity and attack handles
 * that hold ids (never pointers) and Lua callbacks that run after each frame is applied.
 *
 * Events are kept in C for the frames of the last arena:step(n) and turned into Lua tables
 * only when asked for (hits(), misses(), ticks()) or when a callback needs them, so a Lua
 * driver costs little more than a C one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sandbox_internal.h"

#define DEG (180.0 / CLV_PI)
#define RAD (CLV_PI / 180.0)

/* Slots of the arena's user value table. */
enum {
    UV_WEAPONS = 1,  /* weapon userdata -> arena index1; index1 -> weapon userdata */
    UV_HANDLES = 2,  /* entity index1 -> cleave.Entity of the current generation */
    UV_ON_HIT = 3,   /* list of functions */
    UV_ON_ERROR = 4, /* function or nil */
    UV_ERRORS = 5,   /* messages of the last step */
    UV_COUNT = 5
};

typedef struct larena {
    clv_arena *a;
    clv_hit_event *hits;
    int32_t hit_count, hit_cap;
    clv_miss_record *misses;
    int32_t miss_count, miss_cap;
    /* the weapon of each miss, read while its attack still ran: the record names only the
     * attack, which may have ended (and its slot been reused) by the time misses() is called */
    clv_weapon_id *miss_weapons;
    int32_t miss_weapon_cap;
    clv_tick_event *ticks;
    int32_t tick_count, tick_cap;
    clv_lweapon **weapons; /* by arena index1 - 1 (anchored by the UV_WEAPONS table) */
    int32_t weapon_count, weapon_cap;
    int32_t on_hit_count; /* length of UV_ON_HIT */
    int32_t error_count;  /* length of UV_ERRORS */
    int32_t in_callbacks; /* > 0 while the callbacks of a frame run */
    clv_lalloc alloc;     /* the state's: the arena and the event lists count against it */
} larena;

typedef struct lentity {
    clv_entity_id id;
} lentity;

typedef struct lattack {
    clv_attack_id id;
    larena *arena; /* kept alive by the handle's user value; read on every running() */
} lattack;

/* The userdata at arg when its metatable is the one the running method was registered with
 * (upvalue 1 of every method): a pointer comparison instead of luaL_testudata's registry
 * lookup by name, on calls a game makes every frame. NULL otherwise (the caller then takes the
 * slow path, which also gives the error message). */
static void *method_self(lua_State *L, int arg) {
    void *p = lua_touserdata(L, arg);
    if (p == NULL || !lua_getmetatable(L, arg)) {
        return NULL;
    }
    int same = lua_rawequal(L, -1, lua_upvalueindex(1));
    lua_pop(L, 1);
    return same ? p : NULL;
}

static larena *check_arena(lua_State *L, int arg) {
    larena *A = (larena *)method_self(L, arg);
    if (A == NULL) {
        A = (larena *)luaL_testudata(L, arg, CLV_LUA_ARENA);
    }
    if (A == NULL) {
        clv_lua_typeerror(L, arg, CLV_LUA_ARENA);
    }
    if (A->a == NULL) {
        luaL_error(L, "arena is closed");
    }
    return A;
}

static void push_uv(lua_State *L, int arena_idx, int slot) {
    lua_getiuservalue(L, arena_idx, 1);
    lua_rawgeti(L, -1, slot);
    lua_remove(L, -2);
}

/* ---- reading definition tables ---- */

static const char *const spawn_fields[] = {"x",         "y",      "vx",   "vy",    "weight",
                                           "friction",  "hp",     "team", "state", "hurtbox",
                                           "hurtboxes", "radius", "name", "user",  NULL};
static const char *const attack_fields[] = {"weapon", "attack", "owner",  "facing", "x",
                                            "y",      "mirror", "follow", NULL};
static const char *const arena_fields[] = {"miss_margin", "capacity", "sweep_tolerance", "on_error",
                                           NULL};

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

/* Every key of the table at idx must be a field in known: "fname: unknown field 'k'", with the
 * nearest known name when one is close. */
static void check_fields(lua_State *L, int idx, const char *const *known, const char *fname) {
    clv_fctx c = {.L = L, .where = fname};
    clv_f_check_keys(&c, idx, known, false);
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
    if (!isfinite(d)) {
        field_error(L, fname, key, vi, "be finite");
    }
    if (strict ? !(d > lo) : !(d >= lo)) {
        const char *b = bound_text(L, lo);
        field_error(L, fname, key, vi, lua_pushfstring(L, "be %s %s", strict ? ">" : ">=", b));
    }
    if (!(d <= hi)) {
        const char *b = bound_text(L, hi);
        field_error(L, fname, key, vi, lua_pushfstring(L, "be <= %s", b));
    }
    lua_pop(L, 1);
    *out = d;
    return true;
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

static const char *const state_names[] = {"normal", "invincible", "intangible", NULL};

/* ---- handles ---- */

static int push_entity(lua_State *L, int arena_idx, clv_entity_id id) {
    arena_idx = lua_absindex(L, arena_idx);
    if (id.index1 == 0) {
        lua_pushnil(L);
        return 1;
    }
    push_uv(L, arena_idx, UV_HANDLES);
    if (lua_rawgeti(L, -1, (lua_Integer)id.index1) == LUA_TUSERDATA) {
        lentity *e = (lentity *)lua_touserdata(L, -1);
        if (e->id.gen == id.gen) {
            lua_remove(L, -2);
            return 1;
        }
    }
    lua_pop(L, 1);
    lentity *e = (lentity *)lua_newuserdatauv(L, sizeof *e, 2);
    e->id = id;
    luaL_setmetatable(L, CLV_LUA_ENTITY);
    lua_pushvalue(L, arena_idx);
    lua_setiuservalue(L, -2, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, (lua_Integer)id.index1);
    lua_remove(L, -2);
    return 1;
}

/* The entity handle at arg with its arena pushed on top; raises when it is gone. */
static lentity *check_entity(lua_State *L, int arg, larena **out) {
    lentity *e = (lentity *)luaL_testudata(L, arg, CLV_LUA_ENTITY);
    if (e == NULL) {
        clv_lua_typeerror(L, arg, CLV_LUA_ENTITY);
    }
    lua_getiuservalue(L, arg, 1);
    larena *A = (larena *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (A == NULL || A->a == NULL) {
        luaL_error(L, "entity %d belongs to a closed arena", (int)e->id.index1);
    }
    if (!clv_arena_entity_valid(A->a, e->id)) {
        luaL_error(L, "entity %d was removed", (int)e->id.index1);
    }
    *out = A;
    return e;
}

static const char *entity_name(lua_State *L, int handle_idx) {
    lua_getiuservalue(L, handle_idx, 2);
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 1);
    return s;
}

/* ---- weapons in the arena ---- */

/* The arena id of the weapon userdata at widx, adding it on first use. */
static clv_weapon_id arena_weapon(lua_State *L, int arena_idx, larena *A, int widx) {
    clv_lweapon *w = (clv_lweapon *)lua_touserdata(L, widx);
    push_uv(L, arena_idx, UV_WEAPONS);
    lua_pushvalue(L, widx);
    if (lua_rawget(L, -2) == LUA_TNUMBER) {
        clv_weapon_id id = {(uint32_t)lua_tointeger(L, -1), 0}; /* never removed: gen 0 */
        lua_pop(L, 2);
        return id;
    }
    lua_pop(L, 1);
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
    lua_pushvalue(L, widx);
    lua_pushinteger(L, (lua_Integer)id.index1);
    lua_rawset(L, -3);
    lua_pushvalue(L, widx);
    lua_rawseti(L, -2, (lua_Integer)id.index1);
    lua_pop(L, 1);
    return id;
}

static clv_lweapon *weapon_of(const larena *A, clv_weapon_id id) {
    if (id.index1 == 0 || (int32_t)id.index1 > A->weapon_count) {
        return NULL;
    }
    return A->weapons[id.index1 - 1];
}

/* The hitbox definition behind an event. */
static const clv_hitbox_def *event_box(const larena *A, clv_weapon_id w, int32_t attack,
                                       int32_t frame, int32_t hitbox) {
    return clv_arena_hitbox(A->a, w, attack, frame, hitbox);
}

/* ---- event tables ---- */

static void set_num(lua_State *L, const char *k, double v) {
    lua_pushnumber(L, (lua_Number)v);
    lua_setfield(L, -2, k);
}

static void set_int(lua_State *L, const char *k, lua_Integer v) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void set_str(lua_State *L, const char *k, const char *v) {
    lua_pushstring(L, v);
    lua_setfield(L, -2, k);
}

static void set_bool(lua_State *L, const char *k, bool v) {
    lua_pushboolean(L, v);
    lua_setfield(L, -2, k);
}

/* The fields of a hit every state gets (names and numbers, no handles). */
void clv_lua_push_hit_plain(lua_State *L, const clv_hit_event *h, const clv_lweapon *w,
                            const clv_hitbox_def *d) {
    lua_createtable(L, 0, 24);
    set_int(L, "frame", (lua_Integer)h->frame);
    set_str(L, "weapon", w != NULL ? clv_lua_weapon_name(w) : "?");
    set_str(L, "attack", w != NULL ? clv_lua_attack_name(w, h->attack_index) : "?");
    set_int(L, "attack_frame", h->attack_frame + 1);
    set_str(L, "hitbox", d != NULL ? d->id : "?");
    set_int(L, "hitbox_index", h->hitbox + 1);
    set_int(L, "group", h->group);
    set_num(L, "damage", (double)h->damage);
    set_num(L, "knockback_x", (double)h->knockback.x);
    set_num(L, "knockback_y", (double)h->knockback.y);
    set_num(L, "x", (double)h->point.x);
    set_num(L, "y", (double)h->point.y);
    set_num(L, "t", (double)h->blade_t);
    set_num(L, "sweep_t", (double)h->sweep_t);
    set_int(L, "hitlag", h->hitlag);
    set_int(L, "hitstun", h->hitstun);
    set_bool(L, "push_only", (h->flags & CLV_HIT_FLAG_PUSH_ONLY) != 0);
    set_bool(L, "invincible", (h->flags & CLV_HIT_FLAG_INVINCIBLE) != 0);
    set_bool(L, "killed", (h->flags & CLV_HIT_FLAG_KILLED) != 0);
    lua_newtable(L);
    int n = 0;
    for (int k = 0; d != NULL && k < d->effect_count; k++) {
        if (h->effects & (1u << k)) {
            lua_pushstring(L, d->effects[k].name);
            lua_rawseti(L, -2, ++n);
        }
    }
    lua_setfield(L, -2, "effects");
    set_int(L, "target_id", (lua_Integer)h->target.index1);
    set_int(L, "attacker_id", (lua_Integer)h->attacker.index1);
    set_int(L, "target", (lua_Integer)h->target.index1);
    set_int(L, "attacker", (lua_Integer)h->attacker.index1);
}

/* Pushes a hit as a table. With arena_idx > 0 the entities are handles of that arena (in the
 * arena's own state); with 0 they are integer ids (for a mod's sandbox). */
static void push_hit(lua_State *L, int arena_idx, const larena *A, const clv_hit_event *h) {
    const clv_hitbox_def *d = event_box(A, h->weapon, h->attack_index, h->attack_frame, h->hitbox);
    clv_lua_push_hit_plain(L, h, weapon_of(A, h->weapon), d);
    if (arena_idx > 0) {
        push_entity(L, arena_idx, h->target);
        if (lua_type(L, -1) == LUA_TUSERDATA) {
            const char *nm = entity_name(L, lua_absindex(L, -1));
            if (nm != NULL) {
                lua_pushstring(L, nm);
                lua_setfield(L, -3, "target_name");
            }
        }
        lua_setfield(L, -2, "target");
        push_entity(L, arena_idx, h->attacker);
        lua_setfield(L, -2, "attacker");
    }
}

static void push_miss(lua_State *L, int arena_idx, const larena *A, const clv_miss_record *m,
                      clv_weapon_id wid) {
    lua_createtable(L, 0, 12);
    set_int(L, "frame", (lua_Integer)m->frame);
    const clv_lweapon *w = weapon_of(A, wid);
    set_str(L, "attack", w != NULL ? clv_lua_attack_name(w, m->attack_index) : "?");
    set_str(L, "weapon", w != NULL ? clv_lua_weapon_name(w) : "?");
    set_int(L, "attack_frame", m->attack_frame + 1);
    const clv_hitbox_def *d =
        w != NULL ? event_box(A, wid, m->attack_index, m->attack_frame, m->hitbox) : NULL;
    set_str(L, "hitbox", d != NULL ? d->id : "?");
    set_int(L, "hitbox_index", m->hitbox + 1);
    set_int(L, "group", m->group);
    set_str(L, "reason", clv_miss_reason_name(m->reason));
    set_num(L, "distance", (double)m->distance);
    set_int(L, "target_id", (lua_Integer)m->target.index1);
    push_entity(L, arena_idx, m->target);
    if (lua_type(L, -1) == LUA_TUSERDATA) {
        const char *nm = entity_name(L, lua_absindex(L, -1));
        if (nm != NULL) {
            lua_pushstring(L, nm);
            lua_setfield(L, -3, "target_name");
        }
    }
    lua_setfield(L, -2, "target");
}

void clv_lua_push_tick_plain(lua_State *L, const clv_tick_event *t) {
    lua_createtable(L, 0, 8);
    set_int(L, "frame", (lua_Integer)t->frame);
    set_str(L, "effect", t->name);
    set_num(L, "magnitude", (double)t->magnitude);
    set_num(L, "damage", (double)t->damage);
    set_bool(L, "expired", t->expired);
    set_bool(L, "killed", t->killed);
    set_int(L, "target_id", (lua_Integer)t->target.index1);
    set_int(L, "target", (lua_Integer)t->target.index1);
}

static void push_tick(lua_State *L, int arena_idx, const clv_tick_event *t) {
    lua_createtable(L, 0, 8);
    set_int(L, "frame", (lua_Integer)t->frame);
    set_str(L, "effect", t->name);
    set_num(L, "magnitude", (double)t->magnitude);
    set_num(L, "damage", (double)t->damage);
    set_bool(L, "expired", t->expired);
    set_bool(L, "killed", t->killed);
    set_int(L, "target_id", (lua_Integer)t->target.index1);
    if (arena_idx > 0) {
        push_entity(L, arena_idx, t->target);
    } else {
        lua_pushinteger(L, (lua_Integer)t->target.index1);
    }
    lua_setfield(L, -2, "target");
}

/* ---- callbacks ---- */

static int traceback(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* Records an error message (at the top, popped) of a callback. */
static void report(lua_State *L, int arena_idx) {
    larena *A = (larena *)lua_touserdata(L, arena_idx);
    A->error_count++;
    push_uv(L, arena_idx, UV_ERRORS);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 1);
    push_uv(L, arena_idx, UV_ON_ERROR);
    if (lua_type(L, -1) == LUA_TFUNCTION) {
        lua_pushvalue(L, -2);
        if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
            fprintf(stderr, "cleave: on_error failed: %s\n", lua_tostring(L, -1));
            lua_pop(L, 1);
        }
    } else {
        lua_pop(L, 1);
        fprintf(stderr, "cleave: callback error: %s\n", lua_tostring(L, -1));
    }
    lua_pop(L, 1);
}

/* Calls the function below one argument (in L) with a traceback; reports an error. */
static void protected_call(lua_State *L, int arena_idx) {
    int base = lua_gettop(L) - 1;
    lua_pushcfunction(L, traceback);
    lua_insert(L, base);
    if (lua_pcall(L, 1, 0, base) != LUA_OK) {
        lua_remove(L, base);
        report(L, arena_idx);
        return;
    }
    lua_remove(L, base);
}

/* Calls a weapon callback (ref) with an event; in the mod's sandbox when the weapon has one. */
static void call_weapon_cb(lua_State *L, int arena_idx, const larena *A, clv_lweapon *w, int ref,
                           const clv_hit_event *h, const clv_tick_event *t) {
    if (w->host == NULL) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
        if (h != NULL) {
            push_hit(L, arena_idx, A, h);
        } else {
            push_tick(L, arena_idx, t);
        }
        protected_call(L, arena_idx);
        return;
    }
    char err[1024];
    const clv_hitbox_def *d =
        h != NULL ? event_box(A, h->weapon, h->attack_index, h->attack_frame, h->hitbox) : NULL;
    if (!clv_mod_call_event(w->host, ref, h, h != NULL ? weapon_of(A, h->weapon) : NULL, d,
                            h != NULL ? NULL : t, err, sizeof err)) {
        lua_pushstring(L, err);
        report(L, arena_idx);
    }
}

/* Runs the callbacks of the frame just stepped (events from index h0, t0 on). */
static void run_callbacks(lua_State *L, int arena_idx, larena *A, int32_t h0, int32_t t0) {
    /* each mod's callbacks of this frame share the frame's budget of its sandbox */
    for (int32_t i = 0; i < A->weapon_count; i++) {
        lua_State *S = A->weapons[i]->host != NULL ? clv_mod_state(A->weapons[i]->host) : NULL;
        if (S != NULL) {
            clv_sandbox_frame_begin(clv_sandbox_of(S));
        }
    }
    for (int32_t k = h0; k < A->hit_count; k++) {
        const clv_hit_event *h = &A->hits[k];
        clv_lweapon *w = weapon_of(A, h->weapon);
        if (w != NULL && w->on_hit_ref != LUA_NOREF) {
            call_weapon_cb(L, arena_idx, A, w, w->on_hit_ref, h, NULL);
        }
        if (A->on_hit_count > 0) {
            push_uv(L, arena_idx, UV_ON_HIT);
            int list = lua_gettop(L);
            for (int32_t i = 1; i <= A->on_hit_count; i++) {
                lua_rawgeti(L, list, i);
                push_hit(L, arena_idx, A, &A->hits[k]);
                protected_call(L, arena_idx);
            }
            lua_pop(L, 1);
        }
    }
    for (int32_t k = t0; k < A->tick_count; k++) {
        const clv_tick_event *t = &A->ticks[k];
        clv_lweapon *w = weapon_of(A, t->weapon);
        int ref = w != NULL ? clv_lua_effect_ref(w, t->name) : LUA_NOREF;
        if (ref != LUA_NOREF) {
            call_weapon_cb(L, arena_idx, A, w, ref, NULL, t);
        }
    }
}

/* ---- cleave.arena ---- */

/// cleave.arena{miss_margin=, capacity=, on_error=} -> cleave.Arena
static int l_arena(lua_State *L) {
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

static int arena_gc(lua_State *L) {
    larena *A = (larena *)luaL_checkudata(L, 1, CLV_LUA_ARENA);
    clv_arena_destroy(A->a);
    A->a = NULL;
    clv_lalloc_resize(&A->alloc, A->hits, sizeof *A->hits * (size_t)A->hit_cap, 0);
    clv_lalloc_resize(&A->alloc, A->misses, sizeof *A->misses * (size_t)A->miss_cap, 0);
    clv_lalloc_resize(&A->alloc, A->miss_weapons,
                      sizeof *A->miss_weapons * (size_t)A->miss_weapon_cap, 0);
    A->miss_weapons = NULL;
    A->miss_weapon_cap = 0;
    clv_lalloc_resize(&A->alloc, A->ticks, sizeof *A->ticks * (size_t)A->tick_cap, 0);
    clv_lalloc_resize(&A->alloc, A->weapons, sizeof *A->weapons * (size_t)A->weapon_cap, 0);
    A->hits = NULL, A->misses = NULL, A->ticks = NULL, A->weapons = NULL;
    A->hit_cap = A->miss_cap = A->tick_cap = A->weapon_cap = 0;
    A->hit_count = A->miss_count = A->tick_count = A->weapon_count = 0;
    return 0;
}

/// arena:close(): frees the arena now rather than at collection (also its __close, for
/// `local a <close> = cleave.arena{}`); every later call but close raises "arena is closed".
static int m_close(lua_State *L) {
    larena *A = (larena *)luaL_checkudata(L, 1, CLV_LUA_ARENA);
    /* the callbacks of a frame iterate over the event lists this frees */
    if (A->in_callbacks > 0) {
        return luaL_error(L, "close: the arena cannot be closed inside one of its callbacks");
    }
    return arena_gc(L);
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

/// arena:spawn{x=, y=, vx=, vy=, hp=, weight=, friction=, team=, state=, hurtbox=|hurtboxes=|
/// radius=, name=, user=} -> cleave.Entity
static int m_spawn(lua_State *L) {
    const char *fname = "spawn";
    larena *A = check_arena(L, 1);
    if (lua_type(L, 2) != LUA_TTABLE) {
        return clv_lua_typeerror(L, 2, "table");
    }
    clv_lua_check_nargs(L, 2);
    check_fields(L, 2, spawn_fields, fname);
    clv_entity_def def = clv_default_entity_def();
    double d;
    if (opt_world(L, 2, "x", fname, &d)) {
        def.position.x = (float)d;
    }
    if (opt_world(L, 2, "y", fname, &d)) {
        def.position.y = (float)d;
    }
    if (opt_world(L, 2, "vx", fname, &d)) {
        def.velocity.x = (float)d;
    }
    if (opt_world(L, 2, "vy", fname, &d)) {
        def.velocity.y = (float)d;
    }
    if (opt_num_in(L, 2, "weight", fname, 0.0, true, 3.0e38, &d)) {
        def.weight = (float)d;
    }
    if (opt_num_in(L, 2, "friction", fname, 0.0, false, 3.0e38, &d)) {
        def.friction = (float)d;
    }
    if (opt_num_in(L, 2, "hp", fname, 0.0, true, 3.0e38, &d)) {
        def.hp = (float)d;
    }
    lua_Integer i;
    if (opt_int(L, 2, "team", fname, INT32_MIN, INT32_MAX, &i)) {
        def.team = (int32_t)i;
    }
    if (opt_int(L, 2, "user", fname, LUA_MININTEGER, LUA_MAXINTEGER, &i)) {
        def.user = (uint64_t)i;
    }
    if (lua_getfield(L, 2, "state") != LUA_TNIL) {
        int st = -1;
        for (int k = 0; lua_type(L, -1) == LUA_TSTRING && state_names[k] != NULL; k++) {
            if (strcmp(lua_tostring(L, -1), state_names[k]) == 0) {
                st = k;
            }
        }
        if (st < 0) {
            field_error(L, fname, "state", -1, "be one of 'normal', 'invincible', 'intangible'");
        }
        def.state = (clv_hurt_state)st;
    }
    lua_pop(L, 1);
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
    if (opt_num_in(L, 2, "radius", fname, 0.0, false, (double)CLV_WORLD_LIMIT, &d)) {
        def.hurtbox_count = 1;
        def.hurtboxes[0].type = CLV_CIRCLE;
        def.hurtboxes[0].u.circle.c = clv_v2(0, 0);
        def.hurtboxes[0].u.circle.r = (float)d;
    }
    if (lua_getfield(L, 2, "hurtbox") != LUA_TNIL) {
        def.hurtbox_count = 1;
        read_hurtbox(L, fname, "hurtbox", lua_gettop(L), &def.hurtboxes[0]);
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
        def.hurtbox_count = (int32_t)n;
        for (lua_Integer k = 1; k <= n; k++) {
            lua_rawgeti(L, -1, k);
            const char *key = lua_pushfstring(L, "hurtboxes[%I]", (LUAI_UACINT)k);
            read_hurtbox(L, fname, key, lua_gettop(L) - 1, &def.hurtboxes[k - 1]);
            lua_pop(L, 2);
        }
    }
    lua_pop(L, 1);
    int nt = lua_getfield(L, 2, "name");
    if (nt != LUA_TNIL && nt != LUA_TSTRING) {
        type_error(L, fname, "name", -1, "be a string");
    }
    clv_entity_id id;
    clv_hit_diag diag;
    if (clv_arena_spawn(A->a, &def, &id, &diag) != CLV_HIT_OK) {
        luaL_error(L, "%s: %s", fname, diag.message);
    }
    push_entity(L, 1, id);
    lua_pushvalue(L, -2);
    lua_setiuservalue(L, -2, 2);
    return 1;
}

static const char *weapon_label(lua_State *L, int idx) {
    clv_lweapon *w = (clv_lweapon *)luaL_testudata(L, idx, CLV_LUA_WEAPON);
    return w != NULL ? clv_lua_weapon_name(w) : "?";
}

/// arena:attack{weapon=, attack=, owner=, facing=, x=, y=, mirror=, follow=} -> cleave.Attack
static int m_attack(lua_State *L) {
    const char *fname = "attack";
    larena *A = check_arena(L, 1);
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
    lentity *owner = check_entity(L, 5, &oa);
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
    def.weapon = arena_weapon(L, 1, A, 3);
    clv_attack_id id;
    clv_hit_diag diag;
    if (clv_arena_start_attack(A->a, &def, &id, &diag) != CLV_HIT_OK) {
        return luaL_error(L, "%s: %s", fname, diag.message);
    }
    lattack *h = (lattack *)lua_newuserdatauv(L, sizeof *h, 1);
    h->id = id;
    h->arena = A;
    luaL_setmetatable(L, CLV_LUA_ATTACK);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    return 1;
}

/* A frame count argument (a number, checked by the caller): an integer in 0..hi, else
 * "bad argument #n to 'f' (frames must be an integer in 0..hi, got v)". A float with an
 * integral value counts, as everywhere else in Lua. */
static lua_Integer frames_arg(lua_State *L, int arg, lua_Integer hi) {
    lua_Integer n = 0;
    if (!lua_isinteger(L, arg)) {
        double d = (double)lua_tonumber(L, arg);
        if (d == floor(d) && fabs(d) <= 9.0e15) {
            n = (lua_Integer)d;
        } else {
            n = -1;
        }
    } else {
        n = lua_tointeger(L, arg);
    }
    if (n < 0 || n > hi) {
        const char *got = clv_f_value_text(L, arg);
        clv_lua_argerror(
            L, arg,
            lua_pushfstring(L, "frames must be an integer in 0..%I, got %s", (LUAI_UACINT)hi, got));
    }
    return n;
}

/// arena:step([n]) -> hits: steps n frames (default 1); events of those frames are kept, and
/// the number of hits among them is returned
static int m_step(lua_State *L) {
    larena *A = check_arena(L, 1);
    /* step(1) runs every frame of a game driven from Lua: skip the generic paths for it */
    if (!lua_isnoneornil(L, 2) && lua_type(L, 2) != LUA_TNUMBER) {
        return clv_lua_typeerror(L, 2, "number");
    }
    lua_Integer n = 1;
    if (!lua_isnoneornil(L, 2) && !lua_isinteger(L, 2)) {
        n = frames_arg(L, 2, 1000000000);
    } else if (lua_isinteger(L, 2)) {
        n = lua_tointeger(L, 2);
    }
    if (A->in_callbacks > 0) {
        /* the events being reported would be overwritten under the callback's feet */
        return luaL_error(L, "step: the arena cannot step inside one of its callbacks");
    }
    if (n < 0 || n > 1000000000) {
        frames_arg(L, 2, 1000000000);
    }
    lua_settop(L, 1);
    A->hit_count = A->miss_count = A->tick_count = 0;
    /* a fresh error list only when the last one was used: a quiet step allocates nothing */
    if (A->error_count > 0) {
        lua_getiuservalue(L, 1, 1);
        lua_newtable(L);
        lua_rawseti(L, -2, UV_ERRORS);
        A->error_count = 0;
        lua_settop(L, 1);
    }
    for (lua_Integer f = 0; f < n; f++) {
        /* the sandbox's count hook never fires inside this loop: a mod's step(10^9) would run
         * past its deadline by minutes, so look at the clock between frames */
        if (f > 0) {
            clv_sandbox_check_deadline(L);
        }
        clv_hit_status st = clv_arena_step(A->a);
        if (st != CLV_HIT_OK) {
            return luaL_error(L, "step: %s", clv_hit_status_name(st));
        }
        int32_t c;
        const clv_hit_event *h = clv_arena_hits(A->a, &c);
        int32_t h0 = A->hit_count, t0 = A->tick_count;
        if (c > 0) {
            if (!clv_lalloc_grow(&A->alloc, (void **)&A->hits, &A->hit_cap, A->hit_count + c,
                                 sizeof *h)) {
                return luaL_error(L, "out of memory");
            }
            memcpy(A->hits + A->hit_count, h, sizeof *h * (size_t)c);
            A->hit_count += c;
        }
        const clv_miss_record *m = clv_arena_misses(A->a, &c);
        if (c > 0) {
            if (!clv_lalloc_grow(&A->alloc, (void **)&A->misses, &A->miss_cap, A->miss_count + c,
                                 sizeof *m)) {
                return luaL_error(L, "out of memory");
            }
            int32_t wcap = A->miss_weapon_cap;
            if (!clv_lalloc_grow(&A->alloc, (void **)&A->miss_weapons, &wcap, A->miss_count + c,
                                 sizeof *A->miss_weapons)) {
                return luaL_error(L, "out of memory");
            }
            A->miss_weapon_cap = wcap;
            memcpy(A->misses + A->miss_count, m, sizeof *m * (size_t)c);
            /* before the callbacks, which may remove an owner and so end its attacks */
            for (int32_t k = 0; k < c; k++) {
                clv_attack_info info;
                clv_weapon_id wid = {0};
                if (clv_arena_attack(A->a, m[k].attack, &info) == CLV_HIT_OK) {
                    wid = info.weapon;
                }
                A->miss_weapons[A->miss_count + k] = wid;
            }
            A->miss_count += c;
        }
        const clv_tick_event *t = clv_arena_ticks(A->a, &c);
        if (c > 0) {
            if (!clv_lalloc_grow(&A->alloc, (void **)&A->ticks, &A->tick_cap, A->tick_count + c,
                                 sizeof *t)) {
                return luaL_error(L, "out of memory");
            }
            memcpy(A->ticks + A->tick_count, t, sizeof *t * (size_t)c);
            A->tick_count += c;
        }
        if (A->hit_count > h0 || A->tick_count > t0) {
            A->in_callbacks++;
            run_callbacks(L, 1, A, h0, t0);
            A->in_callbacks--;
            if (A->a == NULL) {
                return luaL_error(L, "step: the arena was closed by a callback");
            }
        }
    }
    lua_pushinteger(L, A->hit_count);
    return 1;
}

/// arena:frame() -> frames stepped so far
static int m_frame(lua_State *L) {
    larena *A = check_arena(L, 1);
    lua_pushinteger(L, (lua_Integer)clv_arena_frame(A->a));
    return 1;
}

/// arena:hits() -> list of hit tables of the frames of the last step
static int m_hits(lua_State *L) {
    larena *A = check_arena(L, 1);
    lua_createtable(L, A->hit_count, 0);
    for (int32_t k = 0; k < A->hit_count; k++) {
        push_hit(L, 1, A, &A->hits[k]);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/// arena:misses() -> list of miss tables (reason as a string)
static int m_misses(lua_State *L) {
    larena *A = check_arena(L, 1);
    lua_createtable(L, A->miss_count, 0);
    for (int32_t k = 0; k < A->miss_count; k++) {
        push_miss(L, 1, A, &A->misses[k], A->miss_weapons[k]);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/// arena:ticks() -> list of status effect ticks
static int m_ticks(lua_State *L) {
    larena *A = check_arena(L, 1);
    lua_createtable(L, A->tick_count, 0);
    for (int32_t k = 0; k < A->tick_count; k++) {
        push_tick(L, 1, &A->ticks[k]);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/// arena:errors() -> callback error messages of the last step
static int m_errors(lua_State *L) {
    check_arena(L, 1);
    push_uv(L, 1, UV_ERRORS);
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    lua_createtable(L, (int)n, 0);
    for (lua_Integer k = 1; k <= n; k++) {
        lua_rawgeti(L, -2, k);
        lua_rawseti(L, -2, k);
    }
    return 1;
}

/// arena:on_hit(fn) -> registers a callback run for every hit after its frame is applied
static int m_on_hit(lua_State *L) {
    larena *A = check_arena(L, 1);
    if (lua_type(L, 2) != LUA_TFUNCTION) {
        return clv_lua_typeerror(L, 2, "function");
    }
    push_uv(L, 1, UV_ON_HIT);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, ++A->on_hit_count);
    return 0;
}

/// arena:hash() -> 16 hex digits
static int m_hash(lua_State *L) {
    larena *A = check_arena(L, 1);
    char buf[24];
    snprintf(buf, sizeof buf, "%016llx", (unsigned long long)clv_arena_hash(A->a));
    lua_pushstring(L, buf);
    return 1;
}

/// arena:snapshot() -> string
static int m_snapshot(lua_State *L) {
    larena *A = check_arena(L, 1);
    size_t size = clv_arena_snapshot_size(A->a);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, size);
    size_t written = 0;
    clv_hit_status st = clv_arena_snapshot(A->a, p, size, &written);
    if (st != CLV_HIT_OK) {
        return luaL_error(L, "snapshot: %s", clv_hit_status_name(st));
    }
    luaL_pushresultsize(&b, written);
    return 1;
}

/// arena:restore(snapshot)
static int m_restore(lua_State *L) {
    larena *A = check_arena(L, 1);
    size_t len;
    if (lua_type(L, 2) != LUA_TSTRING) {
        return clv_lua_typeerror(L, 2, "string (from arena:snapshot())");
    }
    const char *s = lua_tolstring(L, 2, &len);
    /* refused before anything changes: the events being reported belong to the current frame */
    if (A->in_callbacks > 0) {
        return luaL_error(L, "restore: the arena cannot be restored inside one of its callbacks");
    }
    clv_hit_diag diag;
    if (clv_arena_restore_diag(A->a, s, len, &diag) != CLV_HIT_OK) {
        return luaL_error(L, "restore: %s", diag.message);
    }
    A->hit_count = A->miss_count = A->tick_count = 0;
    return 0;
}

/// arena:hit_count() -> number of hits of the last step (no tables built)
static int m_hit_count(lua_State *L) {
    larena *A = check_arena(L, 1);
    lua_pushinteger(L, A->hit_count);
    return 1;
}

/// arena:miss_count() -> number of misses of the last step
static int m_miss_count(lua_State *L) {
    larena *A = check_arena(L, 1);
    lua_pushinteger(L, A->miss_count);
    return 1;
}

/// arena:entity_count() -> entities in use
static int m_entity_count(lua_State *L) {
    larena *A = check_arena(L, 1);
    lua_pushinteger(L, clv_arena_entity_count(A->a));
    return 1;
}

static int arena_tostring(lua_State *L) {
    larena *A = (larena *)luaL_checkudata(L, 1, CLV_LUA_ARENA);
    if (A->a == NULL) {
        lua_pushliteral(L, "cleave.Arena (closed)");
    } else {
        lua_pushfstring(L, "cleave.Arena (frame %I, %d entities)",
                        (LUAI_UACINT)clv_arena_frame(A->a), (int)clv_arena_entity_count(A->a));
    }
    return 1;
}

/* ---- cleave.Entity ---- */

/// entity:id() -> integer slot id (stable while the entity lives)
static int e_id(lua_State *L) {
    lentity *e = (lentity *)luaL_checkudata(L, 1, CLV_LUA_ENTITY);
    lua_pushinteger(L, (lua_Integer)e->id.index1);
    return 1;
}

/// entity:valid() -> false once removed
static int e_valid(lua_State *L) {
    lentity *e = (lentity *)luaL_checkudata(L, 1, CLV_LUA_ENTITY);
    lua_getiuservalue(L, 1, 1);
    larena *A = (larena *)lua_touserdata(L, -1);
    lua_pushboolean(L, A != NULL && A->a != NULL && clv_arena_entity_valid(A->a, e->id));
    return 1;
}

/// entity:name() -> the name given at spawn, or nil
static int e_name(lua_State *L) {
    luaL_checkudata(L, 1, CLV_LUA_ENTITY);
    lua_getiuservalue(L, 1, 2);
    return 1;
}

static clv_entity_info entity_info(lua_State *L, lentity **pe, larena **pa) {
    larena *A;
    lentity *e = check_entity(L, 1, &A);
    clv_entity_info info;
    clv_arena_entity(A->a, e->id, &info);
    if (pe != NULL) {
        *pe = e;
    }
    if (pa != NULL) {
        *pa = A;
    }
    return info;
}

/// entity:hp() -> hp
static int e_hp(lua_State *L) {
    lua_pushnumber(L, (lua_Number)entity_info(L, NULL, NULL).hp);
    return 1;
}

/// entity:alive() -> hp > 0
static int e_alive(lua_State *L) {
    lua_pushboolean(L, entity_info(L, NULL, NULL).alive);
    return 1;
}

/// entity:position() -> x, y
static int e_position(lua_State *L) {
    clv_entity_info i = entity_info(L, NULL, NULL);
    lua_pushnumber(L, (lua_Number)i.position.x);
    lua_pushnumber(L, (lua_Number)i.position.y);
    return 2;
}

/// entity:velocity() -> vx, vy
static int e_velocity(lua_State *L) {
    clv_entity_info i = entity_info(L, NULL, NULL);
    lua_pushnumber(L, (lua_Number)i.velocity.x);
    lua_pushnumber(L, (lua_Number)i.velocity.y);
    return 2;
}

/// entity:info() -> table of the whole state
static int e_info(lua_State *L) {
    clv_entity_info i = entity_info(L, NULL, NULL);
    lua_createtable(L, 0, 16);
    set_num(L, "x", (double)i.position.x);
    set_num(L, "y", (double)i.position.y);
    set_num(L, "vx", (double)i.velocity.x);
    set_num(L, "vy", (double)i.velocity.y);
    set_num(L, "weight", (double)i.weight);
    set_num(L, "friction", (double)i.friction);
    set_num(L, "hp", (double)i.hp);
    set_num(L, "damage_taken", (double)i.damage_taken);
    set_int(L, "team", i.team);
    set_str(L, "state", (unsigned)i.state < 3 ? state_names[i.state] : "?");
    set_int(L, "state_frames", i.state_frames);
    set_bool(L, "alive", i.alive);
    set_int(L, "hitlag", i.hitlag);
    set_int(L, "hitstun", i.hitstun);
    set_int(L, "effect_count", i.effect_count);
    set_int(L, "hurtbox_count", i.hurtbox_count);
    return 1;
}

static int status_error(lua_State *L, const char *fname, clv_hit_status st) {
    if (st != CLV_HIT_OK) {
        return luaL_error(L, "%s: %s", fname, clv_hit_status_name(st));
    }
    return 0;
}

/// entity:remove()
static int e_remove(lua_State *L) {
    larena *A;
    lentity *e = check_entity(L, 1, &A);
    return status_error(L, "remove", clv_arena_remove(A->a, e->id));
}

/// entity:set_position(x, y)
static int e_set_position(lua_State *L) {
    larena *A;
    lentity *e = check_entity(L, 1, &A);
    float x = clv_lua_lnum_float(clv_lua_check_lnum(L, 2, "x"));
    float y = clv_lua_lnum_float(clv_lua_check_lnum(L, 3, "y"));
    return status_error(L, "set_position", clv_arena_set_position(A->a, e->id, clv_v2(x, y)));
}

/// entity:set_velocity(vx, vy)
static int e_set_velocity(lua_State *L) {
    larena *A;
    lentity *e = check_entity(L, 1, &A);
    float x = clv_lua_lnum_float(clv_lua_check_lnum(L, 2, "vx"));
    float y = clv_lua_lnum_float(clv_lua_check_lnum(L, 3, "vy"));
    return status_error(L, "set_velocity", clv_arena_set_velocity(A->a, e->id, clv_v2(x, y)));
}

/// entity:set_hp(hp)
static int e_set_hp(lua_State *L) {
    larena *A;
    lentity *e = check_entity(L, 1, &A);
    float hp = clv_lua_lnum_float(clv_lua_check_lnum(L, 2, "hp"));
    return status_error(L, "set_hp", clv_arena_set_hp(A->a, e->id, hp));
}

/// entity:set_state(state [, frames])
static int e_set_state(lua_State *L) {
    larena *A;
    lentity *e = check_entity(L, 1, &A);
    int st = -1;
    for (int k = 0; lua_type(L, 2) == LUA_TSTRING && state_names[k] != NULL; k++) {
        if (strcmp(lua_tostring(L, 2), state_names[k]) == 0) {
            st = k;
        }
    }
    if (st < 0) {
        const char *got = clv_f_value_text(L, 2);
        return clv_lua_argerror(
            L, 2,
            lua_pushfstring(L, "state must be one of 'normal', 'invincible', 'intangible', got %s",
                            got));
    }
    if (!lua_isnoneornil(L, 3) && lua_type(L, 3) != LUA_TNUMBER) {
        return clv_lua_typeerror(L, 3, "number");
    }
    lua_Integer frames = lua_isnoneornil(L, 3) ? 0 : frames_arg(L, 3, INT32_MAX);
    return status_error(L, "set_state",
                        clv_arena_set_state(A->a, e->id, (clv_hurt_state)st, (int32_t)frames));
}

static int entity_tostring(lua_State *L) {
    lentity *e = (lentity *)luaL_checkudata(L, 1, CLV_LUA_ENTITY);
    const char *nm = entity_name(L, 1);
    if (nm != NULL) {
        lua_pushfstring(L, "cleave.Entity %d (%s)", (int)e->id.index1, nm);
    } else {
        lua_pushfstring(L, "cleave.Entity %d", (int)e->id.index1);
    }
    return 1;
}

/* ---- cleave.Attack ---- */

static lattack *check_attack_handle(lua_State *L, const char *fname, larena **pa) {
    lattack *h = (lattack *)method_self(L, 1);
    if (h == NULL) {
        h = (lattack *)luaL_checkudata(L, 1, CLV_LUA_ATTACK);
    }
    larena *A = h->arena;
    if (A == NULL || A->a == NULL) {
        luaL_error(L, "%s: the arena is closed", fname);
    }
    *pa = A;
    return h;
}

/// attack:running() -> true until the attack ends or is cancelled
static int a_running(lua_State *L) {
    larena *A;
    lattack *h = check_attack_handle(L, "running", &A);
    lua_pushboolean(L, clv_arena_attack_valid(A->a, h->id));
    return 1;
}

/// attack:info() -> {frame (1-based, 0 before the first step), elapsed, targets_hit, x, y,
/// facing} or nil once it ended
static int a_info(lua_State *L) {
    larena *A;
    lattack *h = check_attack_handle(L, "info", &A);
    clv_attack_info i;
    if (clv_arena_attack(A->a, h->id, &i) != CLV_HIT_OK) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 8);
    set_int(L, "frame", i.frame + 1);
    set_int(L, "elapsed", i.elapsed);
    set_int(L, "targets_hit", i.targets_hit);
    set_num(L, "x", (double)i.position.x);
    set_num(L, "y", (double)i.position.y);
    set_num(L, "facing", (double)i.facing * DEG);
    set_bool(L, "mirror", i.mirror);
    return 1;
}

/// attack:cancel()
static int a_cancel(lua_State *L) {
    larena *A;
    lattack *h = check_attack_handle(L, "cancel", &A);
    if (clv_arena_attack_valid(A->a, h->id)) {
        clv_arena_cancel_attack(A->a, h->id);
    }
    return 0;
}

/// attack:set_pose(x, y, facing_deg [, mirror])
static int a_set_pose(lua_State *L) {
    larena *A;
    lattack *h = check_attack_handle(L, "set_pose", &A);
    float x = clv_lua_lnum_float(clv_lua_check_lnum(L, 2, "x"));
    float y = clv_lua_lnum_float(clv_lua_check_lnum(L, 3, "y"));
    double f = (double)clv_lua_lnum_number(clv_lua_check_lnum(L, 4, "facing"));
    if (!lua_isnoneornil(L, 5) && lua_type(L, 5) != LUA_TBOOLEAN) {
        return clv_lua_typeerror(L, 5, "boolean");
    }
    bool mirror = lua_toboolean(L, 5) != 0;
    if (!clv_arena_attack_valid(A->a, h->id)) {
        return luaL_error(L, "set_pose: the attack has ended");
    }
    return status_error(
        L, "set_pose",
        clv_arena_set_attack_pose(A->a, h->id, clv_v2(x, y), (float)(f * RAD), mirror));
}

/* ---- registration ---- */

static const luaL_Reg arena_methods[] = {
    {"spawn", m_spawn},
    {"attack", m_attack},
    {"step", m_step},
    {"frame", m_frame},
    {"hits", m_hits},
    {"misses", m_misses},
    {"ticks", m_ticks},
    {"errors", m_errors},
    {"on_hit", m_on_hit},
    {"hash", m_hash},
    {"snapshot", m_snapshot},
    {"restore", m_restore},
    {"entity_count", m_entity_count},
    {"hit_count", m_hit_count},
    {"miss_count", m_miss_count},
    {"close", m_close},
    {NULL, NULL},
};

static const luaL_Reg entity_methods[] = {
    {"id", e_id},
    {"valid", e_valid},
    {"name", e_name},
    {"hp", e_hp},
    {"alive", e_alive},
    {"position", e_position},
    {"velocity", e_velocity},
    {"info", e_info},
    {"remove", e_remove},
    {"set_position", e_set_position},
    {"set_velocity", e_set_velocity},
    {"set_hp", e_set_hp},
    {"set_state", e_set_state},
    {NULL, NULL},
};

static const luaL_Reg attack_methods[] = {
    {"running", a_running},   {"info", a_info}, {"cancel", a_cancel},
    {"set_pose", a_set_pose}, {NULL, NULL},
};

static const luaL_Reg arena_metamethods[] = {
    {"__gc", arena_gc},
    {"__close", m_close},
    {"__tostring", arena_tostring},
    {NULL, NULL},
};

static const luaL_Reg entity_metamethods[] = {{"__tostring", entity_tostring}, {NULL, NULL}};

void clv_lua_arena_meta(lua_State *L) {
    clv_lua_createmeta(L, CLV_LUA_ARENA, arena_metamethods, arena_methods, true);
    clv_lua_createmeta(L, CLV_LUA_ENTITY, entity_metamethods, entity_methods, true);
    clv_lua_createmeta(L, CLV_LUA_ATTACK, NULL, attack_methods, true);
    lua_pop(L, 3);
}

const luaL_Reg clv_lua_arena_funcs[] = {
    {"arena", l_arena},
    {NULL, NULL},
};
