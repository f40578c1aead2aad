-- cleave for LuaJIT (LÖVE): the query API, the arena and weapon mods through LuaJIT's FFI and
-- libcleave.so, with the names, semantics and error messages of the Lua 5.4 module where the
-- two overlap. Mods still run in their own Lua 5.4 sandboxes, inside the library.
--
--   local cleave = require "cleave.ffi"
--
-- The library is found through the CLEAVE_LIB environment variable (a path), else as
-- libcleave.so along package.cpath (each "?" read as "libcleave"), else by the system's loader.
local ffi = require "ffi"

ffi.cdef [[
typedef struct clv_allocator {
  void *(*alloc)(size_t size, void *ctx);
  void (*free)(void *ptr, size_t size, void *ctx);
  void *ctx;
} clv_allocator;
typedef struct clv_vec2 { float x, y; } clv_vec2;
typedef struct clv_circle { clv_vec2 c; float r; } clv_circle;
typedef struct clv_capsule { clv_vec2 a, b; float r; } clv_capsule;
typedef struct clv_aabb { clv_vec2 min, max; } clv_aabb;
typedef struct clv_obb { clv_vec2 c, h, u; } clv_obb;
typedef struct clv_shape {
  int type;
  union { clv_vec2 point; clv_circle circle; clv_capsule capsule; clv_aabb aabb; clv_obb obb; } u;
} clv_shape;
typedef struct clv_closest { float distance; clv_vec2 pa, pb; float ta, tb; } clv_closest;
typedef struct clv_contact {
  clv_vec2 normal; float depth; clv_vec2 point; float ta, tb;
} clv_contact;
typedef struct clv_ray_hit { float t; clv_vec2 normal; } clv_ray_hit;
typedef struct clv_ishape { int type; int64_t ax, ay, bx, by; int64_t r; } clv_ishape;

clv_shape clv_shape_point(float x, float y);
clv_shape clv_shape_circle(float x, float y, float r);
clv_shape clv_shape_capsule(float ax, float ay, float bx, float by, float r);
clv_shape clv_shape_aabb(float min_x, float min_y, float max_x, float max_y);
clv_shape clv_shape_obb(float cx, float cy, float half_w, float half_h, float angle);
clv_aabb clv_shape_bounds(const clv_shape *s);
bool clv_overlap(const clv_shape *a, const clv_shape *b);
float clv_distance(const clv_shape *a, const clv_shape *b);
clv_closest clv_closest_points(const clv_shape *a, const clv_shape *b);
bool clv_contact_shapes(const clv_shape *a, const clv_shape *b, clv_contact *out);
bool clv_raycast(const clv_shape *s, clv_vec2 origin, clv_vec2 dir, float max_t, clv_ray_hit *out);
bool clv_sweep(const clv_shape *moving, clv_vec2 delta, const clv_shape *target, float *out_t);
bool clv_exact_overlap(const clv_ishape *a, const clv_ishape *b);

typedef struct clv_hit_diag {
  int code; int32_t attack, frame, hitbox; char field[32]; char message[224];
} clv_hit_diag;
typedef struct clv_entity_id { uint32_t index1; uint16_t gen; } clv_entity_id;
typedef struct clv_attack_id { uint32_t index1; uint16_t gen; } clv_attack_id;
typedef struct clv_weapon_id { uint32_t index1; uint16_t gen; } clv_weapon_id;
typedef struct clv_weapon clv_weapon;
typedef struct clv_arena clv_arena;
/* only the leading name fields are read: these two are prefixes of the real types */
typedef struct clv_hitbox_def { char id[32]; } clv_hitbox_def;
typedef struct clv_attack_def { char name[32]; int32_t frames; } clv_attack_def;
typedef struct clv_arena_def {
  clv_allocator allocator; int32_t entity_capacity; float miss_margin;
  float grid_cell_size; clv_vec2 grid_origin; int32_t grid_cols, grid_rows;
  uint64_t (*clock_ns)(void *ctx); void *clock_ctx;
  float sweep_tolerance; float clank_range; int32_t parry_stun;
} clv_arena_def;
typedef struct clv_entity_def {
  clv_vec2 position, velocity; float weight, friction, hp; int32_t team; int state;
  int32_t hurtbox_count; clv_shape hurtboxes[4]; uint64_t user;
} clv_entity_def;
typedef struct clv_entity_info {
  clv_vec2 position, velocity; float weight, friction, hp, damage_taken; int32_t team;
  int state; int32_t state_frames; bool alive; int32_t hitlag, hitstun, effect_count,
  hurtbox_count; uint64_t user;
} clv_entity_info;
typedef struct clv_attack_start_def {
  clv_weapon_id weapon; int32_t attack; clv_entity_id owner; clv_vec2 position; float facing;
  bool mirror, follow_owner;
} clv_attack_start_def;
typedef struct clv_attack_info {
  clv_weapon_id weapon; int32_t attack; clv_entity_id owner; int32_t frame, elapsed,
  targets_hit; clv_vec2 position; float facing; bool mirror;
} clv_attack_info;
typedef struct clv_hit_event {
  int64_t frame; clv_attack_id attack; clv_entity_id attacker, target; clv_weapon_id weapon;
  int32_t attack_index, attack_frame, hitbox, group; float damage; clv_vec2 knockback, point;
  float blade_t; int32_t hitlag, hitstun; uint32_t effects, flags; float sweep_t;
  int32_t hurtbox; char hurtbox_id[32];
} clv_hit_event;
typedef struct clv_miss_record {
  int64_t frame; clv_attack_id attack; clv_weapon_id weapon; clv_entity_id attacker, target;
  int32_t attack_index, attack_frame, hitbox, group; int reason; float distance;
} clv_miss_record;
typedef struct clv_tick_event {
  int64_t frame; clv_entity_id target; clv_weapon_id weapon; char name[32]; float magnitude,
  damage; bool expired, killed;
} clv_tick_event;
typedef struct clv_clash_event {
  int64_t frame; int kind; int32_t winner; clv_attack_id attack[2]; clv_entity_id owner[2];
  clv_weapon_id weapon[2]; int32_t attack_index[2], attack_frame[2], hitbox[2]; float damage[2];
  int32_t stun[2]; clv_vec2 point; float sweep_t;
} clv_clash_event;
typedef struct clv_projectile_def {
  clv_weapon_id weapon; int32_t attack; clv_entity_id owner; clv_vec2 position, velocity;
  float facing; bool mirror; int32_t lifetime, pierce; float gravity; bool loop,
  destroy_on_clank, reflectable, absorbable;
} clv_projectile_def;
typedef struct clv_projectile_event {
  int64_t frame; int kind; clv_attack_id projectile; clv_entity_id owner; clv_weapon_id weapon;
  clv_vec2 position, velocity; clv_entity_id by; clv_attack_id by_attack; int32_t by_hitbox;
  float damage; int32_t reason;
} clv_projectile_event;
typedef struct clv_projectile_info {
  clv_entity_id owner; int32_t team; clv_vec2 position, velocity; int32_t lifetime, hits;
  float damage_scale;
} clv_projectile_info;

const char *clv_hit_status_name(int status);
const char *clv_miss_reason_name(int reason);
const char *clv_weapon_name(const clv_weapon *weapon);
int32_t clv_weapon_find_attack(const clv_weapon *weapon, const char *name);
int32_t clv_weapon_attack_count(const clv_weapon *weapon);
const clv_attack_def *clv_weapon_attack_def(const clv_weapon *weapon, int32_t index);
int32_t clv_weapon_frame_hitbox_count(const clv_weapon *weapon, int32_t attack, int32_t frame);
clv_arena_def clv_default_arena_def(void);
clv_entity_def clv_default_entity_def(void);
clv_attack_start_def clv_default_attack_start_def(void);
clv_arena *clv_arena_create(const clv_arena_def *def, clv_hit_diag *diag);
void clv_arena_destroy(clv_arena *arena);
const clv_hitbox_def *clv_arena_hitbox(const clv_arena *arena, clv_weapon_id weapon,
                                       int32_t attack, int32_t frame, int32_t hitbox);
int clv_arena_spawn(clv_arena *arena, const clv_entity_def *def, clv_entity_id *out,
                    clv_hit_diag *diag);
int clv_arena_remove(clv_arena *arena, clv_entity_id id);
bool clv_arena_entity_valid(const clv_arena *arena, clv_entity_id id);
int clv_arena_entity(const clv_arena *arena, clv_entity_id id, clv_entity_info *out);
int clv_arena_set_position(clv_arena *arena, clv_entity_id id, clv_vec2 position);
int clv_arena_set_velocity(clv_arena *arena, clv_entity_id id, clv_vec2 velocity);
int clv_arena_set_state(clv_arena *arena, clv_entity_id id, int state, int32_t frames);
int clv_arena_set_hp(clv_arena *arena, clv_entity_id id, float hp);
int32_t clv_arena_entity_count(const clv_arena *arena);
bool clv_arena_next_entity(const clv_arena *arena, clv_entity_id *cursor);
bool clv_arena_next_attack(const clv_arena *arena, clv_attack_id *cursor);
int clv_arena_start_attack(clv_arena *arena, const clv_attack_start_def *def,
                           clv_attack_id *out, clv_hit_diag *diag);
int clv_arena_cancel_attack(clv_arena *arena, clv_attack_id id);
bool clv_arena_attack_valid(const clv_arena *arena, clv_attack_id id);
int clv_arena_attack(const clv_arena *arena, clv_attack_id id, clv_attack_info *out);
int32_t clv_arena_attack_hitboxes(const clv_arena *arena, clv_attack_id id, clv_shape *out,
                                  int32_t cap);
int clv_arena_step(clv_arena *arena);
int64_t clv_arena_frame(const clv_arena *arena);
const clv_hit_event *clv_arena_hits(const clv_arena *arena, int32_t *count);
const clv_miss_record *clv_arena_misses(const clv_arena *arena, int32_t *count);
const clv_tick_event *clv_arena_ticks(const clv_arena *arena, int32_t *count);
const clv_clash_event *clv_arena_clashes(const clv_arena *arena, int32_t *count);
const clv_projectile_event *clv_arena_projectile_events(const clv_arena *arena, int32_t *count);
clv_projectile_def clv_default_projectile_def(void);
int clv_arena_spawn_projectile(clv_arena *arena, const clv_projectile_def *def, clv_attack_id *out,
                               clv_hit_diag *diag);
int clv_arena_projectile(const clv_arena *arena, clv_attack_id id, clv_projectile_info *out);
size_t clv_arena_snapshot_size(const clv_arena *arena);
int clv_arena_snapshot(const clv_arena *arena, void *buffer, size_t capacity, size_t *written);
int clv_arena_restore_diag(clv_arena *arena, const void *buffer, size_t size, clv_hit_diag *diag);
uint64_t clv_arena_hash(const clv_arena *arena);

typedef struct clv_mod clv_mod;
typedef struct clv_mod_limits { size_t memory_bytes; double load_ms, callback_ms; } clv_mod_limits;
clv_mod *clv_mod_load(const char *dir, char *err, size_t errlen);
void clv_mod_free(clv_mod *mod);
const char *clv_mod_name(const clv_mod *mod);
const char *clv_mod_version(const clv_mod *mod);
int32_t clv_mod_weapon_count(const clv_mod *mod);
const char *clv_mod_weapon_name(const clv_mod *mod, int32_t index);
const clv_weapon *clv_mod_weapon(const clv_mod *mod, int32_t index);
int32_t clv_mod_weapon_first(const clv_mod *mod, int32_t index);
bool clv_mod_add_weapons(clv_mod *mod, clv_arena *arena, clv_weapon_id *out, char *err,
                         size_t errlen);
bool clv_mod_run_callbacks(clv_mod *mod, clv_arena *arena, char *err, size_t errlen);

const char *clv_version(void);
int clv_abi_version(void);
size_t clv_abi_sizeof(const char *type_name);

/* a shape of this binding: the float shape and the numbers as given, for unpack and exact */
typedef struct clv_ffi_shape { clv_shape f; double v[5]; int32_t n; } clv_ffi_shape;
]]

