/* cleave.weapon's hitbox tables: each field read and checked with the file, line and field
 * path in its message, from the hitbox, its attack's defaults or its weapon's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weapon_internal.h"

/* ---- hitbox fields ---- */

const char *const clv_lw_hitbox_fields[] = {
    "id", "frames", "ax", "ay", "bx", "by", "x", "y", "radius", "shape", CLV_LUA_HIT_DATA_FIELDS,
    NULL};

/* The same list without id and frames (its first two): the fields `defaults` may give. */
const char *const *const clv_lw_default_fields = clv_lw_hitbox_fields + 2;
const char *const *const clv_lua_hit_fields = clv_lw_hitbox_fields + 2;

#define FROM_ATTACK " (from the attack's defaults)"
#define FROM_WEAPON " (from the weapon's defaults)"

/* Pushes the value of hitbox field key: the hitbox's own, else attack.defaults', else
 * weapon.defaults', else nil. Returns the remark a message about a value from defaults says
 * (its line is the hitbox's, where the field is not written), "" for the others. */
static const char *hb_source(wstate *s, int hb, const char *key) {
    lua_State *L = s->c.L;
    if (lua_getfield(L, hb, key) != LUA_TNIL) {
        return "";
    }
    lua_pop(L, 1);
    if (s->adefaults_idx != 0) {
        if (lua_getfield(L, s->adefaults_idx, key) != LUA_TNIL) {
            return FROM_ATTACK;
        }
        lua_pop(L, 1);
    }
    if (s->defaults_idx != 0) {
        if (lua_getfield(L, s->defaults_idx, key) != LUA_TNIL) {
            return FROM_WEAPON;
        }
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    return "";
}

/* Pushes the value of a hitbox field with its path (and remark) entered. */
static int hb_get(wstate *s, int hb, const char *key, size_t *old) {
    *old = clv_f_key(&s->c, key);
    const char *remark = hb_source(s, hb, key);
    if (remark[0] != '\0') {
        clv_f_remark(&s->c, remark);
    }
    return lua_type(s->c.L, -1);
}

typedef struct hb_ref {
    wstate *s;
    int hb;
} hb_ref;

/* The remark of field key of the hitbox, for cleave_hit's verdicts. */
static const char *default_remark(const char *key, void *ud) {
    const hb_ref *r = ud;
    const char *remark = hb_source(r->s, r->hb, key);
    lua_pop(r->s->c.L, 1);
    return remark;
}

/* Pushes hitbox field key (from the hitbox or the defaults) with its path; false, with
 * nothing pushed, when neither gives it. */
static bool hb_field(wstate *s, int hb, const char *key, size_t *old) {
    if (hb_get(s, hb, key, old) == LUA_TNIL) {
        lua_pop(s->c.L, 1);
        clv_f_pop(&s->c, *old);
        return false;
    }
    return true;
}

static bool hb_number(wstate *s, int hb, const char *key, double *out) {
    size_t old;
    if (!hb_field(s, hb, key, &old)) {
        return false;
    }
    *out = clv_f_number(&s->c);
    clv_f_pop(&s->c, old);
    return true;
}

static double hb_req_number(wstate *s, int hb, const char *key) {
    double d = 0;
    if (!hb_number(s, hb, key, &d)) {
        size_t old = clv_f_key(&s->c, key);
        clv_f_fail(&s->c, "is required");
        clv_f_pop(&s->c, old);
    }
    return d;
}

static bool hb_integer(wstate *s, int hb, const char *key, lua_Integer lo, lua_Integer hi,
                       lua_Integer *out) {
    size_t old;
    if (!hb_field(s, hb, key, &old)) {
        return false;
    }
    *out = clv_f_integer(&s->c, lo, hi);
    clv_f_pop(&s->c, old);
    return true;
}

static bool hb_bool(wstate *s, int hb, const char *key, bool *out) {
    size_t old;
    int t = hb_get(s, hb, key, &old);
    if (t == LUA_TNIL) {
        lua_pop(s->c.L, 1);
        clv_f_pop(&s->c, old);
        return false;
    }
    if (t != LUA_TBOOLEAN) {
        clv_f_fail(&s->c, "must be a boolean (got %s)", clv_f_type_name(s->c.L, -1));
    }
    *out = lua_toboolean(s->c.L, -1) != 0;
    lua_pop(s->c.L, 1);
    clv_f_pop(&s->c, old);
    return true;
}

static bool hb_has(wstate *s, int hb, const char *key) {
    size_t old;
    int t = hb_get(s, hb, key, &old);
    lua_pop(s->c.L, 1);
    clv_f_pop(&s->c, old);
    return t != LUA_TNIL;
}

/* Looks up effect `name` in weapon.effects (pushed as a table) and reads it. */
static void named_effect(wstate *s, const char *name, clv_effect_def *out) {
    lua_State *L = s->c.L;
    if (s->effects_idx == 0 || lua_getfield(L, s->effects_idx, name) == LUA_TNIL) {
        clv_f_fail(&s->c, "names an effect the weapon does not define ('%s')", name);
    }
    /* keep the path of the reference, not of weapon.effects: that one was checked already */
    clv_lua_read_effect(&s->c, s->w, name, out);
}

/* The shape of the hitbox at hb: a capsule (ax, ay, bx, by, radius), a circle (x, y, radius)
 * or a cleave.Shape (shape). Returns whether it was a cleave.Shape. */
static bool read_shape(wstate *s, int hb, clv_shape *out) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    size_t old;
    bool has_cap =
        hb_has(s, hb, "ax") || hb_has(s, hb, "bx") || hb_has(s, hb, "ay") || hb_has(s, hb, "by");
    bool has_circle = hb_has(s, hb, "x") || hb_has(s, hb, "y");
    bool has_shape = hb_has(s, hb, "shape");
    if ((int)has_cap + (int)has_circle + (int)has_shape > 1) {
        clv_f_fail_at(c,
                      "give one shape: ax/ay/bx/by/radius (capsule), x/y/radius (circle) or shape");
    }
    if (has_shape) {
        hb_get(s, hb, "shape", &old);
        const clv_shape *sh = clv_lua_toshape(L, -1);
        if (sh == NULL) {
            clv_f_fail(c, "must be a cleave.Shape (got %s)", clv_f_type_name(L, -1));
        }
        if (sh->type != CLV_CAPSULE && sh->type != CLV_CIRCLE && sh->type != CLV_OBB) {
            clv_f_fail(c, "must be a capsule, circle or obb (got %s)", clv_lua_kind_name(sh->type));
        }
        *out = *sh;
        lua_pop(L, 1);
        clv_f_pop(c, old);
    } else if (has_cap) {
        double ax = hb_req_number(s, hb, "ax"), ay = hb_req_number(s, hb, "ay");
        double bx = hb_req_number(s, hb, "bx"), by = hb_req_number(s, hb, "by");
        double r = hb_req_number(s, hb, "radius");
        out->type = CLV_CAPSULE;
        out->u.capsule.a = clv_v2((float)ax, (float)ay);
        out->u.capsule.b = clv_v2((float)bx, (float)by);
        out->u.capsule.r = (float)r;
    } else if (has_circle) {
        double x = hb_req_number(s, hb, "x"), y = hb_req_number(s, hb, "y");
        double r = hb_req_number(s, hb, "radius");
        out->type = CLV_CIRCLE;
        out->u.circle.c = clv_v2((float)x, (float)y);
        out->u.circle.r = (float)r;
    } else {
        clv_f_fail_at(c,
                      "needs a shape: ax/ay/bx/by/radius (capsule), x/y/radius (circle) or shape");
    }
    return has_shape;
}

