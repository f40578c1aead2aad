/* Fuzz target: random bytes -> shapes -> every query on every pair.
 *
 * Invariants: nothing crashes or trips a sanitizer; overlap and distance are symmetric;
 * distance is >= 0 and 0 exactly when the shapes overlap or touch (checked loosely); for
 * integer shapes an independent slow exact check (written here, in 128-bit integers) agrees
 * with clv_exact_overlap, and the float overlap agrees with it outside a round-off band.
 *
 * Input: records of 11 bytes: a kind byte, then five little-endian int16 values. Shapes are
 * integral so that the float and exact views describe the same set.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cleave/collide.h"

__extension__ typedef __int128 i128;

#define MAX_SHAPES 8
#define RECORD 11

typedef struct fuzz_shape {
    clv_shape f;
    clv_ishape i;
    bool integral; /* describes the same set as i (not an obb) */
} fuzz_shape;

static int64_t read_i16(const uint8_t *p) {
    return (int64_t)(int16_t)(uint16_t)((unsigned)p[0] | (unsigned)p[1] << 8);
}

static void fail(const char *what, int i, int j) {
    fprintf(stderr, "fuzz_collide: %s (shapes %d and %d)\n", what, i, j);
    abort();
}

static fuzz_shape decode(const uint8_t *p) {
    fuzz_shape s;
    int64_t v[5];
    for (int k = 0; k < 5; k++) {
        v[k] = read_i16(p + 1 + 2 * k) / 8; /* |v| <= 4096: floats hold every sum exactly */
    }
    int64_t r = v[4] < 0 ? -v[4] : v[4];
    s.integral = true;
    s.i.ax = v[0];
    s.i.ay = v[1];
    s.i.bx = v[2];
    s.i.by = v[3];
    s.i.r = 0;
    switch (p[0] % 5) {
    case 0:
        s.i.type = CLV_POINT;
        s.i.bx = s.i.ax;
        s.i.by = s.i.ay;
        s.f = clv_shape_point((float)v[0], (float)v[1]);
        break;
    case 1:
        s.i.type = CLV_CIRCLE;
        s.i.r = r;
        s.i.bx = s.i.ax;
        s.i.by = s.i.ay;
        s.f = clv_shape_circle((float)v[0], (float)v[1], (float)r);
        break;
    case 2:
        s.i.type = CLV_CAPSULE;
        s.i.r = r;
        s.f = clv_shape_capsule((float)v[0], (float)v[1], (float)v[2], (float)v[3], (float)r);
        break;
    case 3: {
        int64_t x0 = v[0] < v[2] ? v[0] : v[2], x1 = v[0] < v[2] ? v[2] : v[0];
        int64_t y0 = v[1] < v[3] ? v[1] : v[3], y1 = v[1] < v[3] ? v[3] : v[1];
        s.i.type = CLV_AABB;
        s.i.ax = x0;
        s.i.ay = y0;
        s.i.bx = x1;
        s.i.by = y1;
        s.f = clv_shape_aabb((float)x0, (float)y0, (float)x1, (float)y1);
        break;
    }
    default:
        s.integral = false;
        s.f = clv_shape_obb((float)v[0], (float)v[1], (float)(v[2] < 0 ? -v[2] : v[2]),
                            (float)(v[3] < 0 ? -v[3] : v[3]), (float)v[4] * 0.001f);
        break;
    }
    return s;
}

/* ---- The slow exact oracle (round shapes and boxes, integers only) ---- */

static int sign128(i128 v) { return (v > 0) - (v < 0); }

static i128 cross3(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t cx, int64_t cy) {
    return (i128)(bx - ax) * (cy - ay) - (i128)(by - ay) * (cx - ax);
}

static bool on_segment(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t px, int64_t py) {
    return (px >= (ax < bx ? ax : bx)) && (px <= (ax < bx ? bx : ax)) &&
           (py >= (ay < by ? ay : by)) && (py <= (ay < by ? by : ay));
}

