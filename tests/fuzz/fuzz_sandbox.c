/* Fuzz target: random source text through the real mod sandbox.
 *
 * Each input is loaded as a mod in a fresh sandbox with small limits; when it defines a
 * global `frame`, the host calls it a few times as the game would. Invariants: nothing crashes
 * or trips a sanitizer, every call returns within its deadline (libFuzzer's -timeout=1 catches
 * a hang), and closing the sandbox gives back every byte its allocator handed out.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sandbox.h"

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
    if (clv_sandbox_run(sb, (const char *)data, size, "=fuzz", 0, err, sizeof err)) {
        for (int i = 0; i < 3; i++) {
            lua_pushcfunction(L, call_frame);
            lua_pushinteger(L, i);
            if (clv_sandbox_call(sb, 1, 1, err, sizeof err)) {
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
