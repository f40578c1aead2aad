/* Chipmunk2D 7 on the benchmark's pairs, as a Chipmunk user would write them: a capsule is a
 * segment shape with a radius, an obb a 4-vertex polygon of radius 0, a point a circle of
 * radius 0; every shape hangs off one static body and is placed once with cpShapeUpdate; a
 * pair overlaps when cpShapesCollide returns a contact. Chipmunk computes in double: the
 * float inputs convert exactly. */
#include <stdlib.h>

#include <chipmunk/chipmunk.h>

#include "peers.h"

typedef struct chipmunk_set {
    cpBody *body;
    size_t n;
    cpShape **a, **b;
} chipmunk_set;

static const char *method(clv_shape_type ta, clv_shape_type tb) {
    if (ta == CLV_AABB || tb == CLV_AABB)
        return NULL;
    return "cpShapesCollide";
}

static cpShape *make_shape(cpBody *body, const clv_shape *s) {
    cpShape *shape = NULL;
    switch (s->type) {
    case CLV_POINT:
        shape = cpCircleShapeNew(body, 0.0, cpv(s->u.point.x, s->u.point.y));
        break;
    case CLV_CIRCLE:
        shape = cpCircleShapeNew(body, s->u.circle.r, cpv(s->u.circle.c.x, s->u.circle.c.y));
        break;
    case CLV_CAPSULE: {
        const clv_capsule *c = &s->u.capsule;
        shape = cpSegmentShapeNew(body, cpv(c->a.x, c->a.y), cpv(c->b.x, c->b.y), c->r);
        break;
    }
    case CLV_OBB: {
        const clv_obb *o = &s->u.obb;
        cpVect u = cpv(o->u.x, o->u.y), v = cpv(-o->u.y, o->u.x), c = cpv(o->c.x, o->c.y);
        cpVect hu = cpvmult(u, o->h.x), hv = cpvmult(v, o->h.y);
        /* Counter-clockwise in Chipmunk's y-up sense, as cpPolyShapeNewRaw requires. */
        cpVect verts[4] = {cpvsub(cpvsub(c, hu), hv), cpvsub(cpvadd(c, hu), hv),
                           cpvadd(cpvadd(c, hu), hv), cpvadd(cpvsub(c, hu), hv)};
        shape = cpPolyShapeNewRaw(body, 4, verts, 0.0);
        break;
    }
    default:
        return NULL;
    }
    cpShapeUpdate(shape, cpTransformIdentity);
    return shape;
}

static void destroy(void *p) {
    chipmunk_set *set = p;
    for (size_t i = 0; i < set->n; i++) {
        if (set->a[i] != NULL)
            cpShapeFree(set->a[i]);
        if (set->b[i] != NULL)
            cpShapeFree(set->b[i]);
    }
    free(set->a);
    free(set->b);
    cpBodyFree(set->body);
    free(set);
}

static void *prepare(const clv_shape *a, const clv_shape *b, size_t n) {
    if (n == 0 || method(a[0].type, b[0].type) == NULL)
        return NULL;
    chipmunk_set *set = calloc(1, sizeof *set);
    set->body = cpBodyNewStatic();
    set->n = n;
    set->a = calloc(n, sizeof(cpShape *));
    set->b = calloc(n, sizeof(cpShape *));
    for (size_t i = 0; i < n; i++) {
        set->a[i] = make_shape(set->body, &a[i]);
        set->b[i] = make_shape(set->body, &b[i]);
    }
    return set;
}

static size_t run(void *p, uint8_t *out) {
    const chipmunk_set *set = p;
    size_t hits = 0;
    for (size_t i = 0; i < set->n; i++) {
        cpContactPointSet contacts = cpShapesCollide(set->a[i], set->b[i]);
        uint8_t hit = contacts.count > 0;
        out[i] = hit;
        hits += hit;
    }
    return hits;
}

const bench_peer bench_chipmunk = {"chipmunk-7", method, prepare, run, destroy};

/* ---- A cpSpace whose BBTree re-indexes every moved shape (one kinematic body each). ---- */

typedef struct chipmunk_tree {
    cpSpace *space;
    uint32_t n;
    cpBody **bodies;
    cpShape **shapes;
} chipmunk_tree;

typedef struct query_ctx {
    const float *x, *y, *r;
    clv_aabb q;
    uint64_t hits;
} query_ctx;

static void *tree_create(const float *x, const float *y, const float *r, uint32_t n) {
    chipmunk_tree *t = calloc(1, sizeof *t);
    t->space = cpSpaceNew();
    t->n = n;
    t->bodies = calloc(n, sizeof(cpBody *));
    t->shapes = calloc(n, sizeof(cpShape *));
    for (uint32_t i = 0; i < n; i++) {
        t->bodies[i] = cpSpaceAddBody(t->space, cpBodyNewKinematic());
        cpBodySetPosition(t->bodies[i], cpv(x[i], y[i]));
        t->shapes[i] = cpSpaceAddShape(t->space, cpCircleShapeNew(t->bodies[i], r[i], cpvzero));
        /* The index stores the entity number, for the exact box filter below. */
        cpShapeSetUserData(t->shapes[i], (cpDataPointer)(uintptr_t)i);
    }
    return t;
}

static void query_cb(cpShape *shape, void *data) {
    query_ctx *c = data;
    uint32_t i = (uint32_t)(uintptr_t)cpShapeGetUserData(shape);
    c->hits += (c->x[i] - c->r[i] <= c->q.max.x) & (c->x[i] + c->r[i] >= c->q.min.x) &
               (c->y[i] - c->r[i] <= c->q.max.y) & (c->y[i] + c->r[i] >= c->q.min.y);
}

static uint64_t tree_frame(void *p, const float *x, const float *y, const float *r, const float *dx,
                           const float *dy, uint32_t n, const clv_aabb *q, uint32_t nq) {
    chipmunk_tree *t = p;
    for (uint32_t i = 0; i < n; i++) {
        cpBodySetPosition(t->bodies[i], cpv(x[i], y[i]));
        /* Velocity in units per second at 60 Hz: the tree uses it to predict bounds. */
        cpBodySetVelocity(t->bodies[i], cpv(dx[i] * 60.0f, dy[i] * 60.0f));
        cpSpaceReindexShapesForBody(t->space, t->bodies[i]);
    }
    query_ctx ctx = {x, y, r, {{0, 0}, {0, 0}}, 0};
    for (uint32_t k = 0; k < nq; k++) {
        ctx.q = q[k];
        cpSpaceBBQuery(t->space, cpBBNew(q[k].min.x, q[k].min.y, q[k].max.x, q[k].max.y),
                       CP_SHAPE_FILTER_ALL, query_cb, &ctx);
    }
    return ctx.hits;
}

static void tree_destroy(void *p) {
    chipmunk_tree *t = p;
    for (uint32_t i = 0; i < t->n; i++) {
        cpSpaceRemoveShape(t->space, t->shapes[i]);
        cpSpaceRemoveBody(t->space, t->bodies[i]);
        cpShapeFree(t->shapes[i]);
        cpBodyFree(t->bodies[i]);
    }
    cpSpaceFree(t->space);
    free(t->bodies);
    free(t->shapes);
    free(t);
}

const bench_peer_tree bench_chipmunk_tree = {"chipmunk-7 cpSpace BBTree", tree_create, tree_frame,
                                             tree_destroy};
