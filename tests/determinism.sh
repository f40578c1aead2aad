#!/bin/sh
# The determinism table: the same arena scenario (tests/c/hit/test_determinism.c, which prints
# the arena's hash after every frame with --hashes) built with gcc and clang, at -O0, -O2 and
# -O3 -march=native, and under ASan + UBSan, must print the same hashes. Each flavour is a
# small build in WORK_DIR (the Lua part and the app are left out) of that one program.
# Usage: tests/determinism.sh WORK_DIR   (from the repository root)
set -eu
work=$1
src=$(pwd)
jobs=${JOBS:-2}

for cc in gcc clang; do
    if ! command -v "$cc" >/dev/null 2>&1; then
        echo "determinism: $cc not found (sh cmake/install-deps.sh build fuzz installs it)" >&2
        exit 1
    fi
done

# name, compiler, build type, then extra CMake arguments
flavours="gcc-O2 gcc RelWithDebInfo
clang-O2 clang RelWithDebInfo
gcc-Debug gcc Debug
gcc-O3-native gcc Release -DCMAKE_C_FLAGS=-march=native
gcc-asan-ubsan gcc RelWithDebInfo -DCLEAVE_SANITIZE=ON"

mkdir -p "$work"
first=""
status=0
echo "$flavours" | {
    while read -r name cc type extra; do
        dir="$work/$name"
        # shellcheck disable=SC2086
        if ! cmake -S "$src" -B "$dir" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE="$type" \
            -DCLEAVE_LUA=OFF $extra >"$dir.log" 2>&1 ||
            ! cmake --build "$dir" -j "$jobs" --target hit_test_determinism >>"$dir.log" 2>&1; then
            tail -n 30 "$dir.log"
            echo "determinism: the $name build failed (log: $dir.log)" >&2
            exit 1
        fi
        out="$work/$name.hashes"
        if ! "$dir/tests/hit_test_determinism" --hashes >"$out"; then
            echo "determinism: the $name scenario failed" >&2
            exit 1
        fi
        frames=$(wc -l <"$out")
        if [ "$frames" -lt 100 ]; then
            echo "determinism: $name printed $frames frames, expected 300" >&2
            exit 1
        fi
        echo "determinism: $name: $frames frames, the last: $(tail -n 1 "$out")"
        if [ -z "$first" ]; then
            first=$name
        elif ! cmp -s "$work/$first.hashes" "$out"; then
            echo "determinism: $name differs from $first (frame hash hits misses ticks):"
            diff "$work/$first.hashes" "$out" | head -n 10
            status=1
        fi
    done
    exit $status
}
echo "determinism: every flavour printed the same hashes"
