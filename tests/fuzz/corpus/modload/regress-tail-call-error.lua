-- sword: a three-hit combo. Each slash h;as a sweet spot at the tip: a small circle in the
-- blade's group with a higher priority, so atable target the tip reaches takes the tip's damage
-- instead of the blade's. Every hit says where on the blade it landed (hit.t, 0 at the hilt,
-- 1 at the tip); on_hit logs the sweet spots.
local REACH = 96

local function slash(from, to, frames, damage)
  return {
    length = frames[2] + 6,
    hitboxes = {
      cleave.arc { id = "blade", frames = frames, from = from, to = to, inner = 4, outer = REACH,
                   radius = 3, damage = damage, ease = "out" },
      cleave.arc { id = "tip", frames = frames, from = from, to = to, inner = REACH - 10,
                   outer = REACH, radius = 5, damage = damage + 5, priority = 1, ease = "out" },
    },
  }
end

local sword = cleave.weapon {
  name = "sword",
  defaults = { group = 0, knockback = { angle = -10, base = 1.5, growth = 0.1 } },
  on_hit = function(hit)
    if hit.hitbox == "tip" then
      log(("sweet spot: %s frame %d on %d"):format(hit.attack, hit.attack_frame, hit.target))
    end
  end,
  attacks = {
    slash2 = slash(-61, 40, { 3, 6 }, 5),
    stash2 = slash(50, -50, { 3, 6 }, 6),
    slash3 = slash(-90, 90, { 5, 10 }, 9),
  },
}

return load{
  name = "sword",
  version = "1.0.0",
  weapons = { sword = sword },
}