/* Do closed segments ab and cd share a point? */
static bool segments_meet(const clv_ishape *s, const clv_ishape *t) {
    int d1 = sign128(cross3(s->ax, s->ay, s->bx, s->by, t->ax, t->ay));
    int d2 = sign128(cross3(s->ax, s->ay, s->bx, s->by, t->bx, t->by));
    int d3 = sign128(cross3(t->ax, t->ay, t->bx, t->by, s->ax, s->ay));
    int d4 = sign128(cross3(t->ax, t->ay, t->bx, t->by, s->bx, s->by));
    if (d1 * d2 < 0 && d3 * d4 < 0) {
        return true;
    }
    return (d1 == 0 && on_segment(s->ax, s->ay, s->bx, s->by, t->ax, t->ay)) ||
           (d2 == 0 && on_segment(s->ax, s->ay, s->bx, s->by, t->bx, t->by)) ||
           (d3 == 0 && on_segment(t->ax, t->ay, t->bx, t->by, s->ax, s->ay)) ||
           (d4 == 0 && on_segment(t->ax, t->ay, t->bx, t->by, s->bx, s->by));
}

/* Is point p closer than R to segment ab (strictly)? */
static bool point_near_segment(int64_t px, int64_t py, int64_t ax, int64_t ay, int64_t bx,
                               int64_t by, int64_t R) {
    i128 dx = bx - ax, dy = by - ay;
    i128 len2 = dx * dx + dy * dy;
    i128 t = (i128)(px - ax) * dx + (i128)(py - ay) * dy;
    i128 R2 = (i128)R * R;
    if (len2 == 0 || t <= 0) {
        i128 ex = px - ax, ey = py - ay;
        return ex * ex + ey * ey < R2;
    }
    if (t >= len2) {
        i128 ex = px - bx, ey = py - by;
        return ex * ex + ey * ey < R2;
    }
    i128 c = cross3(ax, ay, bx, by, px, py);
    return c * c < R2 * len2; /* |c| <= 2^28, len2 <= 2^28, R2 <= 2^26: fits */
}

static bool is_round(const clv_ishape *s) { return s->type != CLV_AABB; }

/* Does segment s (a core: a point when its ends are equal) meet box b? With open set, it must
 * reach b's open interior; else the closed box. Liang-Barsky clipping in exact rationals: the
 * parameters t in [0, 1] that satisfy each axis form an interval whose ends are fractions
 * num/den with den > 0, compared by cross-multiplying (every term below 2^30). */
static bool segment_meets_box(const clv_ishape *s, const clv_ishape *b, bool open) {
    int64_t lo_n = 0, lo_d = 1, hi_n = 1, hi_d = 1; /* t in [0, 1] */
    bool lo_strict = false, hi_strict = false;
    const int64_t p0[2] = {s->ax, s->ay}, d[2] = {s->bx - s->ax, s->by - s->ay};
    const int64_t mn[2] = {b->ax, b->ay}, mx[2] = {b->bx, b->by};
    for (int k = 0; k < 2; k++) {
        if (d[k] == 0) {
            bool inside =
                open ? (mn[k] < p0[k] && p0[k] < mx[k]) : (mn[k] <= p0[k] && p0[k] <= mx[k]);
            if (!inside) {
                return false;
            }
            continue;
        }
        /* t at which the core crosses the two bounds of this axis, the lower one first */
        int64_t n1 = mn[k] - p0[k], n2 = mx[k] - p0[k], den = d[k];
        if (den < 0) {
            int64_t t = n1;
            n1 = -n2;
            n2 = -t;
            den = -den;
        }
        /* raise the lower end to n1/den, lower the upper end to n2/den */
        if ((i128)n1 * lo_d > (i128)lo_n * den || ((i128)n1 * lo_d == (i128)lo_n * den && open)) {
            lo_n = n1;
            lo_d = den;
            lo_strict = open;
        }
        if ((i128)n2 * hi_d < (i128)hi_n * den || ((i128)n2 * hi_d == (i128)hi_n * den && open)) {
            hi_n = n2;
            hi_d = den;
            hi_strict = open;
        }
    }
    i128 l = (i128)lo_n * hi_d, h = (i128)hi_n * lo_d;
    return lo_strict || hi_strict ? l < h : l <= h;
}

