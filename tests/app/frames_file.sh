#!/bin/sh
# cleave.frames: a mod's attack read from frames/NAME.lua, which holds data and nothing else.
# Each bad file or name is refused with a message naming the file (and line) and what is wrong.
# usage: frames_file.sh CLEAVE
set -u
cleave=$1
fail=0
rm -rf frames_mod && mkdir -p frames_mod/frames

mod() { # the attack expression of mod.lua
    cat > frames_mod/mod.lua <<LUA
return {
  name = "frames_mod", version = "1.0.0",
  weapons = { stick = cleave.weapon { name = "stick", attacks = { poke = $1 } } },
}
LUA
}
refused() { # text-the-error-holds: check of frames_mod fails, naming it
    if out=$("$cleave" check frames_mod 2>&1); then
        echo "FAIL: accepted, expected '$1'"; fail=1; return
    fi
    echo "$out" | grep -qF -- "$1" || { echo "FAIL: '$out' does not say '$1'"; fail=1; }
}

# A good file: its hitbox is the poke's.
mod 'cleave.frames "poke"'
cat > frames_mod/frames/poke.lua <<'LUA'
-- a data file: comments, strings with "(" and ':' in them, [[long strings]] are fine
return {
  length = 6, rehit = 0, max_targets = 0, lockout = 0,
  frames = {
    [2] = {
      { id = "tip: (sharp)", ax = 0, ay = 0, bx = 20.5, by = -0.0, radius = 2, damage = 3 },
    },
  },
}
LUA
out=$("$cleave" check frames_mod --format csv) || { echo "FAIL: a good frames file: $out"; fail=1; }
echo "$out" | grep -q '^frames_mod,stick,poke,6,1,2,4,tip: (sharp),2,capsule,0,3,' ||
    { echo "FAIL: the poke's frame data: '$out'"; fail=1; }

# Names: only a file of frames/.
mod 'cleave.frames "../mod"'
refused "a frames file name must not start with '.' or hold '..'"
mod 'cleave.frames "sub/poke"'
refused "no '/'"
mod 'cleave.frames ""'
refused "must be 1 to 31 bytes long"
mod 'cleave.frames "nosuch"'
refused "cannot read frames_mod/frames/nosuch.lua: it No such file or directory"

# Contents: values only.
bad() { # text-of-file expected-message
    printf '%s\n' "$1" > frames_mod/frames/bad.lua
    mod 'cleave.frames "bad"'
    refused "$2"
}
bad 'return { length = ("x"):len() }' "frames_mod/frames/bad.lua:1: holds a call or method"
bad 'local n = 3
return { length = n }' "frames_mod/frames/bad.lua:1: holds code"
bad 'return { length = #os }' "'os' is not a value: a frames file holds numbers"
bad 'return { length = string.rep }' "'string' is not a value"
bad 'return { s = x"abc" }' "'x' is not a value"
bad 'return { length = function() end }' "holds code"
bad '
while true do end' "frames_mod/frames/bad.lua:2: holds code"
bad 'return { length = 4, frames = "x }' "bad.lua:1: has a string or comment that is not closed"
bad '{ length = 4 }' "must return a table of frames"
bad 'return 4' "frames_mod/frames/bad.lua:1: must return a table (got number)"
bad 'return { length = 4, frames = { [2] = { { id = "a", ax = 0, ay = 0, bx = 1, by = 0, radius = -1 } } } }' \
    "frames_mod/frames/bad.lua:1: attacks.poke.frames[2][1].radius must be >= 0"
# bytecode is refused: text only
lua5.4 -e 'io.write(string.dump(load("return { length = 4 }")))' > frames_mod/frames/bad.lua
mod 'cleave.frames "bad"'
refused "frames_mod/frames/bad.lua: is a compiled chunk: a frames file is text"
# larger than the limit
awk 'BEGIN { print "return { length = 4, frames = {} }"; for (i = 0; i < 20000; i++) print "-- padding padding padding padding padding padding padding" }' \
    > frames_mod/frames/bad.lua
refused "frames_mod/frames/bad.lua: it is larger than 1 MiB"
# a link out of the folder, and a FIFO
ln -sf ../mod.lua frames_mod/frames/link.lua
mod 'cleave.frames "link"'
refused "frames_mod/frames/link.lua: it is a symbolic link"
rm -f frames_mod/frames/fifo.lua && mkfifo frames_mod/frames/fifo.lua
mod 'cleave.frames "fifo"'
out=$(timeout 20 "$cleave" check frames_mod 2>&1)
echo "$out" | grep -q "fifo.lua: it is not a regular file" || { echo "FAIL: FIFO: '$out'"; fail=1; }

# bake refuses an attack that carries an obb hurtbox, naming the frame and the hurtbox, and
# leaves no file behind
mod '{ length = 4, hitboxes = {}, hurtboxes = { { id = "shield", frames = { 2, 3 }, shape = cleave.obb(10, 0, 4, 8, 0) } } }'
rm -rf frames_out
out=$("$cleave" bake frames_mod --out frames_out 2>&1) && { echo "FAIL: an obb hurtbox baked"; fail=1; }
echo "$out" | grep -qF "frames_out/poke.lua: frame 2: carried hurtbox 'shield' is not a capsule or a circle" ||
    { echo "FAIL: the obb hurtbox: '$out'"; fail=1; }
[ -z "$(ls frames_out)" ] || { echo "FAIL: the refused bake left $(ls frames_out)"; fail=1; }

[ "$fail" -eq 0 ] && echo "frames files: ok"
exit "$fail"
