-- The sandbox's limits that close whole classes of attack: C loops a mod can make long, metatable
-- fields that make the VM or the collector loop in C, callbacks that keep timing out, and the
-- arena refusing to be rolled back under its own callbacks. Each case failed before its fix.
local cleave = require "cleave"
local sandbox = require "cleave.sandbox"

local function stick(on_hit)
  return cleave.weapon {
    name = "stick",
    on_hit = on_hit,
    attacks = { swing = { length = 6, hitboxes = {
      { id = "tip", frames = { 2, 4 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4, damage = 10, hitlag = 0 },
    } } },
  }
end

describe("arena:restore inside a callback", function()
  it("is refused before the arena is rolled back", function()
    local errors = {}
    local a = cleave.arena { on_error = function(msg) errors[#errors + 1] = msg end }
    local p = a:spawn { team = 1 }
    a:spawn { x = 25, team = 2, radius = 6 }
    local early = a:snapshot()
    local inside
    a:on_hit(function() a:restore(early) inside = a:hash() end)
    a:attack { weapon = stick(), attack = "swing", owner = p }
    a:step(2)
    assert.are.equal(1, #errors)
    assert.matches("restore: the arena cannot be restored inside one of its callbacks", errors[1])
    assert.is_nil(inside)
    -- the frame the callback saw is still the arena's: the snapshot was not applied
    local b = cleave.arena {}
    b:restore(early)
    assert.are_not.equal(b:hash(), a:hash())
  end)
end)
