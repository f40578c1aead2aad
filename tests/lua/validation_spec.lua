-- Input validation at the Lua entry points: each case is bad input that must fail with a
-- message naming the field, never silently.
local cleave = require "cleave"

local function weapon_with(hitbox)
  return function()
    cleave.weapon { attacks = { s = { hitboxes = { hitbox } } } }
  end
end

describe("validation", function()
  it("names a hitbox's frames when no frame number could be read from it", function()
    assert.has_error(weapon_with { id = "b", frames = 1.5, x = 0, y = 0, radius = 1 },
      "attacks.s.hitboxes[1].frames must be an integer (got 1.5)")
    assert.has_error(weapon_with { id = "b", frames = 2 ^ 53, x = 0, y = 0, radius = 1 },
      "attacks.s.hitboxes[1].frames must be an integer (got 9007199254740992.0)")
    assert.has_error(weapon_with { id = "b", frames = { 1, 0 / 0 }, x = 0, y = 0, radius = 1 },
      "attacks.s.hitboxes[1].frames[2] must be an integer (got nan)")
    -- still the old message when there is no hitbox at all
    assert.has_error(function() cleave.weapon { attacks = { s = { hitboxes = {} } } } end,
      "attacks.s: needs a length or at least one hitbox")
  end)

  it("names a field under a key that is not a name, and cuts a path too long to keep", function()
    local box = { id = "b", frames = 1.5, x = 0, y = 0, radius = 1 }
    assert.has_error(function()
      cleave.weapon { attacks = { ["heavy swing"] = { hitboxes = { box } } } }
    end, 'attacks["heavy swing"].hitboxes[1].frames must be an integer (got 1.5)')
    -- a path is kept up to 399 bytes: the message holds its start, then the complaint
    local long = string.rep("x", 500)
    local ok, err = pcall(function() cleave.weapon { attacks = { [long] = { hitboxes = { box } } } } end)
    assert.is_false(ok)
    local kept = ("attacks." .. long):sub(1, 399)
    assert.truthy(err:find(kept .. ": attack name must be shorter than 32 bytes", 1, true))
  end)

  it("suggests the name two swapped letters came from", function()
    assert.has_error(weapon_with { id = "b", x = 0, y = 0, radius = 1, kidn = "reflect" },
      "attacks.s.hitboxes[1]: unknown field 'kidn' (did you mean 'kind'?)")
    assert.has_error(weapon_with { id = "b", x = 0, y = 0, radius = 1, dmaage = 3 },
      "attacks.s.hitboxes[1]: unknown field 'dmaage' (did you mean 'damage'?)")
  end)

  it("refuses a team outside 32 bits instead of truncating it", function()
    local a = cleave.arena {}
    assert.has_error(function() a:spawn { team = 2 ^ 40 } end,
      "spawn: team must be in -2147483648..2147483647 (got 1099511627776.0)")
    assert.has_error(function() a:spawn { team = -2 ^ 31 - 1 } end,
      "spawn: team must be in -2147483648..2147483647 (got -2147483649.0)")
    assert.are.equal("userdata", type(a:spawn { team = 2 ^ 31 - 1 }))
  end)

  it("refuses a numeric string as a frame count", function()
    local a = cleave.arena {}
    assert.has_error(function() a:step("2") end,
      "bad argument #1 to 'step' (number expected, got string)")
    assert.are.equal(0, a:frame())
    assert.are.equal(0, a:step())
    assert.are.equal(1, a:frame())
  end)

  it("checks the types and ranges of entity and attack methods", function()
    local a = cleave.arena {}
    local p = a:spawn { team = 1 }
    assert.has_error(function() p:set_state("invincible", "3") end,
      "bad argument #2 to 'set_state' (number expected, got string)")
    assert.has_error(function() p:set_state("invincible", 2 ^ 40) end,
      "bad argument #2 to 'set_state' (frames must be an integer in 0..2147483647, got 1099511627776.0)")
    assert.has_error(function() p:set_state("invincible", -1) end,
      "bad argument #2 to 'set_state' (frames must be an integer in 0..2147483647, got -1)")
    assert.has_error(function() a:spawn { state = "x" } end,
      "spawn: state must be one of 'normal', 'invincible', 'intangible', 'parry', 'guard' (got 'x')")
    assert.has_error(function() a:spawn { state = 1 } end,
      "spawn: state must be one of 'normal', 'invincible', 'intangible', 'parry', 'guard' (got 1)")
    assert.are.equal("userdata", type(a:spawn { state = "intangible" }))
    local w = cleave.weapon { attacks = { swing = { hitboxes = {
      { id = "b", frames = { 1, 3 }, x = 10, y = 0, radius = 5 } } } } }
    local swing = a:attack { weapon = w, owner = p }
    assert.has_error(function() swing:set_pose(0, 0, 0, "x") end,
      "bad argument #4 to 'set_pose' (boolean expected, got string)")
    swing:set_pose(0, 0, 0, true)
    swing:set_pose(0, 0, 0)
    assert.has_error(function() w:hitboxes("swing", "1") end,
      "bad argument #2 to 'hitboxes' (number expected, got string)")
    assert.has_error(function() w:hitbox("swing", "1", "b") end,
      "bad argument #2 to 'hitbox' (number expected, got string)")
    assert.are.same({ "b" }, w:hitboxes("swing", 1))
  end)
end)

