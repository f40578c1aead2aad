-- greatsword: one slow overhead cleave. Its 18 damage is within the arena's clank range (9) of
-- the sword's tip (10 to 14), so the two clank and both rebound; the plank's 6 is further than
-- that below it, so the greatsword outprioritizes the plank and goes on.
local REACH = 70

local greatsword = cleave.weapon {
  name = "greatsword",
  defaults = { group = 0, knockback = { angle = -20, base = 3, growth = 0.2 } },
  attacks = {
    cleave = {
      length = 22,
      rebound = 16, -- a heavy blade stopped by another takes long to recover
      hitboxes = {
        cleave.arc { id = "blade", frames = { 6, 11 }, from = -110, to = 50, inner = 10,
                     outer = REACH, radius = 5, damage = 18, ease = "in_out" },
      },
    },
  },
}

return {
  name = "greatsword",
  version = "1.0.0",
  weapons = { greatsword = greatsword },
}
