/* C memory that belongs to a userdata of a Lua state goes through that state's allocator, so a
 * mod's arenas, weapons and event lists count against its sandbox budget like its tables do
 * (malloc would let a mod with a 1 MiB budget reserve gigabytes through cleave.arena). */
#include "internal.h"

clv_lalloc clv_lua_lalloc(lua_State *L) {
    clv_lalloc a;
    a.f = lua_getallocf(L, &a.ud);
    return a;
}

void *clv_lalloc_resize(const clv_lalloc *a, void *p, size_t osize, size_t nsize) {
    if (p == NULL && nsize == 0) {
        return NULL;
    }
    return a->f(a->ud, p, p != NULL ? osize : 0, nsize);
}

bool clv_lalloc_grow(const clv_lalloc *a, void **p, int32_t *cap, int32_t need, size_t elem) {
    if (need <= *cap) {
        return true;
    }
    /* doubling keeps appends amortised O(1) */
    int32_t n = *cap > 0 ? *cap : 16;
    while (n < need) {
        n *= 2;
    }
    void *q = clv_lalloc_resize(a, *p, (size_t)*cap * elem, (size_t)n * elem);
    if (q == NULL) {
        return false;
    }
    *p = q;
    *cap = n;
    return true;
}

static void *hook_alloc(size_t size, void *ctx) {
    const clv_lalloc *a = (const clv_lalloc *)ctx;
    return size > 0 ? a->f(a->ud, NULL, 0, size) : NULL;
}

static void hook_free(void *ptr, size_t size, void *ctx) {
    const clv_lalloc *a = (const clv_lalloc *)ctx;
    if (ptr != NULL) {
        a->f(a->ud, ptr, size, 0);
    }
}

clv_allocator clv_lalloc_hook(clv_lalloc *a) {
    clv_allocator h;
    h.alloc = hook_alloc;
    h.free = hook_free;
    h.ctx = a;
    return h;
}
