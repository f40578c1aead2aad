/* Attacks that meet, in Lua: arena:spawn_projectile, arena:projectile, arena:clashes() and
 * arena:projectile_events(), with the events of the frames a step ran kept for them. The rules
 * are cleave_hit's (docs/hit-rules.md); this file reads tables and writes them. */
#include <string.h>

#include "arena_internal.h"

static const char *const clash_kinds[] = {"clank", "outprioritize", "transcended", "traded",
                                          "parry", "reflect",       "absorb"};
static const char *const projectile_kinds[] = {"spawned", "expired", "destroyed", "reflected",
                                               "absorbed"};

/* ---- keeping the events of each frame ---- */

void clv_larena_keep_meetings(lua_State *L, larena *A) {
    int32_t n;
    const clv_clash_event *c = clv_arena_clashes(A->a, &n);
    if (n > 0) {
        if (!clv_lalloc_grow(&A->alloc, (void **)&A->clashes, &A->clash_cap, A->clash_count + n,
                             sizeof *c)) {
            luaL_error(L, "out of memory");
        }
        memcpy(A->clashes + A->clash_count, c, sizeof *c * (size_t)n);
        A->clash_count += n;
    }
    const clv_projectile_event *p = clv_arena_projectile_events(A->a, &n);
    if (n > 0) {
        if (!clv_lalloc_grow(&A->alloc, (void **)&A->pevents, &A->pevent_cap, A->pevent_count + n,
                             sizeof *p)) {
            luaL_error(L, "out of memory");
        }
        memcpy(A->pevents + A->pevent_count, p, sizeof *p * (size_t)n);
        A->pevent_count += n;
    }
}

void clv_larena_free_meetings(larena *A) {
    clv_lalloc_resize(&A->alloc, A->clashes, sizeof *A->clashes * (size_t)A->clash_cap, 0);
    clv_lalloc_resize(&A->alloc, A->pevents, sizeof *A->pevents * (size_t)A->pevent_cap, 0);
    A->clashes = NULL, A->pevents = NULL;
    A->clash_cap = A->pevent_cap = 0;
}

/* ---- event tables ---- */

static const clv_lweapon *weapon_at(const larena *A, clv_weapon_id id) {
    bool in = id.index1 > 0 && (int32_t)id.index1 <= A->weapon_count;
    return in ? A->weapons[id.index1 - 1] : NULL;
}

/* Sets key to the entity handle of id (nil for none) and key_name to its spawn name. */
static void set_entity(lua_State *L, int arena_idx, const char *key, clv_entity_id id) {
    clv_larena_push_entity(L, arena_idx, id);
    if (lua_type(L, -1) == LUA_TUSERDATA) {
        const char *nm = clv_larena_entity_name(L, lua_absindex(L, -1));
        if (nm != NULL) {
            lua_pushfstring(L, "%s_name", key);
            lua_pushstring(L, nm);
            lua_settable(L, -4);
        }
    }
    lua_setfield(L, -2, key);
}

/* One side of a clash: {owner, owner_name, weapon, attack, attack_frame, hitbox, damage, stun}. */
static void push_side(lua_State *L, int arena_idx, const larena *A, const clv_clash_event *c,
                      int s) {
    lua_createtable(L, 0, 9);
    set_entity(L, arena_idx, "owner", c->owner[s]);
    const clv_lweapon *w = weapon_at(A, c->weapon[s]);
    if (w != NULL) {
        const clv_hitbox_def *d = clv_arena_hitbox(A->a, c->weapon[s], c->attack_index[s],
                                                   c->attack_frame[s], c->hitbox[s]);
        clv_larena_set_str(L, "weapon", clv_lua_weapon_name(w));
        clv_larena_set_str(L, "attack", clv_lua_attack_name(w, c->attack_index[s]));
        clv_larena_set_int(L, "attack_frame", c->attack_frame[s] + 1);
        clv_larena_set_str(L, "hitbox", d != NULL ? d->id : "?");
        clv_larena_set_num(L, "damage", (double)c->damage[s]);
    }
    clv_larena_set_int(L, "stun", c->stun[s]);
}

/* Pushes a table with the fields of a clash that do not depend on where it is read. */
static void set_clash_fields(lua_State *L, const clv_clash_event *c) {
    lua_createtable(L, 0, 8);
    clv_larena_set_int(L, "frame", (lua_Integer)c->frame);
    clv_larena_set_str(L, "kind", clash_kinds[c->kind]);
    if (c->winner >= 0) {
        clv_larena_set_int(L, "winner", c->winner + 1);
    }
    clv_larena_set_num(L, "x", (double)c->point.x);
    clv_larena_set_num(L, "y", (double)c->point.y);
    clv_larena_set_num(L, "sweep_t", (double)c->sweep_t);
}

void clv_larena_push_clash(lua_State *L, int arena_idx, const larena *A, const clv_clash_event *c) {
    set_clash_fields(L, c);
    lua_createtable(L, 2, 0);
    for (int s = 0; s < 2; s++) {
        push_side(L, arena_idx, A, c, s);
        lua_rawseti(L, -2, s + 1);
    }
    lua_setfield(L, -2, "sides");
}

