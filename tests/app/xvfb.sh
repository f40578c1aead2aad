#!/bin/sh
# The real window under Xvfb: start it, press keys with xdotool, screenshot at exit, check.
# Each press waits for the demo's status file to show the previous one took effect, never for
# the clock, so a busy machine only makes the test slower.
# usage: xvfb.sh CLEAVE PNG_STAT SOURCE_DIR   (run inside xvfb-run)
set -u
cleave=$1 png=$2 src=$3
status=window.status
rm -f window.png window.log "$status"
# --quit-after is a backstop should this script die: 90 s of frames at 60 Hz. No enemies at
# all: anything that can hit the player (a knight's blade, a knife, a slime pushed into it) can
# stun it or put it down, and a press that lands then starts no swing, however slow the machine
# makes the test.
"$cleave" demo --mods "$src/mods" --enemies 0 --knights 0 --throwers 0 --quit-after 5400 \
    --status "$status" \
    --screenshot window.png > window.log 2>&1 &
pid=$!

fail() {
    echo "FAIL: $1"
    kill "$pid" 2>/dev/null
    cat window.log
    exit 1
}

# wait_for PATTERN [TIMEOUT_S]: polls the status line every 50 ms until grep finds PATTERN in it.
wait_for() {
    tries=$((${2:-30} * 20))
    while [ "$tries" -gt 0 ]; do
        grep -q -e "$1" "$status" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || fail "the demo exited while the test waited for '$1'"
        sleep 0.05
        tries=$((tries - 1))
    done
    fail "waited ${2:-30} s for '$1' in the demo's status (last: $(cat "$status" 2>/dev/null))"
}

# The demo writes its status once its window runs frames; only then look for the window. A
# loaded machine can take long to start the X server and the demo: the waits are backstops
# for a demo that died or hung, not a judgement of speed.
wait_for '^frame=' 120
wid=""
for _ in $(seq 1 1200); do
    wid=$(xdotool search --name 'cleave demo' 2>/dev/null | head -n 1) && [ -n "$wid" ] && break
    kill -0 "$pid" 2>/dev/null || fail "the demo exited before its window was found"
    sleep 0.1
done
[ -n "$wid" ] || fail "no window named 'cleave demo' appeared (windows: $(xdotool search --name . getwindowname %@ 2>/dev/null | tr '\n' ','))"
xdotool windowfocus --sync "$wid" 2>/dev/null || true
# the weapon list is on window.log before the window opens
label() { sed -n "s/^cleave: weapon $1: //p" window.log; }
sword=$(sed -n 's/^cleave: weapon \([0-9]*\): sword$/\1/p' window.log)
[ -n "$sword" ] || fail "no sword among the example mods"
w4=$(label 4) w5=$(label 5)
[ -n "$w5" ] || fail "fewer than 5 weapons in the example mods"

# swing with J, then with the left button once that swing is over; the sword's third attack
# with L; the log filter twice (hits -> enemy -> all) and zoom in once; choose weapon 4, then
# the wheel (down = next weapon); overlay on, pause, step twice, step back once, quit.
xdotool key --clearmodifiers j
wait_for ' swings=1 attacking=no '
xdotool mousemove --window "$wid" 450 200 click 1
wait_for ' swings=2 attacking=no '
if [ "$sword" -le 9 ]; then
    xdotool key --clearmodifiers "$sword"
else # the keys reach the first nine weapons, the wheel (down = next) the others
    for _ in $(seq 2 "$sword"); do xdotool click 5; done
fi
wait_for ' weapon=sword$'
xdotool key --clearmodifiers l
wait_for ' last_attack=sword/slash3 swings=3 attacking=no '
xdotool key --clearmodifiers f f equal
wait_for ' zoom=2 log=all '
xdotool key --clearmodifiers 4
wait_for " weapon=$w4\$"
xdotool click 5
wait_for " weapon=$w5\$"
xdotool key --clearmodifiers h
wait_for ' overlay=on '
xdotool key --clearmodifiers space
wait_for ' paused=yes '
frame=$(sed -n 's/^frame=\([0-9]*\) .*/\1/p' "$status")
xdotool key --clearmodifiers period
wait_for "^frame=$((frame + 1)) "
xdotool key --clearmodifiers period
wait_for "^frame=$((frame + 2)) "
xdotool key --clearmodifiers comma
wait_for "^frame=$((frame + 1)) "
xdotool key Escape
wait "$pid"
rc=$?
cat window.log
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; exit 1; }
# the exit summary is the status line's twin: check it says the same
grep -q "^cleave: exit frame=$((frame + 1)) overlay=on paused=yes " window.log ||
    { echo "FAIL: the exit line does not show the paused, stepped state"; exit 1; }
grep -q ' swings=3 ' window.log || { echo "FAIL: expected three swings (J, left button, L)"; exit 1; }
grep -q "zoom=2 log=all last_attack=sword/slash3 " window.log ||
    { echo "FAIL: L, F or = did not arrive (want zoom=2 log=all last_attack=sword/slash3)"; exit 1; }
grep -q "weapon=$w5\$" window.log || { echo "FAIL: the exit line names another weapon than $w5"; exit 1; }
"$png" check window.png 960 540 || exit 1
echo ok
