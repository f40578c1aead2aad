-- Bodies that fight back in a Lua arena: animations, facing, guard, armor, grabs and throws,
-- hit filters and smash knockback, with the numbers of the C rules worked out by hand.
local cleave = require "cleave"

local function message(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  return err
end

local function near(want, got, tol)
  assert.is_true(math.abs(want - got) <= (tol or 1e-4), ("want %s, got %s"):format(want, got))
end

-- A weapon of one attack "strike" of `length` frames (rehit every frame) with one circle hitbox
-- of radius 5 at weapon-local (30, 0), without lag or stun unless fields say so.
local function weapon(fields, length)
  local hb = { id = "edge", frames = { 1, length or 1 }, x = 30, y = 0, radius = 5, damage = 10, hitlag = 0, hitstun = 0 }
  for k, v in pairs(fields or {}) do hb[k] = v end
  return cleave.weapon { name = "w", attacks = { strike = { length = length or 1, rehit = 1, hitboxes = { cleave.hitbox(hb) } } } }
end

-- A torso at the origin and, on frames 5-10 of "jab", an arm reaching 20 ahead that is
-- intangible on frames 7-9.
local fighter = cleave.body {
  name = "fighter",
  guard = { meter = 50 },
  animations = {
    jab = {
      length = 12,
      hurtboxes = {
        { id = "torso", x = 0, y = 0, radius = 4 },
        { id = "arm", frames = { 5, 6 }, x = 20, y = 0, radius = 3 },
        { id = "arm", frames = { 7, 9 }, x = 20, y = 0, radius = 3, state = "intangible" },
        { id = "arm", frames = 10, x = 20, y = 0, radius = 3 },
      },
    },
    stand = { length = 1, hurtboxes = { { id = "torso", x = 0, y = 0, radius = 4 } } },
  },
}

-- The attacker at x = 0 on team 1 (no hurtbox) and a foe at x on team 2.
local function duel(foe)
  local a = cleave.arena {}
  local me = a:spawn { x = 0, radius = 0, team = 1 }
  foe.team = 2
  foe.x = foe.x or 30
  return a, me, a:spawn(foe)
end

local function only_hit(a, target)
  for _, h in ipairs(a:hits()) do
    if h.target == target then return h end
  end
end

local function reason(a, target)
  for _, m in ipairs(a:misses()) do
    if m.target == target then return m.reason end
  end
end

describe("entities with bodies", function()
  it("play the first animation by name, say which frame, and turn with their facing", function()
    local a, _, foe = duel { x = 100, body = fighter }
    local info = foe:info()
    assert.are.equal("fighter", info.body)
    assert.are.equal("jab", info.animation)
    assert.are.equal(1, info.frame)
    for _ = 1, 5 do a:step() end
    info = foe:info()
    assert.are.equal(5, info.frame)
    local boxes = foe:hurtboxes()
    assert.are.equal(2, #boxes)
    assert.are.equal("arm", boxes[2].id)
    assert.are.equal("normal", boxes[2].state)
    near(120, (boxes[2].shape:unpack()))
    foe:set_facing(180)
    near(80, (foe:hurtboxes()[2].shape:unpack()))
    near(180, foe:info().facing)
    foe:play("stand")
    assert.are.equal("stand", foe:info().animation)
  end)

  -- a jab of radius 2 at x = at, on the foe's frame `frame`: the foe at 100 facing 180 has its
  -- torso at 100 (radius 4) and its arm at 80 (radius 3), so at = 80 reaches the arm alone and
  -- at = 95 the torso alone
  local function jab_on(frame, at)
    local a, me, foe = duel { x = 100, body = fighter, facing = 180 }
    for _ = 1, frame - 1 do a:step() end
    a:attack { weapon = weapon({ x = at, radius = 2, damage = 4 }), attack = "strike", owner = me }
    a:step()
    assert.are.equal(frame, foe:info().frame)
    return only_hit(a, foe), reason(a, foe)
  end

  it("miss an arm that is intangible on frames 7-9 and hit the torso on the same frame", function()
    local h, why = jab_on(5, 80)
    assert.is_not_nil(h)
    assert.is_nil(why)
    h, why = jab_on(8, 80)
    assert.is_nil(h)
    assert.are.equal("intangible", why)
    h = jab_on(8, 95)
    assert.is_not_nil(h)
    h = jab_on(10, 80)
    assert.is_not_nil(h)
    h = jab_on(11, 80)
    assert.is_nil(h)
  end)

  it("name the hurtbox a hit took, and its place in the list", function()
    local h = jab_on(5, 80)
    assert.are.equal("arm", h.hurtbox)
    assert.are.equal(2, h.hurtbox_index)
    h = jab_on(8, 95)
    assert.are.equal("torso", h.hurtbox)
    assert.are.equal(1, h.hurtbox_index)
    local a, me, foe = duel { x = 30, hurtboxes = { cleave.circle(0, -20, 3), cleave.circle(0, 0, 3) } }
    a:attack { weapon = weapon(), attack = "strike", owner = me }
    a:step()
    h = only_hit(a, foe)
    assert.is_nil(h.hurtbox)
    assert.are.equal(2, h.hurtbox_index)
  end)

  it("play idle without an animation named, else the body's first by name", function()
    local function anim(state) return { length = 1, hurtboxes = { { id = "t", x = 0, y = 0, radius = 4, state = state } } } end
    local guarded = cleave.body { name = "g", animations = { brace = anim("armor"), dodge = anim("intangible"), idle = anim() } }
    local a = cleave.arena {}
    local e = a:spawn { body = guarded }
    assert.are.equal("idle", e:info().animation)
    assert.are.equal("normal", e:hurtboxes()[1].state)
    local no_idle = cleave.body { name = "n", animations = { walk = anim(), dodge = anim("intangible") } }
    assert.are.equal("dodge", a:spawn { body = no_idle }:info().animation)
  end)

  it("refuse a bad spawn with the caller's file and line", function()
    local a = cleave.arena {}
    local line = debug.getinfo(1, "l").currentline + 1
    local ok, err = pcall(function() a:spawn { body = fighter, animation = "nosuch" } end)
    assert.is_false(ok)
    assert.are.equal(("tests/lua/defend_arena_spec.lua:%d: spawn: animation must name an animation of body 'fighter' (got 'nosuch')"):format(line), err)
    line = debug.getinfo(1, "l").currentline + 1
    ok, err = pcall(function() a:spawn { body = fighter, animaton = "jab" } end)
    assert.is_false(ok)
    assert.are.equal(("tests/lua/defend_arena_spec.lua:%d: spawn: unknown field 'animaton' (did you mean 'animation'?)"):format(line), err)
  end)

  it("refuse a bad body, animation, facing or airborne with the field named", function()
    local a = cleave.arena {}
    assert.matches("spawn: body must be a cleave.Body %(got cleave.Weapon%)", message(a.spawn, a, { body = weapon() }))
    assert.matches("spawn: animation must name an animation of body 'fighter' %(got 'walk'%)",
      message(a.spawn, a, { body = fighter, animation = "walk" }))
    assert.matches("spawn: animation needs a body", message(a.spawn, a, { animation = "jab" }))
    assert.matches("spawn: facing must be finite", message(a.spawn, a, { facing = 1 / 0 }))
    assert.matches("spawn: airborne must be a boolean %(got string%)", message(a.spawn, a, { airborne = "yes" }))
    assert.are.equal(0, a:entity_count(), "a refused spawn leaves nothing behind")
    local e = a:spawn {}
    assert.matches("play: the entity plays no body", message(e.play, e, "jab"))
    assert.matches("bad argument #2 to 'play' %(body 'fighter' has no animation 'walk'%)", message(e.play, e, "walk", fighter))
    assert.matches("bad argument #3 to 'set_layers' %(mask must be an integer in 0%.%.65535, got 70000%)",
      message(e.set_layers, e, 1, 70000))
    assert.matches("bad argument #2 to 'set_armor' %(armor must be 'none', 'super' or 'heavy', got 'mega'%)",
      message(e.set_armor, e, "mega"))
    assert.matches("bad argument #3 to 'set_armor'", message(e.set_armor, e, "heavy", 0))
    assert.matches("bad argument #2 to 'set_state' %(state must be one of 'normal', 'invincible', 'intangible', 'parry', 'guard', got 'duck'%)",
      message(e.set_state, e, "duck"))
    assert.matches("release: the entity neither holds nor is held", message(e.release, e))
    e:play("stand", fighter)
    assert.are.equal("stand", e:info().animation)
  end)
end)

describe("hurtboxes an attack carries", function()
  -- a punch whose arm (radius 4, 20 ahead) is out on frames 3-6; the foe at 20 jabs at its own
  -- position every frame, so it reaches the puncher (who has no hurtbox of its own) only there
  local punch = cleave.weapon { name = "punch", attacks = { punch = { length = 8, hitboxes = {},
    hurtboxes = { { id = "arm", frames = { 3, 6 }, x = 20, y = 0, radius = 4 } } } } }
  local jab = weapon({ x = 0, radius = 2, damage = 1 })

  it("makes the puncher hittable on those frames only", function()
    local a = cleave.arena {}
    local me = a:spawn { x = 0, hurtboxes = {}, team = 1 }
    local foe = a:spawn { x = 20, hurtboxes = {}, team = 2 }
    a:attack { weapon = punch, owner = me }
    local hit = {}
    for f = 1, 8 do
      a:attack { weapon = jab, owner = foe }
      a:step()
      local h = only_hit(a, me)
      hit[f] = h ~= nil
      assert.are.equal(hit[f] and 1 or 0, #me:hurtboxes(), "frame " .. f)
      if h then
        assert.are.same({ "arm", 1, "arm" }, { h.hurtbox, h.hurtbox_index, me:hurtboxes()[1].id })
      end
    end
    assert.are.same({ false, false, true, true, true, true, false, false }, hit)
  end)

  it("checks them like a body's, naming the field", function()
    local function carry(hurt)
      return cleave.weapon { name = "p", attacks = { p = { length = 4, hurtboxes = { hurt } } } }
    end
    assert.matches("attacks%.p%.hurtboxes%[1%]%.radius must be >= 0 %(got %-1%)",
      message(carry, { id = "arm", x = 0, y = 0, radius = -1 }))
    assert.matches("attacks%.p%.hurtboxes%[1%]%.frames",
      message(carry, { id = "arm", frames = { 3, 9 }, x = 0, y = 0, radius = 1 }))
    assert.matches("attacks%.p%.hurtboxes%[1%]%.state must be normal, invincible, intangible or armor",
      message(carry, { id = "arm", x = 0, y = 0, radius = 1, state = "ghost" }))
  end)
end)

describe("guard", function()
  -- meter 50; chip 0.1 of 10 damage and 5 shield damage take 1 hp and 15 meter a hit, so the
  -- 4th hit (5 - 15 < 0) breaks the guard: stun 120, the meter full again; the 5th lands whole
  it("blocks with chip and blockstun, and breaks on the fourth hit", function()
    local w = weapon({ chip = 0.1, shield_damage = 5, knockback = { x = 5, y = 0 } }, 10)
    local a, me, foe = duel { body = fighter, animation = "stand", facing = 180, state = "guard" }
    a:attack { weapon = w, attack = "strike", owner = me }
    for i, meter in ipairs { 35, 20, 5 } do
      a:step()
      local h = only_hit(a, foe)
      assert.is_true(h.blocked, "hit " .. i)
      assert.is_false(h.guard_break)
      assert.are.equal(10, h.hitstun) -- floor(2 + 0.8 * 10)
      near(1, h.damage)
      near(meter, foe:info().guard_meter)
      assert.are.equal("guard", foe:info().state)
      assert.are.equal(0, (foe:velocity()))
    end
    a:step()
    local h = only_hit(a, foe)
    assert.is_true(h.blocked and h.guard_break)
    assert.are.equal("normal", foe:info().state)
    assert.are.equal(120, foe:info().hitstun)
    near(96, foe:hp())
    a:step()
    h = only_hit(a, foe)
    assert.is_false(h.blocked)
    near(10, h.damage)
    near(5, h.knockback_x)
  end)

  it("does not hold from behind, nor against an unblockable hit", function()
    local a, me, foe = duel { body = fighter, animation = "stand", state = "guard" } -- faces +x, away
    a:attack { weapon = weapon(), attack = "strike", owner = me }
    a:step()
    assert.is_false(only_hit(a, foe).blocked)
    a, me, foe = duel { body = fighter, animation = "stand", facing = 180, state = "guard" }
    a:attack { weapon = weapon { unblockable = true }, attack = "strike", owner = me }
    a:step()
    assert.is_false(only_hit(a, foe).blocked)
    near(90, foe:hp())
  end)
end)

describe("armor", function()
  -- heavy 5 against fixed pushes of 4, 5 and 6 (weight 1): only the push below 5 is armored
  it("heavy armor takes hits below its threshold without push or stun", function()
    for _, push in ipairs { 4, 5, 6 } do
      local a, me, foe = duel { radius = 4 }
      foe:set_armor("heavy", 5)
      assert.are.equal("heavy", foe:info().armor)
      a:attack { weapon = weapon { damage = 7, hitstun = "auto", knockback = { x = push, y = 0 } }, attack = "strike", owner = me }
      a:step()
      local h = only_hit(a, foe)
      assert.are.equal(push < 5, h.armor, "push " .. push)
      near(7, h.damage)
      near(push < 5 and 0 or push, (foe:velocity()))
      near(93, foe:hp())
    end
  end)

  it("a super armor hurtbox of a body takes the damage and not the push", function()
    local golem = cleave.body { name = "golem", animations = { stand = { length = 1, hurtboxes = {
      { id = "rock", x = 0, y = 0, radius = 4, state = "armor" } } } } }
    local a, me, foe = duel { body = golem }
    a:attack { weapon = weapon { damage = 3, knockback = { x = 100, y = 0 } }, attack = "strike", owner = me }
    a:step()
    local h = only_hit(a, foe)
    assert.is_true(h.armor)
    assert.are.equal(0, (foe:velocity()))
    near(97, foe:hp())
  end)
end)

describe("grabs and throws", function()
  it("a grab beats a guard, holds the target, and a throw hits the held target only", function()
    local a, me, foe = duel { radius = 4, state = "guard", facing = 180 }
    local other = a:spawn { x = 36, radius = 4, team = 2 }
    a:attack { weapon = weapon { id = "hand", damage = 0, kind = "grab" }, attack = "strike", owner = me }
    a:step()
    local h = only_hit(a, foe)
    assert.is_true(h.grab)
    assert.is_false(h.blocked)
    assert.are.equal(me, foe:info().held_by)
    assert.are.equal(foe, me:info().holding)
    assert.matches("throw: ", message(a.throw, a, { weapon = weapon(), owner = foe }))
    a:throw { weapon = weapon { x = 20, radius = 30, damage = 8, knockback = { x = 6, y = -3 } }, attack = "strike", owner = me }
    a:step()
    h = only_hit(a, foe)
    near(8, h.damage)
    assert.is_nil(only_hit(a, other))
    assert.are.equal("not_thrown", reason(a, other))
    assert.is_nil(foe:info().held_by)
    assert.are.same({ 6, -3 }, { foe:velocity() })
  end)

  it("a grab misses an airborne target, and release lets a held one go", function()
    local grab = weapon { damage = 0, kind = "grab" }
    local a, me, foe = duel { radius = 4, airborne = true }
    assert.is_true(foe:info().airborne)
    a:attack { weapon = grab, attack = "strike", owner = me }
    a:step()
    assert.are.equal("airborne", reason(a, foe))
    foe:set_airborne(false)
    a:attack { weapon = grab, attack = "strike", owner = me }
    a:step()
    assert.are.equal(me, foe:info().held_by)
    me:release()
    assert.is_nil(foe:info().held_by)
  end)
end)

describe("hit filters and smash knockback", function()
  it("hits, layers and facing_restrict give their reasons", function()
    local a, me, foe = duel { radius = 4 }
    a:attack { weapon = weapon { hits = "air" }, attack = "strike", owner = me }
    a:step()
    assert.are.equal("grounded", reason(a, foe))
    a:attack { weapon = weapon { mask = 2 }, attack = "strike", owner = me }
    a:step()
    assert.are.equal("layer", reason(a, foe))
    foe:set_layers(2, 65535)
    assert.are.equal(2, foe:info().layer)
    a:attack { weapon = weapon { mask = 2 }, attack = "strike", owner = me }
    a:step()
    assert.is_not_nil(only_hit(a, foe))
    a:attack { weapon = weapon { facing_restrict = "behind" }, attack = "strike", owner = me }
    a:step()
    assert.are.equal("facing", reason(a, foe))
  end)

  -- damage 10, base 30, growth 100 on weight 1 (100) at 0 %: (1 + 5) * 1.4 + 18 + 30 = 56.4
  -- units, launch speed 1.692, hitstun 22; the Sakurai angle is 0 on the ground below 60
  -- units, 45 degrees (up) in the air
  it("smash knockback launches by the formula, at the Sakurai angle", function()
    for _, airborne in ipairs { false, true } do
      local a, me, foe = duel { radius = 4, airborne = airborne }
      a:attack { weapon = weapon { hitstun = "auto", knockback = { kind = "smash", base = 30, growth = 100, angle = "sakurai" } },
        attack = "strike", owner = me }
      a:step()
      local h = only_hit(a, foe)
      assert.are.equal(22, h.hitstun)
      local c = airborne and math.sqrt(0.5) or 1
      near(1.692 * c, h.knockback_x)
      near(airborne and -1.692 * c or 0, h.knockback_y)
    end
  end)
end)

describe("snapshots with bodies", function()
  -- the same spawns, in the same order, add the same bodies in the same order
  local function fight()
    local a = cleave.arena {}
    local me = a:spawn { x = 0, radius = 4, team = 1, body = fighter, animation = "stand" }
    local foe = a:spawn { x = 30, team = 2, body = fighter, facing = 180, state = "guard" }
    return a, me, foe
  end

  it("restores bodies, animations, guard meters and grabs to the same hash and future", function()
    local w = weapon({ chip = 0.1, shield_damage = 5 }, 10)
    local a, me, foe = fight()
    a:attack { weapon = w, attack = "strike", owner = me }
    a:step(3)
    local snap, hash = a:snapshot(), a:hash()
    near(5, foe:info().guard_meter)
    a:step(4)
    local later = a:hash()
    near(50, foe:info().guard_meter) -- broken on the 4th hit, full again
    -- an arena with the same weapon and the body added by hand takes it
    local c = cleave.arena {}
    c:add_body(fighter)
    c:add_body(fighter) -- already there: nothing changes
    c:attack { weapon = w, attack = "strike", owner = c:spawn {} }
    c:restore(snap)
    assert.are.equal(hash, c:hash())
    c:step(4)
    assert.are.equal(later, c:hash())
    local d = cleave.arena {}
    d:attack { weapon = w, attack = "strike", owner = d:spawn {} }
    assert.matches("restore: this arena's bodies differ", message(d.restore, d, snap))
  end)
end)
