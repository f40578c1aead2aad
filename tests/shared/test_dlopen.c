/* Loads libcleave.so the way a game's FFI does (dlopen, then dlsym by name) and checks that it
 * is the release and ABI this build describes, and that its API works once loaded. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "cleave/collide.h"
#include "cleave/version.h"

typedef const char *(*version_fn)(void);
typedef int (*abi_fn)(void);
typedef clv_shape (*circle_fn)(float x, float y, float r);
typedef bool (*overlap_fn)(const clv_shape *a, const clv_shape *b);

/* dlsym returns an object pointer; a function pointer is copied out of it bit for bit */
static void *symbol(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (p == NULL) {
        fprintf(stderr, "FAIL: %s is not exported: %s\n", name, dlerror());
    }
    return p;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s path/to/libcleave.so\n", argv[0]);
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "FAIL: dlopen: %s\n", dlerror());
        return 1;
    }
    void *pv = symbol(lib, "clv_version"), *pa = symbol(lib, "clv_abi_version");
    void *pc = symbol(lib, "clv_shape_circle"), *po = symbol(lib, "clv_overlap");
    if (pv == NULL || pa == NULL || pc == NULL || po == NULL) {
        return 1;
    }
    version_fn version;
    abi_fn abi;
    circle_fn circle;
    overlap_fn overlap;
    memcpy(&version, &pv, sizeof version);
    memcpy(&abi, &pa, sizeof abi);
    memcpy(&circle, &pc, sizeof circle);
    memcpy(&overlap, &po, sizeof overlap);
    int failures = 0;
    if (strcmp(version(), EXPECTED_VERSION) != 0) {
        fprintf(stderr, "FAIL: clv_version() is '%s', expected '%s'\n", version(),
                EXPECTED_VERSION);
        failures++;
    }
    if (abi() != CLV_ABI_VERSION) {
        fprintf(stderr, "FAIL: clv_abi_version() is %d, expected %d\n", abi(), CLV_ABI_VERSION);
        failures++;
    }
    clv_shape a = circle(0, 0, 2), b = circle(3, 0, 2), c = circle(4, 0, 2);
    if (!overlap(&a, &b) || overlap(&a, &c)) {
        fprintf(stderr, "FAIL: circles at distance 3 and 4 with radii 2\n");
        failures++;
    }
    if (dlsym(lib, "lua_newstate") != NULL || dlsym(lib, "clv_lua_lalloc") != NULL) {
        fprintf(stderr, "FAIL: a private symbol is visible through dlsym\n");
        failures++;
    }
    printf("libcleave %s, ABI %d\n", version(), abi());
    dlclose(lib);
    return failures == 0 ? 0 : 1;
}
