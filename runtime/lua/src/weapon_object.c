/* The cleave.Weapon userdata: a compiled clv_weapon, read through cleave_hit's getters, and the
 * references of its Lua callbacks. */
#include <string.h>

#include "internal.h"

static int weapon_gc(lua_State *L) {
    clv_lweapon *w = (clv_lweapon *)luaL_checkudata(L, 1, CLV_LUA_WEAPON);
    if (w->sandbox == NULL) {
        /* callbacks live in this state */
        luaL_unref(L, LUA_REGISTRYINDEX, w->on_hit_ref);
        luaL_unref(L, LUA_REGISTRYINDEX, w->on_clash_ref);
        luaL_unref(L, LUA_REGISTRYINDEX, w->on_reflect_ref);
        for (int32_t k = 0; k < w->effect_count; k++) {
            luaL_unref(L, LUA_REGISTRYINDEX, w->effects[k].ref);
        }
    }
    w->on_hit_ref = w->on_clash_ref = w->on_reflect_ref = LUA_NOREF;
    if (!w->borrowed) {
        clv_lalloc_resize(&w->alloc, w->effects, sizeof *w->effects * (size_t)w->effect_cap, 0);
        clv_weapon_destroy(w->compiled);
        if (w->charged > 0) {
            clv_sandbox_uncharge(clv_sandbox_of(L), w->charged);
        }
    }
    w->charged = 0;
    w->effects = NULL;
    w->effect_count = w->effect_cap = 0;
    w->compiled = NULL;
    return 0;
}

clv_lweapon *clv_lua_new_weapon(lua_State *L) {
    clv_lua_weapon_meta(L);
    lua_pop(L, 1);
    clv_lweapon *w = (clv_lweapon *)lua_newuserdatauv(L, sizeof *w, 1);
    memset(w, 0, sizeof *w);
    w->on_hit_ref = w->on_clash_ref = w->on_reflect_ref = LUA_NOREF;
    w->alloc = clv_lua_lalloc(L);
    luaL_setmetatable(L, CLV_LUA_WEAPON);
    return w;
}

void clv_lua_weapon_borrow(clv_lweapon *dst, const clv_lweapon *src) {
    dst->compiled = src->compiled;
    dst->effects = src->effects;
    dst->effect_count = src->effect_count;
    dst->on_hit_ref = src->on_hit_ref;
    dst->on_clash_ref = src->on_clash_ref;
    dst->on_reflect_ref = src->on_reflect_ref;
    dst->borrowed = true;
}

int clv_lua_effect_ref(const clv_lweapon *w, const char *name) {
    for (int32_t j = 0; j < w->effect_count; j++) {
        if (strcmp(w->effects[j].name, name) == 0) {
            return w->effects[j].ref;
        }
    }
    return LUA_NOREF;
}

const char *clv_lua_weapon_name(const clv_lweapon *w) { return clv_weapon_name(w->compiled); }

const char *clv_lua_attack_name(const clv_lweapon *w, int32_t attack) {
    const clv_attack_def *d = clv_weapon_attack_def(w->compiled, attack);
    return d != NULL ? d->name : "?";
}

/* ---- cleave.Weapon methods ---- */

clv_lweapon *clv_lua_check_weapon(lua_State *L, int arg) {
    return (clv_lweapon *)luaL_checkudata(L, arg, CLV_LUA_WEAPON);
}

int32_t clv_lua_check_attack(lua_State *L, const clv_lweapon *w, int arg) {
    if (lua_type(L, arg) != LUA_TSTRING) {
        clv_lua_typeerror(L, arg, "string");
    }
    const char *name = lua_tostring(L, arg);
    int32_t k = clv_weapon_find_attack(w->compiled, name);
    if (k >= 0) {
        return k;
    }
    return clv_lua_argerror(
        L, arg, lua_pushfstring(L, "weapon '%s' has no attack '%s'", clv_lua_weapon_name(w), name));
}

/// weapon:name() -> string
static int m_name(lua_State *L) {
    clv_lweapon *w = clv_lua_check_weapon(L, 1);
    lua_pushstring(L, clv_lua_weapon_name(w));
    return 1;
}

