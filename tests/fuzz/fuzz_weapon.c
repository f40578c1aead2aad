/* Fuzz target: the weapon and body validators. The input is decoded into a Lua table (nested
 * tables, the validators' own field names, numbers from the troublesome ones: nan, +-inf, huge,
 * negative, fractional) and passed to cleave.weapon (or, with animations, cleave.body) inside a
 * mod sandbox.
 *
 * Invariants: nothing crashes or trips a sanitizer; the call either returns a cleave.Weapon,
 * which then swings in an arena for a few frames (or a cleave.Body, played in one), or raises one
 * line of text at the caller's line ("fuzz:1: ..."), never an error object of another kind; the
 * sandbox stack is balanced; closing the sandbox gives back every byte.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "cleave/lua.h"
#include "sandbox.h"

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static unsigned next_byte(reader *r) {
    if (r->n == 0) {
        return 0;
    }
    r->n--;
    return *r->p++;
}

static const char *const words[] = {
    "name", "attacks", "frames", "hitboxes", "hitbox", "id", "x", "y", "radius", "ax", "ay", "bx",
    "by", "shape", "damage", "group", "priority", "defaults", "length", "knockback", "angle",
    "base", "growth", "hitlag", "hitstun", "max_hits", "rehit", "effects", "effect", "duration",
    "every", "magnitude", "on_hit", "arc", "thrust", "from", "to", "pivot", "ease", "linear", "in",
    "out", "in_out", "swing", "jab", "a", "", "knockback_ignores_hit_count", "weight", "tip",
    "handle", "interpolate", "cancel", "lingering", "clash", "transcend", "trade", "parry_stun",
    "rebound", "kind", "reflect", "absorb", "reflect_speed", "reflect_damage",
    "reflect_along_facing", "normal",
    /* against bodies that defend, and bodies themselves */
    "chip", "blockstun", "shield_damage", "unblockable", "hits", "ground", "air", "both", "auto",
    "facing_restrict", "any", "away", "front", "behind", "layer", "mask", "grab", "grab_offset",
    "smash", "set", "sakurai", "reflect_along", "animations", "loop", "hurtboxes", "state",
    "intangible", "invincible", "armor", "heavy", "guard", "meter", "regen", "guard_break",
    "all_round", "stand", "roll"};
#define WORD_COUNT (sizeof words / sizeof words[0])

static void push_value(lua_State *L, reader *r, int depth);

static void push_key(lua_State *L, reader *r) {
    unsigned b = next_byte(r);
    if (b < 160) {
        lua_pushstring(L, words[b % WORD_COUNT]);
    } else if (b < 250) {
        lua_pushinteger(L, (lua_Integer)(b - 160) % 12 + 1);
    } else {
        lua_pushinteger(L, (lua_Integer)(int8_t)next_byte(r));
    }
}

static void push_number(lua_State *L, unsigned b, reader *r) {
    static const double special[] = {0.0,   -0.0,   0.5,          -3,    1e40, -1e40,
                                     1e300, 3.4e38, 2147483648.0, 1e-40, 6,    9.75};
    switch (b % 6) {
    case 0:
        lua_pushinteger(L, (lua_Integer)(int8_t)next_byte(r));
        break;
    case 1:
        lua_pushnumber(L, (lua_Number)(int16_t)(next_byte(r) | next_byte(r) << 8) / 8.0);
        break;
    case 2:
        lua_pushnumber(L, (lua_Number)(next_byte(r) & 1 ? 1.0 : -1.0) * (lua_Number)HUGE_VAL);
        break;
    case 3:
        lua_pushnumber(L, (lua_Number)NAN);
        break;
    case 4:
        lua_pushnumber(L, (lua_Number)special[next_byte(r) % 12]);
        break;
    default:
        lua_pushinteger(L, next_byte(r) & 1 ? LUA_MAXINTEGER : LUA_MININTEGER);
        break;
    }
}

static void push_value(lua_State *L, reader *r, int depth) {
    unsigned b = next_byte(r);
    unsigned kind = b % 8;
    if (depth >= 6 && kind >= 5) {
        kind = 1;
    }
    switch (kind) {
    case 0:
        lua_pushboolean(L, b & 8);
        break;
    case 1:
    case 2:
        push_number(L, b >> 3, r);
        break;
    case 3:
        lua_pushstring(L, words[next_byte(r) % WORD_COUNT]);
        break;
    case 4:
        if (b & 8) {
            luaL_loadstring(L, "return ...");
        } else {
            lua_pushnil(L);
        }
        break;
    default: {
        unsigned count = next_byte(r) % 9;
        lua_createtable(L, 0, 0);
        for (unsigned i = 0; i < count && r->n > 0; i++) {
            push_key(L, r);
            push_value(L, r, depth + 1);
            if (lua_isnil(L, -1)) {
                lua_pop(L, 2);
            } else {
                lua_rawset(L, -3);
            }
        }
        break;
    }
    }
}

