/* The version of libcleave.so, the shared library that bundles the C API of collide, hit and
 * the mod host (with a private Lua 5.4) for programs that load cleave at run time, such as a
 * LuaJIT game through its FFI.
 *
 * CLV_ABI_VERSION changes whenever a type or a function of the exported API changes in a way
 * that breaks a program built against an earlier one; it is also the library's soname suffix
 * (libcleave.so.1). A program checks clv_abi_version() against the value it was written for.
 */
#ifndef CLEAVE_VERSION_H
#define CLEAVE_VERSION_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The ABI this header describes.
#define CLV_ABI_VERSION 1

/// The release of cleave the library was built from, e.g. "0.1.0".
const char *clv_version(void);

/// The ABI the library implements (CLV_ABI_VERSION when it was built).
int clv_abi_version(void);

/// The size in bytes of a type of the API as the library was built, by its name ("clv_shape",
/// "clv_hit_event"...); 0 for a name it does not know. A binding that declares the types
/// itself (LuaJIT's FFI) checks its own sizes against these when it loads the library.
size_t clv_abi_sizeof(const char *type_name);

#ifdef __cplusplus
}
#endif

#endif
