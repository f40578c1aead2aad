-- luacheck configuration: Lua 5.4 everywhere, busted's globals in specs.
std = "lua54"
max_line_length = 100
exclude_files = { "build/", "build-*/" }

files["tests/lua"] = { std = "+busted" }
files["mods/**/spec"] = { std = "+busted" }
files["**/*_spec.lua"] = { std = "+busted" }
-- A mod runs in its sandbox, where `cleave` and `log` are given.
files["mods/*/mod.lua"] = { read_globals = { "cleave", "log" } }
