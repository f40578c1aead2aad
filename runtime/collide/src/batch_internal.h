/* Batch narrowphase: one capsule against many shapes stored as arrays (SoA). Private to
 * collide: no layer above uses it; its tests and the benchmark include it from the sources. */
#ifndef CLV_BATCH_INTERNAL_H
#define CLV_BATCH_INTERNAL_H

#include "cleave/collide.h"

/* Same answers, element by element, as the typed overlap tests of collide.h. Written without
 * a branch per element so that the compiler vectorizes them; hits are written with a
 * branch-free push. out needs room for n indices. */

/// Indices i (ascending) where capsule a overlaps circle (x[i], y[i], r[i]), as
/// clv_overlap_circle_capsule(that circle, a) would answer; returns their count.
uint32_t clv_batch_capsule_circles(const clv_capsule *a, const float *x, const float *y,
                                   const float *r, uint32_t n, uint32_t *out);

/// Indices i (ascending) where capsule a overlaps capsule (ax[i], ay[i])..(bx[i], by[i]) of
/// radius r[i], as clv_overlap_capsule_capsule(a, that capsule) would answer; returns their
/// count.
uint32_t clv_batch_capsule_capsules(const clv_capsule *a, const float *ax, const float *ay,
                                    const float *bx, const float *by, const float *r, uint32_t n,
                                    uint32_t *out);

#endif
