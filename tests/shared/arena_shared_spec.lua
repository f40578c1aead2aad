-- The API both bindings share, run by lua5.4 with the C module and by LuaJIT with cleave.ffi
-- (tests/shared/run.lua): the cases of tests/lua/query_spec.lua and arena_spec.lua where the
-- two overlap, with weapons from mods since cleave.ffi builds weapons only by loading mods.
-- `cleave`, `result` and SOURCE_DIR come from the runner; each `result` line must be the same
-- in both runs.
local near = assert.near

local function mod(name)
  return cleave.load_mod(SOURCE_DIR .. "/tests/shared/mods/" .. name)
end

describe("cleave.overlaps", function()
  it("follows the open-set rule: touching is not overlap", function()
    assert.is_true(cleave.overlaps(cleave.capsule(-100, -100, 100, 100, 1),
      cleave.capsule(-100, 100, 100, -100, 1)))
    assert.is_true(cleave.overlaps(cleave.circle(0, 0, 1), cleave.circle(1.5, 0, 1)))
    assert.is_false(cleave.overlaps(cleave.circle(0, 0, 1), cleave.circle(2, 0, 1)))
    assert.is_true(cleave.overlaps(cleave.aabb(0, 0, 10, 10), cleave.point(5, 5)))
    assert.is_false(cleave.overlaps(cleave.aabb(0, 0, 10, 10), cleave.point(10, 5)))
    assert.is_false(cleave.overlaps(cleave.aabb(0, 0, 10, 10), cleave.aabb(10, 0, 20, 10)))
    assert.is_false(cleave.overlaps(cleave.point(1, 1), cleave.point(1, 1)))
  end)

  it("handles every kind, in both orders", function()
    local shapes = {
      cleave.point(1, 0.5), cleave.circle(0, 0, 2), cleave.capsule(-3, 0, 3, 0, 1),
      cleave.aabb(-1, -1, 2, 2), cleave.obb(0, 0, 3, 1, 45),
    }
    local far = {
      cleave.point(50, 50), cleave.circle(50, 50, 2), cleave.capsule(50, 50, 60, 50, 1),
      cleave.aabb(50, 50, 60, 60), cleave.obb(50, 50, 3, 1, 45),
    }
    for i, a in ipairs(shapes) do
      for j, b in ipairs(shapes) do
        if not (a:kind() == "point" and b:kind() == "point") then
          assert.is_true(cleave.overlaps(a, b), tostring(a) .. " vs " .. tostring(b))
        end
        assert.is_false(cleave.overlaps(a, far[j]), tostring(a) .. " vs " .. tostring(far[j]))
        assert.are.equal(cleave.overlaps(a, b), cleave.overlaps(b, a))
      end
      assert.is_false(cleave.overlaps(far[i], a))
    end
  end)

  it("turns an obb in degrees, +x toward +y", function()
    local box = cleave.obb(0, 0, 10, 1, 90)
    assert.is_true(cleave.overlaps(box, cleave.point(0, 5)))
    assert.is_false(cleave.overlaps(box, cleave.point(5, 0)))
  end)

  it("is also a method", function()
    assert.is_true(cleave.circle(0, 0, 1):overlaps(cleave.point(0.5, 0)))
  end)

  it("raises on anything but two shapes", function()
    local p = cleave.point(0, 0)
    assert.has_error(function() cleave.overlaps(p) end,
      "bad argument #2 to 'overlaps' (cleave.Shape expected, got no value)")
    assert.has_error(function() cleave.overlaps({}, p) end,
      "bad argument #1 to 'overlaps' (cleave.Shape expected, got table)")
    assert.has_error(function() cleave.overlaps(p, p, p) end,
      "bad argument #3 to 'overlaps' (no value expected, got cleave.Shape)")
    assert.has_error(function() p:overlaps(5) end,
      "bad argument #1 to 'overlaps' (cleave.Shape expected, got number)")
  end)
end)

