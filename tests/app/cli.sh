#!/bin/sh
# render and check over every example mod, a broken mod, a bad inputs file, and no display.
# usage: cli.sh CLEAVE PNG_STAT SOURCE_DIR
set -u
cleave=$1 png=$2 src=$3
fail=0
count=0
for dir in "$src"/mods/*/; do
    [ -f "$dir/mod.lua" ] || continue
    name=$(basename "$dir")
    count=$((count + 1))
    if ! "$cleave" render "$dir" --out "render-$name.png"; then
        echo "FAIL: render $name"; fail=1; continue
    fi
    # every sheet holds at least one 144 px frame cell and the frame-data bar
    "$png" check "render-$name.png" 480 200 || { echo "FAIL: render $name"; fail=1; }
    out=$("$cleave" check "$dir") || { echo "FAIL: check $name exited $?"; fail=1; }
    echo "$out"
    echo "$out" | grep -q 'startup [0-9]' || { echo "FAIL: check $name: no frame data"; fail=1; }
    # the attacks are listed by the names mod.lua gives them (the keys of its attacks table)
    want=$(awk '/attacks = \{/ { f = 1; next } f && /^  \}/ { f = 0 }
                f && /^    [A-Za-z_][A-Za-z0-9_]* = / { print $1 }' "$dir/mod.lua" | sort | tr '\n' ' ')
    got=$(echo "$out" | sed -n 's/^  \([A-Za-z_][A-Za-z0-9_]*\): [0-9][0-9]* frames.*/\1/p' | sort | tr '\n' ' ')
    [ -n "$want" ] || { echo "FAIL: no attack names found in $name/mod.lua"; fail=1; }
    [ "$got" = "$want" ] || { echo "FAIL: check $name lists '$got', mod.lua defines '$want'"; fail=1; }
    # without --attack the sheet shows the first attack, titled by its name like --attack does
    first=$(echo "$out" | sed -n 's/^  \([A-Za-z_][A-Za-z0-9_]*\): [0-9][0-9]* frames.*/\1/p' | head -n 1)
    "$cleave" render "$dir" --attack "$first" --out "render-$name-named.png" > /dev/null &&
        cmp -s "render-$name.png" "render-$name-named.png" ||
        { echo "FAIL: render $name differs from render --attack $first"; fail=1; }
done

# The sword's three slashes by name (attacks are indexed in name order), with their lengths.
out=$("$cleave" check "$src/mods/sword")
got=$(echo "$out" | sed -n 's/^  \([a-z0-9]*\): \([0-9]*\) frames  startup \([0-9]*\).*/\1 \2 \3/p' | tr '\n' ';')
[ "$got" = "slash1 12 2;slash2 12 2;slash3 16 4;" ] || { echo "FAIL: sword check lists '$got'"; fail=1; }
if "$cleave" render "$src/mods/sword" --attack slash4 --out nope.png 2> nope.err; then
    echo "FAIL: render of a missing attack succeeded"; fail=1
fi
grep -q "no attack 'slash4'" nope.err || { echo "FAIL: '$(cat nope.err)'"; fail=1; }
[ "$count" -gt 0 ] || { echo "FAIL: no example mods under mods/"; exit 1; }

# A broken mod: check fails with the file and line.
mkdir -p broken_mod
printf 'local x = 1\nreturn {\n  name = "broken",\n  weapons = 3,\n' > broken_mod/mod.lua
if out=$("$cleave" check broken_mod 2>&1); then echo "FAIL: broken mod passed check"; fail=1; fi
echo "$out"
echo "$out" | grep -q 'mod.lua:[0-9]' || { echo "FAIL: no file:line in '$out'"; fail=1; }

# A bad inputs file: refused with file:line.
printf '0 aim 1 2\n5 jump\n' > bad.inputs
if out=$("$cleave" demo --headless --frames 5 --inputs bad.inputs 2>&1); then
    echo "FAIL: bad inputs accepted"; fail=1
