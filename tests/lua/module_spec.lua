-- The module itself: one plain table, no globals, names in errors.
local cleave = require "cleave"

local API = {
  "_VERSION", "aabb", "arc", "arena", "body", "capsule", "circle", "closest", "contact", "distance",
  "effect", "exact", "frames", "hitbox", "is_shape", "load_mod", "obb", "overlaps", "point",
  "raycast", "reload_mod", "sandbox", "sweep", "thrust", "weapon",
}

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do
    keys[#keys + 1] = k
  end
  table.sort(keys)
  return keys
end

describe("require 'cleave'", function()
  it("runs under Lua 5.4", function()
    assert.are.equal("Lua 5.4", _VERSION)
  end)

  it("returns one table, the same one each time", function()
    assert.are.equal("table", type(cleave))
    assert.are.equal(cleave, require "cleave")
    assert.matches("^cleave %d+%.%d+%.%d+$", cleave._VERSION)
  end)

  it("writes no globals", function()
    local before = sorted_keys(_G)
    local saved = package.loaded.cleave
    package.loaded.cleave = nil
    local again = require "cleave"
    package.loaded.cleave = saved
    assert.are.same(before, sorted_keys(_G))
    assert.are.equal("table", type(again))
  end)

  it("lists the API through pairs", function()
    local keys = sorted_keys(cleave)
    assert.are.same(API, keys)
    assert.are.same({ "overlaps" }, sorted_keys(cleave.exact))
  end)

  it("is a plain table, cleave.exact a loaded module of its own", function()
    assert.is_nil(getmetatable(cleave))
    assert.is_nil(getmetatable(cleave.exact))
    -- where luaL_argerror finds the names of functions called through pcall
    assert.are.equal(cleave.circle, package.loaded.cleave.circle)
    assert.are.equal(cleave.exact.overlaps, package.loaded["cleave.exact"].overlaps)
  end)

  it("names the function in errors even when the call site cannot", function()
    local ok, err = pcall(cleave.circle, "x", 0, 1)
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'cleave.circle' (number expected, got string)", err)
    ok, err = pcall(cleave.exact.overlaps, cleave.point(0, 0))
    assert.is_false(ok)
    assert.are.equal(
      "bad argument #2 to 'cleave.exact.overlaps' (cleave.Shape expected, got no value)", err)
    ok, err = pcall(cleave.raycast, cleave.point(0, 0), 0, 0, 1, 0, -1)
    assert.is_false(ok)
    assert.are.equal("bad argument #6 to 'cleave.raycast' (max_t must be >= 0, got -1)", err)
  end)

  it("uses the local name a script gave the function", function()
    local circle = cleave.circle
    assert.has_error(function() circle(0, 0, -1) end,
      "bad argument #3 to 'circle' (radius must be >= 0, got -1)")
    local make = cleave.capsule
    assert.has_error(function() make(0, 0, 0, 0, -1) end,
      "bad argument #5 to 'make' (radius must be >= 0, got -1)")
  end)
end)
