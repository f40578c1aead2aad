// Box2D 2.4 on the benchmark's pairs: each pair as a Box2D user would write it.
// - capsule: Box2D 2.4 has none; b2Distance on a 2-point proxy with radius r, compared
//   against the sum of radii (useRadii off, so that touching counts as apart, as in cleave);
// - circle-circle: b2CollideCircles; circle-obb: b2CollidePolygonAndCircle; obb-obb:
//   b2CollidePolygons; a pair overlaps when the manifold has a point;
// - polygons get m_radius = 0, else they carry a 0.01 skin;
// - an obb is a b2PolygonShape box in its own frame plus a b2Transform whose rotation is
//   exactly the obb's axis (no sin/cos round trip).
#include <box2d/b2_distance.h>
#include <box2d/b2_dynamic_tree.h>
#include <box2d/box2d.h>

#include <cstdint>
#include <vector>

#include "peers.h"

namespace {

enum Method { CIRCLES, POLYGON_CIRCLE, POLYGONS, DISTANCE };

struct Side {
    std::vector<b2CircleShape> circle;
    std::vector<b2PolygonShape> poly;
    std::vector<b2Transform> xf;
    std::vector<b2Vec2> verts; // 2 per pair: the proxy's points (capsule ends, or one centre)
    std::vector<b2DistanceProxy> proxy;
};

struct Set {
    Method method;
    bool swap; // the polygon is b's shape while Box2D wants it first
    size_t n;
    Side a, b;
};

b2Transform identity() {
    b2Transform xf;
    xf.SetIdentity();
    return xf;
}

void fill(Side &side, const clv_shape *s, size_t n, Method method) {
    side.circle.resize(n);
    side.poly.resize(n);
    side.xf.resize(n);
    side.verts.resize(2 * n);
    side.proxy.resize(n);
    for (size_t i = 0; i < n; i++) {
        const clv_shape &sh = s[i];
        b2Transform xf = identity();
        float r = 0.0f;
        int count = 1;
        switch (sh.type) {
        case CLV_POINT:
            side.verts[2 * i].Set(sh.u.point.x, sh.u.point.y);
            break;
        case CLV_CIRCLE:
            side.verts[2 * i].Set(sh.u.circle.c.x, sh.u.circle.c.y);
            r = sh.u.circle.r;
            break;
        case CLV_CAPSULE:
            side.verts[2 * i].Set(sh.u.capsule.a.x, sh.u.capsule.a.y);
            side.verts[2 * i + 1].Set(sh.u.capsule.b.x, sh.u.capsule.b.y);
            r = sh.u.capsule.r;
            count = 2;
            break;
        case CLV_OBB: {
            const clv_obb &o = sh.u.obb;
            side.poly[i].SetAsBox(o.h.x, o.h.y);
            side.poly[i].m_radius = 0.0f;
            xf.p.Set(o.c.x, o.c.y);
            xf.q.c = o.u.x;
            xf.q.s = o.u.y;
            break;
        }
        default:
            break;
        }
        side.xf[i] = xf;
        if (sh.type != CLV_OBB) {
            side.circle[i].m_p = side.verts[2 * i];
            side.circle[i].m_radius = r;
        }
        if (method == DISTANCE) {
            if (sh.type == CLV_OBB)
                side.proxy[i].Set(side.poly[i].m_vertices, 4, 0.0f);
            else
                side.proxy[i].Set(&side.verts[2 * i], count, r);
        }
    }
}

const char *method_name(clv_shape_type ta, clv_shape_type tb) {
    if (ta == CLV_AABB || tb == CLV_AABB)
        return nullptr;
    if (ta == CLV_CAPSULE || tb == CLV_CAPSULE)
        return "b2Distance";
    if (ta == CLV_OBB && tb == CLV_OBB)
        return "b2CollidePolygons";
    if (ta == CLV_OBB || tb == CLV_OBB)
        return "b2CollidePolygonAndCircle";
    return "b2CollideCircles";
}

void *prepare(const clv_shape *a, const clv_shape *b, size_t n) {
    if (n == 0 || method_name(a[0].type, b[0].type) == nullptr)
        return nullptr;
    clv_shape_type ta = a[0].type, tb = b[0].type;
    Set *set = new Set;
    set->n = n;
    set->swap = false;
    if (ta == CLV_CAPSULE || tb == CLV_CAPSULE)
        set->method = DISTANCE;
    else if (ta == CLV_OBB && tb == CLV_OBB)
        set->method = POLYGONS;
    else if (ta == CLV_OBB || tb == CLV_OBB) {
        set->method = POLYGON_CIRCLE;
        set->swap = tb == CLV_OBB;
    } else
        set->method = CIRCLES;
    if (set->swap) {
        fill(set->a, b, n, set->method);
        fill(set->b, a, n, set->method);
    } else {
        fill(set->a, a, n, set->method);
        fill(set->b, b, n, set->method);
    }
    return set;
}

size_t run(void *p, uint8_t *out) {
    const Set &s = *static_cast<Set *>(p);
    size_t hits = 0;
    b2Transform id = identity();
    switch (s.method) {
    case CIRCLES:
        for (size_t i = 0; i < s.n; i++) {
            b2Manifold m;
            b2CollideCircles(&m, &s.a.circle[i], id, &s.b.circle[i], id);
            uint8_t hit = m.pointCount > 0;
            out[i] = hit;
            hits += hit;
        }
        break;
    case POLYGON_CIRCLE:
        for (size_t i = 0; i < s.n; i++) {
            b2Manifold m;
            b2CollidePolygonAndCircle(&m, &s.a.poly[i], s.a.xf[i], &s.b.circle[i], id);
            uint8_t hit = m.pointCount > 0;
            out[i] = hit;
            hits += hit;
        }
        break;
    case POLYGONS:
        for (size_t i = 0; i < s.n; i++) {
            b2Manifold m;
            b2CollidePolygons(&m, &s.a.poly[i], s.a.xf[i], &s.b.poly[i], s.b.xf[i]);
            uint8_t hit = m.pointCount > 0;
            out[i] = hit;
            hits += hit;
        }
        break;
    case DISTANCE:
        for (size_t i = 0; i < s.n; i++) {
            b2DistanceInput in;
            in.proxyA = s.a.proxy[i];
            in.proxyB = s.b.proxy[i];
            in.transformA = s.a.xf[i];
            in.transformB = s.b.xf[i];
            in.useRadii = false;
            b2SimplexCache cache;
            cache.count = 0;
            b2DistanceOutput o;
            b2Distance(&o, &cache, &in);
            uint8_t hit = o.distance < s.a.proxy[i].m_radius + s.b.proxy[i].m_radius;
            out[i] = hit;
            hits += hit;
        }
        break;
    }
    return hits;
}

void destroy(void *p) { delete static_cast<Set *>(p); }

// ---- The dynamic tree with MoveProxy, in metres (1 m = 32 px, a power of two, so the
// scaling is exact): Box2D's fat margin of 0.1 is meant for metre-sized bodies. ----

const float kScale = 1.0f / 32.0f;

struct Tree {
    b2DynamicTree tree;
    std::vector<int32> ids;
};

b2AABB square(float x, float y, float r) {
    b2AABB box;
    box.lowerBound.Set((x - r) * kScale, (y - r) * kScale);
    box.upperBound.Set((x + r) * kScale, (y + r) * kScale);
    return box;
}

struct Query {
    const b2DynamicTree *tree;
    const float *x, *y, *r;
    clv_aabb q;
    uint64_t hits;
    bool QueryCallback(int32 proxy) {
        uint32_t i = (uint32_t)(uintptr_t)tree->GetUserData(proxy);
        // The tree answers with fat boxes; keep the entities whose own box meets q.
        hits += (x[i] - r[i] <= q.max.x) & (x[i] + r[i] >= q.min.x) & (y[i] - r[i] <= q.max.y) &
                (y[i] + r[i] >= q.min.y);
        return true;
    }
};

void *tree_create(const float *x, const float *y, const float *r, uint32_t n) {
    Tree *t = new Tree;
    t->ids.resize(n);
    for (uint32_t i = 0; i < n; i++)
        t->ids[i] = t->tree.CreateProxy(square(x[i], y[i], r[i]), (void *)(uintptr_t)i);
    return t;
}

uint64_t tree_frame(void *p, const float *x, const float *y, const float *r, const float *dx,
                    const float *dy, uint32_t n, const clv_aabb *q, uint32_t nq) {
    Tree *t = static_cast<Tree *>(p);
    for (uint32_t i = 0; i < n; i++)
        t->tree.MoveProxy(t->ids[i], square(x[i], y[i], r[i]),
                          b2Vec2(dx[i] * kScale, dy[i] * kScale));
    Query cb{&t->tree, x, y, r, clv_aabb(), 0};
    for (uint32_t k = 0; k < nq; k++) {
        cb.q = q[k];
        b2AABB box;
        box.lowerBound.Set(q[k].min.x * kScale, q[k].min.y * kScale);
        box.upperBound.Set(q[k].max.x * kScale, q[k].max.y * kScale);
        t->tree.Query(&cb, box);
    }
    return cb.hits;
}

void tree_destroy(void *p) { delete static_cast<Tree *>(p); }

} // namespace

extern "C" const bench_peer bench_box2d = {"box2d-2.4", method_name, prepare, run, destroy};
extern "C" const bench_peer_tree bench_box2d_tree = {"box2d-2.4 b2DynamicTree", tree_create,
                                                     tree_frame, tree_destroy};
