-- cleave.testing: hit-regression tests for weapons, on top of busted (or any runner whose
-- failures are Lua errors).
--
--   local T = require "cleave.testing"
--   local arena = T.arena {}               -- a cleave.Arena whose every frame is recorded
--   ... spawn, attack, arena:step(n) ...
--   T.expect_hit { frame = 6, hitbox = "blade", target = dummy, damage = 8 }
--   T.expect_miss { target = ally, reason = "team" }
--   T.golden("swing", T.log())             -- compared with spec/golden/swing.log
--   print(T.coverage_report(weapon))       -- (attack, frame, hitbox) no test hit
--
-- Frames are arena frames (arena:frame() after the step that played them), 1-based like
-- everything in the Lua API.
local cleave = require "cleave"
local suggest = require "cleave.suggest"

local M = {}

-- ---------------------------------------------------------------------------------------------
-- Errors at the spec's line

-- This file as error positions name it.
local HERE = debug.getinfo(1, "S").short_src

-- "file:line: " of the first Lua function on the stack outside this file: the spec line that
-- called cleave.testing, however many of its helpers and tail calls lie in between.
local function caller_where()
  local level = 2
  while true do
    local info = debug.getinfo(level, "Sl")
    if info == nil then return "" end
    if info.short_src ~= HERE and info.currentline > 0 then
      return info.short_src .. ":" .. info.currentline .. ": "
    end
    level = level + 1
  end
end

-- A call of cleave.testing that is wrong in itself (a typo, a wrong type): an error.
local function misuse(msg)
  error(caller_where() .. msg, 0)
end

-- An expectation that did not hold. busted counts its own fail() objects as failures and any
-- other error as an error, so it is raised through busted.fail when busted runs the spec.
local function fail(msg)
  msg = caller_where() .. msg
  local busted = package.loaded.busted
  local busted_fail = type(busted) == "table" and busted.fail
  if busted_fail then busted_fail(msg, 0) end
  error(msg, 0)
end

