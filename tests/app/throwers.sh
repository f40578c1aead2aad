#!/bin/sh
# Knife throwers, the bat's reflection and the parry, headless, read from the demo's own log:
# a knife with nothing in its way hits the player; J with the bat in reach sends it back (a
# clash line, a reflection line, and the knife then hits its thrower for twice its damage);
# the parry key stops it (and its miss, under --log all, names the knife's hitbox). The mods
# folder holds the bat (slot 1) and the knives.
# usage: throwers.sh CLEAVE PNG_STAT SOURCE_DIR
set -u
cleave=$1 png=$2 src=$3
here=$src/tests/app/throw
fail=0
rm -rf throw-mods && mkdir throw-mods
ln -s "$src/mods/bat" throw-mods/bat && ln -s "$src/mods/knives" throw-mods/knives

run() { # name: runs throw/NAME.inputs for 120 frames into NAME.log and NAME.png
    "$cleave" demo --headless --frames 120 --enemies 0 --mods throw-mods \
        --inputs "$here/$1.inputs" --screenshot "$1.png" > "$1.log" ||
        { echo "FAIL: $1 exited $?"; fail=1; }
    cat "$1.log"
}
has() { # name pattern what
    grep -q -e "$2" "$1.log" || { echo "FAIL: $1: $3 (no line matching '$2')"; fail=1; }
}
lacks() { # name pattern what
    if grep -q -e "$2" "$1.log"; then echo "FAIL: $1: $3"; fail=1; fi
}

run knife
has knife '^f89 hit edge @[0-9]* -> #1 dmg 5.0 ' "the knife does not hit the player"
lacks knife 'clash\|reflected\|parry' "a meeting without a swing or a parry"
has knife '^cleave: 120 frames, 0 hits, 0 misses, ' "the summary counts others' misses as the player's"

run reflect
has reflect '^f[0-9]* clash reflect barrel #1 / edge #2$' "no clash line"
has reflect '^f[0-9]* knives reflected by #1 speed 6.0$' "no reflection line"
has reflect ' hit edge @[0-9]* -> #2 dmg 10.0 ' "the reflected knife does not hit its thrower"
lacks reflect ' -> #1 ' "the player is hit through the swing"
has reflect '^cleave: 120 frames, 1 hits, 4 misses, ' "the summary counts the reflected knife's hit and misses as the player's"

run parry
has parry '^f[0-9]* parry edge of #2 by #1 ' "no parry line"
lacks parry ' hit edge' "a hit through the parry"
# under --log all the reflected knife's miss on the player is listed (it was the thrower's
# knife when the frame began); the parried knife's miss names its hitbox, though the parry
# ended the knife in that step
"$cleave" demo --headless --frames 120 --enemies 0 --mods throw-mods --log all \
    --inputs "$here/reflect.inputs" > reflect-all.log || { echo "FAIL: reflect --log all exited $?"; fail=1; }
has reflect-all '^f82 miss edge @4 -> #1 reflected ' "the reflected knife's miss is not listed"
"$cleave" demo --headless --frames 120 --enemies 0 --mods throw-mods --log all \
    --inputs "$here/parry.inputs" > parry-all.log || { echo "FAIL: parry --log all exited $?"; fail=1; }
has parry-all '^f89 miss edge @3 -> #1 parried ' "the parried knife's miss does not name its hitbox"

# everything listed, with a slime (#3, the thrower's side) walking in along the knife's path:
# the throw, and no miss of the knife against its own side
{ cat "$here/knife.inputs"; echo "0 enemy 400 262"; } > knife-mate.inputs
"$cleave" demo --headless --frames 120 --enemies 0 --mods throw-mods --log all \
    --inputs knife-mate.inputs > knife-mate.log || { echo "FAIL: --log all exited $?"; fail=1; }
has knife-mate '^f59 #2 throws knives$' "no throw line under --log all"
lacks knife-mate ' miss edge @[0-9]* -> #[23] ' "a miss of the knife against its own side listed"

# a thrower spawned where no knives mod is loaded says so instead of standing by in silence
rm -rf bat-only && mkdir bat-only && ln -s "$src/mods/bat" bat-only/bat
echo "0 thrower 438 256" > lone.inputs
"$cleave" demo --headless --frames 5 --enemies 0 --mods bat-only --inputs lone.inputs \
    > lone.log || { echo "FAIL: lone exited $?"; fail=1; }
has lone '^f0 #2 is a thrower without knives: load the knives mod$' "a thrower without knives is silent"

# the three runs end on different pictures: the reflected knife flies elsewhere
"$png" differ knife.png reflect.png 50 || fail=1
[ "$fail" -eq 0 ] && echo "throwers: ok"
exit "$fail"