describe("shapes", function()
  it("check their numbers with the module's messages", function()
    assert.has_error(function() cleave.circle(0, 0, -1) end,
      "bad argument #3 to 'circle' (radius must be >= 0, got -1)")
    assert.has_error(function() cleave.aabb(10, 0, 5, 1) end,
      "bad argument #3 to 'aabb' (max_x must be >= min_x (10), got 5)")
    assert.has_error(function() cleave.obb(0, 0, -2, 1, 0) end,
      "bad argument #3 to 'obb' (half_w must be >= 0, got -2)")
    assert.has_error(function() cleave.point(0 / 0, 0) end,
      "bad argument #1 to 'point' (x must not be nan)")
    assert.has_error(function() cleave.point(1e39, 0) end,
      "bad argument #1 to 'point' (x must fit in a float, got 1e+39)")
    assert.has_error(function() cleave.capsule(0, 0, 1, 1) end,
      "bad argument #5 to 'capsule' (number expected, got no value)")
    assert.has_error(function() cleave.point(0, 0, 0) end,
      "bad argument #3 to 'point' (no value expected, got number)")
  end)

  it("raise their errors at the calling line", function()
    local ok, e = pcall(function() cleave.circle(0, 0, -1) end)
    assert.is_false(ok)
    assert.matches("^[^:]*arena_shared_spec%.lua:%d+: bad argument #3 to 'circle'", e)
    ok, e = pcall(cleave.circle, 0, 0, -1)
    assert.are.equal("bad argument #3 to 'cleave.circle' (radius must be >= 0, got -1)", e)
  end)

  it("give back their numbers, kind and bounds", function()
    local s = cleave.capsule(-100, -100, 100, 100, 1)
    assert.are.equal("capsule", s:kind())
    assert.are.same({ -100, -100, 100, 100, 1 }, { s:unpack() })
    assert.are.same({ -101, -101, 101, 101 }, { s:bounds() })
    assert.are.equal("capsule(-100, -100, 100, 100, r=1)", tostring(s))
    assert.is_true(s == cleave.capsule(-100, -100, 100, 100, 1))
    assert.is_true(cleave.is_shape(s))
    assert.is_false(cleave.is_shape({}))
  end)
end)

describe("cleave.distance", function()
  it("is the gap between the surfaces, 0 when overlapping or touching", function()
    assert.are.equal(3, cleave.distance(cleave.circle(0, 0, 1), cleave.circle(5, 0, 1)))
    assert.are.equal(5, cleave.distance(cleave.aabb(0, 0, 2, 2), cleave.point(5, 6)))
    assert.are.equal(0, cleave.distance(cleave.circle(0, 0, 1), cleave.circle(2, 0, 1)))
    near(4, cleave.distance(cleave.capsule(0, 0, 10, 0, 1), cleave.point(4, 5)))
  end)

  it("raises on anything but two shapes", function()
    assert.has_error(function() cleave.distance(cleave.point(0, 0), "x") end,
      "bad argument #2 to 'distance' (cleave.Shape expected, got string)")
  end)
end)

describe("cleave.contact", function()
  it("returns the unit normal that pushes b out of a, and the depth", function()
    local nx, ny, depth = cleave.contact(cleave.circle(0, 0, 2), cleave.circle(3, 0, 2))
    near(1, nx)
    near(0, ny)
    near(1, depth)
    nx, ny, depth = cleave.contact(cleave.aabb(0, 0, 10, 10), cleave.circle(5, 11, 2))
    near(0, nx)
    near(1, ny)
    near(1, depth)
  end)

  it("gives the true minimum translation when two capsule cores cross", function()
    local nx, ny, depth = cleave.contact(cleave.capsule(-10, 0, 10, 0, 1),
      cleave.capsule(2, -1, 2, 10, 1))
    near(0, nx)
    near(1, ny)
    near(3, depth)
  end)

  it("returns a single nil when the shapes do not overlap", function()
    assert.are.equal(1, select("#", cleave.contact(cleave.circle(0, 0, 1),
      cleave.circle(2, 0, 1))))
  end)
end)

describe("cleave.closest", function()
  it("returns distance, both points and where on each capsule", function()
    local d, ax, ay, bx, by, ta, tb = cleave.closest(cleave.capsule(0, 0, 10, 0, 1),
      cleave.point(4, 5))
    near(4, d)
    near(4, ax)
    near(1, ay)
    near(4, bx)
    near(5, by)
    near(0.4, ta)
    assert.are.equal(0, tb)
  end)
end)

