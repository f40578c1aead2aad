-- dodger: a roll whose frames 4-12 are intangible; a stab on those frames passes through.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local mod = cleave.load_mod(dir)
local body, dagger = mod.bodies.dodger, mod.weapons.dagger

-- A stabber at 0 and the dodger at 40 playing `animation`; the stab starts after `wait` frames.
-- The dagger's point (radius 3) is at 18, 26 and 34 on its frames 3-5, so only frame 5
-- reaches the roll's ball (radius 10 at 40): the stab lands on the dodger's frame wait + 5.
local function stab(animation, wait)
  local arena = T.arena {}
  local stabber = arena:spawn { x = 0, radius = 8, team = 1, name = "stabber" }
  local dodger = arena:spawn { x = 40, team = 2, name = "dodger", body = body, animation = animation }
  arena:step(wait)
  arena:attack { weapon = dagger, attack = "stab", owner = stabber }
  arena:step(10)
  return arena, dodger
end

describe("dodger", function()
  it("rolls 18 frames, intangible on 4-12", function()
    assert.are.equal("intangible", body:hurtboxes("roll", 4)[1].state)
    assert.are.equal("intangible", body:hurtboxes("roll", 12)[1].state)
    assert.are.equal("normal", body:hurtboxes("roll", 3)[1].state)
    assert.are.equal("normal", body:hurtboxes("roll", 13)[1].state)
  end)

  it("lets a stab on roll frame 5 pass through", function()
    local _, dodger = stab("roll", 0)
    T.expect_miss { frame = 5, target = "dodger", reason = "intangible" }
    T.expect_no_hit { target = "dodger" }
    assert.are.equal(100, dodger:hp())
  end)

  it("is hit by the same stab on roll frame 13, and standing", function()
    stab("roll", 8)
    T.expect_hit { frame = 13, target = "dodger", damage = 6 }
    stab("stand", 0)
    T.expect_hit { frame = 5, target = "dodger", damage = 6 }
  end)

  it("matches its golden log", function()
    local arena = T.arena {}
    local stabber = arena:spawn { x = 0, radius = 8, team = 1, name = "stabber" }
    arena:spawn { x = 40, team = 2, name = "dodger", body = body, animation = "roll" }
    for _ = 1, 3 do -- a stab every 4 frames: they reach it on frames 5, 9 and 13 of the roll
      arena:attack { weapon = dagger, attack = "stab", owner = stabber }
      arena:step(4)
    end
    arena:step(6)
    T.golden("roll", T.log { reasons = { "intangible" } })
  end)

  describe("broken copies", function()
    it("a state that does not exist", function()
      T.expect_broken { dir = dir, find = "state = \"intangible\"", replace = "state = \"ghost\"",
        at = "local dodger = cleave.body {",
        message = "animations.roll.hurtboxes[2].state must be normal, invincible, intangible or armor (got 'ghost')" }
    end)
    it("a hurtbox past the animation's last frame", function()
      T.expect_broken { dir = dir, find = "frames = { 13, 18 }", replace = "frames = { 13, 19 }",
        at = "local dodger = cleave.body {",
        message = "animations.roll.hurtboxes[3].frames[2] is past the animation's last frame 18 (got 19)" }
    end)
  end)
end)
