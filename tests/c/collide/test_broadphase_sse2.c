/* The broadphase's tests once more, against the grid built without its AVX2 path (which
 * clv_grid_query_boxes takes wherever the processor has AVX2): the grid's sources are compiled
 * into this test, and the library's copies are left unused. */
#define CLV_GRID_NO_AVX2 1
#include "broadphase.c"
#include "broadphase_boxes.c"

#include "test_broadphase.c"
