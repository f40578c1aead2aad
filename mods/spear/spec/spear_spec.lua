-- spear: a thrust that pierces up to three targets on one frame.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local mod = cleave.load_mod(dir)
local spear = mod.weapons.spear

-- Four targets in a row in front of the spear, one to the side.
local function thrust()
  local arena = T.arena {}
  local player = arena:spawn { x = 0, y = 0, team = 1, name = "player" }
  for i, name in ipairs { "a", "b", "c", "d" } do
    arena:spawn { x = 34 + 8 * i, y = 0, team = 2, radius = 5, name = name }
  end
  arena:spawn { x = 60, y = 40, team = 2, radius = 5, name = "aside" }
  arena:attack { weapon = spear, attack = "thrust", owner = player }
  arena:step(40)
  return arena
end

describe("spear", function()
  it("is one shaft that goes out over frames 4-8 and back over 9-11", function()
    assert.are.equal(16, spear:length("thrust"))
    local _, _, tip4 = spear:hitbox("thrust", 4, "shaft").shape:unpack()
    local _, _, tip8 = spear:hitbox("thrust", 8, "shaft").shape:unpack()
    local _, _, tip11 = spear:hitbox("thrust", 11, "shaft").shape:unpack()
    assert.are.equal(30, tip4)
    assert.are.near(110, tip8, 1e-4)
    assert.are.near(40, tip11, 1e-4)
    assert.are.equal(3, spear:hitbox("thrust", 6, "shaft").max_hits)
  end)

  it("pierces: the three nearest targets are hit on one frame, the fourth is refused", function()
    thrust()
    local first = T.expect_hit { hitbox = "shaft", target = "a", damage = 9 }
    T.expect_hit { frame = first.frame, target = "b", damage = 9 }
    T.expect_hit { frame = first.frame, target = "c", damage = 9 }
    T.expect_miss { frame = first.frame, target = "d", reason = "max_hits" }
    T.expect_no_hit { target = "aside" }
  end)

  it("pushes every pierced target straight ahead", function()
    thrust()
    local h = T.expect_hit { target = "b" }
    assert.are.equal(4, h.knockback_x)
    assert.are.equal(0, h.knockback_y)
  end)

  it("matches its golden log", function()
    thrust()
    T.golden("thrust", T.log())
  end)

  it("reports what no test hit", function()
    thrust()
    local missing, total = T.coverage(spear)
    assert.are.equal(8, total)
    T.expect_at_least(#missing, 1, "never-hit triples")
    T.expect_less(#missing, 8, "never-hit triples")
  end)

  describe("broken copies", function()
    it("wrong type", function()
      T.expect_broken { dir = dir, find = "max_hits = 3,\n", replace = "max_hits = true,\n",
        at = "cleave.thrust { id = \"shaft\", frames = { 4, 8 }",
        message = "attacks.thrust.hitboxes[1].max_hits must be an integer (got boolean)" }
    end)
    it("missing field", function()
      T.expect_broken { dir = dir, find = "from = 110, to = 40, reach = 70,",
        replace = "from = 110, to = 40,", at = "cleave.thrust { id = \"shaft\", frames = { 9, 11 }",
        message = "attacks.thrust.hitboxes[2].reach is required" }
    end)
    it("negative radius", function()
      T.expect_broken { dir = dir, find = "radius = 3, damage = 2,", replace = "radius = -3, damage = 2,",
        at = "cleave.thrust { id = \"shaft\", frames = { 9, 11 }",
        message = "attacks.thrust.hitboxes[2].radius must be >= 0 (got -3)" }
    end)
    it("frame range past the end", function()
      T.expect_broken { dir = dir, find = "frames = { 9, 11 }", replace = "frames = { 9, 17 }",
        message = "attacks.thrust.hitboxes[2].frames[2] is past the attack's last frame 16 (got 17)" }
    end)
    it("unknown field", function()
      T.expect_broken { dir = dir, find = "radius = 3, ease", replace = "raduis = 3, ease",
        at = "cleave.thrust { id = \"shaft\", frames = { 4, 8 }",
        message = "attacks.thrust.hitboxes[1]: unknown field 'raduis' (did you mean 'radius'?)" }
    end)
  end)
end)