fi
echo "$out" | grep -q 'bad.inputs:2: unknown command' || { echo "FAIL: '$out'"; fail=1; }

# No display: says so and points to the headless command, exit 2.
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$cleave" demo 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 2 ] || { echo "FAIL: no-display exit $rc"; fail=1; }
echo "$out" | grep -q -- '--headless' || { echo "FAIL: no headless hint"; fail=1; }

# Attract mode (no --inputs) swings at the enemies by itself.
out=$("$cleave" demo --headless --frames 400 --enemies 6 --mods "$src/mods" --screenshot attract.png)
echo "$out" | tail -2
echo "$out" | grep -q ' hit ' || { echo "FAIL: attract mode never hit"; fail=1; }
"$png" check attract.png 960 540 || fail=1

# Command-line mistakes: each gives one line on stderr and its exit status (docs/demo.md):
# 2 for a mistake in the command line itself, 1 for a file or mod that cannot be used.
mkdir -p empty_dir
mistake() { # expected-status command...
    want=$1; shift
    "$cleave" "$@" > /dev/null 2> mistake.err
    rc=$?
    lines=$(wc -l < mistake.err)
    if [ "$rc" -ne "$want" ] || [ "$lines" -ne 1 ]; then
        echo "FAIL: cleave $* exited $rc (want $want) with $lines lines: $(cat mistake.err)"; fail=1
    fi
}
says() { # the last mistake's line holds this text
    grep -qF -- "$1" mistake.err || { echo "FAIL: '$(cat mistake.err)' does not say '$1'"; fail=1; }
}
plank="$src/mods/plank"
mistake 2 bogus
mistake 2 check
says "cleave check: no mod folder given"
mistake 2 check --bogus
says "unknown option '--bogus'"
mistake 2 check "$plank" --bogus
says "unknown option '--bogus'"
mistake 2 check "$plank" extra
says "unexpected argument 'extra'"
mistake 1 check nosuch
says "cleave: cannot open nosuch/mod.lua (a mod folder holds mod.lua)"
mistake 2 render
mistake 2 render "$plank" --out
says "cleave render: --out needs a file name"
mistake 2 render "$plank" --bogus --out m.png
says "unknown option '--bogus'"
mistake 2 render "$plank" extra --out m.png
says "unexpected argument 'extra'"
mistake 2 render "$plank" --frames x --out m.png
mistake 2 render "$plank" --frames 5-3 --out m.png
mistake 1 render "$plank" --frames 3-50 --out m.png
mistake 1 render nosuch --out m.png
mistake 1 render "$plank" --weapon nope --out m.png
mistake 1 render "$plank" --attack nope --out m.png
mistake 2 demo --headless --frames
says "cleave: --frames needs a frame count"
mistake 2 demo --headless --frames 1x
says "(got '1x')"
mistake 2 demo --headless --enemies -1
says "(got '-1')"
mistake 2 demo --headless --seed x
says "(got 'x')"
mistake 2 demo --headless --miss-margin x
says "(got 'x')"
mistake 2 demo --headless --zoom 9
says "(got '9')"
mistake 2 demo --bogus
says "unknown option '--bogus'"
mistake 2 demo --headless extra
says "unexpected argument 'extra'"
mistake 1 demo --headless --frames 10 --inputs nosuch.inputs --mods "$src/mods"
mistake 1 demo --headless --frames 10 --mod nosuch
mistake 1 demo --headless --frames 10 --mods empty_dir
mistake 1 demo --headless --frames 10 --mods nosuch_dir
"$cleave" demo --headless --frames 10 --mods empty_dir 2>&1 | grep -q 'no mod found in empty_dir' ||
    { echo "FAIL: --mods empty_dir does not say that no mod was found"; fail=1; }
# a mod.lua given in place of its folder is read from its folder
out=$("$cleave" check "$plank/mod.lua") && echo "$out" | grep -q '^mod plank ' ||
    { echo "FAIL: check of plank/mod.lua: '$out'"; fail=1; }

