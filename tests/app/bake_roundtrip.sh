#!/bin/sh
# Round trip of `cleave bake`: each mod's attacks baked to frames files, and a copy of the mod
# whose weapons take every attack from those files (cleave.frames), pass the mod's own spec
# with the same golden hit logs. The spec's "broken copies" edit mod.lua's generators, which the
# copy no longer reads, so they are left out. The mods are the example mods and the fixtures of
# tests/app/bake (puncher: carried hurtboxes, defence fields under weapon defaults), whose own
# specs run here first; or the folders given after CPATH. A mod without a spec folder has
# nothing to check its copy against: it is skipped, and said so. A mod of several weapons has
# each baked; two weapons with an attack of the same name cannot share the copy's one frames
# folder: such a mod is skipped, and said so.
# usage: bake_roundtrip.sh CLEAVE SOURCE_DIR LUA BUSTED CPATH [MOD_FOLDER...]
set -u
cleave=$1 src=$2 lua=$3 busted=$4 cpath=$5
shift 5
[ $# -gt 0 ] || set -- "$src"/mods/*/ "$src"/tests/app/bake/*/
fail=0
work=$(pwd)/bake_roundtrip
rm -rf "$work" && mkdir -p "$work"
# Put in front of mod.lua's first line, so that its line numbers stay the same.
prologue='local baked_weapon = cleave.weapon; cleave.weapon = function(w) for name in pairs(w.attacks) do w.attacks[name] = cleave.frames(name) end return baked_weapon(w) end; '

spec() { # folder [busted options]: the folder's specs pass, run from the source folder
    dir=$1
    shift
    (cd "$src" && "$lua" "$busted" --ignore-lua --output=plainTerminal --cpath="$cpath" "$@" "$dir")
}

count=0 skipped=0
for dir in "$@"; do
    [ -f "$dir/mod.lua" ] || continue
    name=$(basename "$dir")
    if [ ! -d "$dir/spec" ]; then
        echo "skipped $name: no spec folder, so nothing checks its baked copy"
        skipped=$((skipped + 1))
        continue
    fi
    count=$((count + 1))
    case $dir in
    "$src"/mods/*) ;; # the example mods' specs run in lua.specs
    *) spec "$dir" || { echo "FAIL: $name does not pass its own spec"; fail=1; } ;;
    esac
    copy="$work/$name"
    cp -R "$dir" "$copy"
    { printf '%s' "$prologue"; cat "$dir/mod.lua"; } > "$copy/mod.lua"
    # without its frames files the copy does not load: every attack comes from them
    out=$("$cleave" check "$copy" 2>&1) && { echo "FAIL: $name loads without frames files"; fail=1; }
    echo "$out" | grep -q "frames/.*\.lua: it No such file\|cannot read .*frames/" ||
        { echo "FAIL: $name without frames files: '$out'"; fail=1; }
    # every weapon's attacks into the one frames folder the copy reads them from by name
    weapons=$("$cleave" check "$dir" 2>/dev/null | sed -n 's/^weapon \([^:]*\): .*/\1/p')
    baked=1 shared=0
    for w in $weapons; do
        rm -rf "$work/one" && mkdir -p "$work/one" "$copy/frames"
        "$cleave" bake "$dir" --weapon "$w" --out "$work/one" ||
            { echo "FAIL: bake $name, weapon $w"; fail=1; baked=0; break; }
        for f in "$work/one"/*; do
            [ -e "$copy/frames/$(basename "$f")" ] && shared=1
            cp "$f" "$copy/frames/"
        done
    done
    [ -n "$weapons" ] || { echo "FAIL: cleave check lists no weapon of $name"; fail=1; continue; }
    [ "$baked" -eq 1 ] || continue
    if [ "$shared" -eq 1 ]; then
        echo "skipped $name: two of its weapons name an attack alike, and one frames folder holds both"
        skipped=$((skipped + 1)) count=$((count - 1))
        continue
    fi
    spec "$copy" --filter-out "broken copies" ||
        { echo "FAIL: the baked copy of $name does not pass its spec"; fail=1; }
done
[ $((count + skipped)) -gt 0 ] || { echo "FAIL: no mods"; fail=1; }
[ "$fail" -eq 0 ] && echo "bake round trip: $count mods ok, $skipped skipped"
exit "$fail"
