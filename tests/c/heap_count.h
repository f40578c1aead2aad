/* Whether glibc's counters of heap bytes in use (mallinfo2) can be trusted in this build: the
 * memory tests measure with them, never with time, and only assert where they are kept. */
#ifndef CLV_TEST_HEAP_COUNT_H
#define CLV_TEST_HEAP_COUNT_H

#include <malloc.h>

#if defined(__SANITIZE_ADDRESS__)
#define HEAP_COUNTED 0 /* ASan's allocator does not keep glibc's counters */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_COUNTED 0
#else
#define HEAP_COUNTED 1
#endif
#else
#define HEAP_COUNTED 1
#endif

#endif
