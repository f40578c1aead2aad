/* cleave.arc and cleave.thrust: per-frame capsules generated from a few numbers. Each frame's
 * capsule is a plain hitbox table (the generator's hit fields with that frame's geometry), so
 * the weapon reader checks it like any other. */
#include <math.h>
#include <string.h>

#include "internal.h"

static double ease(const char *kind, double u) {
    if (strcmp(kind, "in") == 0) {
        return u * u;
    }
    if (strcmp(kind, "out") == 0) {
        return 1.0 - (1.0 - u) * (1.0 - u);
    }
    if (strcmp(kind, "in_out") == 0) {
        return u * u * (3.0 - 2.0 * u);
    }
    return u;
}

static const char *const arc_fields[] = {"id",   "frames", "pivot", "from",
                                         "to",   "inner",  "outer", "radius",
                                         "ease", "links",  "lag",   CLV_LUA_HIT_DATA_FIELDS,
                                         NULL};

static const char *const thrust_fields[] = {
    "id", "frames", "origin", "angle", "from",
    "to", "reach",  "radius", "ease",  CLV_LUA_HIT_DATA_FIELDS,
    NULL};

static const char *read_ease(clv_fctx *c, int t) {
    lua_State *L = c->L;
    size_t old;
    int ty = clv_f_get(c, t, "ease", &old);
    const char *e = "linear";
    if (ty != LUA_TNIL) {
        e = ty == LUA_TSTRING ? lua_tostring(L, -1) : "";
        if (strcmp(e, "linear") != 0 && strcmp(e, "in") != 0 && strcmp(e, "out") != 0 &&
            strcmp(e, "in_out") != 0) {
            clv_f_fail(c, "must be 'linear', 'in', 'out' or 'in_out' (got %s)",
                       clv_f_value_text(L, -1));
        }
    }
    lua_pop(L, 1);
    clv_f_pop(c, old);
    return e;
}

/* Raises "<path>.key must be > <other> (got v)" for a number field of the table at t. */
static void fail_above(clv_fctx *c, int t, const char *key, const char *other) {
    (void)clv_f_key(c, key);
    lua_getfield(c->L, t, key);
    clv_f_fail(c, "must be > %s (got %s)", other, clv_f_value_text(c->L, -1));
}

/* The geometry of a generator: a pivot or origin, the angles and radii its capsules span. */
typedef struct geometry {
    bool arc;
    const char *ease;
    double px, py, a0, a1, inner, outer, reach, r;
    lua_Integer links, lag;
} geometry;

static void read_geometry(clv_fctx *c, int g, geometry *q) {
    q->ease = read_ease(c, g);
    if (q->arc) {
        clv_f_point(c, g, "pivot", &q->px, &q->py);
        q->a0 = clv_f_req_number(c, g, "from");
        q->a1 = clv_f_req_number(c, g, "to");
        clv_f_opt_number(c, g, "inner", 0, false, &q->inner);
        q->outer = clv_f_req_number(c, g, "outer");
        if (!(q->outer > q->inner)) {
            fail_above(c, g, "outer", "inner");
        }
        clv_f_opt_integer(c, g, "links", 1, 16, &q->links);
        clv_f_opt_integer(c, g, "lag", 0, CLV_ATTACK_MAX_FRAMES, &q->lag);
    } else {
        clv_f_point(c, g, "origin", &q->px, &q->py);
        double ang = 0;
        clv_f_opt_any_number(c, g, "angle", &ang);
        q->a0 = q->a1 = ang;
        q->inner = clv_f_req_number(c, g, "from");
        q->outer = clv_f_req_number(c, g, "to");
        q->reach = clv_f_req_number(c, g, "reach");
        if (!(q->reach > 0)) {
            fail_above(c, g, "reach", "0");
        }
    }
    q->r = clv_f_req_number(c, g, "radius");
}

/* Pushes a hitbox table with the hit fields of the generator at g (its radius is geometry). */
static int push_hit_fields(lua_State *L, int g) {
    lua_newtable(L);
    int hb = lua_absindex(L, -1);
    lua_pushnil(L);
    while (lua_next(L, g)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
        if (clv_f_in_list(k, clv_lua_hit_fields) && strcmp(k, "radius") != 0) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, hb);
        } else {
            lua_pop(L, 1);
        }
    }
    return hb;
}

static void set_number(lua_State *L, int t, const char *key, double v) {
    lua_pushnumber(L, (lua_Number)v);
    lua_setfield(L, t, key);
}

void clv_lua_expand_generator(clv_fctx *c, int g, bool arc, int32_t length, clv_lua_emit emit,
                              void *ud) {
    lua_State *L = c->L;
    clv_f_check_keys(c, g, arc ? arc_fields : thrust_fields, false);
    int32_t first, last;
    clv_f_frames(c, g, "attack", length, &first, &last);
    geometry q = {arc, "linear", 0, 0, 0, 0, 0, 0, 0, 0, 1, 0};
    read_geometry(c, g, &q);
    char base_id[CLV_HIT_NAME_MAX];
    size_t old;
    if (clv_f_get(c, g, "id", &old) == LUA_TNIL) {
        clv_f_fail(c, "is required");
    }
    clv_f_name(c, base_id);
    clv_f_pop(c, old);
    int32_t n = last - first + 1;
    for (lua_Integer link = 0; link < q.links; link++) {
        for (int32_t f = first; f <= last; f++) {
            /* the link trails the one before it by lag frames (held at the start) */
            lua_Integer step = (lua_Integer)(f - first) - link * q.lag;
            double u = n > 1 ? (double)(step < 0 ? 0 : step) / (double)(n - 1) : 1.0;
            double e = ease(q.ease, u);
            double ang = (q.a0 + (q.a1 - q.a0) * e) * (CLV_PI / 180.0);
            double dx = cos(ang), dy = sin(ang), ra, rb;
            if (arc) {
                double seg = (q.outer - q.inner) / (double)q.links;
                ra = q.inner + seg * (double)link;
                rb = ra + seg;
            } else {
                rb = q.inner + (q.outer - q.inner) * e;
                ra = rb - q.reach;
            }
            int hb = push_hit_fields(L, g);
            if (q.links > 1) {
                lua_pushfstring(L, "%s%d", base_id, (int)link + 1);
            } else {
                lua_pushstring(L, base_id);
            }
            if (lua_rawlen(L, -1) >= CLV_HIT_NAME_MAX) {
                clv_f_fail_at(c, "id '%s' is too long for %d links", base_id, (int)q.links);
            }
            lua_setfield(L, hb, "id");
            set_number(L, hb, "ax", q.px + dx * ra);
            set_number(L, hb, "ay", q.py + dy * ra);
            set_number(L, hb, "bx", q.px + dx * rb);
            set_number(L, hb, "by", q.py + dy * rb);
            set_number(L, hb, "radius", q.r);
            emit(ud, hb, f);
            lua_pop(L, 1);
        }
    }
}