local ABI = 1
local C_CHECKED = { "clv_shape", "clv_closest", "clv_contact", "clv_ray_hit", "clv_ishape",
  "clv_allocator", "clv_hit_diag", "clv_entity_id", "clv_attack_id", "clv_weapon_id",
  "clv_arena_def", "clv_entity_def", "clv_entity_info", "clv_attack_start_def",
  "clv_attack_info", "clv_hit_event", "clv_miss_record", "clv_tick_event", "clv_mod_limits",
  "clv_clash_event", "clv_projectile_def", "clv_projectile_event", "clv_projectile_info" }

local function find_library()
  local env = os.getenv("CLEAVE_LIB")
  if env and env ~= "" then return env end
  for pattern in package.cpath:gmatch("[^;]+") do
    local path = pattern:gsub("%?", "libcleave")
    local f = io.open(path, "rb")
    if f then
      f:close()
      return path
    end
  end
  return "cleave"
end

-- The library, checked to be the ABI and the type sizes this file declares.
local function load_library()
  local path = find_library()
  local ok, lib = pcall(ffi.load, path)
  if not ok then
    error(("cleave.ffi: cannot load %s (set CLEAVE_LIB to the path of libcleave.so): %s")
      :format(path, tostring(lib)), 0)
  end
  if lib.clv_abi_version() ~= ABI then
    error(("cleave.ffi: %s has ABI %d, this binding needs %d"):format(path,
      lib.clv_abi_version(), ABI), 0)
  end
  for _, name in ipairs(C_CHECKED) do
    local theirs = tonumber(lib.clv_abi_sizeof(name))
    if theirs ~= ffi.sizeof(name) then
      error(("cleave.ffi: %s is %d bytes in %s and %d here: the library and this file come "
        .. "from different versions"):format(name, theirs, path, ffi.sizeof(name)), 0)
    end
  end
  return lib
