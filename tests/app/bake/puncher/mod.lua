-- puncher: a fixture for the bake round trip (tests/app/bake_roundtrip.sh). Its punch carries
-- an arm and, on two frames, an elbow of heavy armor; its weapon's defaults change every
-- defence field, and the fist sets each back to the global default, so a baked copy must
-- write them all to mean the same.
local puncher = cleave.weapon {
  name = "puncher",
  defaults = {
    chip = 0.5, blockstun = 9, shield_damage = 7, unblockable = true, hits = "air",
    facing_restrict = "front", layer = 2, mask = 2, grab_offset = { 5, 5 },
  },
  attacks = {
    punch = {
      length = 10,
      hitboxes = {
        cleave.hitbox { id = "fist", frames = { 5, 6 }, x = 26, y = 0, radius = 5, damage = 10,
                        hitlag = 0, chip = 0, blockstun = "auto", shield_damage = 0,
                        unblockable = false, hits = "auto", facing_restrict = "any", layer = 1,
                        mask = 65535, grab_offset = { 24, 0 } },
        -- far out, so it meets nothing: it keeps the weapon's defaults
        cleave.hitbox { id = "palm", frames = 5, x = 300, y = 0, radius = 1, damage = 1 },
      },
      hurtboxes = {
        { id = "arm", frames = { 3, 8 }, ax = 0, ay = 0, bx = 22, by = 0, radius = 4 },
        { id = "elbow", frames = { 4, 5 }, x = 10, y = 0, radius = 3, heavy = 2 },
      },
    },
  },
}

return {
  name = "puncher",
  version = "1.0.0",
  weapons = { puncher = puncher },
}
