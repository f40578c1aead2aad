-- knives: thrown with arena:spawn_projectile; pierce 1 stops it in the first target.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local mod = cleave.load_mod(dir)
local knives = mod.weapons.knives

local function throw(arena, owner, x, vx, extra)
  local def = { weapon = knives, attack = "fly", owner = owner, x = x, y = 0, vx = vx, pierce = 1,
                loop = true, lifetime = 90 }
  for k, v in pairs(extra or {}) do def[k] = v end
  return arena:spawn_projectile(def)
end

local function volley()
  local arena = T.arena {}
  local thrower = arena:spawn { x = 0, y = 0, team = 1, name = "thrower" }
  arena:spawn { x = 60, y = 0, team = 2, radius = 6, name = "first" }
  arena:spawn { x = 90, y = 0, team = 2, radius = 6, name = "second" }
  local knife = throw(arena, thrower, 10, 12)
  arena:step(30)
  return arena, knife
end

describe("knives", function()
  it("stops in the first target it hits (pierce 1)", function()
    local arena, knife = volley()
    local hit = T.expect_hit { weapon = "knives", target = "first", damage = 5 }
    T.expect_no_hit { target = "second" }
    assert.is_false(knife:running())
    assert.is_nil(arena:projectile(knife))
    local destroyed
    for _, e in ipairs(T.projectile_events()) do
      if e.kind == "destroyed" then destroyed = e end
    end
    assert.are.equal(hit.frame, destroyed.frame)
    assert.is_nil(destroyed.reason) -- pierce used up, not a meeting
  end)

  it("expires at the end of its lifetime when it meets nothing", function()
    local arena = T.arena {}
    local thrower = arena:spawn { x = 0, y = 0, team = 1, name = "thrower" }
    local knife = throw(arena, thrower, 10, 12, { lifetime = 10, gravity = 0.5 })
    arena:step(10)
    local p = arena:projectile(knife)
    assert.are.equal(10 + 9 * 12, p.x)
    assert.are.equal(0.5 * 9 * 10 / 2, p.y) -- 0.5 + 1 + ... + 4.5
    assert.are.equal(0, p.lifetime)
    arena:step(1)
    local last = T.projectile_events()[#T.projectile_events()]
    assert.are.equal("expired", last.kind)
    assert.are.equal(11, last.frame)
  end)

  it("is reflectable: a bat sends it back to its thrower", function()
    local bat = cleave.load_mod("mods/bat").weapons.bat
    local arena = T.arena {}
    local batter = arena:spawn { x = 0, y = 0, team = 1, name = "batter" }
    local thrower = arena:spawn { x = 200, y = 0, team = 2, name = "thrower" }
    arena:attack { weapon = bat, attack = "swing", owner = batter }
    local knife = throw(arena, thrower, 140, -20)
    arena:step(8)
    T.expect_reflect { by = "batter", owner = "thrower" }
    assert.are.equal(1, arena:projectile(knife).team)
    local refused = T.arena {}
    local b2 = refused:spawn { x = 0, y = 0, team = 1, name = "batter" }
    local t2 = refused:spawn { x = 200, y = 0, team = 2, name = "thrower" }
    refused:attack { weapon = bat, attack = "swing", owner = b2 }
    local plain = throw(refused, t2, 140, -20, { reflectable = false })
    refused:step(8)
    -- not reflectable, it meets the barrel by the clash rules: 5 against 4 is a clank
    T.expect_clash { kind = "clank", weapon = "knives", other = { weapon = "bat", stun = 6 } }
    assert.is_false(plain:running())
  end)

  it("matches its golden log", function()
    volley()
    T.golden("volley", T.log())
  end)

  describe("broken copies", function()
    it("a negative radius", function()
      T.expect_broken { dir = dir, find = "radius = 1.5,", replace = "radius = -1.5,",
        at = "cleave.weapon {",
        message = "attacks.fly.hitboxes[1].radius must be >= 0 (got -1.5)" }
    end)
  end)
end)
