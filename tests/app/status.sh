#!/bin/sh
# --status: the state line a driving script polls. A scripted swing shows it running, then over;
# the file is replaced whole (no temporary left beside it); a file that cannot be written stops
# the demo with status 1 and a message naming it.
# usage: status.sh CLEAVE PNG_STAT SOURCE_DIR
set -eu
cleave=$1 src=$3
rm -f status.txt status.txt.tmp
run() {
    "$cleave" demo --headless --frames "$1" --enemies 0 --mod "$src/mods/sword" \
        --inputs "$src/tests/app/swing.inputs" --status status.txt > /dev/null
    cat status.txt
}
line=$(run 10)
case $line in
"frame=10 overlay=off paused=no slow=1 zoom=1 log=hits last_attack=sword/slash1 swings=1 attacking=yes hits=1 weapon=sword") ;;
*) echo "FAIL: mid-swing status: $line"; exit 1 ;;
esac
line=$(run 39)
case $line in
"frame=39 "*" swings=1 attacking=no "*) ;;
*) echo "FAIL: the swing is over by frame 39: $line"; exit 1 ;;
esac
[ "$(wc -l < status.txt)" -eq 1 ] || { echo "FAIL: more than one line"; exit 1; }
[ ! -e status.txt.tmp ] || { echo "FAIL: status.txt.tmp left behind"; exit 1; }

rc=0
"$cleave" demo --headless --frames 5 --enemies 0 --mod "$src/mods/sword" \
    --status no-such-dir/status.txt > /dev/null 2> unwritable.err || rc=$?
cat unwritable.err
[ "$rc" -eq 1 ] || { echo "FAIL: an unwritable status file exits $rc, not 1"; exit 1; }
grep -q "cannot write the status file no-such-dir/status.txt: " unwritable.err ||
    { echo "FAIL: the error does not name the status file"; exit 1; }
echo ok
