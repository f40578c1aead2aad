-- cleave.body: animations of hurtboxes, read back frame by frame; every mistake names its field.
local cleave = require "cleave"

local function fighter()
  return cleave.body {
    name = "fighter",
    animations = {
      idle = { length = 4, loop = true, hurtboxes = { { id = "torso", x = 0, y = 0, radius = 10 } } },
      punch = {
        length = 12,
        hurtboxes = {
          { id = "torso", x = 0, y = 0, radius = 10 },
          { id = "arm", frames = { 5, 6 }, ax = 0, ay = 0, bx = 24, by = 0, radius = 4 },
          { id = "arm", frames = { 7, 9 }, ax = 0, ay = 0, bx = 24, by = 0, radius = 4, state = "intangible" },
        },
        frames = { [10] = { { id = "fist", x = 26, y = 0, radius = 5, state = "armor" } } },
      },
    },
  }
end

local function message(f)
  local ok, err = pcall(f)
  assert.is_false(ok)
  return err
end

describe("cleave.body", function()
  it("keeps each frame's hurtboxes, in order, with their states", function()
    local b = fighter()
    assert.are.equal("fighter", b:name())
    assert.are.same({ { name = "idle", length = 4, loop = true }, { name = "punch", length = 12, loop = false } },
      b:animations())
    local f8 = b:hurtboxes("punch", 8)
    assert.are.equal(2, #f8)
    assert.are.equal("torso", f8[1].id)
    assert.are.equal("arm", f8[2].id)
    assert.are.equal("intangible", f8[2].state)
    assert.are.equal("capsule", f8[2].shape:kind())
    assert.are.equal("normal", b:hurtboxes("punch", 5)[2].state)
    assert.are.equal("armor", b:hurtboxes("punch", 10)[2].state)
    assert.are.equal(1, #b:hurtboxes("punch", 11))
    local ok, err = pcall(b.hurtboxes, b, "punch", 13)
    assert.is_false(ok)
    assert.matches("bad argument #3 to 'hurtboxes' %(frame must be in 1%.%.12, got 13%)", err)
  end)

  it("says which frame an animation shows: looping ones wrap, others hold", function()
    local b = fighter()
    assert.are.equal(2, b:frame_at("idle", 5))
    assert.are.equal(6, b:frame_at("punch", 5))
    assert.are.equal(12, b:frame_at("punch", 500))
  end)

  it("names the line of a hurtbox wrapped in cleave.hitbox, else the cleave.body call", function()
    local line = debug.getinfo(1, "l").currentline
    local function broken(wrap)
      return message(function()
        cleave.body { name = "b", animations = { idle = { length = 1, hurtboxes = {
          { id = "a", x = 0, y = 0, radius = 1 },
          wrap { id = "t", x = 0, y = 0, radius = -4 } } } } }
      end)
    end
    assert.are.equal(("tests/lua/body_spec.lua:%d: animations.idle.hurtboxes[2].radius must be >= 0 (got -4)"):format(line + 5),
      broken(cleave.hitbox))
    assert.are.equal(("tests/lua/body_spec.lua:%d: animations.idle.hurtboxes[2].radius must be >= 0 (got -4)"):format(line + 3),
      broken(function(t) return t end))
  end)

  it("names the field of every mistake", function()
    local l = debug.getinfo(1, "l").currentline
    local err = message(function()
      cleave.body { name = "b", animations = { idle = { length = 3, hurtboxes = {
        { id = "leg", x = 0, y = 0, radius = -2 } } } } }
    end)
    assert.are.equal(("%s:%d: animations.idle.hurtboxes[1].radius must be >= 0 (got -2)")
      :format(debug.getinfo(1, "S").short_src, l + 2), err)
    err = message(function()
      cleave.body { name = "b", animations = { idle = { length = 3, hurtboxes = {
        { id = "leg", x = 0, y = 0, radius = 2, state = "ghost" } } } } }
    end)
    assert.matches("animations%.idle%.hurtboxes%[1%]%.state must be normal, invincible, intangible or armor %(got 'ghost'%)$", err)
    err = message(function()
      cleave.body { name = "b", animations = { idle = { length = 3, hurtboxes = {
        { id = "leg", frames = { 2, 4 }, x = 0, y = 0, radius = 2 } } } } }
    end)
    assert.matches("animations%.idle%.hurtboxes%[1%]%.frames%[2%] is past the animation's last frame 3 %(got 4%)$", err)
    err = message(function()
      cleave.body { name = "b", animations = { idle = { length = 3, frames = { [5] = {} } } } }
    end)
    assert.matches("animations%.idle%.frames holds frame 5, past the animation's last frame %(length 3%)$", err)
    err = message(function()
      cleave.body { name = "b", animations = { idle = { length = 3, hurtboxs = {} } } }
    end)
    assert.matches("did you mean 'hurtboxes'", err)
    err = message(function()
      cleave.body { name = "b", animations = { idle = { length = 2, hurtboxes = {
        { id = "a", x = 0, y = 0, radius = 1 }, { id = "a", x = 1, y = 0, radius = 1 } } } } }
    end)
    assert.matches("hurtbox id 'a' is used twice on frame 1", err)
    err = message(function() cleave.body { name = "b", animations = {} } end)
    assert.matches("animations must hold at least one animation$", err)
    err = message(function()
      cleave.body { name = "b", animations = { idle = { length = 2, hurtboxes = { { id = "a", radius = 1 } } } } }
    end)
    assert.matches("animations%.idle%.hurtboxes%[1%]: needs a shape", err)
  end)

  it("refuses a 17th hurtbox on a frame", function()
    local list = {}
    for k = 1, 17 do list[k] = { id = "h" .. k, x = k, y = 0, radius = 1 } end
    local err = message(function()
      cleave.body { name = "b", animations = { idle = { length = 1, hurtboxes = list } } }
    end)
    assert.matches("frame 1 already holds 16 hurtboxes, the most a frame may", err)
  end)
end)
