-- bat: a level swing whose barrel reflects thrown things. A reflectable projectile of the other
-- side that meets the barrel is sent along the batter's facing (not mirrored about the contact
-- normal: a knife meeting the barrel's side would only glance off), half again as fast and
-- twice as strong, and is the batter's from then on.
local bat = cleave.weapon {
  name = "bat",
  -- the reflection is the weapon's: every hitbox of the bat reflects
  defaults = { group = 0, knockback = { angle = -15, base = 2, growth = 0.1 }, kind = "reflect",
               reflect_speed = 1.5, reflect_damage = 2, reflect_along = "facing" },
  attacks = {
    swing = {
      length = 16,
      hitboxes = {
        cleave.arc { id = "barrel", frames = { 4, 9 }, from = -80, to = 80, inner = 6,
                     outer = 44, radius = 4, damage = 4 },
      },
    },
  },
}

return {
  name = "bat",
  version = "1.0.0",
  weapons = { bat = bat },
}
