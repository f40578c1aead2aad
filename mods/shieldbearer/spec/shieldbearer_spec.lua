-- shieldbearer: a guard that holds from the front, wears down and breaks.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local mod = cleave.load_mod(dir)
local body, sword = mod.bodies.shieldbearer, mod.weapons.sword

-- Two shieldbearers 40 apart; the one at 40 guards, facing the other when facing is 180. The
-- one at 0 chops `chops` times, one every 14 frames (the chop's length).
local function duel(facing, chops)
  local arena = T.arena {}
  local attacker = arena:spawn { x = 0, team = 1, name = "attacker", body = body }
  local guard = arena:spawn { x = 40, team = 2, name = "guard", body = body, facing = facing,
                              state = "guard" }
  for _ = 1, chops do
    arena:attack { weapon = sword, attack = "chop", owner = attacker }
    arena:step(14)
  end
  return arena, guard
end

describe("shieldbearer", function()
  it("has a guard of 60 that regains 0.2 a frame and breaks for 90 frames", function()
    local g = body:guard()
    assert.are.equal(60, g.meter)
    assert.are.equal(90, g.guard_break)
    assert.is_false(g.all_round)
  end)

  -- chip 0.1 of 12 is 1.2 hp; blockstun floor(2 + 0.8 * 12) = 11; each block takes
  -- 12 + 8 = 20 meter: 60 -> 40 -> 20 -> 0, which breaks the guard on the third chop
  it("blocks a chop from the front: chip damage, blockstun, and 20 meter a block", function()
    local _, guard = duel(180, 1)
    T.expect_blocked { target = "guard", damage = 1.2, hitstun = 11, guard_break = false }
    assert.are.equal(40, guard:info().guard_meter)
    assert.are.equal("guard", guard:info().state)
    assert.is_true(math.abs(guard:hp() - 98.8) < 1e-4)
  end)

  it("breaks on the third chop and takes the fourth whole", function()
    local _, guard = duel(180, 4)
    T.expect_blocked { frame = 33, target = "guard", guard_break = true }
    T.expect_hit { frame = 47, target = "guard", damage = 12, blocked = false }
    assert.are.equal("normal", guard:info().state)
    assert.are.equal(60, guard:info().guard_meter)
  end)

  it("does not block a chop from behind", function()
    duel(0, 1)
    T.expect_hit { target = "guard", damage = 12, blocked = false }
    local e = select(2, pcall(T.expect_blocked, { target = "guard" }))
    assert.matches("expected a blocked hit", e)
  end)

  it("regains meter while it does not guard", function()
    local arena, guard = duel(180, 1)
    guard:set_state("normal")
    arena:step(10)
    assert.is_true(math.abs(guard:info().guard_meter - 42) < 1e-4)
  end)

  it("matches its golden log", function()
    duel(180, 4)
    T.golden("duel", T.log { misses = false })
  end)

  describe("broken copies", function()
    it("an empty guard meter", function()
      T.expect_broken { dir = dir, find = "meter = 60", replace = "meter = 0",
        at = "local shieldbearer = cleave.body {",
        message = "guard.meter must be > 0 (got 0)" }
    end)
    it("a chip beyond the whole damage", function()
      T.expect_broken { dir = dir, find = "chip = 0.1", replace = "chip = 1.5",
        at = "cleave.arc { id = \"blade\"",
        message = "attacks.chop.hitboxes[1].chip (from the weapon's defaults) must be in 0..1 (got 1.5)" }
    end)
  end)
end)
