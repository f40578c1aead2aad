#!/bin/sh
# Installs a build into a scratch prefix and uses it as a game would: checks that every public
# header and the executable are there, builds a tiny C game against it with find_package(cleave)
# and with pkg-config, and, with the Lua part, a C host that loads an example mod and prints
# its hits.
# usage: run.sh BUILD_DIR WORK_DIR CONSUMER_DIR C_COMPILER EXTRA_FLAGS SOURCE_DIR [lua] [app]
set -eu
build=$1 work=$2 src=$3 cc=$4 extra=$5 root=$6
shift 6
lua=0 app=0
for part in "$@"; do
    case $part in
    lua) lua=1 ;;
    app) app=1 ;;
    esac
done
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
fail() {
    echo "FAIL: $*"
    exit 1
}

cmake --install "$build" --prefix "$prefix" >/dev/null

echo "== installed files"
headers="collide.h broadphase.h motion.h hit.h"
[ "$lua" = 1 ] && headers="$headers mod.h lua.h"
for h in $headers; do
    [ -f "$prefix/include/cleave/$h" ] || fail "include/cleave/$h not installed"
done
echo "headers: $headers"
[ -f "$prefix/share/lua/5.4/cleave/testing.lua" ] || fail "the Lua scripts are not installed"
if [ "$app" = 1 ]; then
    [ -x "$prefix/bin/cleave" ] || fail "bin/cleave not installed"
    "$prefix/bin/cleave" check "$root/mods/plank" >"$work/check.txt" ||
        fail "the installed cleave check failed: $(cat "$work/check.txt")"
    grep -q board "$work/check.txt" || fail "cleave check printed no frame table"
    echo "bin/cleave check: $(wc -l <"$work/check.txt") lines"
    # The installed demo reads the installed mods, not the source tree's: without sword there,
    # it must not list a sword.
    rm -r "$prefix/share/cleave/mods/sword"
    (cd "$work" && "$prefix/bin/cleave" demo --headless --frames 5) >"$work/demo.txt" 2>&1 ||
        fail "the installed demo failed: $(cat "$work/demo.txt")"
    grep -q ': plank$' "$work/demo.txt" || fail "the installed demo listed no plank"
    ! grep -q ': sword$' "$work/demo.txt" || fail "the installed demo read the source tree's mods"
    echo "bin/cleave demo: $(grep -c ': weapon ' "$work/demo.txt") weapons from share/cleave/mods"
fi

echo "== find_package(cleave)"
cmake -S "$src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_C_FLAGS="$extra" -DCMAKE_EXE_LINKER_FLAGS="$extra" -DWITH_LUA="$lua" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"$work/cmake-build/tiny_game"

libdir=$(find "$prefix" -name cleave.pc -exec dirname {} \;)
echo "== pkg-config cleave"
flags=$(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs cleave)
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Werror $extra -o "$work/tiny_game_pc" "$src/main.c" $flags
"$work/tiny_game_pc"

[ "$lua" = 1 ] || exit 0
# plank's swing, as its spec pins it: the board hits the dummy on frame 6 for 6 damage.
want="hit: attack frame 6, hitbox board, damage 6"
echo "== find_package(cleave COMPONENTS lua): mod_host"
"$work/cmake-build/mod_host" "$root/mods/plank" | tee "$work/mod_host.txt"
grep -qx "$want" "$work/mod_host.txt" || fail "expected the line '$want'"
echo "== pkg-config cleave-lua: mod_host"
flags=$(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs cleave-lua)
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Werror $extra -o "$work/mod_host_pc" "$src/mod_host.c" $flags
"$work/mod_host_pc" "$root/mods/plank" >"$work/mod_host_pc.txt"
grep -qx "$want" "$work/mod_host_pc.txt" || fail "pkg-config build: expected the line '$want'"
echo ok
