-- dodger: a roll with intangible frames in its body. Standing, the dodger is a torso and a
-- head; rolling (18 frames) it tucks into one ball, and on frames 4-12 that ball is
-- intangible: hits pass through and stay available. Its dagger stabs quick and short.
local dodger = cleave.body {
  name = "dodger",
  animations = {
    stand = {
      length = 1,
      loop = true,
      hurtboxes = {
        { id = "torso", ax = 0, ay = -10, bx = 0, by = 12, radius = 8 },
        { id = "head", x = 0, y = -22, radius = 6 },
      },
    },
    roll = {
      length = 18,
      hurtboxes = {
        { id = "ball", frames = { 1, 3 }, x = 0, y = 4, radius = 10 },
        { id = "ball", frames = { 4, 12 }, x = 0, y = 4, radius = 10, state = "intangible" },
        { id = "ball", frames = { 13, 18 }, x = 0, y = 4, radius = 10 },
      },
    },
  },
}

local dagger = cleave.weapon {
  name = "dagger",
  attacks = {
    stab = {
      length = 10,
      hitboxes = {
        cleave.thrust { id = "point", frames = { 3, 5 }, from = 18, to = 34, reach = 14,
                        radius = 3, damage = 6,
                        knockback = { angle = 0, base = 1.5, growth = 0.1 } },
      },
    },
  },
}

return {
  name = "dodger",
  version = "1.0.0",
  weapons = { dagger = dagger },
  bodies = { dodger = dodger },
}