end

local C = load_library()
local M = { _VERSION = "cleave " .. ffi.string(C.clv_version()), exact = {} }
local Shape = ffi.typeof("clv_ffi_shape")

-- ---------------------------------------------------------------------------------------------
-- Arguments and their messages (those of the Lua 5.4 module)
-- ---------------------------------------------------------------------------------------------

local FLT_MAX = 3.4028234663852886e38
local INT_LIMIT = 2 ^ 63

local function in_binding(source)
  return source:find("cleave/ffi%.lua$") ~= nil or source:find("cleave/ffi_arena%.lua$") ~= nil
    or source:find("cleave/ffi_meet%.lua$") ~= nil
end

-- Where the binding was entered: the frame that called it (nil at the bottom of the stack),
-- and the binding's outermost frame, whose namewhat tells a method call.
local function entry_frames()
  local level, entry = 3, nil
  while true do
    local info = debug.getinfo(level, "Slnf")
    if info == nil or not in_binding(info.source) then return info, entry end
    entry, level = info, level + 1
  end
end

-- Raises msg as the C module does: after the calling line, when Lua code called the binding.
local function raise(msg)
  local caller = entry_frames()
  if caller and caller.currentline > 0 then
    msg = ("%s:%d: %s"):format(caller.short_src, caller.currentline, msg)
  end
  error(msg, 0)
