-- scythe: a long handle with a curved blade at its end, both in one group: a target touched
-- by both is hit once, by the blade (listed first, so it takes precedence). The blade bleeds.
local hitbox = cleave.hitbox

-- One frame of the swing: the handle turned by `angle` degrees, the blade hooked across its end.
local function pose(angle)
  local a = math.rad(angle)
  local c, s = math.cos(a), math.sin(a)
  local hx, hy = 70 * c, 70 * s -- the end of the handle
  local bx, by = hx - 24 * s, hy + 24 * c -- the blade turns 90 degrees at the end
  return {
    hitbox { id = "blade", ax = hx, ay = hy, bx = bx, by = by, radius = 5, damage = 12, effects = { "bleed" } },
    hitbox { id = "handle", ax = 0, ay = 0, bx = hx, by = hy, radius = 3, damage = 3 },
  }
end

local bleed = cleave.effect {
  duration = 60, period = 20, magnitude = 2, damages = true,
  on_tick = function(tick)
    log(("bleed tick on %d: %s hp"):format(tick.target, tick.damage))
  end,
}

local scythe = cleave.weapon {
  name = "scythe",
  effects = { bleed = bleed },
  defaults = { group = 0, knockback = { angle = 20, base = 1, growth = 0.05 } },
  on_hit = function(hit)
    log(("%s hit %d with the %s"):format(hit.attack, hit.target, hit.hitbox))
  end,
  attacks = {
    swing = {
      length = 18,
      frames = {
        [6] = pose(-100), [7] = pose(-70), [8] = pose(-40),
        [9] = pose(-10), [10] = pose(20), [11] = pose(50),
      },
    },
  },
}

return {
  name = "scythe",
  version = "1.0.0",
  weapons = { scythe = scythe },
  effects = { bleed = bleed },
}
