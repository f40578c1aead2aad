-- knife: a thrown knife (the weapon of tests/lua/meet_spec.lua as a mod, so that both bindings
-- load it): one small circle on every frame of its flight.
return {
  name = "knife",
  version = "1.0.0",
  weapons = { knife = cleave.weapon {
    name = "knife",
    attacks = { fly = { length = 60, hitboxes = {
      { id = "edge", frames = { 1, 60 }, x = 0, y = 0, radius = 1, damage = 6, hitlag = 0,
        hitstun = 0 },
    } } },
  } },
}
