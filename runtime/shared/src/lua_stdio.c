/* The standard streams of the bundled Lua 5.4. Distributions ship liblua5.4.a compiled as
 * position-dependent code, which reaches stdin, stdout and stderr through relocations a shared
 * library cannot hold. The build renames those references to the three variables below, which
 * live in the library itself, and they are set to the C library's streams when it is loaded. */
#include <stdio.h>

FILE *clv_lua_stdin, *clv_lua_stdout, *clv_lua_stderr;

__attribute__((constructor)) static void clv_lua_stdio_init(void) {
    clv_lua_stdin = stdin;
    clv_lua_stdout = stdout;
    clv_lua_stderr = stderr;
}