/// weapon:attacks() -> {names in index order}
static int m_attacks(lua_State *L) {
    clv_lweapon *w = clv_lua_check_weapon(L, 1);
    int32_t n = clv_weapon_attack_count(w->compiled);
    lua_createtable(L, n, 0);
    for (int32_t k = 0; k < n; k++) {
        lua_pushstring(L, clv_lua_attack_name(w, k));
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/// weapon:length(attack) -> frames
static int m_length(lua_State *L) {
    clv_lweapon *w = clv_lua_check_weapon(L, 1);
    int32_t a = clv_lua_check_attack(L, w, 2);
    lua_pushinteger(L, clv_weapon_attack_def(w->compiled, a)->frames);
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

/* The hitboxes active on a frame: the attack named at arg and the frame (1-based) at arg + 1,
 * in a userdata array left on the stack; *count gets their number. */
static const clv_hitbox_def **frame_boxes(lua_State *L, const clv_lweapon *w, int arg,
                                          int32_t *count) {
    int32_t a = clv_lua_check_attack(L, w, arg);
    int32_t f = (int32_t)frame_arg(L, arg + 1, clv_weapon_attack_def(w->compiled, a)->frames) - 1;
    *count = clv_weapon_frame_hitboxes(w->compiled, a, f, NULL, 0);
    const clv_hitbox_def **boxes =
        (const clv_hitbox_def **)lua_newuserdatauv(L, sizeof *boxes * (size_t)*count, 0);
    clv_weapon_frame_hitboxes(w->compiled, a, f, boxes, *count);
    return boxes;
}

/// weapon:hitboxes(attack, frame) -> {ids in precedence order} (frame 1-based)
static int m_hitboxes(lua_State *L) {
    int32_t n;
    const clv_hitbox_def **boxes = frame_boxes(L, clv_lua_check_weapon(L, 1), 2, &n);
    lua_createtable(L, n, 0);
    for (int32_t k = 0; k < n; k++) {
        lua_pushstring(L, boxes[k]->id);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/* A frame count as weapon{} takes it: "auto" or the number. */
static void push_frames(lua_State *L, int32_t frames) {
    if (frames == CLV_FRAMES_AUTO) {
        lua_pushliteral(L, "auto");
    } else {
        lua_pushinteger(L, frames);
    }
}

/* The fields of a hitbox against targets that defend, into the table at the top. */
static void push_defence(lua_State *L, const clv_hitbox_def *d) {
    static const char *const kinds[] = {"hit", "reflect", "absorb", "grab"};
    static const char *const hits[] = {"auto", "ground", "air", "both"};
    static const char *const facing[] = {"any", "away", "front", "behind"};
    lua_pushstring(L, (unsigned)d->kind < 4 ? kinds[d->kind] : "?");
    lua_setfield(L, -2, "kind");
    lua_pushnumber(L, (lua_Number)d->chip);
    lua_setfield(L, -2, "chip");
    push_frames(L, d->blockstun);
    lua_setfield(L, -2, "blockstun");
    lua_pushnumber(L, (lua_Number)d->shield_damage);
    lua_setfield(L, -2, "shield_damage");
    lua_pushboolean(L, d->unblockable);
    lua_setfield(L, -2, "unblockable");
    lua_pushstring(L, (unsigned)d->hits < 4 ? hits[d->hits] : "?");
    lua_setfield(L, -2, "hits");
    lua_pushstring(L, (unsigned)d->facing_restrict < 4 ? facing[d->facing_restrict] : "?");
    lua_setfield(L, -2, "facing_restrict");
    lua_pushinteger(L, d->layer);
    lua_setfield(L, -2, "layer");
    lua_pushinteger(L, d->mask);
    lua_setfield(L, -2, "mask");
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, (lua_Number)d->grab_offset.x);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, (lua_Number)d->grab_offset.y);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, -2, "grab_offset");
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
    push_frames(L, d->hitlag);
    lua_setfield(L, -2, "hitlag");
    lua_pushnumber(L, (lua_Number)d->hitlag_scale);
    lua_setfield(L, -2, "hitlag_scale");
    push_frames(L, d->hitstun);
    lua_setfield(L, -2, "hitstun");
    lua_pushinteger(L, d->priority);
    lua_setfield(L, -2, "priority");
    lua_pushboolean(L, d->sweep);
    lua_setfield(L, -2, "sweep");
    static const char *const kinds[] = {"none", "fixed", "scaling", "radial", "smash"};
    lua_newtable(L);
    lua_pushstring(L, (unsigned)d->knockback.kind < 5 ? kinds[d->knockback.kind] : "?");
    lua_setfield(L, -2, "kind");
    lua_pushnumber(L, (lua_Number)d->knockback.vector.x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, (lua_Number)d->knockback.vector.y);
    lua_setfield(L, -2, "y");
    if (d->knockback.sakurai) {
        lua_pushliteral(L, "sakurai");
    } else {
        lua_pushnumber(L, (lua_Number)d->knockback.angle * (180.0 / CLV_PI));
    }
    lua_setfield(L, -2, "angle");
    lua_pushnumber(L, (lua_Number)d->knockback.set);
    lua_setfield(L, -2, "set");
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
    push_defence(L, d);
}

/// weapon:hitbox(attack, frame, id) -> table of the compiled fields, or nil
static int m_hitbox(lua_State *L) {
    int32_t n;
    const clv_hitbox_def **boxes = frame_boxes(L, clv_lua_check_weapon(L, 1), 2, &n);
    if (lua_type(L, 4) != LUA_TSTRING) {
        return clv_lua_typeerror(L, 4, "string");
    }
    const char *id = lua_tostring(L, 4);
    for (int32_t k = 0; k < n; k++) {
        if (strcmp(boxes[k]->id, id) == 0) {
            clv_lua_push_hitbox_def(L, boxes[k]);
            return 1;
        }
    }
    lua_pushnil(L);
    return 1;
}

static int weapon_tostring(lua_State *L) {
    clv_lweapon *w = clv_lua_check_weapon(L, 1);
    lua_pushfstring(L, "cleave.Weapon '%s' (%d attacks)", clv_lua_weapon_name(w),
                    (int)clv_weapon_attack_count(w->compiled));
    return 1;
}

static const luaL_Reg weapon_methods[] = {
    {"name", m_name},         {"attacks", m_attacks}, {"length", m_length},
    {"hitboxes", m_hitboxes}, {"hitbox", m_hitbox},   {NULL, NULL},
};

static const luaL_Reg weapon_metamethods[] = {
    {"__gc", weapon_gc},
    {"__tostring", weapon_tostring},
    {NULL, NULL},
};

void clv_lua_weapon_meta(lua_State *L) {
    clv_lua_createmeta(L, CLV_LUA_WEAPON, weapon_metamethods, weapon_methods, false);
}
