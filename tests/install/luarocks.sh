#!/bin/sh
# `luarocks make` of the rockspec into a scratch tree, from a copy of the sources the rock
# needs (it builds in the folder it runs in), then the installed module and scripts in use.
# usage: luarocks.sh SOURCE_DIR WORK_DIR LUAROCKS LUA54
set -eu
root=$1 work=$2 luarocks=$3 lua=$4
rm -rf "$work"
mkdir -p "$work/src"
cp -R "$root/CMakeLists.txt" "$root/cmake" "$root/runtime" "$root/scripts" "$root/docs" \
    "$root/cleave-0.1.0-1.rockspec" "$work/src/"
tree="$work/tree"
(cd "$work/src" && "$luarocks" --lua-version 5.4 --tree "$tree" make cleave-0.1.0-1.rockspec) \
    >"$work/make.log" 2>&1 || {
    tail -n 40 "$work/make.log"
    echo "FAIL: luarocks make"
    exit 1
}
"$luarocks" --lua-version 5.4 --tree "$tree" list | grep -A1 '^cleave$'
# Only the scratch tree on the search paths: nothing from the build or the system.
out=$(cd "$work" && "$lua" -e "package.cpath = '$tree/lib/lua/5.4/?.so'" \
    -e "package.path = '$tree/share/lua/5.4/?.lua'" -e '
local c = require "cleave"
local T = require "cleave.testing"
assert(type(T.arena) == "function", "cleave.testing has no arena")
print(package.searchpath("cleave", package.cpath))
print(c.overlaps(c.capsule(-100, -100, 100, 100, 1), c.capsule(-100, 100, 100, -100, 1)),
      c.exact.overlaps(c.circle(0, 0, 2), c.circle(3, 4, 3)))')
echo "$out"
echo "$out" | grep -qx 'true	false' || { echo "FAIL: expected 'true<TAB>false'"; exit 1; }
echo ok
