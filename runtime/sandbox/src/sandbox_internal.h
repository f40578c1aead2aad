/* Shared by the sandbox's own files (sandbox.c, sandbox_env.c, sandbox_lib.c, sandbox_lua.c,
 * lpattern_guard.c); not part of the contract other parts build on. */
#ifndef CLEAVE_LUA_SANDBOX_INTERNAL_H
#define CLEAVE_LUA_SANDBOX_INTERNAL_H

#include <stdbool.h>

#include <lua.h>

#include "sandbox.h"

/* The sandbox's state: defined here for its own files only. */
struct clv_sandbox {
    lua_State *L;
    clv_sandbox_limits limits;
    size_t bytes;
    size_t peak;
    long fail_after; /* refuse the n-th growth and all after it; 0 = never */
    long growths;
    bool timing;             /* a deadline runs */
    double wall_start;       /* monotonic seconds when it started */
    double cpu_start;        /* the thread's CPU seconds when it started */
    double budget_ms;        /* of the running deadline */
    double shown_ms;         /* the budget its timeout message names */
    bool expired;            /* the running deadline has passed */
    size_t grown_since_look; /* bytes allocated since the allocator last looked at the clock */
    unsigned long ticks;     /* clv_sandbox_tick's count */
    double frame_spent;      /* CPU seconds the callbacks of this frame took */
    bool frame_reported;     /* the frame's budget ran out and a call said so */
    struct strike {
        int key;
        int count; /* timeouts in a row; CLV_SANDBOX_STRIKES: disabled */
    } * strikes;
    int strike_count;
    int strike_cap;
    const char *phase; /* "load" or "callback" */
    int busy;
    int faults;
    bool oom_noted;       /* oom_where holds the first refused allocation of this call */
    char oom_where[160];  /* "file:line: " of the Lua code that asked for it */
    bool late_noted;      /* late_where holds where the deadline first stopped this call */
    char late_where[160]; /* "file:line: " of a timeout raised or a late request refused */
    int log_first;        /* ring of log lines */
    int log_count;
    long log_dropped;
    char log[CLV_SANDBOX_LOG_LINES][CLV_SANDBOX_LOG_LINE];
};

/// Turns the deadline's count hook on for L (a new coroutine starts without it).
void clv_sandbox_arm_hook(lua_State *L);
/// load()'s reader function for a string chunk (upvalues: the string, the bytes read): the
/// next piece, so that parsing meets the deadline between pieces.
int clv_sandbox_string_pieces(lua_State *L);
/// Keeps a line (at most CLV_SANDBOX_LOG_LINE - 1 bytes) in the log, dropping the oldest.
void clv_sandbox_log_add(clv_sandbox *sb, const char *line);
/// Builds the allow-listed environment in the sandbox's state (run protected) and checks it.
int clv_sandbox_build_env(lua_State *L);

/// true once the running deadline has passed; it then also makes the count hook fire on every
/// instruction, so the error raised next cannot be swallowed. false when no deadline runs.
bool clv_sandbox_expired(lua_State *L);
/// Counts a step of C work (a comparison of table.sort) and raises the timeout every so many
/// steps once the deadline has passed.
void clv_sandbox_tick(lua_State *L);

/// Pushes "<where>time limit exceeded (<budget> ms per <phase>)" for the error raised when a
/// deadline passes; `where` is the "file:line: " of the first Lua frame from `level` up, or
/// empty, and is kept as where the call was first stopped.
const char *clv_sandbox_push_timeout(lua_State *L, int level);

/// Replaces find, match, gmatch and gsub of the table on top of the stack by versions whose
/// matching stops at the sandbox deadline and whose recursion is bounded.
void clv_sandbox_open_patterns(lua_State *L);

/// Replaces, in the global table on top of the stack, setmetatable and the library functions
/// whose loops a mod could make long in C (table.insert, remove, move, sort, concat;
/// string.rep, pack, packsize, unpack; utf8.len, offset, codepoint, codes; tonumber, next,
/// pairs, rawequal) by versions that check the deadline or refuse what would loop
/// (sandbox_lib.c).
void clv_sandbox_open_lib(lua_State *L);
/// Replaces field `name` of the table on top by the C closure f over its old value.
void clv_sandbox_wrap_field(lua_State *L, const char *name, lua_CFunction f);

#endif
