/* cleave motion: shapes that move during a step, and rotation of weapon-local hitboxes.
 *
 * Conventions are those of collide.h (y down, radians, +x toward +y). Added here:
 * - Time of impact is CLOSED: a sweep reports the first t at which the two shapes touch or
 *   overlap, i.e. the first t at which their closures meet. Touching counts as contact for a
 *   sweep even though clv_overlap() calls touching no overlap. So a sweep hit at t means "at t
 *   the surfaces meet"; whether they then overlap depends on the motion (a graze only touches).
 * - A pose (x, y, angle) places weapon-local space in the world: rotate about the local origin
 *   (the wielder) by angle, then translate by (x, y).
 * - Between two frames a swept hitbox's pose moves linearly in position AND in angle, with the
 *   turn taken as given (no wrapping), so a swing of more than half a turn can be expressed.
 * - Rotation cache and exact rotation work on quantized angles: CLV_ROT_STEPS steps per turn.
 * Every function is pure (no global state, no allocation); caches are caller-owned structs.
 * See docs/motion.md for the guarantees and formulas.
 */
#ifndef CLEAVE_MOTION_H
#define CLEAVE_MOTION_H

#include "cleave/collide.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Swept tests (translation only) ---- */

/// Moves `moving` by t * delta for t in [0, 1] against the still `target`. Returns true and the
/// first t of contact (touch or overlap, see above; 0 when they touch or overlap at the start)
/// in *out_t (out_t may be NULL); false when they never meet. Any pair of the 5 shape types.
/// Shapes must be valid (clv_shape_valid); a non-finite delta returns false. The returned t is
/// rounded down to a float, never past the contact computed in double precision.
bool clv_sweep(const clv_shape *moving, clv_vec2 delta, const clv_shape *target, float *out_t);

/// Time of impact of a circle (centre c, radius r >= 0) moving by delta against a still circle;
/// the closed-form seed method with one square root. Same result rules as clv_sweep.
bool clv_sweep_circle_circle(const clv_circle *moving, clv_vec2 delta, const clv_circle *target,
                             float *out_t);

/// Time of impact of a moving circle against a still capsule (a point or segment core when
/// r = 0); at most two square roots (one for the side, one for an end cap). Rules of clv_sweep.
bool clv_sweep_circle_capsule(const clv_circle *moving, clv_vec2 delta, const clv_capsule *target,
                              float *out_t);

/* ---- Poses and swept hitboxes (translation + rotation) ---- */

/// Where weapon-local space sits in the world: rotation `angle` (radians) about the local
/// origin, then translation by (x, y).
typedef struct clv_pose {
    float x, y;
    float angle;
} clv_pose;

/// Makes a pose.
static inline clv_pose clv_make_pose(float x, float y, float angle) {
    clv_pose p = {x, y, angle};
    return p;
}

/// A round hitbox (circle or capsule; a circle is a capsule with a == b) moving from one frame's
/// placement to the next. Two things move it: its local shape (prev to cur, each mirrored across
/// the local x axis when asked) and the pose (a turn dth and a straight travel). For s in [0, 1]
/// the core is R(th0 + s dth) u(s) + T(s), u(s) = c + R(s phi)(l0 - c) + s e: the local segment
/// turns by phi about the centre c that carries its midpoint where it goes, and the remainder e
/// (a change of length, a circle moving) is straight. docs/motion.md derives the bounds.
/// Fill it with clv_swept_init, then clv_swept_move. Callers read r0, r1 (the radius at s = 0
/// and 1, which goes linearly) and slack; the other fields belong to the model.
typedef struct clv_swept {
    double a0x, a0y, b0x, b0y; /* local core at s = 0 (mirror applied) */
    double a1x, a1y, b1x, b1y; /* and at s = 1 */
    double r0, r1;
    double phi, cphi, sphi; /* local turn about the local centre (cx, cy) */
    double cx, cy;
    double eax, eay, ebx, eby; /* what the turn leaves over, per end */
    double rho_u, rho_c, e_max;
    double dth, dx, dy, travel; /* the pose's turn (as given) and travel */
    /// Rounding allowance every cover adds: 2^-20 of the motion's reach (see docs/motion.md).
    double slack;
} clv_swept;

