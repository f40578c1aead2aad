-- luacheck configuration: Lua 5.4 everywhere, busted's globals in specs.
std = "lua54"
max_line_length = 100
exclude_files = { "build/", "build-*/" }

-- A spec keeps each expected message and each case of a table on one line, so that a failing
-- message is found by searching for it.
local spec = { std = "+busted", max_line_length = false }
files["tests/lua"] = spec
files["mods/**/spec"] = spec
files["**/*_spec.lua"] = spec
-- A mod runs in its sandbox, where `cleave` and `log` are given.
files["mods/*/mod.lua"] = { read_globals = { "cleave", "log" } }
-- The docs quote the line numbers of scythe's errors; a rewrap would move them.
files["mods/scythe/mod.lua"] = { max_line_length = 112 }
-- Editor annotations: declarations only, whose parameters exist to be documented, whose
-- classes are tables that only gather methods (241: mutated, never read), and the
-- global `log` that a mod's sandbox gives.
files["library"] = { unused_args = false, ignore = { "241" }, globals = { "log" } }
-- LuaJIT files: the FFI binding, its LÖVE drawing helpers and the LÖVE example.
files["scripts/cleave/ffi.lua"] = { std = "luajit" }
files["scripts/cleave/ffi_arena.lua"] = { std = "luajit" }
files["scripts/cleave/ffi_meet.lua"] = { std = "luajit" }
files["scripts/cleave/love.lua"] = { std = "luajit", read_globals = { "love" } }
files["examples/love"] = { std = "luajit", globals = { "love" } }