describe("cleave.raycast", function()
  it("returns the first hit: t in units of the direction, and the outward normal", function()
    local t, nx, ny = cleave.raycast(cleave.circle(10, 0, 2), 0, 0, 1, 0, 100)
    near(8, t)
    near(-1, nx)
    near(0, ny)
    t = cleave.raycast(cleave.aabb(5, -1, 6, 1), 0, 0, 2, 0, 1e9)
    near(2.5, t)
    near(8, (cleave.circle(10, 0, 2):raycast(0, 0, 1, 0, 100)))
  end)

  it("returns a single nil on a miss or beyond max_t", function()
    assert.are.equal(1, select("#", cleave.raycast(cleave.circle(10, 0, 2), 0, 0, 0, 1, 100)))
    assert.is_nil(cleave.raycast(cleave.circle(10, 0, 2), 0, 0, 1, 0, 5))
  end)

  it("checks its numbers", function()
    local s = cleave.circle(0, 0, 1)
    assert.has_error(function() cleave.raycast(s, 0, 0, 1, 0, -1) end,
      "bad argument #6 to 'raycast' (max_t must be >= 0, got -1)")
    assert.has_error(function() cleave.raycast(s, 0, 0, 0 / 0, 0, 1) end,
      "bad argument #4 to 'raycast' (dx must not be nan)")
    assert.has_error(function() cleave.raycast(s, 0, math.huge, 1, 0, 1) end,
      "bad argument #3 to 'raycast' (oy must be finite, got inf)")
    assert.has_error(function() cleave.raycast(s, 0, 0, 1, 0) end,
      "bad argument #6 to 'raycast' (number expected, got no value)")
    assert.has_error(function() cleave.raycast(0, 0, 0, 1, 0, 1) end,
      "bad argument #1 to 'raycast' (cleave.Shape expected, got number)")
    assert.has_error(function() cleave.raycast(s, 0, 0, 1, 0, 1, 1) end,
      "bad argument #7 to 'raycast' (no value expected, got number)")
    assert.has_error(function() s:raycast(0, 0, 1, 0, -2.5) end,
      "bad argument #5 to 'raycast' (max_t must be >= 0, got -2.5)")
  end)
end)

describe("cleave.sweep", function()
  it("returns the first time in [0, 1] at which the moving shape meets the target", function()
    near(0.4, cleave.sweep(cleave.circle(0, 0, 1), 10, 0, cleave.circle(6, 0, 1)))
    near(0.25, cleave.sweep(cleave.point(0, 5), 0, -8, cleave.aabb(-1, -1, 1, 3)))
    assert.are.equal(0, cleave.sweep(cleave.circle(0, 0, 1), 10, 0, cleave.circle(1, 0, 1)))
    assert.is_nil(cleave.sweep(cleave.circle(0, 0, 1), 3, 0, cleave.circle(6, 0, 1)))
  end)

  it("checks its arguments", function()
    local s = cleave.circle(0, 0, 1)
    assert.has_error(function() cleave.sweep(s, 0, -math.huge, s) end,
      "bad argument #3 to 'sweep' (dy must be finite, got -inf)")
    assert.has_error(function() cleave.sweep(s, 1, 0) end,
      "bad argument #4 to 'sweep' (cleave.Shape expected, got no value)")
    assert.has_error(function() s:sweep("1", 0, s) end,
      "bad argument #1 to 'sweep' (number expected, got string)")
  end)
end)

describe("cleave.exact.overlaps", function()
  it("decides with integers, touching included", function()
    assert.is_false(cleave.exact.overlaps(cleave.circle(0, 0, 2), cleave.circle(3, 4, 3)))
    assert.is_true(cleave.exact.overlaps(cleave.circle(0, 0, 2), cleave.circle(3, 4, 4)))
    assert.is_true(cleave.exact.overlaps(cleave.capsule(-100, -100, 100, 100, 1),
      cleave.capsule(-100, 100, 100, -100, 1)))
  end)

  it("refuses what it cannot decide exactly", function()
    assert.has_error(function()
      cleave.exact.overlaps(cleave.obb(0, 0, 1, 1, 0), cleave.point(0, 0))
    end, "bad argument #1 to 'overlaps' (exact mode: obb is not supported)")
    assert.has_error(function()
      cleave.exact.overlaps(cleave.point(0, 0), cleave.circle(0.5, 0, 1))
    end, "bad argument #2 to 'overlaps' (exact mode: x must be an integer, got 0.5)")
  end)
end)

