-- The arena's and the attack handle's methods check their self: a call every frame on the same
-- arena or attack is recognized cheaply, and every other value is still refused with the same
-- message, before and after such calls, and after the remembered one is closed or collected.
local cleave = require "cleave"

local function stick(on_hit, on_tick)
  local hit = { id = "tip", frames = { 2, 4 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4,
    damage = 10, hitlag = 0 }
  if on_tick then
    hit.effects = { { name = "burn", duration = 3, on_tick = on_tick } }
  end
  return cleave.weapon {
    name = "stick",
    on_hit = on_hit,
    attacks = { swing = { length = 6, hitboxes = { hit } } },
  }
end

-- The message of calling f(...), or nil when it did not fail.
local function err(f, ...)
  local ok, e = pcall(f, ...)
  return not ok and e or nil
end

-- Asserts that calling method f with v as its self fails as luaL_checkudata would.
local function refuses(f, v, want, got, context)
  assert.are.equal("bad argument #1 to '?' (" .. want .. " expected, got " .. got .. ")",
    err(f, v), context)
end

-- A value of every kind a method could be handed instead of its self.
local function strangers(a, p, swing)
  return {
    { {}, "table" },
    { p, "cleave.Entity" },
    { swing, "cleave.Attack" },
    { a, "cleave.Arena" },
    { cleave.circle(0, 0, 1), "cleave.Shape" },
    { stick(), "cleave.Weapon" },
    { io.stdout, "FILE*" },
    { "arena", "string" },
    { 7, "number" },
    { nil, "nil" },
  }
end

local function scene(w)
  local a = cleave.arena {}
  local p = a:spawn { team = 1 }
  a:spawn { x = 25, team = 2, radius = 6 }
  local swing = a:attack { weapon = w or stick(), attack = "swing", owner = p }
  return a, p, swing
end

describe("the arena's self check", function()
  it("refuses every other value as an arena, before and after calls on an arena", function()
    local a, p, swing = scene()
    local step, spawn = a.step, a.spawn
    for round = 1, 2 do
      for _, s in ipairs(strangers(a, p, swing)) do
        local v, name = s[1], s[2]
        if name ~= "cleave.Arena" then
          refuses(step, v, "cleave.Arena", name, "round " .. round)
          refuses(spawn, v, "cleave.Arena", name, "round " .. round)
        end
      end
      -- its own arena passes, and is then the one remembered
      step(a)
      spawn(a, { team = 3 })
    end
    assert.are.equal(2, a:frame())
  end)

  it("refuses every other value as an attack, before and after calls on an attack", function()
    local a, p, swing = scene()
    local running = swing.running
    for round = 1, 2 do
      for _, s in ipairs(strangers(a, p, swing)) do
        local v, name = s[1], s[2]
        if name ~= "cleave.Attack" then
          refuses(running, v, "cleave.Attack", name, "round " .. round)
        end
      end
      assert.is_true(running(swing))
    end
  end)

  it("tells apart two arenas and two attacks called in turn", function()
    local a, _, s1 = scene()
    local b, _, s2 = scene()
    for _ = 1, 3 do
      a:step(1)
      b:step(2)
      assert.is_true(s1:running())
      assert.is_true(s2:running())
    end
    assert.are.equal(3, a:frame())
    assert.are.equal(6, b:frame())
    s1:cancel()
    assert.is_false(s1:running())
    assert.is_true(s2:running())
  end)

  it("raises 'arena is closed' for the arena it called last, once closed", function()
    local a, _, swing = scene()
    a:step(1)
    assert.is_true(swing:running())
    a:close()
    assert.matches("arena is closed$", err(a.step, a))
    assert.matches("arena is closed$", err(a.step, a))
    assert.are.equal("running: the arena is closed", err(swing.running, swing))
    assert.are.equal("running: the arena is closed", err(swing.running, swing))
  end)

  it("refuses other values after the arena and attack it called last are collected", function()
    local a, p, swing = scene() -- luacheck: ignore 231
    local step, running = a.step, swing.running
    step(a)
    running(swing)
    a, p, swing = nil, nil, nil -- luacheck: ignore 311 (the stack must not keep them)
    collectgarbage()
    collectgarbage()
    -- new objects of every type, some of which may take the freed memory
    local b = cleave.arena {}
    local keep = {}
    for i = 1, 200 do
      keep[#keep + 1] = b:spawn { team = i }
      keep[#keep + 1] = cleave.circle(0, 0, i)
      keep[#keep + 1] = {}
    end
    for _, v in ipairs(keep) do
      local name = type(v) == "table" and "table" or tostring(v):match("^(cleave%.%a+)")
      if name == "cleave.Circle" or name == nil then name = "cleave.Shape" end
      refuses(step, v, "cleave.Arena", name)
      refuses(running, v, "cleave.Attack", name)
    end
    assert.are.equal(0, step(b))
  end)
end)

describe("a frame's callbacks", function()
  it("run for an arena on_hit added after frames that had hits and nothing to call", function()
    local a = scene()
    a:step(2) -- the hit of frame 2, with no callback anywhere
    assert.are.equal(1, a:hit_count())
    local seen = 0
    a:on_hit(function() seen = seen + 1 end)
    local b = scene()
    b:on_hit(function() seen = seen + 10 end)
    b:step(2)
    assert.are.equal(10, seen)
  end)

  it("run a weapon's on_hit, and another's on_tick, among weapons that have none", function()
    local heard = {}
    local a, p = scene()
    a:attack { weapon = stick(function(h) heard[#heard + 1] = ("hit %g"):format(h.damage) end),
      attack = "swing", owner = p }
    a:step(6)
    assert.are.same({ "hit 10" }, heard)
    heard = {}
    local b, q = scene()
    b:attack { weapon = stick(nil, function() heard[#heard + 1] = "tick" end), attack = "swing",
      owner = q }
    b:step(6)
    assert.is_true(#heard > 0)
    assert.are.equal("tick", heard[1])
  end)
end)

describe("arena:spawn's numbers, read in one pass over the table", function()
  it("take integers, floats and integral floats, and keep each field's message", function()
    local a = cleave.arena {}
    local e = a:spawn { x = 1, y = 2.5, vx = -3, vy = 0.25, weight = 2, friction = 0, hp = 7.5,
      team = 2.0 }
    local i = e:info()
    assert.are.same({ 1, 2.5, -3, 0.25, 2, 0, 7.5, 2 },
      { i.x, i.y, i.vx, i.vy, i.weight, i.friction, i.hp, i.team })
    local function spawn_err(t) return err(a.spawn, a, t) end
    assert.are.equal("spawn: x must be a number (got string)", spawn_err { x = "1" })
    assert.are.equal("spawn: vy must be finite (got inf)", spawn_err { vy = 1 / 0 })
    assert.are.equal("spawn: vx must be >= -1000000000 (got -2000000000)",
      spawn_err { vx = -2000000000 })
    assert.are.equal("spawn: y must be <= 1000000000 (got 10000000000.0)", spawn_err { y = 1e10 })
    assert.are.equal("spawn: weight must be > 0 (got 0)", spawn_err { weight = 0 })
    assert.are.equal("spawn: friction must be >= 0 (got -1)", spawn_err { friction = -1 })
    assert.are.equal("spawn: hp must be > 0 (got -0.5)", spawn_err { hp = -0.5 })
    assert.are.equal("spawn: team must be an integer (got 1.5)", spawn_err { team = 1.5 })
    assert.are.equal("spawn: team must be an integer (got table)", spawn_err { team = {} })
    -- the fields are checked in their order, whatever the table's
    assert.are.equal("spawn: x must be finite (got nan)", spawn_err { team = 1.5, x = 0 / 0 })
    assert.are.equal(1, a:entity_count())
  end)
end)

describe("arena:step's count", function()
  it("takes an integer, an integral float, nil or nothing, and refuses the rest", function()
    local a = cleave.arena {}
    a:step(2)
    a:step(2.0)
    a:step(nil)
    a:step()
    assert.are.equal(6, a:frame())
    assert.are.equal("bad argument #2 to 'step' (number expected, got boolean)", err(a.step, a, true))
    assert.are.equal("bad argument #2 to 'step' (number expected, got table)", err(a.step, a, {}))
    assert.are.equal("bad argument #2 to 'step' (frames must be an integer in 0..1000000000, "
      .. "got 2000000000)", err(a.step, a, 2000000000))
    assert.are.equal("bad argument #2 to 'step' (frames must be an integer in 0..1000000000, "
      .. "got 10000000000.0)", err(a.step, a, 1e10))
    assert.are.equal(6, a:frame())
  end)
end)
