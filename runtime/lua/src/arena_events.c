/* The arena's events as Lua tables, and the Lua callbacks that run after each frame. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena_internal.h"

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

void clv_larena_set_num(lua_State *L, const char *k, double v) {
    lua_pushnumber(L, (lua_Number)v);
    lua_setfield(L, -2, k);
}

void clv_larena_set_int(lua_State *L, const char *k, lua_Integer v) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

void clv_larena_set_str(lua_State *L, const char *k, const char *v) {
    lua_pushstring(L, v);
    lua_setfield(L, -2, k);
}

void clv_larena_set_bool(lua_State *L, const char *k, bool v) {
    lua_pushboolean(L, v);
    lua_setfield(L, -2, k);
}

/* The fields of a hit every state gets (names and numbers, no handles). */
void clv_lua_push_hit_plain(lua_State *L, const clv_hit_event *h, const clv_lweapon *w,
                            const clv_hitbox_def *d) {
    lua_createtable(L, 0, 26);
    clv_larena_set_int(L, "frame", (lua_Integer)h->frame);
    clv_larena_set_str(L, "weapon", w != NULL ? clv_lua_weapon_name(w) : "?");
    clv_larena_set_str(L, "attack", w != NULL ? clv_lua_attack_name(w, h->attack_index) : "?");
    clv_larena_set_int(L, "attack_frame", h->attack_frame + 1);
    clv_larena_set_str(L, "hitbox", d != NULL ? d->id : "?");
    clv_larena_set_int(L, "hitbox_index", h->hitbox + 1);
    if (h->hurtbox_id[0] != '\0') {
        clv_larena_set_str(L, "hurtbox", h->hurtbox_id);
    }
    clv_larena_set_int(L, "hurtbox_index", h->hurtbox + 1);
    clv_larena_set_int(L, "group", h->group);
    clv_larena_set_num(L, "damage", (double)h->damage);
    clv_larena_set_num(L, "knockback_x", (double)h->knockback.x);
    clv_larena_set_num(L, "knockback_y", (double)h->knockback.y);
    clv_larena_set_num(L, "x", (double)h->point.x);
    clv_larena_set_num(L, "y", (double)h->point.y);
    clv_larena_set_num(L, "t", (double)h->blade_t);
    clv_larena_set_num(L, "sweep_t", (double)h->sweep_t);
    clv_larena_set_int(L, "hitlag", h->hitlag);
    clv_larena_set_int(L, "hitstun", h->hitstun);
    clv_larena_set_bool(L, "push_only", (h->flags & CLV_HIT_FLAG_PUSH_ONLY) != 0);
    clv_larena_set_bool(L, "invincible", (h->flags & CLV_HIT_FLAG_INVINCIBLE) != 0);
    clv_larena_set_bool(L, "killed", (h->flags & CLV_HIT_FLAG_KILLED) != 0);
    clv_larena_set_bool(L, "trade", (h->flags & CLV_HIT_FLAG_TRADE) != 0);
    clv_larena_set_bool(L, "blocked", (h->flags & CLV_HIT_FLAG_BLOCKED) != 0);
    clv_larena_set_bool(L, "armor", (h->flags & CLV_HIT_FLAG_ARMOR) != 0);
    clv_larena_set_bool(L, "grab", (h->flags & CLV_HIT_FLAG_GRAB) != 0);
    clv_larena_set_bool(L, "guard_break", (h->flags & CLV_HIT_FLAG_GUARD_BREAK) != 0);
    lua_newtable(L);
    int n = 0;
    for (int k = 0; d != NULL && k < d->effect_count; k++) {
        if (h->effects & (1u << k)) {
            lua_pushstring(L, d->effects[k].name);
            lua_rawseti(L, -2, ++n);
        }
    }
    lua_setfield(L, -2, "effects");
    clv_larena_set_int(L, "target_id", (lua_Integer)h->target.index1);
    clv_larena_set_int(L, "attacker_id", (lua_Integer)h->attacker.index1);
    clv_larena_set_int(L, "target", (lua_Integer)h->target.index1);
    clv_larena_set_int(L, "attacker", (lua_Integer)h->attacker.index1);
}

/* Sets field target of the table on top to the handle of entity id, and target_name to the
 * name it was spawned with, if any. */
static void set_target(lua_State *L, int arena_idx, clv_entity_id id) {
    clv_larena_push_entity(L, arena_idx, id);
    if (lua_type(L, -1) == LUA_TUSERDATA) {
        const char *nm = clv_larena_entity_name(L, lua_absindex(L, -1));
        if (nm != NULL) {
            lua_pushstring(L, nm);
            lua_setfield(L, -3, "target_name");
        }
    }
    lua_setfield(L, -2, "target");
}

/* Pushes a hit as a table. With arena_idx > 0 the entities are handles of that arena (in the
 * arena's own state); with 0 they are integer ids (for a mod's sandbox). */
