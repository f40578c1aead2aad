-- cleave.load_mod: each mod in its own sandboxed state; its table checked; its callbacks
-- reported, never fatal.
local cleave = require "cleave"
local T = require "cleave.testing"
local lfs = require "lfs"

local made = {}

-- Writes source as <tmp>/<name>/mod.lua and returns the folder.
local function write_mod(name, source)
  local root = os.tmpname()
  os.remove(root)
  assert(lfs.mkdir(root))
  local dir = root .. "/" .. name
  assert(lfs.mkdir(dir))
  local f = assert(io.open(dir .. "/mod.lua", "w"))
  f:write(source)
  f:close()
  made[#made + 1] = dir
  return dir
end

local STICK = [[
local w = cleave.weapon {
  name = "stick",
  on_hit = ON_HIT,
  attacks = { swing = { length = 4, hitboxes = {
    { id = "tip", frames = { 1, 3 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4, hitlag = 0 } } } },
}
]]

local function stick_mod(name, extra, on_hit)
  return write_mod(name, (extra or "") .. STICK:gsub("ON_HIT", on_hit or "nil") ..
    ("return { name = %q, version = '0.1', weapons = { stick = w } }\n"):format(name))
end

teardown(function()
  for _, dir in ipairs(made) do
    os.remove(dir .. "/mod.lua")
    os.remove(dir)
    os.remove(dir:match("^(.*)/[^/]+$"))
  end
end)

describe("cleave.load_mod", function()
  it("returns the mod's name, version, weapons and effects", function()
    local m = cleave.load_mod(stick_mod("one"))
    assert.are.equal("one", m.name)
    assert.are.equal("0.1", m.version)
    assert.are.equal("cleave.Weapon 'stick' (1 attacks)", tostring(m.weapons.stick))
    assert.are.same({}, m.effects)
  end)

  it("returns the mod's bodies, which an arena of the host plays", function()
    local dir = write_mod("bodies", [[
local knight = cleave.body { name = "knight", guard = { meter = 30 }, animations = {
  stand = { length = 1, hurtboxes = { { id = "torso", x = 0, y = 0, radius = 6 } } } } }
return { name = "bodies", version = "1", bodies = { knight = knight },
  weapons = { w = cleave.weapon { attacks = { x = { hitboxes = {
    { id = "p", frames = 1, x = 0, y = 0, radius = 1 } } } } } } }
]])
    local knight
    do -- the mod's table goes out of scope: only the body holds the mod
      local m = cleave.load_mod(dir)
      knight = m.bodies.knight
    end
    assert.are.equal("cleave.Body(knight)", tostring(knight))
    assert.are.equal(30, knight:guard().meter)
    local a = cleave.arena {}
    local e = a:spawn { body = knight, x = 5 }
    assert.are.equal("knight", e:info().body)
    assert.are.equal(6, select(3, e:hurtboxes()[1].shape:unpack()))
    collectgarbage() -- the body keeps its mod, and the arena holds its own copy
    assert.are.equal("knight", knight:name())
    assert.are.equal(30, e:info().guard_meter)
    assert.are.same({}, cleave.load_mod(stick_mod("nobody")).bodies)
  end)

  it("refuses bodies that are no cleave.Body, by file and name", function()
    local dir = write_mod("badbody", "return { name = 'x', version = '1', bodies = { knight = {} },\n" ..
      "  weapons = { w = cleave.weapon { attacks = { x = { hitboxes = {\n" ..
      "    { id = 'p', frames = 1, x = 0, y = 0, radius = 1 } } } } } } }\n")
    local ok, err = pcall(cleave.load_mod, dir)
    assert.is_false(ok)
    assert.are.equal(dir .. "/mod.lua: bodies.knight must be a cleave.Body (got table)", err)
    dir = write_mod("badbodies", "return { name = 'x', version = '1', bodies = 3,\n" ..
      "  weapons = { w = cleave.weapon { attacks = { x = { hitboxes = {\n" ..
      "    { id = 'p', frames = 1, x = 0, y = 0, radius = 1 } } } } } } }\n")
    ok, err = pcall(cleave.load_mod, dir)
    assert.is_false(ok)
    assert.are.equal(dir .. "/mod.lua: bodies must be a table of cleave.body{...} by name (got number)", err)
  end)

  it("gives each mod its own globals, and none of the host's", function()
    rawset(_G, "HOST_SECRET", 42)
    local a = cleave.load_mod(write_mod("a", [[
shared = "from a"
return { name = "a", version = "1", weapons = { w = cleave.weapon { attacks = { x = { hitboxes = {
  { id = "p", frames = 1, x = 0, y = 0, radius = 1 } } } } } } }
]]))
    local b = cleave.load_mod(write_mod("b", [[
return { name = "b:" .. tostring(shared) .. ":" .. tostring(HOST_SECRET) .. ":" .. tostring(io)
  .. ":" .. tostring(os) .. ":" .. tostring(require),
  version = "1", weapons = { w = cleave.weapon { attacks = { x = { hitboxes = {
  { id = "p", frames = 1, x = 0, y = 0, radius = 1 } } } } } } }
]]))
    rawset(_G, "HOST_SECRET", nil)
    assert.are.equal("a", a.name)
    assert.are.equal("b:nil:nil:nil:nil:nil", b.name)
    assert.is_nil(rawget(_G, "shared"))
  end)

  it("refuses a folder without mod.lua", function()
    local ok, err = pcall(cleave.load_mod, "no/such/mod")
    assert.is_false(ok)
    assert.are.equal("cannot open no/such/mod/mod.lua (a mod folder holds mod.lua)", err)
  end)

  it("checks the table the mod returns", function()
    local dir = write_mod("bad", "return 3\n")
    local ok, err = pcall(cleave.load_mod, dir)
    assert.is_false(ok)
    assert.are.equal(dir .. "/mod.lua: mod.lua must return a table {name=, version=, weapons=} (got number)", err)
    dir = write_mod("bad2", "return { name = 'x', version = '1', weapons = { w = {} } }\n")
    ok, err = pcall(cleave.load_mod, dir)
    assert.is_false(ok)
    assert.are.equal(dir .. "/mod.lua: weapons.w must be a cleave.Weapon (got table)", err)
    dir = write_mod("bad3", "return { name = 'x', verison = '1', weapons = {} }\n")
    ok, err = pcall(cleave.load_mod, dir)
    assert.is_false(ok)
    assert.matches("unknown field 'verison' in the mod table", err)
    dir = write_mod("bad4", "return { name = 'x', weapons = {} }\n")
    ok, err = pcall(cleave.load_mod, dir)
    assert.is_false(ok)
    assert.are.equal(dir .. "/mod.lua: version must be a non-empty string (got nil)", err)
  end)

  it("names the file and line of a memory bomb at load", function()
    local dir = write_mod("bomb", "local t = {}\nfor i = 1, 1e9 do t[i] = i end\nreturn {}\n")
    local ok, e = pcall(cleave.load_mod, dir)
    assert.is_false(ok)
    -- the line only where the Lua release keeps the running frame readable (docs/reliability.md)
    local tail = ": not enough memory (the mod's limit is 67108864 bytes)"
    assert.is_true(e == dir .. "/mod.lua:2" .. tail or e == dir .. "/mod.lua" .. tail, e)
  end)

  it("names the file of an error that Lua gives no position (raised through a tail call)", function()
    local dir = write_mod("tail", "return load{}\n")
    local ok, err = pcall(cleave.load_mod, dir)
    assert.is_false(ok)
    assert.are.equal(dir .. "/mod.lua: bad argument #1 to '?' (function expected, got table)", err)
  end)

  it("refuses a name or version with a NUL byte (C would read it as shorter)", function()
    local dir = write_mod("nul", STICK:gsub("ON_HIT", "nil")
      .. 'return { name = "\\0x", version = "1", weapons = { stick = w } }\n')
    local ok, err = pcall(cleave.load_mod, dir)
    assert.is_false(ok)
    assert.are.equal(dir .. '/mod.lua: name "\\0x" holds a NUL byte (\\0 at byte 1); '
      .. "names are printable UTF-8", err)
  end)

  it("refuses a weapon key with a NUL byte, showing it escaped", function()
    local dir = write_mod("nulkey", STICK:gsub("ON_HIT", "nil")
      .. 'return { name = "nulkey", version = "1", weapons = { ["a\\0b"] = w } }\n')
    local ok, err = pcall(cleave.load_mod, dir)
    assert.is_false(ok)
    assert.are.equal(dir .. '/mod.lua: weapon name "a\\0b" holds a NUL byte (\\0 at byte 2); '
      .. "names are printable UTF-8", err)
  end)

  it("refuses names with control bytes, and escapes every byte of a message it prints", function()
    local function load_err(name, ret)
      local ok, err = pcall(cleave.load_mod, write_mod(name, STICK:gsub("ON_HIT", "nil") .. ret))
      assert.is_false(ok)
      assert.is_nil(err:find("[%c\127]"), err)
      return err
    end
    assert.matches('name "\\27%[2J\\10x" holds a control byte %(\\27 at byte 1%)',
      load_err("esc", 'return { name = "\\27[2J\\nx", version = "1", weapons = { w = w } }\n'))
    assert.matches('weapon name "w\\9" holds a control byte',
      load_err("tab", 'return { name = "tab", version = "1", weapons = { ["w\\t"] = w } }\n'))
    assert.matches("holds a byte that is not printable UTF%-8 %(\\255 at byte 2%)",
      load_err("utf", 'return { name = "u\\255", version = "1", weapons = { w = w } }\n'))
    -- CSI as a C1 control (U+009B), well-formed UTF-8 but a terminal command
    assert.matches("not printable UTF%-8 %(\\194 at byte 1%)",
      load_err("c1", 'return { name = "\\194\\155x", version = "1", weapons = { w = w } }\n'))
    -- an attack name and a hitbox id from the weapon's own table
    assert.matches('attacks key holds a control byte %(\\27 at byte 2%)', load_err("atk",
      'return { name = "atk", version = "1", weapons = { w = cleave.weapon { attacks = {'
      .. ' ["s\\27"] = { hitboxes = { { id = "p", frames = 1, x = 0, y = 0, radius = 1 } } } } } } }\n'))
    assert.matches("id holds a control byte %(\\7 at byte 1%)", load_err("hid",
      'return { name = "hid", version = "1", weapons = { w = cleave.weapon { attacks = {'
      .. ' s = { hitboxes = { { id = "\\7", frames = 1, x = 0, y = 0, radius = 1 } } } } } } }\n'))
    -- a mod's own error text reaches the host escaped, on one line
    local err = load_err("raw", 'error("\\27[2J\\nforged line", 0)\n')
    assert.matches("\\27%[2J\\10forged line", err)
    -- names may be any printable UTF-8
    assert.are.equal("épée", cleave.load_mod(write_mod("utf8ok", STICK:gsub("ON_HIT", "nil")
      .. 'return { name = "épée", version = "1", weapons = { ["é"] = w } }\n')).name)
  end)

  it("holds one weapon listed under many names once, and runs its on_hit once per hit", function()
    local names = {}
    for i = 1, 900 do names[#names + 1] = ("[%q] = w"):format("n" .. i) end
    local dir = write_mod("aliases", STICK:gsub("ON_HIT", "function(hit) log('hit') end")
      .. "return { name = 'aliases', version = '1', weapons = { " .. table.concat(names, ", ")
      .. " } }\n")
    collectgarbage()
    local before = collectgarbage("count")
    local m = cleave.load_mod(dir)
    local grown = collectgarbage("count") - before
    assert.is_true(rawequal(m.weapons.n1, m.weapons.n900))
    -- 900 table slots and names, not 900 copies of the weapon's recipe
    T.expect_less(grown, 200, "KiB")
    local a = cleave.arena {}
    local p = a:spawn { team = 1 }
    a:spawn { x = 20, team = 2 }
    a:attack { weapon = m.weapons.n5, attack = "swing", owner = p }
    a:step(2)
    assert.are.equal(1, #a:hits())
    assert.are.same({ "hit" }, m.handle:log())
  end)

  it("charges the host's list of weapon names to the mod's memory budget", function()
    -- memory() counts every byte of the mod's allocator; collectgarbage("count") only what Lua
    -- itself made, so their difference is what the host allocated on the mod's budget
    local function outside_lua(n)
      local names = {}
      for i = 1, n do names[#names + 1] = ("n%05d = w"):format(i) end
      local dir = write_mod("names" .. n, STICK:gsub("ON_HIT", "nil")
        .. "return { name = 'names', version = '1', weapons = { " .. table.concat(names, ", ")
        .. " }, selftest = function() log(collectgarbage('count')) end }\n")
      local m = cleave.load_mod(dir)
      return m.handle:memory() - tonumber(m.handle:log()[1]) * 1024
    end
    local grown = outside_lua(20000) - outside_lua(1)
    -- each name: its 7 bytes, two pointers and an index (27 bytes; the garbage Lua collected
    -- after the selftest counted makes the difference a little smaller)
    T.expect_at_least(grown, 20000 * 20, "bytes")
  end)

  it("reports a syntax error with file and line", function()
    local dir = write_mod("syntax", "local x = = 1\n")
    local ok, err = pcall(cleave.load_mod, dir)
    assert.is_false(ok)
    assert.matches("^" .. dir:gsub("%p", "%%%0") .. "/mod.lua:1: unexpected symbol near '='", err)
  end)

  it("runs on_hit in the mod's state and reports its errors without touching the arena", function()
    local function run(dir)
      local m = cleave.load_mod(dir)
      local errors = {}
      local a = cleave.arena { on_error = function(e) errors[#errors + 1] = e end }
      local p = a:spawn { team = 1 }
      local t = a:spawn { x = 20, team = 2 }
      a:attack { weapon = m.weapons.stick, attack = "swing", owner = p }
      a:step(5)
      return a:hash(), errors, m, t
    end
    local quiet_hash = run(stick_mod("quiet"))
    local loud = stick_mod("loud", nil, "function(hit) log('hit ' .. hit.target .. ' ' .. hit.hitbox) end")
    local loud_hash, loud_errors, m = run(loud)
    assert.are.same({ "hit 2 tip" }, m.handle:log())
    assert.are.same({}, loud_errors)
    local bad = stick_mod("bad_cb", nil, "function(hit) error('no ' .. hit.hitbox) end")
    local bad_hash, errors = run(bad)
    assert.are.equal(1, #errors)
    assert.matches("^" .. bad:gsub("%p", "%%%0") .. "/mod.lua:3: no tip", errors[1])
    assert.are.equal(quiet_hash, loud_hash)
    assert.are.equal(quiet_hash, bad_hash)
  end)

  it("keeps a mod's weapons usable after the mod table is dropped", function()
    local w = cleave.load_mod(stick_mod("dropped")).weapons.stick
    collectgarbage()
    collectgarbage()
    local a = cleave.arena {}
    local p = a:spawn { team = 1 }
    a:spawn { x = 20, team = 2 }
    a:attack { weapon = w, attack = "swing", owner = p }
    a:step(2)
    assert.are.equal(1, #a:hits())
  end)
  it("runs a mod weapon's on_clash in its sandbox, with integer owners", function()
    local m = cleave.load_mod(write_mod("clanker", [[
local w = cleave.weapon {
  name = "clanker",
  on_clash = function(c)
    log(("%s side %d owner %s vs %s %s"):format(c.kind, c.side, math.type(c.sides[c.side].owner),
      c.sides[3 - c.side].weapon, c.sides[3 - c.side].hitbox))
  end,
  attacks = { swing = { length = 10, hitboxes = {
    { id = "blade", frames = 1, ax = 10, ay = 0, bx = 40, by = 0, radius = 3, damage = 12,
      hitlag = 0, hitstun = 0 } } } },
}
return { name = "clanker", version = "1", weapons = { clanker = w } }
]]))
    local host = cleave.weapon { name = "host", attacks = { swing = { length = 10, hitboxes = {
      { id = "edge", frames = 1, ax = 10, ay = 0, bx = 40, by = 0, radius = 3, damage = 10,
        hitlag = 0, hitstun = 0 } } } } }
    local arena = cleave.arena {}
    local p = arena:spawn { x = 0, y = 0, team = 1 }
    local q = arena:spawn { x = 45, y = 0, team = 2 }
    arena:attack { weapon = m.weapons.clanker, attack = "swing", owner = p }
    arena:attack { weapon = host, attack = "swing", owner = q, facing = 180 }
    arena:step(1)
    assert.are.same({}, arena:errors())
    assert.are.same({ "clank side 1 owner integer vs host edge" }, m.handle:log())
  end)
end)