/* Squared distance from point p to the closed box b. */
static i128 point_box_dist2(int64_t px, int64_t py, const clv_ishape *b) {
    int64_t dx = px < b->ax ? b->ax - px : px > b->bx ? px - b->bx : 0;
    int64_t dy = py < b->ay ? b->ay - py : py > b->by ? py - b->by : 0;
    return (i128)dx * dx + (i128)dy * dy;
}

/* A round shape against a box, by the definitions of collide.h: a zero-radius core must enter
 * the open interior; a core grown by r > 0 overlaps when it comes closer than r to the closed
 * box (it meets it, or the nearest pair is an end of the core or a corner of the box). */
static bool round_box(const clv_ishape *s, const clv_ishape *b) {
    if (s->r == 0) {
        return b->ax < b->bx && b->ay < b->by && segment_meets_box(s, b, true);
    }
    i128 r2 = (i128)s->r * s->r;
    if (segment_meets_box(s, b, false) || point_box_dist2(s->ax, s->ay, b) < r2 ||
        point_box_dist2(s->bx, s->by, b) < r2) {
        return true;
    }
    const int64_t cx[4] = {b->ax, b->bx, b->ax, b->bx}, cy[4] = {b->ay, b->ay, b->by, b->by};
    for (int k = 0; k < 4; k++) {
        if (point_near_segment(cx[k], cy[k], s->ax, s->ay, s->bx, s->by, s->r)) {
            return true;
        }
    }
    return false;
}

/* The oracle answers every pair of integer shapes: round/round, box/box and round/box. */
static int slow_exact(const clv_ishape *a, const clv_ishape *b) {
    if (is_round(a) && is_round(b)) {
        int64_t R = a->r + b->r;
        if (R == 0) {
            return 0; /* two zero-radius shapes never overlap */
        }
        if (segments_meet(a, b)) {
            return 1;
        }
        return point_near_segment(a->ax, a->ay, b->ax, b->ay, b->bx, b->by, R) ||
               point_near_segment(a->bx, a->by, b->ax, b->ay, b->bx, b->by, R) ||
               point_near_segment(b->ax, b->ay, a->ax, a->ay, a->bx, a->by, R) ||
               point_near_segment(b->bx, b->by, a->ax, a->ay, a->bx, a->by, R);
    }
    if (!is_round(a) && !is_round(b)) {
        return a->ax < a->bx && a->ay < a->by && b->ax < b->bx && b->ay < b->by && a->ax < b->bx &&
               b->ax < a->bx && a->ay < b->by && b->ay < a->by;
    }
    return is_round(a) ? round_box(a, b) : round_box(b, a);
}