-- Returns the results of a pcall that succeeded; else raises its error again, with the
-- position of a call made from this file replaced by the spec's.
local function rethrow(ok, ...)
  if ok then return ... end
  local err = ...
  if type(err) == "string" and err:sub(1, #HERE + 1) == HERE .. ":" then
    local rest = err:match("^%d+: (.*)$", #HERE + 2)
    if rest then err = caller_where() .. rest end
  end
  error(err, 0)
end

-- ---------------------------------------------------------------------------------------------
-- Recording arenas

local current            -- the arena the expect_* functions look at by default
local records = setmetatable({}, { __mode = "k" }) -- arena -> {hits = {}, misses = {}}
local covered = {}       -- "weapon\0attack\0frame\0hitbox" -> true, every arena of this state

local function cover_key(weapon, attack, frame, hitbox)
  return weapon .. "\0" .. attack .. "\0" .. frame .. "\0" .. hitbox
end

local function record_of(arena)
  local r = records[arena]
  if not r then
    misuse("cleave.testing: this arena was not made by T.arena (its frames are not recorded)")
  end
  return r
end

local Recorded = {}
local recorded_methods = {} -- the methods the wrapper replaces
local forwarders = {}       -- method name -> function(proxy, ...) calling the arena's method

local function wrap(arena)
  local proxy = setmetatable({ raw = arena }, Recorded)
  records[proxy] = { hits = {}, misses = {}, ticks = {}, clashes = {}, projectiles = {} }
  return proxy
end

-- The event lists of a step, by the name of the arena's method that gives each.
local EVENTS = { "hits", "misses", "ticks", "clashes", "projectile_events", "errors" }

local function append(list, items)
  for _, v in ipairs(items) do list[#list + 1] = v end
end

-- Keeps a frame's events in the record (every frame so far) and in last (the frames of the
-- step(n) under way).
local function record_frame(raw, r, last)
  local got = {}
  for _, k in ipairs(EVENTS) do
    got[k] = raw[k](raw)
    append(last[k], got[k])
  end
  for _, h in ipairs(got.hits) do
    covered[cover_key(h.weapon, h.attack, h.attack_frame, h.hitbox)] = true
  end
  append(r.hits, got.hits)
  append(r.misses, got.misses)
  append(r.ticks, got.ticks)
  append(r.clashes, got.clashes)
  append(r.projectiles, got.projectile_events)
end

-- A Lua frame between pcall and the arena, so that the arena's argument errors count the
-- arguments of a method call and carry a position, which rethrow turns into the spec's.
local function raw_step(raw, n) return raw:step(n) end

-- Steps one frame at a time so that every frame's events are kept; returns what
-- arena:step(n) returns, the number of hits in those frames.
function recorded_methods.step(self, n)
  n = n or 1
  if math.type(n) ~= "integer" or n < 0 then
    return rethrow(pcall(raw_step, self.raw, n)) -- refused by the arena, with its message
  end
  local r, hits, last = records[self], 0, {}
  for _, k in ipairs(EVENTS) do last[k] = {} end
  for _ = 1, n do
    hits = hits + self.raw:step(1)
    record_frame(self.raw, r, last)
  end
  r.last = last
  return hits
end

-- The events of the whole last step(n), as arena:step(n) leaves them, not only of its last
-- frame: a fresh list each call, as the arena gives.
for _, k in ipairs(EVENTS) do
  recorded_methods[k] = function(self)
    local last = records[self].last
    local list = {}
    if last then append(list, last[k]) end
    return list
  end
end

function recorded_methods.hit_count(self)
  local last = records[self].last
  return last and #last.hits or 0
end

function recorded_methods.miss_count(self)
  local last = records[self].last
  return last and #last.misses or 0
end

-- A function calling method k of an arena with the method syntax, as raw_step does for step.
-- Its chunk bears this file's name, so that rethrow finds the position of its errors.
local function method_caller(k)
  local chunk = type(k) == "string" and k:match("^[%a_][%w_]*$") and
    load(("return function(raw, ...) return raw:%s(...) end"):format(k), "=" .. HERE)
  if chunk then return chunk() end
  return function(raw, ...) return raw[k](raw, ...) end -- a name the syntax cannot spell
end

-- A restore leaves no events of a step, as on the arena itself.
local restore_call = method_caller("restore")
function recorded_methods.restore(self, ...)
  local results = table.pack(rethrow(pcall(restore_call, self.raw, ...)))
  records[self].last = nil
  return table.unpack(results, 1, results.n)
end

-- Any other key is the arena's: a method is forwarded through one function per name, made on
-- first use and shared by every wrapped arena.
Recorded.__index = function(self, k)
  local f = recorded_methods[k] or forwarders[k]
  if f then return f end
  local v = self.raw[k]
  if type(v) ~= "function" then return v end
  local call = method_caller(k)
  f = function(proxy, ...) return rethrow(pcall(call, proxy.raw, ...)) end
  forwarders[k] = f
  return f
end

Recorded.__tostring = function(self) return "recorded " .. tostring(self.raw) end

-- A Lua frame between pcall and cleave.arena, as raw_step is for step: its errors name the spec.
local function new_arena(def) return cleave.arena(def) end

--- A new arena (cleave.arena(def)) whose every frame is recorded; it becomes the current one.
function M.arena(def)
  current = wrap(rethrow(pcall(new_arena, def or {})))
  return current
end

--- Makes arena (from T.arena) the one expect_* and log look at by default.
function M.use(arena)
  record_of(arena)
  current = arena
end

--- Every hit recorded so far (arena defaults to the current one).
function M.hits(arena) return record_of(arena or current).hits end

--- Every miss recorded so far.
function M.misses(arena) return record_of(arena or current).misses end

-- ---------------------------------------------------------------------------------------------
-- Expectations

local function label(entity)
  if entity == nil then return "?" end
  if type(entity) == "string" then return entity end
  return entity:name() or ("#" .. entity:id())
end

local describe_want -- fmt shows a nested want (another side's fields) through it

local function fmt(v)
  if type(v) == "number" then
    if math.type(v) == "integer" then return tostring(v) end
    local text = ("%.3f"):format(v):gsub("0+$", ""):gsub("%.$", "")
    if text == "-0" then text = "0" end
    return text
  end
  if type(v) == "string" then return ("%q"):format(v) end
  if type(v) == "userdata" then return label(v) end
  if type(v) == "table" then return describe_want(v) end -- a side's fields (`other`)
  return tostring(v)
end

function describe_want(want)
  local keys = {}
  for k in pairs(want) do
    if k ~= "arena" then keys[#keys + 1] = k end
  end
  table.sort(keys)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = k .. "=" .. fmt(want[k]) end
  return "{" .. table.concat(parts, ", ") .. "}"
end

-- The fields an expectation may name: those of arena:hits() / arena:misses() entries.
local HIT_KEYS = {
  "arena", "frame", "weapon", "attack", "attack_frame", "hitbox", "hitbox_index", "hurtbox",
  "hurtbox_index", "group", "damage", "knockback_x", "knockback_y", "x", "y", "t", "sweep_t",
  "hitlag", "hitstun",
  "push_only", "invincible", "killed", "trade", "blocked", "armor", "grab", "guard_break",
  "effects", "target", "target_id", "target_name", "attacker", "attacker_id",
}
local MISS_KEYS = {
  "arena", "frame", "weapon", "attack", "attack_frame", "hitbox", "hitbox_index", "group",
  "reason", "distance", "target", "target_id", "target_name",
}
local REASONS = {
  "out_of_reach", "team", "dead", "intangible", "rehit", "lockout", "precedence", "max_hits",
  "max_targets", "clanked", "outprioritized", "transcended", "parried", "reflected", "absorbed",
  "layer", "airborne", "grounded", "facing", "interrupted", "not_thrown",
}

-- True when the letters of short appear in long in order ("dmg" in "damage").
local function abbreviates(short, long)
  if #short < 2 or #short >= #long then return false end
  local at = 1
  for i = 1, #short do
    at = long:find(short:sub(i, i), at, true)
    if not at then return false end
    at = at + 1
  end
  return short:sub(1, 1) == long:sub(1, 1)
end

-- The known name a typo most likely meant (a slip, else an abbreviation), or nil.
local function nearest(name, known)
  local near = suggest.nearest(name, known)
  if near then return near end
  for _, k in ipairs(known) do
    if abbreviates(name, k) then return k end
  end
  return nil
end

local function has(list, v)
  for _, k in ipairs(list) do
    if k == v then return true end
  end
  return false
end

-- A weapon given as the object (mod.weapons.sword, a cleave.weapon) stands for its name, the
-- value events carry.
local function weapon_name(v)
  if type(v) == "userdata" or type(v) == "cdata" then
    local ok, name = pcall(function() return v:name() end)
    if ok and type(name) == "string" then return name end
  end
  return v
end

-- Checks want's keys against known and returns a copy in which weapons given as objects are
-- their names (a winner given as 1 or 2 stays the side). An expectation naming a field that no
-- event has, or a reason that does not exist, would never match and fail with a listing that
-- hides the typo: it is refused by name instead.
local function check_want(fname, want, known)
  if type(want) ~= "table" then
    misuse(("%s: expected a table of fields, got %s"):format(fname, type(want)))
  end
  for k in pairs(want) do
    if type(k) ~= "string" or not has(known, k) then
      local near = type(k) == "string" and nearest(k, known)
      misuse(("%s: unknown field '%s'%s"):format(fname, tostring(k),
        near and (" (did you mean '%s'?)"):format(near) or
        (" (fields: " .. table.concat(known, ", ", 2) .. ")")))
    end
  end
  local reason = want.reason
  if reason ~= nil and not has(REASONS, reason) then
    local near = type(reason) == "string" and nearest(reason, REASONS)
    misuse(("%s: unknown reason %s%s"):format(fname,
      type(reason) == "string" and ("'" .. reason .. "'") or fmt(reason),
      near and (" (did you mean '%s'?)"):format(near) or
      (" (reasons: " .. table.concat(REASONS, ", ") .. ")")))
  end
  local copy = {}
  for k, v in pairs(want) do
    copy[k] = (k == "weapon" or k == "winner") and weapon_name(v) or v
  end
  return copy
end

-- How an event names its target: by name, else "#<id>" (an expectation may use either).
local function target_label(event)
  return event.target_name or ("#" .. tostring(event.target_id))
end

local function matches(event, want)
  for k, v in pairs(want) do
    if k ~= "arena" then
      local got = event[k]
      if k == "target" and type(v) == "string" then
        got = target_label(event)
      end
      if type(v) == "number" and type(got) == "number" then
        if math.abs(v - got) > 1e-4 * math.max(1, math.abs(v)) then return false end
      elseif got ~= v then
        return false
      end
    end
  end
  return true
end

local function hit_line(h)
  local kb = ""
  if h.knockback_x ~= 0 or h.knockback_y ~= 0 then
    kb = ("  kb (%s, %s)"):format(fmt(h.knockback_x), fmt(h.knockback_y))
  end
  local flags = {}
  if h.push_only then flags[#flags + 1] = "push-only" end
  if h.invincible then flags[#flags + 1] = "invincible" end
  if h.killed then flags[#flags + 1] = "killed" end
  if h.trade then flags[#flags + 1] = "trade" end
  if h.blocked then flags[#flags + 1] = "blocked" end
  if h.guard_break then flags[#flags + 1] = "guard-break" end
  if h.armor then flags[#flags + 1] = "armor" end
  if h.grab then flags[#flags + 1] = "grab" end
  for _, e in ipairs(h.effects or {}) do flags[#flags + 1] = "+" .. e end
  local hurtbox = h.hurtbox and ("  hurtbox " .. h.hurtbox) or ""
  return ("frame %d  hit   %s/%s#%d %s -> %s%s  damage %s  t %s%s  hitlag %d  hitstun %d%s"):format(
    h.frame, h.weapon, h.attack, h.attack_frame, h.hitbox, target_label(h),
    hurtbox, fmt(h.damage), fmt(h.t), kb, h.hitlag, h.hitstun,
    #flags > 0 and ("  [" .. table.concat(flags, " ") .. "]") or "")
end

local function miss_line(m)
  local gap = m.reason == "out_of_reach" and ("  gap " .. fmt(m.distance)) or ""
  return ("frame %d  miss  %s/%s#%d %s -> %s  %s%s"):format(
    m.frame, m.weapon, m.attack, m.attack_frame, m.hitbox, target_label(m),
    m.reason, gap)
end

local function side_text(side)
  return ("%s/%s#%s %s (%s)"):format(side.weapon or "?", side.attack or "?",
    side.attack_frame or "?", side.hitbox or "?", side.owner_name or label(side.owner))
end

local function clash_line(c)
  local winner = c.winner and ("  winner %d"):format(c.winner) or ""
  local stun = ""
  if c.sides[1].stun > 0 or c.sides[2].stun > 0 then
    stun = ("  stun %d/%d"):format(c.sides[1].stun, c.sides[2].stun)
  end
  local other = c.kind == "parry" and (c.sides[2].owner_name or label(c.sides[2].owner))
    or side_text(c.sides[2])
  return ("frame %d  clash %s  %s vs %s%s%s"):format(c.frame, c.kind, side_text(c.sides[1]),
    other, winner, stun)
end

local function projectile_line(e)
  local by = e.by and ("  by " .. (e.by_name or label(e.by))) or ""
  local why = e.reason and ("  " .. e.reason) or ""
  return ("frame %d  projectile %s %s#%d (%s)  at (%s, %s)  v (%s, %s)%s%s"):format(e.frame,
    e.kind, e.weapon, e.projectile_id, e.owner_name or label(e.owner), fmt(e.x), fmt(e.y),
    fmt(e.vx), fmt(e.vy), by, why)
end

-- The fields each line prints; a failed expectation adds to every listed event the fields it
-- named that its line does not print, so the field that differs is in sight.
local function set_of(words)
  local set = {}
  for k in words:gmatch("%S+") do set[k] = true end
  return set
end
local HIT_LINE_SHOWS = set_of("frame weapon attack attack_frame hitbox target target_name " ..
  "hurtbox damage t knockback_x knockback_y hitlag hitstun push_only invincible killed trade " ..
  "blocked armor grab guard_break effects")
local MISS_LINE_SHOWS = set_of("frame weapon attack attack_frame hitbox target target_name " ..
  "reason distance")

local function naming(line, want, keys, shows)
  local extra = {}
  for _, k in ipairs(keys) do
    if want[k] ~= nil and k ~= "arena" and not shows[k] then extra[#extra + 1] = k end
  end
  if #extra == 0 then return line end
  return function(e)
    local parts = {}
    for _, k in ipairs(extra) do parts[#parts + 1] = k .. "=" .. fmt(e[k]) end
    return line(e) .. "  {" .. table.concat(parts, ", ") .. "}"
  end
end

local function listing(events, line, what)
  if #events == 0 then return "  (no " .. what .. ")" end
  local out = {}
  for i, e in ipairs(events) do
    if i > 40 then
      out[#out + 1] = ("  ... and %d more"):format(#events - 40)
      break
    end
    out[#out + 1] = "  " .. line(e)
  end
  return table.concat(out, "\n")
end

-- When want names its target by a name no recorded hit or miss has, a line that says so (with
-- the nearest recorded name): a misspelt target otherwise reads as a plain failed match.
local function target_hint(want, r)
  local name = want.target_name
  if name == nil and type(want.target) == "string" then name = want.target end
  if type(name) ~= "string" then return "" end
  local names, seen = {}, {}
  for _, list in ipairs { r.hits, r.misses } do
    for _, e in ipairs(list) do
      local n = target_label(e)
      if not seen[n] then
        seen[n] = true
        names[#names + 1] = n
      end
    end
  end
  if seen[name] then return "" end
  table.sort(names)
  local near = nearest(name, names)
  return ("\n  (no recorded hit or miss has a target named '%s'%s)"):format(name,
    near and ("; did you mean '%s'?"):format(near) or "")
end

-- The first recorded hit that matches want, with flag (when given) set to true; else a failure
-- that lists the hits.
local function find_hit(fname, want, flag, what)
  want = check_want(fname, want, HIT_KEYS)
  if flag then
    if want[flag] == false then
      misuse(("%s: %s = false contradicts it (use expect_hit)"):format(fname, flag))
    end
    local w = {}
    for k, v in pairs(want) do w[k] = v end
    w[flag] = true
    want = w
  end
  local r = record_of(want.arena or current)
  for _, h in ipairs(r.hits) do
    if matches(h, want) then return h end
  end
  fail(("expected %s %s, but the hits were:\n%s%s"):format(what, describe_want(want),
    listing(r.hits, naming(hit_line, want, HIT_KEYS, HIT_LINE_SHOWS), "hits"),
    target_hint(want, r)))
end

--- Asserts that some recorded hit matches every field given: frame, hitbox, target (entity or
--- name), damage (within 1e-4), attack, weapon, attack_frame, group, t, and the flags
--- blocked, armor, grab, guard_break... Returns the hit.
function M.expect_hit(want)
  return find_hit("expect_hit", want, nil, "a hit")
end

--- Asserts that a guard blocked a hit matching want (frame, hitbox, target, damage: the chip
--- damage dealt, hitstun: the blockstun, guard_break = true for the hit that broke it...).
--- Returns the hit.
function M.expect_blocked(want)
  return find_hit("expect_blocked", want, "blocked", "a blocked hit")
end

--- Asserts that a grab caught a target: frame, hitbox, target, attacker... Returns the hit.
function M.expect_grab(want)
  return find_hit("expect_grab", want, "grab", "a grab")
end

-- ---------------------------------------------------------------------------------------------
-- Attacks that meet

local CLASH_KINDS = { "clank", "outprioritize", "transcended", "traded", "parry", "reflect",
                      "absorb" }
local SIDE_KEYS = { "weapon", "attack", "attack_frame", "hitbox", "owner", "damage", "stun" }
local CLASH_KEYS = { "arena", "frame", "kind", "winner", "weapon", "attack", "attack_frame",
                     "hitbox", "owner", "damage", "stun", "other" }

local function side_matches(side, want)
  for _, k in ipairs(SIDE_KEYS) do
    local v = want[k]
    if v ~= nil then
      local got = side[k]
      if k == "owner" and type(v) == "string" then got = side.owner_name end
      if type(v) == "number" and type(got) == "number" then
        if math.abs(v - got) > 1e-4 * math.max(1, math.abs(v)) then return false end
      elseif got ~= v then
        return false
      end
    end
  end
  return true
end

-- A clash matches when its frame and kind do, one side matches the side fields of want and the
-- other side matches want.other; winner names the weapon of the side that went on.
local function clash_matches(c, want)
  if (want.frame and want.frame ~= c.frame) or (want.kind and want.kind ~= c.kind) then
    return false
  end
  for s = 1, 2 do
    local mine, theirs = c.sides[s], c.sides[3 - s]
    local w = want.winner
    if side_matches(mine, want) and side_matches(theirs, want.other or {}) and
        (w == nil or (c.winner ~= nil and (w == c.winner or w == c.sides[c.winner].weapon))) then
      return true
    end
  end
  return false
end

local function find_clash(fname, want)
  want = check_want(fname, want, CLASH_KEYS)
  if want.kind ~= nil and not has(CLASH_KINDS, want.kind) then
    misuse(("%s: unknown kind %s (kinds: %s)"):format(fname, fmt(want.kind),
      table.concat(CLASH_KINDS, ", ")))
  end
  if want.other ~= nil then want.other = check_want(fname .. " other", want.other, SIDE_KEYS) end
  local r = record_of(want.arena or current)
  for _, c in ipairs(r.clashes) do
    if clash_matches(c, want) then return c end
  end
  fail(("expected a clash %s, but the clashes were:\n%s"):format(describe_want(want),
    listing(r.clashes, clash_line, "clashes")))
end

--- Asserts that two attacks met: kind ("clank", "outprioritize", "transcended", "traded",
--- "reflect", "absorb"), frame, winner (the weapon that went on, or its side: 1 or 2), the
--- fields of one side (weapon, attack, attack_frame, hitbox, owner, damage, stun) and
--- other = {the other side's}.
--- Returns the clash.
function M.expect_clash(want)
  return find_clash("expect_clash", want)
end

--- Asserts that a hit was parried: the attacker's side fields (weapon, attack, hitbox, owner,
--- stun) and by = the parrying entity (or its name). Returns the parry.
function M.expect_parry(want)
  local by = want.by
  local w = {}
  for k, v in pairs(want) do
    if k ~= "by" then w[k] = v end
  end
  w.kind = "parry"
  if by ~= nil then w.other = { owner = by } end
  return find_clash("expect_parry", w)
end

local REFLECT_KEYS = { "arena", "frame", "weapon", "owner", "by", "vx", "vy", "x", "y" }

--- Asserts that a projectile was reflected: frame, weapon (the projectile's), owner (its thrower),
--- by (the reflector, entity or name), vx, vy (its new velocity). Returns the event.
function M.expect_reflect(want)
  want = check_want("expect_reflect", want, REFLECT_KEYS)
  local r = record_of(want.arena or current)
  for _, e in ipairs(r.projectiles) do
    if e.kind == "reflected" then
      local ok = true
      for k, v in pairs(want) do
        local got = e[k]
        if (k == "by" or k == "owner") and type(v) == "string" then got = e[k .. "_name"] end
        if k == "arena" then
          got = v
        elseif type(v) == "number" and type(got) == "number" then
          got = math.abs(v - got) <= 1e-4 * math.max(1, math.abs(v)) and v or got
        end
        if got ~= v then ok = false end
      end
      if ok then return e end
    end
  end
  fail(("expected a reflection %s, but the projectile events were:\n%s"):format(
    describe_want(want), listing(r.projectiles, projectile_line, "projectile events")))
end

--- Every clash and parry recorded so far; every projectile event.
function M.clashes(arena) return record_of(arena or current).clashes end
function M.projectile_events(arena) return record_of(arena or current).projectiles end

--- Asserts that no recorded hit matches the fields given.
function M.expect_no_hit(want)
  want = check_want("expect_no_hit", want, HIT_KEYS)
  local r = record_of(want.arena or current)
  for _, h in ipairs(r.hits) do
    if matches(h, want) then
      fail(("expected no hit %s, but got:\n  %s"):format(describe_want(want),
        naming(hit_line, want, HIT_KEYS, HIT_LINE_SHOWS)(h)))
    end
  end
end

--- Asserts that some recorded miss matches every field given: target, reason ("team",
--- "rehit", "max_hits", ...), frame, hitbox... Returns the miss.
function M.expect_miss(want)
  want = check_want("expect_miss", want, MISS_KEYS)
  local r = record_of(want.arena or current)
  for _, m in ipairs(r.misses) do
    if matches(m, want) then return m end
  end
  fail(("expected a miss %s, but the misses were:\n%s%s"):format(describe_want(want),
    listing(r.misses, naming(miss_line, want, MISS_KEYS, MISS_LINE_SHOWS), "misses"),
    target_hint(want, r)))
end

-- The shortest decimal that reads back as the same number: a failed comparison must show
-- the difference, which %.3f could round away.
local function exact(v)
  if math.type(v) ~= "float" then return tostring(v) end
  for digits = 15, 16 do
    local text = ("%." .. digits .. "g"):format(v)
    if tonumber(text) == v then return text end
  end
  return ("%.17g"):format(v)
end

-- assert.is_true(a < b) fails with "expected true, got false"; these say both numbers.
local function compare(a, op, b, holds, what)
  if type(a) ~= "number" or type(b) ~= "number" then
    misuse(("expected two numbers to compare with %s, got %s and %s"):format(op, type(a),
      type(b)))
  end
  if not holds(a, b) then
    fail(("expected %s %s %s%s"):format(exact(a), op, exact(b),
      what and (" (" .. tostring(what) .. ")") or ""))
  end
end

local function lt(x, y) return x < y end
local function le(x, y) return x <= y end
local function gt(x, y) return x > y end
local function ge(x, y) return x >= y end

--- Asserts a < b; what, when given, is said on failure after both numbers.
function M.expect_less(a, b, what) compare(a, "<", b, lt, what) end

--- Asserts a <= b.
function M.expect_at_most(a, b, what) compare(a, "<=", b, le, what) end

--- Asserts a > b.
function M.expect_greater(a, b, what) compare(a, ">", b, gt, what) end

--- Asserts a >= b.
function M.expect_at_least(a, b, what) compare(a, ">=", b, ge, what) end

--- Steps the arena (default: the current one) one frame at a time until pred(arena) is true;
--- returns the number of frames stepped. Fails after max_frames (default 600).
function M.run_until(pred, max_frames, arena)
  arena = arena or current
  record_of(arena)
  max_frames = max_frames or 600
  for n = 1, max_frames do
    arena:step(1)
    if pred(arena) then return n end
  end
  fail(("run_until: the condition did not hold within %d frames"):format(max_frames))
end

-- ---------------------------------------------------------------------------------------------
-- Golden logs

--- The readable log of every recorded frame: hits then misses of each frame, one line each.
--- opts.misses = false leaves the misses out; opts.reasons = {"team"} keeps only those.
function M.log(arena, opts)
  if arena ~= nil and records[arena] == nil and opts == nil then
    arena, opts = nil, arena
  end
  opts = opts or {}
  local r = record_of(arena or current)
  local by_frame, frames = {}, {}
  local function add(frame, text)
    if not by_frame[frame] then
      by_frame[frame] = {}
      frames[#frames + 1] = frame
    end
    local t = by_frame[frame]
    t[#t + 1] = text
  end
  for _, h in ipairs(r.hits) do add(h.frame, hit_line(h)) end
  if opts.misses ~= false then
    local keep
    if opts.reasons then
      keep = {}
      for _, k in ipairs(opts.reasons) do keep[k] = true end
    end
    for _, m in ipairs(r.misses) do
      if not keep or keep[m.reason] then add(m.frame, miss_line(m)) end
    end
  end
  for _, c in ipairs(r.clashes) do add(c.frame, clash_line(c)) end
  for _, e in ipairs(r.projectiles) do
    if e.kind ~= "spawned" then add(e.frame, projectile_line(e)) end
  end
  for _, t in ipairs(r.ticks) do
    add(t.frame, ("frame %d  tick  %s -> %s  damage %s%s"):format(t.frame, t.effect,
      label(t.target), fmt(t.damage), t.expired and "  [expired]" or ""))
  end
  table.sort(frames)
  local out = {}
  for _, f in ipairs(frames) do
    for _, line in ipairs(by_frame[f]) do out[#out + 1] = line end
  end
  return table.concat(out, "\n") .. "\n"
end

local function split_lines(s)
  local t = {}
  for line in (s:gsub("\n$", "") .. "\n"):gmatch("(.-)\n") do t[#t + 1] = line end
  return t
end

--- A line diff of two texts ("- " expected, "+ " actual, "  " same), "" when equal.
function M.diff(expected, actual)
  if expected == actual then return "" end
  local a, b = split_lines(expected), split_lines(actual)
  local n, m = #a, #b
  -- longest common subsequence, from the end
  local L = {}
  for i = n + 1, 1, -1 do
    L[i] = {}
    for j = m + 1, 1, -1 do
      if i > n or j > m then
        L[i][j] = 0
      elseif a[i] == b[j] then
        L[i][j] = L[i + 1][j + 1] + 1
      else
        L[i][j] = math.max(L[i + 1][j], L[i][j + 1])
      end
    end
  end
  local out, i, j = {}, 1, 1
  while i <= n or j <= m do
    if i <= n and j <= m and a[i] == b[j] then
      out[#out + 1] = "  " .. a[i]
      i, j = i + 1, j + 1
    elseif i <= n and (j > m or L[i + 1][j] >= L[i][j + 1]) then
      out[#out + 1] = "- " .. a[i]
      i = i + 1
    else
      out[#out + 1] = "+ " .. b[j]
      j = j + 1
    end
  end
  return table.concat(out, "\n")
end

-- The folder of the nearest Lua file up the stack that is not this one (C frames such as
-- pcall are skipped).
local function caller_dir(level)
  local self = debug.getinfo(1, "S").source
  while true do
    local info = debug.getinfo(level + 1, "S")
    if not info then return "." end
    if info.source:sub(1, 1) == "@" and info.source ~= self then
      return info.source:sub(2):match("^(.*)/[^/]*$") or "."
    end
    level = level + 1
  end
end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

--- Compares text with the golden file golden/<name>.log beside the calling spec. With
--- CLEAVE_UPDATE_GOLDEN=1 in the environment the file is (re)written instead.
function M.golden(name, text)
  local dir = caller_dir(2) .. "/golden"
  local path = dir .. "/" .. name .. ".log"
  if os.getenv("CLEAVE_UPDATE_GOLDEN") == "1" then
    -- The first run of a new spec makes the folder; Lua alone cannot, the shell can.
    if not io.open(dir .. "/.", "rb") then
      os.execute(("mkdir -p '%s'"):format((dir:gsub("'", "'\\''"))))
    end
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
    return path
  end
  local want = read_file(path)
  if want == nil then
    fail(("golden log %s is missing: run with CLEAVE_UPDATE_GOLDEN=1 to write it"):format(path))
  end
  if want ~= text then
    fail(("the hit log differs from %s (- golden, + now; CLEAVE_UPDATE_GOLDEN=1 rewrites it):\n%s")
      :format(path, M.diff(want, text)))
  end
  return path
end

-- ---------------------------------------------------------------------------------------------
-- Coverage

--- Every (attack, frame, hitbox) of weapon that no recorded hit of this Lua state used, as a
--- list of {attack=, frame=, hitbox=}, and the total number of such triples.
function M.coverage(weapon)
  local missing, total = {}, 0
  local wname = weapon:name()
  for _, attack in ipairs(weapon:attacks()) do
    for frame = 1, weapon:length(attack) do
      for _, id in ipairs(weapon:hitboxes(attack, frame)) do
        total = total + 1
        if not covered[cover_key(wname, attack, frame, id)] then
          missing[#missing + 1] = { attack = attack, frame = frame, hitbox = id }
        end
      end
    end
  end
  return missing, total
end

--- A readable coverage report of one or more weapons: per weapon, the share of hitboxes hit
--- and the runs of frames of each never-hit hitbox.
function M.coverage_report(...)
  local out = {}
  for _, weapon in ipairs({ ... }) do
    local missing, total = M.coverage(weapon)
    out[#out + 1] = ("%s: %d of %d (attack, frame, hitbox) hit"):format(weapon:name(),
      total - #missing, total)
    table.sort(missing, function(x, y)
      if x.attack ~= y.attack then return x.attack < y.attack end
      if x.hitbox ~= y.hitbox then return x.hitbox < y.hitbox end
      return x.frame < y.frame
    end)
    local i = 1
    while i <= #missing do
      local first = missing[i]
      local j = i
      while j < #missing and missing[j + 1].attack == first.attack
        and missing[j + 1].hitbox == first.hitbox
        and missing[j + 1].frame == missing[j].frame + 1 do
        j = j + 1
      end
      local frames = first.frame == missing[j].frame and tostring(first.frame)
        or (first.frame .. "-" .. missing[j].frame)
      out[#out + 1] = ("  never hit: %s frame %s %s"):format(first.attack, frames, first.hitbox)
      i = j + 1
    end
  end
  return table.concat(out, "\n")
end

-- ---------------------------------------------------------------------------------------------
-- Mods and broken copies

--- The folder of the mod whose spec calls this (the spec's folder is <mod>/spec).
function M.mod_dir()
  local dir = caller_dir(2)
  if dir == "spec" then return "." end -- busted run from inside the mod's folder
  return dir:match("^(.*)/spec$") or (dir .. "/..")
end

local function tmp_dir()
  local name = os.tmpname()
  os.remove(name)
  local ok, lfs = pcall(require, "lfs")
  if ok then
    assert(lfs.mkdir(name))
  else
    assert(os.execute(("mkdir %q"):format(name)))
  end
  return name
end

--- Writes a copy of dir/mod.lua with the first occurrence of plain text `find` replaced by
--- `replace` into a new folder; returns the folder, the path of its mod.lua and the line the
--- change is on. Fails when `find` does not occur exactly once.
function M.broken_copy(dir, find, replace)
  local src = assert(read_file(dir .. "/mod.lua"))
  local at = src:find(find, 1, true)
  if not at or src:find(find, at + 1, true) then
    misuse(("broken_copy: %q must occur exactly once in %s/mod.lua"):format(find, dir))
  end
  local line = select(2, src:sub(1, at):gsub("\n", "")) + 1
  local out = src:sub(1, at - 1) .. replace .. src:sub(at + #find)
  local base = dir:match("([^/]+)/?$")
  if base == nil or base:match("^%.+$") then base = "mod" end -- ".", "..": no name to keep
  local folder = tmp_dir() .. "/" .. base
  local ok, lfs = pcall(require, "lfs")
  if ok then
    assert(lfs.mkdir(folder))
  else
    assert(os.execute(("mkdir %q"):format(folder)))
  end
  local f = assert(io.open(folder .. "/mod.lua", "wb"))
  f:write(out)
  f:close()
  return folder, folder .. "/mod.lua", line
end

--- The line of dir/mod.lua where plain text `find` first occurs.
function M.line_of(dir, find)
  local src = assert(read_file(dir .. "/mod.lua"))
  local at = src:find(find, 1, true)
  if not at then misuse(("line_of: %q does not occur in %s/mod.lua"):format(find, dir)) end
  return select(2, src:sub(1, at):gsub("\n", "")) + 1
end

--- Removes a folder made by broken_copy.
function M.remove_copy(folder)
  os.remove(folder .. "/mod.lua")
  os.remove(folder)
  os.remove(folder:match("^(.*)/[^/]+$"))
end

--- Loads a copy of the mod in spec.dir with spec.find replaced by spec.replace and asserts
--- that loading fails with exactly "<copy>/mod.lua:<line>: <spec.message>", where line is the
--- line of the first occurrence of spec.at in the mod (default: the changed line). Returns the
--- message.
function M.expect_broken(spec)
  local folder, file, line = M.broken_copy(spec.dir, spec.find, spec.replace)
  local ok, err = pcall(cleave.load_mod, folder)
  M.remove_copy(folder)
  if ok then
    fail(("expected %q -> %q to break the mod, but it loaded"):format(spec.find, spec.replace))
  end
  if spec.at then line = M.line_of(spec.dir, spec.at) end
  local want = ("%s:%d: %s"):format(file, line, spec.message)
  if err ~= want then
    fail(("wrong error for %q -> %q:\n  expected: %s\n  got:      %s"):format(spec.find,
      spec.replace, want, tostring(err)))
  end
  return err
end

return M
