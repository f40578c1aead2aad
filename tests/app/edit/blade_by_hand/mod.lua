-- The edited blade written by hand: the board's tip moved to (35, -5) on frame 4, and the board
-- held two frames longer; the arm it carries is kept. Its hit log must equal the edited mod's.
local function board(bx, by)
  return cleave.hitbox { id = "board", ax = 6, ay = 0, bx = bx, by = by, radius = 2 }
end

return {
  name = "blade", version = "1.0.0",
  weapons = { blade = cleave.weapon {
    name = "blade",
    defaults = { damage = 6, knockback = { angle = -30, base = 2, growth = 0.1 } },
    attacks = { swing = { length = 12, frames = {
      [4] = { board(35, -5) }, [5] = { board(30, 0) }, [6] = { board(30, 0) },
      [7] = { board(30, 0) }, [8] = { board(30, 0) },
    }, hurtboxes = {
      { id = "arm", frames = { 3, 7 }, ax = 0, ay = 0, bx = 6, by = 0, radius = 3 },
    } } },
  } },
}
