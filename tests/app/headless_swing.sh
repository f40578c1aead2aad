#!/bin/sh
# Headless demo with a scripted swing into an enemy: exit 0, a hit in its log, a screenshot
# that is not blank and differs from the same run without the swing.
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
echo "ok"
