-- cleave.arena from Lua: spawn, attack, step, events, handles, snapshots, callbacks.
local cleave = require "cleave"
local T = require "cleave.testing"

local function stick(on_hit)
  return cleave.weapon {
    name = "stick",
    on_hit = on_hit,
    attacks = { swing = { length = 6, hitboxes = {
      { id = "tip", frames = { 2, 4 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4, damage = 10, hitlag = 0 },
    } } },
  }
end

-- An arena whose player swings w (a stick by default) at one enemy in reach and one out of it.
local function scene(w)
  local a = cleave.arena { miss_margin = 50 }
  local p = a:spawn { x = 0, y = 0, team = 1, name = "player" }
  local near = a:spawn { x = 25, y = 0, team = 2, name = "near", radius = 6 }
  local far = a:spawn { x = 70, y = 0, team = 2, name = "far", radius = 6 }
  local swing = a:attack { weapon = w or stick(), attack = "swing", owner = p }
  return a, p, near, far, swing
end

describe("cleave.arena", function()
  it("steps frames and reports hits with names and 1-based frames", function()
    local a, _, near = scene(stick())
    a:step(6)
    local hits = a:hits()
    assert.are.equal(1, #hits)
    local h = hits[1]
    assert.are.equal(2, h.frame)
    assert.are.equal(2, h.attack_frame)
    assert.are.equal("tip", h.hitbox)
    assert.are.equal("swing", h.attack)
    assert.are.equal("stick", h.weapon)
    assert.are.equal(near, h.target)
    assert.are.equal("near", h.target_name)
    assert.are.equal(10, h.damage)
    assert.is_number(h.sweep_t)
    T.expect_at_least(h.sweep_t, 0, "sweep_t")
    T.expect_at_most(h.sweep_t, 1, "sweep_t")
    assert.are.equal(90, near:hp())
    assert.are.equal(6, a:frame())
  end)

  it("reports misses with their reason as a string", function()
    local a = scene(stick())
    a:step(3)
    local reasons = {}
    for _, m in ipairs(a:misses()) do reasons[m.target_name .. ":" .. m.reason] = true end
    assert.is_true(reasons["player:team"])
    assert.is_true(reasons["far:out_of_reach"])
    assert.is_true(reasons["near:rehit"])
  end)

  it("keeps the names of a miss after its attack has ended", function()
    local w = cleave.weapon { name = "w", attacks = { a = { length = 3, hitboxes = {
      cleave.hitbox { id = "blade", frames = { 1, 3 }, ax = 0, ay = 0, bx = 40, by = 0, radius = 4 },
    } } } }
    local a = cleave.arena {}
    local me = a:spawn { team = 1, name = "me" }
    a:attack { weapon = w, attack = "a", owner = me }
    a:step(4)
    local misses = a:misses()
    assert.are.equal(3, #misses)
    for i, m in ipairs(misses) do
      assert.are.same({ i, "w", "a", i, "blade", "team" },
        { m.frame, m.weapon, m.attack, m.attack_frame, m.hitbox, m.reason })
    end
  end)

  it("names the weapon of each miss when attacks of several weapons miss on one frame", function()
    local function blade(name)
      return cleave.weapon { name = name, attacks = { [name .. "_cut"] = { length = 3, hitboxes = {
        cleave.hitbox { id = name .. "_edge", frames = { 1, 3 }, ax = 0, ay = 0, bx = 40, by = 0,
          radius = 4 },
      } } } }
    end
    local a = cleave.arena {}
    local owners = {}
    for i, name in ipairs { "left", "right", "left", "right" } do
      owners[i] = a:spawn { x = 200 * i, team = 1 }
      a:attack { weapon = blade(name), owner = owners[i] }
    end
    a:step(1)
    local misses = a:misses()
    assert.are.equal(4, #misses) -- each blade meets its own owner (same team)
    local seen = {}
    for _, m in ipairs(misses) do
      assert.are.equal(m.weapon .. "_cut", m.attack)
      assert.are.equal(m.weapon .. "_edge", m.hitbox)
      seen[m.weapon] = (seen[m.weapon] or 0) + 1
    end
    assert.are.same({ left = 2, right = 2 }, seen)
  end)

  it("keeps the names of a miss when a callback ends its attack in the same frame", function()
    local a, p = scene(stick())
    a:on_hit(function() p:remove() end)
    a:step(2)
    local far
    for _, m in ipairs(a:misses()) do
      if m.target_name == "far" and m.frame == 2 then far = m end
    end
    assert.is_false(p:valid())
    assert.are.same({ "stick", "swing", "tip", "out_of_reach" },
      { far.weapon, far.attack, far.hitbox, far.reason })
  end)

  it("takes sweep_tolerance, fine or coarse, and still finds the hit", function()
    local fine, coarse = cleave.arena { sweep_tolerance = 0.25 }, cleave.arena { sweep_tolerance = 50 }
    assert.is_truthy(tostring(fine):find("cleave.Arena", 1, true))
    for _, a in ipairs { fine, coarse } do
      local p = a:spawn { team = 1 }
      a:spawn { x = 25, team = 2, radius = 6 }
      a:attack { weapon = stick(), attack = "swing", owner = p }
      a:step(6)
      assert.are.equal(1, #a:hits())
    end
  end)

  it("handles fail cleanly once the entity is gone", function()
    local a, _, near = scene(stick())
    local id = near:id()
    near:remove()
    assert.is_false(near:valid())
    local ok, e = pcall(near.hp, near)
    assert.is_false(ok)
    assert.matches("entity " .. id .. " was removed$", e)
    ok, e = pcall(near.set_position, near, 1, 2)
    assert.is_false(ok)
    assert.matches("entity " .. id .. " was removed$", e)
    a:step(1)
  end)

  it("restores a snapshot to the same hash and the same future", function()
    local a = scene(stick())
    a:step(1)
    local s, h1 = a:snapshot(), a:hash()
    a:step(5)
    local h2 = a:hash()
    a:restore(s)
    assert.are.equal(h1, a:hash())
    a:step(5)
    assert.are.equal(h2, a:hash())
    assert.matches("^%x+$", h1)
    assert.are_not.equal(h1, h2)
  end)

  it("runs on_hit callbacks after the frame, with the hit applied", function()
    local seen = {}
    local a = scene(stick(function(hit) seen[#seen + 1] = hit.target:hp() end))
    local arena_seen = 0
    a:on_hit(function(hit) arena_seen = arena_seen + hit.damage end)
    a:step(6)
    assert.are.same({ 90 }, seen)
    assert.are.equal(10, arena_seen)
  end)

  it("reports a failing callback with file and line and leaves the arena as without it", function()
    local errors = {}
    local a = cleave.arena { on_error = function(msg) errors[#errors + 1] = msg end }
    local p = a:spawn { x = 0, y = 0, team = 1 }
    a:spawn { x = 25, y = 0, team = 2, radius = 6 }
    local w = stick(function() error("boom") end)
    a:attack { weapon = w, attack = "swing", owner = p }
    local line = debug.getinfo(1, "l").currentline - 2
    a:step(6)

    local b = cleave.arena {}
    local q = b:spawn { x = 0, y = 0, team = 1 }
    b:spawn { x = 25, y = 0, team = 2, radius = 6 }
    b:attack { weapon = stick(), attack = "swing", owner = q }
    b:step(6)

    assert.are.equal(1, #errors)
    assert.matches("arena_spec%.lua:" .. line .. ": boom", errors[1])
    assert.matches("stack traceback:", errors[1])
    assert.are.equal(b:hash(), a:hash())
  end)

  it("refuses to step from inside its own callbacks, and reports it", function()
    local errors = {}
    local a = cleave.arena { on_error = function(msg) errors[#errors + 1] = msg end }
    local p = a:spawn { team = 1 }
    a:spawn { x = 25, team = 2, radius = 6 }
    a:on_hit(function() a:step(1) end)
    a:attack { weapon = stick(), attack = "swing", owner = p }
    a:step(6)
    assert.are.equal(1, #errors)
    assert.matches("step: the arena cannot step inside one of its callbacks", errors[1])
    assert.are.equal(6, a:frame())
  end)

  it("reads every field a spawn table gives, and leaves the others at their defaults", function()
    local a = cleave.arena {}
    local e = a:spawn { x = 3, y = 4, vx = 1, vy = -2, weight = 2.5, friction = 0.25, hp = 50,
      team = 3, state = "invincible", radius = 7, name = "all" }
    local i = e:info()
    assert.are.same({ 3, 4, 1, -2, 2.5, 0.25, 50, 3, "invincible", 1 },
      { i.x, i.y, i.vx, i.vy, i.weight, i.friction, i.hp, i.team, i.state, i.hurtbox_count })
    assert.are.equal("all", e:name())
    local two = a:spawn { hurtboxes = { cleave.circle(0, 0, 2), cleave.circle(5, 0, 2) } }
    i = two:info()
    assert.are.same({ 0, 0, 0, 0, 1, 0, 100, 0, "normal", 2 },
      { i.x, i.y, i.vx, i.vy, i.weight, i.friction, i.hp, i.team, i.state, i.hurtbox_count })
    assert.is_nil(two:name())
    local ok, err = pcall(a.spawn, a, { x = 1, radius = 3, hurtbox = cleave.circle(0, 0, 1) })
    assert.is_false(ok)
    assert.matches("give one of radius, hurtbox, hurtboxes", err)
  end)

  it("checks its arguments", function()
    local a = cleave.arena {}
    local ok, e = pcall(a.spawn, a, { hp = 10, colour = "red" })
    assert.is_false(ok)
    assert.matches("spawn: unknown field 'colour'", e)
    ok, e = pcall(a.spawn, a, { x = 1, [1] = 5 })
    assert.is_false(ok)
    assert.matches("spawn: unexpected key %[1%] %(fields are named%)", e)
    local p = a:spawn {}
    ok, e = pcall(a.attack, a, { weapon = stick(), attack = "slash", owner = p })
    assert.is_false(ok)
    assert.matches("attack: weapon 'stick' has no attack 'slash'", e)
    ok, e = pcall(a.attack, a, { weapon = {}, attack = "swing", owner = p })
    assert.is_false(ok)
    assert.matches("attack: weapon must be a cleave.Weapon %(got table%)", e)
    ok, e = pcall(a.step, a, -1)
    assert.is_false(ok)
    assert.matches("frames must be an integer in 0..1000000000, got %-1%)$", e)
  end)

  it("closes with close() or at the end of a <close> variable", function()
    local a = cleave.arena {}
    local p = a:spawn { name = "p" }
    a:close()
    assert.are.equal("cleave.Arena (closed)", tostring(a))
    assert.has_error(function() a:step() end, "arena is closed")
    assert.has_error(function() p:hp() end, "entity 1 belongs to a closed arena")
    a:close() -- closing twice does nothing
    local kept
    do
      local b <close> = cleave.arena {}
      b:spawn {}
      kept = b
    end
    assert.are.equal("cleave.Arena (closed)", tostring(kept))
    assert.has_error(function() kept:frame() end, "arena is closed")
  end)

  it("cannot be closed by one of its own callbacks", function()
    local a = cleave.arena {}
    local me, dummy = a:spawn { team = 1 }, a:spawn { x = 30, team = 2 }
    a:on_hit(function() a:close() end)
    a:attack { weapon = stick(), attack = "swing", owner = me }
    T.expect_greater(a:step(20), 0, "hits")
    assert.matches("close: the arena cannot be closed inside one of its callbacks", a:errors()[1])
    assert.is_true(dummy:valid())
  end)
  it("routes a tick to the on_tick of the weapon that applied the effect", function()
    local heard = {}
    local function burner(name)
      return cleave.weapon {
        name = name,
        effects = { burn = cleave.effect { duration = 2, period = 1, magnitude = 1,
          on_tick = function(t) heard[#heard + 1] = name .. ">" .. t.target_id end } },
        attacks = { swing = { length = 4, hitboxes = {
          { id = "tip", frames = { 1, 1 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4,
            damage = 1, hitlag = 0, effects = { "burn" } },
        } } },
      }
    end
    local a = cleave.arena {}
    local first, second = burner("first"), burner("second")
    local p1 = a:spawn { x = 0, y = 0, team = 1 }
    local p2 = a:spawn { x = 0, y = 500, team = 1 }
    local t1 = a:spawn { x = 25, y = 0, team = 2, radius = 6 }
    local t2 = a:spawn { x = 25, y = 500, team = 2, radius = 6 }
    a:attack { weapon = first, attack = "swing", owner = p1 }
    a:attack { weapon = second, attack = "swing", owner = p2 }
    a:step(4)
    table.sort(heard)
    -- two ticks each (period 1, duration 2), each heard by its own weapon only
    local f, g = "first>" .. t1:id(), "second>" .. t2:id()
    assert.are.same({ f, f, g, g }, heard)
  end)
end)

-- The events arena:step keeps for hits() and misses(): one frame's are read where the arena
-- keeps them, several frames' are gathered; either way they read the same until the next step
-- or restore, whatever the script does to the arena in between.

-- The events as plain values, to compare two readings.
local function digest(a)
  local out = {}
  for _, h in ipairs(a:hits()) do
    out[#out + 1] = ("hit %d %s %s %g"):format(h.frame, h.target_name, h.weapon, h.damage)
  end
  for _, m in ipairs(a:misses()) do
    out[#out + 1] = ("miss %d %s %s %s"):format(m.frame, m.weapon, m.attack, m.reason)
  end
  return out
end

describe("the events of arena:step", function()
  it("read the same after one frame, whatever changes the arena before the next step", function()
    local a, p, near, far, swing = scene()
    a:step(1)
    assert.are.equal(1, a:step(1)) -- frame 2: the tip reaches near
    local first = digest(a)
    assert.is_true(#first >= 2)
    assert.are.equal("hit 2 near stick 10", first[1])
    -- everything but a step or a restore leaves them as they were
    swing:cancel()
    far:remove()
    near:set_position(500, 500)
    a:spawn { x = 5, team = 2 }
    a:attack { weapon = stick(), attack = "swing", owner = p }
    assert.are.same(first, digest(a))
    assert.are.equal(1, a:hit_count())
    -- the next step replaces them
    a:step(1)
    assert.are.equal(0, a:hit_count())
    assert.are_not.same(first, digest(a))
  end)

  it("gather several frames, and a restore empties them", function()
    local a = scene()
    local snap = a:snapshot()
    assert.are.equal(1, a:step(6))
    local six = digest(a)
    assert.are.equal("hit 2 near stick 10", six[1])
    a:restore(snap)
    assert.are.same({}, digest(a))
    -- the same frames one by one give the same events, frame by frame
    local each = {}
    for _ = 1, 6 do
      a:step(1)
      for _, e in ipairs(digest(a)) do each[#each + 1] = e end
    end
    table.sort(each)
    table.sort(six)
    assert.are.same(six, each)
  end)

  it("are what a callback of the frame reads", function()
    local seen
    local a
    a = scene(stick(function() seen = digest(a) end))
    a:step(2)
    assert.is_table(seen)
    local after = digest(a)
    assert.are.same(after, seen)
    seen = nil
    local b
    b = scene(stick(function() seen = digest(b) end))
    b:step(1)
    b:step(1)
    assert.are.same(digest(b), seen)
  end)
end)
