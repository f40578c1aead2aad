/* A sandbox for untrusted mod code: one lua_State per mod, with its own allocator budget,
 * CPU deadlines, an allow-listed environment and one protected path for every host->mod call.
 * Private to the Lua part: the mod loader and the `cleave.sandbox` Lua API are built on it. */
#ifndef CLEAVE_LUA_SANDBOX_H
#define CLEAVE_LUA_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#include <lua.h>

/// Limits of one sandbox. Build with clv_sandbox_default_limits() and change what you need.
typedef struct clv_sandbox_limits {
    size_t memory_bytes; ///< allocator budget (default 64 MiB)
    double load_ms;      ///< CPU deadline for loading a chunk (default 250 ms)
    double callback_ms;  ///< CPU deadline for one host->mod call (default 2 ms)
} clv_sandbox_limits;

/// The defaults: 64 MiB, 250 ms per load, 2 ms per callback.
clv_sandbox_limits clv_sandbox_default_limits(void);

/// An isolated Lua state for one mod.
typedef struct clv_sandbox clv_sandbox;

/// Creates a sandbox: a fresh lua_State on a counting allocator, holding only the allowed
/// base functions, string, table, math, utf8, coroutine, `log`, and a read-only `cleave`.
/// Returns NULL and writes a message to err (size errlen) on failure.
clv_sandbox *clv_sandbox_create(const clv_sandbox_limits *limits, char *err, size_t errlen);

/// Closes the state; afterwards the sandbox's allocator holds 0 bytes. NULL is ignored.
void clv_sandbox_destroy(clv_sandbox *sb);

/// The sandbox's own state (never the host's).
lua_State *clv_sandbox_state(clv_sandbox *sb);

/// Bytes currently allocated by the sandbox's state.
size_t clv_sandbox_bytes(const clv_sandbox *sb);

/// Loads text-mode Lua source (binary chunks refused) named `chunkname` ("@mods/x/mod.lua")
/// and runs it under the load deadline, leaving nresults values on the sandbox stack.
/// Returns true on success; on failure writes "file:line: message" (with a traceback after a
/// newline) to err and leaves the stack as it was.
bool clv_sandbox_run(clv_sandbox *sb, const char *source, size_t len, const char *chunkname,
                     int nresults, char *err, size_t errlen);

/// Like clv_sandbox_run, reading the file at path (chunkname "@path").
bool clv_sandbox_run_file(clv_sandbox *sb, const char *path, int nresults, char *err,
                          size_t errlen);

/// Calls the function below nargs arguments on the sandbox stack under the callback deadline,
/// through the one protected path (a traceback handler that never runs a metamethod on the
/// error object). On success leaves nresults values; on failure pops function and arguments,
/// writes the message to err and returns false. Counts consecutive faults (see below).
bool clv_sandbox_call(clv_sandbox *sb, int nargs, int nresults, char *err, size_t errlen);

/// Consecutive failed calls since the last success; the mod loader disables a mod past a limit.
int clv_sandbox_faults(const clv_sandbox *sb);

#endif
