/* cleave collide: 2D shapes and the queries a melee game asks of them.
 *
 * Conventions (stated once, true for every function below):
 * - Units are world units (pixels in the demo). +x is right, +y is DOWN.
 * - Angles are radians; a positive angle rotates +x toward +y (clockwise on screen).
 * - Shapes: a point, circle or capsule is a CORE (a point or a segment) grown by a radius
 *   r >= 0. A capsule whose two ends are equal is a circle. A box (aabb, obb) is its OPEN
 *   interior.
 * - Overlap is open-set, the same rule in every pair: two round shapes overlap when their
 *   cores are closer than rA + rB; a round shape overlaps a box when its core comes closer to
 *   the box than r or enters its interior; two boxes overlap when their interiors intersect.
 *   Touching is never overlap, and two zero-radius round shapes never overlap. A box of zero
 *   width or height has no interior: no box and no zero-radius shape overlaps it, while a round
 *   shape with r > 0 does when its core comes closer than r to it.
 * - A contact normal is a unit vector that pushes shape b out of shape a: moving b by
 *   normal * depth makes the pair touch.
 * - "t on the blade": for a capsule, the parameter (0 at a, 1 at b) of the closest point on its
 *   segment; 0 for every other shape.
 * - Every function is pure: no global state, no allocation. Inputs must be valid (finite
 *   numbers, r >= 0, half extents >= 0, min <= max); callers holding outside input check them
 *   with clv_shape_valid() first.
 */
#ifndef CLEAVE_COLLIDE_H
#define CLEAVE_COLLIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// pi to double precision, for every layer (C11 has no M_PI).
#define CLV_PI 3.14159265358979323846

/// Allocator hook of every object that owns memory (a broadphase grid, a weapon, an arena).
/// alloc(size, ctx) returns size bytes aligned for any type, or NULL; free(ptr, size, ctx) gets
/// back exactly what alloc gave, with the size that was asked for. Leave both NULL for
/// malloc/free.
typedef struct clv_allocator {
    void *(*alloc)(size_t size, void *ctx);
    void (*free)(void *ptr, size_t size, void *ctx);
    void *ctx;
} clv_allocator;

/// A 2D vector or point, world units.
typedef struct clv_vec2 {
    float x, y;
} clv_vec2;

/// A circle: centre c and radius r >= 0. A point is a circle of radius 0.
typedef struct clv_circle {
    clv_vec2 c;
    float r;
} clv_circle;

/// A capsule: segment a..b grown by radius r >= 0. a == b is allowed (a circle).
typedef struct clv_capsule {
    clv_vec2 a, b;
    float r;
} clv_capsule;

/// An axis-aligned box, min <= max per axis; its open interior.
typedef struct clv_aabb {
    clv_vec2 min, max;
} clv_aabb;

/// An oriented box: centre c, half extents h >= 0 along its own axes, and its x axis
/// u = (cos angle, sin angle); its y axis is (-u.y, u.x). Make one with clv_make_obb().
typedef struct clv_obb {
    clv_vec2 c;
    clv_vec2 h;
    clv_vec2 u;
} clv_obb;

/// The kind of a clv_shape.
typedef enum clv_shape_type {
    CLV_POINT = 0,
    CLV_CIRCLE = 1,
    CLV_CAPSULE = 2,
    CLV_AABB = 3,
    CLV_OBB = 4,
    CLV_SHAPE_TYPE_COUNT = 5
} clv_shape_type;

/// Any shape, tagged by type. Build one with the clv_shape_* constructors below.
typedef struct clv_shape {
    clv_shape_type type;
    union {
        clv_vec2 point;
        clv_circle circle;
        clv_capsule capsule;
        clv_aabb aabb;
        clv_obb obb;
    } u;
} clv_shape;

/// Closest points of two shapes. When they overlap or touch, distance is 0 and both points are
/// the contact point (see clv_contact).
typedef struct clv_closest {
    float distance; ///< >= 0, the gap between the two surfaces
    clv_vec2 pa;    ///< point on a's surface closest to b
    clv_vec2 pb;    ///< point on b's surface closest to a
    float ta;       ///< where on a's segment (capsules; 0 otherwise), 0..1
    float tb;       ///< where on b's segment (capsules; 0 otherwise), 0..1
} clv_closest;

/// Contact of two overlapping shapes: the minimum translation that separates them.
typedef struct clv_contact {
    clv_vec2 normal; ///< unit, pushes b out of a
    float depth;     ///< > 0, length of the minimum translation
    clv_vec2 point;  ///< a point in the overlap (the crossing point when cores cross)
    float ta;        ///< where on a's segment of the contact (capsules; 0 otherwise), 0..1
    float tb;        ///< where on b's segment of the contact (capsules; 0 otherwise), 0..1
} clv_contact;

/// A ray hit: origin + dir * t is on the shape's boundary, normal points out of the shape.
typedef struct clv_ray_hit {
    float t;
    clv_vec2 normal;
} clv_ray_hit;

/// Makes a vector.
static inline clv_vec2 clv_v2(float x, float y) {
    clv_vec2 v = {x, y};
    return v;
}

/// An oriented box from centre, half extents and rotation in radians.
clv_obb clv_make_obb(clv_vec2 centre, clv_vec2 half_extents, float angle);

/// Shape constructors (no checking; see clv_shape_valid).
clv_shape clv_shape_point(float x, float y);
clv_shape clv_shape_circle(float x, float y, float r);
clv_shape clv_shape_capsule(float ax, float ay, float bx, float by, float r);
clv_shape clv_shape_aabb(float min_x, float min_y, float max_x, float max_y);
clv_shape clv_shape_obb(float cx, float cy, float half_w, float half_h, float angle);

