/* Differential test, generator half.
 *
 * Makes random shape pairs, asks the float API (clv_overlap both ways, clv_distance both ways)
 * and the exact API (clv_exact_overlap both ways) about them, and prints one line per pair with
 * every input in exact form, so that oracle.py can decide the same pairs with rationals.
 *
 * Usage: oracle_gen SEED FLOAT_COUNT EXACT_COUNT
 *        oracle_gen --replay FILE   (re-asks the APIs about the pairs of earlier lines, so
 *                                    that cases found once are kept as a regression corpus;
 *                                    blank lines and lines starting with # are skipped)
 *
 * Line formats (fields separated by one space; floats in C99 hex form, integers in decimal):
 *   F <kind> <shape a> <shape b> <overlap(a,b)> <overlap(b,a)> <distance(a,b)> <distance(b,a)>
 *   E <kind> <ishape a> <ishape b> <exact_overlap(a,b)> <exact_overlap(b,a)>
 * A shape is its type name then its STORED fields:
 *   point x y | circle x y r | capsule ax ay bx by r | aabb minx miny maxx maxy |
 *   obb cx cy hx hy ux uy   (u as stored, not renormalised)
 * An ishape is the same with integers (no obb).
 *
 * Most pairs are built near the touching boundary or in a degenerate configuration, because
 * that is where geometry code goes wrong; the rest are independent random shapes.
 */
#include <cleave/collide.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Random numbers: splitmix64, so a seed gives the same pairs on every machine. ---- */

typedef struct gen_rng {
    uint64_t s;
} gen_rng;

