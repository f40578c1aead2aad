-- Shapes: constructors, argument checking with the exact messages, read-back, tostring.
local cleave = require "cleave"

local function unpack_all(s)
  return { s:unpack() }
end

describe("cleave shape constructors", function()
  it("build each kind and read it back as given", function()
    assert.are.equal("point", cleave.point(1, 2):kind())
    assert.are.equal("circle", cleave.circle(1, 2, 3):kind())
    assert.are.equal("capsule", cleave.capsule(1, 2, 3, 4, 5):kind())
    assert.are.equal("aabb", cleave.aabb(1, 2, 3, 4):kind())
    assert.are.equal("obb", cleave.obb(1, 2, 3, 4, 5):kind())
    assert.are.same({ 1, 2 }, unpack_all(cleave.point(1, 2)))
    assert.are.same({ 1, 2, 3 }, unpack_all(cleave.circle(1, 2, 3)))
    assert.are.same({ -1, -2, 3, 4, 0.5 }, unpack_all(cleave.capsule(-1, -2, 3, 4, 0.5)))
    assert.are.same({ 1, 2, 3, 4 }, unpack_all(cleave.aabb(1, 2, 3, 4)))
    assert.are.same({ 0, 0, 10, 2, -30 }, unpack_all(cleave.obb(0, 0, 10, 2, -30)))
  end)

  it("accept the degenerate shapes the overlap rule defines", function()
    assert.are.equal("capsule", cleave.capsule(3, 3, 3, 3, 1):kind()) -- a == b
    assert.are.equal("capsule", cleave.capsule(0, 0, 5, 0, 0):kind()) -- r == 0
    assert.are.equal("circle", cleave.circle(0, 0, 0):kind())
    assert.are.equal("aabb", cleave.aabb(1, 1, 1, 1):kind()) -- min == max
    assert.are.equal("obb", cleave.obb(0, 0, 0, 0, 0):kind())
  end)

  it("keep integers as integers and floats at full precision", function()
    local x, y, r = cleave.circle(16777217, -9007199254740993, 1):unpack()
    assert.are.equal("integer", math.type(x))
    assert.are.equal(16777217, x) -- not representable as a float32
    assert.are.equal(-9007199254740993, y) -- not even as a double
    assert.are.equal("integer", math.type(r))
    local fx, _, fr = cleave.circle(0.1, 0, 2.0):unpack()
    assert.are.equal("float", math.type(fx))
    assert.are.equal(0.1, fx) -- the double 0.1, not float32(0.1)
    assert.are.equal("float", math.type(fr))
  end)

  it("build an obb's axis exactly at quarter turns (degrees, +x toward +y)", function()
    -- a float cos(pi/2) is not 0: the box would come out tilted and a hair too wide
    assert.are.same({ -1, -10, 1, 10 }, { cleave.obb(0, 0, 10, 1, 90):bounds() })
    assert.are.same({ -10, -1, 10, 1 }, { cleave.obb(0, 0, 10, 1, 180):bounds() })
    assert.are.same({ -1, -10, 1, 10 }, { cleave.obb(0, 0, 10, 1, -270):bounds() })
    assert.are.same({ -10, -1, 10, 1 }, { cleave.obb(0, 0, 10, 1, 720):bounds() })
    -- +30 degrees turns the long axis toward +y: 5 units along it is (4.33, 2.5)
    local box = cleave.obb(0, 0, 10, 1, 30)
    assert.is_true(cleave.overlaps(box, cleave.point(4.33, 2.5)))
    assert.is_false(cleave.overlaps(box, cleave.point(4.33, -2.5)))
  end)

  it("report bounds in float", function()
    assert.are.same({ -1, -1, 9, 1 }, { cleave.capsule(0, 0, 8, 0, 1):bounds() })
    assert.are.same({ -1, -2, 9, 2 }, { cleave.capsule(0, -1, 8, 1, 1):bounds() })
    assert.are.same({ 2, 3, 2, 3 }, { cleave.point(2, 3):bounds() })
    assert.are.same({ 1, 1, 5, 5 }, { cleave.aabb(1, 1, 5, 5):bounds() })
  end)

  it("compare equal when kind and numbers are equal", function()
    assert.are.equal(cleave.circle(0, 0, 1), cleave.circle(0, 0, 1.0))
    assert.are_not.equal(cleave.circle(0, 0, 1), cleave.circle(0, 0, 2))
    assert.are_not.equal(cleave.point(0, 0), cleave.circle(0, 0, 0))
    assert.is_true(cleave.aabb(0, 0, 1, 1) == cleave.aabb(0, 0, 1, 1))
    assert.is_false(cleave.aabb(0, 0, 1, 1) == io.stdout)
  end)

  it("are recognised by is_shape", function()
    assert.is_true(cleave.is_shape(cleave.point(0, 0)))
    assert.is_false(cleave.is_shape({}))
    assert.is_false(cleave.is_shape(nil))
    assert.is_false(cleave.is_shape(io.stdout))
    assert.has_error(function() cleave.is_shape() end,
      "bad argument #1 to 'is_shape' (value expected, got no value)")
  end)

  it("hide their metatable", function()
    assert.is_false(getmetatable(cleave.point(0, 0)))
  end)
end)