void clv_larena_push_hit(lua_State *L, int arena_idx, const larena *A, const clv_hit_event *h) {
    const clv_hitbox_def *d = event_box(A, h->weapon, h->attack_index, h->attack_frame, h->hitbox);
    clv_lua_push_hit_plain(L, h, weapon_of(A, h->weapon), d);
    if (arena_idx > 0) {
        set_target(L, arena_idx, h->target);
        clv_larena_push_entity(L, arena_idx, h->attacker);
        lua_setfield(L, -2, "attacker");
    }
}

void clv_larena_push_miss(lua_State *L, int arena_idx, const larena *A, const clv_miss_record *m) {
    const clv_weapon_id wid = m->weapon;
    lua_createtable(L, 0, 12);
    clv_larena_set_int(L, "frame", (lua_Integer)m->frame);
    const clv_lweapon *w = weapon_of(A, wid);
    clv_larena_set_str(L, "attack", w != NULL ? clv_lua_attack_name(w, m->attack_index) : "?");
    clv_larena_set_str(L, "weapon", w != NULL ? clv_lua_weapon_name(w) : "?");
    clv_larena_set_int(L, "attack_frame", m->attack_frame + 1);
    const clv_hitbox_def *d =
        w != NULL ? event_box(A, wid, m->attack_index, m->attack_frame, m->hitbox) : NULL;
    clv_larena_set_str(L, "hitbox", d != NULL ? d->id : "?");
    clv_larena_set_int(L, "hitbox_index", m->hitbox + 1);
    clv_larena_set_int(L, "group", m->group);
    clv_larena_set_str(L, "reason", clv_miss_reason_name(m->reason));
    clv_larena_set_num(L, "distance", (double)m->distance);
    clv_larena_set_int(L, "target_id", (lua_Integer)m->target.index1);
    set_target(L, arena_idx, m->target);
}

void clv_lua_push_tick_plain(lua_State *L, const clv_tick_event *t) {
    lua_createtable(L, 0, 8);
    clv_larena_set_int(L, "frame", (lua_Integer)t->frame);
    clv_larena_set_str(L, "effect", t->name);
    clv_larena_set_num(L, "magnitude", (double)t->magnitude);
    clv_larena_set_num(L, "damage", (double)t->damage);
    clv_larena_set_bool(L, "expired", t->expired);
    clv_larena_set_bool(L, "killed", t->killed);
    clv_larena_set_int(L, "target_id", (lua_Integer)t->target.index1);
    clv_larena_set_int(L, "target", (lua_Integer)t->target.index1);
}

/* Pushes a tick as a table: clv_lua_push_tick_plain's, with handles when arena_idx > 0. */
void clv_larena_push_tick(lua_State *L, int arena_idx, const clv_tick_event *t) {
    clv_lua_push_tick_plain(L, t);
    if (arena_idx > 0) {
        set_target(L, arena_idx, t->target);
    }
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
    clv_larena_uv(L, arena_idx, UV_ERRORS);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 1);
    clv_larena_uv(L, arena_idx, UV_ON_ERROR);
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

void clv_lua_push_event_plain(lua_State *L, const clv_lua_event *e) {
    if (e->hit != NULL) {
        clv_lua_push_hit_plain(L, e->hit, e->weapon, e->box[0]);
    } else if (e->tick != NULL) {
        clv_lua_push_tick_plain(L, e->tick);
    } else if (e->clash != NULL) {
        clv_lua_push_clash_plain(L, e);
    } else {
        clv_lua_push_reflect_plain(L, e);
    }
}

/* Runs in the mod's state under its protected path: builds the event table, then calls the
 * callback. Building it there makes an allocation failure a memory error of that call instead
 * of an unprotected error that would abort the game. Arguments: the callback and the event
 * (light userdata). */
static int event_trampoline(lua_State *S) {
    const clv_lua_event *e = (const clv_lua_event *)lua_touserdata(S, 2);
    lua_settop(S, 1);
    clv_lua_push_event_plain(S, e);
    lua_call(S, 1, 0);
    return 0;
}

bool clv_lua_call_event(clv_sandbox *sb, int ref, const clv_lua_event *e, char *err,
                        size_t errlen) {
    lua_State *S = clv_sandbox_state(sb);
    if (S == NULL) {
        snprintf(err, errlen, "the mod's sandbox is closed");
        return false;
    }
    if (!lua_checkstack(S, 4)) {
        snprintf(err, errlen, "not enough memory");
        return false;
    }
    lua_pushcfunction(S, event_trampoline);
    lua_rawgeti(S, LUA_REGISTRYINDEX, ref);
    lua_pushlightuserdata(S, (void *)(uintptr_t)e);
    /* a disabled callback, or one past the frame's budget, is skipped without an error */
    return clv_sandbox_call_callback(sb, ref, 2, err, errlen) != CLV_CALLBACK_FAILED;
}

