-- bat: a barrel that reflects projectiles, faster and stronger. Its on_reflect reports what it
-- turned back through its error, the one channel from a mod's callback back to the host.
return {
  name = "bat",
  version = "1.0.0",
  weapons = { bat = cleave.weapon {
    name = "bat",
    on_reflect = function(e)
      error(("bat reflected %s to vx %g, by entity %d"):format(e.weapon, e.vx, e.by), 0)
    end,
    attacks = { swing = { length = 10, hitboxes = {
      { id = "barrel", frames = { 1, 10 }, ax = 20, ay = -10, bx = 20, by = 10, radius = 2,
        damage = 2, kind = "reflect", reflect_speed = 1.5, reflect_damage = 2 },
    } } },
  } },
}
