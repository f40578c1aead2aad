#!/bin/sh
# Knights fight back, headless, read from the demo's own log (--log all): a knight winds up
# and its blade lands 20 frames later; a guarded blade is logged as blocked with chip damage (a
# quarter of its 8), and the fourth blocked blade breaks the guard; the knight's armor takes a
# sword's hit during its wind-up and swings on, a greatsword's gets through and spoils it; the
# blade's hitstun takes the player's controls (a press then says so); a dodge makes the blade miss with reason intangible where the same blade
# without it lands; four knights put the player down, it respawns 120 frames after its death,
# invincible for a while, and is hit again; the attract run shows both sides fighting. The
# screenshots show the wind-up outline (red dashes) only while the knight winds up, and the
# guard's shield arc only while the player guards.
# usage: fight.sh CLEAVE PNG_STAT SOURCE_DIR
set -u
cleave=$1 png=$2 src=$3
here=$src/tests/app/fight
fail=0

run() { # name frames [extra options]: runs fight/NAME.inputs into NAME.log
    name=$1 frames=$2
    shift 2
    "$cleave" demo --headless --frames "$frames" --enemies 0 --mod "$src/mods/sword" --log all \
        --inputs "$here/$name.inputs" "$@" > "$name.log" || { echo "FAIL: $name exited $?"; fail=1; }
    cat "$name.log"
}
has() { # name pattern what
    grep -q -e "$2" "$1.log" || { echo "FAIL: $1: $3 (no line matching '$2')"; fail=1; }
}
lacks() { # name pattern what
    if grep -q -e "$2" "$1.log"; then echo "FAIL: $1: $3"; fail=1; fi
}

run open 70
has open '^f39 #2 winds up cleave$' "the knight does not wind up on frame 39"
has open '^f59 hit blade @21 -> #1 dmg 8.0 kb [1-9]' "the blade does not land whole after its startup"
lacks open ' hit blade .* -> #1 .*blocked' "a blocked hit without a guard"
windup=$(grep -n ' winds up ' open.log | head -1 | cut -d: -f1)
hit=$(grep -n ' hit blade ' open.log | head -1 | cut -d: -f1)
[ -n "$windup" ] && [ -n "$hit" ] && [ "$windup" -lt "$hit" ] ||
    { echo "FAIL: open: the wind-up is not logged before the hit"; fail=1; }

run guard 70
# chip 0.25 of 8, and the blockstun check states: floor(2 + 0.8 * 8)
has guard '^f59 hit blade @21 -> #1 dmg 2.0 kb 0.0 lag [0-9]* blocked stun 8$' \
    "the guarded blade is not blocked with chip damage 2.0 and blockstun 8"
lacks guard ' dmg 8.0' "the guarded blade lands whole"

run break 170
has break '^f59 hit blade @21 -> #1 dmg 2.0 .* blocked stun 8$' "the first round is not blocked"
has break '^f154 #1 guard break, stunned 90 frames$' "the fourth blocked blade does not break the guard"
[ "$(grep -c ' blocked ' break.log)" -eq 4 ] ||
    { echo "FAIL: break: $(grep -c ' blocked ' break.log) blocked blades, want 4"; fail=1; }

run armor 70
has armor '^f48 hit tip @4 -> #2 dmg 10.0 kb 0.0 lag 8 armor$' "the knight's armor does not take the sword"
has armor '^f67 hit blade @21 -> #1 dmg 8.0 ' "the armored swing does not go on"
lacks armor 'spoiled' "the sword spoils an armored swing"
run early 40
has early '^f33 hit tip @4 -> #2 dmg 10.0 kb 2.5 lag 8$' "the knight is armored before its wind-up"
"$cleave" demo --headless --frames 120 --enemies 0 --mod "$src/mods/greatsword" --log all \
    --inputs "$here/armor.inputs" > spoil.log || { echo "FAIL: spoil exited $?"; fail=1; }
has spoil '^f[0-9]* #2 swing spoiled$' "a hit through the armor does not spoil the wind-up"
lacks spoil ' hit blade @[0-9]* -> #1 ' "the spoiled swing still lands"

run stun 110
lacks stun '^f[6-8][0-9] \(hit\|clash\)' "the player swings while the blade's hitstun holds it"
has stun '^f93 hit tip @4 -> #2 ' "the player does not swing after the stun"
has stun '^f62 #1 no swing: hitlag [0-9], then hitstun 14$' \
    "the press during the stun is not logged"

run clank 70
has clank '^f59 clash clank blade #1 / blade #2$' "the swings do not clank"
has clank '^f59 miss blade @21 -> #1 clanked ' "the knight's clanked blade is not named in its miss"

