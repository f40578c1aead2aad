-- cleave for Lua 5.4 from a checkout: `luarocks --lua-version 5.4 make` builds cleave.so
-- (collide + hit + the Lua binding, one module) and installs `require "cleave.testing"`.
-- The C sources are listed by hand (the builtin backend has no globs): a new .c file under
-- runtime/*/src must be added here too; tests/lua/rockspec_spec.lua checks the list.
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

build = {
  type = "builtin",
  modules = {
    cleave = {
      sources = {
        "runtime/collide/src/batch.c",
        "runtime/collide/src/broadphase.c",
        "runtime/collide/src/closest.c",
        "runtime/collide/src/exact.c",
        "runtime/collide/src/overlap.c",
        "runtime/collide/src/pose.c",
        "runtime/collide/src/ray.c",
        "runtime/collide/src/rotcache.c",
        "runtime/collide/src/shape.c",
        "runtime/collide/src/sweep.c",
        "runtime/hit/src/arena.c",
        "runtime/hit/src/common.c",
        "runtime/hit/src/snapshot.c",
        "runtime/hit/src/step.c",
        "runtime/hit/src/weapon.c",
        "runtime/lua/src/arena.c",
        "runtime/lua/src/check.c",
        "runtime/lua/src/exact.c",
        "runtime/lua/src/lpattern_guard.c",
        "runtime/lua/src/mod.c",
        "runtime/lua/src/module.c",
        "runtime/lua/src/query.c",
        "runtime/lua/src/sandbox.c",
        "runtime/lua/src/sandbox_lua.c",
        "runtime/lua/src/shape.c",
        "runtime/lua/src/weapon.c",
      },
      incdirs = {
        "runtime/collide/include", "runtime/collide/src",
        "runtime/hit/include", "runtime/hit/src",
        "runtime/lua/include", "runtime/lua/src",
      },
      defines = { "CLEAVE_VERSION=\"0.1.0\"" },
      libraries = { "m" },
    },
    ["cleave.testing"] = "scripts/cleave/testing.lua",
  },
  copy_directories = { "docs" },
}
