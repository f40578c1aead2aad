-- The arena and weapon mods of cleave.ffi (require "cleave.ffi", not this file): the same
-- definition tables, handles, event tables and messages as the Lua 5.4 module's arena.
--
-- Events of a step are copied into arrays the arena owns; arena:hits() builds a table per hit
-- as the module does, and arena:hit_events() hands the array itself to code that reads many
-- events every frame (no table per event).
local ffi = require "ffi"
local bit = require "bit"
local nearest = require("cleave.suggest").nearest

return function(M, C, util)
  local argerror, typename, num_text = util.argerror, util.typename, util.num_text
  local is_int = util.is_int

  local RAD = math.pi / 180
  local WORLD = 1.0e9
  local FLT_BIG = 3.0e38
  local INT32_MIN, INT32_MAX = -2147483648, 2147483647
  local STATES = { normal = 0, invincible = 1, intangible = 2, parry = 3 }
  local STATE_NAMES = { [0] = "normal", "invincible", "intangible", "parry" }
  local STATE_RULE = "be one of 'normal', 'invincible', 'intangible', 'parry'"
  local FLAG_PUSH_ONLY, FLAG_INVINCIBLE, FLAG_KILLED, FLAG_TRADE = 1, 2, 4, 8
  local FLAG_BLOCKED, FLAG_ARMOR, FLAG_GRAB, FLAG_GUARD_BREAK = 16, 32, 64, 128
  local ERR_LEN = 1024
  -- a mod's callback errors of one frame, each of at most 1 KiB: room for 16 at least
  local CALLBACK_ERR_LEN = 16384

  local Arena, Entity, Attack, Weapon = {}, {}, {}, {}
  Arena.__index, Entity.__index, Attack.__index, Weapon.__index = Arena, Entity, Attack, Weapon
  util.type_names[Arena], util.type_names[Entity] = "cleave.Arena", "cleave.Entity"
  util.type_names[Attack], util.type_names[Weapon] = "cleave.Attack", "cleave.Weapon"

  -- LuaJIT compiles no call that passes a struct by value, and the arena's ids are passed so.
  -- An id (two integers in 8 bytes) travels in one integer register on x64 and arm64, as a
  -- uint64_t would: there the hot calls go through pointers typed with uint64_t ids, which it
  -- compiles. Elsewhere they keep the declared types.
  local packed = (jit.arch == "x64" or jit.arch == "arm64") and ffi.abi("le")
  local function id_arg(id)
    if packed then return id.index1 + id.gen * 4294967296 end
    return { id.index1, id.gen } -- an initializer of whichever id type the call takes
  end
  local function by_id(fn, packed_type)
    return packed and ffi.cast(packed_type, fn) or fn
  end
  local attack_valid = by_id(C.clv_arena_attack_valid, "bool (*)(const clv_arena *, uint64_t)")
  local entity_valid = by_id(C.clv_arena_entity_valid, "bool (*)(const clv_arena *, uint64_t)")
  local entity_read = by_id(C.clv_arena_entity,
    "int (*)(const clv_arena *, uint64_t, clv_entity_info *)")
  local arena_hitbox = by_id(C.clv_arena_hitbox,
    "const clv_hitbox_def *(*)(const clv_arena *, uint64_t, int32_t, int32_t, int32_t)")

  local diag = ffi.new("clv_hit_diag")
  local errbuf = ffi.new("char[?]", ERR_LEN)
  local callback_errs = ffi.new("char[?]", CALLBACK_ERR_LEN)

  local function fail(fmt, ...) util.raise(fmt:format(...)) end
  local function diag_text() return ffi.string(diag.message) end
  local function status_name(st) return ffi.string(C.clv_hit_status_name(st)) end

  -- ---- definition tables: "fname: key must <rule> (got <value>)" ----

  local function value_text(v)
    if type(v) == "number" then return num_text(v) end
    if type(v) == "string" then return "'" .. v .. "'" end
    return typename(v)
  end

  local function field_error(fname, key, v, rule)
    fail("%s: %s must %s (got %s)", fname, key, rule, value_text(v))
  end

  local function type_error(fname, key, v, rule)
    fail("%s: %s must %s (got %s)", fname, key, rule, typename(v))
  end

  local field_sets = setmetatable({}, { __mode = "k" })

  local function check_fields(t, known, fname)
    local set = field_sets[known]
    if set == nil then
      set = {}
      for _, k in ipairs(known) do set[k] = true end
      field_sets[known] = set
    end
    for k in pairs(t) do
      if type(k) ~= "string" then
        fail("%s: unexpected key [%s] (fields are named)", fname, tostring(k))
      end
      if not set[k] then
        local best = nearest(k, known)
        if best then fail("%s: unknown field '%s' (did you mean '%s'?)", fname, k, best) end
        fail("%s: unknown field '%s'", fname, k)
      end
    end
  end

  local function bound_text(b)
    return is_int(b) and ("%d"):format(b) or num_text(b)
  end

  -- Optional number field within [lo, hi] (lo excluded when strict).
  local function opt_num_in(t, key, fname, lo, strict, hi)
    local v = t[key]
    if v == nil then return nil end
    if type(v) ~= "number" then type_error(fname, key, v, "be a number") end
    if v ~= v or v == math.huge or v == -math.huge then field_error(fname, key, v, "be finite") end
    if strict and v <= lo then field_error(fname, key, v, "be > " .. bound_text(lo)) end
    if not strict and v < lo then field_error(fname, key, v, "be >= " .. bound_text(lo)) end
    if v > hi then field_error(fname, key, v, "be <= " .. bound_text(hi)) end
    return v
  end

  local function opt_world(t, key, fname) return opt_num_in(t, key, fname, -WORLD, false, WORLD) end

  local function opt_int(t, key, fname, lo, hi)
    local v = t[key]
    if v == nil then return nil end
    if type(v) ~= "number" then type_error(fname, key, v, "be an integer") end
    if not is_int(v) then field_error(fname, key, v, "be an integer") end
    if v < lo or v > hi then
      field_error(fname, key, v, ("be in %s..%s"):format(bound_text(lo), bound_text(hi)))
    end
    return v
  end

  local function opt_boolean(t, key, fname)
    local v = t[key]
    if v ~= nil and type(v) ~= "boolean" then type_error(fname, key, v, "be a boolean") end
    return v
  end

  local function check_table(v, arg, fname, none)
    if type(v) ~= "table" or getmetatable(v) ~= nil then
      util.typeerror(arg, fname, "table", v, none)
    end
  end

  -- ---- growable event arrays ----

  local function new_buffer(ctype)
    return { ctype = ffi.typeof(ctype .. "[?]"), size = ffi.sizeof(ctype), cap = 0, n = 0 }
  end

  local function buffer_append(b, src, count)
    if b.n + count > b.cap then
      local cap = math.max(16, b.cap * 2, b.n + count)
      local data = b.ctype(cap)
      if b.n > 0 then ffi.copy(data, b.data, b.n * b.size) end
      b.data, b.cap = data, cap
    end
    ffi.copy(b.data + b.n, src, count * b.size)
    b.n = b.n + count
  end

  -- ---- mods ----

  local Mod = {}
  Mod.__index = Mod
  util.type_names[Mod] = "cleave.Mod"

  --- cleave.load_mod(dir) -> mod table {name, version, dir, weapons}
  function M.load_mod(...)
    local dir = ...
    if type(dir) ~= "string" then
      util.typeerror(1, "load_mod", "string", dir, select("#", ...) < 1)
    end
    local ptr = C.clv_mod_load(dir, errbuf, ERR_LEN)
    if ptr == nil then util.raise(ffi.string(errbuf)) end
    local mod = setmetatable({ ptr = ffi.gc(ptr, C.clv_mod_free), dir = dir, weapons = {} }, Mod)
    mod.name, mod.version = ffi.string(C.clv_mod_name(ptr)), ffi.string(C.clv_mod_version(ptr))
    local by_index = {}
    for i = 0, C.clv_mod_weapon_count(ptr) - 1 do
      local first = C.clv_mod_weapon_first(ptr, i)
      local w = by_index[first] or setmetatable({ mod = mod, index = i,
        ptr = C.clv_mod_weapon(ptr, i) }, Weapon)
      w.name = w.name or ffi.string(C.clv_weapon_name(w.ptr))
      by_index[i] = w
      mod.weapons[ffi.string(C.clv_mod_weapon_name(ptr, i))] = w
    end
    mod.by_index = by_index
    return mod
  end

  function Weapon:attack_name(index)
    local def = C.clv_weapon_attack_def(self.ptr, index)
    return def ~= nil and ffi.string(def.name) or "?"
  end

  function Weapon.__tostring(w) return "cleave.Weapon (" .. w.name .. ")" end

  --- weapon:attacks() -> the names of its attacks, in the order the weapon lists them
  function Weapon:attacks()
    local out = {}
    for i = 0, C.clv_weapon_attack_count(self.ptr) - 1 do out[i + 1] = self:attack_name(i) end
    return out
  end

  --- weapon:frame_data(attack) -> {name, frames, startup, active_first, active_last}: frames
  --- before the first active one, and the first and last frames with a hitbox (1-based; nil
  --- when the attack has none), as the demo's frame-data bar shows them.
  function Weapon:frame_data(attack)
    local index = C.clv_weapon_find_attack(self.ptr, attack)
    if index < 0 then fail("frame_data: weapon '%s' has no attack '%s'", self.name, attack) end
    local frames = C.clv_weapon_attack_def(self.ptr, index).frames
    local data = { name = attack, frames = frames }
    for f = 0, frames - 1 do
      if C.clv_weapon_frame_hitbox_count(self.ptr, index, f) > 0 then
        data.active_first = data.active_first or f + 1
        data.active_last = f + 1
      end
    end
    data.startup = (data.active_first or frames + 1) - 1
    return data
  end

  -- ---- the arena ----

  local function check_arena(A)
    if getmetatable(A) ~= Arena then util.typeerror(1, "?", "cleave.Arena", A) end
    if A.ptr == nil then util.raise("arena is closed") end
    return A
  end

  local ARENA_FIELDS = { "miss_margin", "capacity", "sweep_tolerance", "on_error" }

  --- cleave.arena{miss_margin=, capacity=, sweep_tolerance=, on_error=} -> cleave.Arena
  function M.arena(...)
    local t = ...
    if t == nil then t = {} end
    check_table(t, 1, "arena")
    if select("#", ...) > 1 then util.typeerror(2, "arena", "no value", (select(2, ...))) end
    local fname = "cleave.arena"
    check_fields(t, ARENA_FIELDS, fname)
    local def = C.clv_default_arena_def()
    def.miss_margin = opt_num_in(t, "miss_margin", fname, 0, false, WORLD) or def.miss_margin
    def.sweep_tolerance = opt_num_in(t, "sweep_tolerance", fname, 0, true, WORLD)
      or def.sweep_tolerance
    def.entity_capacity = opt_int(t, "capacity", fname, 0, 2 ^ 20) or def.entity_capacity
    if t.on_error ~= nil and type(t.on_error) ~= "function" then
      type_error(fname, "on_error", t.on_error, "be a function")
    end
    local ptr = C.clv_arena_create(def, diag)
    if ptr == nil then fail("%s: %s", fname, diag_text()) end
    return setmetatable({
      ptr = ffi.gc(ptr, C.clv_arena_destroy), on_error = t.on_error, on_hits = {},
      errors_list = {}, in_callbacks = 0,
      names = {}, handles = {}, hurtboxes = {}, slots = {}, mods = {}, mod_list = {},
      hits_buf = new_buffer("clv_hit_event"), misses_buf = new_buffer("clv_miss_record"),
      ticks_buf = new_buffer("clv_tick_event"), clashes_buf = new_buffer("clv_clash_event"),
      pevents_buf = new_buffer("clv_projectile_event"),
    }, Arena)
  end

  function Arena:close()
    if self.in_callbacks > 0 then
      util.raise("close: the arena cannot be closed inside one of its callbacks")
    end
    if self.ptr ~= nil then
      C.clv_arena_destroy(ffi.gc(self.ptr, nil))
      self.ptr = nil
    end
  end

  function Arena.__tostring(A)
    if A.ptr == nil then return "cleave.Arena (closed)" end
    return ("cleave.Arena (frame %d, %d entities)"):format(tonumber(C.clv_arena_frame(A.ptr)),
      C.clv_arena_entity_count(A.ptr))
  end

  -- ---- entities ----

  local function entity_handle(A, id)
    local h = A.handles[id.index1]
    if h == nil or h.gen ~= id.gen then
      h = setmetatable({ arena = A, index1 = id.index1, gen = id.gen }, Entity)
      A.handles[id.index1] = h
    end
    return h
  end

  local function entity_id(e)
    return ffi.new("clv_entity_id", e.index1, e.gen)
  end

  -- The arena of a live entity handle, or the module's message.
  local function check_entity(e)
    if getmetatable(e) ~= Entity then util.typeerror(1, "?", "cleave.Entity", e) end
    local A = e.arena
    if A.ptr == nil then fail("entity %d belongs to a closed arena", e.index1) end
    if not entity_valid(A.ptr, id_arg(e)) then
      fail("entity %d was removed", e.index1)
    end
    return A
  end

  local SPAWN_FIELDS = { "x", "y", "vx", "vy", "weight", "friction", "hp", "team", "state",
    "hurtbox", "hurtboxes", "radius", "name", "user" }

  local function read_hurtbox(fname, key, s)
    if not ffi.istype(util.Shape, s) then type_error(fname, key, s, "be a cleave.Shape") end
    local kind = s:kind()
    for k = 0, s.n - 1 do
      if not (kind == "obb" and k == 4) and math.abs(s.v[k]) > WORLD then
        fail("%s: %s.%s must be in -1000000000..1000000000 (got %s)", fname, key,
          util.PARAMS[kind][k + 1],
          num_text(s.v[k]))
      end
    end
    return s.f
  end

  local function read_hurtboxes(t, def, fname)
    local given
    for _, k in ipairs { "radius", "hurtbox", "hurtboxes" } do
      if t[k] ~= nil then
        if given then
          fail("%s: give one of radius, hurtbox, hurtboxes (got %s and %s)", fname, given, k)
        end
        given = k
      end
    end
    local r = opt_num_in(t, "radius", fname, 0, false, WORLD)
    if r then
      def.hurtbox_count = 1
      def.hurtboxes[0] = C.clv_shape_circle(0, 0, r)
    end
    if t.hurtbox ~= nil then
      def.hurtbox_count = 1
      def.hurtboxes[0] = read_hurtbox(fname, "hurtbox", t.hurtbox)
    end
    local list = t.hurtboxes
    if list ~= nil then
      if type(list) ~= "table" then
        type_error(fname, "hurtboxes", list, "be a list of cleave.Shape")
      end
      if #list > 4 then fail("%s: hurtboxes must hold at most 4 shapes (got %d)", fname, #list) end
      def.hurtbox_count = #list
      for k = 1, #list do
        def.hurtboxes[k - 1] = read_hurtbox(fname, ("hurtboxes[%d]"):format(k), list[k])
      end
    end
  end

  --- arena:spawn{x=, y=, vx=, vy=, hp=, weight=, friction=, team=, state=, hurtbox=|hurtboxes=|
  --- radius=, name=, user=} -> cleave.Entity
  function Arena:spawn(...)
    local fname = "spawn"
    check_arena(self)
    local t = ...
    check_table(t, 2, fname, select("#", ...) < 1)
    if select("#", ...) > 1 then util.typeerror(3, fname, "no value", (select(2, ...))) end
    check_fields(t, SPAWN_FIELDS, fname)
    local def = C.clv_default_entity_def()
    def.position.x = opt_world(t, "x", fname) or def.position.x
    def.position.y = opt_world(t, "y", fname) or def.position.y
    def.velocity.x = opt_world(t, "vx", fname) or def.velocity.x
    def.velocity.y = opt_world(t, "vy", fname) or def.velocity.y
    def.weight = opt_num_in(t, "weight", fname, 0, true, FLT_BIG) or def.weight
    def.friction = opt_num_in(t, "friction", fname, 0, false, FLT_BIG) or def.friction
    def.hp = opt_num_in(t, "hp", fname, 0, true, FLT_BIG) or def.hp
    def.team = opt_int(t, "team", fname, INT32_MIN, INT32_MAX) or def.team
    local user = opt_int(t, "user", fname, -2 ^ 63, 2 ^ 63 - 1)
    if user then def.user = ffi.cast("uint64_t", ffi.cast("int64_t", user)) end
    if t.state ~= nil then
      if STATES[t.state] == nil then
        field_error(fname, "state", t.state, STATE_RULE)
      end
      def.state = STATES[t.state]
    end
    read_hurtboxes(t, def, fname)
    if t.name ~= nil and type(t.name) ~= "string" then
      type_error(fname, "name", t.name, "be a string")
    end
    local id = ffi.new("clv_entity_id")
    if C.clv_arena_spawn(self.ptr, def, id, diag) ~= 0 then fail("%s: %s", fname, diag_text()) end
    self.names[id.index1] = t.name
    local shapes = {}
    for k = 0, def.hurtbox_count - 1 do shapes[k + 1] = ffi.new("clv_shape", def.hurtboxes[k]) end
    self.hurtboxes[id.index1] = shapes
    return entity_handle(self, id)
  end

  function Entity:id() return self.index1 end

  function Entity:valid()
    local A = self.arena
    return A.ptr ~= nil and entity_valid(A.ptr, id_arg(self))
  end

  function Entity:name()
    check_entity(self)
    return self.arena.names[self.index1]
  end

  local info = ffi.new("clv_entity_info")

  local function read_info(e)
    local A = check_entity(e)
    entity_read(A.ptr, id_arg(e), info)
    return info
  end

  function Entity:hp() return read_info(self).hp end
  function Entity:alive() return read_info(self).alive end
  function Entity:position()
    local i = read_info(self)
    return i.position.x, i.position.y
  end
  function Entity:velocity()
    local i = read_info(self)
    return i.velocity.x, i.velocity.y
  end
  function Entity:state() return STATE_NAMES[read_info(self).state] end

  --- The hurtboxes the entity was spawned with (shapes relative to its position).
  function Entity:hurtboxes()
    check_entity(self)
    return self.arena.hurtboxes[self.index1]
  end

  local function status_error(fname, st)
    if st ~= 0 then fail("%s: %s", fname, status_name(st)) end
  end

  function Entity:remove()
    local A = check_entity(self)
    status_error("remove", C.clv_arena_remove(A.ptr, entity_id(self)))
  end

  local function check_xy(fname, x, y, none_x, none_y)
    if type(x) ~= "number" then util.typeerror(2, fname, "number", x, none_x) end
    if type(y) ~= "number" then util.typeerror(3, fname, "number", y, none_y) end
  end

  function Entity:set_position(...)
    local A = check_entity(self)
    local x, y = ...
    check_xy("set_position", x, y, select("#", ...) < 1, select("#", ...) < 2)
    local v = ffi.new("clv_vec2", x, y)
    status_error("set_position", C.clv_arena_set_position(A.ptr, entity_id(self), v))
  end

  function Entity:set_velocity(...)
    local A = check_entity(self)
    local x, y = ...
    check_xy("set_velocity", x, y, select("#", ...) < 1, select("#", ...) < 2)
    local v = ffi.new("clv_vec2", x, y)
    status_error("set_velocity", C.clv_arena_set_velocity(A.ptr, entity_id(self), v))
  end

  function Entity:set_hp(hp)
    local A = check_entity(self)
    if type(hp) ~= "number" then util.typeerror(2, "set_hp", "number", hp) end
    status_error("set_hp", C.clv_arena_set_hp(A.ptr, entity_id(self), hp))
  end

  function Entity:set_state(state, frames)
    local A = check_entity(self)
    if STATES[state] == nil then
      argerror(2, "set_state", "state must " .. STATE_RULE)
    end
    local st = C.clv_arena_set_state(A.ptr, entity_id(self), STATES[state], frames or 0)
    status_error("set_state", st)
  end

  function Entity.__tostring(e)
    return ("cleave.Entity %d%s"):format(e.index1, e.arena.names[e.index1] and
      (" (" .. e.arena.names[e.index1] .. ")") or "")
  end

  -- ---- attacks ----

  -- The arena id of weapon w, copying its mod's weapons into the arena on first use (so that
  -- the mod's callbacks run for this arena's events).
  local function arena_weapon(A, w)
    local slot = A.mods[w.mod]
    if slot == nil then
      local n = C.clv_mod_weapon_count(w.mod.ptr)
      local ids = ffi.new("clv_weapon_id[?]", math.max(n, 1))
      if not C.clv_mod_add_weapons(w.mod.ptr, A.ptr, ids, errbuf, ERR_LEN) then
        fail("cannot add weapon '%s': %s", w.name, ffi.string(errbuf))
      end
      slot = {}
      for i = 0, n - 1 do
        slot[i] = ffi.new("clv_weapon_id", ids[i])
        A.slots[ids[i].index1] = w.mod.by_index[i]
      end
      A.mods[w.mod] = slot
      A.mod_list[#A.mod_list + 1] = w.mod
    end
    return slot[w.index]
  end

  -- The handle of attack id.
  local function attack_handle(A, id)
    return setmetatable({ arena = A, id = id }, Attack)
  end

  local ATTACK_FIELDS = { "weapon", "attack", "owner", "facing", "x", "y", "mirror", "follow" }

  --- arena:attack{weapon=, attack=, owner=, facing=, x=, y=, mirror=, follow=} -> cleave.Attack
  function Arena:attack(...)
    local fname = "attack"
    check_arena(self)
    local t = ...
    check_table(t, 2, fname, select("#", ...) < 1)
    if select("#", ...) > 1 then util.typeerror(3, fname, "no value", (select(2, ...))) end
    check_fields(t, ATTACK_FIELDS, fname)
    local w = t.weapon
    if getmetatable(w) ~= Weapon then type_error(fname, "weapon", w, "be a cleave.Weapon") end
    local def = C.clv_default_attack_start_def()
    if t.attack == nil and C.clv_weapon_attack_count(w.ptr) == 1 then
      def.attack = 0
    else
      if type(t.attack) ~= "string" then
        type_error(fname, "attack", t.attack, "be an attack name")
      end
      def.attack = C.clv_weapon_find_attack(w.ptr, t.attack)
      if def.attack < 0 then fail("%s: weapon '%s' has no attack '%s'", fname, w.name, t.attack) end
    end
    local owner = t.owner
    if getmetatable(owner) ~= Entity then
      type_error(fname, "owner", owner, "be a cleave.Entity")
    end
    if check_entity(owner) ~= self then fail("%s: owner belongs to another arena", fname) end
    def.owner = entity_id(owner)
    local facing = opt_num_in(t, "facing", fname, -FLT_BIG, false, FLT_BIG)
    if facing then def.facing = facing * RAD end
    def.position.x = opt_world(t, "x", fname) or def.position.x
    def.position.y = opt_world(t, "y", fname) or def.position.y
    local mirror, follow = opt_boolean(t, "mirror", fname), opt_boolean(t, "follow", fname)
    if mirror ~= nil then def.mirror = mirror end
    if follow ~= nil then def.follow_owner = follow end
    def.weapon = arena_weapon(self, w)
    local id = ffi.new("clv_attack_id")
    if C.clv_arena_start_attack(self.ptr, def, id, diag) ~= 0 then
      fail("%s: %s", fname, diag_text())
    end
    return attack_handle(self, id)
  end

  function Attack:running()
    local A = self.arena
    return A.ptr ~= nil and attack_valid(A.ptr, id_arg(self.id))
  end

  function Attack:cancel()
    local A = self.arena
    if A.ptr == nil then util.raise("cancel: the arena is closed") end
    if attack_valid(A.ptr, id_arg(self.id)) then C.clv_arena_cancel_attack(A.ptr, self.id) end
  end

  -- ---- stepping and events ----

  local count = ffi.new("int32_t[1]")
  local attack_info = ffi.new("clv_attack_info")

  local function traceback(msg)
    return debug.traceback(tostring(msg), 2)
  end

  local function report(A, msg)
    A.errors_list[#A.errors_list + 1] = msg
    if A.on_error then A.on_error(msg) end
  end

  -- Reports each message of a list that ends with an empty one (clv_mod_run_callbacks').
  local function report_all(A, list)
    local at = 0
    while list[at] ~= 0 do
      local msg = ffi.string(list + at)
      report(A, msg)
      at = at + #msg + 1
    end
  end

  -- The hits of this frame as tables, through the game's on_hit callbacks. No closure is made
  -- here: a function that holds one ends every return with an instruction LuaJIT 2.1 does not
  -- compile (UCLO), and this one runs every frame.
  local function run_callbacks(A, first_hit)
    for i = 1, #A.mod_list do
      if not C.clv_mod_run_callbacks(A.mod_list[i].ptr, A.ptr, callback_errs, CALLBACK_ERR_LEN) then
        report_all(A, callback_errs)
      end
    end
    if #A.on_hits == 0 then return end
    for k = first_hit, A.hits_buf.n - 1 do
      local hit = A:hit_table(A.hits_buf.data[k])
      for _, fn in ipairs(A.on_hits) do
        local ok, err = xpcall(fn, traceback, hit)
        if not ok then report(A, err) end
      end
    end
  end

  -- Copies the events of the frame just stepped; true when there is one a callback hears.
  local function collect_events(A)
    local h = C.clv_arena_hits(A.ptr, count)
    local heard = count[0]
    if count[0] > 0 then buffer_append(A.hits_buf, h, count[0]) end
    local m = C.clv_arena_misses(A.ptr, count)
    if count[0] > 0 then buffer_append(A.misses_buf, m, count[0]) end
    local t = C.clv_arena_ticks(A.ptr, count)
    heard = heard + count[0]
    if count[0] > 0 then buffer_append(A.ticks_buf, t, count[0]) end
    local c = C.clv_arena_clashes(A.ptr, count)
    heard = heard + count[0]
    if count[0] > 0 then buffer_append(A.clashes_buf, c, count[0]) end
    local p = C.clv_arena_projectile_events(A.ptr, count)
    heard = heard + count[0]
    if count[0] > 0 then buffer_append(A.pevents_buf, p, count[0]) end
    return heard > 0
  end

  local function clear_events(A)
    A.hits_buf.n, A.misses_buf.n, A.ticks_buf.n = 0, 0, 0
    A.clashes_buf.n, A.pevents_buf.n = 0, 0
  end

  local function frames_arg(n)
    if n == nil then return 1 end
    if type(n) ~= "number" then util.typeerror(2, "step", "number", n) end
    if not is_int(n) or n < 0 or n > 1e9 then
      argerror(2, "step", "frames must be an integer in 0..1000000000, got " .. num_text(n))
    end
    return n
  end

  --- arena:step([n]) -> hits: steps n frames (default 1); the events of those frames are kept,
  --- and the number of hits among them is returned
  function Arena:step(n)
    check_arena(self)
    n = frames_arg(n)
    if self.in_callbacks > 0 then
      util.raise("step: the arena cannot step inside one of its callbacks")
    end
    clear_events(self)
    if #self.errors_list > 0 then self.errors_list = {} end
    local has_mods = #self.mod_list > 0
    for _ = 1, n do
      local st = C.clv_arena_step(self.ptr)
      if st ~= 0 then fail("step: %s", status_name(st)) end
      local h0 = self.hits_buf.n
      local events = collect_events(self)
      if events and (has_mods or #self.on_hits > 0) then
        self.in_callbacks = self.in_callbacks + 1
        run_callbacks(self, h0)
        self.in_callbacks = self.in_callbacks - 1
        if self.ptr == nil then util.raise("step: the arena was closed by a callback") end
      end
    end
    return self.hits_buf.n
  end

  function Arena:frame() return tonumber(C.clv_arena_frame(check_arena(self).ptr)) end
  function Arena:hit_count() return check_arena(self).hits_buf.n end
  function Arena:miss_count() return check_arena(self).misses_buf.n end
  function Arena:entity_count() return C.clv_arena_entity_count(check_arena(self).ptr) end

  --- arena:hit_events() -> pointer, count: the hits of the last step as a C array (0-based,
  --- clv_hit_event), valid until the next step; no table is built.
  function Arena:hit_events()
    local b = check_arena(self).hits_buf
    return b.data, b.n
  end

  --- arena:miss_events() -> pointer, count: the misses of the last step, like hit_events.
  function Arena:miss_events()
    local b = check_arena(self).misses_buf
    return b.data, b.n
  end

  local function hitbox_id(A, wid, attack, frame, hitbox)
    local d = arena_hitbox(A.ptr, id_arg(wid), attack, frame, hitbox)
    return d ~= nil and ffi.string(d.id) or "?"
  end

  local function set_target(A, t, id)
    local target = entity_handle(A, id)
    t.target = target
    t.target_name = A.names[id.index1]
  end

  --- The table of one hit event (the module's fields).
  function Arena:hit_table(h)
    local w = self.slots[h.weapon.index1]
    local t = {
      frame = tonumber(h.frame), weapon = w and w.name or "?",
      attack = w and w:attack_name(h.attack_index) or "?", attack_frame = h.attack_frame + 1,
      hitbox = hitbox_id(self, h.weapon, h.attack_index, h.attack_frame, h.hitbox),
      hitbox_index = h.hitbox + 1, hurtbox_index = h.hurtbox + 1,
      hurtbox = h.hurtbox_id[0] ~= 0 and ffi.string(h.hurtbox_id) or nil,
      group = h.group, damage = h.damage,
      knockback_x = h.knockback.x, knockback_y = h.knockback.y, x = h.point.x, y = h.point.y,
      t = h.blade_t, sweep_t = h.sweep_t, hitlag = h.hitlag, hitstun = h.hitstun,
      push_only = bit.band(h.flags, FLAG_PUSH_ONLY) ~= 0,
      invincible = bit.band(h.flags, FLAG_INVINCIBLE) ~= 0,
      killed = bit.band(h.flags, FLAG_KILLED) ~= 0, trade = bit.band(h.flags, FLAG_TRADE) ~= 0,
      blocked = bit.band(h.flags, FLAG_BLOCKED) ~= 0, armor = bit.band(h.flags, FLAG_ARMOR) ~= 0,
      grab = bit.band(h.flags, FLAG_GRAB) ~= 0,
      guard_break = bit.band(h.flags, FLAG_GUARD_BREAK) ~= 0,
      effects = {}, target_id = h.target.index1, attacker_id = h.attacker.index1,
      attacker = entity_handle(self, h.attacker),
    }
    set_target(self, t, h.target)
    return t
  end

  function Arena:hits()
    check_arena(self)
    local out = {}
    for k = 0, self.hits_buf.n - 1 do out[k + 1] = self:hit_table(self.hits_buf.data[k]) end
    return out
  end

  function Arena:misses()
    check_arena(self)
    local out = {}
    for k = 0, self.misses_buf.n - 1 do
      local m = self.misses_buf.data[k]
      local w = self.slots[m.weapon.index1]
      local t = {
        frame = tonumber(m.frame), attack = w and w:attack_name(m.attack_index) or "?",
        weapon = w and w.name or "?", attack_frame = m.attack_frame + 1,
        hitbox = hitbox_id(self, m.weapon, m.attack_index, m.attack_frame, m.hitbox),
        hitbox_index = m.hitbox + 1, group = m.group,
        reason = ffi.string(C.clv_miss_reason_name(m.reason)), distance = m.distance,
        target_id = m.target.index1,
      }
      set_target(self, t, m.target)
      out[k + 1] = t
    end
    return out
  end

  function Arena:ticks()
    check_arena(self)
    local out = {}
    for k = 0, self.ticks_buf.n - 1 do
      local e = self.ticks_buf.data[k]
      local t = { frame = tonumber(e.frame), effect = ffi.string(e.name), magnitude = e.magnitude,
        damage = e.damage, expired = e.expired, killed = e.killed, target_id = e.target.index1 }
      set_target(self, t, e.target)
      out[k + 1] = t
    end
    return out
  end

  function Arena:errors()
    check_arena(self)
    local out = {}
    for k, msg in ipairs(self.errors_list) do out[k] = msg end
    return out
  end

  function Arena:on_hit(fn)
    check_arena(self)
    if type(fn) ~= "function" then util.typeerror(2, "on_hit", "function", fn) end
    self.on_hits[#self.on_hits + 1] = fn
  end

  --- arena:hash() -> 16 hex digits
  function Arena:hash()
    return bit.tohex(C.clv_arena_hash(check_arena(self).ptr), 16)
  end

  function Arena:snapshot()
    check_arena(self)
    local size = C.clv_arena_snapshot_size(self.ptr)
    local buf, written = ffi.new("uint8_t[?]", size), ffi.new("size_t[1]")
    local st = C.clv_arena_snapshot(self.ptr, buf, size, written)
    if st ~= 0 then fail("snapshot: %s", status_name(st)) end
    return ffi.string(buf, written[0])
  end

  function Arena:restore(s)
    check_arena(self)
    if type(s) ~= "string" then
      util.typeerror(2, "restore", "string (from arena:snapshot())", s)
    end
    if self.in_callbacks > 0 then
      util.raise("restore: the arena cannot be restored inside one of its callbacks")
    end
    if C.clv_arena_restore_diag(self.ptr, s, #s, diag) ~= 0 then
      fail("restore: %s", diag_text())
    end
    clear_events(self)
  end

  -- ---- drawing support: what is in the arena now ----

  --- arena:entities() -> list of cleave.Entity, in id order
  function Arena:entities()
    check_arena(self)
    local out, cursor = {}, ffi.new("clv_entity_id")
    while C.clv_arena_next_entity(self.ptr, cursor) do
      out[#out + 1] = entity_handle(self, cursor)
    end
    return out
  end

  local shape_buf = ffi.new("clv_shape[64]")

  --- arena:each_hitbox(fn): fn(shape, n, attack) for every hitbox placed on the current frame
  --- of every attack in progress: shape a clv_shape valid during the call, n its place in its
  --- frame's list (1-based, its precedence), attack the attack's id number.
  function Arena:each_hitbox(fn)
    check_arena(self)
    local cursor = ffi.new("clv_attack_id")
    while C.clv_arena_next_attack(self.ptr, cursor) do
      local n = math.min(C.clv_arena_attack_hitboxes(self.ptr, cursor, shape_buf, 64), 64)
      for k = 0, n - 1 do fn(shape_buf[k], k + 1, cursor.index1) end
    end
  end

  --- arena:attack_progress(attack id) -> frame (1-based, 0 before its first step), length,
  --- weapon, attack index; nil once the attack has ended
  function Arena:attack_progress(id)
    check_arena(self)
    if C.clv_arena_attack(self.ptr, id, attack_info) ~= 0 then return nil end
    local w = self.slots[attack_info.weapon.index1]
    local def = w and C.clv_weapon_attack_def(w.ptr, attack_info.attack)
    return attack_info.frame + 1, def ~= nil and def.frames or 0, w, attack_info.attack
  end

  require("cleave.ffi_meet")(C, util, {
    Arena = Arena, Entity = Entity, Attack = Attack, Weapon = Weapon, check_arena = check_arena,
    check_entity = check_entity, entity_id = entity_id, entity_handle = entity_handle,
    arena_weapon = arena_weapon, attack_handle = attack_handle, hitbox_id = hitbox_id,
    check_fields = check_fields, value_text = value_text, fail = fail, diag = diag,
  })
  M.Arena, M.Entity, M.Attack, M.Weapon = Arena, Entity, Attack, Weapon
  return M
end