run dodge 70
has dodge '^f5[7-9] miss blade @[0-9]* -> #1 intangible ' "the roll does not make the blade miss"
lacks dodge ' hit blade .* -> #1 ' "the blade lands through the roll"

run down 700
has down ' hit blade @21 -> #1 dmg 8.0 .* KO$' "the fourth round does not put the player down"
has down ' #1 down, back in 120 frames$' "no line for the player going down"
has down ' #1 respawns$' "the player does not come back"
# frames of the lines: the KO, down (the next frame), back 119 frames after that, hit
# invincible on its return and not at all while down, then hit whole again
at() { grep -e "$1" down.log | head -1 | sed 's/^f\([0-9]*\) .*/\1/'; }
ko=$(at ' -> #1 .* KO$') down=$(at ' #1 down,') back=$(at ' #1 respawns$')
inv=$(at ' -> #1 dmg 0.0 .* invincible$')
again=$(awk -v b="${back:-0}" '/ hit blade .* -> #1 dmg 8.0/ { f = substr($1, 2) + 0;
    if (f > b + 60) { print f; exit } }' down.log)
if [ -z "$ko" ] || [ -z "$down" ] || [ -z "$back" ] || [ -z "$inv" ] || [ -z "$again" ] ||
    [ "$down" -ne $((ko + 1)) ] || [ "$back" -ne $((down + 119)) ] ||
    [ "$inv" -le "$back" ] || [ "$inv" -gt $((back + 60)) ]; then
    echo "FAIL: down: KO $ko, down $down, back $back, invincible hit $inv, hit again $again"
    fail=1
fi
hit_while_down=$(awk -v d="${down:-0}" -v b="${back:-0}" '/ hit blade .* -> #1 / {
    f = substr($1, 2) + 0; if (f > d && f <= b) print }' down.log)
[ -z "$hit_while_down" ] || { echo "FAIL: down: hit while down: $hit_while_down"; fail=1; }

# the attract run (no inputs; two slimes, two knights, #4 and #5): the player blocks some
# blades, rolls through others, takes some, and its own swings land on the knights
"$cleave" demo --headless --frames 1200 --enemies 2 --mod "$src/mods/sword" --log all \
    > attract.log || { echo "FAIL: attract exited $?"; fail=1; }
has attract '^f[0-9]* #[45] winds up cleave$' "no knight winds up in the attract run"
has attract ' hit blade @[0-9]* -> #1 dmg 2.0 .* blocked stun 8$' "the attract run blocks no blade"
has attract ' miss blade @[0-9]* -> #1 intangible ' "the attract run dodges no blade"
has attract ' hit blade @[0-9]* -> #1 dmg 8.0 ' "no blade gets through in the attract run"
has attract ' hit [a-z]* @[0-9]* -> #[45] dmg ' "the attract run never hits a knight back"
# its autopilot holds the attack key while in reach: a refused press is logged once, not per frame
held=$(sed -n 's/^f\([0-9]*\) #1 no swing: .*/\1/p' attract.log | awk 'NR > 1 && $1 == last + 1 { print } { last = $1 }')
[ -z "$held" ] || { echo "FAIL: attract: a held press logged on consecutive frames: $held"; fail=1; }

# pictures: the wind-up's outline shows in the wind-up and not before it; the shield shows
# while guarding and not without the guard
shot() { # name frames png
    "$cleave" demo --headless --frames "$2" --enemies 0 --mod "$src/mods/sword" \
        --inputs "$here/$1.inputs" --screenshot "$3" > /dev/null || { echo "FAIL: $3"; fail=1; }
}
count() { "$png" count "$1" "$2" | cut -d' ' -f1; }
shot open 30 before.png
shot open 50 windup.png
shot guard 50 guarding.png
[ "$(count before.png FF6050)" -eq 0 ] || { echo "FAIL: a wind-up outline before the wind-up"; fail=1; }
[ "$(count windup.png FF6050)" -gt 20 ] || { echo "FAIL: no wind-up outline"; fail=1; }
[ "$(count windup.png 70B0FF)" -lt 20 ] || { echo "FAIL: a shield arc without a guard"; fail=1; }
[ "$(count guarding.png 70B0FF)" -gt 40 ] || { echo "FAIL: no shield arc while guarding"; fail=1; }
# GUARD BREAK over the player (yellow on this frame of its blink), not before the break
shot break 150 unbroken.png
shot break 161 broken.png
[ "$(count unbroken.png FFD060)" -eq 0 ] || { echo "FAIL: GUARD BREAK before the break"; fail=1; }
[ "$(count broken.png FFD060)" -gt 20 ] || { echo "FAIL: no GUARD BREAK shown"; fail=1; }
[ "$fail" -eq 0 ] && echo "fight: ok"
exit "$fail"