/// The local part of the motion from prev (mirror0) to cur (mirror1); false when either shape
/// is not round.
bool clv_swept_init(clv_swept *m, const clv_shape *prev, bool mirror0, const clv_shape *cur,
                    bool mirror1);

/// The pose's part: a turn of dth radians (as given, no wrapping) and a travel (dx, dy), ending
/// with the pose's origin at `origin` (which sizes the rounding allowance).
void clv_swept_move(clv_swept *m, double dth, double dx, double dy, clv_vec2 origin);

/// true when nothing moves: no turn, no travel, and the local core and radius are unchanged.
bool clv_swept_still(const clv_swept *m);

/// The slack of a round shape that stays itself and only travels (dx, dy) without a turn, to
/// end at origin: the same bits as clv_swept_init(s, s) and clv_swept_move(0, dx, dy, origin)
/// give, without the model. overcover is this slack alone at any n. NaN when s is not round.
double clv_swept_travel_slack(const clv_shape *s, double dx, double dy, clv_vec2 origin);

/// Bound on how far the n sub-step covers reach beyond the area the hitbox truly sweeps,
/// rounding allowance included. n >= 1; it never grows with n.
double clv_swept_overcover(const clv_swept *m, int32_t n);

/// Fewest sub-steps n in [1, cap] with clv_swept_overcover(n) <= tolerance (cap when none).
int32_t clv_swept_substeps(const clv_swept *m, double tolerance, int32_t cap);

/// How far a core point strays from the straight line between its positions at the ends of a
/// sub-step, with n sub-steps: sub-step k is covered by the hull of the cores at k/n and
/// (k+1)/n (clv_hull_touches) grown by the larger radius + this bend + slack.
double clv_swept_bend(const clv_swept *m, int32_t n);

/// The world core at fraction s, given the sine and cosine of the pose's angle at s and its
/// origin at s (callers moving many hitboxes with one pose compute those once).
void clv_swept_core(const clv_swept *m, double s, double sn, double cs, double ox, double oy,
                    clv_vec2 *out_a, clv_vec2 *out_b);

/// The cores at the n - 1 points between the ends of n sub-steps, the same bits as
/// clv_swept_core at s = k / n for k = 1 .. n - 1, into q[2k] (a) and q[2k + 1] (b): the pose's
/// sine and cosine at point k are trig[2k] and trig[2k + 1], its origin (ox, oy) plus s times
/// the move's travel (dx, dy as clv_swept_move took them). q[0], q[1], q[2n] and q[2n + 1] are
/// left as they are. One call per hitbox where the model's part that does not change with s
/// is worked out once.
void clv_swept_cores(const clv_swept *m, int32_t n, const double *trig, double ox, double oy,
                     clv_vec2 *q);

/// true when the convex hull of two capsules' cores, grown by r, touches or overlaps the target
/// (closed). With c0 and c1 one hitbox on consecutive frames this is the stretched hitbox of
/// translation; the capsules' own radii are ignored, r is used.
bool clv_hull_touches(const clv_capsule *c0, const clv_capsule *c1, float r,
                      const clv_shape *target);

/* ---- Deterministic trigonometry: the same bits on every build, compiler and C library ---- */

/// sin and cos of x (radians) from a fixed polynomial in double (after reduction to within an
/// eighth of a turn, the series' error is below 1e-16).
void clv_sincos_d(double x, double *out_sin, double *out_cos);

/// clv_sincos_d of a float angle, rounded to float.
void clv_sincos(float angle, float *out_sin, float *out_cos);

/// atan2(y, x) in (-pi, pi] from square roots and a series; (0, 0) gives 0.
double clv_atan2_d(double y, double x);

/* ---- Quantized angles and their integer sin/cos ---- */

/// Angle steps per turn: 4096 (about 0.088 degrees, 1.53e-3 radians each).
#define CLV_ROT_STEPS 4096u
/// Steps per quarter turn.
#define CLV_ROT_QUARTER (CLV_ROT_STEPS / 4u)
/// 1.0 in Q30 fixed point.
#define CLV_Q30_ONE ((int32_t)1 << 30)

