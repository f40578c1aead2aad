-- The rockspec: readable by luarocks, the version of the CMake project, and installing the
-- module and the scripts it should. (`luarocks make --tree DIR` itself builds with CMake and is
-- too slow for every test run; docs/modding.md says how to run it.)
local lfs = require "lfs"

local function rockspec_path()
  for name in lfs.dir(".") do
    if name:match("^cleave%-.*%.rockspec$") then return name end
  end
end

local function load_rockspec()
  local path = assert(rockspec_path(), "no cleave-*.rockspec at the root")
  local env = {}
  assert(loadfile(path, "t", env))()
  return env, path
end

describe("the rockspec", function()
  it("builds cleave.so with the project's CMake and installs it with cleave.testing", function()
    local spec = load_rockspec()
    assert.are.equal("cleave", spec.package)
    assert.are.same({ "lua >= 5.4, < 5.5" }, spec.dependencies)
    assert.are.equal("command", spec.build.type)
    assert.matches("cmake %-S %. %-B build%-rock ", spec.build.build_command)
    assert.matches("%-%-target cleave_lua_module", spec.build.build_command)
    assert.are.same({ cleave = "build-rock/cleave.so" }, spec.build.install.lib)
    for mod, file in pairs(spec.build.install.lua) do
      assert.are.equal("scripts/" .. mod:gsub("%.", "/") .. ".lua", file)
      assert.truthy(io.open(file), file)
    end
    assert.are.equal("scripts/cleave/testing.lua", spec.build.install.lua["cleave.testing"])
  end)

  it("has the version of the CMake project", function()
    local spec, path = load_rockspec()
    local f = assert(io.open("CMakeLists.txt"))
    local v = f:read("a"):match("project%(cleave VERSION ([%d%.]+)")
    f:close()
    assert.are.equal(v .. "-1", spec.version)
    assert.are.equal("cleave-" .. spec.version .. ".rockspec", path)
  end)
end)
