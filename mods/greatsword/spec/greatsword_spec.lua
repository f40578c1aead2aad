-- greatsword: clanks with the sword, outprioritizes the plank.
local cleave = require "cleave"
local T = require "cleave.testing"

local dir = T.mod_dir()
local greatsword = cleave.load_mod(dir).weapons.greatsword
local sword = cleave.load_mod("mods/sword").weapons.sword
local plank = cleave.load_mod("mods/plank").weapons.plank

-- The giant swings first; the other fighter, `gap` away and facing it, `delay` frames later.
local function duel(other, attack, gap, delay)
  local arena = T.arena {}
  local giant = arena:spawn { x = 0, y = 0, team = 1, name = "giant" }
  local rival = arena:spawn { x = gap, y = 0, team = 2, name = "rival" }
  local cleave_swing = arena:attack { weapon = greatsword, attack = "cleave", owner = giant }
  arena:step(delay)
  local answer = arena:attack { weapon = other, attack = attack, owner = rival, facing = 180 }
  arena:step(30)
  return giant, rival, cleave_swing, answer
end

describe("greatsword", function()
  it("clanks with the sword's tip: 18 against 14 is within the clank range", function()
    local giant, rival, mine, theirs = duel(sword, "slash3", 80, 2)
    -- the greatsword's own rebound, 16; the sword's automatic one, floor(4 + 14 / 2) = 11
    local c = T.expect_clash { kind = "clank", weapon = "greatsword", hitbox = "blade", stun = 16,
                               other = { weapon = "sword", hitbox = "tip", damage = 14, stun = 11 } }
    assert.are.equal(9, c.frame)
    assert.are.equal(0, #T.hits())
    assert.is_false(mine:running())
    assert.is_false(theirs:running())
    assert.are.equal(100, giant:info().hp)
    assert.are.equal(100, rival:info().hp)
  end)

  it("outprioritizes the plank: 18 against 6 is beyond it, and the cleave goes on", function()
    local _, rival, mine, theirs = duel(plank, "swing", 100, 2)
    -- the plank's rebound: floor(4 + 6 / 2) frames of hitstun
    local c = T.expect_clash { kind = "outprioritize", winner = "greatsword", stun = 0,
                               other = { weapon = "plank", stun = 7 } }
    T.expect_miss { weapon = "plank", frame = c.frame, reason = "outprioritized" }
    assert.is_false(theirs:running())
    assert.are.equal(100, rival:info().hp) -- 100 away: the blade meets the plank, not the body
    T.run_until(function() return not mine:running() end, 30)
    T.expect_no_hit { weapon = "plank" }
  end)

  it("matches its golden log", function()
    duel(sword, "slash3", 80, 2)
    T.golden("clank", T.log())
    duel(plank, "swing", 100, 2)
    T.golden("outprioritize", T.log())
  end)

  describe("broken copies", function()
    it("a clash rule that does not exist", function()
      T.expect_broken { dir = dir, find = "radius = 5,", replace = "radius = 5, clash = \"clonk\",",
        at = "cleave.arc { id = \"blade\"",
        message = "attacks.cleave.hitboxes[1].clash must be 'normal', 'transcend' or 'trade' (got 'clonk')" }
    end)
    it("a rebound out of range", function()
      T.expect_broken { dir = dir, find = "rebound = 16,", replace = "rebound = -16,",
        at = "local greatsword = cleave.weapon {",
        message = "attacks.cleave.rebound must be >= 0 (got -16)" }
    end)
  end)
end)
