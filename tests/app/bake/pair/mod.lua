-- pair: a mod of two weapons, a thrown stone and a paddle that bats stones back, each baked on
-- its own into the one frames folder of the round trip's copy.
local stone = cleave.weapon {
  name = "stone",
  attacks = {
    fly = {
      length = 30,
      hitboxes = { cleave.hitbox { id = "stone", frames = { 1, 30 }, x = 0, y = 0, radius = 3,
        damage = 5, hitlag = 0 } },
    },
  },
}

local paddle = cleave.weapon {
  name = "paddle",
  attacks = {
    bat = {
      length = 10,
      hitboxes = { cleave.hitbox { id = "face", frames = { 2, 8 }, ax = 12, ay = -12, bx = 12,
        by = 12, radius = 3, kind = "reflect", reflect_speed = 2, damage = 0, hitlag = 0 } },
    },
  },
}

return { name = "pair", version = "1.0.0", weapons = { stone = stone, paddle = paddle } }
