#!/bin/sh
# `cleave render --body`: a body's animation sheet, one 112-pixel cell per frame (each animation
# starts a row of 8, below a 44-pixel header), hurtboxes coloured by state. The test mod's
# sentinel spins invincible (white) on frames 1-2 and intangible (violet dashes) on 3-4, then
# stands with a normal torso (cyan) and an armored shield (orange); the demo's player rolls
# intangible on its dodge's frames 4-11 (rows 5 and 6 of its sheet, after idle's 1 frame and
# walk's 24) and not on frames 3 and 12.
# usage: body_sheet.sh CLEAVE PNG_STAT SOURCE_DIR
set -u
cleave=$1 png=$2 src=$3
fail=0

# count FILE COLOUR COL ROW: pixels of that colour in the cell at column COL, row ROW
count() { "$png" count "$1" "$2" $(($3 * 112)) $((44 + $4 * 112)) 112 112 | cut -d' ' -f1; }
want() { # what got op n
    [ "$2" "$3" "$4" ] || { echo "FAIL: $1 ($2 pixels, want $3 $4)"; fail=1; }
}

out=$("$cleave" render "$src/tests/app/body/sentinel" --body sentinel --out sentinel.png) ||
    { echo "FAIL: render --body sentinel exited $?"; fail=1; }
echo "$out"
[ "$out" = "cleave: sentinel.png: 5 frames, 896x276 pixels" ] || { echo "FAIL: '$out'"; fail=1; }
want "spin 1 is not invincible" "$(count sentinel.png FFFFFF 0 0)" -gt 50
want "spin 2 is not invincible" "$(count sentinel.png FFFFFF 1 0)" -gt 50
want "spin 3 is drawn invincible" "$(count sentinel.png FFFFFF 2 0)" -eq 0
want "spin 1 is drawn intangible" "$(count sentinel.png 9090FF 0 0)" -eq 0
want "spin 3 is not intangible" "$(count sentinel.png 9090FF 2 0)" -gt 20
want "spin 4 is not intangible" "$(count sentinel.png 9090FF 3 0)" -gt 20
want "stand has no normal torso" "$(count sentinel.png 40FFFF 0 1)" -gt 50
want "stand has no armored shield" "$(count sentinel.png FFB040 0 1)" -gt 50
want "spin has an armored box" "$(count sentinel.png FFB040 0 0)" -eq 0

out=$("$cleave" render --body player --out player.png) ||
    { echo "FAIL: render --body player exited $?"; fail=1; }
[ "$out" = "cleave: player.png: 46 frames, 896x948 pixels" ] || { echo "FAIL: '$out'"; fail=1; }
want "the dodge's frame 3 is intangible" "$(count player.png 9090FF 2 4)" -eq 0
want "the dodge's frame 4 is not intangible" "$(count player.png 9090FF 3 4)" -gt 20
want "the dodge's frame 11 is not intangible" "$(count player.png 9090FF 2 5)" -gt 20
want "the dodge's frame 12 is intangible" "$(count player.png 9090FF 3 5)" -eq 0

# mistakes: a body the mod or the demo does not have (1), --body without a name (2)
"$cleave" render "$src/tests/app/body/sentinel" --body nobody --out x.png 2> err.txt
rc=$?
[ "$rc" -eq 1 ] && grep -q "mod sentinel has no body 'nobody'" err.txt ||
    { echo "FAIL: an unknown mod body exited $rc: $(cat err.txt)"; fail=1; }
"$cleave" render --body nobody --out x.png 2> err.txt
rc=$?
[ "$rc" -eq 1 ] && grep -q "the demo has no body 'nobody'" err.txt ||
    { echo "FAIL: an unknown demo body exited $rc: $(cat err.txt)"; fail=1; }
"$cleave" render --out x.png --body 2> err.txt
rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--body needs a body name" err.txt ||
    { echo "FAIL: --body without a name exited $rc: $(cat err.txt)"; fail=1; }
[ "$fail" -eq 0 ] && echo "body sheet: ok"
exit "$fail"
