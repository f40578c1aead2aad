-- stick: the weapon of tests/lua/arena_spec.lua as a mod, so that both bindings load it.
return {
  name = "stick",
  version = "1.0.0",
  weapons = { stick = cleave.weapon {
    name = "stick",
    attacks = { swing = { length = 6, hitboxes = {
      { id = "tip", frames = { 2, 4 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4, damage = 10,
        hitlag = 0 },
    } } },
  } },
}