# Hostile mods: a FIFO in place of mod.lua or of an asset is refused, never waited on.
# (made afresh: copying onto the FIFO left by an earlier run would wait for a reader)
rm -rf fifo_mod fifo_assets && mkdir fifo_mod fifo_assets && mkfifo fifo_mod/mod.lua
for f in "$src"/assets/*.png; do [ "${f##*/}" = font.png ] || cp "$f" fifo_assets/; done
mkfifo fifo_assets/font.png
out=$(timeout 20 "$cleave" check fifo_mod 2>&1)
rc=$?
[ "$rc" -eq 1 ] && echo "$out" | grep -q 'mod.lua is not a regular file' ||
    { echo "FAIL: check of a FIFO mod.lua exited $rc: '$out'"; fail=1; }
out=$(timeout 20 "$cleave" demo --headless --frames 5 --assets fifo_assets --mod "$plank" 2>&1)
rc=$?
[ "$rc" -eq 0 ] && echo "$out" | grep -q 'font.png: not a regular file; using a placeholder' ||
    { echo "FAIL: demo with a FIFO font exited $rc: '$out'"; fail=1; }
rm -f fifo.inputs && mkfifo fifo.inputs
out=$(timeout 20 "$cleave" demo --headless --frames 5 --inputs fifo.inputs --mod "$plank" 2>&1)
rc=$?
[ "$rc" -eq 1 ] && echo "$out" | grep -q 'fifo.inputs: not a regular file' ||
    { echo "FAIL: demo with a FIFO inputs file exited $rc: '$out'"; fail=1; }

# A weapon key with a NUL byte, and names that would drive the terminal, are refused with the
# byte escaped; nothing the mod wrote reaches the terminal raw.
stick='local w = cleave.weapon { attacks = { swing = { length = LEN, hitboxes = {
  { id = "tip", frames = { 1, LEN }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4 } } } } }'
hostile() { # folder name-expression weapons-expression
    mkdir -p "$1"
    { echo "$stick" | sed 's/LEN/4/g'
      printf '%s\n' "return { name = $2, version = '1', weapons = $3 }"; } > "$1/mod.lua"
}
hostile nul_key '"nulkey"' '{ ["a\0b"] = w }'
hostile esc_name '"\27[2J\nforged"' '{ w = w }'
for cmd in "check nul_key" "render nul_key --out n.png" "demo --headless --frames 5 --mod nul_key" \
           "check esc_name" "render esc_name --out n.png" "demo --headless --frames 5 --mod esc_name"; do
    # shellcheck disable=SC2086
    "$cleave" $cmd > hostile.out 2>&1
    rc=$?
    [ "$rc" -eq 1 ] || { echo "FAIL: cleave $cmd exited $rc"; fail=1; }
    if [ "$(wc -l < hostile.out)" -ne 1 ] || tr -d '\n' < hostile.out | LC_ALL=C grep -q '[[:cntrl:]]'; then
        echo "FAIL: cleave $cmd printed control bytes or several lines:"; od -c hostile.out | head; fail=1
    fi
    case $cmd in
    *nul_key*) grep -q 'weapon name "a\\0b" holds a NUL byte' hostile.out ;;
    *) grep -q 'name "\\27\[2J\\10forged" holds a control byte (\\27 at byte 1)' hostile.out ;;
    esac || { echo "FAIL: cleave $cmd: '$(cat hostile.out)'"; fail=1; }
done

# One weapon under 900 names: listed once with its frame data, each other name on one line.
names=$(seq 1 900 | sed 's/.*/n& = w/' | tr '\n' ',')
hostile aliases '"aliases"' "{ $names }"
out=$("$cleave" check aliases) || { echo "FAIL: check aliases exited $?"; fail=1; }
[ "$(echo "$out" | grep -c 'startup')" -eq 1 ] && [ "$(echo "$out" | wc -l)" -eq 904 ] &&
    [ "$(echo "$out" | grep -c 'the same weapon as n1$')" -eq 899 ] ||
    { echo "FAIL: check aliases printed $(echo "$out" | wc -l) lines"; echo "$out" | head; fail=1; }

