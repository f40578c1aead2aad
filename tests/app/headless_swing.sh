#!/bin/sh
# Headless demo with a scripted swing into an enemy: exit 0, a hit in its log, a screenshot
# that is not blank and differs from the same run without the swing. Then the third attack by
# its number, the log filter, and zoom by flag and by inputs command.
# usage: headless_swing.sh CLEAVE PNG_STAT SOURCE_DIR
set -eu
cleave=$1 png=$2 src=$3
"$cleave" demo --headless --frames 60 --enemies 0 --mod "$src/mods/sword" \
    --inputs "$src/tests/app/swing.inputs" --screenshot swing.png > swing.log
cat swing.log
grep -q ' hit ' swing.log || { echo "FAIL: no hit in the log"; exit 1; }
grep -q '1 hits\|[0-9] hits' swing.log
"$cleave" demo --headless --frames 60 --enemies 0 --mod "$src/mods/sword" \
    --inputs "$src/tests/app/still.inputs" --screenshot still.png > still.log
if grep -q ' hit ' still.log; then echo "FAIL: a hit without a swing"; exit 1; fi
"$png" check swing.png 960 540
"$png" check still.png 960 540
"$png" differ swing.png still.png 200

# The default log lists hits only; --log all lists the misses too.
if grep -q ' miss ' swing.log; then echo "FAIL: misses listed under the hits filter"; exit 1; fi
"$cleave" demo --headless --frames 60 --enemies 0 --mod "$src/mods/sword" --log all \
    --inputs "$src/tests/app/swing.inputs" > all.log
grep -q ' miss .* rehit ' all.log || { echo "FAIL: --log all lists no miss"; exit 1; }

# slash3 (damage 9; slash1 and slash2 deal 5 and 6) started as attack 3, zoomed in by the
# inputs file; --zoom 2 draws the same picture.
"$cleave" demo --headless --frames 12 --enemies 0 --mod "$src/mods/sword" \
    --inputs "$src/tests/app/slash3.inputs" --screenshot slash3.png > slash3.log
cat slash3.log
grep -q ' hit blade @[0-9]* -> #[0-9]* dmg 9.0 ' slash3.log || { echo "FAIL: attack 3 is not slash3"; exit 1; }
grep -v ' zoom ' "$src/tests/app/slash3.inputs" > slash3-nozoom.inputs
"$cleave" demo --headless --frames 12 --enemies 0 --mod "$src/mods/sword" --zoom 2 \
    --inputs slash3-nozoom.inputs --screenshot slash3-flag.png > /dev/null
cmp slash3.png slash3-flag.png || { echo "FAIL: --zoom 2 and 'zoom 2' differ"; exit 1; }
"$cleave" demo --headless --frames 12 --enemies 0 --mod "$src/mods/sword" \
    --inputs slash3-nozoom.inputs --screenshot slash3-1x.png > /dev/null
"$png" differ slash3.png slash3-1x.png 20000
echo "ok"
