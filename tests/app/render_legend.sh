#!/bin/sh
# `cleave render` colours a hitbox by its id, as its legend shows it, not by its place in the
# frame's list: in tests/app/render/guard the guard is second on frame 1 and alone on frame 2,
# and both cells outline it in the legend's second colour (orange, FFA030), never in the first
# (red, FF4A4A), which the blade has on frame 1.
# usage: render_legend.sh CLEAVE PNG_STAT SOURCE_DIR
set -u
cleave=$1 png=$2 src=$3
fail=0
"$cleave" render "$src/tests/app/render/guard" --out guard.png > guard.log ||
    { echo "FAIL: render exited $?"; cat guard.log; exit 1; }
cat guard.log
# cells are 144 pixels square under a 28-pixel header: frame 1 at x 0, frame 2 at x 144
cell() { "$png" count guard.png "$2" $(( ($1 - 1) * 144 )) 28 144 144 | cut -d' ' -f1; }
orange1=$(cell 1 FFA030) red1=$(cell 1 FF4A4A) orange2=$(cell 2 FFA030) red2=$(cell 2 FF4A4A)
echo "frame 1: orange $orange1 red $red1; frame 2: orange $orange2 red $red2"
[ "$orange1" -ge 20 ] && [ "$red1" -ge 20 ] || { echo "FAIL: frame 1 is not blade red, guard orange"; fail=1; }
[ "$orange2" -ge 20 ] || { echo "FAIL: the lone guard of frame 2 is not orange"; fail=1; }
[ "$red2" -eq 0 ] || { echo "FAIL: the lone guard of frame 2 is drawn red"; fail=1; }
# the legend in the header: blade red, then guard orange
[ "$("$png" count guard.png FFA030 0 0 1152 28 | cut -d' ' -f1)" -ge 10 ] ||
    { echo "FAIL: no orange guard in the legend"; fail=1; }
[ "$fail" -eq 0 ] && echo "render legend: ok"
exit "$fail"
