-- hammer: late, heavy, one damaged target per frame, everything touched pushed.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local mod = cleave.load_mod(dir)
local hammer = mod.weapons.hammer

local function smash()
  local arena = T.arena {}
  local player = arena:spawn { x = 0, y = 0, team = 1, name = "player" }
  local one = arena:spawn { x = 50, y = 10, team = 2, radius = 8, name = "one" }
  local two = arena:spawn { x = 62, y = 22, team = 2, radius = 8, name = "two" }
  arena:attack { weapon = hammer, attack = "smash", owner = player }
  return arena, player, one, two
end

describe("hammer", function()
  it("is slow: nothing is active before frame 18", function()
    for f = 1, 17 do
      assert.are.same({}, hammer:hitboxes("smash", f))
    end
    assert.are.same({ "haft", "head" }, hammer:hitboxes("smash", 18))
  end)

  it("lands on frame 18 and not before", function()
    local arena = smash()
    local frames = T.run_until(function() return #arena:hits() > 0 end, 60)
    assert.are.equal(18, frames)
  end)

  it("damages one target, pushes the other (knockback_ignores_hit_count)", function()
    local arena, _, one, two = smash()
    arena:step(60)
    local hit = T.expect_hit { frame = 18, hitbox = "head", target = "one", damage = 20 }
    local push = T.expect_hit { frame = 18, hitbox = "head", target = "two", damage = 0, push_only = true }
    assert.are.equal(hit.knockback_x, push.knockback_x)
    T.expect_greater(hit.knockback_x, 10, "knockback_x")
    assert.are.equal(14, hit.hitlag)
    assert.are.equal(30, hit.hitstun)
    assert.are.equal(100 - 20 - 4, one:hp()) -- the head and the haft (another group)
    assert.are.equal(100, two:hp())
    T.expect_greater((two:position()), 62, "x") -- it was pushed all the same
  end)

  it("freezes both sides for its hitlag", function()
    local arena, player = smash()
    arena:step(18)
    assert.are.equal(14, player:info().hitlag)
  end)

  it("matches its golden log", function()
    local arena = smash()
    arena:step(60)
    T.golden("smash", T.log())
  end)

  it("reports what no test hit", function()
    local arena = smash()
    arena:step(60)
    assert.are.equal(table.concat({
      "hammer: 2 of 8 (attack, frame, hitbox) hit",
      "  never hit: smash frame 19-21 haft",
      "  never hit: smash frame 19-21 head",
    }, "\n"), T.coverage_report(hammer))
  end)

  describe("broken copies", function()
    it("wrong type", function()
      T.expect_broken { dir = dir, find = "knockback_ignores_hit_count = true",
        replace = "knockback_ignores_hit_count = 1", at = "local head = cleave.hitbox {",
        message = "attacks.smash.hitboxes[2].knockback_ignores_hit_count must be a boolean (got integer)" }
    end)
    it("missing field", function()
      T.expect_broken { dir = dir, find = "x = 50, y = 10,", replace = "x = 50,",
        at = "local head = cleave.hitbox {",
        message = "attacks.smash.hitboxes[2].y is required" }
    end)
    it("negative radius", function()
      T.expect_broken { dir = dir, find = "radius = 16,", replace = "radius = -3,",
        at = "local head = cleave.hitbox {",
        message = "attacks.smash.hitboxes[2].radius must be >= 0 (got -3)" }
    end)
    it("frame range past the end", function()
      T.expect_broken { dir = dir, find = "length = 40,", replace = "length = 20,",
        at = "cleave.hitbox { id = \"haft\"",
        message = "attacks.smash.hitboxes[1].frames[2] is past the attack's last frame 20 (got 21)" }
    end)
    it("unknown field", function()
      T.expect_broken { dir = dir, find = "hitlag = 14,", replace = "hitlog = 14,",
        at = "local head = cleave.hitbox {",
        message = "attacks.smash.hitboxes[2]: unknown field 'hitlog' (did you mean 'hitlag'?)" }
    end)
  end)
end)
