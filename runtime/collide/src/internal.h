/* Private helpers shared by the collide sources: small vector maths in float and double. */
#ifndef CLV_COLLIDE_INTERNAL_H
#define CLV_COLLIDE_INTERNAL_H

#include "cleave/collide.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

/* min and max without a branch: at -O2 without fast-math, gcc turns fminf into a libm call
 * and a clamp written with ?: into jumps, which mispredict on unpredictable pairs. minss and
 * maxss return the second operand when the first is not less (greater): the same as ?: here. */
#if defined(__SSE2__) || defined(_M_X64)
static inline float clv_minf(float a, float b) {
    return _mm_cvtss_f32(_mm_min_ss(_mm_set_ss(a), _mm_set_ss(b)));
}
static inline float clv_maxf(float a, float b) {
    return _mm_cvtss_f32(_mm_max_ss(_mm_set_ss(a), _mm_set_ss(b)));
}
#else
static inline float clv_minf(float a, float b) { return a < b ? a : b; }
static inline float clv_maxf(float a, float b) { return a > b ? a : b; }
#endif
/* A segment orientation is trusted only when it exceeds its worst round-off: a few float
 * epsilons of the magnitudes it was formed from. A crossing with an unsure orientation has an
 * end within round-off of the other segment, which the end distances measure well. */
#define CLV_CROSS_EPS 8.0e-7f

/* `c ? a : b` on floats as a bitwise select: a ternary on a float compare stays a branch for
 * gcc (unless -fno-trapping-math), and a branch keeps a loop from being vectorized. */
static inline float clv_selectf(int c, float a, float b) {
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    uint32_t m = 0u - (uint32_t)c;
    uint32_t u = (ua & m) | (ub & ~m);
    float out;
    memcpy(&out, &u, sizeof out);
    return out;
}

static inline float clv_clampf(float x, float lo, float hi) {
    return clv_minf(clv_maxf(x, lo), hi);
}
static inline float clv_absf(float a) { return fabsf(a); }

static inline clv_vec2 clv_sub(clv_vec2 a, clv_vec2 b) { return clv_v2(a.x - b.x, a.y - b.y); }
static inline clv_vec2 clv_add(clv_vec2 a, clv_vec2 b) { return clv_v2(a.x + b.x, a.y + b.y); }
static inline clv_vec2 clv_scale(clv_vec2 a, float s) { return clv_v2(a.x * s, a.y * s); }
static inline float clv_dot(clv_vec2 a, clv_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline float clv_cross(clv_vec2 a, clv_vec2 b) { return a.x * b.y - a.y * b.x; }
/* The obb's y axis from its x axis. */
static inline clv_vec2 clv_perp(clv_vec2 u) { return clv_v2(-u.y, u.x); }

/* Double-precision vectors for the non-hot queries (closest points, contact, rays). */
typedef struct clv_dvec2 {
    double x, y;
} clv_dvec2;

static inline clv_dvec2 clv_d2(double x, double y) {
    clv_dvec2 v = {x, y};
    return v;
}
static inline clv_dvec2 clv_dv(clv_vec2 v) { return clv_d2((double)v.x, (double)v.y); }
static inline clv_vec2 clv_fv(clv_dvec2 v) { return clv_v2((float)v.x, (float)v.y); }
static inline clv_dvec2 clv_dsub(clv_dvec2 a, clv_dvec2 b) { return clv_d2(a.x - b.x, a.y - b.y); }
static inline clv_dvec2 clv_dadd(clv_dvec2 a, clv_dvec2 b) { return clv_d2(a.x + b.x, a.y + b.y); }
static inline clv_dvec2 clv_dscale(clv_dvec2 a, double s) { return clv_d2(a.x * s, a.y * s); }
static inline double clv_ddot(clv_dvec2 a, clv_dvec2 b) { return a.x * b.x + a.y * b.y; }
static inline double clv_dcross(clv_dvec2 a, clv_dvec2 b) { return a.x * b.y - a.y * b.x; }
static inline double clv_dmin(double a, double b) { return a < b ? a : b; }
static inline double clv_dmax(double a, double b) { return a > b ? a : b; }
static inline double clv_dclamp(double x, double lo, double hi) {
    return clv_dmin(clv_dmax(x, lo), hi);
}

/* Swaps a and b when b should come first, so that every generic query evaluates a pair in one
 * order only: the answers are then exactly symmetric. */
bool clv_pair_swapped(const clv_shape *a, const clv_shape *b);

#endif