/* group: an integer >= 0, or false for a group of its own */
static void read_group(wstate *s, int hb, clv_hitbox_def *out) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    size_t old;
    int gt = hb_get(s, hb, "group", &old);
    if (gt == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
        out->group = CLV_GROUP_NONE;
        lua_pop(L, 1);
    } else if (gt != LUA_TNIL) {
        if (gt != LUA_TNUMBER) {
            clv_f_fail(c, "must be an integer >= 0 or false (got %s)", clv_f_type_name(L, -1));
        }
        out->group = (int32_t)clv_f_integer(c, 0, INT32_MAX);
    } else {
        lua_pop(L, 1);
    }
    clv_f_pop(c, old);
}

/* hitlag, hitstun, parry_stun and blockstun: frames, or "auto" */
static void read_frames_auto(wstate *s, int hb, clv_hitbox_def *out) {
    lua_State *L = s->c.L;
    size_t old;
    static const char *const keys[] = {"hitlag", "hitstun", "parry_stun", "blockstun"};
    int32_t *const dsts[] = {&out->hitlag, &out->hitstun, &out->parry_stun, &out->blockstun};
    for (int k = 0; k < 4; k++) {
        const char *key = keys[k];
        int32_t *dst = dsts[k];
        int t = hb_get(s, hb, key, &old);
        if (t == LUA_TSTRING && strcmp(lua_tostring(L, -1), "auto") == 0) {
            *dst = CLV_FRAMES_AUTO;
            lua_pop(L, 1);
        } else if (t != LUA_TNIL && t != LUA_TNUMBER) {
            clv_f_fail(&s->c, "must be 'auto' or an integer (got %s)", clv_f_value_text(L, -1));
        } else if (t != LUA_TNIL) {
            *dst = (int32_t)clv_f_integer(&s->c, 0, 3600);
        } else {
            lua_pop(L, 1);
        }
        clv_f_pop(&s->c, old);
    }
}