# Radius 0 is a valid circle, capsule and arc (docs/modding.md: radius >= 0).
mkdir -p zero_radius
cat > zero_radius/mod.lua <<'LUA'
local w = cleave.weapon { attacks = { swing = { length = 4, hitboxes = {
  { id = "dot", frames = { 1, 4 }, x = 5, y = 0, radius = 0 },
  { id = "line", frames = { 1, 4 }, ax = 0, ay = 0, bx = 9, by = 0, radius = 0 },
  cleave.arc { id = "edge", frames = { 1, 4 }, from = 0, to = 90, outer = 20, radius = 0 } } } } }
return { name = "zero_radius", version = "1", weapons = { w = w } }
LUA
out=$("$cleave" check zero_radius 2>&1) && echo "$out" | grep -q '^mod zero_radius ' ||
    { echo "FAIL: check of radius 0 shapes: '$out'"; fail=1; }

# --mods: a broken folder does not take a good mod's place among the 16; a 17th good one is
# skipped by name; a second mod under a name already loaded is skipped with both folders named.
rm -rf many_mods twin_mods && mkdir -p many_mods/a_broken twin_mods/x1 twin_mods/x2
echo 'return {' > many_mods/a_broken/mod.lua
for i in $(seq -w 1 17); do
    mkdir -p "many_mods/m$i"
    { echo "$stick" | sed 's/LEN/4/g'
      echo "return { name = 'm$i', version = '1', weapons = { w = w } }"; } > "many_mods/m$i/mod.lua"
done
out=$("$cleave" demo --headless --frames 2 --mods many_mods 2>&1)
echo "$out" | grep -q 'a_broken/mod.lua:2' && ! echo "$out" | grep -q 'm16 skipped' &&
    echo "$out" | grep -q 'more than 16 mods (or 32 mod folders); many_mods/m17 skipped' ||
    { echo "FAIL: --mods many_mods: '$out'"; fail=1; }
cp many_mods/m01/mod.lua twin_mods/x1/ && cp many_mods/m01/mod.lua twin_mods/x2/
out=$("$cleave" demo --headless --frames 2 --mods twin_mods 2>&1)
echo "$out" | grep -q "twin_mods/x2: a mod named 'm01' is already loaded from twin_mods/x1; skipped" ||
    { echo "FAIL: --mods twin_mods: '$out'"; fail=1; }

# A mod folder whose path does not fit is skipped with a message, not cut short and misread.
deep=$(printf 'd%.0s' $(seq 1 200))
deep="$deep/$deep/$deep" # three folders of 200: over 511 bytes
rm -rf deep_mods && mkdir -p "deep_mods/$deep/m01" && cp many_mods/m01/mod.lua "deep_mods/$deep/m01/"
out=$("$cleave" demo --headless --frames 2 --mods "deep_mods/$deep" 2>&1)
echo "$out" | grep -q "a mod folder's path is longer than 511 bytes; deep_mods/dd*/dd*/dd* skipped" ||
    { echo "FAIL: --mods with a long path: '$out'"; fail=1; }

# A long attack: a sheet shows at most 256 frames; --frames picks them.
mkdir -p long_mod
{ echo "$stick" | sed 's/LEN/20000/g'
  echo "return { name = 'long', version = '1', weapons = { w = w } }"; } > long_mod/mod.lua
mistake 1 render long_mod --out long.png
grep -q "has 20000 frames; a sheet shows at most 256: pick them with --frames" mistake.err ||
    { echo "FAIL: '$(cat mistake.err)'"; fail=1; }
out=$("$cleave" render long_mod --frames 19745-20000 --out long.png)
[ "$out" = "cleave: long.png: 256 frames, 1152x4692 pixels" ] && "$png" check long.png 1152 4692 ||
    { echo "FAIL: render of frames 19745-20000: '$out'"; fail=1; }

[ "$fail" -eq 0 ] && echo "ok: $count mods"
exit "$fail"
