-- A blade of damage 10 whose on_clash reports its side and the other weapon through its error,
-- the one channel from a mod's callback back to the host (a C host keeps the first error of
-- each mod and frame, so each blade is a mod of its own).
return {
  name = "clank_light",
  version = "1.0.0",
  weapons = { light = cleave.weapon {
    name = "light",
    on_clash = function(c)
      error(("light %s side %d vs %s"):format(c.kind, c.side, c.sides[3 - c.side].weapon), 0)
    end,
    attacks = { swing = { length = 10, hitboxes = {
      { id = "blade", frames = 1, ax = 10, ay = 0, bx = 40, by = 0, radius = 3, damage = 10,
        hitlag = 0, hitstun = 0 },
    } } },
  } },
}
