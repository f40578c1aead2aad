/* cleave.weapon: a declarative Lua table read once into a clv_weapon, which cleave_hit checks
 * and keeps (the binding holds no copy); errors name file, line and field path. Lua is not on
 * the frame path. The field reader is fields.c, the arc and thrust generators generators.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weapon_internal.h"

/* ---- building the weapon ---- */

/* The first frame from `first` on where attack already holds a hitbox called id (the frame
 * cleave_hit refused it for). */
static int32_t clash_frame(lua_State *L, const clv_weapon *w, int32_t attack, int32_t first,
                           const char *id) {
    for (int32_t f = first; f < clv_weapon_attack_def(w, attack)->frames; f++) {
        int32_t n = clv_weapon_frame_hitboxes(w, attack, f, NULL, 0);
        const clv_hitbox_def **boxes =
            (const clv_hitbox_def **)lua_newuserdatauv(L, sizeof *boxes * (size_t)n, 0);
        clv_weapon_frame_hitboxes(w, attack, f, boxes, n);
        for (int32_t k = 0; k < n; k++) {
            if (strcmp(boxes[k]->id, id) == 0) {
                return f;
            }
        }
        lua_pop(L, 1);
    }
    return first;
}

/* Adds a hitbox on frames first..last (0-based) of the attack being read. */
static void add_entry(wstate *s, int32_t first, int32_t last, const clv_hitbox_def *def) {
    clv_lweapon *w = s->w;
    /* validating and compiling a weapon runs in C and grows with the square of an attack's
     * hitboxes (ids are unique per frame): a mod's 16000 hitboxes took seconds */
    clv_sandbox_check_deadline(s->c.L);
    s->placed += last - first + 1;
    if (s->placed > CLV_WEAPON_MAX_PLACED) {
        clv_f_fail_at(
            &s->c,
            "makes the weapon place %I hitboxes (one per hitbox and frame), more than the "
            "limit of %d",
            (LUAI_UACINT)s->placed, CLV_WEAPON_MAX_PLACED);
    }
    clv_hit_diag diag;
    clv_hit_status st = clv_weapon_add_hitbox(w->compiled, s->attack, first, last, def, &diag);
    if (st == CLV_HIT_ERR_NAME && strcmp(diag.field, "id") == 0) {
        clv_f_fail_at(&s->c, "id '%s' is used twice on frame %d", def->id,
                      (int)clash_frame(s->c.L, w->compiled, s->attack, first, def->id) + 1);
    }
    if (st == CLV_HIT_ERR_NO_MEMORY) {
        luaL_error(s->c.L, "out of memory");
    }
    if (st != CLV_HIT_OK) {
        clv_f_fail_at(&s->c, "%s", diag.message);
    }
}

/* Emits a generated hitbox: the table at hb, on one frame. */
static void add_generated(void *ud, int hb, int32_t frame) {
    wstate *s = (wstate *)ud;
    clv_hitbox_def def;
    clv_lw_read_hitbox(s, hb, &def);
    add_entry(s, frame - 1, frame - 1, &def);
}

