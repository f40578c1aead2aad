-- flail: a chain of capsules following an arc, lingering, hitting again every 8 frames.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local mod = cleave.load_mod(dir)
local flail = mod.weapons.flail

local function whirl(frames)
  local arena = T.arena {}
  local player = arena:spawn { x = 0, y = 0, team = 1, name = "player" }
  local post = arena:spawn { x = 40, y = 0, team = 2, radius = 8, name = "post", hp = 1000 }
  arena:attack { weapon = flail, attack = "whirl", owner = player }
  arena:step(frames or 80)
  return arena, post
end

describe("flail", function()
  it("is a chain of four links and a ball, active for 36 frames", function()
    assert.are.same({}, flail:hitboxes("whirl", 5))
    for f = 6, 41 do
      assert.are.same({ "chain1", "chain2", "chain3", "chain4", "ball" }, flail:hitboxes("whirl", f))
    end
    assert.are.same({}, flail:hitboxes("whirl", 42))
  end)

  it("links follow one another: each trails the one inside it by a frame", function()
    -- chain2 on frame 8 points where chain1 pointed on frame 7
    local function angle(f, id)
      local ax, ay, bx, by = flail:hitbox("whirl", f, id).shape:unpack()
      return math.atan(by - ay, bx - ax)
    end
    assert.are.near(angle(7, "chain1"), angle(8, "chain2"), 1e-5)
    assert.are.near(angle(6, "chain1"), angle(9, "chain4"), 1e-5)
    -- and the links join end to end
    local _, _, bx, by = flail:hitbox("whirl", 6, "chain1").shape:unpack()
    local ax, ay = flail:hitbox("whirl", 6, "chain2").shape:unpack()
    assert.are.near(ax, bx, 1e-4)
    assert.are.near(ay, by, 1e-4)
  end)

  it("hits a post again, never sooner than 8 frames after the last hit", function()
    whirl()
    local hits = T.hits()
    T.expect_at_least(#hits, 3, "hits")
    for i = 2, #hits do
      T.expect_at_least(hits[i].frame - hits[i - 1].frame, 8, "frames between hits")
    end
    T.expect_miss { target = "post", reason = "rehit" }
  end)

  it("matches its golden log", function()
    whirl()
    T.golden("whirl", T.log())
  end)

  it("reports what no test hit", function()
    whirl()
    local missing, total = T.coverage(flail)
    assert.are.equal(36 * 5, total)
    assert.are.equal(total - #T.hits(), #missing)
  end)

  describe("broken copies", function()
    it("wrong type", function()
      T.expect_broken { dir = dir, find = "links = 4,", replace = "links = \"4\",",
        at = "cleave.arc { id = \"chain\"",
        message = "attacks.whirl.hitboxes[1].links must be an integer (got string)" }
    end)
    it("missing field", function()
      T.expect_broken { dir = dir, find = "from = -184, to = 896,", replace = "from = -184,",
        at = "cleave.arc { id = \"ball\"",
        message = "attacks.whirl.hitboxes[2].to is required" }
    end)
    it("negative radius", function()
      T.expect_broken { dir = dir, find = "radius = 7,", replace = "radius = -3,",
        at = "cleave.arc { id = \"ball\"",
        message = "attacks.whirl.hitboxes[2].radius must be >= 0 (got -3)" }
    end)
    it("frame range past the end", function()
      T.expect_broken { dir = dir, find = "length = 48,", replace = "length = 40,",
        at = "cleave.arc { id = \"chain\"",
        message = "attacks.whirl.hitboxes[1].frames[2] is past the attack's last frame 40 (got 41)" }
    end)
    it("unknown field", function()
      T.expect_broken { dir = dir, find = "rehit = 8,", replace = "rehits = 8,",
        at = "cleave.weapon {",
        message = "attacks.whirl: unknown field 'rehits' (did you mean 'rehit'?)" }
    end)
  end)
end)
