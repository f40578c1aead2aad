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

/* The oracle answers round/round and box/box pairs; round/box pairs are left to the
 * implementation's own typed tests. Returns -1 when it has no answer. */
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
        return a->ax < a->bx && a->ay < a->by && b->ax < b->bx && b->ay < b->by &&
               a->ax < b->bx && b->ax < a->bx && a->ay < b->by && b->ay < a->by;
    }
    return -1;
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
