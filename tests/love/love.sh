#!/bin/sh
# The LÖVE example under Xvfb with a scripted input: a sword slash at an enemy must show the
# hit (the enemy drawn in the hit colour) on the screenshot, and the same slash aimed away
# must not. Frames are counted, not timed: a slow machine only makes the test slower.
# usage: love.sh LOVE PNG_COUNT SOURCE_DIR   (run inside xvfb-run, with CLEAVE_LIB set)
set -u
love=$1 count=$2 src=$3
frames=9 # the slash starts on frame 4; its tip lands on frame 7 and flashes for 20 frames

run() { # run SCRIPT: plays it and saves love-SCRIPT.png
    rm -f "love-$1.png"
    "$love" "$src/examples/love" --script "$1" --frames "$frames" --screenshot "love-$1.png" \
        > "love-$1.log" 2>&1
    rc=$?
    grep -v -e '^ALSA' -e '^AL lib' -e '^Could not open device' "love-$1.log"
    [ "$rc" -eq 0 ] || { echo "FAIL: love exited with $rc"; exit 1; }
    [ -s "love-$1.png" ] || { echo "FAIL: no screenshot love-$1.png"; exit 1; }
}

# the hit colour (yellow) under the translucent hurtbox overlay: red and green high, blue low
yellow() { "$count" "$1" 180 255 180 255 0 130 | cut -d' ' -f1; }

run swing
grep -q 'hits=1' love-swing.log || { echo "FAIL: the slash did not hit once"; exit 1; }
hit=$(yellow love-swing.png)
run whiff
grep -q 'hits=0' love-whiff.log || { echo "FAIL: the slash aimed away hit"; exit 1; }
miss=$(yellow love-whiff.png)
echo "hit-coloured pixels: $hit after the slash, $miss after the slash aimed away"
# an enemy is a disc of radius 22 on screen (about 1500 pixels), partly under the blade
[ "$hit" -ge 500 ] || { echo "FAIL: the screenshot does not show the hit"; exit 1; }
[ "$miss" -eq 0 ] || { echo "FAIL: the hit colour shows without a hit"; exit 1; }
echo "ok: love-swing.png shows the hit"
