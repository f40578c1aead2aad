-- Attacks that meet, from Lua: clank, outprioritize, transcend, trade, parry, projectiles,
-- reflect and absorb (the rules are docs/hit-rules.md's; these pin them through the binding).
local cleave = require "cleave"
local T = require "cleave.testing"

-- A weapon of one 10-frame attack with a blade from x = 10 to 40 on its first frame.
local function blade(name, damage, extra)
  local hb = { id = "blade", frames = 1, ax = 10, ay = 0, bx = 40, by = 0, radius = 3,
               damage = damage, hitlag = 0, hitstun = 0 }
  for k, v in pairs(extra or {}) do hb[k] = v end
  return cleave.weapon { name = name, attacks = { swing = { length = 10, hitboxes = { hb } } } }
end

-- Two fighters 45 apart facing each other, both swinging on the first frame.
local function duel(left, right, def)
  local arena = T.arena(def)
  local p = arena:spawn { x = 0, y = 0, team = 1, name = "left" }
  local q = arena:spawn { x = 45, y = 0, team = 2, name = "right" }
  local a = arena:attack { weapon = left, owner = p }
  local b = arena:attack { weapon = right, owner = q, facing = 180 }
  arena:step(1)
  return arena, p, q, a, b
end

local knife = cleave.weapon {
  name = "knife",
  attacks = { fly = { length = 60, hitboxes = {
    { id = "edge", frames = { 1, 60 }, x = 0, y = 0, radius = 1, damage = 6, hitlag = 0,
      hitstun = 0 },
  } } },
}

describe("attacks that meet", function()
  it("clank within the clank range: both attacks end and their owners rebound", function()
    local arena, p, q, a, b = duel(blade("light", 10), blade("heavy", 15))
    local c = T.expect_clash { kind = "clank", weapon = "light", stun = 9,
                               other = { weapon = "heavy", stun = 11 } }
    assert.are.equal(1, c.frame)
    assert.are.equal(0, #arena:hits())
    T.expect_miss { weapon = "light", target = "right", reason = "clanked" }
    assert.is_false(a:running())
    assert.is_false(b:running())
    assert.are.equal(9, p:info().hitstun)
    assert.are.equal(11, q:info().hitstun)
  end)

  it("outprioritize beyond it: the stronger hits on the same frame", function()
    local arena, p, _, a, b = duel(blade("dagger", 5), blade("maul", 20))
    T.expect_clash { kind = "outprioritize", winner = "maul", weapon = "dagger" }
    T.expect_hit { weapon = "maul", target = "left", damage = 20 }
    T.expect_miss { weapon = "dagger", reason = "outprioritized" }
    assert.is_false(a:running())
    assert.is_true(b:running())
    assert.are.equal(80, p:info().hp)
    local _, _, _, c = duel(blade("dagger", 5), blade("maul", 20), { clank_range = 15 })
    T.expect_clash { kind = "clank" }
    assert.is_false(c:running())
    assert.is_false(arena:hits()[1].trade)
  end)

  it("takes weapons as the objects, and the winner as its side too", function()
    local dagger, maul = blade("dagger", 5), blade("maul", 20)
    local arena = duel(dagger, maul)
    T.expect_clash { kind = "outprioritize", winner = maul, weapon = dagger }
    T.expect_clash { kind = "outprioritize", winner = 2, weapon = dagger,
                     other = { weapon = maul } }
    T.expect_hit { weapon = maul, target = "left" }
    T.expect_miss { weapon = dagger, reason = "outprioritized" }
    T.expect_no_hit { weapon = dagger }
    assert.has_error(function() T.expect_clash { winner = dagger } end)
    assert.has_error(function() T.expect_clash { winner = 1 } end)
    assert.are.equal(2, arena:clashes()[1].winner)
  end)

  it("transcend passes through and trade cancels nothing: both land, as a trade", function()
    for _, rule in ipairs { "transcend", "trade" } do
      local arena = duel(blade("ghost", 10, { clash = rule }), blade("sword", 10))
      T.expect_clash { kind = rule == "trade" and "traded" or "transcended" }
      local hits = arena:hits()
      assert.are.equal(2, #hits)
      assert.is_true(hits[1].trade)
      assert.is_true(hits[2].trade)
      if rule == "transcend" then T.expect_miss { weapon = "ghost", reason = "transcended" } end
    end
  end)

  it("parries a hit during the parry state: no damage, the attacker is stunned", function()
    local arena = T.arena {}
    local p = arena:spawn { x = 0, y = 0, team = 1, name = "attacker" }
    local q = arena:spawn { x = 45, y = 0, team = 2, name = "parrier" }
    q:set_state("parry", 2)
    local a = arena:attack { weapon = blade("sword", 10, { parry_stun = 14 }), owner = p }
    arena:step(1)
    T.expect_parry { weapon = "sword", owner = "attacker", stun = 14, by = "parrier" }
    T.expect_miss { target = "parrier", reason = "parried" }
    assert.are.equal(100, q:info().hp)
    assert.are.equal(14, p:info().hitstun)
    assert.is_false(a:running())
    assert.are.equal(1, #arena.raw:clashes())
    arena.raw:step(0) -- a step of no frame reports no clash
    assert.are.same({}, arena.raw:clashes())
    arena:step(2)
    assert.are.equal("normal", q:info().state)

  end)

  it("throws a projectile that pierces, expires, and is swept between frames", function()
    local arena = T.arena {}
    local thrower = arena:spawn { x = -100, y = 0, team = 1, radius = 0, name = "thrower" }
    for i = 1, 3 do arena:spawn { x = 20 + 25 * i, y = 0, team = 2, radius = 2, name = "t" .. i } end
    arena:spawn { x = 1000, y = 0.4, team = 2, radius = 0.5, name = "thin" }
    local k = arena:spawn_projectile { weapon = knife, owner = thrower, x = 0, y = 0, vx = 10,
                                       pierce = 2, lifetime = 20 }
    arena:step(10)
    T.expect_hit { target = "t1", damage = 6 }
    T.expect_hit { target = "t2", damage = 6 }
    T.expect_no_hit { target = "t3" }
    assert.is_nil(arena:projectile(k))
    local fast = arena:spawn_projectile { weapon = knife, owner = thrower, x = 0, y = 0,
                                          vx = 2000, pierce = 0, lifetime = 2 }
    arena:step(3)
    T.expect_hit { target = "thin" }
    assert.is_false(fast:running())
    local kinds = {}
    for _, e in ipairs(T.projectile_events()) do kinds[#kinds + 1] = e.kind end
    assert.are.same({ "spawned", "destroyed", "spawned", "expired" }, kinds)
  end)

  it("reflects a knife back along the normal, faster and stronger, on the batter's team", function()
    local bat = blade("bat", 2, { kind = "reflect", reflect_speed = 1.5, reflect_damage = 2,
                                  ax = 20, ay = -10, bx = 20, by = 10, radius = 2, frames = { 1, 10 } })
    local arena = T.arena {}
    local batter = arena:spawn { x = 0, y = 0, team = 1, radius = 0, name = "batter" }
    local thrower = arena:spawn { x = 90, y = 0, team = 2, radius = 4, name = "thrower" }
    arena:attack { weapon = bat, owner = batter }
    local k = arena:spawn_projectile { weapon = knife, owner = thrower, x = 40, y = 0, vx = -10 }
    arena:step(3)
    local e = T.expect_reflect { by = "batter", owner = "thrower", vx = 15, vy = 0 }
    assert.are.equal(3, e.frame)
    T.expect_clash { kind = "reflect", winner = "bat", other = { weapon = "knife" } }
    local p = arena:projectile(k)
    assert.are.equal(1, p.team)
    assert.are.equal(2, p.damage_scale)
    arena:step(8)
    T.expect_hit { weapon = "knife", target = "thrower", damage = 12 }
  end)

  it("absorbs a knife and reports its damage", function()
    local shield = blade("shield", 0, { kind = "absorb", ax = 10, ay = -10, bx = 10, by = 10,
                                        frames = { 1, 10 } })
    local arena = T.arena {}
    local holder = arena:spawn { x = 0, y = 0, team = 1, name = "holder" }
    local thrower = arena:spawn { x = 90, y = 0, team = 2, name = "thrower" }
    arena:attack { weapon = shield, owner = holder }
    arena:spawn_projectile { weapon = knife, owner = thrower, x = 30, y = 0, vx = -10 }
    arena:step(3)
    T.expect_clash { kind = "absorb", winner = "shield" }
    local absorbed
    for _, e in ipairs(arena:projectile_events()) do
      if e.kind == "absorbed" then absorbed = e end
    end
    assert.are.equal(6, absorbed.damage)
    assert.are.equal(100, holder:info().hp)
  end)

  it("names the file, line and field of a bad meeting field", function()
    local ok, err = pcall(blade, "bad", 1, { clash = "trnscend" })
    assert.is_false(ok)
    assert.matches("meet_spec.lua:%d+: attacks.swing.hitboxes%[1%].clash must be 'normal', " ..
                   "'transcend' or 'trade' %(got 'trnscend'%)", err)
    ok, err = pcall(blade, "bad", 1, { reflect_speed = -2 })
    assert.is_false(ok)
    assert.matches("hitboxes%[1%].reflect_speed must be >= 0 %(got %-2%)", err)
    local arena = cleave.arena {}
    local e = arena:spawn {}
    ok, err = pcall(arena.spawn_projectile, arena, { weapon = knife, owner = e, pirce = 1 })
    assert.is_false(ok)
    assert.matches("spawn_projectile: unknown field 'pirce' %(did you mean 'pierce'%?%)", err)
    ok, err = pcall(arena.spawn_projectile, arena, { weapon = knife, owner = e, vx = 2e9 })
    assert.is_false(ok)
    assert.matches("spawn_projectile: velocity must be finite and within %+%-1e9", err)
    assert.has_error(function() T.expect_clash { kind = "clonk" } end)
  end)
  it("calls each side's on_clash, told its side, and the reflector's on_reflect", function()
    local heard = {}
    local function loud(name, damage)
      return cleave.weapon {
        name = name,
        on_clash = function(c)
          heard[#heard + 1] = ("%s %s side %d vs %s"):format(name, c.kind, c.side,
            c.sides[3 - c.side].weapon)
        end,
        attacks = { swing = { length = 10, hitboxes = {
          { id = "blade", frames = 1, ax = 10, ay = 0, bx = 40, by = 0, radius = 3,
            damage = damage, hitlag = 0, hitstun = 0 } } } },
      }
    end
    duel(loud("light", 10), loud("heavy", 15))
    table.sort(heard)
    assert.are.same({ "heavy clank side 2 vs light", "light clank side 1 vs heavy" }, heard)

    local reflected = {}
    local bat = cleave.weapon {
      name = "bat",
      on_reflect = function(e) reflected[#reflected + 1] = { e.weapon, e.vx, e.by:name() } end,
      attacks = { swing = { length = 10, hitboxes = {
        { id = "barrel", frames = { 1, 10 }, ax = 20, ay = -10, bx = 20, by = 10, radius = 2,
          damage = 2, kind = "reflect", reflect_speed = 1.5 } } } },
    }
    local arena = T.arena {}
    local batter = arena:spawn { x = 0, y = 0, team = 1, radius = 0, name = "batter" }
    local thrower = arena:spawn { x = 90, y = 0, team = 2, radius = 4, name = "thrower" }
    arena:attack { weapon = bat, owner = batter }
    arena:spawn_projectile { weapon = knife, owner = thrower, x = 40, y = 0, vx = -10 }
    arena:step(3)
    assert.are.same({ { "knife", 15, "batter" } }, reflected)
  end)
end)