/// true when every number is finite, radii and half extents are >= 0, min <= max, and an obb
/// axis has length 1 within 1e-3. Call it on any shape built from outside input.
bool clv_shape_valid(const clv_shape *s);

/// A bounding box that contains the shape (closed).
clv_aabb clv_shape_bounds(const clv_shape *s);

/// The shape moved by d.
clv_shape clv_shape_translated(const clv_shape *s, clv_vec2 d);

/* ---- Generic queries: any pair of the 5 shape types, in either order. ---- */

/// true when a and b overlap (open-set rule above). Symmetric.
bool clv_overlap(const clv_shape *a, const clv_shape *b);

/// Gap between the surfaces (0 when overlapping or touching). Symmetric.
float clv_distance(const clv_shape *a, const clv_shape *b);

/// Closest points, distance and where on each capsule's segment.
clv_closest clv_closest_points(const clv_shape *a, const clv_shape *b);

/// When a and b overlap, fills *out and returns true; otherwise returns false.
/// The depth is the true minimum translation, also when two capsule cores cross.
bool clv_contact_shapes(const clv_shape *a, const clv_shape *b, clv_contact *out);

/// Casts the ray origin + dir * t, 0 <= t <= max_t, against s. dir need not be unit; t is in
/// units of dir. Returns true and the first hit. A ray that starts inside s hits at t = 0 with
/// normal -dir/|dir|. A zero dir hits only when the origin is inside.
bool clv_raycast(const clv_shape *s, clv_vec2 origin, clv_vec2 dir, float max_t, clv_ray_hit *out);

/* ---- Typed overlap tests, the fast path (same answers as clv_overlap). ---- */

/// Named as the cute_c2 grid: clv_overlap_<a>_<b>, a before b in the order
/// point, circle, capsule, aabb, obb.
bool clv_overlap_point_point(clv_vec2 a, clv_vec2 b);
bool clv_overlap_point_circle(clv_vec2 a, const clv_circle *b);
bool clv_overlap_point_capsule(clv_vec2 a, const clv_capsule *b);
bool clv_overlap_point_aabb(clv_vec2 a, const clv_aabb *b);
bool clv_overlap_point_obb(clv_vec2 a, const clv_obb *b);
bool clv_overlap_circle_circle(const clv_circle *a, const clv_circle *b);
bool clv_overlap_circle_capsule(const clv_circle *a, const clv_capsule *b);
bool clv_overlap_circle_aabb(const clv_circle *a, const clv_aabb *b);
bool clv_overlap_circle_obb(const clv_circle *a, const clv_obb *b);
bool clv_overlap_capsule_capsule(const clv_capsule *a, const clv_capsule *b);
bool clv_overlap_capsule_aabb(const clv_capsule *a, const clv_aabb *b);
bool clv_overlap_capsule_obb(const clv_capsule *a, const clv_obb *b);
bool clv_overlap_aabb_aabb(const clv_aabb *a, const clv_aabb *b);
bool clv_overlap_aabb_obb(const clv_aabb *a, const clv_obb *b);
bool clv_overlap_obb_obb(const clv_obb *a, const clv_obb *b);

/* ---- Many pairs at once, stored as arrays (structure of arrays). ---- */

/// Capsules as five arrays: capsule i is the segment (ax[i], ay[i])-(bx[i], by[i]) with
/// radius r[i].
typedef struct clv_capsule_arrays {
    const float *ax, *ay, *bx, *by, *r;
} clv_capsule_arrays;

/// Tests n pairs: out[i] = clv_overlap_capsule_capsule(capsule i of a, capsule i of b) (1 or
/// 0, the same answer bit for bit) for every i < n, and returns the number of overlaps. For
/// streams of pairs, e.g. a whole crowd's blades against its shields: the loop has no branch
/// per pair, so the compiler vectorises it. The arrays may not overlap out.
uint32_t clv_overlap_capsule_pairs(const clv_capsule_arrays *a, const clv_capsule_arrays *b,
                                   uint32_t n, uint8_t *out);

/* ---- Exact integer mode: integer values only, never wrong, touching included. ---- */

/// Largest magnitude of an exact coordinate or radius: 2^30.
#define CLV_EXACT_LIMIT ((int64_t)1 << 30)

/// An exact shape: point, circle, capsule or aabb (no obb: a rotation is not integral).
/// Coordinates in [-2^30, 2^30], radii in [0, 2^30], min <= max. For a point or circle only
/// a is used; for an aabb a is min and b is max.
typedef struct clv_ishape {
    clv_shape_type type;
    int64_t ax, ay, bx, by;
    int64_t r;
} clv_ishape;

/// true when the type is point/circle/capsule/aabb and every value that type uses is within
/// the limits (a point ignores b and r, a circle ignores b, an aabb ignores r).
bool clv_ishape_valid(const clv_ishape *s);

/// Exact overlap with the same open-set rule as clv_overlap. Symmetric. Both shapes must be
/// valid (clv_ishape_valid): out-of-range values are not checked here and give wrong answers.
bool clv_exact_overlap(const clv_ishape *a, const clv_ishape *b);

/// An exact capsule in 20 bytes: the typed form of a capsule clv_ishape, as clv_capsule is of
/// clv_shape, for arrays of hitboxes (a clv_ishape takes 48). The same limits, which int32
/// holds: check values from wider integers before storing them here.
typedef struct clv_icapsule {
    int32_t ax, ay, bx, by, r;
} clv_icapsule;

/// true when every value is within the limits of clv_ishape.
bool clv_icapsule_valid(const clv_icapsule *c);

/// clv_exact_overlap of two capsules given in the typed form: the same answer. Both must be
/// valid (clv_icapsule_valid).
bool clv_exact_overlap_capsules(const clv_icapsule *a, const clv_icapsule *b);

#ifdef __cplusplus
}
#endif

#endif