static uint64_t rng_next(gen_rng *g) {
    uint64_t z = (g->s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double rng_unit(gen_rng *g) { return (double)(rng_next(g) >> 11) * 0x1p-53; }

static double rng_range(gen_rng *g, double lo, double hi) { return lo + (hi - lo) * rng_unit(g); }

static bool rng_chance(gen_rng *g, double p) { return rng_unit(g) < p; }

static int rng_below(gen_rng *g, int n) { return (int)(rng_next(g) % (uint64_t)n); }

/* Uniform integer in [lo, hi]. */
static int64_t rng_int(gen_rng *g, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)(hi - lo) + 1u;
    return lo + (int64_t)(rng_next(g) % span);
}

/* lo * (hi/lo)^u: every order of magnitude equally likely. */
static double rng_log(gen_rng *g, double lo, double hi) { return lo * pow(hi / lo, rng_unit(g)); }

static int64_t i64abs(int64_t v) { return v < 0 ? -v : v; }

static double rng_sign(gen_rng *g) { return rng_chance(g, 0.5) ? 1.0 : -1.0; }

static const double gen_pi = 3.14159265358979323846;

/* ---- Float pairs ---- */

/* The region a pair lives in: centre (ox, oy), size s (log-uniform in 1..1e5). */
typedef struct gen_region {
    double s, ox, oy;
} gen_region;

static void rand_pos(gen_rng *g, const gen_region *rg, double *x, double *y) {
    *x = rg->ox + rng_range(g, -0.5, 0.5) * rg->s;
    *y = rg->oy + rng_range(g, -0.5, 0.5) * rg->s;
}

static double rand_radius(gen_rng *g, const gen_region *rg) {
    if (rng_chance(g, 0.08)) {
        return 0.0;
    }
    return rg->s * rng_log(g, 1e-3, 0.5);
}

static double rand_extent(gen_rng *g, const gen_region *rg) {
    return rg->s * rng_log(g, 1e-3, 0.5);
}

static void rand_dir(gen_rng *g, double *dx, double *dy) {
    double a = rng_range(g, 0.0, 2.0 * gen_pi);
    *dx = cos(a);
    *dy = sin(a);
}

static clv_shape rand_shape(gen_rng *g, const gen_region *rg, clv_shape_type type) {
    double x, y;
    rand_pos(g, rg, &x, &y);
    switch (type) {
    case CLV_POINT:
        return clv_shape_point((float)x, (float)y);
    case CLV_CIRCLE:
        return clv_shape_circle((float)x, (float)y, (float)rand_radius(g, rg));
    case CLV_CAPSULE: {
        double dx, dy, len = rng_chance(g, 0.08) ? 0.0 : rg->s * rng_log(g, 1e-3, 1.0);
        rand_dir(g, &dx, &dy);
        return clv_shape_capsule((float)x, (float)y, (float)(x + len * dx), (float)(y + len * dy),
                                 (float)rand_radius(g, rg));
    }
    case CLV_AABB: {
        double hx = rand_extent(g, rg), hy = rand_extent(g, rg);
        int degenerate = rng_below(g, 40);
        if (degenerate == 0 || degenerate == 2) {
            hx = 0.0;
        }
        if (degenerate == 1 || degenerate == 2) {
            hy = 0.0;
        }
        return clv_shape_aabb((float)(x - hx), (float)(y - hy), (float)(x + hx), (float)(y + hy));
    }
    case CLV_OBB:
    default: {
        double hx = rand_extent(g, rg), hy = rand_extent(g, rg);
        double angle = rng_chance(g, 0.15) ? (double)rng_below(g, 8) * gen_pi / 4.0
                                           : rng_range(g, -gen_pi, gen_pi);
        int degenerate = rng_below(g, 40);
        if (degenerate == 0 || degenerate == 2) {
            hx = 0.0;
        }
        if (degenerate == 1 || degenerate == 2) {
            hy = 0.0;
        }
        return clv_shape_obb((float)x, (float)y, (float)hx, (float)hy, (float)angle);
    }
    }
}

static bool is_round(clv_shape_type t) {
    return t == CLV_POINT || t == CLV_CIRCLE || t == CLV_CAPSULE;
}

static void obb_axes(const clv_obb *o, double e1[2], double e2[2]) {
    double ux = (double)o->u.x, uy = (double)o->u.y;
    e1[0] = (double)o->h.x * ux;
    e1[1] = (double)o->h.x * uy;
    e2[0] = -(double)o->h.y * uy;
    e2[1] = (double)o->h.y * ux;
}

static clv_vec2 moved(clv_vec2 v, double dx, double dy) {
    return clv_v2((float)((double)v.x + dx), (float)((double)v.y + dy));
}

static void shape_move(clv_shape *s, double dx, double dy) {
    switch (s->type) {
    case CLV_POINT:
        s->u.point = moved(s->u.point, dx, dy);
        break;
    case CLV_CIRCLE:
        s->u.circle.c = moved(s->u.circle.c, dx, dy);
        break;
    case CLV_CAPSULE:
        s->u.capsule.a = moved(s->u.capsule.a, dx, dy);
        s->u.capsule.b = moved(s->u.capsule.b, dx, dy);
        break;
    case CLV_AABB:
        s->u.aabb.min = moved(s->u.aabb.min, dx, dy);
        s->u.aabb.max = moved(s->u.aabb.max, dx, dy);
        break;
    case CLV_OBB:
    default:
        s->u.obb.c = moved(s->u.obb.c, dx, dy);
        break;
    }
}

/* A reference point of the shape: the one that "inside" placements move. */
static void shape_anchor(const clv_shape *s, double *x, double *y) {
    switch (s->type) {
    case CLV_POINT:
        *x = (double)s->u.point.x, *y = (double)s->u.point.y;
        break;
    case CLV_CIRCLE:
        *x = (double)s->u.circle.c.x, *y = (double)s->u.circle.c.y;
        break;
    case CLV_CAPSULE:
        *x = (double)s->u.capsule.a.x, *y = (double)s->u.capsule.a.y;
        break;
    case CLV_AABB:
        *x = 0.5 * ((double)s->u.aabb.min.x + (double)s->u.aabb.max.x);
        *y = 0.5 * ((double)s->u.aabb.min.y + (double)s->u.aabb.max.y);
        break;
    case CLV_OBB:
    default:
        *x = (double)s->u.obb.c.x, *y = (double)s->u.obb.c.y;
        break;
    }
}

/* A random point of the shape (its interior when it has one). */
static void point_inside(gen_rng *g, const clv_shape *s, double *x, double *y) {
    switch (s->type) {
    case CLV_POINT:
        *x = (double)s->u.point.x, *y = (double)s->u.point.y;
        break;
    case CLV_CIRCLE: {
        double dx, dy, d = rng_unit(g) * (double)s->u.circle.r;
        rand_dir(g, &dx, &dy);
        *x = (double)s->u.circle.c.x + d * dx, *y = (double)s->u.circle.c.y + d * dy;
        break;
    }
    case CLV_CAPSULE: {
        const clv_capsule *c = &s->u.capsule;
        double t = rng_unit(g), dx, dy, d = rng_unit(g) * (double)c->r;
        rand_dir(g, &dx, &dy);
        *x = (double)c->a.x + t * ((double)c->b.x - (double)c->a.x) + d * dx;
        *y = (double)c->a.y + t * ((double)c->b.y - (double)c->a.y) + d * dy;
        break;
    }
    case CLV_AABB: {
        const clv_aabb *b = &s->u.aabb;
        *x = rng_range(g, (double)b->min.x, (double)b->max.x);
        *y = rng_range(g, (double)b->min.y, (double)b->max.y);
        break;
    }
    case CLV_OBB:
    default: {
        double e1[2], e2[2], a = rng_range(g, -1, 1), b = rng_range(g, -1, 1);
        obb_axes(&s->u.obb, e1, e2);
        *x = (double)s->u.obb.c.x + a * e1[0] + b * e2[0];
        *y = (double)s->u.obb.c.y + a * e1[1] + b * e2[1];
        break;
    }
    }
}

/* A gap for a near-touching pair: mostly a little outside the oracle's band (1e-4 of the
 * pair's scale), sometimes inside it or exactly zero, either sign. */
static double rand_gap(gen_rng *g, double s) {
    double u = rng_unit(g);
    if (u < 0.92) {
        return rng_sign(g) * s * pow(10.0, rng_range(g, -3.5, -1.3));
    }
    if (u < 0.97) {
        return rng_sign(g) * s * pow(10.0, rng_range(g, -9.0, -4.2));
    }
    return 0.0;
}

/* A point of s extreme in direction n (a random one when a whole side is extreme). */
static void support_point(gen_rng *g, const clv_shape *s, double nx, double ny, double *x,
                          double *y) {
    const double tie = 1e-9;
    if (is_round(s->type)) {
        double ax, ay, bx, by, r;
        if (s->type == CLV_POINT) {
            ax = bx = (double)s->u.point.x, ay = by = (double)s->u.point.y, r = 0.0;
        } else if (s->type == CLV_CIRCLE) {
            ax = bx = (double)s->u.circle.c.x, ay = by = (double)s->u.circle.c.y;
            r = (double)s->u.circle.r;
        } else {
            ax = (double)s->u.capsule.a.x, ay = (double)s->u.capsule.a.y;
            bx = (double)s->u.capsule.b.x, by = (double)s->u.capsule.b.y;
            r = (double)s->u.capsule.r;
        }
        double da = nx * ax + ny * ay, db = nx * bx + ny * by, len = hypot(bx - ax, by - ay);
        double t = fabs(da - db) <= tie * len ? rng_unit(g) : da > db ? 0.0 : 1.0;
        *x = ax + t * (bx - ax) + r * nx;
        *y = ay + t * (by - ay) + r * ny;
        return;
    }
    double cx, cy, e1[2], e2[2];
    if (s->type == CLV_AABB) {
        const clv_aabb *b = &s->u.aabb;
        cx = 0.5 * ((double)b->min.x + (double)b->max.x),
        cy = 0.5 * ((double)b->min.y + (double)b->max.y);
        e1[0] = 0.5 * ((double)b->max.x - (double)b->min.x), e1[1] = 0.0;
        e2[0] = 0.0, e2[1] = 0.5 * ((double)b->max.y - (double)b->min.y);
    } else {
        cx = (double)s->u.obb.c.x, cy = (double)s->u.obb.c.y;
        obb_axes(&s->u.obb, e1, e2);
    }
    double p1 = nx * e1[0] + ny * e1[1], p2 = nx * e2[0] + ny * e2[1];
    double s1 = fabs(p1) <= tie * hypot(e1[0], e1[1]) ? rng_range(g, -1, 1) : p1 > 0 ? 1.0 : -1.0;
    double s2 = fabs(p2) <= tie * hypot(e2[0], e2[1]) ? rng_range(g, -1, 1) : p2 > 0 ? 1.0 : -1.0;
    *x = cx + s1 * e1[0] + s2 * e2[0];
    *y = cy + s1 * e1[1] + s2 * e2[1];
}

/* Outward unit normals of the flat sides of s (a capsule's two sides, a box's four); returns how
 * many. */
static int side_normals(const clv_shape *s, double out[4][2]) {
    double ux, uy;
    if (s->type == CLV_CAPSULE) {
        double dx = (double)s->u.capsule.b.x - (double)s->u.capsule.a.x;
        double dy = (double)s->u.capsule.b.y - (double)s->u.capsule.a.y, len = hypot(dx, dy);
        if (len == 0.0) {
            return 0;
        }
        out[0][0] = -dy / len, out[0][1] = dx / len;
        out[1][0] = dy / len, out[1][1] = -dx / len;
        return 2;
    }
    if (s->type == CLV_AABB) {
        ux = 1.0, uy = 0.0;
    } else if (s->type == CLV_OBB) {
        double len = hypot((double)s->u.obb.u.x, (double)s->u.obb.u.y);
        ux = (double)s->u.obb.u.x / len, uy = (double)s->u.obb.u.y / len;
    } else {
        return 0;
    }
    out[0][0] = ux, out[0][1] = uy;
    out[1][0] = -ux, out[1][1] = -uy;
    out[2][0] = -uy, out[2][1] = ux;
    out[3][0] = uy, out[3][1] = -ux;
    return 4;
}

/* Moves b so that it touches a with normal n (a point of b against a point of a, both extreme
 * along n), then by gap along n: a positive gap is the distance, a negative one a penetration.
 * n is random, or one of the flat sides of a or b so that sides meet corners and sides. */
static void place_touching(gen_rng *g, const gen_region *rg, const clv_shape *a, clv_shape *b) {
    double na[4][2], nb[4][2], nx, ny;
    int ka = side_normals(a, na), kb = side_normals(b, nb);
    if (ka + kb == 0 || rng_chance(g, 0.35)) {
        rand_dir(g, &nx, &ny);
    } else {
        int i = rng_below(g, ka + kb);
        if (i < ka) {
            nx = na[i][0], ny = na[i][1];
        } else {
            nx = -nb[i - ka][0], ny = -nb[i - ka][1];
        }
    }
    double ax, ay, bx, by, gap = rand_gap(g, rg->s);
    support_point(g, a, nx, ny, &ax, &ay);
    support_point(g, b, -nx, -ny, &bx, &by);
    shape_move(b, ax + gap * nx - bx, ay + gap * ny - by);
}

/* Capsule pairs: parallel, collinear, crossing thin, T-junction. */
static const char *capsule_special(gen_rng *g, const gen_region *rg, clv_shape *a, clv_shape *b) {
    clv_capsule *ca = &a->u.capsule, *cb = &b->u.capsule;
    double ax, ay, dx, dy, px, py;
    rand_pos(g, rg, &ax, &ay);
    rand_dir(g, &dx, &dy);
    px = -dy, py = dx;
    double la = rg->s * rng_log(g, 1e-2, 1.0), lb = rg->s * rng_log(g, 1e-2, 1.0);
    int which = rng_below(g, 4);
    if (which == 2) { /* thin: radii tiny or zero, segments long */
        ca->r = rng_chance(g, 0.2) ? 0.0f : (float)(rg->s * rng_log(g, 3e-4, 1e-2));
        cb->r = rng_chance(g, 0.2) ? 0.0f : (float)(rg->s * rng_log(g, 3e-4, 1e-2));
        la = rg->s * rng_range(g, 0.5, 1.0);
        lb = rg->s * rng_range(g, 0.5, 1.0);
    }
    double ra = (double)ca->r, rb = (double)cb->r, rsum = ra + rb;
    ca->a = clv_v2((float)ax, (float)ay);
    ca->b = clv_v2((float)(ax + la * dx), (float)(ay + la * dy));
    double bx, by, ex, ey;
    const char *kind;
    if (which == 0) { /* parallel (or nearly), side by side */
        double along = rng_range(g, -lb, la), off = rsum + rand_gap(g, rg->s);
        double tilt = rng_chance(g, 0.3) ? rng_sign(g) * rng_log(g, 1e-7, 1e-3) : 0.0;
        bx = ax + along * dx + off * px, by = ay + along * dy + off * py;
        ex = cos(tilt) * dx - sin(tilt) * dy, ey = sin(tilt) * dx + cos(tilt) * dy;
        kind = "parallel";
    } else if (which == 1) { /* collinear, end to end (or overlapping along the line) */
        double off = rng_chance(g, 0.8) ? rsum + rand_gap(g, rg->s) : -rng_range(g, 0, la);
        bx = ax + (la + off) * dx, by = ay + (la + off) * dy;
        ex = dx, ey = dy;
        kind = "collinear";
    } else if (which == 2) { /* thin capsules crossing in an X, ends far apart */
        double t = rng_range(g, 0.05, 0.95), ang = rng_range(g, 0.01, gen_pi - 0.01);
        ex = cos(ang) * dx - sin(ang) * dy, ey = sin(ang) * dx + cos(ang) * dy;
        double back = lb * rng_range(g, 0.1, 0.9);
        bx = ax + t * la * dx - back * ex, by = ay + t * la * dy - back * ey;
        kind = "cross";
    } else { /* T: b's end near the middle of a's side, b leaving at any angle */
        double t = rng_range(g, 0.0, 1.0), off = rsum + rand_gap(g, rg->s);
        double ang = rng_range(g, -gen_pi / 2.0, gen_pi / 2.0) * 0.999;
        ex = cos(ang) * px - sin(ang) * py, ey = sin(ang) * px + cos(ang) * py;
        bx = ax + t * la * dx + off * px, by = ay + t * la * dy + off * py;
        kind = "tee";
    }
    cb->a = clv_v2((float)bx, (float)by);
    cb->b = clv_v2((float)(bx + lb * ex), (float)(by + lb * ey));
    if (rng_chance(g, 0.5)) { /* the segment's direction must not matter */
        clv_vec2 t = cb->a;
        cb->a = cb->b;
        cb->b = t;
    }
    return kind;
}

/* A round shape near a box corner: touching it, or in the corner region where a separating-axis
 * test with the wrong axes reports a hit. */
static void round_near_corner(gen_rng *g, const gen_region *rg, const clv_shape *box,
                              clv_shape *rnd) {
    double cx, cy, e1[2], e2[2];
    if (box->type == CLV_AABB) {
        const clv_aabb *b = &box->u.aabb;
        cx = 0.5 * ((double)b->min.x + (double)b->max.x),
        cy = 0.5 * ((double)b->min.y + (double)b->max.y);
        e1[0] = 0.5 * ((double)b->max.x - (double)b->min.x), e1[1] = 0.0;
        e2[0] = 0.0, e2[1] = 0.5 * ((double)b->max.y - (double)b->min.y);
    } else {
        cx = (double)box->u.obb.c.x, cy = (double)box->u.obb.c.y;
        obb_axes(&box->u.obb, e1, e2);
    }
    double s1 = rng_sign(g), s2 = rng_sign(g);
    double vx = cx + s1 * e1[0] + s2 * e2[0], vy = cy + s1 * e1[1] + s2 * e2[1];
    /* unit outward directions of the two edges that meet at the corner */
    double l1 = hypot(e1[0], e1[1]), l2 = hypot(e2[0], e2[1]);
    double o1x = l1 > 0 ? s1 * e1[0] / l1 : 1.0, o1y = l1 > 0 ? s1 * e1[1] / l1 : 0.0;
    double o2x = l2 > 0 ? s2 * e2[0] / l2 : -o1y * s2, o2y = l2 > 0 ? s2 * e2[1] / l2 : o1x * s2;
    double th = rng_range(g, 0.0, gen_pi / 2.0);
    double nx = cos(th) * o1x + sin(th) * o2x, ny = cos(th) * o1y + sin(th) * o2y;
    double nl = hypot(nx, ny);
    nx /= nl, ny /= nl;
    double r = rnd->type == CLV_CIRCLE    ? (double)rnd->u.circle.r
               : rnd->type == CLV_CAPSULE ? (double)rnd->u.capsule.r
                                          : 0.0;
    double d = r + rand_gap(g, rg->s);
    if (r > 0 && rng_chance(g, 0.4)) {
        d = rng_chance(g, 0.6) ? r * rng_range(g, 1.02, 1.4) : r * rng_range(g, 0.6, 0.98);
    }
    double px = vx + d * nx, py = vy + d * ny;
    switch (rnd->type) {
    case CLV_POINT:
        rnd->u.point = clv_v2((float)px, (float)py);
        break;
    case CLV_CIRCLE:
        rnd->u.circle.c = clv_v2((float)px, (float)py);
        break;
    default: { /* capsule: the near end at the corner, the body pointing away */
        double wx, wy, len = rg->s * rng_log(g, 1e-3, 1.0);
        rand_dir(g, &wx, &wy);
        if (wx * nx + wy * ny < 0) {
            wx = -wx, wy = -wy;
        }
        rnd->u.capsule.a = clv_v2((float)px, (float)py);
        rnd->u.capsule.b = clv_v2((float)(px + len * wx), (float)(py + len * wy));
        break;
    }
    }
}

static const char *make_float_pair(gen_rng *g, clv_shape_type ta, clv_shape_type tb, clv_shape *a,
                                   clv_shape *b) {
    gen_region rg;
    rg.s = pow(10.0, rng_range(g, 0.0, 5.0));
    rg.ox = rng_range(g, -0.5, 0.5) * rg.s;
    rg.oy = rng_range(g, -0.5, 0.5) * rg.s;
    *a = rand_shape(g, &rg, ta);
    *b = rand_shape(g, &rg, tb);
    double u = rng_unit(g);
    if (u < 0.20) {
        return "random";
    }
    if (u < 0.32) { /* b's anchor dropped somewhere inside a */
        double x, y, bx, by;
        point_inside(g, a, &x, &y);
        shape_anchor(b, &bx, &by);
        shape_move(b, x - bx, y - by);
        return "inside";
    }
    if (u < 0.35) { /* the same place: identical shapes, or b's anchor on a's */
        if (ta == tb) {
            *b = *a;
            return "same";
        }
        double x, y, bx, by;
        shape_anchor(a, &x, &y);
        shape_anchor(b, &bx, &by);
        shape_move(b, x - bx, y - by);
        return "same";
    }
    if (u < 0.60 && ta == CLV_CAPSULE && tb == CLV_CAPSULE) {
        return capsule_special(g, &rg, a, b);
    }
    if (u < 0.60 && is_round(ta) != is_round(tb)) {
        if (is_round(ta)) {
            round_near_corner(g, &rg, b, a);
        } else {
            round_near_corner(g, &rg, a, b);
        }
        return "corner";
    }
    place_touching(g, &rg, a, b);
    return "touch";
}

static const char *type_name(clv_shape_type t) {
    static const char *names[] = {"point", "circle", "capsule", "aabb", "obb"};
    return names[t];
}

static void print_f(float v) { printf(" %a", (double)v); }

static void print_shape(const clv_shape *s) {
    printf(" %s", type_name(s->type));
    switch (s->type) {
    case CLV_POINT:
        print_f(s->u.point.x), print_f(s->u.point.y);
        break;
    case CLV_CIRCLE:
        print_f(s->u.circle.c.x), print_f(s->u.circle.c.y), print_f(s->u.circle.r);
        break;
    case CLV_CAPSULE:
        print_f(s->u.capsule.a.x), print_f(s->u.capsule.a.y);
        print_f(s->u.capsule.b.x), print_f(s->u.capsule.b.y), print_f(s->u.capsule.r);
        break;
    case CLV_AABB:
        print_f(s->u.aabb.min.x), print_f(s->u.aabb.min.y);
        print_f(s->u.aabb.max.x), print_f(s->u.aabb.max.y);
        break;
    case CLV_OBB:
    default:
        print_f(s->u.obb.c.x), print_f(s->u.obb.c.y), print_f(s->u.obb.h.x), print_f(s->u.obb.h.y);
        print_f(s->u.obb.u.x), print_f(s->u.obb.u.y);
        break;
    }
}

static void emit_float_case(const char *kind, const clv_shape *a, const clv_shape *b) {
    bool ab = clv_overlap(a, b), ba = clv_overlap(b, a);
    float dab = clv_distance(a, b), dba = clv_distance(b, a);
    printf("F %s", kind);
    print_shape(a);
    print_shape(b);
    printf(" %d %d", ab ? 1 : 0, ba ? 1 : 0);
    print_f(dab);
    print_f(dba);
    printf("\n");
}

/* ---- Exact pairs ---- */

#define LIM CLV_EXACT_LIMIT

/* Integer directions n = (p, q) with |n| = h integral, so a distance m*h is exact. */
static const int64_t gen_triples[][3] = {{1, 0, 1},    {3, 4, 5},    {5, 12, 13},  {8, 15, 17},
                                         {7, 24, 25},  {20, 21, 29}, {12, 35, 37}, {9, 40, 41},
                                         {28, 45, 53}, {33, 56, 65}, {48, 55, 73}};

static int64_t rand_coord(gen_rng *g, int64_t lim) { return rng_int(g, -lim, lim); }

static clv_ishape rand_ishape(gen_rng *g, clv_shape_type t, int64_t lim) {
    clv_ishape s;
    s.type = t;
    s.ax = rand_coord(g, lim), s.ay = rand_coord(g, lim);
    s.bx = s.ax, s.by = s.ay, s.r = 0;
    if (t == CLV_CIRCLE || t == CLV_CAPSULE) {
        s.r = rng_chance(g, 0.15) ? 0 : rng_int(g, 0, lim);
    }
    if (t == CLV_CAPSULE && !rng_chance(g, 0.1)) {
        s.bx = rand_coord(g, lim), s.by = rand_coord(g, lim);
    }
    if (t == CLV_AABB) {
        int64_t x2 = rand_coord(g, lim), y2 = rand_coord(g, lim);
        if (rng_chance(g, 0.1)) {
            x2 = s.ax;
        }
        if (rng_chance(g, 0.1)) {
            y2 = s.ay;
        }
        s.bx = s.ax > x2 ? s.ax : x2, s.ax = s.ax > x2 ? x2 : s.ax;
        s.by = s.ay > y2 ? s.ay : y2, s.ay = s.ay > y2 ? y2 : s.ay;
    }
    return s;
}

/* A random integer vector w with p*wx + q*wy <= 0 (on the near side of the contact line), often
 * exactly along the line. */
static void rand_side(gen_rng *g, int64_t p, int64_t q, int64_t lim, int64_t *wx, int64_t *wy) {
    int mode = rng_below(g, 10);
    if (mode < 3) { /* along the contact line */
        int64_t k = rng_int(g, -lim, lim) / (i64abs(p) + i64abs(q));
        *wx = -q * k, *wy = p * k;
        return;
    }
    if (mode == 3) {
        *wx = 0, *wy = 0;
        return;
    }
    *wx = rand_coord(g, lim), *wy = rand_coord(g, lim);
    if (p * *wx + q * *wy > 0) {
        *wx = -*wx, *wy = -*wy;
    }
}

/* Builds a shape whose core (or box) lies in p*x + q*y <= p*P.x + q*P.y and touches that line at
 * P (radius not set). */
static clv_ishape place_at(gen_rng *g, clv_shape_type t, int64_t px, int64_t py, int64_t p,
                           int64_t q, int64_t lim) {
    clv_ishape s;
    s.type = t;
    s.ax = px, s.ay = py, s.bx = px, s.by = py, s.r = 0;
    if (t == CLV_CAPSULE) {
        int64_t wx, wy;
        rand_side(g, p, q, lim, &wx, &wy);
        if (rng_chance(g, 0.25) && (wx != 0 || wy != 0) && p * wx + q * wy == 0) {
            /* P strictly inside the segment: a steps back along the line, away from b */
            int64_t step = -q * wx + p * wy > 0 ? 1 : -1;
            int64_t j = rng_int(g, 1, 1 + lim / (i64abs(p) + i64abs(q)));
            s.ax = px + step * j * q, s.ay = py - step * j * p;
        }
        s.bx = px + wx, s.by = py + wy;
        if (rng_chance(g, 0.5)) {
            int64_t tx = s.ax, ty = s.ay;
            s.ax = s.bx, s.ay = s.by, s.bx = tx, s.by = ty;
        }
    } else if (t == CLV_AABB) {
        /* the box extends away from the line: toward -p in x, -q in y; both ways on a zero axis */
        int64_t w1 = rng_chance(g, 0.1) ? 0 : rng_int(g, 0, lim), w2 = rng_int(g, 0, lim);
        int64_t h1 = rng_chance(g, 0.1) ? 0 : rng_int(g, 0, lim), h2 = rng_int(g, 0, lim);
        s.ax = p > 0 ? px - w1 : p < 0 ? px : px - w1;
        s.bx = p > 0 ? px : p < 0 ? px + w1 : px + w2;
        s.ay = q > 0 ? py - h1 : q < 0 ? py : py - h1;
        s.by = q > 0 ? py : q < 0 ? py + h1 : py + h2;
    }
    return s;
}

static bool has_radius(clv_shape_type t) { return t == CLV_CIRCLE || t == CLV_CAPSULE; }

/* Two shapes separated by a line of normal n = (p, q)/h, a at P, b at P + m*(p, q) (distance
 * m*h), with radii summing to m*h - e: e = 0 touches exactly, e = 1 misses by one, e = -1
 * overlaps by one. m < 0 pushes b into a. */
static bool make_contact(gen_rng *g, clv_shape_type ta, clv_shape_type tb, clv_ishape *a,
                         clv_ishape *b) {
    int64_t p, q, h;
    int64_t lim = (int64_t)1 << rng_below(g, 31);
    if (rng_chance(g, 0.8)) {
        const int64_t *tr =
            gen_triples[rng_below(g, (int)(sizeof gen_triples / sizeof gen_triples[0]))];
        p = tr[0], q = tr[1], h = tr[2];
    } else { /* any integer direction: only a zero or negative distance stays exact */
        p = rng_int(g, -9, 9), q = rng_int(g, -9, 9), h = 0;
        if (p == 0 && q == 0) {
            p = 1;
        }
    }
    if (rng_chance(g, 0.5)) {
        int64_t t = p;
        p = q, q = t;
    }
    p *= rng_chance(g, 0.5) ? 1 : -1;
    q *= rng_chance(g, 0.5) ? 1 : -1;
    int64_t m;
    int mode = rng_below(g, 10);
    if (h == 0) {
        m = mode < 6 ? 0 : -rng_int(g, 1, 3);
    } else if (mode < 2) {
        m = 0;
    } else if (mode < 4) {
        m = 1;
    } else if (mode < 5) {
        m = -rng_int(g, 1, 3);
    } else {
        m = rng_int(g, 0, lim / h);
    }
    int64_t px = rand_coord(g, LIM), py = rand_coord(g, LIM);
    if (rng_chance(g, 0.15)) { /* at the edge of the range */
        px = (rng_chance(g, 0.5) ? 1 : -1) * (LIM - rng_int(g, 0, 2));
        py = (rng_chance(g, 0.5) ? 1 : -1) * (LIM - rng_int(g, 0, 2));
    }
    *a = place_at(g, ta, px, py, p, q, lim);
    *b = place_at(g, tb, px + m * p, py + m * q, -p, -q, lim);
    int64_t dist = m * h;
    int64_t e = 0;
    int emode = rng_below(g, 10);
    if (emode < 4) {
        e = 0;
    } else if (emode < 6) {
        e = 1;
    } else if (emode < 8) {
        e = -1;
    } else {
        e = rng_int(g, -lim, lim);
    }
    int64_t rsum = dist - e;
    if (rsum < 0) {
        rsum = 0;
    }
    if (has_radius(ta) && has_radius(tb)) {
        a->r = rng_int(g, 0, rsum);
        b->r = rsum - a->r;
    } else if (has_radius(ta)) {
        a->r = rsum;
    } else if (has_radius(tb)) {
        b->r = rsum;
    }
    return clv_ishape_valid(a) && clv_ishape_valid(b);
}

/* Round shapes whose cores cross (or one ends on the other), radii often zero. */
static bool make_cross(gen_rng *g, clv_shape_type ta, clv_shape_type tb, clv_ishape *a,
                       clv_ishape *b) {
    int64_t lim = (int64_t)1 << rng_below(g, 31);
    int64_t x = rand_coord(g, LIM - lim), y = rand_coord(g, LIM - lim);
    clv_ishape *s[2] = {a, b};
    clv_shape_type t[2] = {ta, tb};
    for (int i = 0; i < 2; i++) {
        s[i]->type = t[i];
        s[i]->ax = x, s[i]->ay = y, s[i]->bx = x, s[i]->by = y;
        s[i]->r = has_radius(t[i]) && rng_chance(g, 0.5) ? rng_int(g, 0, 2) : 0;
        if (t[i] == CLV_CAPSULE) {
            int64_t dx = rng_int(g, -7, 7), dy = rng_int(g, -7, 7);
            int64_t k1 = rng_int(g, 0, lim / 8),
                    k2 = rng_chance(g, 0.3) ? 0 : rng_int(g, 0, lim / 8);
            s[i]->ax = x - k1 * dx, s[i]->ay = y - k1 * dy;
            s[i]->bx = x + k2 * dx, s[i]->by = y + k2 * dy;
        } else if (t[i] == CLV_AABB) { /* the crossing point is a corner or on an edge */
            s[i]->ax = x - rng_int(g, 0, lim), s[i]->ay = y - rng_int(g, 0, lim);
            s[i]->by = y + (rng_chance(g, 0.5) ? 0 : rng_int(g, 0, lim));
        }
    }
    return clv_ishape_valid(a) && clv_ishape_valid(b);
}

static const char *make_exact_pair(gen_rng *g, clv_shape_type ta, clv_shape_type tb, clv_ishape *a,
                                   clv_ishape *b) {
    double u = rng_unit(g);
    for (int tries = 0; tries < 100; tries++) {
        if (u < 0.55 && make_contact(g, ta, tb, a, b)) {
            return "contact";
        }
        if (u >= 0.55 && u < 0.75 && make_cross(g, ta, tb, a, b)) {
            return "cross";
        }
    }
    int64_t lim = (int64_t)1 << rng_below(g, 31);
    *a = rand_ishape(g, ta, lim);
    *b = rand_ishape(g, tb, lim);
    return "random";
}

static void print_ishape(const clv_ishape *s) {
    switch (s->type) {
    case CLV_POINT:
        printf(" point %" PRId64 " %" PRId64, s->ax, s->ay);
        break;
    case CLV_CIRCLE:
        printf(" circle %" PRId64 " %" PRId64 " %" PRId64, s->ax, s->ay, s->r);
        break;
    case CLV_CAPSULE:
        printf(" capsule %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64, s->ax, s->ay,
               s->bx, s->by, s->r);
        break;
    default:
        printf(" aabb %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64, s->ax, s->ay, s->bx, s->by);
        break;
    }
}

static void emit_exact_case(const char *kind, const clv_ishape *a, const clv_ishape *b) {
    bool ab = clv_exact_overlap(a, b), ba = clv_exact_overlap(b, a);
    printf("E %s", kind);
    print_ishape(a);
    print_ishape(b);
    printf(" %d %d\n", ab ? 1 : 0, ba ? 1 : 0);
}

/* ---- Replay ---- */

static bool type_of(const char *name, clv_shape_type *t) {
    for (int i = 0; i < CLV_SHAPE_TYPE_COUNT; i++) {
        if (name != NULL && strcmp(name, type_name((clv_shape_type)i)) == 0) {
            *t = (clv_shape_type)i;
            return true;
        }
    }
    return false;
}

static const int gen_arity[CLV_SHAPE_TYPE_COUNT] = {2, 3, 5, 4, 6};

/* Reads "type v1 v2 ..." from strtok's stream into a float shape. */
static bool read_shape(clv_shape *s) {
    float v[6];
    if (!type_of(strtok(NULL, " \t\n"), &s->type)) {
        return false;
    }
    for (int i = 0; i < gen_arity[s->type]; i++) {
        const char *tok = strtok(NULL, " \t\n");
        char *end;
        if (tok == NULL) {
            return false;
        }
        v[i] = strtof(tok, &end);
        if (*end != '\0') {
            return false;
        }
    }
    switch (s->type) {
    case CLV_POINT:
        *s = clv_shape_point(v[0], v[1]);
        break;
    case CLV_CIRCLE:
        *s = clv_shape_circle(v[0], v[1], v[2]);
        break;
    case CLV_CAPSULE:
        *s = clv_shape_capsule(v[0], v[1], v[2], v[3], v[4]);
        break;
    case CLV_AABB:
        *s = clv_shape_aabb(v[0], v[1], v[2], v[3]);
        break;
    default: /* the stored fields, not rebuilt from an angle */
        s->u.obb.c = clv_v2(v[0], v[1]);
        s->u.obb.h = clv_v2(v[2], v[3]);
        s->u.obb.u = clv_v2(v[4], v[5]);
        break;
    }
    return true;
}

static bool read_ishape(clv_ishape *s) {
    int64_t v[5] = {0, 0, 0, 0, 0};
    if (!type_of(strtok(NULL, " \t\n"), &s->type) || s->type == CLV_OBB) {
        return false;
    }
    for (int i = 0; i < gen_arity[s->type]; i++) {
        const char *tok = strtok(NULL, " \t\n");
        char *end;
        if (tok == NULL) {
            return false;
        }
        v[i] = (int64_t)strtoll(tok, &end, 10);
        if (*end != '\0') {
            return false;
        }
    }
    s->ax = v[0], s->ay = v[1], s->bx = v[0], s->by = v[1], s->r = 0;
    if (s->type == CLV_CIRCLE) {
        s->r = v[2];
    } else if (s->type == CLV_CAPSULE || s->type == CLV_AABB) {
        s->bx = v[2], s->by = v[3], s->r = s->type == CLV_CAPSULE ? v[4] : 0;
    }
    return true;
}

static int replay(const char *path) {
    FILE *f = fopen(path, "r");
    char line[1024];
    int n = 0;
    if (f == NULL) {
        fprintf(stderr, "oracle_gen: cannot open %s\n", path);
        return 1;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        n++;
        char *mode = strtok(line, " \t\n");
        if (mode == NULL || mode[0] == '#') {
            continue;
        }
        char *kind = strtok(NULL, " \t\n");
        bool ok = kind != NULL;
        if (ok && strcmp(mode, "F") == 0) {
            clv_shape a, b;
            ok = read_shape(&a) && read_shape(&b) && clv_shape_valid(&a) && clv_shape_valid(&b);
            if (ok) {
                emit_float_case(kind, &a, &b);
            }
        } else if (ok && strcmp(mode, "E") == 0) {
            clv_ishape a, b;
            ok = read_ishape(&a) && read_ishape(&b) && clv_ishape_valid(&a) && clv_ishape_valid(&b);
            if (ok) {
                emit_exact_case(kind, &a, &b);
            }
        } else {
            ok = false;
        }
        if (!ok) {
            fprintf(stderr, "oracle_gen: %s:%d: not a valid case line\n", path, n);
            fclose(f);
            return 1;
        }
    }
    fclose(f);
    return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--replay") == 0) {
        return replay(argv[2]);
    }
    if (argc != 4) {
        fprintf(stderr,
                "usage: oracle_gen SEED FLOAT_COUNT EXACT_COUNT | oracle_gen --replay FILE\n");
        return 2;
    }
    gen_rng g;
    g.s = strtoull(argv[1], NULL, 10) * 0x2545f4914f6cdd1du + 1u;
    long nf = strtol(argv[2], NULL, 10), ne = strtol(argv[3], NULL, 10);
    for (long i = 0; i < nf; i++) {
        /* cycle through the 25 ordered pairs so that every pair and order gets its share */
        clv_shape_type ta = (clv_shape_type)(i % 5), tb = (clv_shape_type)((i / 5) % 5);
        clv_shape a, b;
        const char *kind = make_float_pair(&g, ta, tb, &a, &b);
        if (!clv_shape_valid(&a) || !clv_shape_valid(&b)) {
            fprintf(stderr, "oracle_gen: made an invalid shape (case %ld)\n", i);
            return 1;
        }
        emit_float_case(kind, &a, &b);
    }
    for (long i = 0; i < ne; i++) {
        clv_shape_type ta = (clv_shape_type)(i % 4), tb = (clv_shape_type)((i / 4) % 4);
        clv_ishape a, b;
        const char *kind = make_exact_pair(&g, ta, tb, &a, &b);
        if (!clv_ishape_valid(&a) || !clv_ishape_valid(&b)) {
            fprintf(stderr, "oracle_gen: made an invalid exact shape (case %ld)\n", i);
            return 1;
        }
        emit_exact_case(kind, &a, &b);
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
