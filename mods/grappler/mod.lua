-- grappler: a grab and a throw. The grab's hand reaches 30 units ahead on frames 5-7; it beats
-- a guard, misses targets in the air and those intangible, and loses to a strike that lands
-- on the grappler on the same frame. A caught target is held 22 units ahead until the throw:
-- an attack started with arena:throw, which hits the held target only and launches it the way
-- platform fighters do (smash knockback: base 40, growth 90, up and away at 45 degrees).
local grappler = cleave.weapon {
  name = "grappler",
  attacks = {
    grab = {
      length = 20,
      max_targets = 1, -- a hand holds one target: later frames of the grab catch no other
      hitboxes = {
        cleave.hitbox { id = "hand", frames = { 5, 7 }, x = 30, y = 0, radius = 7, damage = 0,
                        kind = "grab", grab_offset = { 22, 0 } },
      },
    },
    throw = {
      length = 12,
      hitboxes = {
        cleave.hitbox { id = "heave", frames = { 2, 3 }, x = 22, y = 0, radius = 14, damage = 9,
                        hitstun = "auto", facing_restrict = "away",
                        knockback = { kind = "smash", base = 40, growth = 90, angle = -45 } },
      },
    },
  },
}

return {
  name = "grappler",
  version = "1.0.0",
  weapons = { grappler = grappler },
}