/* One entry of attack.hitboxes: a hitbox with frames, a generator, or a list of them. */
static void read_hitbox_entry(wstate *s, int hb, int depth) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    if (lua_type(L, hb) != LUA_TTABLE) {
        clv_f_fail(c, "must be a hitbox table (got %s)", clv_f_type_name(L, hb));
    }
    const char *oldw = clv_f_enter(c, hb);
    const char *kind = clv_lua_table_tag(L, hb, CLV_LUA_TAG_KIND);
    if (kind != NULL && (strcmp(kind, "arc") == 0 || strcmp(kind, "thrust") == 0)) {
        clv_lua_expand_generator(c, hb, strcmp(kind, "arc") == 0, s->length, add_generated, s);
    } else if (lua_rawlen(L, hb) > 0 && depth < 4) {
        clv_f_check_keys(c, hb, (const char *const[]){NULL}, true);
        lua_Integer n = (lua_Integer)lua_rawlen(L, hb);
        for (lua_Integer k = 1; k <= n; k++) {
            size_t old = clv_f_index(c, k);
            lua_rawgeti(L, hb, k);
            read_hitbox_entry(s, lua_absindex(L, -1), depth + 1);
            lua_pop(L, 1);
            clv_f_pop(c, old);
        }
    } else {
        clv_f_check_keys(c, hb, clv_lw_hitbox_fields, false);
        int32_t first, last;
        clv_f_frames(c, hb, "attack", s->length, &first, &last);
        clv_hitbox_def def;
        clv_lw_read_hitbox(s, hb, &def);
        add_entry(s, first - 1, last - 1, &def);
    }
    c->where = oldw;
}

static const char *const attack_fields[] = {"length",    "frames",      "hitboxes", "defaults",
                                            "rehit",     "max_targets", "lockout",  "rebound",
                                            "hurtboxes", NULL};

/* attack.hurtboxes: hurtboxes the attack carries (the extended arm of a punch), each over its
 * frames (default: the whole attack), checked like a body's. */
static void add_carried(clv_fctx *c, void *ud, int32_t first, int32_t last,
                        const clv_hurtbox_def *def) {
    const wstate *s = ud;
    clv_hit_diag diag;
    clv_hit_status st = clv_weapon_add_hurtbox(s->w->compiled, s->attack, first, last, def, &diag);
    if (st == CLV_HIT_ERR_NO_MEMORY) {
        luaL_error(c->L, "out of memory");
    }
    if (st != CLV_HIT_OK) {
        clv_f_fail_at(c, "%s", diag.message);
    }
}

static void read_carried_hurtboxes(wstate *s, int at) {
    clv_lua_read_hurtbox_list(&s->c, at, "attack", s->length, add_carried, s);
}

/* The highest frame an attack's hitboxes mention, for an attack without length. */
static lua_Integer max_frame_of(lua_State *L, int t, int depth) {
    lua_Integer m = 0;
    if (depth > 6 || lua_type(L, t) != LUA_TTABLE) {
        return 0;
    }
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "frames") == 0) {
            if (lua_isinteger(L, -1)) {
                lua_Integer v = lua_tointeger(L, -1);
                m = v > m ? v : m;
            } else if (lua_type(L, -1) == LUA_TTABLE) {
                lua_rawgeti(L, -1, 2);
                if (lua_isinteger(L, -1) && lua_tointeger(L, -1) > m) {
                    m = lua_tointeger(L, -1);
                }
                lua_pop(L, 1);
            }
        } else if (lua_type(L, -1) == LUA_TTABLE) {
            lua_Integer v = max_frame_of(L, lua_absindex(L, -1), depth + 1);
            m = v > m ? v : m;
        }
        lua_pop(L, 1);
    }
    return m;
}

/* attack.frames: a map from frame number to a list of hitboxes. Pushes it (or nil) and returns
 * the highest frame it names. */
static lua_Integer read_frame_keys(wstate *s, int at) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    size_t old;
    int ft = clv_f_get(c, at, "frames", &old);
    lua_Integer top_frame = 0;
    if (ft != LUA_TNIL) {
        if (ft != LUA_TTABLE) {
            clv_f_fail(c, "must be a table of frame lists (got %s)", clv_f_type_name(L, -1));
        }
        int frames_idx = lua_absindex(L, -1);
        lua_pushnil(L);
        while (lua_next(L, frames_idx)) {
            lua_pop(L, 1);
            if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1) {
                lua_pushvalue(L, -1);
                clv_f_fail(c, "keys must be frame numbers >= 1 (got %s)", clv_f_value_text(L, -1));
            }
            if (lua_tointeger(L, -1) > top_frame) {
                top_frame = lua_tointeger(L, -1);
            }
        }
    } else {
        lua_pop(L, 1);
        lua_pushnil(L); /* keep the stack shape */
    }
    clv_f_pop(c, old);
    return top_frame;
}

