-- The events arena:step keeps for hits() and misses(): one frame's are read where the arena
-- keeps them, several frames' are gathered; either way they read the same until the next step
-- or restore, whatever the script does to the arena in between.
local cleave = require "cleave"

local function stick(on_hit)
  return cleave.weapon {
    name = "stick",
    on_hit = on_hit,
    attacks = { swing = { length = 6, hitboxes = {
      { id = "tip", frames = { 2, 4 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4, damage = 10,
        hitlag = 0 },
    } } },
  }
end

-- An arena whose player swings at one enemy in reach and one out of it.
local function scene(w)
  local a = cleave.arena { miss_margin = 50 }
  local p = a:spawn { x = 0, y = 0, team = 1, name = "player" }
  local near = a:spawn { x = 25, y = 0, team = 2, name = "near", radius = 6 }
  local far = a:spawn { x = 70, y = 0, team = 2, name = "far", radius = 6 }
  local swing = a:attack { weapon = w or stick(), attack = "swing", owner = p }
  return a, p, near, far, swing
end

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
