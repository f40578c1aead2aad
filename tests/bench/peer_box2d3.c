/* Box2D v3 (the C rewrite) on the benchmark's pairs and frames, each as a Box2D user would
 * write it, in the same pixel units as cleave.
 * - capsule-capsule: b2SegmentDistance between the cores, compared against the sum of radii
 *   (squared; touching counts as apart, as in cleave);
 * - circle-obb: b2CollidePolygonAndCircle; obb-obb: b2CollidePolygons. Their manifolds also
 *   carry speculative points (shapes apart by a small gap), so a pair overlaps when a point has
 *   a negative separation;
 * - an obb is b2MakeOffsetBox at its centre, its rotation exactly the obb's axis.
 * The frame (a crowd of circles against 64 boxes) is given to b2DynamicTree three ways, since
 * which is fastest depends on the crowd's size: see the three tree peers at the bottom. */
#include <box2d/box2d.h>
#include <box2d/collision.h>
#include <box2d/math_functions.h>

#include <stdlib.h>

#include "peers.h"

typedef enum method { SEGMENTS, POLYGON_CIRCLE, POLYGONS } method;

typedef struct pair_set {
    method how;
    size_t n;
    b2Capsule *ca, *cb; /* SEGMENTS */
    b2Polygon *pa, *pb; /* POLYGON_CIRCLE (pa only) and POLYGONS */
    b2Circle *circle;   /* POLYGON_CIRCLE */
} pair_set;

static void *alloc_or_die(size_t n) {
    void *p = calloc(n == 0 ? 1 : n, 1);
    if (p == NULL)
        abort();
    return p;
}

static b2Vec2 vec(clv_vec2 v) { return (b2Vec2){v.x, v.y}; }

static b2Polygon polygon_of(const clv_obb *o) {
    return b2MakeOffsetBox(o->h.x, o->h.y, vec(o->c), (b2Rot){o->u.x, o->u.y});
}

static const char *method_name(clv_shape_type ta, clv_shape_type tb) {
    if (ta == CLV_CAPSULE && tb == CLV_CAPSULE)
        return "b2SegmentDistance";
    if (ta == CLV_CIRCLE && tb == CLV_OBB)
        return "b2CollidePolygonAndCircle";
    if (ta == CLV_OBB && tb == CLV_OBB)
        return "b2CollidePolygons";
    return NULL;
}

static void *prepare(const clv_shape *a, const clv_shape *b, size_t n) {
    if (n == 0 || method_name(a[0].type, b[0].type) == NULL)
        return NULL;
    pair_set *s = alloc_or_die(sizeof *s);
    s->n = n;
    if (a[0].type == CLV_CAPSULE) {
        s->how = SEGMENTS;
        s->ca = alloc_or_die(n * sizeof *s->ca), s->cb = alloc_or_die(n * sizeof *s->cb);
        for (size_t i = 0; i < n; i++) {
            const clv_capsule *x = &a[i].u.capsule, *y = &b[i].u.capsule;
            s->ca[i] = (b2Capsule){vec(x->a), vec(x->b), x->r};
            s->cb[i] = (b2Capsule){vec(y->a), vec(y->b), y->r};
        }
    } else if (a[0].type == CLV_CIRCLE) {
        s->how = POLYGON_CIRCLE;
        s->pa = alloc_or_die(n * sizeof *s->pa), s->circle = alloc_or_die(n * sizeof *s->circle);
        for (size_t i = 0; i < n; i++) {
            s->pa[i] = polygon_of(&b[i].u.obb);
            s->circle[i] = (b2Circle){vec(a[i].u.circle.c), a[i].u.circle.r};
        }
    } else {
        s->how = POLYGONS;
        s->pa = alloc_or_die(n * sizeof *s->pa), s->pb = alloc_or_die(n * sizeof *s->pb);
        for (size_t i = 0; i < n; i++)
            s->pa[i] = polygon_of(&a[i].u.obb), s->pb[i] = polygon_of(&b[i].u.obb);
    }
    return s;
}

static uint8_t penetrates(const b2LocalManifold *m) {
    uint8_t hit = 0;
    for (int k = 0; k < m->pointCount; k++)
        hit |= m->points[k].separation < 0.0f;
    return hit;
}

