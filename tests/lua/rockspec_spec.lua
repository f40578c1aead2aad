-- The rockspec builds every C source of the runtime: its hand-written list must match the tree.
local lfs = require "lfs"

local function rockspec_path()
  for name in lfs.dir(".") do
    if name:match("^cleave%-.*%.rockspec$") then return name end
  end
end

describe("the rockspec", function()
  it("lists exactly the C sources under runtime/{collide,hit,lua}/src", function()
    local path = assert(rockspec_path(), "no cleave-*.rockspec at the root")
    local env = {}
    local chunk = assert(loadfile(path, "t", env))
    chunk()
    assert.are.equal("cleave", env.package)
    assert.are.equal("builtin", env.build.type)
    local listed = {}
    for _, s in ipairs(env.build.modules.cleave.sources) do listed[#listed + 1] = s end
    table.sort(listed)
    local found = {}
    for _, part in ipairs { "collide", "hit", "lua" } do
      local dir = "runtime/" .. part .. "/src"
      for name in lfs.dir(dir) do
        if name:match("%.c$") then found[#found + 1] = dir .. "/" .. name end
      end
    end
    table.sort(found)
    assert.are.same(found, listed)
    assert.are.equal("scripts/cleave/testing.lua", env.build.modules["cleave.testing"])
  end)

  it("has the version of the CMake project", function()
    local f = assert(io.open("CMakeLists.txt"))
    local cmake = f:read("a")
    f:close()
    local v = cmake:match("project%(cleave VERSION ([%d%.]+)")
    assert.truthy(rockspec_path():find("cleave%-" .. v:gsub("%.", "%%.") .. "%-%d+%.rockspec"))
  end)
end)
