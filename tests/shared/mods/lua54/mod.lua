-- lua54: a weapon whose numbers need Lua 5.4 (integer division and math.type), which LuaJIT
-- lacks: loaded from LuaJIT, its damage and its on_hit's report show that Lua 5.4 ran them.
local halves = 7 // 2                                 -- 3; a syntax error in LuaJIT
local bonus = math.type(halves) == "integer" and 1 or 100

return {
  name = "lua54",
  version = "1.0.0",
  weapons = { rod = cleave.weapon {
    name = "rod",
    -- the one channel from a callback back to the host is its error, in arena:errors()
    on_hit = function(hit)
      error(("on_hit: %s %d"):format(math.type(hit.attack_frame // 1), 9 // 2), 0)
    end,
    attacks = { poke = { length = 4, hitboxes = {
      { id = "end", frames = { 1, 2 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4,
        damage = halves + bonus, hitlag = 0 },
    } } },
  } },
}
