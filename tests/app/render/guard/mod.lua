-- A block whose guard outlasts its blade: frame 1 lists blade then guard, frame 2 the guard
-- alone (first in its list). `cleave render` must draw the guard in the one colour its legend
-- shows on both frames (tests/app/render_legend.sh).
local guard = cleave.weapon {
  name = "guard",
  attacks = {
    block = {
      length = 3,
      frames = {
        [1] = {
          cleave.hitbox { id = "blade", ax = 0, ay = -20, bx = 0, by = -40, radius = 3 },
          cleave.hitbox { id = "guard", ax = 10, ay = -10, bx = 10, by = 10, radius = 3 },
        },
        [2] = {
          cleave.hitbox { id = "guard", ax = 10, ay = -10, bx = 10, by = 10, radius = 3 },
        },
      },
    },
  },
}

return { name = "guard", version = "1.0.0", weapons = { guard = guard } }