-- The scene of arena_spec.lua: a player, a target within reach, one out of it.
local function scene()
  local a = cleave.arena { miss_margin = 50 }
  local p = a:spawn { x = 0, y = 0, team = 1, name = "player" }
  local n = a:spawn { x = 25, y = 0, team = 2, name = "near", radius = 6 }
  local f = a:spawn { x = 70, y = 0, team = 2, name = "far", radius = 6 }
  a:attack { weapon = mod("stick").weapons.stick, attack = "swing", owner = p }
  return a, p, n, f
end

describe("cleave.arena", function()
  it("steps frames and reports hits with names and 1-based frames", function()
    local a, _, n = scene()
    assert.are.equal(1, a:step(6))
    local hits = a:hits()
    assert.are.equal(1, #hits)
    local h = hits[1]
    assert.are.same({ 2, 2, "tip", "swing", "stick", "near", 10 },
      { h.frame, h.attack_frame, h.hitbox, h.attack, h.weapon, h.target_name, h.damage })
    assert.is_true(h.target == n)
    assert.is_true(h.sweep_t >= 0 and h.sweep_t <= 1)
    assert.are.equal(1, h.hurtbox_index) -- a spawned circle: first in the list, without an id
    assert.is_nil(h.hurtbox)
    a = cleave.arena {}
    local p = a:spawn { x = 0, y = 0, team = 1 }
    a:spawn { x = 25, y = 0, team = 2, hurtboxes = { cleave.circle(0, 60, 2), cleave.circle(0, 0, 6) } }
    a:attack { weapon = mod("stick").weapons.stick, attack = "swing", owner = p }
    a:step(6)
    assert.are.same({ 1, 2 }, { #a:hits(), a:hits()[1].hurtbox_index })
    assert.are.equal(90, n:hp())
    assert.are.equal(6, a:frame())
  end)

  it("reports misses with their reason as a string", function()
    local a = scene()
    a:step(3)
    local reasons = {}
    for _, m in ipairs(a:misses()) do reasons[m.target_name .. ":" .. m.reason] = true end
    assert.is_true(reasons["player:team"])
    assert.is_true(reasons["far:out_of_reach"])
    assert.is_true(reasons["near:rehit"])
  end)

  it("handles fail cleanly once the entity is gone", function()
    local _, _, n = scene()
    local id = n:id()
    n:remove()
    assert.is_false(n:valid())
    local ok, e = pcall(n.hp, n)
    assert.is_false(ok)
    assert.matches("entity " .. id .. " was removed$", e)
  end)

  it("restores a snapshot to the same hash and the same future", function()
    local a = scene()
    a:step(1)
    local s, h1 = a:snapshot(), a:hash()
    a:step(5)
    local h2 = a:hash()
    a:restore(s)
    assert.are.equal(h1, a:hash())
    a:step(5)
    assert.are.equal(h2, a:hash())
    assert.matches("^%x+$", h1)
    result("scene_hash_after_6", h2)
  end)

  it("runs on_hit callbacks after the frame, with the hit applied", function()
    local a = scene()
    local seen = {}
    a:on_hit(function(hit) seen[#seen + 1] = hit.target:hp() end)
    a:step(6)
    assert.are.same({ 90 }, seen)
  end)

  it("reports a failing callback with file and line", function()
    local errors = {}
    local a = cleave.arena { on_error = function(msg) errors[#errors + 1] = msg end }
    local p = a:spawn { x = 0, y = 0, team = 1 }
    a:spawn { x = 25, y = 0, team = 2, radius = 6 }
    a:on_hit(function() error("boom") end)
    local line = debug.getinfo(1, "l").currentline - 1
    a:attack { weapon = mod("stick").weapons.stick, attack = "swing", owner = p }
    a:step(6)
    assert.are.equal(1, #errors)
    assert.matches("arena_shared_spec%.lua:" .. line .. ": boom", errors[1])
    assert.matches("stack traceback:", errors[1])
  end)

  it("refuses to step from inside its own callbacks, and reports it", function()
    local a = scene()
    a:on_hit(function() a:step(1) end)
    a:step(6)
    assert.matches("step: the arena cannot step inside one of its callbacks", a:errors()[1])
    assert.are.equal(6, a:frame())
  end)

  it("checks its arguments", function()
    local a = cleave.arena {}
    local ok, e = pcall(a.spawn, a, { hp = 10, colour = "red" })
    assert.is_false(ok)
    assert.matches("spawn: unknown field 'colour'", e)
    ok, e = pcall(a.spawn, a, { radius = -1 })
    assert.are.equal("spawn: radius must be >= 0 (got -1)", e)
    ok, e = pcall(a.spawn, a, { state = "ghost" })
    assert.matches("^spawn: state must be one of 'normal', 'invincible', 'intangible'.- %(got 'ghost'%)$", e)
    ok, e = pcall(a.spawn, a, { hp = 10, radus = 3 })
    assert.are.equal("spawn: unknown field 'radus' (did you mean 'radius'?)", e)
    -- two swapped letters are one slip in both bindings
    ok, e = pcall(a.spawn, a, { ph = 10 })
    assert.are.equal("spawn: unknown field 'ph' (did you mean 'hp'?)", e)
    ok, e = pcall(a.spawn, a, { hurtboexs = {} })
    assert.are.equal("spawn: unknown field 'hurtboexs' (did you mean 'hurtboxes'?)", e)
    local p = a:spawn {}
    local stick = mod("stick").weapons.stick
    ok, e = pcall(a.attack, a, { weapon = stick, attack = "slash", owner = p })
    assert.are.equal("attack: weapon 'stick' has no attack 'slash'", e)
    ok, e = pcall(a.attack, a, { weapon = {}, attack = "swing", owner = p })
    assert.are.equal("attack: weapon must be a cleave.Weapon (got table)", e)
    -- called as a method, self is not counted; called through pcall, it is
    ok, e = pcall(function() a:step(-1) end)
    assert.matches("arena_shared_spec%.lua:%d+: bad argument #1 to 'step' %(frames must be an "
      .. "integer in 0%.%.1000000000, got %-1%)$", e)
    ok, e = pcall(a.step, a, 1.5)
    assert.are.equal("bad argument #2 to 'step' (frames must be an integer in 0..1000000000, got 1.5)", e)
    ok, e = pcall(cleave.arena, { sweep_tolerance = 0 })
    assert.are.equal("cleave.arena: sweep_tolerance must be > 0 (got 0)", e)
  end)

  it("closes with close()", function()
    local a = cleave.arena {}
    local p = a:spawn { name = "p" }
    a:close()
    assert.are.equal("cleave.Arena (closed)", tostring(a))
    assert.has_error(function() a:step() end, "arena is closed")
    assert.has_error(function() p:hp() end, "entity 1 belongs to a closed arena")
    a:close()
  end)
end)

describe("cleave.load_mod", function()
  it("names the file and line of a broken mod", function()
    local ok, e = pcall(cleave.load_mod, SOURCE_DIR .. "/tests/shared/mods/missing")
    assert.is_false(ok)
    assert.matches("missing/mod%.lua", e)
    assert.has_error(function() cleave.load_mod() end,
      "bad argument #1 to 'load_mod' (string expected, got no value)")
  end)

  it("runs a mod in Lua 5.4, its callbacks included, whoever loads it", function()
    local a = cleave.arena {}
    local p = a:spawn { team = 1 }
    local t = a:spawn { x = 20, team = 2, radius = 6 }
    local m = mod("lua54")
    assert.are.equal("lua54", m.name)
    a:attack { weapon = m.weapons.rod, attack = "poke", owner = p }
    a:step(4)
    -- damage 7 // 2 + 1, and on_hit's report: math.type of an integer division, 9 // 2
    assert.are.equal(96, t:hp())
    assert.matches("on_hit: integer 4", a:errors()[1])
    result("lua54_damage", 100 - t:hp())
  end)

  it("keeps every callback error of a mod in a frame", function()
    local a = cleave.arena {}
    local p = a:spawn { team = 1 }
    a:spawn { x = 20, y = -3, team = 2, radius = 6, name = "upper" }
    a:spawn { x = 20, y = 3, team = 2, radius = 6, name = "lower" }
    a:attack { weapon = mod("lua54").weapons.rod, attack = "poke", owner = p }
    assert.are.equal(2, a:step(1))
    local errors = a:errors()
    assert.are.equal(2, #errors)
    for i, e in ipairs(errors) do
      assert.matches("^on_hit: integer 4", e)
      result("rod_error_" .. i, e:match("^[^\n]*"))
    end
  end)

  it("tells each side of a clank through its on_clash, on a frame without a hit", function()
    local a = cleave.arena {}
    local p = a:spawn { x = 0, y = 0, team = 1 }
    local q = a:spawn { x = 45, y = 0, team = 2 }
    a:attack { weapon = mod("clank_light").weapons.light, attack = "swing", owner = p }
    a:attack { weapon = mod("clank_heavy").weapons.heavy, attack = "swing", owner = q, facing = 180 }
    assert.are.equal(0, a:step(1))
    local heard = {}
    for i, e in ipairs(a:errors()) do heard[i] = e:match("^[^\n]*") end -- less its traceback
    table.sort(heard)
    assert.are.same({ "heavy clank side 2 vs light", "light clank side 1 vs heavy" }, heard)
    result("clank_reports", #heard)
  end)
end)

-- An event table as text, keys sorted, numbers with every digit and entities by id: the two
-- bindings must print every event the same, field by field.
local function event_text(v)
  if type(v) == "number" then return ("%.17g"):format(v) end
  if type(v) ~= "table" and type(v) ~= "userdata" then return tostring(v) end
  if getmetatable(v) ~= nil then return "entity " .. v:id() end
  local keys, parts = {}, {}
  for k in pairs(v) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  for _, k in ipairs(keys) do
    parts[#parts + 1] = k .. "=" .. event_text(v[k] == nil and v[tonumber(k)] or v[k])
  end
  return "{" .. table.concat(parts, " ") .. "}"
end

local function report_events(name, list)
  result(name .. "_count", #list)
  for i, e in ipairs(list) do result(name .. "_" .. i, event_text(e)) end
end

describe("attacks that meet", function()
  -- A batter swings the bat as a knife flies at him: the bat sends it back, on his team.
  local function batting()
    local a = cleave.arena {}
    local batter = a:spawn { x = 0, y = 0, team = 1, radius = 0, name = "batter" }
    local thrower = a:spawn { x = 90, y = 0, team = 2, radius = 4, name = "thrower" }
    a:attack { weapon = mod("bat").weapons.bat, attack = "swing", owner = batter }
    local knife = mod("knife").weapons.knife
    local k = a:spawn_projectile { weapon = knife, owner = thrower, x = 40, y = 0, vx = -10 }
    return a, batter, thrower, k, knife
  end

  it("throws a knife that the bat reflects, and reports the meeting both ways", function()
    local a, batter, thrower, k = batting()
    assert.are.equal(0, a:step(3))
    local clashes = a:clashes()
    assert.are.equal(1, #clashes)
    local c = clashes[1]
    assert.are.same({ 3, "reflect", 1 }, { c.frame, c.kind, c.winner })
    local bat, thrown = c.sides[1], c.sides[2]
    assert.are.same({ "bat", "swing", 3, "barrel", 2, 0 },
      { bat.weapon, bat.attack, bat.attack_frame, bat.hitbox, bat.damage, bat.stun })
    assert.is_true(bat.owner == batter)
    assert.are.equal("batter", bat.owner_name)
    assert.are.same({ "knife", "fly", "edge", "thrower" },
      { thrown.weapon, thrown.attack, thrown.hitbox, thrown.owner_name })
    local kinds = {}
    for i, e in ipairs(a:projectile_events()) do kinds[i] = e.kind end
    assert.are.same({ "spawned", "reflected" }, kinds)
    local e = a:projectile_events()[2]
    assert.are.same({ 3, "knife", 15, 0 }, { e.frame, e.weapon, e.vx, e.vy })
    assert.is_true(k:running())
    assert.is_true(e.by == batter)
    assert.is_true(e.owner == thrower)
    assert.are.equal("thrower", e.owner_name)
    assert.matches("^bat reflected knife to vx 15, by entity 1", a:errors()[1])
    local p = a:projectile(k)
    assert.are.same({ 1, 2, 0 }, { p.team, p.damage_scale, p.hits })
    assert.is_true(p.owner == batter) -- a reflected projectile is its reflector's
    report_events("reflect_clashes", clashes)
    report_events("reflect_projectile_events", a:projectile_events())
    report_events("reflect_projectile", { p })
  end)

  it("sends the reflected knife into its thrower, twice as strong", function()
    local a, _, thrower, k = batting()
    a:step(3)
    a:step(8)
    local hits = a:hits()
    assert.are.equal(1, #hits)
    assert.are.same({ "knife", "fly", "edge", 12 },
      { hits[1].weapon, hits[1].attack, hits[1].hitbox, hits[1].damage })
    assert.is_true(hits[1].target == thrower)
    assert.are.equal(88, thrower:hp())
    assert.is_false(k:running())
    assert.is_nil(a:projectile(k))
    local kinds = {}
    for i, e in ipairs(a:projectile_events()) do kinds[i] = e.kind .. ":" .. (e.reason or "-") end
    assert.are.same({ "destroyed:-" }, kinds)
    report_events("knife_back_hits", hits)
    report_events("knife_back_projectile_events", a:projectile_events())
    result("knife_back_hash", a:hash())
  end)

  it("ends two blades that clank, each owner stunned by its rebound", function()
    local a = cleave.arena {}
    local p = a:spawn { x = 0, y = 0, team = 1, name = "left" }
    local q = a:spawn { x = 45, y = 0, team = 2, name = "right" }
    local light = a:attack { weapon = mod("clank_light").weapons.light, attack = "swing", owner = p }
    local heavy = a:attack { weapon = mod("clank_heavy").weapons.heavy, attack = "swing", owner = q,
      facing = 180 }
    a:step(1)
    local c = a:clashes()
    assert.are.equal(1, #c)
    assert.are.same({ 1, "clank", nil }, { c[1].frame, c[1].kind, c[1].winner })
    assert.are.same({ "light", 10, 9, "left" },
      { c[1].sides[1].weapon, c[1].sides[1].damage, c[1].sides[1].stun, c[1].sides[1].owner_name })
    assert.are.same({ "heavy", 15, 11, "right" },
      { c[1].sides[2].weapon, c[1].sides[2].damage, c[1].sides[2].stun, c[1].sides[2].owner_name })
    assert.is_false(light:running())
    assert.is_false(heavy:running())
    assert.are.equal(0, #a:projectile_events())
    local reasons = {}
    for _, m in ipairs(a:misses()) do reasons[#reasons + 1] = m.weapon .. ":" .. m.reason end
    table.sort(reasons)
    report_events("clank_clashes", c)
    result("clank_misses", table.concat(reasons, " "))
    a:step(1)
    assert.are.equal(0, #a:clashes())
  end)

  it("checks a projectile's fields with the module's messages", function()
    local a, _, thrower, _, knife = batting()
    local function err(t)
      local ok, e = pcall(a.spawn_projectile, a, t)
      assert.is_false(ok)
      result("spawn_projectile_error", e)
      return e
    end
    assert.are.equal("spawn_projectile: unknown field 'pirce' (did you mean 'pierce'?)",
      err { weapon = knife, owner = thrower, pirce = 1 })
    assert.are.equal("spawn_projectile: weapon must be a cleave.Weapon (got table)",
      err { weapon = {}, owner = thrower })
    assert.are.equal("spawn_projectile: attack must name an attack of weapon 'knife' (got 'throw')",
      err { weapon = knife, attack = "throw", owner = thrower })
    assert.are.equal("spawn_projectile: owner must be a cleave.Entity (got integer)",
      err { weapon = knife, owner = 5 })
    assert.are.equal("spawn_projectile: x must be a number (got string)",
      err { weapon = knife, owner = thrower, x = "1" })
    assert.are.equal("spawn_projectile: facing must be finite (got inf)",
      err { weapon = knife, owner = thrower, facing = math.huge })
    assert.are.equal("spawn_projectile: lifetime must be >= 1 (got 0)",
      err { weapon = knife, owner = thrower, lifetime = 0 })
    assert.are.equal("spawn_projectile: pierce must be an integer (got 1.5)",
      err { weapon = knife, owner = thrower, pierce = 1.5 })
    assert.are.equal("spawn_projectile: loop must be a boolean (got string)",
      err { weapon = knife, owner = thrower, loop = "yes" })
    assert.matches("^spawn_projectile: velocity must be finite and within %+%-1e9",
      err { weapon = knife, owner = thrower, vx = 2e9 })
    local other = cleave.arena {}
    assert.are.equal("spawn_projectile: owner belongs to another arena",
      err { weapon = knife, owner = other:spawn {} })
    assert.has_error(function() a:spawn_projectile() end,
      "bad argument #1 to 'spawn_projectile' (table expected, got no value)")
    assert.has_error(function() a:projectile(thrower) end,
      "bad argument #1 to 'projectile' (cleave.Attack expected, got cleave.Entity)")
  end)
end)

-- 600 frames of a fight with every example mod: the player turns and swings each weapon in
-- turn, moving, at four enemies who keep walking back at him; a snapshot halfway is restored and replayed.
describe("an example fight", function()
  it("reaches the same hash after 600 frames, and again after a restore", function()
    local swings = { { "plank", "swing" }, { "sword", "slash1" }, { "scythe", "swing" },
      { "spear", "thrust" }, { "sword", "slash3" }, { "hammer", "smash" },
      { "flail", "whirl" }, { "sword", "slash2" } }
    local weapons = {}
    for _, s in ipairs(swings) do
      weapons[s[1]] = weapons[s[1]] or cleave.load_mod(SOURCE_DIR .. "/mods/" .. s[1]).weapons[s[1]]
    end
    local a = cleave.arena { miss_margin = 20 }
    local player = a:spawn { x = 0, y = 0, team = 1, hp = 1000, name = "player" }
    local enemies = {}
    for i = 1, 4 do
      local angle = i * 90 - 45
      local x, y = 55 * math.cos(math.rad(angle)), 55 * math.sin(math.rad(angle))
      enemies[i] = a:spawn { x = x, y = y, vx = -x / 120, vy = -y / 120, team = 2, radius = 10,
        hp = 400, weight = 1 + i / 4, friction = 0.05, name = "enemy" .. i }
    end
    local hits, misses, snap, hash_300 = 0, 0, nil, nil
    local function frame(f)
      if f % 40 == 1 then
        local s = swings[math.floor(f / 40) % #swings + 1]
        a:attack { weapon = weapons[s[1]], attack = s[2], owner = player, facing = (f * 37) % 360 }
      end
      if f % 100 == 50 then player:set_velocity(math.floor(f / 100) % 3 - 1, 0.5) end
      if f % 30 == 0 then -- the enemies walk back toward the player
        local px, py = player:position()
        for _, e in ipairs(enemies) do
          local x, y = e:position()
          e:set_velocity((px - x) / 40, (py - y) / 40)
        end
      end
      hits = hits + a:step(1)
      misses = misses + #a:misses()
    end
    for f = 1, 300 do frame(f) end
    snap, hash_300 = a:snapshot(), a:hash()
    for f = 301, 600 do frame(f) end
    local hash_600, hits_600 = a:hash(), hits
    assert.are.equal(600, a:frame())
    assert.is_true(hits > 0, "some hits")
    a:restore(snap)
    assert.are.equal(hash_300, a:hash())
    for f = 301, 600 do frame(f) end
    assert.are.equal(hash_600, a:hash())
    result("fight_hits", hits_600)
    result("fight_misses", misses)
    result("fight_hash_600", hash_600)
  end)
end)
