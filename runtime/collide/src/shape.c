#include <math.h>
#include <stddef.h>

#include "internal.h"

clv_obb clv_make_obb(clv_vec2 centre, clv_vec2 half_extents, float angle) {
    clv_obb o;
    o.c = centre;
    o.h = half_extents;
    o.u = clv_v2(cosf(angle), sinf(angle));
    return o;
}

clv_shape clv_shape_point(float x, float y) {
    clv_shape s;
    s.type = CLV_POINT;
    s.u.point = clv_v2(x, y);
    return s;
}

clv_shape clv_shape_circle(float x, float y, float r) {
    clv_shape s;
    s.type = CLV_CIRCLE;
    s.u.circle.c = clv_v2(x, y);
    s.u.circle.r = r;
    return s;
}

clv_shape clv_shape_capsule(float ax, float ay, float bx, float by, float r) {
    clv_shape s;
    s.type = CLV_CAPSULE;
    s.u.capsule.a = clv_v2(ax, ay);
    s.u.capsule.b = clv_v2(bx, by);
    s.u.capsule.r = r;
    return s;
}

clv_shape clv_shape_aabb(float min_x, float min_y, float max_x, float max_y) {
    clv_shape s;
    s.type = CLV_AABB;
    s.u.aabb.min = clv_v2(min_x, min_y);
    s.u.aabb.max = clv_v2(max_x, max_y);
    return s;
}

clv_shape clv_shape_obb(float cx, float cy, float half_w, float half_h, float angle) {
    clv_shape s;
    s.type = CLV_OBB;
    s.u.obb = clv_make_obb(clv_v2(cx, cy), clv_v2(half_w, half_h), angle);
    return s;
}

static bool finite2(clv_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

bool clv_shape_valid(const clv_shape *s) {
    if (s == NULL) {
        return false;
    }
    switch (s->type) {
    case CLV_POINT:
        return finite2(s->u.point);
    case CLV_CIRCLE:
        return finite2(s->u.circle.c) && isfinite(s->u.circle.r) && s->u.circle.r >= 0.0f;
    case CLV_CAPSULE:
        return finite2(s->u.capsule.a) && finite2(s->u.capsule.b) && isfinite(s->u.capsule.r) &&
               s->u.capsule.r >= 0.0f;
    case CLV_AABB:
        return finite2(s->u.aabb.min) && finite2(s->u.aabb.max) &&
               s->u.aabb.min.x <= s->u.aabb.max.x && s->u.aabb.min.y <= s->u.aabb.max.y;
    case CLV_OBB: {
        const clv_obb *o = &s->u.obb;
        float len2 = clv_dot(o->u, o->u);
        return finite2(o->c) && finite2(o->h) && finite2(o->u) && o->h.x >= 0.0f &&
               o->h.y >= 0.0f && len2 > 0.998f && len2 < 1.002f;
    }
    default:
        return false;
    }
}

clv_aabb clv_shape_bounds(const clv_shape *s) {
    clv_aabb b;
    switch (s->type) {
    case CLV_POINT:
        b.min = b.max = s->u.point;
        break;
    case CLV_CIRCLE: {
        const clv_circle *c = &s->u.circle;
        b.min = clv_v2(c->c.x - c->r, c->c.y - c->r);
        b.max = clv_v2(c->c.x + c->r, c->c.y + c->r);
        break;
    }
    case CLV_CAPSULE: {
        const clv_capsule *c = &s->u.capsule;
        b.min = clv_v2(clv_minf(c->a.x, c->b.x) - c->r, clv_minf(c->a.y, c->b.y) - c->r);
        b.max = clv_v2(clv_maxf(c->a.x, c->b.x) + c->r, clv_maxf(c->a.y, c->b.y) + c->r);
        break;
    }
    case CLV_AABB:
        b = s->u.aabb;
        break;
    case CLV_OBB:
    default: {
        const clv_obb *o = &s->u.obb;
        float ex = o->h.x * clv_absf(o->u.x) + o->h.y * clv_absf(o->u.y);
        float ey = o->h.x * clv_absf(o->u.y) + o->h.y * clv_absf(o->u.x);
        b.min = clv_v2(o->c.x - ex, o->c.y - ey);
        b.max = clv_v2(o->c.x + ex, o->c.y + ey);
        break;
    }
    }
    return b;
}

clv_shape clv_shape_translated(const clv_shape *s, clv_vec2 d) {
    clv_shape t = *s;
    switch (t.type) {
    case CLV_POINT:
        t.u.point = clv_add(t.u.point, d);
        break;
    case CLV_CIRCLE:
        t.u.circle.c = clv_add(t.u.circle.c, d);
        break;
    case CLV_CAPSULE:
        t.u.capsule.a = clv_add(t.u.capsule.a, d);
        t.u.capsule.b = clv_add(t.u.capsule.b, d);
        break;
    case CLV_AABB:
        t.u.aabb.min = clv_add(t.u.aabb.min, d);
        t.u.aabb.max = clv_add(t.u.aabb.max, d);
        break;
    default:
        t.u.obb.c = clv_add(t.u.obb.c, d);
        break;
    }
    return t;
}

/* Lexicographic order of the raw fields: any fixed order makes the generic queries symmetric. */
bool clv_pair_swapped(const clv_shape *a, const clv_shape *b) {
    if (a->type != b->type) {
        return a->type > b->type;
    }
    const float *fa = (const float *)(const void *)&a->u;
    const float *fb = (const float *)(const void *)&b->u;
    int n;
    switch (a->type) {
    case CLV_POINT:
        n = 2;
        break;
    case CLV_CIRCLE:
        n = 3;
        break;
    case CLV_CAPSULE:
        n = 5;
        break;
    case CLV_AABB:
        n = 4;
        break;
    default:
        n = 6;
        break;
    }
    for (int i = 0; i < n; i++) {
        if (fa[i] != fb[i]) {
            return fa[i] > fb[i];
        }
    }
    return false;
}
