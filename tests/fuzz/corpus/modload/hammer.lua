-- hammer: slow and heavy. A long wind-up, one wide head that lands late, a big scaling
-- knockback and a long hitlag. It damages one target per frame (max_hits = 1) but, with
-- knockback_ignores_hit_count, pushes everything the head touches.
local head = cleave.hitbox {
  id = "head", frames = { 18, 21 }, x = 50, y = 10, radius = 16,
  damage = 20, max_hits = 1, knockback_ignores_hit_count = true,
  knockback = { kind = "scaling", angle = -35, base = 6, growth = 0.4 },
  hitlag = 14, hitstun = 30,
}

local hammer = cleave.weapon {
  name = "hammer",
  attacks = {
    smash = {
      length = 40,
      hitboxes = {
        cleave.hitbox { id = "haft", frames = { 18, 21 }, ax = 0, ay = 0, bx = 40, by = 8,
                        radius = 4, damage = 4, group = 1 },
        head,
      },
    },
  },
}

return {
  name = "hammer",
  version = "1.0.0",
  weapons = { hammer = hammer },
}
