/* A tiny test harness: CHECK macros that count, and a summary line CTest logs keep.
 * Each test file: static void test_x(void) {...}; int main(void) { RUN(test_x); return
 * clv_test_report(); } */
#ifndef CLV_TEST_HARNESS_H
#define CLV_TEST_HARNESS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int clv_test_passed_ = 0;
static int clv_test_failed_ = 0;
static int clv_test_ran_ = 0;
static const char *clv_test_name_ = "";

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (cond) {                                                                                \
            clv_test_passed_++;                                                                    \
        } else {                                                                                   \
            clv_test_failed_++;                                                                    \
            fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__, clv_test_name_,   \
                    #cond);                                                                        \
        }                                                                                          \
    } while (0)

#define CHECK_NEAR(a, b, eps)                                                                      \
    do {                                                                                           \
        double clv_a_ = (double)(a), clv_b_ = (double)(b);                                         \
        if (fabs(clv_a_ - clv_b_) <= (double)(eps)) {                                              \
            clv_test_passed_++;                                                                    \
        } else {                                                                                   \
            clv_test_failed_++;                                                                    \
            fprintf(stderr, "%s:%d: %s: %s = %.9g, expected %s = %.9g (within %g)\n", __FILE__,    \
                    __LINE__, clv_test_name_, #a, clv_a_, #b, clv_b_, (double)(eps));              \
        }                                                                                          \
    } while (0)

/* Runs one test function; a name on the command line runs only the tests containing it. */
#define RUN(fn)                                                                                    \
    do {                                                                                           \
        if (clv_test_filter_ == NULL || strstr(#fn, clv_test_filter_) != NULL) {                   \
            clv_test_name_ = #fn;                                                                  \
            clv_test_ran_++;                                                                       \
            fn();                                                                                  \
        }                                                                                          \
    } while (0)

static const char *clv_test_filter_ = NULL;

/* The next 32 random bits of a splitmix64 stream whose state is *state: the tests' shared
 * generator, each test file keeping its own state and seed. */
static inline uint32_t clv_test_splitmix32(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static inline void clv_test_init(int argc, char **argv) {
    clv_test_filter_ = argc > 1 ? argv[1] : NULL;
}

/* A run that checked nothing fails: a mistyped filter or an empty test must not read as a pass. */
static inline int clv_test_report(void) {
    printf("%d passed, %d failed\n", clv_test_passed_, clv_test_failed_);
    if (clv_test_ran_ == 0 || clv_test_passed_ + clv_test_failed_ == 0) {
        fprintf(stderr, "no test %s%s ran a check\n", clv_test_filter_ ? "matching " : "",
                clv_test_filter_ ? clv_test_filter_ : "");
        return 1;
    }
    return clv_test_failed_ == 0 ? 0 : 1;
}

#endif
