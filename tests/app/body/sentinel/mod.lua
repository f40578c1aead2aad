-- A body with a hurtbox in each state, for `cleave render --body` (tests/app/body_sheet.sh):
-- standing, a normal torso and an armored shield; spinning, invincible on frames 1-2 and
-- intangible on frames 3-4.
local sentinel = cleave.body {
  name = "sentinel",
  animations = {
    stand = {
      length = 1,
      loop = true,
      hurtboxes = {
        { id = "torso", ax = 0, ay = -12, bx = 0, by = 12, radius = 9 },
        { id = "shield", ax = 14, ay = -12, bx = 14, by = 12, radius = 4, state = "armor",
          heavy = 2 },
      },
    },
    spin = {
      length = 4,
      hurtboxes = {
        { id = "ball", frames = { 1, 2 }, x = 0, y = 0, radius = 12, state = "invincible" },
        { id = "ball", frames = { 3, 4 }, x = 0, y = 0, radius = 12, state = "intangible" },
      },
    },
  },
}

local stick = cleave.weapon {
  name = "stick",
  attacks = { poke = { length = 6, frames = { [2] = { cleave.hitbox { id = "tip", x = 20, y = 0,
                                                                       radius = 3 } } } } },
}

return { name = "sentinel", version = "1.0.0", weapons = { stick = stick },
         bodies = { sentinel = sentinel } }