static size_t run(void *p, uint8_t *out) {
    const pair_set *s = p;
    const b2Transform id = b2Transform_identity;
    size_t hits = 0;
    for (size_t i = 0; i < s->n; i++) {
        uint8_t hit;
        if (s->how == SEGMENTS) {
            const b2Capsule *x = &s->ca[i], *y = &s->cb[i];
            b2SegmentDistanceResult d =
                b2SegmentDistance(x->center1, x->center2, y->center1, y->center2);
            float rr = x->radius + y->radius;
            hit = d.distanceSquared < rr * rr;
        } else if (s->how == POLYGON_CIRCLE) {
            b2LocalManifold m = b2CollidePolygonAndCircle(&s->pa[i], &s->circle[i], id);
            hit = penetrates(&m);
        } else {
            b2LocalManifold m = b2CollidePolygons(&s->pa[i], &s->pb[i], id);
            hit = penetrates(&m);
        }
        out[i] = hit;
        hits += hit;
    }
    return hits;
}

static void destroy(void *p) {
    pair_set *s = p;
    free(s->ca), free(s->cb), free(s->pa), free(s->pb), free(s->circle);
    free(s);
}

const bench_peer bench_box2d3 = {"box2d-3", method_name, prepare, run, destroy};

/* ---- the frame: a crowd of circles against 64 boxes ---- */

/* The fat margin of the two ways that keep the crowd in a tree, in pixels: the larger the
 * margin, the fewer boxes move and the more each query finds. After 20 warm-up frames of a crowd
 * moving up to 3 px a frame on each axis, the faster of the two ways took at 10k enemies 650 us
 * with a margin of 4, 717 with 8, 473 with 16 and 267 with 32 (at 100k: 11.4, 11.9, 8.3 and
 * 6.7 ms); the bench keeps the best. */
#define MARGIN 32.0f

typedef struct crowd_tree {
    b2DynamicTree tree;
    b2AABB *fat; /* the box each entity has in the tree */
    int *id;     /* its proxy */
    const float *x, *y, *r;
    clv_aabb q; /* the box being queried, or the entity's square */
    uint64_t hits;
} crowd_tree;

static b2AABB square(float x, float y, float r) { return (b2AABB){{x - r, y - r}, {x + r, y + r}}; }

static b2AABB grown(b2AABB b, float m) {
    return (b2AABB){{b.lowerBound.x - m, b.lowerBound.y - m},
                    {b.upperBound.x + m, b.upperBound.y + m}};
}

static b2AABB box_of(clv_aabb q) { return (b2AABB){{q.min.x, q.min.y}, {q.max.x, q.max.y}}; }

/* The tree answers with fat boxes: count the entities whose own square meets the query. */
static bool count_entity(int proxy, uint64_t user, void *context) {
    (void)proxy;
    crowd_tree *t = context;
    uint32_t i = (uint32_t)user;
    float x = t->x[i], y = t->y[i], r = t->r[i];
    t->hits += (x - r <= t->q.max.x) & (x + r >= t->q.min.x) & (y - r <= t->q.max.y) &
               (y + r >= t->q.min.y);
    return true;
}

static void *crowd_create(const float *x, const float *y, const float *r, uint32_t n) {
    crowd_tree *t = alloc_or_die(sizeof *t);
    t->tree = b2DynamicTree_Create((int)n);
    t->fat = alloc_or_die(n * sizeof *t->fat);
    t->id = alloc_or_die(n * sizeof *t->id);
    for (uint32_t i = 0; i < n; i++) {
        t->fat[i] = grown(square(x[i], y[i], r[i]), MARGIN);
        t->id[i] = b2DynamicTree_CreateProxy(&t->tree, t->fat[i], B2_DEFAULT_CATEGORY_BITS, i);
    }
    b2DynamicTree_Rebuild(&t->tree, true);
    return t;
}

static uint64_t crowd_queries(crowd_tree *t, const float *x, const float *y, const float *r,
                              const clv_aabb *q, uint32_t nq) {
    t->x = x, t->y = y, t->r = r, t->hits = 0;
    for (uint32_t k = 0; k < nq; k++) {
        t->q = q[k];
        b2DynamicTree_QueryAll(&t->tree, box_of(q[k]), count_entity, t);
    }
    return t->hits;
}

