/* Private to the motion sources (sweep.c, pose.c): shapes as a convex set of at most four
 * points grown by a radius, in double precision. */
#ifndef CLV_MOTION_INTERNAL_H
#define CLV_MOTION_INTERNAL_H

#include "cleave/motion.h"

/* A core (1, 2 or 4 points; with 4, their convex hull) grown by r. Boxes list their corners in
 * order around the box; a hull of two segments lists its points in any order (all_pairs), and
 * then every pair of points is treated as an edge and every triangle as part of the area. */
typedef struct clv_mpoly {
    int n;
    bool all_pairs;
    double x[4], y[4];
    double r;
} clv_mpoly;

/* Orientation of p against the line a -> b (twice the signed area of a, b, p). */
static inline double clv__orient(double ax, double ay, double bx, double by, double px, double py) {
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Squared distance from p to the segment a..b. clv_mpoly_touch and clv_hull_touches' own path
 * for a point both use it, so that their answers are the same bits. */
static inline double clv__point_seg_d2(double px, double py, double ax, double ay, double bx,
                                       double by) {
    double ex = bx - ax, ey = by - ay;
    double mx = px - ax, my = py - ay;
    double l2 = ex * ex + ey * ey;
    double t = 0.0;
    if (l2 > 0.0) {
        t = (mx * ex + my * ey) / l2;
        t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    }
    double qx = mx - t * ex, qy = my - t * ey;
    return qx * qx + qy * qy;
}

/* The shape as an mpoly (a point or circle: 1 point; a capsule: 2; a box: its 4 corners). */
clv_mpoly clv_mpoly_of_shape(const clv_shape *s);

/* true when the two closed sets meet (distance between them <= 0). */
bool clv_mpoly_touch(const clv_mpoly *m, const clv_mpoly *t);

/* First t in [0, 1] at which m moved by t * (dx, dy) meets t's closure, or -1. */
double clv_mpoly_sweep(const clv_mpoly *m, double dx, double dy, const clv_mpoly *t);

#endif
