-- bat: the barrel sends a thrown knife back along the batter's facing.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local bat = cleave.load_mod(dir).weapons.bat
local knives = cleave.load_mod("mods/knives").weapons.knives

-- A knife thrown from x0 toward the batter at 20 units per frame as the bat swings.
local function at_bat(x0)
  local arena = T.arena {}
  local batter = arena:spawn { x = 0, y = 0, team = 1, name = "batter" }
  local thrower = arena:spawn { x = 200, y = 0, team = 2, name = "thrower" }
  arena:attack { weapon = bat, attack = "swing", owner = batter }
  local knife = arena:spawn_projectile { weapon = knives, attack = "fly", owner = thrower, x = x0,
                                         y = 0, vx = -20, pierce = 1, loop = true, lifetime = 90 }
  arena:step(20)
  return batter, thrower, knife
end

describe("bat", function()
  it("reflects a knife: back along its facing, half again as fast, twice as strong", function()
    local batter, thrower = at_bat(140)
    local r = T.expect_reflect { weapon = "knives", owner = "thrower", by = "batter", vx = 30,
                                 vy = 0 }
    assert.are.equal(7, r.frame)
    T.expect_clash { kind = "reflect", winner = "bat", hitbox = "barrel",
                     other = { weapon = "knives" } }
    T.expect_miss { weapon = "knives", frame = 7, reason = "reflected" }
    T.expect_hit { weapon = "knives", target = "thrower", damage = 10 }
    assert.are.equal(90, thrower:info().hp)
    assert.are.equal(100, batter:info().hp)
  end)

  it("lets a knife that comes too late hit the batter", function()
    local batter = at_bat(260)
    T.expect_hit { weapon = "knives", target = "batter", damage = 5 }
    assert.are.equal(95, batter:info().hp)
  end)

  it("matches its golden log", function()
    at_bat(140)
    T.golden("reflect", T.log())
  end)

  describe("broken copies", function()
    it("a kind that does not exist", function()
      T.expect_broken { dir = dir, find = "kind = \"reflect\"", replace = "kind = \"reflct\"",
        at = "cleave.arc { id = \"barrel\"",
        message = "attacks.swing.hitboxes[1].kind (from the weapon's defaults) must be 'hit', 'reflect', 'absorb' or 'grab' (got 'reflct')" }
    end)
    it("a negative reflect speed", function()
      T.expect_broken { dir = dir, find = "reflect_speed = 1.5", replace = "reflect_speed = -1.5",
        at = "cleave.arc { id = \"barrel\"",
        message = "attacks.swing.hitboxes[1].reflect_speed (from the weapon's defaults) must be >= 0 (got -1.5)" }
    end)
  end)
end)
