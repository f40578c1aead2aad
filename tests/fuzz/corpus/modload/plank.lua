-- plank: the source article's 2x4. One capsule per frame, listed frame by frame, the way the
-- article draws a swing: a board held at one end, turning from overhead to the ground.
local hitbox = cleave.hitbox

-- Board: 60 units long, 2 thick (radius 2) held 6 units from the hand.
local function board(angle)
  local a = math.rad(angle)
  local c, s = math.cos(a), math.sin(a)
  return hitbox { id = "board", ax = 6 * c, ay = 6 * s, bx = 66 * c, by = 66 * s, radius = 2 }
end

local plank = cleave.weapon {
  name = "plank",
  defaults = { damage = 6, knockback = { angle = -30, base = 2, growth = 0.1 } },
  attacks = {
    swing = {
      length = 12,
      frames = {
        [4] = { board(-90) },
        [5] = { board(-60) },
        [6] = { board(-30) },
        [7] = { board(0) },
        [8] = { board(30) },
        [9] = { board(60) },
      },
    },
  },
}

return {
  name = "plank",
  version = "1.0.0",
  weapons = { plank = plank },
}
