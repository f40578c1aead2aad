-- plank: one capsule per frame, swung through a dummy.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local mod = cleave.load_mod(dir)
local plank = mod.weapons.plank

local function swing()
  local arena = T.arena {}
  local player = arena:spawn { x = 0, y = 0, team = 1, name = "player" }
  local dummy = arena:spawn { x = 40, y = -25, team = 2, radius = 8, name = "dummy" }
  local low = arena:spawn { x = 30, y = 40, team = 2, radius = 8, name = "low" }
  arena:attack { weapon = plank, attack = "swing", owner = player }
  arena:step(30)
  return arena, player, dummy, low
end

describe("plank", function()
  it("loads as a mod with one weapon", function()
    assert.are.equal("plank", mod.name)
    assert.are.equal("1.0.0", mod.version)
    assert.are.same({ "swing" }, plank:attacks())
    assert.are.equal(12, plank:length("swing"))
    for f = 1, 12 do
      assert.are.equal((f >= 4 and f <= 9) and 1 or 0, #plank:hitboxes("swing", f))
    end
  end)

  it("hits the dummy once, on the frame the board passes it", function()
    local _, _, dummy = swing()
    T.expect_hit { frame = 6, hitbox = "board", target = "dummy", damage = 6 }
    T.expect_no_hit { target = "dummy", frame = 7 }
    assert.are.equal(94, dummy:hp())
  end)

  it("hits the low target later in the swing, and never the player", function()
    swing()
    -- the hit on the dummy froze the swing for 7 frames of hitlag: attack frame 9 is frame 16
    T.expect_hit { frame = 16, attack_frame = 9, hitbox = "board", target = "low" }
    T.expect_miss { target = "player", reason = "team" }
    T.expect_no_hit { target = "player" }
  end)

  it("matches its golden log", function()
    swing()
    T.golden("swing", T.log())
  end)

  it("leaves only the frames where nothing stands uncovered", function()
    swing()
    assert.are.equal(table.concat({
      "plank: 2 of 6 (attack, frame, hitbox) hit",
      "  never hit: swing frame 4-5 board",
      "  never hit: swing frame 7-8 board",
    }, "\n"), T.coverage_report(plank))
  end)

  describe("broken copies", function()
    local function broken(find, replace)
      local folder, file, line = T.broken_copy(dir, find, replace)
      local ok, err = pcall(cleave.load_mod, folder)
      T.remove_copy(folder)
      assert.is_false(ok)
      return err, file, line
    end

    it("wrong type", function()
      local err, file, line = broken("radius = 2 }", 'radius = "2" }')
      assert.are.equal(("%s:%d: attacks.swing.frames[4][1].radius must be a number (got string)")
        :format(file, line), err)
    end)

    it("missing field", function()
      local err, file, line = broken('id = "board", ', "")
      assert.are.equal(("%s:%d: attacks.swing.frames[4][1].id is required"):format(file, line), err)
    end)

    it("negative radius", function()
      local err, file, line = broken("radius = 2 }", "radius = -3 }")
      assert.are.equal(("%s:%d: attacks.swing.frames[4][1].radius must be >= 0 (got -3)")
        :format(file, line), err)
    end)

    it("frame range past the end", function()
      local err, file = broken("[9] = {", "[13] = {")
      -- a frames[n] list has no constructor of its own: the line is the weapon's
      local wline = T.line_of(dir, "cleave.weapon {")
      assert.are.equal(("%s:%d: attacks.swing.frames[13] is past the attack's last frame (length 12)")
        :format(file, wline), err)
    end)

    it("unknown field", function()
      local err, file = broken("defaults = { damage = 6,", "defaults = { damgae = 6,")
      local wline = T.line_of(dir, "cleave.weapon {")
      assert.are.equal(("%s:%d: defaults: unknown field 'damgae' (did you mean 'damage'?)")
        :format(file, wline), err)
    end)
  end)
end)
