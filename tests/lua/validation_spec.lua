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
end)
