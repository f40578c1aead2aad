-- cleave.testing itself: its failures must say what went wrong.
local cleave = require "cleave"
local T = require "cleave.testing"

local stick = cleave.weapon {
  name = "stick",
  attacks = { swing = { length = 4, hitboxes = {
    { id = "tip", frames = { 2, 3 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4, damage = 5, hitlag = 0 },
    { id = "far", frames = 4, x = 200, y = 0, radius = 2 },
  } } },
}

local function scene()
  local a = T.arena {}
  local p = a:spawn { team = 1, name = "me" }
  a:spawn { x = 20, team = 2, name = "dummy" }
  a:attack { weapon = stick, attack = "swing", owner = p }
  return a
end

local function fails(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok)
  return tostring(e)
end

describe("cleave.testing", function()
  it("finds hits and misses by any fields", function()
    local a = scene()
    a:step(4)
    local h = T.expect_hit { frame = 2, hitbox = "tip", target = "dummy", damage = 5 }
    assert.are.equal("swing", h.attack)
    T.expect_miss { target = "me", reason = "team" }
    T.expect_miss { frame = 3, target = "dummy", reason = "rehit" }
    T.expect_no_hit { frame = 3 }
  end)

  it("lists what did happen when an expectation fails", function()
    local a = scene()
    a:step(4)
    local e = fails(T.expect_hit, { frame = 3, hitbox = "tip" })
    assert.matches('expected a hit {frame=3, hitbox="tip"}, but the hits were:\n  frame 2  hit   stick/swing#2 tip -> dummy  damage 5', e, 1, true)
    e = fails(T.expect_miss, { target = "dummy", reason = "max_hits" })
    assert.matches('expected a miss {reason="max_hits", target="dummy"}, but the misses were:', e, 1, true)
    e = fails(T.expect_no_hit, { target = "dummy" })
    assert.matches('expected no hit {target="dummy"}, but got:', e, 1, true)
  end)

  it("refuses fields and reasons that no event has, naming the likely one", function()
    local a = scene()
    a:step(4)
    local e = fails(T.expect_miss, { reason = "tema" })
    assert.are.equal("expect_miss: unknown reason 'tema' (did you mean 'team'?)",
      e:gsub("^[^:]*:%d+: ", "", 1))
    e = fails(T.expect_hit, { dmg = 1 })
    assert.matches("expect_hit: unknown field 'dmg' (did you mean 'damage'?)", e, 1, true)
    e = fails(T.expect_no_hit, { hitbxo = "tip" })
    assert.matches("expect_no_hit: unknown field 'hitbxo' (did you mean 'hitbox'?)", e, 1, true)
    e = fails(T.expect_hit, { traget = "dummy" })
    assert.matches("expect_hit: unknown field 'traget' (did you mean 'target'?)", e, 1, true)
    e = fails(T.expect_miss, { damage = 1 })
    assert.matches("expect_miss: unknown field 'damage' (fields: frame, weapon,", e, 1, true)
    e = fails(T.expect_miss, { reason = "nope" })
    assert.matches("expect_miss: unknown reason 'nope' (reasons: out_of_reach, team, dead,", e, 1, true)
    -- from a spec, the message points at the spec's line
    e = fails(function() T.expect_hit { dmg = 1 } end)
    assert.matches("^[^:]*testing_spec%.lua:%d+: expect_hit: unknown field 'dmg'", e)
    e = fails(T.expect_hit, "tip")
    assert.matches("expect_hit: expected a table of fields, got string", e, 1, true)
    T.expect_hit { frame = 2, sweep_t = 1 }
    T.expect_hit { hurtbox_index = 1 }
    e = fails(T.expect_hit, { hurtbox_index = 2 })
    assert.matches("expected a hit {hurtbox_index=2}, but the hits were:\n  frame 2  hit   stick/swing#2 tip -> dummy  damage 5", e, 1, true)
    -- the listing adds the fields the expectation named that a hit line does not print
    assert.matches("  {hurtbox_index=1}\n", e .. "\n", 1, true)
    e = fails(T.expect_hit, { frame = 2, hurtbox = "head", group = 0 })
    -- named in HIT_KEYS' order; not the frame, which the line prints
    assert.matches("hitstun 0  {group=0}\n", e .. "\n", 1, true)
    -- a target name no event has is said, with the nearest recorded one
    e = fails(T.expect_hit, { target = "dumy" })
    assert.matches("\n  (no recorded hit or miss has a target named 'dumy'; did you mean 'dummy'?)", e, 1, true)
    e = fails(T.expect_miss, { target_name = "zzz", reason = "rehit" })
    assert.matches("\n  (no recorded hit or miss has a target named 'zzz')", e, 1, true)
    e = fails(T.expect_hit, { target = "me" }) -- named by a miss: no hint
    assert.is_nil(e:find("no recorded hit", 1, true), e)
    e = fails(T.expect_no_hit, { frame = 2, group = 0 })
    assert.matches("but got:\n  frame 2  hit   stick/swing#2 tip -> dummy  damage 5  t 0.667  hitlag 0  hitstun 0  {group=0}", e, 1, true)
    e = fails(T.expect_miss, { hitbox_index = 3 })
    assert.matches("expected a miss {hitbox_index=3}, but the misses were:\n  frame 2  miss  stick/swing#2 tip -> me  team  {hitbox_index=1}\n", e, 1, true)
    local b = T.arena {} -- a target without a name is named by its id, "#2"
    b:attack { weapon = stick, attack = "swing", owner = b:spawn { team = 1 } }
    b:spawn { x = 20, team = 2 }
    b:step(4)
    T.expect_hit { arena = b, target = "#2" }
    e = fails(T.expect_hit, { arena = b, target = "#2", frame = 99 })
    assert.is_nil(e:find("no recorded hit", 1, true), e)
  end)

  it("runs until a condition holds, or says it never did", function()
    local a = scene()
    assert.are.equal(2, T.run_until(function() return #a:hits() > 0 end, 10))
    assert.matches("run_until: the condition did not hold within 5 frames",
      fails(T.run_until, function() return false end, 5))
  end)

  it("writes a readable log and diffs it line by line", function()
    local a = scene()
    a:step(4)
    local log = T.log()
    assert.matches("^frame 2  hit   stick/swing#2 tip %-> dummy  damage 5  t 0%.667  hitlag 0  hitstun %d+\n", log)
    assert.matches("frame 3  miss  stick/swing#3 tip %-> dummy  rehit\n", log)
    assert.are.equal("", T.diff("a\nb\n", "a\nb\n"))
    assert.are.equal("  a\n- b\n+ B\n  c\n+ d", T.diff("a\nb\nc\n", "a\nB\nc\nd\n"))
  end)

  it("compares with a golden file, shows the diff, and rewrites it on request", function()
    local dir = debug.getinfo(1, "S").source:sub(2):match("^(.*)/[^/]*$")
    local made = require("lfs").mkdir(dir .. "/golden") -- nil when it exists already
    local path = dir .. "/golden/testing_tmp.log"
    os.remove(path)
    assert.matches("golden log .*testing_tmp%.log is missing: run with CLEAVE_UPDATE_GOLDEN=1",
      fails(T.golden, "testing_tmp", "x\n"))
    local f = assert(io.open(path, "w"))
    f:write("frame 1  hit\nframe 2  hit\n")
    f:close()
    T.golden("testing_tmp", "frame 1  hit\nframe 2  hit\n")
    local e = fails(T.golden, "testing_tmp", "frame 1  hit\nframe 3  hit\n")
    assert.matches("the hit log differs from .*testing_tmp%.log %(%- golden, %+ now; CLEAVE_UPDATE_GOLDEN=1 rewrites it%):\n  frame 1  hit\n%- frame 2  hit\n%+ frame 3  hit$", e)
    os.remove(path)
    if made then os.remove(dir .. "/golden") end
  end)

  it("reports the hitboxes no recorded hit used", function()
    local a = scene()
    a:step(4)
    local missing, total = T.coverage(stick)
    assert.are.equal(3, total)
    assert.are.same({ { attack = "swing", frame = 3, hitbox = "tip" },
                      { attack = "swing", frame = 4, hitbox = "far" } }, missing)
    assert.are.equal("stick: 1 of 3 (attack, frame, hitbox) hit\n  never hit: swing frame 4 far\n"
      .. "  never hit: swing frame 3 tip", T.coverage_report(stick))
  end)

  it("steps like the arena it wraps: the same count of hits, one method per name", function()
    local a, plain = scene(), cleave.arena {}
    local p = plain:spawn { team = 1, name = "me" }
    plain:spawn { x = 20, team = 2, name = "dummy" }
    plain:attack { weapon = stick, attack = "swing", owner = p }
    assert.are.equal(plain:step(4), a:step(4))
    assert.are.equal(0, a:step(0))
    assert.are.equal(a.frame, scene().frame)
    assert.are.equal(plain:frame(), a:frame())
    assert.has_error(function() a:step(1.5) end)
  end)

  it("compares two numbers and says both when the comparison fails", function()
    T.expect_less(1, 2)
    T.expect_at_most(2, 2)
    T.expect_greater(3, 2.5)
    T.expect_at_least(2, 2)
    assert.are.equal("expected 3 < 2", fails(T.expect_less, 3, 2):match("expected.*"))
    assert.are.equal("expected 0.30000000000000004 <= 0.3 (sum)",
      fails(T.expect_at_most, 0.1 + 0.2, 0.3, "sum"):match("expected.*"))
    assert.are.equal("expected 1 > 1", fails(T.expect_greater, 1, 1):match("expected.*"))
    assert.are.equal("expected 1.5 >= 2", fails(T.expect_at_least, 1.5, 2):match("expected.*"))
    assert.matches("expected two numbers to compare with <, got nil and number",
      fails(T.expect_less, nil, 2), 1, true)
    -- from a spec, the message points at the spec's line
    assert.matches("^[^:]*testing_spec%.lua:%d+: expected 3 < 2$",
      fails(function() T.expect_less(3, 2) end))
  end)

  it("refuses an arena it does not record", function()
    local plain = cleave.arena {}
    assert.matches("this arena was not made by T.arena", fails(T.use, plain))
  end)
end)

describe("cleave.testing against bodies that defend", function()
  local sword = cleave.weapon { name = "sword", attacks = { cut = { length = 1, hitboxes = { cleave.hitbox {
    id = "edge", frames = 1, x = 30, y = 0, radius = 5, damage = 10, chip = 0.1, hitlag = 0, hitstun = 0,
    knockback = { x = 4, y = 0 } } } } } }
  local hand = cleave.weapon { name = "hand", attacks = { grab = { length = 1, hitboxes = { cleave.hitbox {
    id = "hand", frames = 1, x = 30, y = 0, radius = 5, damage = 0, kind = "grab" } } } } }

  -- the foe at 30 guards, facing the attacker when `facing` is 180, away from it when 0
  local function guarded(weapon, facing, armor)
    local a = T.arena {}
    local me = a:spawn { team = 1, radius = 0, name = "me" }
    local foe = a:spawn { x = 30, radius = 4, team = 2, name = "foe", state = "guard", facing = facing }
    if armor then foe:set_armor("super") end
    a:attack { weapon = weapon, owner = me }
    a:step()
    return a
  end

  it("expect_blocked finds a guarded hit and fails when the guard did not hold", function()
    guarded(sword, 180)
    local h = T.expect_blocked { target = "foe", damage = 1, hitstun = 10 }
    assert.is_true(h.blocked)
    guarded(sword, 0) -- hit from behind: it lands whole
    local e = fails(T.expect_blocked, { target = "foe" })
    assert.matches('expected a blocked hit {blocked=true, target="foe"}, but the hits were:\n  frame 1  hit   sword/cut#1 edge -> foe  damage 10', e, 1, true)
    assert.matches("expect_blocked: blocked = false contradicts it", fails(T.expect_blocked, { blocked = false }))
  end)

  it("expect_grab finds a grab and fails when the target was not grabbed", function()
    guarded(hand, 180)
    T.expect_grab { target = "foe", hitbox = "hand" }
    T.expect_hit { target = "foe", grab = true, blocked = false }
    guarded(sword, 180)
    local e = fails(T.expect_grab, { target = "foe" })
    assert.matches('expected a grab {grab=true, target="foe"}, but the hits were:\n  frame 1  hit   sword/cut#1 edge -> foe  damage 1  t 0  hitlag 0  hitstun 10  [blocked]', e, 1, true)
  end)

  it("expect_hit{armor = true} holds only for a hit the armor took", function()
    guarded(sword, 0, true)
    T.expect_hit { target = "foe", armor = true, damage = 10 }
    guarded(sword, 0)
    local e = fails(T.expect_hit, { target = "foe", armor = true })
    assert.matches('expected a hit {armor=true, target="foe"}, but the hits were:\n  frame 1  hit   sword/cut#1 edge -> foe  damage 10  t 0  kb (4, 0)', e, 1, true)
  end)

  it("knows the new miss reasons", function()
    local a = T.arena {}
    local me = a:spawn { team = 1, radius = 0 }
    a:spawn { x = 30, radius = 4, team = 2, name = "up", airborne = true }
    a:attack { weapon = hand, owner = me }
    a:step()
    T.expect_miss { target = "up", reason = "airborne" }
    assert.matches("did you mean 'not_thrown'", fails(T.expect_miss, { reason = "not_thrwn" }))
  end)
  -- The line of the call below a spec's `local line = here()`.
  local function here() return debug.getinfo(2, "l").currentline + 1 end

  it("names the spec's line in the errors of the arena it wraps", function()
    local a = scene()
    local line = here()
    local e = fails(function() a:attack { weapon = 1, attack = "swing" } end)
    assert.are.equal(("tests/lua/testing_spec.lua:%d: attack: weapon must be a cleave.Weapon (got number)"):format(line), e)
    line = here()
    e = fails(function() a:throw { weapon = 1, attack = "swing" } end)
    assert.are.equal(("tests/lua/testing_spec.lua:%d: throw: weapon must be a cleave.Weapon (got number)"):format(line), e)
    line = here()
    e = fails(function() a:step(-1) end)
    assert.are.equal(("tests/lua/testing_spec.lua:%d: bad argument #1 to 'step' (frames must be an integer in 0..1000000000, got -1)"):format(line), e)
    line = here()
    e = fails(function() a:spawn { bogus = 1 } end)
    assert.are.equal(("tests/lua/testing_spec.lua:%d: spawn: unknown field 'bogus'"):format(line), e)
  end)

  it("finds the mod and copies it when busted runs inside the mod's folder", function()
    -- `busted spec/` from the mod's folder: the spec's path is relative, its folder "spec"
    assert.are.equal(".", load("local T = ... local d = T.mod_dir() return d", "@spec/x_spec.lua")(T))
    assert.are.equal("mods/club", load("local T = ... local d = T.mod_dir() return d", "@mods/club/spec/x_spec.lua")(T))
    local lfs = require "lfs"
    local dir = os.tmpname()
    os.remove(dir)
    assert(lfs.mkdir(dir))
    assert(lfs.mkdir(dir .. "/spec"))
    local f = assert(io.open(dir .. "/mod.lua", "w"))
    f:write('return { name = "m", version = "1", weapons = { w = cleave.weapon { name = "w", ' ..
      'attacks = { a = { hitboxes = { { id = "h", frames = 1, x = 0, y = 0, radius = 2 } } } } } } }\n')
    f:close()
    for _, given in ipairs { dir .. "/.", dir .. "/spec/.." } do
      T.expect_broken { dir = given, find = "radius = 2", replace = "radius = -2",
        message = "attacks.a.hitboxes[1].radius must be >= 0 (got -2)" }
    end
    os.remove(dir .. "/mod.lua")
    os.remove(dir .. "/spec")
    os.remove(dir)
  end)

  it("names the spec's line in T.arena's errors and in spawn_projectile's", function()
    local line = here()
    local e = fails(function() T.arena { miss_margin = -1 } end)
    assert.are.equal(("tests/lua/testing_spec.lua:%d: cleave.arena: miss_margin must be >= 0 (got -1)"):format(line), e)
    for _, a in ipairs { scene(), cleave.arena {} } do
      local me = a:spawn { team = 1 }
      line = here()
      e = fails(function() a:spawn_projectile { weapon = stick, attack = "swing", owner = me, x = 0 / 0 } end)
      assert.are.equal(("tests/lua/testing_spec.lua:%d: spawn_projectile: x must be finite (got nan)"):format(line), e)
    end
  end)

  it("shows the other side's fields of an expectation, not a table's address", function()
    scene():step(4)
    local e = fails(T.expect_clash, { kind = "clank", other = { damage = 99, weapon = "stick" } })
    assert.matches('expected a clash {kind="clank", other={damage=99, weapon="stick"}}', e, 1, true)
  end)

  it("gives every event of a step(n), as the arena does", function()
    local counts = {}
    for k, a in ipairs { T.arena {}, cleave.arena {} } do
      local me = a:spawn { team = 1 }
      a:spawn { x = 60, team = 2, radius = 4 }
      a:spawn { x = 25, y = 40, team = 2, radius = 4 }
      a:spawn_projectile { weapon = stick, attack = "swing", owner = me, vx = 2, loop = true,
                           lifetime = 40, pierce = 0 }
      local n = a:step(40)
      counts[k] = { n, #a:hits(), #a:misses(), #a:projectile_events(), #a:clashes(),
                    a:hit_count(), a:miss_count() }
    end
    assert.is_true(counts[2][2] > 0 and counts[2][3] > 0 and counts[2][4] > 0)
    assert.are.same(counts[2], counts[1])
  end)

  it("names the spec's line when an expectation fails, through helpers and tail calls", function()
    scene():step(4)
    local line = here()
    local e = fails(function() T.expect_hit { frame = 9 } end)
    assert.matches(("^tests/lua/testing_spec%%.lua:%d: expected a hit {frame=9}"):format(line), e)
    line = here()
    e = fails(function() T.expect_parry { frame = 9 } end)
    assert.matches(("^tests/lua/testing_spec%%.lua:%d: expected a clash"):format(line), e)
    line = here()
    e = fails(function() T.expect_miss { frame = 1, reason = "team" } end)
    assert.matches(("^tests/lua/testing_spec%%.lua:%d: expected a miss"):format(line), e)
  end)

  it("counts a failed expectation as a busted failure and a misuse as an error", function()
    local lua, busted = arg[-1], arg[0]
    local cpath = package.cpath:match("^[^;]*")
    local cmd = ("%q %q --ignore-lua --output=plainTerminal --cpath=%q --lpath=%q %q 2>&1"):format(
      lua, busted, cpath, "scripts/?.lua", "tests/lua/fixtures/expectations.lua")
    local p = assert(io.popen(cmd))
    local out = p:read("a")
    p:close()
    assert.matches("1 success / 2 failures / 1 error / 0 pending", out, 1, true)
    assert.matches("tests/lua/fixtures/expectations.lua:12: expected a hit {frame=9}", out, 1, true)
    assert.matches("tests/lua/fixtures/expectations.lua:16: expected 3 < 2", out, 1, true)
    assert.matches("tests/lua/fixtures/expectations.lua:20: expect_hit: unknown field 'dmg'", out, 1, true)
  end)
end)
