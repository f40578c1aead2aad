#!/bin/sh
# libcleave.so exports the public C API and nothing else: no symbol of its private Lua 5.4
# (a LuaJIT game exports functions of the same names) and no internal function of cleave.
# usage: exports.sh path/to/libcleave.so
set -u
lib=$1
syms=$(nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | sed 's/@.*//')
count=$(printf '%s\n' "$syms" | grep -c .)
bad=$(printf '%s\n' "$syms" | grep -v '^clv_')
private=$(printf '%s\n' "$syms" | grep -E '^clv_(lua|larena|lalloc|sandbox|f|mod_internal)_')
status=0
if [ -n "$bad" ]; then
    echo "FAIL: exported symbols outside the API:"; printf '%s\n' "$bad" | head -20; status=1
fi
if [ -n "$private" ]; then
    echo "FAIL: internal functions exported:"; printf '%s\n' "$private" | head -20; status=1
fi
for name in clv_version clv_abi_version clv_overlap clv_arena_step clv_mod_load clv_body_create; do
    printf '%s\n' "$syms" | grep -qx "$name" || { echo "FAIL: $name is not exported"; status=1; }
done
undefined_lua=$(nm -D --undefined-only "$lib" | grep -E ' (lua|luaL|luaopen)_')
if [ -n "$undefined_lua" ]; then
    echo "FAIL: the library takes Lua functions from the process:"; echo "$undefined_lua"; status=1
fi
[ "$status" -eq 0 ] && echo "libcleave.so exports $count functions, all of the public API"
exit "$status"
