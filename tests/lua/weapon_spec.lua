-- cleave.weapon: validation with file:line:path messages, defaults, frame ranges, generators.
local cleave = require "cleave"

local here = debug.getinfo(1, "S").short_src

-- The message of the error f raises, with the spec file's name replaced by "@".
local function err_of(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok)
  return (tostring(e):gsub(here:gsub("%p", "%%%0"), "@"))
end

local function line() return debug.getinfo(2, "l").currentline end

describe("cleave.weapon", function()
  it("compiles attacks, frame ranges (1-based, inclusive) and frame lists", function()
    local w = cleave.weapon {
      name = "stick",
      attacks = {
        swing = {
          length = 8,
          hitboxes = { { id = "tip", frames = { 2, 4 }, ax = 0, ay = 0, bx = 20, by = 0, radius = 3 } },
          frames = { [6] = { { id = "late", x = 10, y = 0, radius = 4 } } },
        },
        jab = { hitboxes = { { id = "fist", frames = 3, x = 8, y = 0, radius = 2 } } },
      },
    }
    assert.are.equal("stick", w:name())
    assert.are.same({ "jab", "swing" }, w:attacks()) -- sorted by name
    assert.are.equal(8, w:length("swing"))
    assert.are.equal(3, w:length("jab")) -- length defaults to the last frame used
    assert.are.same({}, w:hitboxes("swing", 1))
    assert.are.same({ "tip" }, w:hitboxes("swing", 2))
    assert.are.same({ "tip" }, w:hitboxes("swing", 4))
    assert.are.same({}, w:hitboxes("swing", 5))
    assert.are.same({ "late" }, w:hitboxes("swing", 6))
    assert.are.equal("capsule", w:hitbox("swing", 3, "tip").shape:kind())
    assert.are.equal("circle", w:hitbox("swing", 6, "late").shape:kind())
    -- under pcall a method has no name at its call site; the message still names it
    assert.are.equal("bad argument #3 to 'hitboxes' (frame must be an integer in 1..8, got 9)",
      err_of(w.hitboxes, w, "swing", 9))
    assert.are.equal("bad argument #2 to 'length' (weapon 'stick' has no attack 'slash')",
      err_of(w.length, w, "slash"))
  end)

  it("merges weapon defaults, then attack defaults, under each hitbox's own fields", function()
    local w = cleave.weapon {
      defaults = { damage = 7, max_hits = 2, knockback = { angle = -45, base = 3 } },
      attacks = {
        a = {
          defaults = { damage = 9 },
          hitboxes = {
            { id = "one", frames = 1, x = 0, y = 0, radius = 1 },
            { id = "two", frames = 1, x = 0, y = 0, radius = 1, damage = 2, hitlag = 4 },
          },
        },
        b = { hitboxes = { { id = "three", frames = 1, x = 0, y = 0, radius = 1 } } },
      },
    }
    local one, two, three = w:hitbox("a", 1, "one"), w:hitbox("a", 1, "two"), w:hitbox("b", 1, "three")
    assert.are.equal(9, one.damage)
    assert.are.equal(2, two.damage)
    assert.are.equal(7, three.damage)
    assert.are.equal(2, one.max_hits)
    assert.are.equal("auto", one.hitlag)
    assert.are.equal(4, two.hitlag)
    assert.are.equal("scaling", three.knockback.kind)
    assert.are.near(-45, three.knockback.angle, 1e-4)
  end)

  it("says when a wrong value came from defaults, and from which", function()
    local function weapon_with(wd, ad, hb)
      local box = { id = "one", frames = 1, x = 0, y = 0, radius = 1 }
      for k, v in pairs(hb or {}) do box[k] = v ~= "none" and v or nil end
      return err_of(cleave.weapon, { defaults = wd, attacks = { a = { defaults = ad, hitboxes = { box } } } })
    end
    assert.matches("attacks.a.hitboxes[1].damage (from the weapon's defaults) must be finite (got nan)",
      weapon_with({ damage = 0 / 0 }), 1, true)
    assert.matches("attacks.a.hitboxes[1].knockback (from the attack's defaults): unknown field 'grwoth' (did you mean 'growth'?)",
      weapon_with(nil, { knockback = { grwoth = 1 } }), 1, true)
    -- inside a table from defaults the remark follows the whole path, as cleave_hit's checks say
    assert.matches("attacks.a.hitboxes[1].knockback.angle (from the weapon's defaults) must be finite (got nan)",
      weapon_with({ knockback = { angle = 0 / 0 } }), 1, true)
    assert.matches("attacks.a.hitboxes[1].knockback.growth (from the weapon's defaults) must be >= 0 (got -1)",
      weapon_with({ knockback = { growth = -1 } }), 1, true)
    -- cleave_hit's own checks (radius >= 0) too; the attack's defaults win over the weapon's
    assert.matches("attacks.a.hitboxes[1].radius (from the attack's defaults) must be >= 0 (got -1)",
      weapon_with({ radius = 2 }, { radius = -1 }, { radius = "none" }), 1, true)
    assert.matches("attacks.a.hitboxes[1].damage (from the weapon's defaults) must be >= 0 (got -5)",
      weapon_with({ damage = -5 }), 1, true)
    -- a hitbox's own value has no remark
    assert.matches("attacks.a.hitboxes[1].damage must be >= 0 (got -5)",
      weapon_with({ damage = 1 }, nil, { damage = -5 }), 1, true)
  end)

  it("generates an arc: one capsule per frame rotating about the pivot", function()
    local w = cleave.weapon {
      attacks = { swing = { hitboxes = {
        cleave.arc { id = "blade", frames = { 1, 3 }, from = 0, to = 90, inner = 10, outer = 30, radius = 2 },
      } } },
    }
    local ax, ay, bx, by = w:hitbox("swing", 1, "blade").shape:unpack()
    assert.are.same({ 10, 0, 30, 0 }, { ax, ay, bx, by })
    ax, ay, bx, by = w:hitbox("swing", 2, "blade").shape:unpack()
    local c = math.cos(math.rad(45))
    for _, pair in ipairs { { 10 * c, ax }, { 10 * c, ay }, { 30 * c, bx }, { 30 * c, by } } do
      assert.are.near(pair[1], pair[2], 1e-4)
    end
    ax, ay, bx, by = w:hitbox("swing", 3, "blade").shape:unpack()
    for _, pair in ipairs { { 0, ax }, { 10, ay }, { 0, bx }, { 30, by } } do
      assert.are.near(pair[1], pair[2], 1e-4)
    end
  end)

  it("eases an arc and splits it into trailing links", function()
    local w = cleave.weapon {
      attacks = { swing = { hitboxes = {
        cleave.arc { id = "c", frames = { 1, 5 }, from = 0, to = 80, outer = 40, radius = 2,
                     ease = "in", links = 2, lag = 1 },
      } } },
    }
    assert.are.same({ "c1", "c2" }, w:hitboxes("swing", 3))
    -- frame 3 of 5: u = 0.5, eased in: 0.25 -> 20 degrees; link 2 lags a frame: u = .25 -> 5
    local _, _, bx, by = w:hitbox("swing", 3, "c1").shape:unpack()
    assert.are.near(20, math.deg(math.atan(by, bx)), 1e-3)
    local _, _, bx2, by2 = w:hitbox("swing", 3, "c2").shape:unpack()
    assert.are.near(5, math.deg(math.atan(by2, bx2)), 1e-3)
    assert.are.near(40, math.sqrt(bx2 * bx2 + by2 * by2), 1e-3)
  end)

  it("generates a thrust: a capsule whose tip moves along a direction", function()
    local w = cleave.weapon {
      attacks = { poke = { hitboxes = {
        cleave.thrust { id = "tip", frames = { 1, 3 }, from = 20, to = 60, reach = 15, radius = 3 },
      } } },
    }
    local ax, _, bx = w:hitbox("poke", 1, "tip").shape:unpack()
    assert.are.same({ 5, 20 }, { ax, bx })
    ax, _, bx = w:hitbox("poke", 3, "tip").shape:unpack()
    assert.are.same({ 45, 60 }, { ax, bx })
  end)

  it("reports file, line and field path of a bad field", function()
    local l
    local msg = err_of(function()
      l = line() + 1
      return cleave.weapon { attacks = { swing = { frames = {
        [6] = { { id = "a", x = 0, y = 0, radius = 1 }, { id = "b", x = 0, y = 0, radius = -3 } },
      } } } }
    end)
    assert.are.equal(("@:%d: attacks.swing.frames[6][2].radius must be >= 0 (got -3)"):format(l), msg)
  end)

  it("reports the line of the innermost cleave.hitbox call", function()
    local l
    local msg = err_of(function()
      return cleave.weapon {
        attacks = {
          swing = {
            length = 10,
            hitboxes = {
              cleave.hitbox { id = "ok", frames = 1, x = 0, y = 0, radius = 1 },
              (function() l = line() + 1 end)() or
              cleave.hitbox { id = "bad", frames = { 3, 12 }, x = 0, y = 0, radius = 1 },
            },
          },
        },
      }
    end)
    assert.are.equal(("@:%d: attacks.swing.hitboxes[2].frames[2] is past the attack's last frame 10 (got 12)"):format(l), msg)
  end)

  it("suggests the nearest known name for an unknown field", function()
    local msg = err_of(cleave.weapon, { attacks = { a = { hitboxes = {
      { id = "x", frames = 1, x = 0, y = 0, radius = 1, damge = 3 } } } } })
    assert.matches("attacks%.a%.hitboxes%[1%]: unknown field 'damge' %(did you mean 'damage'%?%)$", msg)
    msg = err_of(cleave.weapon, { atacks = {} })
    assert.matches(": unknown field 'atacks' %(did you mean 'attacks'%?%)$", msg)
    msg = err_of(cleave.weapon, { attacks = { a = { hitboxes = {
      { id = "x", frames = 1, x = 0, y = 0, radius = 1, zzzzzzzz = 3 } } } } })
    assert.matches("unknown field 'zzzzzzzz'$", msg)
  end)

  it("names wrong types, missing fields and bad ranges", function()
    local function w(hb, length)
      return function() return cleave.weapon { attacks = { a = { length = length or 5, hitboxes = { hb } } } } end
    end
    assert.matches("attacks%.a%.hitboxes%[1%]%.radius must be a number %(got string%)$",
      err_of(w { id = "x", frames = 1, x = 0, y = 0, radius = "3" }))
    assert.matches("attacks%.a%.hitboxes%[1%]%.id is required$",
      err_of(w { frames = 1, x = 0, y = 0, radius = 3 }))
    assert.matches("attacks%.a%.hitboxes%[1%]%.frames is required %(a frame or {first, last}%)$",
      err_of(w { id = "x", x = 0, y = 0, radius = 3 }))
    assert.matches("attacks%.a%.hitboxes%[1%]%.y is required$",
      err_of(w { id = "x", frames = 1, x = 0, radius = 3 }))
    assert.matches("attacks%.a%.hitboxes%[1%]%.frames must not end before it starts %(got {4, 2}%)$",
      err_of(w { id = "x", frames = { 4, 2 }, x = 0, y = 0, radius = 3 }))
    assert.matches("attacks%.a%.hitboxes%[1%]%.frames%[1%] must be >= 1 %(got 0%)$",
      err_of(w { id = "x", frames = { 0, 2 }, x = 0, y = 0, radius = 3 }))
    assert.matches("attacks%.a%.hitboxes%[1%]%.max_hits must be an integer %(got 1%.5%)$",
      err_of(w { id = "x", frames = 1, x = 0, y = 0, radius = 3, max_hits = 1.5 }))
    assert.matches("attacks%.a%.hitboxes%[1%]%.knockback%.kind must be 'none', 'fixed', 'scaling', 'radial' or 'smash' %(got 'up'%)$",
      err_of(w { id = "x", frames = 1, x = 0, y = 0, radius = 3, knockback = { kind = "up" } }))
    assert.matches("attacks%.a%.hitboxes%[1%]%.knockback: x does not apply to scaling knockback %(it takes angle, base, growth%)$",
      err_of(w { id = "x", frames = 1, x = 0, y = 0, radius = 3, knockback = { x = 1, angle = 3 } }))
    assert.matches("attacks%.a%.hitboxes%[1%]%.knockback: angle does not apply to fixed knockback %(it takes x, y%)$",
      err_of(w { id = "x", frames = 1, x = 0, y = 0, radius = 3, knockback = { kind = "fixed", y = 1, angle = 3 } }))
    assert.matches("attacks%.a%.hitboxes%[1%]%.knockback: growth does not apply to none knockback %(it takes no fields%)$",
      err_of(w { id = "x", frames = 1, x = 0, y = 0, radius = 3, knockback = { kind = "none", growth = 1 } }))
    assert.matches(":%d+: weapon: unknown field 'nmae' %(did you mean 'name'%?%)$",
      err_of(function() return cleave.weapon { nmae = "w", attacks = { a = { length = 1 } } } end))
    assert.matches("attacks%.a%.hitboxes%[1%]: give one shape",
      err_of(w { id = "x", frames = 1, x = 0, y = 0, ax = 1, radius = 3 }))
    assert.matches("attacks%.a%.hitboxes%[2%]: id 'x' is used twice on frame 2$",
      err_of(function()
        return cleave.weapon { attacks = { a = { hitboxes = {
          { id = "x", frames = { 1, 2 }, x = 0, y = 0, radius = 3 },
          { id = "x", frames = { 2, 3 }, x = 0, y = 0, radius = 3 } } } } }
      end))
    assert.matches("attacks%.a%.frames%[9%] is past the attack's last frame %(length 4%)$",
      err_of(function()
        return cleave.weapon { attacks = { a = { length = 4, frames = { [9] = { { id = "x", x = 0, y = 0, radius = 1 } } } } } }
      end))
    assert.matches("attacks must hold at least one attack$", err_of(cleave.weapon, { attacks = {} }))
    assert.matches("attacks is required$", err_of(cleave.weapon, {}))
    assert.are.equal("bad argument #1 to 'cleave.weapon' (table expected, got no value)", err_of(cleave.weapon))
  end)

  it("resolves effects by name and checks them", function()
    local w = cleave.weapon {
      effects = { bleed = { duration = 60, period = 20, magnitude = 1 } },
      attacks = { a = { hitboxes = { { id = "x", frames = 1, x = 0, y = 0, radius = 1, effects = { "bleed" } } } } },
    }
    assert.are.same({ "bleed" }, w:hitbox("a", 1, "x").effects)
    assert.matches("attacks%.a%.hitboxes%[1%]%.effects%[1%] names an effect the weapon does not define %('burn'%)$",
      err_of(cleave.weapon, { attacks = { a = { hitboxes = {
        { id = "x", frames = 1, x = 0, y = 0, radius = 1, effects = { "burn" } } } } } }))
    assert.matches("effects%.bleed%.period must be <= 10 %(got 20%)$",
      err_of(cleave.weapon, { effects = { bleed = { duration = 10, period = 20 } }, attacks = { a = { hitboxes = {
        { id = "x", frames = 1, x = 0, y = 0, radius = 1 } } } } }))
  end)
end)
