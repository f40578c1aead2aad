-- knives: a thrown knife. Its attack is the knife in flight, one small capsule along the blade
-- on every frame (it loops while it flies); the thrower spawns it with arena:spawn_projectile
-- and its velocity, pierce 1 (it stops in the first target) and reflectable (a bat sends it
-- back). In hand the same attack is a short stab.
local knives = cleave.weapon {
  name = "knives",
  attacks = {
    fly = {
      length = 4,
      hitboxes = {
        { id = "edge", frames = { 1, 4 }, ax = -4, ay = 0, bx = 4, by = 0, radius = 1.5,
          damage = 5, hitlag = 2, hitstun = 6, knockback = { angle = 0, base = 1, growth = 0 } },
      },
    },
  },
}

return {
  name = "knives",
  version = "1.0.0",
  weapons = { knives = knives },
  description = "thrown: spawn_projectile { attack = 'fly', pierce = 1, loop = true }",
}
