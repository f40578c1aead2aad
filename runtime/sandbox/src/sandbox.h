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
    double frame_ms;     ///< CPU budget of all callbacks of one frame together (default 5 ms;
                         ///< 0 also means the default)
    lua_CFunction api;   ///< opens the table mods see as `cleave` (default NULL: no such table);
                         ///< its fields sandbox, load_mod and reload_mod are removed
} clv_sandbox_limits;

/// The defaults: 64 MiB, 250 ms per load, 2 ms per callback, 5 ms of callbacks per frame.
clv_sandbox_limits clv_sandbox_default_limits(void);

/// An isolated Lua state for one mod.
typedef struct clv_sandbox clv_sandbox;

/// Creates a sandbox: a fresh lua_State on a counting allocator, holding only the allowed
/// base functions, string, table, math, utf8, coroutine, `log`, and `cleave` when
/// limits->api opens it.
/// Returns NULL and writes a message to err (size errlen) on failure.
clv_sandbox *clv_sandbox_create(const clv_sandbox_limits *limits, char *err, size_t errlen);

/// Closes the state; afterwards the sandbox's allocator holds 0 bytes. NULL is ignored.
void clv_sandbox_destroy(clv_sandbox *sb);

/// The sandbox's own state (never the host's).
lua_State *clv_sandbox_state(clv_sandbox *sb);

/// Bytes currently allocated by the sandbox's state.
size_t clv_sandbox_bytes(const clv_sandbox *sb);

/// Largest source a sandbox parses, in bytes: clv_sandbox_run, clv_sandbox_run_file and a mod's
/// load() refuse a longer one. Parsing also runs under the load deadline.
#define CLV_SANDBOX_MAX_SOURCE (4 * 1024 * 1024)

/// Loads text-mode Lua source (binary chunks refused) named `chunkname` ("@mods/x/mod.lua")
/// and runs it under the load deadline, leaving nresults values on the sandbox stack.
/// Returns true on success; on failure writes "file:line: message" (with a traceback after a
/// newline) to err and leaves the stack as it was.
bool clv_sandbox_run(clv_sandbox *sb, const char *source, size_t len, const char *chunkname,
                     int nresults, char *err, size_t errlen);

/// Like clv_sandbox_run, reading the file at path (chunkname "@path"). Only a regular file is
/// read; it is opened without blocking, so a FIFO or a device is refused, never waited on.
bool clv_sandbox_run_file(clv_sandbox *sb, const char *path, int nresults, char *err,
                          size_t errlen);

/// Calls the function below nargs arguments on the sandbox stack under the callback deadline,
/// through the one protected path (a traceback handler that never runs a metamethod on the
/// error object). On success leaves nresults values; on failure pops function and arguments,
/// writes the message to err and returns false. Counts consecutive faults (see below).
bool clv_sandbox_call(clv_sandbox *sb, int nargs, int nresults, char *err, size_t errlen);

/// Like clv_sandbox_call, under the load deadline and without counting a fault: for the
/// host's own reads of what a chunk returned (a mod table's fields may be metamethods) and for
/// a mod's self-test while it loads.
bool clv_sandbox_call_load(clv_sandbox *sb, int nargs, int nresults, char *err, size_t errlen);

/// A callback that runs out of its own time this many times in a row is disabled.
#define CLV_SANDBOX_STRIKES 3

/// What clv_sandbox_call_callback did.
typedef enum clv_callback_status {
    CLV_CALLBACK_OK,      ///< the callback ran and returned
    CLV_CALLBACK_FAILED,  ///< it failed, or was refused; err says why
    CLV_CALLBACK_SKIPPED, ///< not run: disabled, or the frame's budget was used up (said once)
} clv_callback_status;

/// Starts a frame: the callbacks' budget of limits.frame_ms is whole again.
void clv_sandbox_frame_begin(clv_sandbox *sb);

/// Calls the function below nargs arguments (no results) as callback `key` (any number the
/// host uses to name one callback) under the callback deadline, cut to what is left of the
/// frame's budget. A callback that runs out of its own time CLV_SANDBOX_STRIKES times in a row
/// is disabled: the last failure's message says so, a line goes to the sandbox's log, and
/// later calls are skipped. Once the frame's budget is used up, the first call refused says
/// so (FAILED) and the rest of the frame's calls are skipped. Function and arguments are
/// always popped.
clv_callback_status clv_sandbox_call_callback(clv_sandbox *sb, int key, int nargs, char *err,
                                              size_t errlen);

/// Consecutive failed calls since the last success; the mod loader disables a mod past a limit.
int clv_sandbox_faults(const clv_sandbox *sb);

/* ---- Additions: the mod's log, the allocator's counters and test aids. ---- */

/// How many log()/print() lines a sandbox keeps (the newest), and the bytes kept of each.
#define CLV_SANDBOX_LOG_LINES 64
#define CLV_SANDBOX_LOG_LINE 256

/// Number of log lines kept (at most CLV_SANDBOX_LOG_LINES).
int clv_sandbox_log_count(const clv_sandbox *sb);

/// Kept log line i, 0 the oldest kept; NULL when i is out of range. Valid until the next call
/// into the sandbox.
const char *clv_sandbox_log_line(const clv_sandbox *sb, int i);

/// Number of lines dropped because the log was full since the last clear.
long clv_sandbox_log_dropped(const clv_sandbox *sb);

/// Forgets every log line.
void clv_sandbox_log_clear(clv_sandbox *sb);

/// Counts `bytes` the host holds on the mod's behalf (an arena's copy of one of its weapons)
/// against its budget, as if the state had allocated them: refused like any allocation past
/// the cap (false, nothing counted). Give them back with clv_sandbox_uncharge.
bool clv_sandbox_charge(clv_sandbox *sb, size_t bytes);

/// Gives back bytes counted by clv_sandbox_charge.
void clv_sandbox_uncharge(clv_sandbox *sb, size_t bytes);

/// Highest byte count the sandbox's state ever reached.
size_t clv_sandbox_peak(const clv_sandbox *sb);

/// Closes the state early while keeping the counters readable (clv_sandbox_bytes is then 0);
/// clv_sandbox_destroy still frees the rest. Runs, calls and the state are unavailable after.
void clv_sandbox_close(clv_sandbox *sb);

/// The limits the sandbox was created with.
clv_sandbox_limits clv_sandbox_get_limits(const clv_sandbox *sb);

/// true until clv_sandbox_close.
bool clv_sandbox_is_open(const clv_sandbox *sb);

/// Like clv_sandbox_create, but the allocator refuses its fail_after-th growing request and
/// every one after it (0: never); for allocation-failure sweeps.
clv_sandbox *clv_sandbox_create_failing(const clv_sandbox_limits *limits, long fail_after,
                                        char *err, size_t errlen);

/// The sandbox that owns state L (any of its threads), or NULL when L is not a sandbox's.
clv_sandbox *clv_sandbox_of(lua_State *L);

/// Raises the timeout error, naming the calling Lua line, once the deadline has passed: for C
/// loops of the API and library, where the count hook never fires.
void clv_sandbox_check_deadline(lua_State *L);

#endif
