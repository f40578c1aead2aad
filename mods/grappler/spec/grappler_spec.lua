-- grappler: the grab beats a guard and holds; the throw hits the held target alone and launches
-- it by the platform fighters' formula.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local grappler = cleave.load_mod(dir).weapons.grappler

-- A strike of 4 that reaches 30 ahead on its first frame, to hit the grappler as it grabs.
local jab = cleave.weapon { name = "jab", attacks = { jab = { length = 1, hitboxes = {
  cleave.hitbox { id = "fist", frames = 1, x = 30, y = 0, radius = 5, damage = 4, hitlag = 0 } } } } }

-- The grappler at 0 grabs a foe 30 ahead (guarding, facing it); a bystander stands where the
-- throw reaches and the hand does not.
-- extra sets more of the foe's spawn fields.
local function grab(extra)
  local arena = T.arena {}
  local me = arena:spawn { x = 0, radius = 8, team = 1, name = "grappler" }
  local def = { x = 30, radius = 8, team = 2, name = "foe", state = "guard", facing = 180 }
  for k, v in pairs(extra or {}) do def[k] = v end
  local foe = arena:spawn(def)
  arena:spawn { x = 22, y = 18, radius = 6, team = 2, name = "bystander" }
  arena:attack { weapon = grappler, attack = "grab", owner = me }
  arena:step(5) -- the hand is out on frames 5-7
  return arena, me, foe
end

describe("grappler", function()
  it("grabs through a guard and holds the target 22 ahead", function()
    local arena, me, foe = grab()
    T.expect_grab { frame = 5, target = "foe", hitbox = "hand" }
    assert.are.equal(me, foe:info().held_by)
    assert.are.equal(foe, me:info().holding)
    arena:step() -- the hold places the target from the next frame on
    assert.are.same({ 22, 0 }, { foe:position() })
    me:set_position(10, 5)
    arena:step()
    assert.are.same({ 32, 5 }, { foe:position() })
  end)

  -- damage 9 on a middleweight at 0 %: ((0.9 + 4.05) * 1.4 + 18) * 0.9 + 40 = 62.437 units,
  -- launch speed 0.03 * 62.437 = 1.87311 at -45 degrees (up and away), hitstun 24
  it("throws the held target, and only it, by the smash formula", function()
    local arena, me = grab()
    arena:step(15) -- the grab ends; the foe stays held
    arena:throw { weapon = grappler, attack = "throw", owner = me }
    arena:step(2)
    local h = T.expect_hit { target = "foe", attack = "throw", damage = 9, hitstun = 24 }
    local c = 1.87311 * math.sqrt(0.5)
    assert.is_true(math.abs(h.knockback_x - c) < 1e-4 and math.abs(h.knockback_y + c) < 1e-4)
    T.expect_miss { target = "bystander", attack = "throw", reason = "not_thrown" }
    T.expect_no_hit { target = "bystander" }
    assert.is_nil(me:info().holding)
  end)

  it("misses a target in the air", function()
    local _, me, foe = grab { airborne = true }
    T.expect_miss { frame = 5, target = "foe", reason = "airborne" }
    assert.is_nil(foe:info().held_by)
    assert.is_nil(me:info().holding)
  end)

  it("loses to a strike on the grappler on the same frame", function()
    local arena = T.arena {}
    local me = arena:spawn { x = 0, radius = 8, team = 1, name = "grappler" }
    local foe = arena:spawn { x = 30, radius = 8, team = 2, name = "foe", facing = 180 }
    arena:attack { weapon = grappler, attack = "grab", owner = me }
    arena:step(4)
    arena:attack { weapon = jab, attack = "jab", owner = foe, facing = 180 }
    arena:step()
    T.expect_miss { frame = 5, target = "foe", reason = "interrupted" }
    T.expect_hit { frame = 5, target = "grappler", damage = 4 }
  end)

  it("matches its golden log", function()
    local arena, me = grab()
    arena:step(15)
    arena:throw { weapon = grappler, attack = "throw", owner = me }
    arena:step(3)
    T.golden("throw", T.log { reasons = { "not_thrown", "airborne", "interrupted" } })
  end)

  describe("broken copies", function()
    it("a kind of hitbox that does not exist", function()
      T.expect_broken { dir = dir, find = "kind = \"grab\"", replace = "kind = \"grasp\"",
        at = "cleave.hitbox { id = \"hand\"",
        message = "attacks.grab.hitboxes[1].kind must be 'hit', 'reflect', 'absorb' or 'grab' (got 'grasp')" }
    end)
    it("a smash angle that is no angle", function()
      T.expect_broken { dir = dir, find = "angle = -45", replace = "angle = \"up\"",
        at = "cleave.hitbox { id = \"heave\"",
        message = "attacks.throw.hitboxes[1].knockback.angle must be a number of degrees or 'sakurai' (got 'up')" }
    end)
  end)
end)
