-- scythe: blade and handle in one group (the blade first), and a bleeding blade.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local mod = cleave.load_mod(dir)
local scythe = mod.weapons.scythe

local function swing()
  local arena = T.arena {}
  local player = arena:spawn { x = 0, y = 0, team = 1, name = "player" }
  local far = arena:spawn { x = 74, y = -13, team = 2, radius = 6, name = "far" }
  local close = arena:spawn { x = 35, y = 5, team = 2, radius = 6, name = "close" }
  arena:attack { weapon = scythe, attack = "swing", owner = player }
  arena:step(90)
  return arena, far, close
end

describe("scythe", function()
  it("lists the blade before the handle on every active frame", function()
    for f = 6, 11 do
      assert.are.same({ "blade", "handle" }, scythe:hitboxes("swing", f))
      assert.are.equal(0, scythe:hitbox("swing", f, "blade").group)
      assert.are.equal(0, scythe:hitbox("swing", f, "handle").group)
    end
    assert.are.same({ "bleed" }, mod.effects)
  end)

  it("hits a target touched by blade and handle once, with the blade", function()
    swing()
    T.expect_hit { frame = 9, hitbox = "blade", target = "far", damage = 12 }
    T.expect_miss { frame = 9, hitbox = "handle", target = "far", reason = "precedence" }
    T.expect_no_hit { hitbox = "handle", target = "far" }
  end)

  it("hits with the handle what the blade does not reach", function()
    swing()
    T.expect_hit { attack_frame = 10, hitbox = "handle", target = "close", damage = 3 }
    T.expect_no_hit { hitbox = "blade", target = "close" }
  end)

  it("makes the blade's target bleed: three ticks of 2 hp, and the mod's callbacks log them", function()
    local _, far, close = swing()
    local h = T.expect_hit { hitbox = "blade", target = "far" }
    assert.are.same({ "bleed" }, h.effects)
    assert.are.equal(100 - 12 - 3 * 2, far:hp())
    assert.are.equal(100 - 3, close:hp())
    local log = mod.handle:log()
    assert.are.equal("swing hit 2 with the blade", log[1])
    assert.are.equal("bleed tick on 2: 2.0 hp", log[#log])
  end)

  it("matches its golden log", function()
    swing()
    T.golden("swing", T.log())
  end)

  it("reports what no test hit", function()
    swing()
    assert.are.equal(table.concat({
      "scythe: 2 of 12 (attack, frame, hitbox) hit",
      "  never hit: swing frame 6-8 blade",
      "  never hit: swing frame 10-11 blade",
      "  never hit: swing frame 6-9 handle",
      "  never hit: swing frame 11 handle",
    }, "\n"), T.coverage_report(scythe))
  end)

  describe("broken copies", function()
    it("wrong type", function()
      T.expect_broken { dir = dir, find = "damage = 12,", replace = 'damage = "12",',
        message = "attacks.swing.frames[6][1].damage must be a number (got string)" }
    end)
    it("missing field", function()
      T.expect_broken { dir = dir, find = 'id = "handle", ', replace = "",
        message = "attacks.swing.frames[6][2].id is required" }
    end)
    it("negative radius", function()
      T.expect_broken { dir = dir, find = "radius = 3, damage = 3", replace = "radius = -3, damage = 3",
        message = "attacks.swing.frames[6][2].radius must be >= 0 (got -3)" }
    end)
    it("frame range past the end", function()
      T.expect_broken { dir = dir, find = "length = 18", replace = "length = 10",
        at = "cleave.weapon {",
        message = "attacks.swing.frames[11] is past the attack's last frame (length 10)" }
    end)
    it("unknown field", function()
      T.expect_broken { dir = dir, find = "on_tick =", replace = "on_tik =", at = "cleave.effect {",
        message = "effects.bleed: unknown field 'on_tik' (did you mean 'on_tick'?)" }
    end)
  end)
end)
