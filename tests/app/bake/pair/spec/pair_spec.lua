-- pair: both weapons keep what they do in the baked copy, the stone's hit and the paddle's
-- reflection.
local cleave = require "cleave"
local T = require "cleave.testing"

local weapons = cleave.load_mod(T.mod_dir()).weapons

describe("pair", function()
  it("throws a stone that the paddle sends back at twice its speed", function()
    local arena = T.arena {}
    local thrower = arena:spawn { x = 0, team = 1, name = "thrower" }
    local batter = arena:spawn { x = 40, team = 2, name = "batter", radius = 4 }
    arena:attack { weapon = weapons.paddle, attack = "bat", owner = batter, facing = 180 }
    arena:spawn_projectile { weapon = weapons.stone, attack = "fly", owner = thrower, x = 10,
      vx = 3, lifetime = 30 }
    arena:step(10)
    T.expect_reflect { vx = -6 }
    arena:step(20)
    T.expect_hit { target = "thrower", damage = 5 }
  end)
end)
