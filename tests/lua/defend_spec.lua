-- Bodies that defend, from Lua: the hitbox fields against guard, armor and grabs, the filters,
-- smash knockback, and a body's guard and heavy armor; each mistake names file, line and field.
local cleave = require "cleave"

local function message(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  return err
end

-- A one-attack weapon whose only hitbox is `fields` over a circle of radius 4.
local function box(fields)
  local hb = { id = "b", frames = 1, x = 0, y = 0, radius = 4 }
  for k, v in pairs(fields) do hb[k] = v end
  return cleave.weapon { name = "w", attacks = { a = { length = 2, hitboxes = { cleave.hitbox(hb) } } } }
end

describe("hitbox fields against bodies that defend", function()
  it("keeps every field as given", function()
    local w = box {
      chip = 0.25, blockstun = 7, shield_damage = 3, unblockable = true, hits = "air",
      facing_restrict = "behind", layer = 2, mask = 5, kind = "grab", grab_offset = { 10, -2 },
    }
    local h = w:hitbox("a", 1, "b")
    assert.are.equal(0.25, h.chip)
    assert.are.equal(7, h.blockstun)
    assert.are.equal(3, h.shield_damage)
    assert.is_true(h.unblockable)
    assert.are.equal("air", h.hits)
    assert.are.equal("behind", h.facing_restrict)
    assert.are.equal(2, h.layer)
    assert.are.equal(5, h.mask)
    assert.are.equal("grab", h.kind)
    assert.are.same({ 10, -2 }, h.grab_offset)
  end)

  it("has the documented defaults", function()
    local h = box({}):hitbox("a", 1, "b")
    assert.are.equal(0, h.chip)
    assert.are.equal("auto", h.blockstun)
    assert.are.equal(0, h.shield_damage)
    assert.is_false(h.unblockable)
    assert.are.equal("auto", h.hits)
    assert.are.equal("any", h.facing_restrict)
    assert.are.equal(1, h.layer)
    assert.are.equal(65535, h.mask)
    assert.are.equal("hit", h.kind)
    assert.are.same({ 24, 0 }, h.grab_offset)
  end)

  it("takes them from defaults too", function()
    local w = cleave.weapon { name = "w", defaults = { chip = 0.5, hits = "ground", mask = 3 },
      attacks = { a = { length = 1, hitboxes = { cleave.hitbox { id = "b", frames = 1, x = 0, y = 0, radius = 4 } } } } }
    local h = w:hitbox("a", 1, "b")
    assert.are.equal(0.5, h.chip)
    assert.are.equal("ground", h.hits)
    assert.are.equal(3, h.mask)
  end)

  it("names file, line and field of each bad value", function()
    local cases = {
      { { chip = 2 }, "hitboxes%[1%]%.chip must be in 0%.%.1 %(got 2%)" },
      { { chip = -0.5 }, "hitboxes%[1%]%.chip must be >= 0" },
      { { blockstun = 4000 }, "hitboxes%[1%]%.blockstun must be <= 3600 %(got 4000%)" },
      { { blockstun = "later" },
        "hitboxes%[1%]%.blockstun must be 'auto' or an integer %(got 'later'%)" },
      { { shield_damage = -1 }, "hitboxes%[1%]%.shield_damage must be >= 0 %(got %-1%)" },
      { { unblockable = 1 }, "hitboxes%[1%]%.unblockable must be a boolean %(got integer%)" },
      { { hits = "sky" }, "hitboxes%[1%]%.hits must be 'ground', 'air', 'both' or 'auto' %(got 'sky'%)" },
      { { facing_restrict = "left" }, "hitboxes%[1%]%.facing_restrict must be 'any', 'away', 'front' or 'behind'" },
      { { layer = -1 }, "hitboxes%[1%]%.layer must be >= 0 %(got %-1%)" },
      { { mask = 70000 }, "hitboxes%[1%]%.mask must be <= 65535 %(got 70000%)" },
      { { mask = 1.5 }, "hitboxes%[1%]%.mask must be an integer" },
      { { kind = "throw" }, "hitboxes%[1%]%.kind must be 'hit', 'reflect', 'absorb' or 'grab' %(got 'throw'%)" },
      { { grab_offset = { 1 } }, "hitboxes%[1%]%.grab_offset must be a list of two numbers {x, y} %(got 1 value%)" },
      { { grab_offset = { x = 1 } }, "hitboxes%[1%]%.grab_offset must be a list of two numbers {x, y} %(got a table with key 'x'%)" },
      { { grab_offset = 3 }, "hitboxes%[1%]%.grab_offset must be {x, y} %(got integer%)" },
      { { grab_offset = { 1, 0 / 0 } }, "hitboxes%[1%]%.grab_offset%[2%] must be finite %(got nan%)" },
      { { grab_offset = { 1, 2e9 } }, "hitboxes%[1%]%.grab_offset must be finite, within %+%-1e9" },
    }
    for i, case in ipairs(cases) do
      local err = message(box, case[1])
      assert.matches("defend_spec%.lua:15: attacks%.a%." .. case[2], err, 1, false, "case " .. i)
    end
  end)
end)

describe("smash knockback", function()
  it("reads base, growth, set and an angle in degrees like scaling knockback", function()
    local k = box({ knockback = { kind = "smash", base = 30, growth = 100, set = 40, angle = 45 } })
      :hitbox("a", 1, "b").knockback
    assert.are.equal("smash", k.kind)
    assert.are.equal(30, k.base)
    assert.are.equal(100, k.growth)
    assert.are.equal(40, k.set)
    assert.is_true(math.abs(k.angle - 45) < 1e-4)
  end)

  it("takes angle = 'sakurai'", function()
    local k = box({ knockback = { kind = "smash", base = 30, growth = 100, angle = "sakurai" } })
      :hitbox("a", 1, "b").knockback
    assert.are.equal("sakurai", k.angle)
  end)

  it("refuses what it does not take, naming the field", function()
    local where = "defend_spec%.lua:15: attacks%.a%.hitboxes%[1%]%.knockback"
    assert.matches(where .. "%.angle must be a number of degrees or 'sakurai' %(got 'up'%)",
      message(box, { knockback = { kind = "smash", angle = "up" } }))
    assert.matches(where .. "%.set must be >= 0 %(got %-1%)", message(box, { knockback = { kind = "smash", set = -1 } }))
    assert.matches(where .. ": set does not apply to scaling knockback %(it takes angle, base, growth%)",
      message(box, { knockback = { kind = "scaling", set = 1 } }))
    assert.matches(where .. ": x does not apply to smash knockback %(it takes angle, base, growth, set%)",
      message(box, { knockback = { kind = "smash", x = 1 } }))
    assert.matches(where .. "%.kind must be 'none', 'fixed', 'scaling', 'radial' or 'smash' %(got 'ssb'%)",
      message(box, { knockback = { kind = "ssb" } }))
  end)
end)

describe("a body's guard and heavy armor", function()
  local function body(extra, hurt)
    local t = { name = "b", animations = { idle = { length = 2, hurtboxes = { hurt or { id = "t", x = 0, y = 0, radius = 8 } } } } }
    for k, v in pairs(extra or {}) do t[k] = v end
    return cleave.body(t)
  end

  it("keeps the guard, with the defaults for what it does not say", function()
    assert.are.same({ meter = 50, regen = body():guard().regen, guard_break = 120, all_round = false }, body():guard())
    assert.is_true(math.abs(body():guard().regen - 0.1) < 1e-6)
    local g = body({ guard = { meter = 20, regen = 0.5, guard_break = 30, all_round = true } }):guard()
    assert.are.same({ meter = 20, regen = 0.5, guard_break = 30, all_round = true }, g)
  end)

  it("names the guard's bad fields", function()
    local where = "defend_spec%.lua:%d+: "
    assert.matches(where .. "guard%.meter must be > 0 %(got 0%)", message(body, { guard = { meter = 0 } }))
    assert.matches(where .. "guard%.regen must be >= 0 %(got %-1%)", message(body, { guard = { regen = -1 } }))
    assert.matches(where .. "guard%.guard_break must be <= 3600", message(body, { guard = { guard_break = 3601 } }))
    assert.matches(where .. "guard%.all_round must be a boolean", message(body, { guard = { all_round = "yes" } }))
    assert.matches(where .. "guard: unknown field 'metre' %(did you mean 'meter'%?%)", message(body, { guard = { metre = 3 } }))
    assert.matches(where .. "guard must be a table", message(body, { guard = 5 }))
  end)

  it("reads heavy as armor with a threshold", function()
    local h = body(nil, { id = "t", x = 0, y = 0, radius = 8, heavy = 3 }):hurtboxes("idle", 1)[1]
    assert.are.equal("armor", h.state)
    assert.are.equal(3, h.heavy)
    h = body(nil, { id = "t", x = 0, y = 0, radius = 8, state = "armor" }):hurtboxes("idle", 1)[1]
    assert.is_nil(h.heavy)
  end)

  it("refuses heavy on a hurtbox that is not armor, and a threshold <= 0", function()
    local where = "defend_spec%.lua:%d+: animations%.idle%.hurtboxes%[1%]%.heavy "
    assert.matches(where .. "applies to armor hurtboxes only %(state is 'intangible'%)",
      message(body, nil, { id = "t", x = 0, y = 0, radius = 8, state = "intangible", heavy = 3 }))
    assert.matches(where .. "must be > 0 %(got 0%)", message(body, nil, { id = "t", x = 0, y = 0, radius = 8, heavy = 0 }))
  end)
end)
