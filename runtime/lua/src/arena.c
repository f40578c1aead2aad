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

#include "arena_internal.h"

/* The userdata at arg when its metatable is the one the running method was registered with
 * (upvalue 1 of every method): a pointer comparison instead of luaL_testudata's registry
 * lookup by name. NULL otherwise (the caller then takes the slow path, which also gives the
 * error message). */
void *clv_larena_self(lua_State *L, int arg) {
    void *p = lua_touserdata(L, arg);
    if (p == NULL || !lua_getmetatable(L, arg)) {
        return NULL;
    }
    int same = lua_rawequal(L, -1, lua_upvalueindex(1));
    lua_pop(L, 1);
    return same ? p : NULL;
}

void clv_larena_remember(lua_State *L, const void *p) {
    clv_lmemo *m = (clv_lmemo *)lua_touserdata(L, lua_upvalueindex(2));
    if (m != NULL) {
        m->last = p;
    }
}

void clv_larena_forget(lua_State *L, const void *p) {
    clv_lmemo *m = (clv_lmemo *)lua_touserdata(L, lua_upvalueindex(2));
    if (m != NULL && m->last == p) {
        m->last = NULL;
    }
}

larena *clv_larena_check(lua_State *L, int arg) {
    larena *A = (larena *)clv_larena_recall(L, arg);
    if (A == NULL) {
        A = (larena *)clv_larena_self(L, arg);
        if (A != NULL && A->a != NULL) {
            clv_larena_remember(L, A); /* an arena method, on an open arena */
        }
    }
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

void clv_larena_uv(lua_State *L, int arena_idx, int slot) {
    lua_getiuservalue(L, arena_idx, 1);
    lua_rawgeti(L, -1, slot);
    lua_remove(L, -2);
}

uint32_t clv_larena_cached(lua_State *L, int arena_idx, int slot, int idx) {
    clv_larena_uv(L, arena_idx, slot);
    lua_pushvalue(L, idx);
    uint32_t index1 = lua_rawget(L, -2) == LUA_TNUMBER ? (uint32_t)lua_tointeger(L, -1) : 0;
    lua_pop(L, 1);
    return index1;
}

void clv_larena_cache(lua_State *L, int idx, uint32_t index1) {
    lua_pushvalue(L, idx);
    lua_pushinteger(L, (lua_Integer)index1);
    lua_rawset(L, -3);
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, (lua_Integer)index1);
    lua_pop(L, 1);
}

