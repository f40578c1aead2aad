-- puncher: what its baked copy must keep. The arm and the elbow the punch carries, over their
-- frames; the fist's defence fields, each set back to the global default over the weapon's
-- defaults; the palm's, taken from those defaults.
local cleave = require "cleave"
local T = require "cleave.testing"

local puncher = cleave.load_mod(T.mod_dir()).weapons.puncher

-- The foe's jab: a circle of radius 2 at the foe's own position (16 ahead of the puncher: on
-- the arm, off the elbow and short of the fist, which it would clash with), started every
-- frame, so it reaches the puncher (who has no hurtbox of its own) only where the punch carries
-- the arm.
local jab = cleave.weapon { name = "jab", attacks = { jab = { length = 1, hitboxes = {
  cleave.hitbox { id = "knuckle", frames = 1, x = 0, y = 0, radius = 2, damage = 1, hitlag = 0 } } } } }

local function hit_on(arena, target)
  for _, h in ipairs(arena:hits()) do
    if h.target == target then return h end
  end
end

describe("puncher", function()
  it("carries the arm on frames 3-8 and the heavy-armored elbow on 4-5", function()
    local arena = cleave.arena {}
    local me = arena:spawn { x = 0, hurtboxes = {}, team = 1, name = "puncher" }
    local foe = arena:spawn { x = 16, hurtboxes = {}, team = 2, name = "foe" }
    arena:attack { weapon = puncher, attack = "punch", owner = me }
    local hit, states = {}, {}
    for f = 1, 10 do
      arena:attack { weapon = jab, owner = foe }
      arena:step()
      hit[f] = hit_on(arena, me) ~= nil
      local s = {}
      for _, b in ipairs(me:hurtboxes()) do s[#s + 1] = b.state end
      states[f] = table.concat(s, " ")
    end
    assert.are.same({ false, false, true, true, true, true, true, true, false, false }, hit)
    assert.are.same({ "", "", "normal", "normal armor", "normal armor", "normal", "normal",
      "normal", "", "" }, states)
  end)

  it("keeps the fist's defence fields at the global defaults, over the weapon's", function()
    local fist = puncher:hitbox("punch", 5, "fist")
    assert.are.same({ 0, "auto", 0, false, "auto", "any", 1, 65535, { 24, 0 } },
      { fist.chip, fist.blockstun, fist.shield_damage, fist.unblockable, fist.hits,
        fist.facing_restrict, fist.layer, fist.mask, fist.grab_offset })
    local palm = puncher:hitbox("punch", 5, "palm")
    assert.are.same({ 0.5, 9, 7, true, "air", "front", 2, 2, { 5, 5 } },
      { palm.chip, palm.blockstun, palm.shield_damage, palm.unblockable, palm.hits,
        palm.facing_restrict, palm.layer, palm.mask, palm.grab_offset })
  end)

  it("is blocked by a guard with no chip damage and the automatic blockstun", function()
    local arena = cleave.arena {}
    local me = arena:spawn { x = 0, hurtboxes = {}, team = 1, name = "puncher" }
    local foe = arena:spawn { x = 30, radius = 8, team = 2, name = "foe", state = "guard",
                              facing = 180 }
    arena:attack { weapon = puncher, attack = "punch", owner = me }
    arena:step(5)
    local h = hit_on(arena, foe)
    assert.is_true(h ~= nil and h.blocked)
    assert.are.equal(0, h.damage)
    assert.are.equal(10, h.hitstun) -- floor(2 + 0.8 * 10)
    assert.are.equal(100, foe:hp())
  end)
end)
