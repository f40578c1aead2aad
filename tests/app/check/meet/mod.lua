-- A weapon whose hitboxes set every field of attacks that meet away from its default, so that
-- `cleave check` shows each one as the mod spells it (tests/app/check_formats.sh). The ghost
-- sets its blockstun (20 frames); the sponge leaves it to the arena (floor(2 + 0.8 * 2) = 3).
local meet = cleave.weapon {
  name = "meet",
  attacks = {
    poke = {
      length = 10,
      rebound = 8,
      frames = {
        [3] = {
          cleave.hitbox { id = "ghost", ax = 0, ay = 0, bx = 30, by = 0, radius = 3, damage = 7,
                          clash = "transcend", parry_stun = 30, blockstun = 20 },
          cleave.hitbox { id = "sponge", ax = 0, ay = 6, bx = 20, by = 6, radius = 4, damage = 2,
                          clash = "trade", kind = "absorb", parry_stun = 0 },
        },
      },
    },
  },
}

return { name = "meet", version = "1.0.0", weapons = { meet = meet } }