/// arena:clashes() -> list of the clashes and parries of the last step: {frame, kind, winner,
/// x, y, sweep_t, sides = {side 1, side 2}}
static int m_clashes(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    lua_createtable(L, A->clash_count, 0);
    for (int32_t k = 0; k < A->clash_count; k++) {
        clv_larena_push_clash(L, 1, A, &A->clashes[k]);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/* The fields a projectile event's table has in the host and in a mod alike. */
static void set_projectile_fields(lua_State *L, const clv_projectile_event *e, const char *weapon) {
    clv_larena_set_int(L, "frame", (lua_Integer)e->frame);
    clv_larena_set_str(L, "kind", projectile_kinds[e->kind]);
    clv_larena_set_int(L, "projectile_id", (lua_Integer)e->projectile.index1);
    clv_larena_set_str(L, "weapon", weapon != NULL ? weapon : "?");
    clv_larena_set_num(L, "x", (double)e->position.x);
    clv_larena_set_num(L, "y", (double)e->position.y);
    clv_larena_set_num(L, "vx", (double)e->velocity.x);
    clv_larena_set_num(L, "vy", (double)e->velocity.y);
    clv_larena_set_num(L, "damage", (double)e->damage);
    if (e->reason >= 0) {
        clv_larena_set_str(L, "reason", clv_miss_reason_name((clv_miss_reason)e->reason));
    }
}

void clv_larena_push_projectile_event(lua_State *L, int arena_idx, const larena *A,
                                      const clv_projectile_event *e) {
    lua_createtable(L, 0, 14);
    const clv_lweapon *w = weapon_at(A, e->weapon);
    set_projectile_fields(L, e, w != NULL ? clv_lua_weapon_name(w) : NULL);
    set_entity(L, arena_idx, "owner", e->owner);
    set_entity(L, arena_idx, "by", e->by);
}

void clv_lua_push_reflect_plain(lua_State *L, const clv_lua_event *e) {
    lua_createtable(L, 0, 13);
    set_projectile_fields(L, e->reflect, e->names[0]);
    clv_larena_set_int(L, "owner", (lua_Integer)e->reflect->owner.index1);
    clv_larena_set_int(L, "by", (lua_Integer)e->reflect->by.index1);
}

/* A clash as a mod's callback sees it: sides as in arena:clashes(), owners as integer ids, and
 * side, the callee's. */
void clv_lua_push_clash_plain(lua_State *L, const clv_lua_event *e) {
    const clv_clash_event *c = e->clash;
    set_clash_fields(L, c);
    lua_createtable(L, 2, 0);
    for (int s = 0; s < 2; s++) {
        lua_createtable(L, 0, 8);
        clv_larena_set_int(L, "owner", (lua_Integer)c->owner[s].index1);
        clv_larena_set_str(L, "weapon", e->names[s] != NULL ? e->names[s] : "?");
        clv_larena_set_int(L, "attack_frame", c->attack_frame[s] + 1);
        clv_larena_set_str(L, "hitbox", e->box[s] != NULL ? e->box[s]->id : "?");
        clv_larena_set_num(L, "damage", (double)c->damage[s]);
        clv_larena_set_int(L, "stun", c->stun[s]);
        lua_rawseti(L, -2, s + 1);
    }
    lua_setfield(L, -2, "sides");
    clv_larena_set_int(L, "side", e->side + 1);
}

/// arena:projectile_events() -> list of {frame, kind, projectile_id, owner, weapon, x, y, vx,
/// vy, by, by_hitbox, damage, reason} of the last step
static int m_projectile_events(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    lua_createtable(L, A->pevent_count, 0);
    for (int32_t k = 0; k < A->pevent_count; k++) {
        clv_larena_push_projectile_event(L, 1, A, &A->pevents[k]);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/* ---- projectiles ---- */

static const char *const projectile_fields[] = {
    "weapon", "attack",           "owner",       "x",          "y",      "vx",
    "vy",     "facing",           "mirror",      "lifetime",   "pierce", "gravity",
    "loop",   "destroy_on_clank", "reflectable", "absorbable", NULL};

/* The weapon, attack and owner of the definition at 2 (the weapon pushed at 3). */
static void read_source(clv_fctx *c, larena *A, clv_projectile_def *def) {
    lua_State *L = c->L;
    size_t old;
    clv_f_get(c, 2, "weapon", &old); /* 3 */
    clv_lweapon *w = (clv_lweapon *)luaL_testudata(L, 3, CLV_LUA_WEAPON);
    if (w == NULL) {
        clv_f_fail(c, "must be a cleave.Weapon (got %s)", clv_f_type_name(L, 3));
    }
    clv_f_pop(c, old);
    def->attack = 0;
    if (clv_f_get(c, 2, "attack", &old) != LUA_TNIL || clv_weapon_attack_count(w->compiled) != 1) {
        const char *an = lua_tostring(L, -1);
        def->attack = an != NULL ? clv_weapon_find_attack(w->compiled, an) : -1;
        if (def->attack < 0) {
            clv_f_fail(c, "must name an attack of weapon '%s' (got %s)", clv_lua_weapon_name(w),
                       clv_f_value_text(L, -1));
        }
    }
    lua_pop(L, 1);
    clv_f_pop(c, old);
    clv_f_get(c, 2, "owner", &old);
    if (luaL_testudata(L, -1, CLV_LUA_ENTITY) == NULL) {
        clv_f_fail(c, "must be a cleave.Entity (got %s)", clv_f_type_name(L, -1));
    }
    larena *oa;
    lentity *owner = clv_larena_check_entity(L, lua_gettop(L), &oa);
    if (oa != A) {
        clv_f_fail(c, "belongs to another arena");
    }
    def->owner = owner->id;
    lua_settop(L, 3);
    clv_f_pop(c, old);
}

/* The numbers and flags of the definition at 2; cleave_hit checks their ranges. */
static void read_flight(clv_fctx *c, clv_projectile_def *def) {
    double d;
    lua_Integer i;
    bool b;
    float *nums[] = {&def->position.x, &def->position.y, &def->velocity.x,
                     &def->velocity.y, &def->gravity,    &def->facing};
    static const char *const num_keys[] = {"x", "y", "vx", "vy", "gravity", "facing"};
    for (int k = 0; k < 6; k++) {
        if (clv_f_opt_any_number(c, 2, num_keys[k], &d)) {
            *nums[k] = (float)(k == 5 ? d * RAD : d);
        }
    }
    if (clv_f_opt_integer(c, 2, "lifetime", 1, CLV_ATTACK_MAX_FRAMES * 16, &i)) {
        def->lifetime = (int32_t)i;
    }
    if (clv_f_opt_integer(c, 2, "pierce", 0, INT32_MAX, &i)) {
        def->pierce = (int32_t)i;
    }
    bool *flags[] = {&def->mirror, &def->loop, &def->destroy_on_clank, &def->reflectable,
                     &def->absorbable};
    static const char *const flag_keys[] = {"mirror", "loop", "destroy_on_clank", "reflectable",
                                            "absorbable"};
    for (int k = 0; k < 5; k++) {
        if (clv_f_opt_bool(c, 2, flag_keys[k], &b)) {
            *flags[k] = b;
        }
    }
}

/// arena:spawn_projectile{weapon=, attack=, owner=, x=, y=, vx=, vy=, facing=, lifetime=,
/// pierce=, gravity=, loop=, destroy_on_clank=, reflectable=, absorbable=} -> cleave.Attack
static int m_spawn_projectile(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    if (lua_type(L, 2) != LUA_TTABLE) {
        return clv_lua_typeerror(L, 2, "table");
    }
    clv_lua_check_nargs(L, 2);
    lua_settop(L, 2);
    clv_fctx c = {.L = L, .where = "spawn_projectile", .at_caller = true};
    clv_f_check_keys(&c, 2, projectile_fields, false);
    clv_projectile_def def = clv_default_projectile_def();
    read_source(&c, A, &def);
    read_flight(&c, &def);
    def.weapon = clv_larena_weapon(L, 1, A, 3);
    clv_attack_id id;
    clv_hit_diag diag;
    if (clv_arena_spawn_projectile(A->a, &def, &id, &diag) != CLV_HIT_OK) {
        return luaL_error(L, "spawn_projectile: %s", diag.message);
    }
    return clv_larena_push_attack(L, 1, A, id);
}

/// arena:projectile(attack) -> {x, y, vx, vy, lifetime, hits, team, owner, damage_scale}, or
/// nil once it has ended
static int m_projectile(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    lattack *h = (lattack *)luaL_testudata(L, 2, CLV_LUA_ATTACK);
    if (h == NULL) {
        return clv_lua_typeerror(L, 2, CLV_LUA_ATTACK);
    }
    clv_projectile_info p;
    if (h->arena != A || clv_arena_projectile(A->a, h->id, &p) != CLV_HIT_OK) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 10);
    clv_larena_set_num(L, "x", (double)p.position.x);
    clv_larena_set_num(L, "y", (double)p.position.y);
    clv_larena_set_num(L, "vx", (double)p.velocity.x);
    clv_larena_set_num(L, "vy", (double)p.velocity.y);
    clv_larena_set_int(L, "lifetime", p.lifetime);
    clv_larena_set_int(L, "hits", p.hits);
    clv_larena_set_int(L, "team", p.team);
    clv_larena_set_num(L, "damage_scale", (double)p.damage_scale);
    set_entity(L, 1, "owner", p.owner);
    return 1;
}

const luaL_Reg clv_larena_meet_methods[] = {
    {"spawn_projectile", m_spawn_projectile},
    {"projectile", m_projectile},
    {"clashes", m_clashes},
    {"projectile_events", m_projectile_events},
    {NULL, NULL},
};
