-- cleave.exact: integer-only overlap, never wrong, and the errors that say why a shape is refused.
local cleave = require "cleave"
local exact = cleave.exact
local LIMIT = 1 << 30

describe("cleave.exact.overlaps", function()
  it("counts exact touching as no overlap", function()
    assert.is_false(exact.overlaps(cleave.circle(0, 0, 2), cleave.circle(3, 4, 3)))
    assert.is_true(exact.overlaps(cleave.circle(0, 0, 2), cleave.circle(3, 4, 4)))
    assert.is_false(exact.overlaps(cleave.aabb(0, 0, 10, 10), cleave.point(10, 5)))
    assert.is_true(exact.overlaps(cleave.aabb(0, 0, 10, 10), cleave.point(9, 5)))
    assert.is_false(exact.overlaps(cleave.point(3, 3), cleave.point(3, 3)))
    -- a capsule's side: (0, 0)-(10, 0) grown by 5 touches (5, 5) and (3, -5)
    assert.is_false(exact.overlaps(cleave.capsule(0, 0, 10, 0, 5), cleave.point(5, 5)))
    assert.is_true(exact.overlaps(cleave.capsule(0, 0, 10, 0, 5), cleave.point(5, 4)))
    assert.is_false(exact.overlaps(cleave.point(3, -5), cleave.capsule(0, 0, 10, 0, 5)))
  end)

  it("agrees with the float test away from the boundary", function()
    local a = cleave.capsule(-100, -100, 100, 100, 1)
    local b = cleave.capsule(-100, 100, 100, -100, 1)
    assert.is_true(exact.overlaps(a, b))
    assert.are.equal(cleave.overlaps(a, b), exact.overlaps(a, b))
  end)

  it("sees integers a float32 cannot hold", function()
    -- float32 rounds 2^24 + 1 to 2^24 and 2^25 + 1 to 2^25: the circles would just touch
    local r = (1 << 24) + 1
    assert.is_true(exact.overlaps(cleave.circle(0, 0, r), cleave.circle((1 << 25) + 1, 0, r)))
    assert.is_false(exact.overlaps(cleave.circle(0, 0, r), cleave.circle((1 << 25) + 2, 0, r)))
  end)

  it("works at the limits of the range", function()
    local diag = cleave.capsule(-LIMIT, -LIMIT, LIMIT, LIMIT, 1)
    assert.is_true(exact.overlaps(diag, cleave.capsule(-LIMIT, LIMIT, LIMIT, -LIMIT, 0)))
    assert.is_true(exact.overlaps(diag, cleave.point(0, 0)))
    assert.is_false(exact.overlaps(cleave.circle(-LIMIT, 0, LIMIT), cleave.circle(LIMIT, 0, LIMIT)))
    assert.is_true(exact.overlaps(cleave.circle(-LIMIT, 0, LIMIT), cleave.circle(1, 0, 2)))
    assert.is_false(exact.overlaps(cleave.circle(-LIMIT, 0, LIMIT), cleave.circle(2, 0, 2)))
    assert.is_true(exact.overlaps(cleave.aabb(-LIMIT, -LIMIT, LIMIT, LIMIT), cleave.point(0, 0)))
  end)

  it("accepts integral floats as the integers they are", function()
    assert.is_false(exact.overlaps(cleave.circle(0.0, 0.0, 2.0), cleave.circle(3.0, 4, 3)))
    assert.is_true(exact.overlaps(cleave.circle(2.0 ^ 30, 0, 1), cleave.point(LIMIT, 0)))
  end)

  it("refuses an obb: no rotation is integral", function()
    assert.has_error(function() exact.overlaps(cleave.obb(0, 0, 1, 1, 0), cleave.point(0, 0)) end,
      "bad argument #1 to 'overlaps' (exact mode: obb is not supported)")
    assert.has_error(function() exact.overlaps(cleave.point(0, 0), cleave.obb(0, 0, 1, 1, 0)) end,
      "bad argument #2 to 'overlaps' (exact mode: obb is not supported)")
  end)

  it("refuses a non-integral value, naming the shape's position", function()
    assert.has_error(function() exact.overlaps(cleave.point(0, 0), cleave.circle(0.5, 0, 1)) end,
      "bad argument #2 to 'overlaps' (exact mode: x must be an integer, got 0.5)")
    assert.has_error(function()
      exact.overlaps(cleave.capsule(0, 0, 1, 1, 1e-9), cleave.point(0, 0))
    end, "bad argument #1 to 'overlaps' (exact mode: radius must be an integer, got 1e-09)")
    assert.has_error(function() exact.overlaps(cleave.aabb(0, 0, 1, 1.25), cleave.point(0, 0)) end,
      "bad argument #1 to 'overlaps' (exact mode: max_y must be an integer, got 1.25)")
  end)

  it("refuses a value outside [-2^30, 2^30], or a radius outside [0, 2^30]", function()
    assert.has_error(function()
      exact.overlaps(cleave.point(0, 0), cleave.capsule(0, 0, LIMIT + 1, 0, 1))
    end, "bad argument #2 to 'overlaps' (exact mode: bx must be in [-2^30, 2^30], got 1073741825)")
    assert.has_error(function()
      exact.overlaps(cleave.point(-LIMIT - 1, 0), cleave.point(0, 0))
    end, "bad argument #1 to 'overlaps' (exact mode: x must be in [-2^30, 2^30], got -1073741825)")
    assert.has_error(function()
      exact.overlaps(cleave.circle(0, 0, LIMIT + 1), cleave.point(0, 0))
    end, "bad argument #1 to 'overlaps' (exact mode: radius must be in [0, 2^30], got 1073741825)")
    assert.has_error(function()
      exact.overlaps(cleave.point(0, 0), cleave.aabb(0, 0, 1, 2.0 ^ 31))
    end, "bad argument #2 to 'overlaps' (exact mode: max_y must be in [-2^30, 2^30], " ..
      "got 2147483648.0)")
  end)

  it("raises on anything but two shapes", function()
    assert.has_error(function() exact.overlaps(cleave.point(0, 0), 1) end,
      "bad argument #2 to 'overlaps' (cleave.Shape expected, got number)")
    assert.has_error(function() exact.overlaps(cleave.point(0, 0), cleave.point(1, 1), 1) end,
      "bad argument #3 to 'overlaps' (no value expected, got number)")
  end)
end)
