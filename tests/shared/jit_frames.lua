-- A game's frame loop through cleave.ffi must compile: LuaJIT stops recording a trace at an
-- operation it cannot compile ("NYI"), and the frame then runs in the interpreter, several times
-- slower. This runs the frames of tests/shared/bench_ffi_arena.c (flail's whirl among 48
-- enemies, restarted when it ends, hits read from the C array) and fails on any such abort
-- inside the binding. usage: luajit jit_frames.lua SOURCE_DIR (CLEAVE_LIB names the library)
local src = arg[1]
package.path = src .. "/scripts/?.lua;" .. package.path
local cleave = require "cleave.ffi"
local jutil, vmdef = require "jit.util", require "jit.vmdef"

local arena = cleave.arena {}
local player = arena:spawn { team = 1 }
for i = 0, 47 do
  local a = 2 * math.pi * i / 48
  arena:spawn { x = 45 * math.cos(a), y = 45 * math.sin(a), team = 2, hp = 1e6 }
end
local def = { weapon = cleave.load_mod(src .. "/mods/flail").weapons.flail, attack = "whirl",
  owner = player }

local aborts = {}
local function on_trace(what, _, func, pc, err, info)
  if what ~= "abort" or type(err) ~= "number" then return end
  local where = jutil.funcinfo(func, pc)
  local text = vmdef.traceerr[err]
  if text:find("bytecode %d", 1, true) then -- its number, as its name
    text = "NYI: bytecode " .. vmdef.bcnames:sub(info * 6 + 1, info * 6 + 6):gsub(" +$", "")
  elseif text:find("%", 1, true) then
    text = text:format(type(info) == "function" and "a function" or tostring(info))
  end
  local source = where.source or "?"
  -- "return to lower frame" says where a trace began, not what it met: LuaJIT records the
  -- same code again from another start
  local uncompiled = text:find("^NYI") and not text:find("return to lower frame", 1, true)
  if uncompiled and source:find("cleave/ffi") then
    aborts[#aborts + 1] = ("%s:%s: %s"):format(source:match("[^/]*$"), where.currentline, text)
  end
end

jit.attach(on_trace, "trace")
local swing, hits = nil, 0
for _ = 1, 3000 do
  if not (swing and swing:running()) then swing = arena:attack(def) end
  arena:step(1)
  local events, n = arena:hit_events()
  for i = 0, n - 1 do hits = hits + events[i].damage end
end
jit.attach(on_trace)
assert(hits > 0, "no hits: the scenario no longer exercises hit events")
if #aborts > 0 then
  print("LuaJIT could not compile the frame loop:\n  " .. table.concat(aborts, "\n  "))
  os.exit(1)
end
print(("jit_frames: 3000 frames, %d damage, no NYI in the binding"):format(hits))
