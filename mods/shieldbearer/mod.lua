-- shieldbearer: a body that guards and a sword that wears guards down. The body's guard holds
-- 60 points and regains 0.2 a frame while it is not guarding; a guard emptied by a blocked hit
-- breaks and stuns for 90 frames. The sword's chop deals a tenth of its damage through a
-- guard (chip) and takes 8 more points of guard meter (shield damage) than its damage.
local shieldbearer = cleave.body {
  name = "shieldbearer",
  guard = { meter = 60, regen = 0.2, guard_break = 90 },
  animations = {
    stand = {
      length = 1,
      loop = true,
      hurtboxes = {
        { id = "torso", ax = 0, ay = -14, bx = 0, by = 14, radius = 9 },
        { id = "shield", ax = 12, ay = -12, bx = 12, by = 12, radius = 4 },
      },
    },
  },
}

local sword = cleave.weapon {
  name = "sword",
  defaults = { group = 0, chip = 0.1, shield_damage = 8, blockstun = "auto",
               knockback = { angle = -10, base = 2, growth = 0.1 } },
  attacks = {
    chop = {
      length = 14,
      hitboxes = {
        cleave.arc { id = "blade", frames = { 4, 7 }, from = -70, to = 30, inner = 8, outer = 46,
                     radius = 4, damage = 12, ease = "out" },
      },
    },
  },
}

return {
  name = "shieldbearer",
  version = "1.0.0",
  weapons = { sword = sword },
  bodies = { shieldbearer = shieldbearer },
}
