/* Whether glibc's counters of heap bytes in use (mallinfo2) can be trusted in this build: the
 * memory tests measure with them, never with time, and only assert where they are kept. */
#ifndef CLV_TEST_HEAP_COUNT_H
#define CLV_TEST_HEAP_COUNT_H

#include <malloc.h>
#include <stddef.h>

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

/* Bytes in use on the heap and in blocks large enough to be mapped on their own. */
static inline size_t heap_in_use(void) {
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

#endif
