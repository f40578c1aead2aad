#!/bin/sh
# render and check over every example mod, a broken mod, a bad inputs file, and no display.
# usage: cli.sh CLEAVE PNG_STAT SOURCE_DIR
set -u
cleave=$1 png=$2 src=$3
fail=0
count=0
for dir in "$src"/mods/*/; do
    [ -f "$dir/mod.lua" ] || continue
    name=$(basename "$dir")
    count=$((count + 1))
    if ! "$cleave" render "$dir" --out "render-$name.png"; then
        echo "FAIL: render $name"; fail=1; continue
    fi
    # every sheet holds at least one 144 px frame cell and the frame-data bar
    "$png" check "render-$name.png" 480 200 || { echo "FAIL: render $name"; fail=1; }
    out=$("$cleave" check "$dir") || { echo "FAIL: check $name exited $?"; fail=1; }
    echo "$out"
    echo "$out" | grep -q 'startup [0-9]' || { echo "FAIL: check $name: no frame data"; fail=1; }
    # the attacks are listed by the names mod.lua gives them (the keys of its attacks table)
    want=$(awk '/attacks = \{/ { f = 1; next } f && /^  \}/ { f = 0 }
                f && /^    [A-Za-z_][A-Za-z0-9_]* = / { print $1 }' "$dir/mod.lua" | sort | tr '\n' ' ')
    got=$(echo "$out" | sed -n 's/^  \([A-Za-z_][A-Za-z0-9_]*\): [0-9][0-9]* frames.*/\1/p' | sort | tr '\n' ' ')
    [ -n "$want" ] || { echo "FAIL: no attack names found in $name/mod.lua"; fail=1; }
    [ "$got" = "$want" ] || { echo "FAIL: check $name lists '$got', mod.lua defines '$want'"; fail=1; }
    # without --attack the sheet shows the first attack, titled by its name like --attack does
    first=$(echo "$out" | sed -n 's/^  \([A-Za-z_][A-Za-z0-9_]*\): [0-9][0-9]* frames.*/\1/p' | head -n 1)
    "$cleave" render "$dir" --attack "$first" --out "render-$name-named.png" > /dev/null &&
        cmp -s "render-$name.png" "render-$name-named.png" ||
        { echo "FAIL: render $name differs from render --attack $first"; fail=1; }
done

# The sword's three slashes by name (attacks are indexed in name order), with their lengths.
out=$("$cleave" check "$src/mods/sword")
got=$(echo "$out" | sed -n 's/^  \([a-z0-9]*\): \([0-9]*\) frames  startup \([0-9]*\).*/\1 \2 \3/p' | tr '\n' ';')
[ "$got" = "slash1 12 2;slash2 12 2;slash3 16 4;" ] || { echo "FAIL: sword check lists '$got'"; fail=1; }
if "$cleave" render "$src/mods/sword" --attack slash4 --out nope.png 2> nope.err; then
    echo "FAIL: render of a missing attack succeeded"; fail=1
fi
grep -q "no attack 'slash4'" nope.err || { echo "FAIL: '$(cat nope.err)'"; fail=1; }
[ "$count" -gt 0 ] || { echo "FAIL: no example mods under mods/"; exit 1; }

# A broken mod: check fails with the file and line.
mkdir -p broken_mod
printf 'local x = 1\nreturn {\n  name = "broken",\n  weapons = 3,\n' > broken_mod/mod.lua
if out=$("$cleave" check broken_mod 2>&1); then echo "FAIL: broken mod passed check"; fail=1; fi
echo "$out"
echo "$out" | grep -q 'mod.lua:[0-9]' || { echo "FAIL: no file:line in '$out'"; fail=1; }

# A bad inputs file: refused with file:line.
printf '0 aim 1 2\n5 jump\n' > bad.inputs
if out=$("$cleave" demo --headless --frames 5 --inputs bad.inputs 2>&1); then
    echo "FAIL: bad inputs accepted"; fail=1
fi
echo "$out" | grep -q 'bad.inputs:2: unknown command' || { echo "FAIL: '$out'"; fail=1; }

# No display: says so and points to the headless command, exit 2.
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$cleave" demo 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 2 ] || { echo "FAIL: no-display exit $rc"; fail=1; }
echo "$out" | grep -q -- '--headless' || { echo "FAIL: no headless hint"; fail=1; }

# Attract mode (no --inputs) swings at the enemies by itself.
out=$("$cleave" demo --headless --frames 400 --enemies 6 --mods "$src/mods" --screenshot attract.png)
echo "$out" | tail -2
echo "$out" | grep -q ' hit ' || { echo "FAIL: attract mode never hit"; fail=1; }
"$png" check attract.png 960 540 || fail=1

[ "$fail" -eq 0 ] && echo "ok: $count mods"
exit "$fail"