end

-- arg counts every argument; a method call does not count self, as in Lua. A module function
-- called without a name (through pcall) is named by its place in the module.
local function argerror(arg, fname, msg)
  local _, entry = entry_frames()
  if entry and entry.namewhat == "method" then arg = arg - 1 end
  if entry and entry.name == nil then
    if M[fname] == entry.func then fname = "cleave." .. fname end
    if M.exact[fname] == entry.func then fname = "cleave.exact." .. fname end
  end
  raise(("bad argument #%d to '%s' (%s)"):format(arg, fname, msg))
end

local function is_int(v)
  return v == math.floor(v) and math.abs(v) < INT_LIMIT
end

-- A number as the Lua 5.4 module prints it: integers without a fraction, floats with the
-- fewest digits that read back (and ".0" when that looks like an integer).
local function num_text(v)
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  if is_int(v) then return ("%d"):format(v) end
  local s
  for prec = 14, 17 do
    s = ("%." .. prec .. "g"):format(v)
    if tonumber(s) == v then break end
  end
  if not s:find("[^%-0-9]") then s = s .. ".0" end
  return s
end

local type_names = {}

local function typename(v, none)
  if none then return "no value" end
  if ffi.istype(Shape, v) then return "cleave.Shape" end
  local mt = type(v) == "table" and getmetatable(v)
  if mt and type_names[mt] then return type_names[mt] end
  return type(v)
