/* Fuzz target: the sandbox's guarded string.find, match, gmatch and gsub against stock Lua 5.4.
 *
 * Input: byte 0 picks the function and its options, byte 1 the start position (or none),
 * byte 2 the subject's length; the subject follows, the pattern is the rest. The same Lua
 * function runs the call in a plain state with the stock string library and in a sandbox, and
 * both answers must be equal: the results turned into one string, or the error message.
 * Patterns with more than MAX_REPEATS repetition items are skipped, since stock Lua may take
 * exponential time on them (the guarded matcher would stop at its deadline, stock would not).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cleave/lua.h"
#include "sandbox.h"

#define MAX_SUBJECT 40
#define MAX_PATTERN 24
#define MAX_REPEATS 4

/* Runs one call and returns its results (or "error: message") as one string. The gmatch and
 * gsub answers list every capture with its type, so a number and a string differ. */
static const char *const probe =
    "local op, s, p, init, plain = ...\n"
    "local function show(...)\n"
    "  local out = {}\n"
    "  for i = 1, select('#', ...) do\n"
    "    local v = select(i, ...)\n"
    "    out[#out + 1] = type(v) .. ':' .. tostring(v)\n"
    "  end\n"
    "  return table.concat(out, ',')\n"
    "end\n"
    "local function run()\n"
    "  if op == 0 then return show(string.find(s, p, init, plain))\n"
    "  elseif op == 1 then return show(string.match(s, p, init))\n"
    "  elseif op == 2 then\n"
    "    local out, n = {}, 0\n"
    "    for a, b, c in string.gmatch(s, p, init) do\n"
    "      n = n + 1\n"
    "      out[n] = show(a, b, c)\n"
    "      if n > 200 then break end\n"
    "    end\n"
    "    return table.concat(out, ';')\n"
    "  elseif op == 3 then return show(string.gsub(s, p, '<%0>', init))\n"
    "  elseif op == 4 then return show(string.gsub(s, p, '[%1]', init))\n"
    "  elseif op == 5 then return show(string.gsub(s, p, function(...) return show(...) end, "
    "init))\n"
    "  else return show(string.gsub(s, p, { a = 'A', [''] = 'E' }, init)) end\n"
    "end\n"
    "local ok, r = pcall(run)\n"
    "return ok and r or ('error: ' .. tostring(r))\n";

static lua_State *g_stock;
static clv_sandbox *g_sandbox;

static void setup(void) {
    g_stock = luaL_newstate();
    luaL_requiref(g_stock, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(g_stock, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(g_stock, LUA_TABLIBNAME, luaopen_table, 1);
    lua_settop(g_stock, 0);
    clv_sandbox_limits limits = clv_sandbox_default_limits();
    limits.api = luaopen_cleave;
    limits.load_ms = 1e6; /* the inputs are small: only the rules are under test, not time */
    limits.callback_ms = 1e6;
    limits.frame_ms = 1e6;
    char err[256];
    g_sandbox = clv_sandbox_create(&limits, err, sizeof err);
    if (g_sandbox == NULL) {
        fprintf(stderr, "fuzz_patterns: create failed: %s\n", err);
        abort();
    }
}

/* Loads probe in L and pushes it, then the arguments; the caller calls it. */
static void push_call(lua_State *L, int op, const char *s, size_t ls, const char *p, size_t lp,
                      int init, int plain) {
    if (luaL_loadbufferx(L, probe, strlen(probe), "=probe", "t") != LUA_OK) {
        fprintf(stderr, "fuzz_patterns: %s\n", lua_tostring(L, -1));
        abort();
    }
    lua_pushinteger(L, op);
    lua_pushlstring(L, s, ls);
    lua_pushlstring(L, p, lp);
    if (init == 0) {
        lua_pushnil(L);
    } else {
        lua_pushinteger(L, init);
    }
    lua_pushboolean(L, plain);
}

static int repeats(const char *p, size_t lp) {
    int n = 0;
    for (size_t i = 0; i < lp; i++) {
        n += p[i] == '*' || p[i] == '+' || p[i] == '-' || p[i] == '?';
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (g_stock == NULL) {
        setup();
    }
    if (size < 3) {
        return 0;
    }
    int op = data[0] % 7;
    int plain = (data[0] >> 3) & 1;
    int init = (int8_t)data[1] % 12; /* -11..11; 0: none given */
    size_t ls = data[2] % (MAX_SUBJECT + 1);
    if (ls > size - 3) {
        ls = size - 3;
    }
    const char *s = (const char *)data + 3;
    const char *p = s + ls;
    size_t lp = size - 3 - ls;
    if (lp > MAX_PATTERN || repeats(p, lp) > MAX_REPEATS) {
        return 0;
    }

    push_call(g_stock, op, s, ls, p, lp, init, plain);
    lua_call(g_stock, 5, 1);
    lua_State *S = clv_sandbox_state(g_sandbox);
    char err[512];
    push_call(S, op, s, ls, p, lp, init, plain);
    if (!clv_sandbox_call_load(g_sandbox, 5, 1, err, sizeof err)) {
        fprintf(stderr, "fuzz_patterns: the probe failed in the sandbox: %s\n", err);
        abort();
    }
    size_t l1, l2;
    const char *want = lua_tolstring(g_stock, -1, &l1);
    const char *got = lua_tolstring(S, -1, &l2);
    if (l1 != l2 || memcmp(want, got, l1) != 0) {
        fprintf(stderr,
                "fuzz_patterns: op %d init %d plain %d\n  subject: %.*s\n  pattern: %.*s\n"
                "  stock:   %s\n  guarded: %s\n",
                op, init, plain, (int)ls, s, (int)lp, p, want, got);
        abort();
    }
    lua_pop(g_stock, 1);
    lua_pop(S, 1);
    return 0;
}