/* effects: names from weapon.effects, or effect tables */
static void read_hit_effects(wstate *s, int hb, clv_hitbox_def *out) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    size_t old;
    int et = hb_get(s, hb, "effects", &old);
    if (et != LUA_TNIL) {
        if (et != LUA_TTABLE) {
            clv_f_fail(c, "must be a list (got %s)", clv_f_type_name(L, -1));
        }
        int el = lua_absindex(L, -1);
        const char *oldw = clv_f_enter(c, el);
        clv_f_check_keys(c, el, (const char *const[]){NULL}, true);
        lua_Integer n = (lua_Integer)lua_rawlen(L, el);
        if (n > CLV_HITBOX_MAX_EFFECTS) {
            clv_f_fail(c, "must hold at most %d effects (got %I)", CLV_HITBOX_MAX_EFFECTS,
                       (LUAI_UACINT)n);
        }
        for (lua_Integer k = 1; k <= n; k++) {
            size_t o2 = clv_f_index(c, k);
            int vt = lua_rawgeti(L, el, k);
            clv_effect_def *e = &out->effects[out->effect_count++];
            if (vt == LUA_TSTRING) {
                char name[CLV_HIT_NAME_MAX];
                clv_f_name(c, name);
                named_effect(s, name, e);
            } else {
                clv_lua_read_effect(&s->c, s->w, NULL, e);
            }
            clv_f_pop(c, o2);
        }
        c->where = oldw;
    }
    lua_pop(L, 1);
    clv_f_pop(c, old);
}

static bool hb_one_of(wstate *s, int hb, const char *key, const char *const *names,
                      const char *said, int *out) {
    size_t old;
    if (!hb_field(s, hb, key, &old)) {
        return false;
    }
    *out = clv_lua_one_of(&s->c, names, said);
    clv_f_pop(&s->c, old);
    return true;
}

/* How the hitbox meets other attacks' hitboxes and projectiles (numbers checked by C). */
static void read_meeting(wstate *s, int hb, clv_hitbox_def *out) {
    static const char *const clash[] = {"normal", "transcend", "trade", NULL};
    static const char *const kind[] = {"hit", "reflect", "absorb", "grab", NULL};
    static const char *const along[] = {"normal", "facing", NULL};
    int k;
    double d;
    if (hb_one_of(s, hb, "clash", clash, "'normal', 'transcend' or 'trade'", &k)) {
        out->clash = (clv_clash_rule)k;
    }
    if (hb_one_of(s, hb, "kind", kind, "'hit', 'reflect', 'absorb' or 'grab'", &k)) {
        out->kind = (clv_hitbox_kind)k;
    }
    if (hb_one_of(s, hb, "reflect_along", along, "'normal' or 'facing'", &k)) {
        out->reflect_along_facing = k == 1;
    }
    if (hb_number(s, hb, "reflect_speed", &d)) {
        out->reflect_speed = (float)d;
    }
    if (hb_number(s, hb, "reflect_damage", &d)) {
        out->reflect_damage = (float)d;
    }
}

