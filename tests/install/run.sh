#!/bin/sh
# usage: run.sh BUILD_DIR WORK_DIR CONSUMER_SOURCE_DIR C_COMPILER [EXTRA_FLAGS]
set -eu
build=$1 work=$2 src=$3 cc=$4 extra=${5:-}
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null

echo "== find_package(cleave)"
cmake -S "$src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_C_FLAGS="$extra" -DCMAKE_EXE_LINKER_FLAGS="$extra" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"$work/cmake-build/tiny_game"

echo "== pkg-config cleave"
libdir=$(find "$prefix" -name cleave.pc -exec dirname {} \;)
flags=$(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs cleave)
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Werror $extra -o "$work/tiny_game_pc" "$src/main.c" $flags
"$work/tiny_game_pc"