describe("messages a new user meets", function()
  -- Every message: the function, the field path as the user wrote it, the rule, the value.
  local function err(f, ...)
    local ok, e = pcall(f, ...)
    assert.is_false(ok)
    return (e:gsub("^[^:]*_spec%.lua:%d+: ", ""))
  end

  it("names spawn's fields as Lua writes them", function()
    local a = cleave.arena {}
    assert.are.equal("spawn: radius must be >= 0 (got -1)", err(function() a:spawn { radius = -1 } end))
    assert.are.equal("spawn: state must be one of 'normal', 'invincible', 'intangible', 'parry', 'guard' (got 'ghost')",
      err(function() a:spawn { state = "ghost" } end))
    assert.are.equal("spawn: x must be finite (got nan)", err(function() a:spawn { x = 0 / 0 } end))
    assert.are.equal("spawn: y must be finite (got -inf)", err(function() a:spawn { y = -1 / 0 } end))
    assert.are.equal("spawn: x must be <= 1000000000 (got 2e+20)", err(function() a:spawn { x = 2e20 } end))
    assert.are.equal("spawn: hp must be > 0 (got 0)", err(function() a:spawn { hp = 0 } end))
    assert.are.equal("spawn: weight must be a number (got string)", err(function() a:spawn { weight = "1" } end))
    assert.are.equal("spawn: name must be a string (got number)", err(function() a:spawn { name = 3 } end))
    assert.are.equal("spawn: hurtbox must be a cleave.Shape (got table)", err(function() a:spawn { hurtbox = {} } end))
    assert.are.equal("spawn: hurtboxes[2] must be a cleave.Shape (got number)",
      err(function() a:spawn { hurtboxes = { cleave.circle(0, 0, 1), 5 } } end))
    assert.are.equal("spawn: hurtboxes[1].x must be in -1000000000..1000000000 (got 2000000000)",
      err(function() a:spawn { hurtboxes = { cleave.circle(2000000000, 0, 1) } } end))
    assert.are.equal("spawn: unknown field 'radus' (did you mean 'radius'?)", err(function() a:spawn { radus = 1 } end))
    assert.are.equal("spawn: unexpected key [1] (fields are named)", err(function() a:spawn { 5 } end))
    assert.are.equal(0, a:entity_count())
  end)

  it("refuses two ways of giving the hurtboxes", function()
    local a = cleave.arena {}
    assert.are.equal("spawn: give one of radius, hurtbox, hurtboxes (got radius and hurtbox)",
      err(function() a:spawn { radius = 3, hurtbox = cleave.circle(0, 0, 1) } end))
    assert.are.equal("spawn: give one of radius, hurtbox, hurtboxes (got hurtbox and hurtboxes)",
      err(function() a:spawn { hurtbox = cleave.circle(0, 0, 1), hurtboxes = {} } end))
  end)

  it("names attack's and the arena's fields", function()
    local a = cleave.arena {}
    assert.are.equal("attack: owner must be a cleave.Entity (got nil)", err(function()
      a:attack { weapon = cleave.weapon { attacks = { s = { length = 1 } } } }
    end))
    assert.are.equal("attack: weapon must be a cleave.Weapon (got string)", err(function() a:attack { weapon = "sword" } end))
    assert.are.equal("cleave.arena: miss_margin must be >= 0 (got -1)", err(cleave.arena, { miss_margin = -1 }))
    assert.are.equal("cleave.arena: miss_margin must be >= 0 (got -0.5)", err(cleave.arena, { miss_margin = -0.5 }))
    assert.are.equal("cleave.arena: capacity must be in 0..1048576 (got 2000000)", err(cleave.arena, { capacity = 2000000 }))
    assert.are.equal("cleave.arena: sweep_tolerance must be > 0 (got 0)", err(cleave.arena, { sweep_tolerance = 0 }))
    assert.are.equal("cleave.arena: sweep_tolerance must be a number (got string)", err(cleave.arena, { sweep_tolerance = "1" }))
    assert.are.equal("cleave.arena: on_error must be a function (got boolean)", err(cleave.arena, { on_error = true }))
  end)

  it("checks step's frame count like the documentation says", function()
    local a = cleave.arena {}
    assert.are.equal("bad argument #1 to 'step' (frames must be an integer in 0..1000000000, got 1.5)", err(function() a:step(1.5) end))
    assert.are.equal("bad argument #1 to 'step' (frames must be an integer in 0..1000000000, got nan)", err(function() a:step(0 / 0) end))
    assert.are.equal("bad argument #1 to 'step' (frames must be an integer in 0..1000000000, got -1)", err(function() a:step(-1) end))
    assert.are.equal("bad argument #1 to 'step' (number expected, got string)", err(function() a:step("2") end))
    assert.are.equal(0, a:frame())
    a:step(2.0)
    assert.are.equal(2, a:frame())
  end)

  it("has one radius rule for a hitbox, cleave_hit's r >= 0, however its shape is given", function()
    local function weapon(hb)
      return function() return cleave.weapon { attacks = { s = { hitboxes = { hb } } } } end
    end
    local zero = {
      { id = "b", frames = 1, x = 0, y = 0, radius = 0 },
      { id = "b", frames = 1, ax = 0, ay = 0, bx = 5, by = 0, radius = 0 },
      { id = "b", frames = 1, shape = cleave.circle(0, 0, 0) },
      { id = "b", frames = 1, shape = cleave.capsule(0, 0, 5, 0, 0.0) },
      cleave.thrust { id = "b", frames = { 1, 2 }, from = 0, to = 10, reach = 5, radius = 0 },
    }
    for i, hb in ipairs(zero) do
      local w = weapon(hb)()
      assert.are.equal(0, w:hitbox("s", 1, "b").radius, "hitbox " .. i)
    end
    assert.are.equal("attacks.s.hitboxes[1].radius must be >= 0 (got -0.5)",
      err(weapon { id = "b", frames = 1, x = 0, y = 0, radius = -0.5 }))
    assert.are.equal("attacks.s.hitboxes[1].radius must be >= 0 (got -2)",
      err(weapon(cleave.arc { id = "b", frames = 1, from = 0, to = 90, outer = 9, radius = -2 })))
    assert.are.equal("attacks.s.hitboxes[1].damage must be >= 0 (got -1)",
      err(weapon { id = "b", frames = 1, x = 0, y = 0, radius = 1, damage = -1 }))
    assert.are.equal("attacks.s.hitboxes[1].knockback.growth must be >= 0 (got -1)",
      err(weapon { id = "b", frames = 1, x = 0, y = 0, radius = 1, knockback = { growth = -1 } }))
  end)

  it("names the function under pcall", function()
    assert.are.equal("bad argument #1 to 'cleave.load_mod' (string expected, got no value)", err(cleave.load_mod))
    local e = cleave.arena {}:spawn {}
    assert.are.equal("bad argument #2 to 'set_state' (state must be one of 'normal', 'invincible', 'intangible', 'parry', 'guard', got 'ghost')",
      err(e.set_state, e, "ghost"))
  end)
end)
