/* Fuzz target: random source text through the real mod sandbox.
 *
 * Each input is loaded as a mod in a fresh sandbox with small limits; when it defines a
 * global `frame`, the host calls it a few times as the game would. Invariants: nothing crashes
 * or trips a sanitizer, every load and call ends within its budget plus MARGIN_MS of the
 * thread's CPU time (a C loop the deadline cannot see fails here, long before libFuzzer's
 * -timeout=1), and closing the sandbox gives back every byte its allocator handed out.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cleave/lua.h"
#include "sandbox.h"

/* CPU time past its budget a load or call may take: the hook's period, one 1 KiB piece of
 * parsing, a bounded C library call or collector step, and the page faults the kernel charges
 * to the thread, all under ASan and UBSan (a 5 ms margin was crossed once in 50,000 inputs by
 * a call that raised at once). The C loops this looks for run for seconds. */
#define MARGIN_MS 20.0

static double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Aborts when `what` took more than budget_ms + MARGIN_MS of CPU since t0. */
static void check_budget(const char *what, double t0, double budget_ms) {
    double used = cpu_ms() - t0;
    if (used > budget_ms + MARGIN_MS) {
        fprintf(stderr, "fuzz_sandbox: %s took %.3f ms of CPU, budget %g ms + %g\n", what, used,
                budget_ms, MARGIN_MS);
        abort();
    }
}

/* Runs inside the protected path: finds `frame` (a mod's __index on _G runs hooked too). */
static int call_frame(lua_State *L) {
    lua_Integer i = lua_tointeger(L, 1);
    if (lua_getglobal(L, "frame") != LUA_TFUNCTION) {
        return 0;
    }
    lua_pushinteger(L, i);
    lua_call(L, 1, 1);
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    clv_sandbox_limits limits = clv_sandbox_default_limits();
    limits.api = luaopen_cleave;
    limits.memory_bytes = (size_t)2 << 20;
    limits.load_ms = 20;
    limits.callback_ms = 2;
    char err[1024];
    clv_sandbox *sb = clv_sandbox_create(&limits, err, sizeof err);
    if (sb == NULL) {
        fprintf(stderr, "fuzz_sandbox: create failed: %s\n", err);
        abort();
    }
    lua_State *L = clv_sandbox_state(sb);
    int top = lua_gettop(L);
    double t0 = cpu_ms();
    bool loaded = clv_sandbox_run(sb, (const char *)data, size, "=fuzz", 0, err, sizeof err);
    check_budget("the load", t0, limits.load_ms);
    if (loaded) {
        for (int i = 0; i < 3; i++) {
            lua_pushcfunction(L, call_frame);
            lua_pushinteger(L, i);
            t0 = cpu_ms();
            bool ok = clv_sandbox_call(sb, 1, 1, err, sizeof err);
            check_budget("a call of frame", t0, limits.callback_ms);
            if (ok) {
                lua_pop(L, 1);
            }
        }
    }
    if (lua_gettop(L) != top) {
        fprintf(stderr, "fuzz_sandbox: the sandbox stack moved from %d to %d\n", top,
                lua_gettop(L));
        abort();
    }
    clv_sandbox_close(sb);
    if (clv_sandbox_bytes(sb) != 0) {
        fprintf(stderr, "fuzz_sandbox: %zu bytes left after close\n", clv_sandbox_bytes(sb));
        abort();
    }
    clv_sandbox_destroy(sb);
    return 0;
}