/* The attack's length and rules, checked against the frames it names (top_frame) and the
 * weapon's frame budget. */
static void read_attack_def(wstate *s, int at, lua_Integer top_frame, clv_attack_def *def) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    lua_Integer i;
    if (clv_f_opt_integer(c, at, "length", 1, CLV_ATTACK_MAX_FRAMES, &i)) {
        def->frames = (int32_t)i;
    } else {
        lua_getfield(L, at, "hitboxes");
        lua_Integer m = max_frame_of(L, lua_absindex(L, -1), 0);
        bool listed = lua_type(L, -1) == LUA_TTABLE && lua_rawlen(L, -1) > 0;
        lua_pop(L, 1);
        m = m > top_frame ? m : top_frame;
        if (m < 1 && listed) {
            /* hitboxes whose frames are no frame numbers (1.5, 2^53, "x"): reading each one
             * below names the field, where "needs a length" would mislead */
            m = CLV_ATTACK_MAX_FRAMES;
        }
        if (m < 1) {
            clv_f_fail_at(c, "needs a length or at least one hitbox");
        }
        def->frames = (int32_t)(m > CLV_ATTACK_MAX_FRAMES ? CLV_ATTACK_MAX_FRAMES : m);
    }
    if (clv_f_opt_integer(c, at, "rehit", 0, CLV_ATTACK_MAX_FRAMES, &i)) {
        def->rehit = (int32_t)i;
    }
    if (clv_f_opt_integer(c, at, "max_targets", 0, INT32_MAX, &i)) {
        def->max_targets = (int32_t)i;
    }
    if (clv_f_opt_integer(c, at, "lockout", 0, CLV_ATTACK_MAX_FRAMES, &i)) {
        def->lockout = (int32_t)i;
    }
    if (clv_f_opt_integer(c, at, "rebound", 0, 3600, &i)) {
        def->rebound = (int32_t)i;
    }
    if (top_frame > def->frames) {
        size_t o2 = clv_f_key(c, "frames");
        clv_f_index(c, top_frame);
        c->path[c->plen] = '\0';
        lua_pushfstring(L, "%s: %s is past the attack's last frame (length %d)", c->where, c->path,
                        (int)def->frames);
        clv_f_pop(c, o2);
        lua_error(L);
    }
    s->frames += def->frames;
    if (s->frames > CLV_WEAPON_MAX_FRAMES) {
        clv_f_fail_at(
            c, "makes the weapon's attacks last %I frames together, more than the limit of %d",
            (LUAI_UACINT)s->frames, CLV_WEAPON_MAX_FRAMES);
    }
}

/* Pushes field defaults of the table at t (nil when absent), checks its keys; returns its
 * index, or 0 when absent. */
static int get_defaults(clv_fctx *c, int t) {
    lua_State *L = c->L;
    size_t old;
    int dt = clv_f_get(c, t, "defaults", &old);
    int idx = 0;
    if (dt != LUA_TNIL) {
        c->where = clv_f_enter_fields(c, -1, clv_lw_default_fields);
        idx = lua_absindex(L, -1);
    }
    clv_f_pop(c, old);
    return idx;
}

/* attack.defaults: checked like weapon.defaults; pushed (or not) and recorded in s. */
static void read_attack_defaults(wstate *s, int at) {
    s->adefaults_idx = get_defaults(&s->c, at);
    if (s->adefaults_idx == 0) {
        lua_pop(s->c.L, 1);
    }
}

