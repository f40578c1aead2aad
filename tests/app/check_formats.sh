#!/bin/sh
# `cleave check --format`: the frame data of the sword and the scythe pinned in every format,
# and the hitlag and knockback it states for a hit equal to those the arena logs for that hit.
# The fields of attacks that meet (per attack rebound; per hitbox clash, kind, parry_stun) are
# pinned in every format for the greatsword (rebound 16), the bat (kind reflect) and
# tests/app/check/meet (transcend, trade, absorb, parry_stun 30 and 0), and so are the blockstun
# and frame advantage on block of every row (meet: blockstun 20 set, 3 automatic). The grappler
# pins a grab (kind grab, no knockback, no blockstun) and smash knockback, whose hitstun and
# launch speed must equal those of the throw in the grappler's golden hit log.
# usage: check_formats.sh CLEAVE SOURCE_DIR HAVE_JSON(ON|OFF)
set -u
cleave=$1 src=$2 have_json=$3
here=$(dirname "$0")
fail=0

pinned() { # mod format [folder]: the output equals the file in check/
    # from the source folder, so the table's first line names the mod as mods/NAME
    (cd "$src" && "$cleave" check "${3:-mods/$1}" --format "$2") > "check-$1.$2" ||
        { echo "FAIL: check $1 --format $2 exited $?"; fail=1; return; }
    diff -u "$here/check/$1.$2" "check-$1.$2" || { echo "FAIL: check $1 --format $2 differs"; fail=1; }
}
formats="table csv markdown"
[ "$have_json" = ON ] && formats="$formats json"
for format in table csv markdown; do pinned sword "$format"; done
pinned scythe markdown
for format in $formats; do
    pinned greatsword "$format"
    pinned bat "$format"
    pinned meet "$format" tests/app/check/meet
    pinned grappler "$format"
done
# without --format the table
(cd "$src" && "$cleave" check mods/sword) | cmp -s - "$here/check/sword.table" ||
    { echo "FAIL: check without --format is not the table"; fail=1; }

if [ "$have_json" = ON ]; then
    pinned sword json
    python3 -c 'import json, sys; json.load(open(sys.argv[1]))' check-sword.json ||
        { echo "FAIL: check --format json is not JSON"; fail=1; }
else
    out=$("$cleave" check "$src/mods/sword" --format json 2>&1)
    rc=$?
    [ "$rc" -eq 1 ] && echo "$out" | grep -q 'not available' ||
        { echo "FAIL: json without cJSON exited $rc: '$out'"; fail=1; }
fi

out=$("$cleave" check "$src/mods/sword" --format xml 2>&1)
[ $? -eq 2 ] && echo "$out" | grep -q "table, json, csv or markdown (got 'xml')" ||
    { echo "FAIL: --format xml: '$out'"; fail=1; }
out=$("$cleave" check "$src/mods/sword" --format 2>&1)
[ $? -eq 2 ] || { echo "FAIL: --format without a value: '$out'"; fail=1; }

# The arena's own numbers: the sword's slash1 tip hits in the scripted swing (docs/demo.md).
log=$("$cleave" demo --headless --frames 60 --enemies 0 --mod "$src/mods/sword" \
    --inputs "$src/tests/app/swing.inputs")
hit=$(echo "$log" | sed -n 's/.* hit tip @[0-9]* -> #[0-9]* dmg \([0-9.]*\) kb \([0-9.]*\) lag \([0-9]*\).*/\1 \2 \3/p' | head -n 1)
row=$(sed -n 's/^sword,sword,slash1,.*,tip,[^,]*,[^,]*,[^,]*,\([^,]*\),[^,]*,\([^,]*\),[^,]*,\([^,]*\),.*/\1 \2 \3/p' check-sword.csv)
want=$(echo "$row" | awk '{ printf "%.1f %.1f %d", $1, $2, $3 }')
[ -n "$hit" ] && [ "$hit" = "$want" ] ||
    { echo "FAIL: the arena logged '$hit' for the tip, check states '$want'"; fail=1; }

# The arena's own numbers for a smash hit: the throw in the grappler's golden log (the default
# target: weight 1, 0 percent, on the ground), against the CSV row of the heave.
gold=$(sed -n 's/.* heave -> foe .* kb (\([-0-9.]*\), \([-0-9.]*\)) .* hitstun \([0-9]*\)$/\1 \2 \3/p' \
    "$src/mods/grappler/spec/golden/throw.log")
row=$(awk -F, '$3 == "throw" && $8 == "heave" { print $14, $17 }' check-grappler.csv)
echo "$gold $row" | awk 'NF != 5 || $3 != $5 || sqrt($1 * $1 + $2 * $2) - $4 > 0.002 ||
    $4 - sqrt($1 * $1 + $2 * $2) > 0.002 { exit 1 }' ||
    { echo "FAIL: the golden log has kb and hitstun '$gold' for the throw, check states '$row'"; fail=1; }
# a smash hit's hitstun is floor(0.4 * knockback) beyond 3600 frames too, as the arena's:
# base 10000 gives 4000
mkdir -p smash_mod
cat > smash_mod/mod.lua <<'LUA'
return { name = "smash_mod", version = "1.0.0", weapons = { w = cleave.weapon { name = "w",
  attacks = { hit = { length = 10, hitboxes = { cleave.hitbox { id = "s", frames = 3, x = 20,
    y = 0, radius = 8, damage = 0, knockback = { kind = "smash", base = 10000, growth = 0 } } } } } } } }
LUA
stun=$("$cleave" check smash_mod --format csv | awk -F, '$8 == "s" { print $17 }')
[ "$stun" = 4000 ] || { echo "FAIL: a smash hit of 10000 knockback states hitstun '$stun'"; fail=1; }
kind=$(awk -F, '$8 == "hand" { print $21 }' check-grappler.csv)
[ "$kind" = grab ] || { echo "FAIL: the grappler's hand is kind '$kind', not grab"; fail=1; }

[ "$fail" -eq 0 ] && echo "check formats: ok"
exit "$fail"
