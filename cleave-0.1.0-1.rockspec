-- cleave for Lua 5.4 from a checkout: `luarocks --lua-version 5.4 make` builds cleave.so
-- (collide + hit + the Lua binding, one module) with CMake and installs it with
-- `require "cleave.testing"`. Needs CMake and a C11 compiler.
rockspec_format = "3.0"
package = "cleave"
version = "0.1.0-1"

source = {
  -- `luarocks make` builds the working tree it is run in; there is no download.
  url = "git+file://.",
}

description = {
  summary = "Hitbox framework for 2D melee games: capsules, hit rules, weapons as Lua mods",
  detailed = [[
cleave is a C11 hitbox framework with Lua 5.4 scripting: exact and float collision queries,
a deterministic hit arena (hit groups, max_hits, rehit, knockback, hitlag, status effects),
weapons declared in Lua and validated once, sandboxed mods and a busted testing toolkit.
]],
  license = "MIT",
  labels = { "gamedev", "collision", "hitbox" },
}

dependencies = {
  "lua >= 5.4, < 5.5",
}

build_dependencies = {}

build = {
  -- The project's own CMake build makes cleave.so (collide + hit + the Lua binding in one
  -- module, every source under runtime/*/src); luarocks then installs it and the Lua scripts.
  -- The build folder build-rock/ is ignored by git.
  type = "command",
  build_command = "cmake -S . -B build-rock -DCMAKE_BUILD_TYPE=Release -DCLEAVE_TESTS=OFF "
    .. "-DCLEAVE_WERROR=OFF -DCLEAVE_LUA_INCLUDE_DIR=$(LUA_INCDIR) "
    .. "&& cmake --build build-rock --target cleave_lua_module",
  install = {
    lib = { cleave = "build-rock/cleave.so" },
    lua = {
      ["cleave.testing"] = "scripts/cleave/testing.lua",
      ["cleave.suggest"] = "scripts/cleave/suggest.lua",
    },
  },
  copy_directories = { "docs" },
}
