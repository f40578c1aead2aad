/* The benchmark's view of the peer libraries: the same pairs, each library's own shapes and
 * calls. Each peer is compiled only when its library is found (CLV_BENCH_BOX2D,
 * CLV_BENCH_CHIPMUNK, CLV_BENCH_BOX2D3). */
#ifndef CLV_BENCH_PEERS_H
#define CLV_BENCH_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include "cleave/collide.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A pair test of one library: prepare converts n pairs into the library's own shapes once
/// (NULL when the library has no test for these two types), run answers every pair into
/// out[i] (0 or 1) and returns the number of overlaps, destroy frees what prepare made.
typedef struct bench_peer {
    const char *name;
    const char *(*method)(clv_shape_type ta, clv_shape_type tb);
    void *(*prepare)(const clv_shape *a, const clv_shape *b, size_t n);
    size_t (*run)(void *set, uint8_t *out);
    void (*destroy)(void *set);
} bench_peer;

/// A moving crowd in a peer's broadphase: create inserts n circles; frame moves every entity
/// to (x[i], y[i]) (it moved by dx[i], dy[i] since the last frame, and the structure is told
/// so when it can use it), then queries nq boxes and returns the number of (box, entity) pairs
/// whose boxes really meet (closed), so that every structure must report the same count.
typedef struct bench_peer_tree {
    const char *name;
    void *(*create)(const float *x, const float *y, const float *r, uint32_t n);
    uint64_t (*frame)(void *tree, const float *x, const float *y, const float *r, const float *dx,
                      const float *dy, uint32_t n, const clv_aabb *q, uint32_t nq);
    void (*destroy)(void *tree);
} bench_peer_tree;

#ifdef CLV_BENCH_BOX2D
extern const bench_peer bench_box2d;
extern const bench_peer_tree bench_box2d_tree;
#endif
#ifdef CLV_BENCH_BOX2D3
extern const bench_peer bench_box2d3;
extern const bench_peer_tree bench_box2d3_boxes, bench_box2d3_move, bench_box2d3_enlarge;
#endif
#ifdef CLV_BENCH_CHIPMUNK
extern const bench_peer bench_chipmunk;
extern const bench_peer_tree bench_chipmunk_tree;
#endif

#ifdef __cplusplus
}
#endif

#endif
