#!/bin/sh
# The real window under Xvfb: start it, press keys with xdotool, screenshot at exit, check.
# usage: xvfb.sh CLEAVE PNG_STAT SOURCE_DIR   (run inside xvfb-run)
set -u
cleave=$1 png=$2 src=$3
rm -f window.png window.log
"$cleave" demo --mods "$src/mods" --enemies 4 --quit-after 1800 \
    --screenshot window.png > window.log 2>&1 &
pid=$!
wid=""
for _ in $(seq 1 100); do
    wid=$(xdotool search --name 'cleave demo' 2>/dev/null | head -n 1) && [ -n "$wid" ] && break
    sleep 0.1
done
if [ -z "$wid" ]; then
    echo "FAIL: no window appeared"; kill "$pid" 2>/dev/null; cat window.log; exit 1
fi
xdotool windowfocus --sync "$wid" 2>/dev/null || true
sleep 0.5
# swing with J, then with the left button once that swing is over; the sword's third attack
# with L; the log filter twice (hits -> enemy -> all) and zoom in once; choose weapon 4, then
# the wheel (down = next weapon); overlay on, pause, step twice, step back once, quit.
# (stdout reaches window.log only at exit: the sword's slot is its folder's place in name order)
sword=$(for m in "$src"/mods/*/mod.lua; do basename "$(dirname "$m")"; done | LC_ALL=C sort |
    grep -n '^sword$' | cut -d: -f1)
[ -n "$sword" ] || { echo "FAIL: no sword among the example mods"; kill "$pid"; exit 1; }
xdotool key --clearmodifiers j
sleep 1.2
xdotool mousemove --window "$wid" 450 200 click 1
sleep 1.2
xdotool key --clearmodifiers "$sword"
sleep 0.3
xdotool key --clearmodifiers l
sleep 1.2
xdotool key --clearmodifiers f f equal
sleep 0.3
xdotool key --clearmodifiers 4
sleep 0.3
xdotool click 5
sleep 0.3
for k in h space period period comma; do
    xdotool key --clearmodifiers "$k"
    sleep 0.25
done
sleep 0.3
xdotool key Escape
wait "$pid"
rc=$?
cat window.log
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; exit 1; }
grep -q 'overlay=on paused=yes' window.log || { echo "FAIL: the key presses did not arrive"; exit 1; }
grep -q 'swings=3 ' window.log || { echo "FAIL: expected three swings (J, left button, L)"; exit 1; }
grep -q "zoom=2 log=all last_attack=sword/slash3 " window.log ||
    { echo "FAIL: L, F or = did not arrive (want zoom=2 log=all last_attack=sword/slash3)"; exit 1; }
# 4, then one wheel step down: the weapon the app listed fifth at start
want=$(sed -n 's/^cleave: weapon 5: //p' window.log)
[ -n "$want" ] || { echo "FAIL: fewer than 5 weapons in the example mods"; exit 1; }
grep -q "weapon=$want\$" window.log || { echo "FAIL: weapon keys or wheel did not arrive (want $want)"; exit 1; }
"$png" check window.png 960 540 || exit 1
echo ok