end

local function typeerror(arg, fname, expected, v, none)
  argerror(arg, fname, ("%s expected, got %s"):format(expected, typename(v, none)))
end

-- Raises when more than n arguments were passed.
local function check_nargs(fname, n, ...)
  if select("#", ...) > n then
    typeerror(n + 1, fname, "no value", (select(n + 1, ...)))
  end
end

local function check_number(v, arg, fname, pname, none)
  if type(v) ~= "number" then typeerror(arg, fname, "number", v, none) end
  if v ~= v then argerror(arg, fname, pname .. " must not be nan") end
  if not is_int(v) and math.abs(v) > FLT_MAX then
    local rule = (v == math.huge or v == -math.huge) and "be finite" or "fit in a float"
    argerror(arg, fname, ("%s must %s, got %s"):format(pname, rule, num_text(v)))
  end
  return v
end

local function check_shape(v, arg, fname, none)
  if not ffi.istype(Shape, v) then typeerror(arg, fname, "cleave.Shape", v, none) end
  return v
end

-- ---------------------------------------------------------------------------------------------
-- Shapes
-- ---------------------------------------------------------------------------------------------

local KINDS = { [0] = "point", "circle", "capsule", "aabb", "obb" }
local PARAMS = {
  point = { "x", "y" }, circle = { "x", "y", "radius" },
  capsule = { "ax", "ay", "bx", "by", "radius" }, aabb = { "min_x", "min_y", "max_x", "max_y" },
  obb = { "cx", "cy", "half_w", "half_h", "angle" },
}

-- Round half to even, as C's nearbyint in the default rounding mode.
local function nearbyint(x)
  local r = math.floor(x + 0.5)
  if r - x == 0.5 and r % 2 ~= 0 then r = r - 1 end
  return r
end

