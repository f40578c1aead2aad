-- The hit rules' edges seen from Lua: a weapon's size limits, numbers beyond a float, huge but
-- valid numbers, timed states, and snapshots bound to the arena's weapons.
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

describe("numbers", function()
  it("say the float range when they exceed it", function()
    local e = err(function()
      cleave.weapon { attacks = { s = { hitboxes = {
        { id = "b", frames = 1, x = 0, y = 0, radius = 1, damage = 1e300 } } } } }
    end)
    assert.matches("attacks%.s%.hitboxes%[1%]%.damage must be within %+%-3%.4e38, the range of a "
      .. "float %(got 1e%+300%)$", e)
  end)

  it("give a finite, clamped knockback and a hitstun to match when huge but valid", function()
    local w = cleave.weapon { attacks = { s = { hitboxes = {
      { id = "b", frames = 1, ax = 0, ay = 0, bx = 30, by = 0, radius = 8, damage = 1e38,
        knockback = { angle = 0, base = 0, growth = 1e6 } } } } } }
    local a = cleave.arena {}
    local p = a:spawn { team = 1 }
    local t = a:spawn { x = 20, team = 2 }
    a:attack { weapon = w, attack = "s", owner = p }
    a:step(1)
    local h = a:hits()[1]
    assert.are.equal(1e9, h.knockback_x)
    assert.are.equal(0, h.knockback_y)
    assert.are.equal(3600, h.hitstun)
    assert.are.equal(3600, t:info().hitstun)
  end)
end)

describe("positions", function()
  it("are single precision: 2^24 + 1 is stored as 2^24", function()
    local a = cleave.arena {}
    local e = a:spawn { x = 2 ^ 24 + 1, y = 0.1 }
    local x, y = e:position()
    assert.are.equal(2 ^ 24, x)
    assert.are.equal(0.10000000149011612, y)
  end)
end)

describe("set_state", function()
  it("covers exactly the next n frames, n = 1 included", function()
    local w = cleave.weapon { attacks = { s = { rehit = 1, hitboxes = {
      { id = "b", frames = { 1, 3 }, ax = -30, ay = 0, bx = 30, by = 0, radius = 20, hitlag = 0 },
    } } } }
    local a = cleave.arena {}
    local p = a:spawn { team = 1, hurtboxes = {} }
    local t = a:spawn { x = 10, team = 2 }
    t:set_state("intangible", 1)
    a:attack { weapon = w, attack = "s", owner = p }
    a:step(1)
    assert.are.equal(0, #a:hits())
    a:step(1)
    assert.are.equal(1, #a:hits())
    assert.are.equal(2, a:hits()[1].frame)
  end)
end)

describe("restore", function()
  it("says why a snapshot does not fit an arena", function()
    local w = cleave.weapon { attacks = { s = { hitboxes = {
      { id = "b", frames = { 1, 3 }, x = 0, y = 0, radius = 4 } } } } }
    local a = cleave.arena {}
    a:attack { weapon = w, attack = "s", owner = a:spawn {} }
    a:step(1)
    local snap = a:snapshot()
    local fresh = cleave.arena {}
    assert.matches("restore: snapshot was taken with 1 weapons, this arena holds 0: restore into "
      .. "an arena with the same weapons, added in the same order",
      err(function() fresh:restore(snap) end))
    assert.matches("restore: checksum mismatch: the snapshot is corrupt",
      err(function() a:restore(snap:sub(1, 100) .. "x" .. snap:sub(102)) end))
    a:restore(snap)
  end)
end)