/* attack.hitboxes: entries with their own frames, in order */
static void read_hitbox_list(wstate *s, int at) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    size_t old;
    int ht = clv_f_get(c, at, "hitboxes", &old);
    if (ht != LUA_TNIL) {
        if (ht != LUA_TTABLE) {
            clv_f_fail(c, "must be a list (got %s)", clv_f_type_name(L, -1));
        }
        int hl = lua_absindex(L, -1);
        clv_f_check_keys(c, hl, (const char *const[]){NULL}, true);
        lua_Integer n = (lua_Integer)lua_rawlen(L, hl);
        for (lua_Integer k = 1; k <= n; k++) {
            size_t o2 = clv_f_index(c, k);
            lua_rawgeti(L, hl, k);
            read_hitbox_entry(s, lua_absindex(L, -1), 0);
            lua_pop(L, 1);
            clv_f_pop(c, o2);
        }
    }
    lua_pop(L, 1);
    clv_f_pop(c, old);
}

/* attack.frames[f]: the list of hitboxes on frame f, at the top of the stack. */
static void read_frame_list(wstate *s, lua_Integer f) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    int fl = lua_absindex(L, -1);
    const char *ow = clv_f_enter(c, fl);
    /* a single hitbox where a list was meant is the common slip */
    if (lua_rawlen(L, fl) == 0 && lua_getfield(L, fl, "id") != LUA_TNIL) {
        clv_f_fail(c, "must be a list of hitboxes (got one hitbox: wrap it in {})");
    }
    lua_settop(L, fl);
    clv_f_check_keys(c, fl, (const char *const[]){NULL}, true);
    lua_Integer n = (lua_Integer)lua_rawlen(L, fl);
    for (lua_Integer k = 1; k <= n; k++) {
        size_t o2 = clv_f_index(c, k);
        int vt = lua_rawgeti(L, fl, k);
        if (vt != LUA_TTABLE) {
            clv_f_fail(c, "must be a hitbox table (got %s)", clv_f_type_name(L, -1));
        }
        int hb = lua_absindex(L, -1);
        const char *ow2 = clv_f_enter(c, hb);
        clv_f_check_keys(c, hb, clv_lw_hitbox_fields, false);
        if (lua_getfield(L, hb, "frames") != LUA_TNIL) {
            size_t o3 = clv_f_key(c, "frames");
            clv_f_fail(c, "is given by the enclosing frames[%I]", (LUAI_UACINT)f);
            clv_f_pop(c, o3);
        }
        lua_pop(L, 1);
        clv_hitbox_def hdef;
        clv_lw_read_hitbox(s, hb, &hdef);
        add_entry(s, (int32_t)f - 1, (int32_t)f - 1, &hdef);
        c->where = ow2;
        lua_pop(L, 1);
        clv_f_pop(c, o2);
    }
    c->where = ow;
}

static void read_attack(wstate *s, const char *name, int at) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    const char *oldw = clv_f_enter_fields(c, at, attack_fields);
    clv_attack_def def = clv_default_attack_def();
    if (strlen(name) >= CLV_HIT_NAME_MAX) {
        clv_f_fail_at(c, "attack name must be shorter than %d bytes", CLV_HIT_NAME_MAX);
    }
    strcpy(def.name, name);
    lua_Integer top_frame = read_frame_keys(s, at);
    int frames_idx = lua_istable(L, -1) ? lua_gettop(L) : 0;
    read_attack_def(s, at, top_frame, &def);
    read_attack_defaults(s, at);
    clv_hit_diag diag;
    clv_hit_status st = clv_weapon_add_attack(s->w->compiled, &def, &s->attack, &diag);
    if (st == CLV_HIT_ERR_NO_MEMORY) {
        luaL_error(L, "out of memory");
    }
    if (st != CLV_HIT_OK) {
        clv_f_fail_at(c, "%s", diag.message);
    }
    s->length = def.frames;
    read_hitbox_list(s, at);
    read_carried_hurtboxes(s, at);
    for (lua_Integer f = 1; frames_idx != 0 && f <= top_frame; f++) {
        size_t o1 = clv_f_key(c, "frames");
        clv_f_index(c, f);
        int lt = lua_rawgeti(L, frames_idx, f);
        if (lt != LUA_TNIL) {
            if (lt != LUA_TTABLE) {
                clv_f_fail(c, "must be a list of hitboxes (got %s)", clv_f_type_name(L, -1));
            }
            read_frame_list(s, f);
        }
        lua_pop(L, 1);
        clv_f_pop(c, o1);
    }
    if (s->adefaults_idx != 0) {
        lua_pop(L, 1);
        s->adefaults_idx = 0;
    }
    lua_pop(L, 1); /* frames table or placeholder */
    c->where = oldw;
}

