/* Shared by the sandbox's own files (sandbox.c, sandbox_lib.c, sandbox_lua.c,
 * lpattern_guard.c); not part of the contract other parts build on. */
#ifndef CLEAVE_LUA_SANDBOX_INTERNAL_H
#define CLEAVE_LUA_SANDBOX_INTERNAL_H

#include <stdbool.h>

#include <lua.h>

#include "sandbox.h"

/// The sandbox that owns state L (any of its threads), or NULL when L is not a sandbox's.
clv_sandbox *clv_sandbox_of(lua_State *L);

/// true once the running deadline has passed; it then also makes the count hook fire on every
/// instruction, so the error raised next cannot be swallowed. false when no deadline runs.
bool clv_sandbox_expired(lua_State *L);

/// Raises the timeout error, naming the calling Lua line, once the deadline has passed: for C
/// loops of the API and library, where the count hook never fires.
void clv_sandbox_check_deadline(lua_State *L);

/// Pushes "<where>time limit exceeded (<budget> ms per <phase>)" for the error raised when a
/// deadline passes; `where` is the "file:line: " of the running Lua code or empty.
const char *clv_sandbox_push_timeout(lua_State *L, int level);

/// Replaces find, match, gmatch and gsub of the table on top of the stack by versions whose
/// matching stops at the sandbox deadline and whose recursion is bounded.
void clv_sandbox_open_patterns(lua_State *L);

/// Replaces, in the global table on top of the stack, setmetatable and the library functions
/// whose loops a mod could make long in C (table.insert, remove, move; string.rep) by versions
/// that check the deadline or refuse what would loop (sandbox_lib.c).
void clv_sandbox_open_lib(lua_State *L);

#endif
