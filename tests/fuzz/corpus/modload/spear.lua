-- spear: a thrust that pierces. The shaft's tip travels straight out and back; max_hits = 3
-- lets one thrust damage the three nearest targets in its path on the same frame, and no more.
local spear = cleave.weapon {
  name = "spear",
  attacks = {
    thrust = {
      length = 16,
      hitboxes = {
        cleave.thrust { id = "shaft", frames = { 4, 8 }, from = 30, to = 110, reach = 70,
                        radius = 3, ease = "out", damage = 9, max_hits = 3,
                        knockback = { kind = "fixed", x = 4, y = 0 } },
        cleave.thrust { id = "shaft", frames = { 9, 11 }, from = 110, to = 40, reach = 70,
                        radius = 3, damage = 2, max_hits = 3 },
      },
    },
  },
}

return {
  name = "spear",
  version = "1.0.0",
  weapons = { spear = spear },
}
