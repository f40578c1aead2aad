-- Input validation found missing in an audit of the Lua entry points (issue 7, item 6): each
-- case failed silently or with a misleading message before.
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

  it("refuses a team outside 32 bits instead of truncating it", function()
    local a = cleave.arena {}
    assert.has_error(function() a:spawn { team = 2 ^ 40 } end,
      "spawn: team must be in -2147483648..2147483647 (got 1099511627776)")
    assert.has_error(function() a:spawn { team = -2 ^ 31 - 1 } end,
      "spawn: team must be in -2147483648..2147483647 (got -2147483649)")
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
      "bad argument #2 to 'set_state' (frames must be in 0..2147483647 (got 1099511627776))")
    assert.has_error(function() p:set_state("invincible", -1) end,
      "bad argument #2 to 'set_state' (frames must be in 0..2147483647 (got -1))")
    assert.has_error(function() a:spawn { state = "x" } end,
      "spawn: state must be 'normal', 'invincible' or 'intangible' (got x)")
    assert.has_error(function() a:spawn { state = 1 } end,
      "spawn: state must be 'normal', 'invincible' or 'intangible' (got 1)")
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