static const char *const weapon_fields[] = {"name",   "defaults", "attacks",    "effects",
                                            "on_hit", "on_clash", "on_reflect", NULL};

/* weapon.effects (index 5, or nil there): each checked once here, its on_tick recorded. */
static void read_weapon_effects(wstate *s) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    size_t old;
    int et = clv_f_get(c, 1, "effects", &old);
    if (et != LUA_TNIL) {
        if (et != LUA_TTABLE) {
            clv_f_fail(c, "must be a table of effects by name (got %s)", clv_f_type_name(L, -1));
        }
        s->effects_idx = 5;
        lua_pushnil(L);
        while (lua_next(L, 5)) {
            if (lua_type(L, -2) != LUA_TSTRING) {
                lua_pushvalue(L, -2);
                clv_f_fail(c, "keys must be effect names (got %s)", clv_f_value_text(L, -1));
            }
            char name[CLV_HIT_NAME_MAX];
            lua_pushvalue(L, -2);
            size_t o2 = clv_f_key(c, lua_tostring(L, -1));
            clv_f_name(c, name);
            clv_effect_def e;
            clv_lua_read_effect(&s->c, s->w, name, &e); /* pops the value */
            clv_f_pop(c, o2);
        }
    }
    clv_f_pop(c, old);
}

/* weapon.attacks, in the order of their names. */
static void read_attacks(wstate *s) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    size_t old;
    int at = clv_f_get(c, 1, "attacks", &old);
    if (at == LUA_TNIL) {
        clv_f_fail(c, "is required");
    }
    if (at != LUA_TTABLE) {
        clv_f_fail(c, "must be a table of attacks by name (got %s)", clv_f_type_name(L, -1));
    }
    int atab = lua_absindex(L, -1);
    int count;
    const char **names = clv_f_sorted_names(c, atab, "attack", &count);
    for (int k = 0; k < count; k++) {
        size_t o2 = clv_f_key(c, names[k]);
        lua_getfield(L, atab, names[k]);
        read_attack(s, names[k], lua_absindex(L, -1));
        lua_pop(L, 1);
        clv_f_pop(c, o2);
    }
    lua_pop(L, 2);
    clv_f_pop(c, old);
}

/* Creates the weapon's clv_weapon, named by weapon.name, with the state's allocator. */
static void create_compiled(wstate *s) {
    lua_State *L = s->c.L;
    clv_weapon_def wd = clv_default_weapon_def();
    size_t old;
    if (clv_f_get(&s->c, 1, "name", &old) != LUA_TNIL) {
        clv_f_name(&s->c, wd.name);
    } else {
        lua_pop(L, 1);
    }
    clv_f_pop(&s->c, old);
    wd.allocator = clv_lalloc_hook(&s->w->alloc);
    clv_hit_diag diag;
    s->w->compiled = clv_weapon_create(&wd, &diag);
    if (s->w->compiled == NULL) {
        luaL_error(L, "cannot create weapon: %s", diag.message);
    }
}

/* Inside a mod's sandbox, charges its budget for the copy an arena will make of the finished
 * weapon: the mod pays for the definition it builds, and an arena's copy (one entry per box
 * per active frame) can be hundreds of times larger. One copy per weapon is charged; a host
 * that adds the weapon to several arenas pays for the others. */
