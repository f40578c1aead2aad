#!/bin/sh
# Configures a build with some optional packages hidden from CMake, as on a machine that lacks
# them, and builds every target (those left out of `all` too). Prints what CMake skipped.
# Usage: tests/build_without.sh BUILD_DIR [PART...]   (from the repository root)
# BUILD_TYPE picks CMake's build type (default RelWithDebInfo).
# Parts: box2d chipmunk cxx sdl2 stb busted lua54 python3 xvfb luarocks lualib luastatic love cjson
set -eu
build=$1
shift

# An empty pkg-config search path hides SDL2 (the only package found through pkg-config).
empty_pc="$build.no-pc"
args=""
env_pc=""
for part in "$@"; do
    case $part in
    box2d) args="$args -DCLV_BOX2D_INCLUDE=CLV_BOX2D_INCLUDE-NOTFOUND -DCLV_BOX2D_LIBRARY=CLV_BOX2D_LIBRARY-NOTFOUND" ;;
    chipmunk) args="$args -DCLV_CHIPMUNK_INCLUDE=CLV_CHIPMUNK_INCLUDE-NOTFOUND -DCLV_CHIPMUNK_LIBRARY=CLV_CHIPMUNK_LIBRARY-NOTFOUND" ;;
    cxx) args="$args -DCMAKE_CXX_COMPILER=CMAKE_CXX_COMPILER-NOTFOUND" ;;
    sdl2) env_pc=1 ;;
    stb) args="$args -DCLEAVE_STB_INCLUDE_DIR=CLEAVE_STB_INCLUDE_DIR-NOTFOUND -DCLEAVE_STB_LIBRARY=CLEAVE_STB_LIBRARY-NOTFOUND" ;;
    busted) args="$args -DCLEAVE_BUSTED=CLEAVE_BUSTED-NOTFOUND" ;;
    lua54) args="$args -DCLEAVE_LUA54=CLEAVE_LUA54-NOTFOUND" ;;
    python3) args="$args -DCMAKE_DISABLE_FIND_PACKAGE_Python3=ON" ;;
    xvfb) args="$args -DCLEAVE_XVFB_RUN=CLEAVE_XVFB_RUN-NOTFOUND" ;;
    luarocks) args="$args -DCLEAVE_LUAROCKS=CLEAVE_LUAROCKS-NOTFOUND" ;;
    lualib) args="$args -DCLEAVE_LUA_LIBRARY=CLEAVE_LUA_LIBRARY-NOTFOUND" ;;
    luastatic) args="$args -DCLEAVE_LUA_STATIC_LIBRARY=CLEAVE_LUA_STATIC_LIBRARY-NOTFOUND" ;;
    love) args="$args -DCLEAVE_LOVE=CLEAVE_LOVE-NOTFOUND -DCLEAVE_LUAJIT=CLEAVE_LUAJIT-NOTFOUND" ;;
    cjson) args="$args -DCLEAVE_CJSON_INCLUDE_DIR=CLEAVE_CJSON_INCLUDE_DIR-NOTFOUND -DCLEAVE_CJSON_LIBRARY=CLEAVE_CJSON_LIBRARY-NOTFOUND" ;;
    *)
        echo "build_without.sh: unknown part '$part'" >&2
        exit 2
        ;;
    esac
done

rm -rf "$build" "$empty_pc"
mkdir -p "$(dirname "$build")"
if [ -n "$env_pc" ]; then
    mkdir -p "$empty_pc"
    export PKG_CONFIG_LIBDIR="$empty_pc"
fi
echo "== configure without:${*:- nothing}"
# shellcheck disable=SC2086
cmake -G "Unix Makefiles" -S . -B "$build" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" $args >"$build.configure.log" 2>&1 || {
    cat "$build.configure.log"
    exit 1
}
grep -i -e skipped -e 'not registered' -e 'not found' "$build.configure.log" | grep -v 'Check for working' || true

# Every target of the project: the Makefile's `help` lists CMake's own ones first, up to `test`.
targets=$(cmake --build "$build" --target help | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p' |
    sed '1,/^test$/d')
echo "== build $(echo "$targets" | wc -l) targets"
# shellcheck disable=SC2086
cmake --build "$build" -j "${JOBS:-2}" --target all $targets >"$build.build.log" 2>&1 || {
    grep -e 'error' -e 'Error' "$build.build.log" | head -n 40
    echo "build_without.sh: the build failed (log: $build.build.log)" >&2
    exit 1
}
echo "== built"