/* Pushes the table a callback in the arena's own state gets: handles for entities. */
static void push_host_event(lua_State *L, int arena_idx, const larena *A, const clv_lua_event *e) {
    if (e->hit != NULL) {
        clv_larena_push_hit(L, arena_idx, A, e->hit);
    } else if (e->tick != NULL) {
        clv_larena_push_tick(L, arena_idx, e->tick);
    } else if (e->clash != NULL) {
        clv_larena_push_clash(L, arena_idx, A, e->clash);
        clv_larena_set_int(L, "side", e->side + 1);
    } else {
        clv_larena_push_projectile_event(L, arena_idx, A, e->reflect);
    }
}

/* Calls a weapon callback (ref) with an event; in the mod's sandbox when the weapon has one. */
static void call_weapon_cb(lua_State *L, int arena_idx, const larena *A, const clv_lweapon *w,
                           int ref, const clv_lua_event *e) {
    if (ref == LUA_NOREF) {
        return;
    }
    if (w->sandbox == NULL) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
        push_host_event(L, arena_idx, A, e);
        protected_call(L, arena_idx);
        return;
    }
    char err[1024];
    if (!clv_lua_call_event(w->sandbox, ref, e, err, sizeof err)) {
        lua_pushstring(L, err);
        report(L, arena_idx);
    }
}

/* The callbacks of a clash: each side's weapon hears it, told which side is its own (a sword
 * that clanks with a sword hears it twice, once for each swing). */
static void clash_callbacks(lua_State *L, int arena_idx, const larena *A,
                            const clv_clash_event *c) {
    clv_lua_event e = {.clash = c};
    const clv_lweapon *w[2];
    for (int s = 0; s < 2; s++) {
        w[s] = weapon_of(A, c->weapon[s]);
        e.names[s] = w[s] != NULL ? clv_lua_weapon_name(w[s]) : NULL;
        e.box[s] = event_box(A, c->weapon[s], c->attack_index[s], c->attack_frame[s], c->hitbox[s]);
    }
    for (int s = 0; s < 2; s++) {
        if (w[s] != NULL) {
            e.side = s;
            call_weapon_cb(L, arena_idx, A, w[s], w[s]->on_clash_ref, &e);
        }
    }
}

/* The callback of a reflection: the reflecting hitbox's weapon hears it. */
static void reflect_callback(lua_State *L, int arena_idx, const larena *A,
                             const clv_projectile_event *p) {
    clv_attack_info by;
    if (p->kind != CLV_PROJECTILE_REFLECTED ||
        clv_arena_attack(A->a, p->by_attack, &by) != CLV_HIT_OK) {
        return;
    }
    const clv_lweapon *w = weapon_of(A, by.weapon);
    const clv_lweapon *thrown = weapon_of(A, p->weapon);
    if (w != NULL) {
        clv_lua_event e = {.reflect = p,
                           .names = {thrown != NULL ? clv_lua_weapon_name(thrown) : NULL}};
        call_weapon_cb(L, arena_idx, A, w, w->on_reflect_ref, &e);
    }
}

/* Runs the callbacks of the frame just stepped: hits, ticks, clashes, then reflections. */
void clv_larena_run_callbacks(lua_State *L, int arena_idx, larena *A,
                              const clv_larena_marks *from) {
    /* each mod's callbacks of this frame share the frame's budget of its sandbox */
    for (int32_t i = 0; i < A->weapon_count; i++) {
        clv_sandbox *sb = A->weapons[i]->sandbox;
        if (sb != NULL && clv_sandbox_is_open(sb)) {
            clv_sandbox_frame_begin(sb);
        }
    }
    for (int32_t k = from->hits; k < A->hit_count; k++) {
        const clv_hit_event *h = &A->hit_list[k];
        clv_lweapon *w = weapon_of(A, h->weapon);
        if (w != NULL && w->on_hit_ref != LUA_NOREF) {
            clv_lua_event e = {.hit = h, .weapon = w};
            e.box[0] = event_box(A, h->weapon, h->attack_index, h->attack_frame, h->hitbox);
            call_weapon_cb(L, arena_idx, A, w, w->on_hit_ref, &e);
        }
        if (A->on_hit_count > 0) {
            clv_larena_uv(L, arena_idx, UV_ON_HIT);
            int list = lua_gettop(L);
            for (int32_t i = 1; i <= A->on_hit_count; i++) {
                lua_rawgeti(L, list, i);
                clv_larena_push_hit(L, arena_idx, A, &A->hit_list[k]);
                protected_call(L, arena_idx);
            }
            lua_pop(L, 1);
        }
    }
    for (int32_t k = from->ticks; k < A->tick_count; k++) {
        const clv_tick_event *t = &A->ticks[k];
        clv_lweapon *w = weapon_of(A, t->weapon);
        if (w != NULL) {
            clv_lua_event e = {.tick = t};
            call_weapon_cb(L, arena_idx, A, w, clv_lua_effect_ref(w, t->name), &e);
        }
    }
    for (int32_t k = from->clashes; k < A->clash_count; k++) {
        clash_callbacks(L, arena_idx, A, &A->clashes[k]);
    }
    for (int32_t k = from->pevents; k < A->pevent_count; k++) {
        reflect_callback(L, arena_idx, A, &A->pevents[k]);
    }
}
