-- Attacks that meet, for cleave.ffi (require "cleave.ffi", not this file): arena:spawn_projectile,
-- arena:projectile, arena:clashes() and arena:projectile_events(), with the fields, checks and
-- messages of the Lua 5.4 module. The rules are the arena's (docs/hit-rules.md); this file reads
-- tables and writes them. The events of each frame a step ran are kept by ffi_arena.lua.
local ffi = require "ffi"

return function(C, util, arena)
  local Arena, Entity, Weapon = arena.Arena, arena.Entity, arena.Weapon
  local fail, value_text = arena.fail, arena.value_text
  local num_text, is_int = util.num_text, util.is_int

  local RAD = math.pi / 180
  local FLT_MAX = 3.4028234663852886e38
  local INT32_MAX = 2147483647
  local LIFETIME_MAX = 65535 * 16
  local CLASH_KINDS = { [0] = "clank", "outprioritize", "transcended", "traded", "parry",
    "reflect", "absorb" }
  local PROJECTILE_KINDS = { [0] = "spawned", "expired", "destroyed", "reflected", "absorbed" }

  -- ---- event tables ----

  -- Sets t[key] to the handle of entity id (nothing for the null id) and key_name to its name.
  local function set_entity(A, t, key, id)
    if id.index1 == 0 then return end
    t[key] = arena.entity_handle(A, id)
    t[key .. "_name"] = A.names[id.index1]
  end

  -- One side of a clash: {owner, owner_name, weapon, attack, attack_frame, hitbox, damage, stun};
  -- a parrying entity's side has no weapon.
  local function clash_side(A, c, s)
    local side = { stun = c.stun[s] }
    set_entity(A, side, "owner", c.owner[s])
    local w = A.slots[c.weapon[s].index1]
    if w then
      side.weapon, side.attack = w.name, w:attack_name(c.attack_index[s])
      side.attack_frame = c.attack_frame[s] + 1
      side.hitbox = arena.hitbox_id(A, c.weapon[s], c.attack_index[s], c.attack_frame[s],
        c.hitbox[s])
      side.damage = c.damage[s]
    end
    return side
  end

  local function clash_table(A, c)
    local t = { frame = tonumber(c.frame), kind = CLASH_KINDS[c.kind], x = c.point.x,
      y = c.point.y, sweep_t = c.sweep_t, sides = { clash_side(A, c, 0), clash_side(A, c, 1) } }
    if c.winner >= 0 then t.winner = c.winner + 1 end
    return t
  end

  local function projectile_table(A, e)
    local w = A.slots[e.weapon.index1]
    local t = { frame = tonumber(e.frame), kind = PROJECTILE_KINDS[e.kind],
      projectile_id = e.projectile.index1, weapon = w and w.name or "?", x = e.position.x,
      y = e.position.y, vx = e.velocity.x, vy = e.velocity.y, damage = e.damage }
    if e.reason >= 0 then t.reason = ffi.string(C.clv_miss_reason_name(e.reason)) end
    set_entity(A, t, "owner", e.owner)
    set_entity(A, t, "by", e.by)
    return t
  end

  --- arena:clashes() -> list of the clashes and parries of the last step: {frame, kind, winner,
  --- x, y, sweep_t, sides = {side 1, side 2}}
  function Arena:clashes()
    local b = arena.check_arena(self).clashes_buf
    local out = {}
    for k = 0, b.n - 1 do out[k + 1] = clash_table(self, b.data[k]) end
    return out
  end

  --- arena:projectile_events() -> list of {frame, kind, projectile_id, owner, weapon, x, y, vx,
  --- vy, by, damage, reason} of the last step
  function Arena:projectile_events()
    local b = arena.check_arena(self).pevents_buf
    local out = {}
    for k = 0, b.n - 1 do out[k + 1] = projectile_table(self, b.data[k]) end
    return out
  end

  -- ---- projectiles: "spawn_projectile: <field> <rule> (got <value>)" ----

  local function bad(key, rule, got) fail("spawn_projectile: %s %s (got %s)", key, rule, got) end

  -- A type as the module names it: a whole number is an integer (LuaJIT has no subtype).
  local function type_text(v)
    if type(v) == "number" then return is_int(v) and "integer" or "number" end
    return util.typename(v)
  end

  local function opt_number(t, key)
    local v = t[key]
    if v == nil then return nil end
    if type(v) ~= "number" then bad(key, "must be a number", type_text(v)) end
    if v ~= v or v == math.huge or v == -math.huge then
      bad(key, "must be finite", num_text(v))
    end
    if math.abs(v) > FLT_MAX then
      bad(key, "must be within +-3.4e38, the range of a float", num_text(v))
    end
    return v
  end

  local function opt_integer(t, key, lo, hi)
    local v = t[key]
    if v == nil then return nil end
    if type(v) ~= "number" then bad(key, "must be an integer", type_text(v)) end
    if not is_int(v) then bad(key, "must be an integer", num_text(v)) end
    if v < lo then bad(key, "must be >= " .. lo, num_text(v)) end
    if v > hi then bad(key, "must be <= " .. hi, num_text(v)) end
    return v
  end

  local function opt_boolean(t, key)
    local v = t[key]
    if v ~= nil and type(v) ~= "boolean" then bad(key, "must be a boolean", type_text(v)) end
    return v
  end

  -- The weapon, attack and owner of the definition; returns the weapon.
  local function read_source(A, t, def)
    local w = t.weapon
    if getmetatable(w) ~= Weapon then bad("weapon", "must be a cleave.Weapon", type_text(w)) end
    def.attack = 0
    if t.attack ~= nil or C.clv_weapon_attack_count(w.ptr) ~= 1 then
      -- the module reads the name as a string, and a number converts to one
      local name = type(t.attack) == "number" and num_text(t.attack) or t.attack
      def.attack = type(name) == "string" and C.clv_weapon_find_attack(w.ptr, name) or -1
      if def.attack < 0 then
        bad("attack", ("must name an attack of weapon '%s'"):format(w.name), value_text(t.attack))
      end
    end
    local owner = t.owner
    if getmetatable(owner) ~= Entity then
      bad("owner", "must be a cleave.Entity", type_text(owner))
    end
    if arena.check_entity(owner) ~= A then
      fail("spawn_projectile: owner belongs to another arena")
    end
    def.owner = arena.entity_id(owner)
    return w
  end

  local NUMBERS = { { "x", "position", "x" }, { "y", "position", "y" }, { "vx", "velocity", "x" },
    { "vy", "velocity", "y" } }
  local FLAGS = { "mirror", "loop", "destroy_on_clank", "reflectable", "absorbable" }

  -- The numbers and flags of the definition; the arena checks their ranges.
  local function read_flight(t, def)
    for _, n in ipairs(NUMBERS) do
      local v = opt_number(t, n[1])
      if v then def[n[2]][n[3]] = v end
    end
    def.gravity = opt_number(t, "gravity") or def.gravity
    local facing = opt_number(t, "facing")
    if facing then def.facing = facing * RAD end
    def.lifetime = opt_integer(t, "lifetime", 1, LIFETIME_MAX) or def.lifetime
    def.pierce = opt_integer(t, "pierce", 0, INT32_MAX) or def.pierce
    for _, key in ipairs(FLAGS) do
      local b = opt_boolean(t, key)
      if b ~= nil then def[key] = b end
    end
  end

  local PROJECTILE_FIELDS = { "weapon", "attack", "owner", "x", "y", "vx", "vy", "facing",
    "mirror", "lifetime", "pierce", "gravity", "loop", "destroy_on_clank", "reflectable",
    "absorbable" }

  --- arena:spawn_projectile{weapon=, attack=, owner=, x=, y=, vx=, vy=, facing=, mirror=,
  --- lifetime=, pierce=, gravity=, loop=, destroy_on_clank=, reflectable=, absorbable=}
  --- -> cleave.Attack
  function Arena:spawn_projectile(...)
    arena.check_arena(self)
    local t = ...
    if type(t) ~= "table" then
      util.typeerror(2, "spawn_projectile", "table", t, select("#", ...) < 1)
    end
    if select("#", ...) > 1 then
      util.typeerror(3, "spawn_projectile", "no value", (select(2, ...)))
    end
    arena.check_fields(t, PROJECTILE_FIELDS, "spawn_projectile")
    local def = C.clv_default_projectile_def()
    local w = read_source(self, t, def)
    read_flight(t, def)
    def.weapon = arena.arena_weapon(self, w)
    local id = ffi.new("clv_attack_id")
    if C.clv_arena_spawn_projectile(self.ptr, def, id, arena.diag) ~= 0 then
      fail("spawn_projectile: %s", ffi.string(arena.diag.message))
    end
    return arena.attack_handle(self, id)
  end

  local info = ffi.new("clv_projectile_info")

  --- arena:projectile(attack) -> {x, y, vx, vy, lifetime, hits, team, owner, damage_scale}, or
  --- nil once it has ended
  function Arena:projectile(attack)
    arena.check_arena(self)
    if getmetatable(attack) ~= arena.Attack then
      util.typeerror(2, "projectile", "cleave.Attack", attack)
    end
    if attack.arena ~= self or C.clv_arena_projectile(self.ptr, attack.id, info) ~= 0 then
      return nil
    end
    local t = { x = info.position.x, y = info.position.y, vx = info.velocity.x,
      vy = info.velocity.y, lifetime = info.lifetime, hits = info.hits, team = info.team,
      damage_scale = info.damage_scale }
    set_entity(self, t, "owner", info.owner)
    return t
  end
end
