-- The hit rules' edges seen from Lua: a weapon's size limits.
local cleave = require "cleave"

local function err(f)
  local ok, e = pcall(f)
  assert.is_false(ok)
  return tostring(e)
end

local function here() return debug.getinfo(2, "Sl") end

describe("a weapon's size", function()
  it("is bounded in frames over all attacks, with file, line and field", function()
    local attacks = {}
    for i = 1, 5 do attacks["a" .. i] = { length = 65535, hitboxes = {} } end
    local at = here()
    local e = err(function() cleave.weapon { attacks = attacks } end)
    assert.are.equal(at.short_src .. ":" .. (at.currentline + 1) .. ": attacks.a5: makes the "
      .. "weapon's attacks last 327675 frames together, more than the limit of 262144", e)
  end)

  it("is bounded in placed hitboxes, so the first attack never compiles for seconds", function()
    local hb = {}
    for k = 1, 100 do
      hb[k] = { id = "b" .. k, frames = { 1, 65535 }, x = 0, y = 0, radius = 4 }
    end
    local e = err(function()
      cleave.weapon { attacks = { swing = { length = 65535, hitboxes = hb } } }
    end)
    assert.matches("hit_limits_spec%.lua:%d+: attacks%.swing%.hitboxes%[5%]: makes the weapon "
      .. "place 327675 hitboxes %(one per hitbox and frame%), more than the limit of 262144$", e)
    -- four hitboxes over the whole attack are 262140: accepted, and an arena takes them
    for k = 5, 100 do hb[k] = nil end
    local w = cleave.weapon { attacks = { swing = { length = 65535, hitboxes = hb } } }
    local a = cleave.arena {}
    a:attack { weapon = w, attack = "swing", owner = a:spawn {} }
    a:step(1)
  end)
end)