/* Runs inside the protected path: builds the table from the input, then calls the chunk at
 * upvalue 1 with it. */
static int build_and_call(lua_State *L) {
    reader *r = (reader *)lua_touserdata(L, 1);
    lua_settop(L, 0);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_createtable(L, 0, 4);
    lua_pushstring(L, "attacks");
    push_value(L, r, 1);
    if (!lua_isnil(L, -1)) {
        lua_rawset(L, -3);
    } else {
        lua_pop(L, 2);
    }
    while (r->n > 0) {
        push_key(L, r);
        push_value(L, r, 1);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 2);
        } else {
            lua_rawset(L, -3);
        }
    }
    lua_call(L, 1, 1);
    return 1;
}

/* The chunk a modder would write, and a short swing of what it returns; a table with
 * animations (and no attacks) is a body instead, played, guarding, by a target of the swing.
 * Both calls are on line 1, where every validation error must point. Loaded outside the
 * protected path: the fresh state is far below its budget, so this cannot fail for memory. */
static const char *const chunk =
    "local t = ... local b = t.animations ~= nil and cleave.body(t) local w = b or "
    "cleave.weapon(t)\n"
    "local arena = cleave.arena {} local p = arena:spawn { team = 1 }\n"
    "if b then\n"
    "  local e = arena:spawn { team = 2, x = 20, body = b, state = 'guard', facing = 180 }\n"
    "  for _, a in ipairs(b:animations()) do e:play(a.name) arena:step(2) e:hurtboxes() end\n"
    "  e:info() return b\n"
    "end\n"
    "arena:spawn { team = 2, x = 20, radius = 8 }\n"
    "local first = w:attacks()[1]\n"
    "if first then arena:attack { weapon = w, attack = first, owner = p } arena:step(8) end\n"
    "return w\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    clv_sandbox_limits limits = clv_sandbox_default_limits();
    limits.api = luaopen_cleave;
    limits.memory_bytes = (size_t)8 << 20;
    limits.load_ms = 200;
    limits.callback_ms = 200;
    char err[2048];
    clv_sandbox *sb = clv_sandbox_create(&limits, err, sizeof err);
    if (sb == NULL) {
        fprintf(stderr, "fuzz_weapon: create failed: %s\n", err);
        abort();
    }
    lua_State *L = clv_sandbox_state(sb);
    int top = lua_gettop(L);
    if (luaL_loadbufferx(L, chunk, strlen(chunk), "=fuzz", "t") != LUA_OK) {
        fprintf(stderr, "fuzz_weapon: chunk: %s\n", lua_tostring(L, -1));
        abort();
    }
    lua_pushcclosure(L, build_and_call, 1);
    reader r = {data, size};
    lua_pushlightuserdata(L, &r);
    if (clv_sandbox_call(sb, 1, 1, err, sizeof err)) {
        if (luaL_testudata(L, -1, "cleave.Weapon") == NULL &&
            luaL_testudata(L, -1, "cleave.Body") == NULL) {
            fprintf(stderr, "fuzz_weapon: cleave.weapon or cleave.body returned a %s\n",
                    luaL_typename(L, -1));
            abort();
        }
        lua_pop(L, 1);
    } else {
        char *tb = strstr(err, "\nstack traceback:");
        if (tb != NULL) {
            *tb = '\0';
        }
        bool memory = strstr(err, "not enough memory") != NULL;
        bool timeout = strstr(err, "time limit exceeded") != NULL;
        if (!memory && !timeout &&
            (strncmp(err, "fuzz:1: ", 8) != 0 || strchr(err, '\n') != NULL ||
             strstr(err, "error object") != NULL)) {
            fprintf(stderr, "fuzz_weapon: not a clean validation error: %s\n", err);
            abort();
        }
    }
    if (lua_gettop(L) != top) {
        fprintf(stderr, "fuzz_weapon: the stack moved from %d to %d\n", top, lua_gettop(L));
        abort();
    }
    clv_sandbox_close(sb);
    if (clv_sandbox_bytes(sb) != 0) {
        fprintf(stderr, "fuzz_weapon: %zu bytes left after close\n", clv_sandbox_bytes(sb));
        abort();
    }
    clv_sandbox_destroy(sb);
    return 0;
}