-- The unit x axis of a box turned by deg degrees, reduced to the nearest quarter turn first so
-- that multiples of 90 give exact axes (the module's rule, bit for bit).
local function axis_from_degrees(deg)
  local turn = math.fmod(deg, 360)
  local quarter = nearbyint(turn / 90)
  local rad = (turn - quarter * 90) * (math.pi / 180)
  local c, s = math.cos(rad), math.sin(rad)
  local q = math.fmod(math.fmod(quarter, 4) + 4, 4)
  if q == 1 then return -s, c end
  if q == 2 then return -c, -s end
  if q == 3 then return s, -c end
  return c, s
end

local function build_shape(kind, v)
  if kind == "point" then return C.clv_shape_point(v[1], v[2]) end
  if kind == "circle" then return C.clv_shape_circle(v[1], v[2], v[3]) end
  if kind == "capsule" then return C.clv_shape_capsule(v[1], v[2], v[3], v[4], v[5]) end
  if kind == "aabb" then return C.clv_shape_aabb(v[1], v[2], v[3], v[4]) end
  local f = C.clv_shape_obb(v[1], v[2], v[3], v[4], math.fmod(v[5], 360) * (math.pi / 180))
  f.u.obb.u.x, f.u.obb.u.y = axis_from_degrees(v[5])
  return f
end

local function check_shape_rules(kind, v, fname)
  local names = PARAMS[kind]
  local radius = (kind == "circle" and 3) or (kind == "capsule" and 5)
  if radius and v[radius] < 0 then
    argerror(radius, fname, "radius must be >= 0, got " .. num_text(v[radius]))
  end
  if kind == "aabb" then
    for axis = 1, 2 do
      if v[axis + 2] < v[axis] then
        argerror(axis + 2, fname, ("%s must be >= %s (%s), got %s"):format(names[axis + 2],
          names[axis], num_text(v[axis]), num_text(v[axis + 2])))
      end
    end
  end
  if kind == "obb" then
    for i = 3, 4 do
      if v[i] < 0 then
        argerror(i, fname, ("%s must be >= 0, got %s"):format(names[i], num_text(v[i])))
      end
    end
  end
end

local function constructor(kind)
  local names = PARAMS[kind]
  return function(...)
    local n = select("#", ...)
    local v = { ... }
    for i = 1, #names do check_number(v[i], i, kind, names[i], i > n) end
    check_nargs(kind, #names, ...)
    check_shape_rules(kind, v, kind)
    local s = Shape()
    s.f = build_shape(kind, v)
    s.n = #names
    for i = 1, #names do s.v[i - 1] = v[i] end
    return s
  end
end

for kind in pairs(PARAMS) do M[kind] = constructor(kind) end

function M.is_shape(...)
  if select("#", ...) == 0 then typeerror(1, "is_shape", "value", nil, true) end
  check_nargs("is_shape", 1, ...)
  return ffi.istype(Shape, (...))
end

-- ---------------------------------------------------------------------------------------------
-- Queries: each is a function, and a method of shapes
-- ---------------------------------------------------------------------------------------------

local scratch_contact, scratch_ray, scratch_t = ffi.new("clv_contact"), ffi.new("clv_ray_hit"),
  ffi.new("float[1]")

-- The two shapes of a pair query, checked.
local function pair(fname, ...)
  local n = select("#", ...)
  local a, b = ...
  check_shape(a, 1, fname, n < 1)
  check_shape(b, 2, fname, n < 2)
  check_nargs(fname, 2, ...)
  return a, b
end

local queries = {}

function queries.overlaps(...)
  local a, b = pair("overlaps", ...)
  return C.clv_overlap(a.f, b.f)
end

function queries.distance(...)
  local a, b = pair("distance", ...)
  return C.clv_distance(a.f, b.f)
end

function queries.contact(...)
  local a, b = pair("contact", ...)
  if not C.clv_contact_shapes(a.f, b.f, scratch_contact) then return nil end
  local c = scratch_contact
  return c.normal.x, c.normal.y, c.depth
end

function queries.closest(...)
  local a, b = pair("closest", ...)
  local c = C.clv_closest_points(a.f, b.f)
  return c.distance, c.pa.x, c.pa.y, c.pb.x, c.pb.y, c.ta, c.tb
end

local RAY_NAMES = { "ox", "oy", "dx", "dy", "max_t" }

function queries.raycast(...)
  local n = select("#", ...)
  local s = check_shape((...), 1, "raycast", n < 1)
  local v = { select(2, ...) }
  for i = 1, 5 do check_number(v[i], i + 1, "raycast", RAY_NAMES[i], i + 1 > n) end
  if v[5] < 0 then
    argerror(6, "raycast", "max_t must be >= 0, got " .. num_text(v[5]))
  end
  check_nargs("raycast", 6, ...)
  local origin, dir = ffi.new("clv_vec2", v[1], v[2]), ffi.new("clv_vec2", v[3], v[4])
  if not C.clv_raycast(s.f, origin, dir, v[5], scratch_ray) then return nil end
  return scratch_ray.t, scratch_ray.normal.x, scratch_ray.normal.y
end

function queries.sweep(...)
  local n = select("#", ...)
  local moving, dx, dy, target = ...
  check_shape(moving, 1, "sweep", n < 1)
  check_number(dx, 2, "sweep", "dx", n < 2)
  check_number(dy, 3, "sweep", "dy", n < 3)
  check_shape(target, 4, "sweep", n < 4)
  check_nargs("sweep", 4, ...)
  if not C.clv_sweep(moving.f, ffi.new("clv_vec2", dx, dy), target.f, scratch_t) then
    return nil
  end
  return scratch_t[0]
end

for name, q in pairs(queries) do M[name] = q end

-- ---------------------------------------------------------------------------------------------
-- Exact mode
-- ---------------------------------------------------------------------------------------------

local EXACT_LIMIT = 2 ^ 30

local function to_ishape(s, arg)
  local kind = KINDS[s.f.type]
  if kind == "obb" then argerror(arg, "overlaps", "exact mode: obb is not supported") end
  local names = PARAMS[kind]
  for i = 1, s.n do
    local v = s.v[i - 1]
    if not is_int(v) then
      argerror(arg, "overlaps", ("exact mode: %s must be an integer, got %s"):format(names[i],
        num_text(v)))
    end
    local is_radius = names[i] == "radius"
    local out = is_radius and (v < 0 or v > EXACT_LIMIT) or math.abs(v) > EXACT_LIMIT
    if out then
      argerror(arg, "overlaps", ("exact mode: %s must be in %s, got %s"):format(names[i],
        is_radius and "[0, 2^30]" or "[-2^30, 2^30]", num_text(v)))
    end
  end
  local v, r = s.v, ffi.new("clv_ishape")
  r.type = s.f.type
  if kind == "point" then
    r.ax, r.ay, r.bx, r.by = v[0], v[1], v[0], v[1]
  elseif kind == "circle" then
    r.ax, r.ay, r.bx, r.by, r.r = v[0], v[1], v[0], v[1], v[2]
  else
    r.ax, r.ay, r.bx, r.by = v[0], v[1], v[2], v[3]
    if kind == "capsule" then r.r = v[4] end
  end
  return r
end

function M.exact.overlaps(...)
  local a, b = pair("overlaps", ...)
  return C.clv_exact_overlap(to_ishape(a, 1), to_ishape(b, 2))
end

-- ---------------------------------------------------------------------------------------------
-- Shape methods and metamethods
-- ---------------------------------------------------------------------------------------------

local shape_methods = {}

function shape_methods.kind(s) return KINDS[s.f.type] end

function shape_methods.unpack(s)
  local out = {}
  for i = 1, s.n do out[i] = s.v[i - 1] end
  return unpack(out, 1, s.n)
end

function shape_methods.bounds(s)
  local b = C.clv_shape_bounds(s.f)
  return b.min.x, b.min.y, b.max.x, b.max.y
end

for name, q in pairs(queries) do shape_methods[name] = q end

ffi.metatype(Shape, {
  __index = shape_methods,
  __eq = function(a, b)
    if not (ffi.istype(Shape, a) and ffi.istype(Shape, b)) or a.f.type ~= b.f.type then
      return false
    end
    for i = 0, a.n - 1 do
      if a.v[i] ~= b.v[i] then return false end
    end
    return true
  end,
  __tostring = function(s)
    local kind, parts = KINDS[s.f.type], {}
    for i = 1, s.n do
      local name = PARAMS[kind][i]
      parts[i] = (name == "radius" and "r=" or "") .. num_text(s.v[i - 1])
    end
    return ("%s(%s)"):format(kind, table.concat(parts, ", "))
  end,
})

return require("cleave.ffi_arena")(M, C, {
  raise = raise, argerror = argerror, typeerror = typeerror, typename = typename,
  type_names = type_names,
  num_text = num_text, is_int = is_int, Shape = Shape, PARAMS = PARAMS,
})
