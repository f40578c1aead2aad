-- sword: a three-hit combo with a sweet spot at the tip.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local mod = cleave.load_mod(dir)
local sword = mod.weapons.sword

-- Each slash starts the frame after the previous one ends.
local function combo()
  local arena = T.arena {}
  local player = arena:spawn { x = 0, y = 0, team = 1, name = "player" }
  local a25 = math.rad(25.2)
  arena:spawn { x = 45 * math.cos(a25), y = 45 * math.sin(a25), team = 2, radius = 5,
                name = "tipper", weight = 1000 }
  arena:spawn { x = 18, y = -8.5, team = 2, radius = 5, name = "inner", weight = 1000 }
  for _, name in ipairs { "slash1", "slash2", "slash3" } do
    local swing = arena:attack { weapon = sword, attack = name, owner = player }
    T.run_until(function() return not swing:running() end, 120)
  end
  return arena
end

describe("sword", function()
  it("has three slashes, each a blade with a tip of higher priority in the same group", function()
    assert.are.same({ "slash1", "slash2", "slash3" }, sword:attacks())
    local blade, tip = sword:hitbox("slash3", 7, "blade"), sword:hitbox("slash3", 7, "tip")
    assert.are.same({ "blade", "tip" }, sword:hitboxes("slash3", 7))
    assert.are.equal(blade.group, tip.group)
    T.expect_greater(tip.priority, blade.priority, "priority")
    assert.are.equal(blade.damage + 5, tip.damage)
  end)

  it("lands the sweet spot with the tip and the rest with the blade", function()
    combo()
    local sweet = T.expect_hit { attack = "slash3", hitbox = "tip", target = "tipper", damage = 14 }
    T.expect_miss { attack = "slash3", frame = sweet.frame, hitbox = "blade", target = "tipper",
                    reason = "precedence" }
    local plain = T.expect_hit { attack = "slash3", hitbox = "blade", target = "inner", damage = 9 }
    -- where on the blade: the inner target is met near the hilt, the tip near the end
    T.expect_less(plain.t, 0.5, "t")
    T.expect_greater(sweet.t, 0.5, "t")
  end)

  it("hits in each slash of the combo", function()
    combo()
    for _, name in ipairs { "slash1", "slash2", "slash3" } do
      T.expect_hit { attack = name }
    end
  end)

  it("logs the sweet spots from its on_hit callback", function()
    local before = #mod.handle:log()
    combo()
    local log = mod.handle:log()
    T.expect_greater(#log, before, "log length")
    for i = before + 1, #log do
      assert.matches("^sweet spot: slash%d frame %d+ on %d+$", log[i])
    end
  end)

  it("matches its golden log", function()
    combo()
    T.golden("combo", T.log())
  end)

  it("counts its coverage", function()
    combo()
    local missing, total = T.coverage(sword)
    assert.are.equal(28, total)
    T.expect_less(#missing, total, "never-hit triples")
  end)

  describe("broken copies", function()
    it("wrong type", function()
      T.expect_broken { dir = dir, find = "damage = damage + 5,", replace = "damage = \"5\",",
        at = "cleave.arc { id = \"tip\"",
        message = "attacks.slash1.hitboxes[2].damage must be a number (got string)" }
    end)
    it("missing field", function()
      T.expect_broken { dir = dir, find = "inner = 8, outer = REACH,", replace = "inner = 8,",
        at = "cleave.arc { id = \"blade\"",
        message = "attacks.slash1.hitboxes[1].outer is required" }
    end)
    it("negative radius", function()
      T.expect_broken { dir = dir, find = "radius = 3,", replace = "radius = -3,",
        at = "cleave.arc { id = \"blade\"",
        message = "attacks.slash1.hitboxes[1].radius must be >= 0 (got -3)" }
    end)
    it("frame range past the end", function()
      T.expect_broken { dir = dir, find = "length = frames[2] + 6,", replace = "length = frames[2] - 1,",
        at = "cleave.arc { id = \"blade\"",
        message = "attacks.slash1.hitboxes[1].frames[2] is past the attack's last frame 5 (got 6)" }
    end)
    it("unknown field", function()
      T.expect_broken { dir = dir, find = "priority = 1,", replace = "priorty = 1,",
        at = "cleave.arc { id = \"tip\"",
        message = "attacks.slash1.hitboxes[2]: unknown field 'priorty' (did you mean 'priority'?)" }
    end)
  end)
end)