/// The step nearest to an angle in radians, wrapped to [0, CLV_ROT_STEPS). A non-finite angle
/// gives 0.
uint32_t clv_angle_quantize(float radians);

/// The angle of a step in radians, in [0, 2 pi). step is taken modulo CLV_ROT_STEPS.
float clv_angle_of_step(uint32_t step);

/// sin(2 pi step / CLV_ROT_STEPS) in Q30, correctly rounded to nearest: clv_sincos_d's value,
/// rounded, from a constant table. step is taken modulo CLV_ROT_STEPS. Bit-identical on every
/// machine.
int32_t clv_isin_q30(uint32_t step);

/// cos(2 pi step / CLV_ROT_STEPS) in Q30, correctly rounded (the sin a quarter turn on).
int32_t clv_icos_q30(uint32_t step);

/// (cos, sin) of a step as floats: the Q30 values converted (error <= 2^-24 + 2^-31 each).
clv_vec2 clv_rot_unit(uint32_t step);

/// Rotates the integer point (x, y) by a step: round((x*C - y*S) / 2^30), round((x*S + y*C) /
/// 2^30) with C, S the step's Q30 cos and sin, each rounded to nearest with ties away from zero
/// (so rotating -p gives exactly -(rotating p)). |x|, |y| <= 2^31. Integer arithmetic.
void clv_exact_rotate(int64_t x, int64_t y, uint32_t step, int64_t *out_x, int64_t *out_y);

/// An exact local shape rotated by a step, then translated by (tx, ty): integers only,
/// bit-reproducible. Points, circles and capsules rotate at any step; an aabb only by whole
/// quarter turns (its corners map onto a box), any other step gives type CLV_SHAPE_TYPE_COUNT,
/// which clv_ishape_valid rejects. The caller keeps the result within CLV_EXACT_LIMIT (a local
/// point at distance d from the pivot lands within d + 1 of the translation).
clv_ishape clv_exact_place(const clv_ishape *local, uint32_t step, int64_t tx, int64_t ty);

/* ---- Rotation of float hitboxes: direct, by step, cached ---- */

/// The local capsule rotated by `radians` with cosf/sinf computed each call (the baseline).
clv_capsule clv_rotate_capsule_sincos(const clv_capsule *local, float radians);

/// The local capsule rotated by a step using the table (no sin/cos call, no cache).
clv_capsule clv_rotate_capsule_step(const clv_capsule *local, uint32_t step);

/// Slots in a rotation cache; a hitbox seen at more facings than this recomputes the facings
/// that were evicted.
#define CLV_ROT_CACHE_SLOTS 8

/// A per-hitbox cache of rotated endpoints keyed by step: CLV_ROT_CACHE_SLOTS slots searched in
/// full, refilled round-robin. Fixed size (no allocation): sizeof(clv_rot_cache) <= 256 bytes.
/// Caller-owned; make one with clv_rot_cache_init. Do not share between threads without a
/// lock (a read may fill a slot).
typedef struct clv_rot_cache {
    clv_capsule local;
    uint32_t next;
    uint32_t key[CLV_ROT_CACHE_SLOTS];
    clv_vec2 a[CLV_ROT_CACHE_SLOTS];
    clv_vec2 b[CLV_ROT_CACHE_SLOTS];
} clv_rot_cache;

/// Empties the cache and binds it to a local capsule (copied).
void clv_rot_cache_init(clv_rot_cache *cache, const clv_capsule *local);

/// The local capsule rotated by a step: from the cache, or computed (then cached). Gives
/// exactly clv_rotate_capsule_step(local, step).
clv_capsule clv_rot_cache_get(clv_rot_cache *cache, uint32_t step);

/// The local capsule placed at a pose with the pose's angle quantized: the cached rotation,
/// then the translation.
clv_capsule clv_rot_cache_place(clv_rot_cache *cache, clv_pose pose);

#ifdef __cplusplus
}
#endif

#endif
