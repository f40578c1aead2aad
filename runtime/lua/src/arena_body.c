/* Bodies in a Lua arena: entities that play a cleave.Body's animations, turn, jump, guard,
 * wear armor, grab and throw (cleave/body.h). The arena copies each body the first time an
 * entity plays it; the copies keep that order, which a snapshot's restore checks. */
#include <math.h>
#include <string.h>

#include "arena_internal.h"
#include "cleave/body.h"

static const char *const armor_names[] = {"none", "super", "heavy", NULL};

/* The arena id of the body userdata at bidx, copying it into the arena on first use. */
clv_body_id clv_larena_body(lua_State *L, int arena_idx, larena *A, int bidx) {
    arena_idx = lua_absindex(L, arena_idx);
    bidx = lua_absindex(L, bidx);
    const clv_body *body = clv_lua_to_body(L, bidx);
    uint32_t known = clv_larena_cached(L, arena_idx, UV_BODIES, bidx);
    if (known != 0) {
        lua_pop(L, 1);
        return (clv_body_id){known, 0}; /* bodies stay: gen 0 */
    }
    clv_body_id id;
    clv_hit_diag diag;
    if (clv_arena_add_body(A->a, body, &id, &diag) != CLV_HIT_OK) {
        luaL_error(L, "cannot add body '%s': %s", clv_body_name(body), diag.message);
    }
    clv_larena_cache(L, bidx, id.index1);
    return id;
}

/* Pushes the body userdata the arena holds as id (nil when none). */
static void push_body(lua_State *L, int arena_idx, clv_body_id id) {
    clv_larena_uv(L, arena_idx, UV_BODIES);
    lua_rawgeti(L, -1, (lua_Integer)id.index1);
    lua_remove(L, -2);
}

/* The animation called name (at arg) in the arena's copy of body, or an argument error. */
static int32_t animation_arg(lua_State *L, larena *A, clv_body_id body, int arg, const char *bn) {
    if (lua_type(L, arg) != LUA_TSTRING) {
        return clv_lua_typeerror(L, arg, "animation name");
    }
    int32_t anim = clv_arena_find_animation(A->a, body, lua_tostring(L, arg));
    if (anim < 0) {
        return clv_lua_argerror(
            L, arg,
            lua_pushfstring(L, "body '%s' has no animation '%s'", bn, lua_tostring(L, arg)));
    }
    return anim;
}

/* Pushes the entity's arena (user value 1 of the handle at 1). */
static int push_arena(lua_State *L) {
    lua_getiuservalue(L, 1, 1);
    return lua_gettop(L);
}

static int status(lua_State *L, const char *fname, clv_hit_status st) {
    if (st != CLV_HIT_OK) {
        return luaL_error(L, "%s: %s", fname, clv_hit_status_name(st));
    }
    return 0;
}

/// arena:add_body(body): copies a cleave.Body into the arena now (spawn and play do it on first
/// use); a restore needs the bodies added in the order they were when the snapshot was taken.
static int m_add_body(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    if (clv_lua_to_body(L, 2) == NULL) {
        return clv_lua_typeerror(L, 2, CLV_LUA_BODY);
    }
    clv_larena_body(L, 1, A, 2);
    return 0;
}

/// entity:play(animation [, body]): plays an animation of its body (or of a new body) from its
/// first frame, which the next step's hits meet
static int e_play(lua_State *L) {
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    lua_settop(L, 3);
    int ai = push_arena(L);
    clv_body_id body;
    if (!lua_isnoneornil(L, 3)) {
        if (clv_lua_to_body(L, 3) == NULL) {
            return clv_lua_typeerror(L, 3, CLV_LUA_BODY);
        }
        body = clv_larena_body(L, ai, A, 3);
    } else {
        clv_entity_body_info info;
        clv_arena_entity_body(A->a, e->id, &info);
        if (info.body.index1 == 0) {
            return luaL_error(L,
                              "play: the entity plays no body (give one: entity:play(name, body))");
        }
        body = info.body;
    }
    push_body(L, ai, body);
    const char *bn = clv_body_name(clv_lua_to_body(L, -1));
    int32_t anim = animation_arg(L, A, body, 2, bn);
    return status(L, "play", clv_arena_play(A->a, e->id, body, anim));
}

