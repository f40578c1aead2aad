#!/bin/sh
# The demo animates the attacker from a mod's Aseprite sheet (sheet.json beside mod.lua, and
# its PNG): the plank with the test sheet of tests/app/aseprite. The sheet's hand (60,110,220)
# and blade (210,210,225) colours are counted in headless screenshots: present during the
# swing, turned with its facing, absent without a sheet and after the swing; `cleave render`
# draws the same sheet without being told. A malformed sheet is reported with its JSON path
# and the demo swings without it.
# usage: demo_sheet.sh CLEAVE PNG_STAT SOURCE_DIR
set -u
cleave=$1 png=$2 src=$3
fail=0
rm -rf sheet-mod && mkdir sheet-mod
cp "$src/mods/plank/mod.lua" sheet-mod/
cp "$src/tests/app/aseprite/swing.json" sheet-mod/sheet.json
cp "$src/tests/app/aseprite/swing.png" sheet-mod/swing.png

shot() { # name mod aim_x aim_y frames: a swing on frame 2, screenshot at 3x after FRAMES
    printf '0 weapon 1\n0 aim %s %s\n2 attack\n' "$3" "$4" > "$1.inputs"
    "$cleave" demo --headless --frames "$5" --enemies 0 --mod "$2" --zoom 3 \
        --inputs "$1.inputs" --screenshot "$1.png" > "$1.log" 2> "$1.err" ||
        { echo "FAIL: $1 exited $?"; cat "$1.err"; fail=1; }
}
count() { "$png" count "$1.png" "$2" | cut -d' ' -f1; }
shape() { # name colour: "tall" or "wide", from the bounding box of the colour's pixels
    "$png" count "$1.png" "$2" | awk '{ print ($4 - $2 > $5 - $3) ? "wide" : "tall" }'
}

# the swing's third frame: the sheet's first frame, the blade held up (weapon-local -y)
shot right sheet-mod 400 256 5
shot down sheet-mod 288 400 5
shot plain "$src/mods/plank" 400 256 5
shot after sheet-mod 400 256 30
[ "$(count right 3C6EDC)" -ge 100 ] || { echo "FAIL: no hand of the sheet drawn"; fail=1; }
[ "$(count right D2D2E1)" -ge 100 ] || { echo "FAIL: no blade of the sheet drawn"; fail=1; }
[ "$(shape right D2D2E1)" = tall ] || { echo "FAIL: facing right, the raised blade is not upright"; fail=1; }
[ "$(shape down D2D2E1)" = wide ] || { echo "FAIL: facing down, the blade is not turned"; fail=1; }
[ "$(count plain 3C6EDC)" -eq 0 ] && [ "$(count plain D2D2E1)" -eq 0 ] ||
    { echo "FAIL: the sheet's colours without a sheet"; fail=1; }
[ "$(count after 3C6EDC)" -eq 0 ] || { echo "FAIL: the sheet drawn after the swing ended"; fail=1; }

# cleave render draws the mod's own sheet without --sheet, as it does with it
"$cleave" render sheet-mod --out own.png > /dev/null &&
    "$cleave" render sheet-mod --sheet sheet-mod/sheet.json --out given.png > /dev/null ||
    { echo "FAIL: render of the mod with a sheet"; fail=1; }
cmp -s own.png given.png || { echo "FAIL: render without --sheet ignores the mod's sheet"; fail=1; }
[ "$(count own 3C6EDC)" -ge 100 ] || { echo "FAIL: render drew no sprite"; fail=1; }

# a malformed sheet: its path and the mistake on stderr, and the swing goes on without it
sed 's/"duration": 100/"duration": "x"/' "$src/tests/app/aseprite/swing.json" > sheet-mod/sheet.json
shot bad sheet-mod 400 256 5
grep -q 'sheet-mod/sheet.json: frames.*duration' bad.err ||
    { echo "FAIL: the malformed sheet is not named: $(cat bad.err)"; fail=1; }
[ "$(count bad 3C6EDC)" -eq 0 ] || { echo "FAIL: a malformed sheet drawn"; fail=1; }
[ "$fail" -eq 0 ] && echo "demo sheet: ok"
exit "$fail"