static void charge_arena_copy(wstate *s) {
    clv_sandbox *sb = clv_sandbox_of(s->c.L);
    if (sb == NULL) {
        return;
    }
    size_t bytes = clv_weapon_arena_bytes(s->w->compiled);
    if (!clv_sandbox_charge(sb, bytes)) {
        luaL_error(s->c.L, "not enough memory (the mod's limit is %I bytes)",
                   (lua_Integer)clv_sandbox_get_limits(sb).memory_bytes);
    }
    s->w->charged = bytes;
}

/* Weapon field `key` (index 1), a function or nil, into *ref (a registry reference). */
static void read_callback(clv_fctx *c, const char *key, int *ref) {
    size_t old;
    int t = clv_f_get(c, 1, key, &old);
    if (t != LUA_TNIL && t != LUA_TFUNCTION) {
        clv_f_fail(c, "must be a function (got %s)", clv_f_type_name(c->L, -1));
    }
    if (t == LUA_TFUNCTION) {
        *ref = luaL_ref(c->L, LUA_REGISTRYINDEX);
    } else {
        lua_pop(c->L, 1);
    }
    clv_f_pop(c, old);
}

/// cleave.weapon{name=, defaults=, attacks=, effects=, on_hit=, on_clash=, on_reflect=}
/// -> cleave.Weapon
static int l_weapon(lua_State *L) {
    if (lua_type(L, 1) != LUA_TTABLE) {
        return luaL_typeerror(L, 1, "table");
    }
    clv_lua_check_nargs(L, 1);
    lua_settop(L, 1);
    clv_lua_push_call_site(L);
    wstate s;
    memset(&s, 0, sizeof s);
    s.c.L = L;
    s.c.where = lua_tostring(L, -1); /* kept alive on the stack at index 2 */
    s.c.table = "weapon";            /* so that every message names a field or a table */
    s.weapon_idx = 1;
    clv_fctx *c = &s.c;
    clv_f_enter(c, 1);
    clv_f_check_keys(c, 1, weapon_fields, false);
    s.w = clv_lua_new_weapon(L); /* index 3: freed by __gc if anything below fails */
    create_compiled(&s);
    s.defaults_idx = get_defaults(c, 1); /* index 4: defaults or nil */
    read_weapon_effects(&s);
    read_callback(c, "on_hit", &s.w->on_hit_ref);
    read_callback(c, "on_clash", &s.w->on_clash_ref);
    read_callback(c, "on_reflect", &s.w->on_reflect_ref);
    read_attacks(&s);
    charge_arena_copy(&s);
    lua_pushvalue(L, 3);
    return 1;
}

/* Tags and returns the table argument. */
static int tagger(lua_State *L, const char *kind) {
    if (lua_type(L, 1) != LUA_TTABLE) {
        return luaL_typeerror(L, 1, "table");
    }
    clv_lua_check_nargs(L, 1);
    clv_lua_tag_table(L, 1, kind);
    return 1;
}

/// cleave.hitbox{...} -> the same table, remembered with the line of this call
static int l_hitbox(lua_State *L) { return tagger(L, "hitbox"); }
/// cleave.arc{...} -> a generator of per-frame capsules rotating about a pivot
static int l_arc(lua_State *L) { return tagger(L, "arc"); }
/// cleave.thrust{...} -> a generator of per-frame capsules moving along a direction
static int l_thrust(lua_State *L) { return tagger(L, "thrust"); }
/// cleave.effect{...} -> the same table, remembered with the line of this call
static int l_effect(lua_State *L) { return tagger(L, "effect"); }

const luaL_Reg clv_lua_weapon_funcs[] = {
    {"weapon", l_weapon}, {"hitbox", l_hitbox}, {"arc", l_arc},
    {"thrust", l_thrust}, {"effect", l_effect}, {NULL, NULL},
};