/// entity:set_facing(degrees [, mirror]): turns its body's hurtboxes and its guard's front
static int e_set_facing(lua_State *L) {
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    double f = (double)clv_lua_lnum_number(clv_lua_check_lnum(L, 2, "facing"));
    if (!lua_isnoneornil(L, 3) && lua_type(L, 3) != LUA_TBOOLEAN) {
        return clv_lua_typeerror(L, 3, "boolean");
    }
    return status(L, "set_facing",
                  clv_arena_set_facing(A->a, e->id, (float)(f * RAD), lua_toboolean(L, 3) != 0));
}

/// entity:set_airborne(bool)
static int e_set_airborne(lua_State *L) {
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    if (lua_type(L, 2) != LUA_TBOOLEAN) {
        return clv_lua_typeerror(L, 2, "boolean");
    }
    return status(L, "set_airborne", clv_arena_set_airborne(A->a, e->id, lua_toboolean(L, 2) != 0));
}

/* A 16-bit layer or mask argument. */
static uint16_t bits_arg(lua_State *L, int arg, const char *name) {
    int isint = 0;
    lua_Integer v = lua_tointegerx(L, arg, &isint);
    if (lua_type(L, arg) != LUA_TNUMBER || !isint || v < 0 || v > 65535) {
        const char *got = clv_f_value_text(L, arg);
        clv_lua_argerror(
            L, arg, lua_pushfstring(L, "%s must be an integer in 0..65535, got %s", name, got));
    }
    return (uint16_t)v;
}

/// entity:set_layers(layer, mask): a hitbox hits it when (hitbox mask & layer) and
/// (mask & hitbox layer) are both non-zero
static int e_set_layers(lua_State *L) {
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    uint16_t layer = bits_arg(L, 2, "layer");
    uint16_t mask = bits_arg(L, 3, "mask");
    return status(L, "set_layers", clv_arena_set_layers(A->a, e->id, layer, mask));
}

/// entity:set_armor("super" | "heavy" | "none" [, heavy]): heavy armor takes the hits whose
/// push is slower than heavy (> 0) without push or stun
static int e_set_armor(lua_State *L) {
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    int k = -1;
    for (int i = 0; lua_type(L, 2) == LUA_TSTRING && armor_names[i] != NULL; i++) {
        if (strcmp(lua_tostring(L, 2), armor_names[i]) == 0) {
            k = i;
        }
    }
    if (k < 0) {
        const char *got = clv_f_value_text(L, 2);
        return clv_lua_argerror(
            L, 2, lua_pushfstring(L, "armor must be 'none', 'super' or 'heavy', got %s", got));
    }
    float heavy = 0.0f;
    if (k == CLV_ARMOR_HEAVY) {
        if (lua_type(L, 3) != LUA_TNUMBER) {
            return clv_lua_typeerror(L, 3, "number (the heavy armor's threshold)");
        }
        heavy = clv_lua_lnum_float(clv_lua_check_lnum(L, 3, "heavy"));
        if (!(heavy > 0.0f) || !(heavy <= CLV_WORLD_LIMIT)) {
            return clv_lua_argerror(
                L, 3,
                lua_pushfstring(L, "heavy must be in (0, 1e9], got %s", clv_f_value_text(L, 3)));
        }
    } else if (!lua_isnoneornil(L, 3)) {
        return clv_lua_argerror(L, 3, "heavy applies to 'heavy' armor only");
    }
    return status(L, "set_armor", clv_arena_set_armor(A->a, e->id, (clv_armor_kind)k, heavy));
}

/// entity:release(): lets the entity it holds, or that holds it, go
static int e_release(lua_State *L) {
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    clv_entity_body_info info;
    clv_arena_entity_body(A->a, e->id, &info);
    clv_entity_id held = info.held_by.index1 != 0 ? e->id : info.holding;
    if (held.index1 == 0) {
        return luaL_error(L, "release: the entity neither holds nor is held");
    }
    return status(L, "release", clv_arena_release(A->a, held));
}

/* A body's hurtboxes and those its attack carries, at most this many each. */
#define WORLD_HURTBOXES (2 * CLV_BODY_MAX_HURTBOXES)