static int arena_gc(lua_State *L) {
    larena *A = (larena *)luaL_checkudata(L, 1, CLV_LUA_ARENA);
    clv_larena_forget(L, A);
    clv_arena_destroy(A->a);
    A->a = NULL;
    clv_lalloc_resize(&A->alloc, A->hits, sizeof *A->hits * (size_t)A->hit_cap, 0);
    clv_lalloc_resize(&A->alloc, A->misses, sizeof *A->misses * (size_t)A->miss_cap, 0);
    clv_lalloc_resize(&A->alloc, A->ticks, sizeof *A->ticks * (size_t)A->tick_cap, 0);
    clv_lalloc_resize(&A->alloc, A->weapons, sizeof *A->weapons * (size_t)A->weapon_cap, 0);
    A->hits = NULL, A->misses = NULL, A->ticks = NULL, A->weapons = NULL;
    A->hit_list = NULL, A->miss_list = NULL;
    clv_larena_free_meetings(A);
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

/* A frame count argument (a number, checked by the caller): an integer in 0..hi, else
 * "bad argument #n to 'f' (frames must be an integer in 0..hi, got v)". A float with an
 * integral value counts, as everywhere else in Lua. */
lua_Integer clv_larena_frames_arg(lua_State *L, int arg, lua_Integer hi) {
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

/* Keeps the hits and misses of the frame just stepped. Those of a single frame (step(1): every
 * frame of a game) are read where the arena keeps them: they stay there until it steps or is
 * restored, which only m_step and m_restore do. Those of several frames (gather) are copied
 * into A's own lists. */
static void keep_hits_and_misses(lua_State *L, larena *A, bool gather) {
    int32_t c;
    const clv_hit_event *h = clv_arena_hits(A->a, &c);
    if (gather && c > 0) {
        if (!clv_lalloc_grow(&A->alloc, (void **)&A->hits, &A->hit_cap, A->hit_count + c,
                             sizeof *h)) {
            luaL_error(L, "out of memory");
        }
        memcpy(A->hits + A->hit_count, h, sizeof *h * (size_t)c);
    }
    A->hit_list = gather ? A->hits : h;
    A->hit_count += c;
    const clv_miss_record *m = clv_arena_misses(A->a, &c);
    if (gather && c > 0) {
        if (!clv_lalloc_grow(&A->alloc, (void **)&A->misses, &A->miss_cap, A->miss_count + c,
                             sizeof *m)) {
            luaL_error(L, "out of memory");
        }
        memcpy(A->misses + A->miss_count, m, sizeof *m * (size_t)c);
    }
    A->miss_list = gather ? A->misses : m;
    A->miss_count += c;
}

/* Whether a frame's events can call anything: an on_hit of the arena, or a weapon with a
 * callback. A crowd of weapons without callbacks then pays nothing for them each frame. */
static bool callbacks_possible(const larena *A) {
    return A->on_hit_count > 0 || A->callback_weapons > 0;
}

/// arena:step([n]) -> hits: steps n frames (default 1); events of those frames are kept, and
/// the number of hits among them is returned
static int m_step(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    /* step(1) runs every frame of a game driven from Lua: one test for it */
    lua_Integer n = 1;
    if (lua_isinteger(L, 2)) {
        n = lua_tointeger(L, 2);
    } else if (lua_type(L, 2) == LUA_TNUMBER) {
        n = clv_larena_frames_arg(L, 2, 1000000000);
    } else if (!lua_isnoneornil(L, 2)) {
        return clv_lua_typeerror(L, 2, "number");
    }
    if (A->in_callbacks > 0) {
        /* the events being reported would be overwritten under the callback's feet */
        return luaL_error(L, "step: the arena cannot step inside one of its callbacks");
    }
    if (n < 0 || n > 1000000000) {
        clv_larena_frames_arg(L, 2, 1000000000);
    }
    A->hit_count = A->miss_count = A->tick_count = 0;
    A->clash_count = A->pevent_count = 0;
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
        clv_larena_marks from = {A->hit_count, A->tick_count, A->clash_count, A->pevent_count};
        keep_hits_and_misses(L, A, n > 1);
        int32_t c;
        const clv_tick_event *t = clv_arena_ticks(A->a, &c);
        if (c > 0) {
            if (!clv_lalloc_grow(&A->alloc, (void **)&A->ticks, &A->tick_cap, A->tick_count + c,
                                 sizeof *t)) {
                return luaL_error(L, "out of memory");
            }
            memcpy(A->ticks + A->tick_count, t, sizeof *t * (size_t)c);
            A->tick_count += c;
        }
        clv_larena_keep_meetings(L, A);
        if (callbacks_possible(A) &&
            (A->hit_count > from.hits || A->tick_count > from.ticks ||
             A->clash_count > from.clashes || A->pevent_count > from.pevents)) {
            A->in_callbacks++;
            clv_larena_run_callbacks(L, 1, A, &from);
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
    larena *A = clv_larena_check(L, 1);
    lua_pushinteger(L, (lua_Integer)clv_arena_frame(A->a));
    return 1;
}

/// arena:hits() -> list of hit tables of the frames of the last step
static int m_hits(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    lua_createtable(L, A->hit_count, 0);
    for (int32_t k = 0; k < A->hit_count; k++) {
        clv_larena_push_hit(L, 1, A, &A->hit_list[k]);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/// arena:misses() -> list of miss tables (reason as a string)
static int m_misses(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    lua_createtable(L, A->miss_count, 0);
    for (int32_t k = 0; k < A->miss_count; k++) {
        clv_larena_push_miss(L, 1, A, &A->miss_list[k]);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/// arena:ticks() -> list of status effect ticks
static int m_ticks(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    lua_createtable(L, A->tick_count, 0);
    for (int32_t k = 0; k < A->tick_count; k++) {
        clv_larena_push_tick(L, 1, &A->ticks[k]);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/// arena:errors() -> callback error messages of the last step
static int m_errors(lua_State *L) {
    clv_larena_check(L, 1);
    clv_larena_uv(L, 1, UV_ERRORS);
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
    larena *A = clv_larena_check(L, 1);
    if (lua_type(L, 2) != LUA_TFUNCTION) {
        return clv_lua_typeerror(L, 2, "function");
    }
    clv_larena_uv(L, 1, UV_ON_HIT);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, ++A->on_hit_count);
    return 0;
}

/// arena:hash() -> 16 hex digits
static int m_hash(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    char buf[24];
    snprintf(buf, sizeof buf, "%016llx", (unsigned long long)clv_arena_hash(A->a));
    lua_pushstring(L, buf);
    return 1;
}

/// arena:snapshot() -> string
static int m_snapshot(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
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
    larena *A = clv_larena_check(L, 1);
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
    A->clash_count = A->pevent_count = 0;
    return 0;
}

/// arena:hit_count() -> number of hits of the last step (no tables built)
static int m_hit_count(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    lua_pushinteger(L, A->hit_count);
    return 1;
}

/// arena:miss_count() -> number of misses of the last step
static int m_miss_count(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
    lua_pushinteger(L, A->miss_count);
    return 1;
}

/// arena:entity_count() -> entities in use
static int m_entity_count(lua_State *L) {
    larena *A = clv_larena_check(L, 1);
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

/* ---- registration ---- */

static const luaL_Reg arena_methods[] = {
    {"spawn", clv_larena_spawn},
    {"attack", clv_larena_attack},
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

static const luaL_Reg arena_metamethods[] = {
    {"__close", m_close},
    {"__tostring", arena_tostring},
    {NULL, NULL},
};

/* Sets funcs in the table at t, each with upvalues the metatable at mt and the memo at memo
 * (clv_lmemo): what clv_larena_check and the attack handle's check read. */
static void set_self_funcs(lua_State *L, int t, int mt, int memo, const luaL_Reg *funcs) {
    lua_pushvalue(L, t);
    lua_pushvalue(L, mt);
    lua_pushvalue(L, memo);
    luaL_setfuncs(L, funcs, 2);
    lua_pop(L, 1);
}

/* Registers a type whose methods check their self by its metatable and remember the last one
 * (clv_larena_recall); its __gc (gc) forgets it before its memory can hold another object.
 * extra: more methods, or NULL. Leaves the metatable on the stack. */
static void create_self_meta(lua_State *L, const char *name, const luaL_Reg *metamethods,
                             const luaL_Reg *methods, const luaL_Reg *extra[2], lua_CFunction gc) {
    static const luaL_Reg none[] = {{NULL, NULL}};
    if (!clv_lua_createmeta(L, name, metamethods, none, false)) {
        return; /* registered in this state already, with its memo */
    }
    int mt = lua_gettop(L);
    clv_lmemo *m = (clv_lmemo *)lua_newuserdatauv(L, sizeof *m, 0);
    m->last = NULL;
    lua_getfield(L, mt, "__index");
    set_self_funcs(L, mt + 2, mt, mt + 1, methods);
    for (int k = 0; k < 2 && extra != NULL && extra[k] != NULL; k++) {
        set_self_funcs(L, mt + 2, mt, mt + 1, extra[k]);
    }
    const luaL_Reg gc_reg[] = {{"__gc", gc}, {NULL, NULL}};
    set_self_funcs(L, mt, mt, mt + 1, gc_reg);
    lua_settop(L, mt);
}

void clv_lua_arena_meta(lua_State *L) {
    const luaL_Reg *arena_extra[2] = {clv_larena_meet_methods, clv_larena_body_methods};
    create_self_meta(L, CLV_LUA_ARENA, arena_metamethods, arena_methods, arena_extra, arena_gc);
    clv_lua_createmeta(L, CLV_LUA_ENTITY, clv_larena_entity_metamethods, clv_larena_entity_methods,
                       true);
    lua_getfield(L, -1, "__index"); /* the body methods of arena_body.c */
    lua_pushvalue(L, -2);
    luaL_setfuncs(L, clv_larena_body_entity_methods, 1);
    lua_pop(L, 1);
    create_self_meta(L, CLV_LUA_ATTACK, NULL, clv_larena_attack_methods, NULL,
                     clv_larena_attack_gc);
    lua_pop(L, 3);
}

const luaL_Reg clv_lua_arena_funcs[] = {
    {"arena", clv_larena_new},
    {NULL, NULL},
};
