#!/bin/sh
# `cleave import aseprite`: the test sheet (make_aseprite_sheet.py) gives the pinned frames file,
# which a mod loads with the hitboxes the slices mark; malformed JSON is refused with its path.
# With --sheet, render draws the sheet's sprites under the hitboxes.
# usage: aseprite_import.sh CLEAVE SOURCE_DIR HAVE_JSON(ON|OFF) PNG_STAT
set -u
cleave=$1 src=$2 have_json=$3 png=$4
here="$src/tests/app/aseprite"
fail=0
if [ "$have_json" != ON ]; then
    out=$("$cleave" import aseprite "$here/swing.json" --attack swing --out x.lua 2>&1)
    [ $? -eq 1 ] && echo "$out" | grep -q 'built without cJSON' ||
        { echo "FAIL: import without cJSON: '$out'"; exit 1; }
    echo "aseprite import: not built (no cJSON), and says so"
    exit 0
fi

"$cleave" import aseprite "$here/swing.json" --attack swing --out swing.lua 2> notes.txt ||
    { echo "FAIL: import exited $?: $(cat notes.txt)"; fail=1; }
cmp swing.lua "$here/swing.frames.lua" || { diff swing.lua "$here/swing.frames.lua" | head; fail=1; }
for want in "meta.slices[2].data: 'sparkle' is not hit data (left out)" \
    "meta.slices[3].data: shape 'box' is written as a capsule"; do
    grep -qF "$want" notes.txt || { echo "FAIL: notes do not say '$want': $(cat notes.txt)"; fail=1; }
done

# The hitboxes a mod gets: 100, 50, 100 and 200 ms are 6, 3, 6 and 12 frames at 60 Hz; the blade
# is keyed on sprite frames 1-2, the tip on 2, the guard from 2 on.
rm -rf ase_mod && mkdir -p ase_mod/frames && cp swing.lua ase_mod/frames/swing.lua
printf 'return { name = "ase_mod", version = "1.0.0", weapons = { w = cleave.weapon {\n  name = "w", attacks = { swing = cleave.frames "swing" } } } }\n' > ase_mod/mod.lua
out=$("$cleave" check ase_mod --format csv) || { echo "FAIL: check of the import: $out"; fail=1; }
got=$(echo "$out" | cut -d, -f3-13 | tail -n +2 | tr '\n' ';')
want="swing,27,6,7-27,0,blade,7-15,capsule,0,7,-20deg 1.5+0.1*dmg;swing,27,6,7-27,0,tip,10-15,circle,0,12,none;swing,27,6,7-27,0,guard,10-27,capsule,0,3,none;"
[ "$got" = "$want" ] || { echo "FAIL: imported frame data"; echo " got: $got"; echo "want: $want"; fail=1; }

# The render sheet with the sprites under the hitboxes differs from the one without them.
"$cleave" render ase_mod --out plain.png > /dev/null &&
    "$cleave" render ase_mod --sheet "$here/swing.json" --out sprites.png > /dev/null ||
    { echo "FAIL: render with --sheet"; fail=1; }
"$png" differ plain.png sprites.png 500 || { echo "FAIL: --sheet drew no sprite"; fail=1; }
out=$("$cleave" render ase_mod --sheet nosuch.json --out x.png 2>&1) &&
    { echo "FAIL: a missing sheet was accepted"; fail=1; }
echo "$out" | grep -q "nosuch.json" || { echo "FAIL: '$out'"; fail=1; }

# Malformed sheets: each error names the JSON path.
refused() { # python-edit-of-doc expected-message
    python3 -c "import json, sys
doc = json.load(open(sys.argv[1]))
$1
json.dump(doc, open('bad.json', 'w'))" "$here/swing.json"
    out=$("$cleave" import aseprite bad.json --attack swing --out bad.lua 2>&1) &&
        { echo "FAIL: accepted, expected '$2'"; fail=1; return; }
    echo "$out" | grep -qF -- "$2" || { echo "FAIL: '$out' does not say '$2'"; fail=1; }
}
refused "del doc['frames']['swing 1.aseprite']['duration']" "bad.json: frames[1].duration: missing (a number expected)"
refused "doc['meta']['slices'][1]['keys'][0]['bounds']['w'] = '26'" "meta.slices[1].keys[0].bounds.w: expected a number"
refused "doc['meta']['slices'][2]['keys'][0]['frame'] = 9" "meta.slices[2].keys[0].frame: frame 9 does not exist (the sheet has 4 frames)"
refused "doc['meta']['slices'][1]['name'] = 'circle:tip'" "meta.slices[2].keys[0]: names the same hitbox as another slice: tip"
refused "doc['meta']['slices'][1]['data'] = 'damage=lots'" "meta.slices[1].data: 'damage=lots' is not a number"
refused "doc['meta']['slices'][1]['keys'] = {}" "meta.slices[1].keys: expected an array"
refused "doc['frames'] = 3" "frames: expected an array or an object of frames"
refused "doc = [doc]" "(top): expected an object"
# nesting past cJSON's limit, and a file past the size limit
python3 -c "print('[' * 5000 + ']' * 5000)" > bad.json
out=$("$cleave" import aseprite bad.json --attack swing --out bad.lua 2>&1)
echo "$out" | grep -q "not JSON, or nested deeper than 1000" || { echo "FAIL: deep: '$out'"; fail=1; }
python3 -c "import sys; sys.stdout.write('[' * (17 << 20))" > bad.json
out=$("$cleave" import aseprite bad.json --attack swing --out bad.lua 2>&1)
echo "$out" | grep -q "larger than 16 MiB" || { echo "FAIL: large: '$out'"; fail=1; }
rm -f bad.json
[ -f bad.lua ] && { echo "FAIL: a refused import wrote bad.lua"; fail=1; }

[ "$fail" -eq 0 ] && echo "aseprite import: ok"
exit "$fail"
