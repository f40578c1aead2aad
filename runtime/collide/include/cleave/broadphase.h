/* cleave broadphase: many hurtboxes, a few hitboxes, every frame.
 *
 * The grid is built for hurtboxes that ALL move every frame (a crowd of enemies). Instead of
 * updating a tree it is rebuilt from scratch each frame with a counting sort: one pass counts
 * the entities per cell, one pass scatters each entity as one packed 16-byte record into its
 * cell's slice. Measured on a 2-vCPU x86-64 machine this beat the incremental trees of Box2D
 * and Chipmunk by more than an order of magnitude (see docs/performance.md).
 *
 * How an entity is stored: its bounds are a circle (centre x, y and radius r >= 0; use the
 * shape's bounding circle for capsules and boxes). It is filed under the one cell that holds
 * its centre, so it appears at most once; a query widens its box by the largest radius of the
 * build. Entities with r greater than the cell size are kept aside in a short list that every
 * query scans, so one giant does not widen every query. Centres outside the grid's area are
 * filed under the nearest border cell: the grid stays correct anywhere, only slower far away.
 *
 * Candidates: entity i is a candidate of the query box q when the square [x-r, x+r] x
 * [y-r, y+r] meets q, touching included (closed sets: the broadphase never drops a pair the
 * narrowphase could count). Candidates come out in ascending index order with no duplicates,
 * so results never depend on where an entity stands in the grid.
 *
 * Memory: every byte is allocated by clv_grid_create through the caller's allocator hook (or
 * malloc) and released by clv_grid_destroy; building and querying never allocate.
 * A grid is not thread-safe: one writer or querier at a time (queries use its scratch).
 */
#ifndef CLEAVE_BROADPHASE_H
#define CLEAVE_BROADPHASE_H

#include <stddef.h>
#include <stdint.h>

#include "cleave/collide.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The area and resolution of a grid. cell_size > 0 world units; cols, rows >= 1 with
/// cols * rows <= 2^24; capacity >= 1 is the most entities one build may hold.
typedef struct clv_grid_def {
    clv_vec2 origin;   ///< world position of the min corner of cell (0, 0)
    float cell_size;   ///< side of a square cell; about the size of a hitbox works well
    uint32_t cols;     ///< cells along x
    uint32_t rows;     ///< cells along y
    uint32_t capacity; ///< maximum entity count per build
} clv_grid_def;

/// One stored entity: its bounding circle and its index in the build's arrays (16 bytes).
typedef struct clv_grid_entry {
    float x, y, r;
    uint32_t id;
} clv_grid_entry;

/// An opaque grid; make one with clv_grid_create.
typedef struct clv_grid clv_grid;

/// A default definition: origin (0, 0), 64-unit cells, 64 x 64 cells, capacity 4096.
clv_grid_def clv_grid_default_def(void);

/// Bytes clv_grid_create will allocate for def (0 when def is invalid).
size_t clv_grid_memory_size(const clv_grid_def *def);

/// Makes an empty grid. alloc may be NULL (malloc/free). Returns NULL when def is invalid or
/// the allocation fails. Free it with clv_grid_destroy.
clv_grid *clv_grid_create(const clv_grid_def *def, const clv_allocator *alloc);

/// Frees a grid made by clv_grid_create (NULL is allowed).
void clv_grid_destroy(clv_grid *grid);

/// Replaces the grid's content by entities 0..count-1 with centres (x[i], y[i]) and radii
/// r[i] (r >= 0; an entity with a negative or NaN radius meets nothing). Returns false, leaving
/// the grid empty, when count exceeds the capacity or an argument is NULL while count > 0.
/// Never allocates.
bool clv_grid_build(clv_grid *grid, const float *x, const float *y, const float *r, uint32_t count);

/// Number of entities of the last build.
uint32_t clv_grid_count(const clv_grid *grid);

/// Finds the candidates of box (see the top of this file) and returns how many there are.
/// When that count is <= cap, out[0..count) holds their indices in ascending order; when it is
/// larger, out is left unspecified: ask again with cap >= the count returned (cap >=
/// clv_grid_count() always suffices). An empty box (min > max) or one with a NaN bound meets
/// nothing.
uint32_t clv_grid_query(clv_grid *grid, clv_aabb box, uint32_t *out, uint32_t cap);

/// Answers nq boxes at once against entities 0..count-1 (centres x, y and radii r, as
/// clv_grid_build takes them): exactly the candidates clv_grid_build followed by one
/// clv_grid_query per box would give, without the rebuild (for a few boxes against a crowd that
/// all moves; docs/performance.md). Box k's candidates, ascending, are
/// out[first[k] .. first[k + 1]); first needs nq + 1 slots and is filled in any case. Returns
/// the total; when it exceeds cap, out is unspecified (ask again with cap >= the total); out may
/// be NULL to get only the total and first[]. Returns 0 with first[] all zero when count or nq
/// exceeds the capacity, or boxes, x, y or r is NULL while count > 0 and nq > 0; returns 0 when
/// first is NULL. Leaves the grid empty (as a build of 0 entities). Never allocates.
uint32_t clv_grid_query_boxes(clv_grid *grid, const clv_aabb *boxes, uint32_t nq, const float *x,
                              const float *y, const float *r, uint32_t count, uint32_t *first,
                              uint32_t *out, uint32_t cap);

#ifdef __cplusplus
}
#endif

#endif
