#!/bin/sh
# The demo's edit mode, headless: edit.inputs selects the board of tests/app/edit/blade, drags
# its tip, drags its last active frame on the frame strip, undoes and redoes, and saves. The
# saved frames file equals swing.expected.lua byte for byte, the running demo reloads it, and
# the edited mod's hit log equals that of blade_by_hand, the same edit written by hand.
# usage: edit_mode.sh CLEAVE PNG_STAT SOURCE_DIR
set -u
cleave=$1 png=$2 src=$3
here="$src/tests/app"
fail=0
rm -rf edit_work && mkdir edit_work && cp -R "$here/edit/blade" edit_work/blade
cd edit_work

out=$("$cleave" demo --headless --frames 8 --enemies 0 --mod blade --inputs "$here/edit.inputs" \
    --screenshot edit.png --status status.txt) || { echo "FAIL: the edit run exited $?: $out"; fail=1; }
grep -q "paused=yes" status.txt || { echo "FAIL: the status line: $(cat status.txt)"; fail=1; }
cmp blade/frames/swing.lua "$here/edit/swing.expected.lua" ||
    { diff -u "$here/edit/swing.expected.lua" blade/frames/swing.lua; fail=1; }
echo "$out" | grep -q "reloaded blade" || { echo "FAIL: the save did not reload: $out"; fail=1; }
echo "$out" | grep -q "0 frames," || { echo "FAIL: the edit mode did not pause: $out"; fail=1; }
"$png" check edit.png 960 540 || fail=1

# the edited mod hits as the hand-written one does, and not as it did before the edit
swing() { "$cleave" demo --headless --frames 30 --enemies 0 --mod "$1" \
    --inputs "$here/swing_blade.inputs" --log all; }
edited=$(swing blade) && by_hand=$(swing "$here/edit/blade_by_hand") && before=$(swing "$here/edit/blade") ||
    { echo "FAIL: a swing run failed"; fail=1; }
[ "$edited" = "$by_hand" ] || { echo "FAIL: edited '$edited' differs from by hand '$by_hand'"; fail=1; }
[ "$edited" != "$before" ] || { echo "FAIL: the edit changed no hit: '$edited'"; fail=1; }

# a bad key in an inputs file is refused with its line
printf '0 edit\n1 key jump\n' > edit-bad.inputs
out=$("$cleave" demo --headless --frames 3 --mod blade --inputs edit-bad.inputs 2>&1) &&
    { echo "FAIL: key jump accepted"; fail=1; }
echo "$out" | grep -q "edit-bad.inputs:2: unknown key 'jump'" || { echo "FAIL: '$out'"; fail=1; }

[ "$fail" -eq 0 ] && echo "edit mode: ok"
exit "$fail"