static double point_segment_distance(double px, double py, double ax, double ay, double bx,
                                     double by) {
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/* Signed gap between the surfaces, in doubles, for the pairs the oracle answers: how far
 * from touching a pair is, to size the band where float and exact may differ. */
static double slow_gap(const clv_ishape *a, const clv_ishape *b) {
    if (is_round(a) != is_round(b)) {
        /* core to closed box; 0 when they meet (a core inside counts as just touching, so the
         * band only loosens there) */
        const clv_ishape *r = is_round(a) ? a : b, *x = is_round(a) ? b : a;
        double d = 0;
        if (!segment_meets_box(r, x, false)) {
            d = fmin(sqrt((double)point_box_dist2(r->ax, r->ay, x)),
                     sqrt((double)point_box_dist2(r->bx, r->by, x)));
            const double cx[4] = {(double)x->ax, (double)x->bx, (double)x->ax, (double)x->bx};
            const double cy[4] = {(double)x->ay, (double)x->ay, (double)x->by, (double)x->by};
            for (int k = 0; k < 4; k++) {
                d = fmin(d, point_segment_distance(cx[k], cy[k], (double)r->ax, (double)r->ay,
                                                   (double)r->bx, (double)r->by));
            }
        }
        return d - (double)r->r;
    }
    if (is_round(a)) {
        double d = 0;
        if (!segments_meet(a, b)) {
            double ax = (double)a->ax, ay = (double)a->ay, bx = (double)a->bx;
            double by = (double)a->by, cx = (double)b->ax, cy = (double)b->ay;
            double ex = (double)b->bx, ey = (double)b->by;
            d = fmin(fmin(point_segment_distance(ax, ay, cx, cy, ex, ey),
                          point_segment_distance(bx, by, cx, cy, ex, ey)),
                     fmin(point_segment_distance(cx, cy, ax, ay, bx, by),
                          point_segment_distance(ex, ey, ax, ay, bx, by)));
        }
        return d - (double)(a->r + b->r);
    }
    double gx = (double)(a->ax > b->ax ? a->ax - b->bx : b->ax - a->bx);
    double gy = (double)(a->ay > b->ay ? a->ay - b->by : b->ay - a->by);
    return fmax(gx, gy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_shape s[MAX_SHAPES];
    int n = 0;
    for (size_t off = 0; off + RECORD <= size && n < MAX_SHAPES; off += RECORD) {
        s[n] = decode(data + off);
        if (!clv_shape_valid(&s[n].f)) {
            fail("a shape built from valid numbers is invalid", n, n);
        }
        n++;
    }
    for (int i = 0; i < n; i++) {
        clv_ray_hit hit;
        (void)clv_raycast(&s[i].f, clv_v2(0, 0), clv_v2(1, 0.5f), 1e4f, &hit);
        for (int j = 0; j < n; j++) {
            const clv_shape *a = &s[i].f, *b = &s[j].f;
            bool ab = clv_overlap(a, b), ba = clv_overlap(b, a);
            if (ab != ba) {
                fail("clv_overlap is not symmetric", i, j);
            }
            float dab = clv_distance(a, b), dba = clv_distance(b, a);
            if (!(dab >= 0) || !(fabsf(dab - dba) <= 1e-3f * (1.0f + dab))) {
                fail("clv_distance is negative, nan or not symmetric", i, j);
            }
            if (ab && dab > 1e-2f) {
                fail("overlapping shapes have a positive distance", i, j);
            }
            clv_contact c;
            if (clv_contact_shapes(a, b, &c) && !(c.depth >= 0)) {
                fail("contact depth is negative or nan", i, j);
            }
            (void)clv_closest_points(a, b);
            if (!s[i].integral || !s[j].integral) {
                continue;
            }
            int slow = slow_exact(&s[i].i, &s[j].i);
#ifdef CLV_FUZZ_EXACT
            bool exact = clv_exact_overlap(&s[i].i, &s[j].i);
            if (exact != clv_exact_overlap(&s[j].i, &s[i].i)) {
                fail("clv_exact_overlap is not symmetric", i, j);
            }
            if (slow >= 0 && exact != (slow == 1)) {
                fail("clv_exact_overlap disagrees with the slow exact check", i, j);
            }
            if (s[i].i.type == CLV_CAPSULE && s[j].i.type == CLV_CAPSULE) {
                const clv_ishape *p = &s[i].i, *q = &s[j].i;
                clv_icapsule tp = {(int32_t)p->ax, (int32_t)p->ay, (int32_t)p->bx, (int32_t)p->by,
                                   (int32_t)p->r};
                clv_icapsule tq = {(int32_t)q->ax, (int32_t)q->ay, (int32_t)q->bx, (int32_t)q->by,
                                   (int32_t)q->r};
                if (clv_exact_overlap_capsules(&tp, &tq) != exact) {
                    fail("clv_exact_overlap_capsules disagrees with clv_exact_overlap", i, j);
                }
            }
            if (slow < 0) {
                slow = exact;
            }
#endif
            /* Outside a band of round-off around touching, float and exact agree. */
            if (slow >= 0 && ab != (slow == 1) && slow_exact(&s[i].i, &s[j].i) >= 0) {
                double gap = slow_gap(&s[i].i, &s[j].i);
                double band = 1e-3 * (1.0 + fabs(gap) + (double)(s[i].i.r + s[j].i.r)) + 1e-2;
                if (fabs(gap) > band) {
                    fail("float overlap disagrees with the exact answer outside the band", i, j);
                }
            }
        }
    }
    return 0;
}
