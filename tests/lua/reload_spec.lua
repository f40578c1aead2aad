-- cleave.reload_mod: a mod loaded anew from its folder as one transaction; on failure the
-- current version is untouched, and attacks in flight finish with the weapon they started with.
local cleave = require "cleave"
local lfs = require "lfs"

local root = os.tmpname()
os.remove(root)
assert(lfs.mkdir(root))
local dir = root .. "/blade"
assert(lfs.mkdir(dir))
local file = dir .. "/mod.lua"

local function write(source)
  local f = assert(io.open(file, "wb"))
  f:write(source)
  f:close()
end

-- Version k deals k damage on frames 3..4 and counts its hits in the mod's log.
local function version(k)
  return ([[
local w = cleave.weapon { name = "blade",
  on_hit = function(hit) log(("v%d hit %%g"):format(hit.damage)) end,
  attacks = { swing = { hitboxes = {
    { id = "edge", frames = { 3, 4 }, x = 20, y = 0, radius = 6, damage = %d } } } } }
return { name = "blade", version = "v%d", weapons = { blade = w },
  selftest = function(mod) assert(mod.weapons.blade) end }
]]):format(k, k, k)
end

teardown(function()
  os.remove(file)
  os.remove(dir)
  os.remove(root)
end)

describe("cleave.reload_mod", function()
  it("returns the new version and leaves the old one as it was", function()
    write(version(1))
    local v1 = cleave.load_mod(dir)
    assert.are.equal(dir, v1.dir)
    write(version(2))
    local v2 = assert(cleave.reload_mod(v1))
    assert.are.equal("v2", v2.version)
    assert.are.equal("v1", v1.version)
    assert.are_not.equal(v1.handle, v2.handle)
    -- the handle works as well as the table
    local v3 = assert(cleave.reload_mod(v2.handle))
    assert.are.equal("v2", v3.version)
  end)

  it("keeps the last good version on every kind of failure, naming file and line", function()
    write(version(1))
    local good = cleave.load_mod(dir)
    local cases = {
      { "return { name = 'x'\n  version = 'y' }", file .. ":2: '}' expected" },
      { "local a = 1\nerror('half done')", file .. ":2: half done" },
      { "return { name = 'x', version = 'y', weapons = {},\n  selftest = 3 }",
        file .. ": selftest must be a function (got number)" },
      { version(5):gsub("assert%(mod.weapons.blade%)", "assert(false, 'no')"),
        file .. ":6: no (selftest of " .. file .. ")" },
      { "\27Lua\84\0", file .. ": attempt to load a binary chunk" },
    }
    for _, case in ipairs(cases) do
      write(case[1])
      local ok, err = pcall(cleave.reload_mod, good)
      assert.is_false(ok)
      assert.are.equal(case[2], err:sub(1, #case[2]))
      assert.are.equal("v1", good.version)
    end
    os.remove(file)
    local ok, err = pcall(cleave.reload_mod, good)
    assert.is_false(ok)
    assert.are.equal("cannot open " .. file .. " (a mod folder holds mod.lua)", err)
  end)

  it("lets an attack in flight finish with the version it started with", function()
    write(version(1))
    local v1 = cleave.load_mod(dir)
    local arena = cleave.arena {}
    local p1 = arena:spawn { team = 1 }
    local p2 = arena:spawn { team = 1, y = 200 }
    arena:spawn { team = 2, x = 22, y = 0, radius = 6 }
    arena:spawn { team = 2, x = 22, y = 200, radius = 6 }
    arena:attack { weapon = v1.weapons.blade, owner = p1 }
    arena:step(1)
    write(version(7))
    local v2 = assert(cleave.reload_mod(v1))
    local old_handle = v1.handle
    -- the game drops its reference; the arena still holds the old weapon
    v1 = nil -- luacheck: ignore 311
    collectgarbage()
    arena:attack { weapon = v2.weapons.blade, owner = p2 }
    local damage = {}
    for _ = 1, 10 do
      arena:step(1)
      for _, h in ipairs(arena:hits()) do damage[#damage + 1] = h.damage end
    end
    table.sort(damage)
    assert.are.same({ 1, 7 }, damage)
    assert.are.same({ "v1 hit 1" }, old_handle:log())
    assert.are.same({ "v7 hit 7" }, v2.handle:log())
  end)

  it("checks its argument", function()
    assert.has_error(function() cleave.reload_mod("mods/plank") end,
      "bad argument #1 to 'reload_mod' (mod table (from cleave.load_mod) expected, got string)")
    assert.has_error(function() cleave.reload_mod({}) end,
      "bad argument #1 to 'reload_mod' (mod table (from cleave.load_mod) expected, got table)")
  end)
end)