/// entity:hurtboxes() -> list of {shape = cleave.Shape (world), state =, id = (but for spawned
/// shapes)}, in the order a hit's hurtbox_index counts them
static int e_hurtboxes(lua_State *L) {
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    lua_settop(L, 1);
    clv_shape shapes[WORLD_HURTBOXES];
    clv_hurtbox_state states[WORLD_HURTBOXES];
    int32_t n = clv_arena_entity_hurtboxes(A->a, e->id, shapes, states, WORLD_HURTBOXES);
    n = n < WORLD_HURTBOXES ? n : WORLD_HURTBOXES;
    static const char *const states_names[] = {"normal", "invincible", "intangible", "armor"};
    lua_createtable(L, n, 0);
    for (int32_t k = 0; k < n; k++) {
        lua_createtable(L, 0, 3);
        clv_lua_pushshape(L, &shapes[k]);
        lua_setfield(L, -2, "shape");
        clv_larena_set_str(L, "state", (unsigned)states[k] < 4 ? states_names[states[k]] : "?");
        const char *id = clv_arena_entity_hurtbox_id(A->a, e->id, k);
        if (id != NULL && id[0] != '\0') {
            clv_larena_set_str(L, "id", id);
        }
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    return 1;
}

/* The fields of clv_entity_body_info in the info table at the top. */
void clv_larena_push_body_info(lua_State *L, int arena_idx, larena *A, clv_entity_id id) {
    arena_idx = lua_absindex(L, arena_idx);
    clv_entity_body_info b;
    if (clv_arena_entity_body(A->a, id, &b) != CLV_HIT_OK) {
        return;
    }
    if (b.body.index1 != 0) {
        push_body(L, arena_idx, b.body);
        const clv_body *body = clv_lua_to_body(L, -1);
        lua_pop(L, 1);
        clv_larena_set_str(L, "body", clv_body_name(body));
        clv_larena_set_str(L, "animation", clv_body_animation(body, b.animation)->name);
        clv_larena_set_int(L, "frame", (lua_Integer)b.frame + 1);
        clv_larena_set_int(L, "elapsed", b.elapsed);
    }
    clv_larena_set_num(L, "facing", (double)b.facing * DEG);
    clv_larena_set_bool(L, "mirror", b.mirror);
    clv_larena_set_bool(L, "airborne", b.airborne);
    clv_larena_set_int(L, "layer", b.layer);
    clv_larena_set_int(L, "mask", b.mask);
    clv_larena_set_str(L, "armor", (unsigned)b.armor < 3 ? armor_names[b.armor] : "?");
    clv_larena_set_num(L, "heavy", (double)b.heavy);
    clv_larena_set_num(L, "guard_meter", (double)b.guard_meter);
    clv_larena_push_entity(L, arena_idx, b.held_by);
    lua_setfield(L, -2, "held_by");
    clv_larena_push_entity(L, arena_idx, b.holding);
    lua_setfield(L, -2, "holding");
}

/* After arena:spawn: plays the body read with the spawn table (its userdata at bidx, or 0 for
 * none), turns the entity and lifts it. The entity is removed again when that fails. */
void clv_larena_spawn_body(lua_State *L, larena *A, clv_entity_id id,
                           const clv_larena_spawn_extra *x) {
    clv_hit_status st = CLV_HIT_OK;
    if (x->body_idx != 0) {
        clv_body_id bid = clv_larena_body(L, 1, A, x->body_idx);
        st = clv_arena_play(A->a, id, bid, x->animation);
    }
    if (st == CLV_HIT_OK && (x->facing != 0.0f || x->mirror)) {
        st = clv_arena_set_facing(A->a, id, x->facing, x->mirror);
    }
    if (st == CLV_HIT_OK && x->airborne) {
        st = clv_arena_set_airborne(A->a, id, true);
    }
    if (st != CLV_HIT_OK) {
        clv_arena_remove(A->a, id);
        luaL_error(L, "spawn: %s", clv_hit_status_name(st));
    }
}

/// arena:throw{weapon=, attack=, owner=, ...}: like arena:attack, by an owner that holds a
/// target; it hits that target only, and its first hit lets it go -> cleave.Attack
static int m_throw(lua_State *L) { return clv_larena_start(L, true); }

const luaL_Reg clv_larena_body_methods[] = {
    {"add_body", m_add_body},
    {"throw", m_throw},
    {NULL, NULL},
};

const luaL_Reg clv_larena_body_entity_methods[] = {
    {"play", e_play},
    {"set_facing", e_set_facing},
    {"set_airborne", e_set_airborne},
    {"set_layers", e_set_layers},
    {"set_armor", e_set_armor},
    {"release", e_release},
    {"hurtboxes", e_hurtboxes},
    {NULL, NULL},
};