describe("cleave shape tostring", function()
  it("prints the constructor call, integers without .0", function()
    assert.are.equal("capsule(-100, -100, 100, 100, r=1)",
      tostring(cleave.capsule(-100, -100, 100, 100, 1)))
    assert.are.equal("point(1, 2.5)", tostring(cleave.point(1, 2.5)))
    assert.are.equal("circle(0, 0, r=2.0)", tostring(cleave.circle(0, 0, 2.0)))
    assert.are.equal("aabb(0, -3, 0.1, 1e+20)", tostring(cleave.aabb(0, -3, 0.1, 1e20)))
    assert.are.equal("obb(1, 2, 3, 4, angle=30)", tostring(cleave.obb(1, 2, 3, 4, 30)))
  end)

  it("prints floats with enough digits to tell them apart", function()
    assert.are.equal("circle(0.30000000000000004, 0, r=1)",
      tostring(cleave.circle(0.1 + 0.2, 0, 1)))
    assert.are.equal("point(16777217, -0.0)", tostring(cleave.point(16777217, -0.0)))
  end)
end)

describe("cleave shape argument errors", function()
  it("refuse a wrong type, numeric strings included", function()
    assert.has_error(function() cleave.circle("a", 0, 1) end,
      "bad argument #1 to 'circle' (number expected, got string)")
    assert.has_error(function() cleave.point(0, "1") end,
      "bad argument #2 to 'point' (number expected, got string)")
    assert.has_error(function() cleave.capsule(0, 0, {}, 0, 1) end,
      "bad argument #3 to 'capsule' (number expected, got table)")
    assert.has_error(function() cleave.aabb(0, 0, 1, nil) end,
      "bad argument #4 to 'aabb' (number expected, got nil)")
    assert.has_error(function() cleave.obb(0, 0, 1, 1, cleave.point(0, 0)) end,
      "bad argument #5 to 'obb' (number expected, got cleave.Shape)")
  end)

  it("refuse missing and extra arguments", function()
    assert.has_error(function() cleave.circle(0, 0) end,
      "bad argument #3 to 'circle' (number expected, got no value)")
    assert.has_error(function() cleave.obb(0, 0, 1, 1) end,
      "bad argument #5 to 'obb' (number expected, got no value)")
    assert.has_error(function() cleave.point(0, 0, 1) end,
      "bad argument #3 to 'point' (no value expected, got number)")
    assert.has_error(function() cleave.aabb(0, 0, 1, 1, nil) end,
      "bad argument #5 to 'aabb' (no value expected, got nil)")
  end)

  it("refuse nan, infinities and values beyond float range", function()
    local nan, inf = 0 / 0, math.huge
    assert.has_error(function() cleave.point(nan, 0) end,
      "bad argument #1 to 'point' (x must not be nan)")
    assert.has_error(function() cleave.circle(0, 0, nan) end,
      "bad argument #3 to 'circle' (radius must not be nan)")
    assert.has_error(function() cleave.point(0, inf) end,
      "bad argument #2 to 'point' (y must be finite, got inf)")
    assert.has_error(function() cleave.capsule(0, 0, -inf, 0, 1) end,
      "bad argument #3 to 'capsule' (bx must be finite, got -inf)")
    assert.has_error(function() cleave.aabb(0, 0, 1e39, 1) end,
      "bad argument #3 to 'aabb' (max_x must fit in a float, got 1e+39)")
    assert.has_error(function() cleave.obb(0, 0, 1, 1, -3.5e38) end,
      "bad argument #5 to 'obb' (angle must fit in a float, got -3.5e+38)")
    assert.has_error(function() cleave.obb(0, 0, 1, 1, inf) end,
      "bad argument #5 to 'obb' (angle must be finite, got inf)")
    -- the largest float itself is fine, and so is every integer
    assert.are.equal("circle", cleave.circle(3.4028234663852886e38, 0, 1):kind())
    assert.are.equal("point", cleave.point(math.maxinteger, math.mininteger):kind())
  end)

  it("refuse a negative radius", function()
    assert.has_error(function() cleave.capsule(-100, -100, 100, 100, -1) end,
      "bad argument #5 to 'capsule' (radius must be >= 0, got -1)")
    assert.has_error(function() cleave.circle(0, 0, -0.5) end,
      "bad argument #3 to 'circle' (radius must be >= 0, got -0.5)")
    assert.has_error(function() cleave.circle(0, 0, -1e-300) end,
      "bad argument #3 to 'circle' (radius must be >= 0, got -1e-300)")
  end)

  it("refuse a negative box extent", function()
    assert.has_error(function() cleave.obb(0, 0, -2, 1, 0) end,
      "bad argument #3 to 'obb' (half_w must be >= 0, got -2)")
    assert.has_error(function() cleave.obb(0, 0, 1, -0.25, 0) end,
      "bad argument #4 to 'obb' (half_h must be >= 0, got -0.25)")
  end)

  it("refuse an aabb whose min is above its max", function()
    assert.has_error(function() cleave.aabb(10, 0, 5, 1) end,
      "bad argument #3 to 'aabb' (max_x must be >= min_x (10), got 5)")
    assert.has_error(function() cleave.aabb(0, 1.5, 1, 1.25) end,
      "bad argument #4 to 'aabb' (max_y must be >= min_y (1.5), got 1.25)")
    assert.has_error(function() cleave.aabb(-0.5, 0, -1, 1) end,
      "bad argument #3 to 'aabb' (max_x must be >= min_x (-0.5), got -1)")
    assert.has_error(function() cleave.aabb(0, 0.5, 1, 0) end,
      "bad argument #4 to 'aabb' (max_y must be >= min_y (0.5), got 0)")
    assert.are.equal("aabb", cleave.aabb(-1, 0.5, -0.5, 1):kind())
    -- compared at full precision: these two differ only beyond float32 (and double) precision
    assert.has_error(function() cleave.aabb(0, 9007199254740993, 1, 9007199254740992) end,
      "bad argument #4 to 'aabb' (max_y must be >= min_y (9007199254740993), " ..
      "got 9007199254740992)")
    assert.has_error(function() cleave.aabb(0, 9007199254740993, 1, 9007199254740992.0) end,
      "bad argument #4 to 'aabb' (max_y must be >= min_y (9007199254740993), " ..
      "got 9007199254740992.0)")
    assert.are.equal("aabb", cleave.aabb(0, 9007199254740992.0, 1, 9007199254740993):kind())
  end)

  it("name the method when called through a shape", function()
    local s = cleave.point(0, 0)
    assert.has_error(function() s:kind(1) end,
      "bad argument #1 to 'kind' (no value expected, got number)")
    assert.has_error(function() s.unpack(42) end,
      "bad argument #1 to 'unpack' (cleave.Shape expected, got number)")
    assert.has_error(function() s.bounds() end,
      "bad argument #1 to 'bounds' (cleave.Shape expected, got no value)")
  end)
end)
