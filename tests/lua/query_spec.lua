-- The float queries of the Lua contract: overlaps, distance, contact, closest, raycast.
local cleave = require "cleave"

local function near(expected, actual, tol)
  assert.is_true(math.abs(expected - actual) <= (tol or 1e-5),
    ("expected %.9g, got %.9g"):format(expected, actual))
end

-- Runs a Lua chunk in a fresh lua5.4 that finds cleave.so the way this run does.
local function run_lua(code)
  local cpath = ("package.cpath = %q"):format(package.cpath)
  local cmd = ("lua5.4 -e '%s' -e '%s' 2>&1"):format(cpath:gsub("'", "'\\''"),
    code:gsub("'", "'\\''"))
  local pipe = assert(io.popen(cmd))
  local out = pipe:read("a")
  local ok = pipe:close()
  return out, ok
end

describe("the issue's done-when lines", function()
  it("crossing thin capsules overlap, printed by a plain lua5.4", function()
    local out, ok = run_lua([[local c=require"cleave"
print(c.overlaps(c.capsule(-100,-100,100,100,1), c.capsule(-100,100,100,-100,1)))]])
    assert.is_true(ok, out)
    assert.are.equal("true\n", out)
  end)

  it("exactly touching circles do not overlap in exact mode", function()
    local out, ok = run_lua([[local c=require"cleave"
print(c.exact.overlaps(c.circle(0,0,2), c.circle(3,4,3)))]])
    assert.is_true(ok, out)
    assert.are.equal("false\n", out)
  end)
end)

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
    local box = cleave.obb(0, 0, 10, 1, 90) -- long axis now along y
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

describe("cleave.distance", function()
  it("is the gap between the surfaces, 0 when overlapping or touching", function()
    assert.are.equal(3, cleave.distance(cleave.circle(0, 0, 1), cleave.circle(5, 0, 1)))
    assert.are.equal(5, cleave.distance(cleave.aabb(0, 0, 2, 2), cleave.point(5, 6)))
    assert.are.equal(0, cleave.distance(cleave.circle(0, 0, 1), cleave.circle(2, 0, 1)))
    assert.are.equal(0, cleave.distance(cleave.circle(0, 0, 1), cleave.circle(1, 0, 1)))
    near(4, cleave.distance(cleave.capsule(0, 0, 10, 0, 1), cleave.point(4, 5)))
    assert.are.equal(cleave.distance(cleave.point(4, 5), cleave.capsule(0, 0, 10, 0, 1)),
      cleave.distance(cleave.capsule(0, 0, 10, 0, 1), cleave.point(4, 5)))
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
    nx, ny, depth = cleave.contact(cleave.circle(3, 0, 2), cleave.circle(0, 0, 2))
    near(-1, nx)
    near(0, ny)
    near(1, depth)
    -- y is down: b below a is pushed toward +y
    nx, ny, depth = cleave.contact(cleave.aabb(0, 0, 10, 10), cleave.circle(5, 11, 2))
    near(0, nx)
    near(1, ny)
    near(1, depth)
  end)

  it("gives the true minimum translation when two capsule cores cross", function()
    local nx, ny, depth = cleave.contact(cleave.capsule(-10, 0, 10, 0, 1),
      cleave.capsule(2, -1, 2, 10, 1))
    -- b's core crosses a's; pushing b along +y by 3 makes them touch, +x would need 10
    near(0, nx)
    near(1, ny)
    near(3, depth)
  end)

  it("returns a single nil when the shapes do not overlap", function()
    assert.are.equal(1, select("#", cleave.contact(cleave.circle(0, 0, 1),
      cleave.circle(2, 0, 1))))
    assert.is_nil(cleave.contact(cleave.circle(0, 0, 1), cleave.circle(2, 0, 1)))
  end)

  it("raises on anything but two shapes", function()
    assert.has_error(function() cleave.contact(nil, cleave.point(0, 0)) end,
      "bad argument #1 to 'contact' (cleave.Shape expected, got nil)")
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
    d, ax, ay, bx, by, ta, tb = cleave.closest(cleave.circle(0, 0, 1), cleave.circle(5, 0, 1))
    assert.are.same({ 3, 1, 0, 4, 0, 0, 0 }, { d, ax, ay, bx, by, ta, tb })
  end)

  it("raises on anything but two shapes", function()
    assert.has_error(function() cleave.closest(cleave.point(0, 0)) end,
      "bad argument #2 to 'closest' (cleave.Shape expected, got no value)")
  end)
end)

describe("cleave.raycast", function()
  it("returns the first hit: t in units of the direction, and the outward normal", function()
    local t, nx, ny = cleave.raycast(cleave.circle(10, 0, 2), 0, 0, 1, 0, 100)
    near(8, t)
    near(-1, nx)
    near(0, ny)
    t, nx, ny = cleave.raycast(cleave.aabb(5, -1, 6, 1), 0, 0, 2, 0, 1e9)
    near(2.5, t)
    near(-1, nx)
    near(0, ny)
    t = cleave.circle(10, 0, 2):raycast(0, 0, 1, 0, 100)
    near(8, t)
  end)

  it("returns a single nil on a miss or beyond max_t", function()
    assert.are.equal(1, select("#", cleave.raycast(cleave.circle(10, 0, 2), 0, 0, 0, 1, 100)))
    assert.is_nil(cleave.raycast(cleave.circle(10, 0, 2), 0, 0, 0, 1, 100))
    assert.is_nil(cleave.raycast(cleave.circle(10, 0, 2), 0, 0, 1, 0, 5))
    assert.is_nil(cleave.raycast(cleave.circle(10, 0, 2), 0, 0, 1, 0, 0))
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
    near(0.4, cleave.circle(0, 0, 1):sweep(10, 0, cleave.circle(6, 0, 1)))
    -- already overlapping: t = 0
    assert.are.equal(0, cleave.sweep(cleave.circle(0, 0, 1), 10, 0, cleave.circle(1, 0, 1)))
  end)

  it("returns a single nil when they never meet", function()
    local moving, target = cleave.circle(0, 0, 1), cleave.circle(6, 5, 1)
    assert.are.equal(1, select("#", cleave.sweep(moving, 10, 0, target)))
    assert.is_nil(cleave.sweep(moving, 10, 0, target))
    assert.is_nil(cleave.sweep(cleave.circle(0, 0, 1), 3, 0, cleave.circle(6, 0, 1)))
  end)

  it("checks its arguments", function()
    local s = cleave.circle(0, 0, 1)
    assert.has_error(function() cleave.sweep(s, 0 / 0, 0, s) end,
      "bad argument #2 to 'sweep' (dx must not be nan)")
    assert.has_error(function() cleave.sweep(s, 0, -math.huge, s) end,
      "bad argument #3 to 'sweep' (dy must be finite, got -inf)")
    assert.has_error(function() cleave.sweep(s, 1, 0) end,
      "bad argument #4 to 'sweep' (cleave.Shape expected, got no value)")
    assert.has_error(function() cleave.sweep(s, 1, 0, s, 0) end,
      "bad argument #5 to 'sweep' (no value expected, got number)")
    assert.has_error(function() s:sweep("1", 0, s) end,
      "bad argument #1 to 'sweep' (number expected, got string)")
  end)
end)