static uint64_t move_frame(void *p, const float *x, const float *y, const float *r, const float *dx,
                           const float *dy, uint32_t n, const clv_aabb *q, uint32_t nq) {
    (void)dx, (void)dy;
    crowd_tree *t = p;
    for (uint32_t i = 0; i < n; i++) {
        b2AABB tight = square(x[i], y[i], r[i]);
        if (!b2AABB_Contains(t->fat[i], tight)) {
            t->fat[i] = grown(tight, MARGIN);
            b2DynamicTree_MoveProxy(&t->tree, t->id[i], t->fat[i]);
        }
    }
    return crowd_queries(t, x, y, r, q, nq);
}

/* Box2D v3's own broadphase way: enlarge the boxes that escaped, then rebuild what grew. */
static uint64_t enlarge_frame(void *p, const float *x, const float *y, const float *r,
                              const float *dx, const float *dy, uint32_t n, const clv_aabb *q,
                              uint32_t nq) {
    (void)dx, (void)dy;
    crowd_tree *t = p;
    for (uint32_t i = 0; i < n; i++) {
        b2AABB tight = square(x[i], y[i], r[i]);
        if (!b2AABB_Contains(t->fat[i], tight)) {
            t->fat[i] = grown(tight, MARGIN);
            b2DynamicTree_EnlargeProxy(&t->tree, t->id[i], t->fat[i]);
        }
    }
    b2DynamicTree_Rebuild(&t->tree, false);
    return crowd_queries(t, x, y, r, q, nq);
}

static void crowd_destroy(void *p) {
    crowd_tree *t = p;
    b2DynamicTree_Destroy(&t->tree);
    free(t->fat), free(t->id);
    free(t);
}

/* The other way round: the 64 boxes in a tree made afresh each frame, one query per entity. */
typedef struct box_tree {
    const clv_aabb *q;
    float x, y, r;
    uint64_t hits;
} box_tree;

static bool count_box(int proxy, uint64_t user, void *context) {
    (void)proxy;
    box_tree *b = context;
    const clv_aabb *q = &b->q[user];
    b->hits += (b->x - b->r <= q->max.x) & (b->x + b->r >= q->min.x) & (b->y - b->r <= q->max.y) &
               (b->y + b->r >= q->min.y);
    return true;
}

static void *boxes_create(const float *x, const float *y, const float *r, uint32_t n) {
    (void)x, (void)y, (void)r, (void)n;
    return alloc_or_die(1);
}

static uint64_t boxes_frame(void *p, const float *x, const float *y, const float *r,
                            const float *dx, const float *dy, uint32_t n, const clv_aabb *q,
                            uint32_t nq) {
    (void)p, (void)dx, (void)dy;
    b2DynamicTree tree = b2DynamicTree_Create((int)nq);
    for (uint32_t k = 0; k < nq; k++)
        b2DynamicTree_CreateProxy(&tree, box_of(q[k]), B2_DEFAULT_CATEGORY_BITS, k);
    b2DynamicTree_Rebuild(&tree, true);
    box_tree b = {q, 0.0f, 0.0f, 0.0f, 0};
    for (uint32_t i = 0; i < n; i++) {
        b.x = x[i], b.y = y[i], b.r = r[i];
        b2DynamicTree_QueryAll(&tree, square(x[i], y[i], r[i]), count_box, &b);
    }
    b2DynamicTree_Destroy(&tree);
    return b.hits;
}

static void boxes_destroy(void *p) { free(p); }

const bench_peer_tree bench_box2d3_boxes = {"box2d-3 tree of the boxes", boxes_create, boxes_frame,
                                            boxes_destroy};
const bench_peer_tree bench_box2d3_move = {"box2d-3 MoveProxy", crowd_create, move_frame,
                                           crowd_destroy};
const bench_peer_tree bench_box2d3_enlarge = {"box2d-3 enlarge + rebuild", crowd_create,
                                              enlarge_frame, crowd_destroy};