/* grab_offset = {x, y} (from the hitbox or the defaults); numbers checked by cleave_hit. */
static void read_grab_offset(wstate *s, int hb, clv_hitbox_def *out) {
    lua_State *L = s->c.L;
    size_t old;
    if (!hb_field(s, hb, "grab_offset", &old)) {
        return;
    }
    clv_f_check_pair(&s->c);
    int p = lua_absindex(L, -1);
    for (int k = 0; k < 2; k++) {
        size_t o2 = clv_f_index(&s->c, k + 1);
        lua_rawgeti(L, p, k + 1);
        float v = (float)clv_f_number(&s->c);
        *(k == 0 ? &out->grab_offset.x : &out->grab_offset.y) = v;
        clv_f_pop(&s->c, o2);
    }
    lua_pop(L, 1);
    clv_f_pop(&s->c, old);
}

/* How the hitbox meets targets that defend, and which targets it may hit at all. */
static void read_defence(wstate *s, int hb, clv_hitbox_def *out) {
    static const char *const hits[] = {"auto", "ground", "air", "both", NULL};
    static const char *const facing[] = {"any", "away", "front", "behind", NULL};
    double d;
    lua_Integer i;
    bool b;
    int k;
    if (hb_number(s, hb, "chip", &d)) {
        out->chip = (float)d;
    }
    if (hb_number(s, hb, "shield_damage", &d)) {
        out->shield_damage = (float)d;
    }
    if (hb_bool(s, hb, "unblockable", &b)) {
        out->unblockable = b;
    }
    if (hb_one_of(s, hb, "hits", hits, "'ground', 'air', 'both' or 'auto'", &k)) {
        out->hits = (clv_hit_air)k;
    }
    if (hb_one_of(s, hb, "facing_restrict", facing, "'any', 'away', 'front' or 'behind'", &k)) {
        out->facing_restrict = (clv_facing_restrict)k;
    }
    if (hb_integer(s, hb, "layer", 0, 65535, &i)) {
        out->layer = (uint16_t)i;
    }
    if (hb_integer(s, hb, "mask", 0, 65535, &i)) {
        out->mask = (uint16_t)i;
    }
    read_grab_offset(s, hb, out);
}

/* Reads the hitbox table at hb (merged with the defaults) into out, checked by cleave_hit. */
void clv_lw_read_hitbox(wstate *s, int hb, clv_hitbox_def *out) {
    lua_State *L = s->c.L;
    clv_fctx *c = &s->c;
    *out = clv_default_hitbox_def();
    size_t old;
    if (clv_f_get(c, hb, "id", &old) == LUA_TNIL) {
        clv_f_fail(c, "is required");
    }
    clv_f_name(c, out->id);
    clv_f_pop(c, old);
    bool from_shape = read_shape(s, hb, &out->shape);
    read_group(s, hb, out);
    double d;
    lua_Integer i;
    bool b;
    if (hb_number(s, hb, "damage", &d)) {
        out->damage = (float)d;
    }
    if (hb_get(s, hb, "knockback", &old) != LUA_TNIL) {
        clv_lua_read_knockback(&s->c, &out->knockback);
    } else {
        lua_pop(L, 1);
    }
    clv_f_pop(c, old);
    if (hb_integer(s, hb, "max_hits", 0, INT32_MAX, &i)) {
        out->max_hits = (int32_t)i;
    }
    if (hb_bool(s, hb, "knockback_ignores_hit_count", &b)) {
        out->knockback_ignores_hit_count = b;
    }
    read_frames_auto(s, hb, out);
    if (hb_number(s, hb, "hitlag_scale", &d)) {
        out->hitlag_scale = (float)d;
    }
    if (hb_integer(s, hb, "priority", -1000000, 1000000, &i)) {
        out->priority = (int32_t)i;
    }
    if (hb_bool(s, hb, "sweep", &b)) {
        out->sweep = b;
    }
    read_meeting(s, hb, out);
    read_defence(s, hb, out);

    read_hit_effects(s, hb, out);
    clv_hit_diag diag;
    if (clv_hitbox_def_check(out, &diag) != CLV_HIT_OK) {
        hb_ref ref = {s, hb};
        clv_lua_fail_check(c, &diag, from_shape, default_remark, &ref);
    }
}
