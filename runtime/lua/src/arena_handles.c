/* cleave.Entity and cleave.Attack: handles that hold ids, never pointers, and their arena as
 * a user value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena_internal.h"

const char *const clv_larena_states[] = {"normal", "invincible", "intangible",
                                         "parry",  "guard",      NULL};

/* ---- handles ---- */

int clv_larena_push_entity(lua_State *L, int arena_idx, clv_entity_id id) {
    arena_idx = lua_absindex(L, arena_idx);
    if (id.index1 == 0) {
        lua_pushnil(L);
        return 1;
    }
    clv_larena_uv(L, arena_idx, UV_HANDLES);
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
lentity *clv_larena_check_entity(lua_State *L, int arg, larena **out) {
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

const char *clv_larena_entity_name(lua_State *L, int handle_idx) {
    lua_getiuservalue(L, handle_idx, 2);
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 1);
    return s;
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
    lentity *e = clv_larena_check_entity(L, 1, &A);
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
    clv_larena_set_num(L, "x", (double)i.position.x);
    clv_larena_set_num(L, "y", (double)i.position.y);
    clv_larena_set_num(L, "vx", (double)i.velocity.x);
    clv_larena_set_num(L, "vy", (double)i.velocity.y);
    clv_larena_set_num(L, "weight", (double)i.weight);
    clv_larena_set_num(L, "friction", (double)i.friction);
    clv_larena_set_num(L, "hp", (double)i.hp);
    clv_larena_set_num(L, "damage_taken", (double)i.damage_taken);
    clv_larena_set_int(L, "team", i.team);
    clv_larena_set_str(L, "state", (unsigned)i.state < 5 ? clv_larena_states[i.state] : "?");
    clv_larena_set_int(L, "state_frames", i.state_frames);
    clv_larena_set_bool(L, "alive", i.alive);
    clv_larena_set_int(L, "hitlag", i.hitlag);
    clv_larena_set_int(L, "hitstun", i.hitstun);
    clv_larena_set_int(L, "effect_count", i.effect_count);
    clv_larena_set_int(L, "hurtbox_count", i.hurtbox_count);
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    lua_getiuservalue(L, 1, 1);
    lua_insert(L, -2);
    clv_larena_push_body_info(L, -2, A, e->id);
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
    lentity *e = clv_larena_check_entity(L, 1, &A);
    return status_error(L, "remove", clv_arena_remove(A->a, e->id));
}

/// entity:set_position(x, y)
static int e_set_position(lua_State *L) {
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    float x = clv_lua_lnum_float(clv_lua_check_lnum(L, 2, "x"));
    float y = clv_lua_lnum_float(clv_lua_check_lnum(L, 3, "y"));
    return status_error(L, "set_position", clv_arena_set_position(A->a, e->id, clv_v2(x, y)));
}

/// entity:set_velocity(vx, vy)
static int e_set_velocity(lua_State *L) {
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    float x = clv_lua_lnum_float(clv_lua_check_lnum(L, 2, "vx"));
    float y = clv_lua_lnum_float(clv_lua_check_lnum(L, 3, "vy"));
    return status_error(L, "set_velocity", clv_arena_set_velocity(A->a, e->id, clv_v2(x, y)));
}

/// entity:set_hp(hp)
static int e_set_hp(lua_State *L) {
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    float hp = clv_lua_lnum_float(clv_lua_check_lnum(L, 2, "hp"));
    return status_error(L, "set_hp", clv_arena_set_hp(A->a, e->id, hp));
}

/// entity:set_state(state [, frames])
static int e_set_state(lua_State *L) {
    larena *A;
    lentity *e = clv_larena_check_entity(L, 1, &A);
    int st = -1;
    for (int k = 0; lua_type(L, 2) == LUA_TSTRING && clv_larena_states[k] != NULL; k++) {
        if (strcmp(lua_tostring(L, 2), clv_larena_states[k]) == 0) {
            st = k;
        }
    }
    if (st < 0) {
        const char *got = clv_f_value_text(L, 2);
        return clv_lua_argerror(L, 2,
                                lua_pushfstring(L,
                                                "state must be one of 'normal', 'invincible', "
                                                "'intangible', 'parry', 'guard', got %s",
                                                got));
    }
    if (!lua_isnoneornil(L, 3) && lua_type(L, 3) != LUA_TNUMBER) {
        return clv_lua_typeerror(L, 3, "number");
    }
    lua_Integer frames = lua_isnoneornil(L, 3) ? 0 : clv_larena_frames_arg(L, 3, INT32_MAX);
    return status_error(L, "set_state",
                        clv_arena_set_state(A->a, e->id, (clv_hurt_state)st, (int32_t)frames));
}

static int entity_tostring(lua_State *L) {
    lentity *e = (lentity *)luaL_checkudata(L, 1, CLV_LUA_ENTITY);
    const char *nm = clv_larena_entity_name(L, 1);
    if (nm != NULL) {
        lua_pushfstring(L, "cleave.Entity %d (%s)", (int)e->id.index1, nm);
    } else {
        lua_pushfstring(L, "cleave.Entity %d", (int)e->id.index1);
    }
    return 1;
}

/* ---- cleave.Attack ---- */

int clv_larena_push_attack(lua_State *L, int arena_idx, larena *A, clv_attack_id id) {
    arena_idx = lua_absindex(L, arena_idx);
    lattack *h = (lattack *)lua_newuserdatauv(L, sizeof *h, 1);
    h->id = id;
    h->arena = A;
    luaL_setmetatable(L, CLV_LUA_ATTACK);
    lua_pushvalue(L, arena_idx);
    lua_setiuservalue(L, -2, 1);
    return 1;
}

static lattack *check_attack_handle(lua_State *L, const char *fname, larena **pa) {
    lattack *h = (lattack *)clv_larena_recall(L, 1);
    bool checked = false; /* by its metatable: then the running function is an attack method */
    if (h == NULL) {
        h = (lattack *)clv_larena_self(L, 1);
        checked = h != NULL;
    }
    if (h == NULL) {
        h = (lattack *)luaL_checkudata(L, 1, CLV_LUA_ATTACK);
    }
    larena *A = h->arena;
    if (A == NULL || A->a == NULL) {
        luaL_error(L, "%s: the arena is closed", fname);
    }
    if (checked) {
        clv_larena_remember(L, h);
    }
    *pa = A;
    return h;
}

int clv_larena_attack_gc(lua_State *L) {
    lattack *h = (lattack *)luaL_checkudata(L, 1, CLV_LUA_ATTACK);
    clv_larena_forget(L, h);
    h->arena = NULL; /* never remembered again, should a finalizer still call it */
    return 0;
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
    clv_larena_set_int(L, "frame", i.frame + 1);
    clv_larena_set_int(L, "elapsed", i.elapsed);
    clv_larena_set_int(L, "targets_hit", i.targets_hit);
    clv_larena_set_num(L, "x", (double)i.position.x);
    clv_larena_set_num(L, "y", (double)i.position.y);
    clv_larena_set_num(L, "facing", (double)i.facing * DEG);
    clv_larena_set_bool(L, "mirror", i.mirror);
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

const luaL_Reg clv_larena_entity_methods[] = {
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

const luaL_Reg clv_larena_attack_methods[] = {
    {"running", a_running},   {"info", a_info}, {"cancel", a_cancel},
    {"set_pose", a_set_pose}, {NULL, NULL},
};

const luaL_Reg clv_larena_entity_metamethods[] = {{"__tostring", entity_tostring}, {NULL, NULL}};
