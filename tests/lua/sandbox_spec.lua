-- The abuse catalogue of the mod sandbox: every case is a mod doing something it
-- must not, the exact error it must get, and the proof that the host carries on: 60 more
-- frames through the same sandbox, and the host's own state untouched.
local cleave = require "cleave"
local T = require "cleave.testing"
local sandbox = require "cleave.sandbox"

local LIMITS = { memory = 4 << 20, load_ms = 30, callback_ms = 2 }
-- For bombs that must end in a memory error: on a loaded machine filling 4 MiB can take longer
-- than 30 ms, and the deadline would stop them first.
local BOMB = { memory = 4 << 20, load_ms = 5000, callback_ms = 5000 }
-- For every case whose expected outcome is not a timeout (a memory error, an API error, a
-- result): deadlines no loaded or instrumented machine reaches, so only the rule under test
-- can stop it.
local CALM = { memory = 4 << 20, load_ms = 5000, callback_ms = 5000 }

-- The limits a case runs under: its own, else the tight ones only when a timeout is the point.
local function limits_of(case)
  if case.limits then
    return case.limits
  end
  if case.err and case.err:find("time limit exceeded", 1, true) then
    return LIMITS
  end
  return CALM
end

-- A sandbox with a `frame` callback the host calls every frame; deadlines out of reach unless
-- the test is about them.
local function fresh(limits)
  local sb = assert(sandbox.new(limits or CALM))
  assert(sb:run("function frame(i) local t = {i} return #t + i end", "=frames"))
  return sb
end

-- What the host must still look like after every case.
local host_snapshot = {}
for k, v in pairs(_G) do host_snapshot[k] = v end
local host_string = {}
for k, v in pairs(string) do host_string[k] = v end
local host_cleave, host_exact = {}, {}
for k, v in pairs(cleave) do host_cleave[k] = v end
for k, v in pairs(cleave.exact) do host_exact[k] = v end

-- A mod's writes to its module table stay in its own state.
local function assert_host_cleave_untouched()
  for k, v in pairs(host_cleave) do
    assert.are.equal(v, cleave[k], "host cleave." .. k .. " changed")
  end
  for k in pairs(cleave) do
    assert.is_not_nil(host_cleave[k], "new host cleave." .. tostring(k))
  end
  for k, v in pairs(host_exact) do
    assert.are.equal(v, cleave.exact[k], "host cleave.exact." .. k .. " changed")
  end
  assert.is_nil(getmetatable(cleave))
end

local function assert_host_untouched()
  for k, v in pairs(host_snapshot) do
    assert.are.equal(v, _G[k], "host global " .. tostring(k) .. " changed")
  end
  for k in pairs(_G) do
    assert.is_not_nil(host_snapshot[k], "new host global " .. tostring(k))
  end
  for k, v in pairs(host_string) do
    assert.are.equal(v, string[k], "host string." .. k .. " changed")
  end
  assert.are.equal(string, getmetatable("").__index)
  assert.are.equal("ABC", ("abc"):upper())
  assert_host_cleave_untouched()
end

local function assert_sixty_frames(sb)
  for i = 1, 60 do
    local ok, v = sb:call("frame", i)
    assert.is_true(ok, v)
    assert.are.equal(i + 1, v)
  end
  assert.are.equal(0, sb:faults())
end

-- Each case: `load` runs as the mod's main chunk; `call` is the body of a callback
-- (`function abuse() <call> end`, called once). `err` is the expected message, found as
-- plain text; `ok` instead expects success with these results.
local catalogue = {
  -- Forbidden libraries and functions.
  { "io", load = "io.open('x')", err = "attempt to index a nil value (global 'io')" },
  { "os.execute", load = "os.execute('true')", err = "attempt to index a nil value (global 'os')" },
  { "os.exit", call = "os.exit(1)", err = "attempt to index a nil value (global 'os')" },
  { "debug.sethook", load = "debug.sethook()", err = "attempt to index a nil value (global 'debug')" },
  { "debug.getregistry", call = "return debug.getregistry()", err = "attempt to index a nil value (global 'debug')" },
  { "package.loadlib", load = "package.loadlib('libc.so.6', 'system')", err = "attempt to index a nil value (global 'package')" },
  { "require", load = "require 'io'", err = "attempt to call a nil value (global 'require')" },
  { "dofile", load = "dofile('/etc/passwd')", err = "attempt to call a nil value (global 'dofile')" },
  { "loadfile", load = "loadfile('/etc/passwd')", err = "attempt to call a nil value (global 'loadfile')" },
  { "string.dump", load = "string.dump(frame)", err = "attempt to call a nil value (field 'dump')" },
  { "dump as a method", load = "return ('x'):dump()", err = "attempt to call a nil value (method 'dump')" },
  { "rawset", load = "rawset(cleave, 'overlaps', print)", err = "attempt to call a nil value (global 'rawset')" },
  { "warn", load = "warn('@on')", err = "attempt to call a nil value (global 'warn')" },
  { "collectgarbage collect", call = "collectgarbage()", err = 'collectgarbage: only "count" is allowed in mods (got "collect")' },
  { "collectgarbage stop", load = "collectgarbage('stop')", err = 'collectgarbage: only "count" is allowed in mods (got "stop")' },
  { "collectgarbage count", load = "return type(collectgarbage('count'))", ok = { "number" } },
  -- Binary chunks.
  { "load of bytecode", load = "assert(load('\\27Lua\\84\\0'))", err = "attempt to load a binary chunk (mode is 't')" },
  { "load mode b", load = "assert(load('return 1', 'x', 'b'))", err = 'load: mode "b" is not allowed in mods (text chunks only)' },
  { "load mode bt", load = "assert(load('return 1', 'x', 'bt'))", err = 'load: mode "bt" is not allowed in mods (text chunks only)' },
  { "load text still works", load = "return load('return 6 * 7')()", ok = { 42 } },
  { "load env defaults to the mod's", load = "x_ = 5 return load('return x_')()", ok = { 5 } },
  -- The string metatable.
  { "string metatable hidden", load = "return getmetatable('')", ok = { false } },
  { "string metatable fields", load = "return getmetatable('').__index", err = "attempt to index a boolean value" },
  { "string metatable locked", load = "setmetatable('', {})", err = "bad argument #1 to 'setmetatable' (table expected, got string)" },
  -- Writes to the API.
  { "write cleave (the mod's own)", load = "cleave.overlaps = function() return true end return cleave.overlaps(cleave.point(0, 0), cleave.point(9, 9))", ok = { true } },
  { "write cleave.exact (the mod's own)", call = "cleave.exact.overlaps = nil return cleave.exact.overlaps == nil", ok = { true } },
  { "new field in cleave (the mod's own)", load = "cleave.mine = 1 return cleave.mine", ok = { 1 } },
  { "cleave metatable (the mod's own)", load = "setmetatable(cleave, { __index = function() return 2 end }) return cleave.nothing", ok = { 2 } },
  { "shape metatable", load = "getmetatable(cleave.circle(0, 0, 1)).__gc = print", err = "attempt to index a" },
  { "no nested sandbox", load = "cleave.sandbox.new{memory = 1 << 30}", err = "attempt to index a nil value (field 'sandbox')" },
  -- Loops: the deadline.
  { "while true (load)", load = "while true do end", err = "time limit exceeded (30 ms per load)" },
  { "while true (callback)", call = "while true do end", err = "time limit exceeded (2 ms per callback)" },
  { "goto loop", call = "::top:: goto top", err = "time limit exceeded (2 ms per callback)" },
  { "tail-call loop", call = "local function f() return f() end return f()", err = "time limit exceeded (2 ms per callback)" },
  { "nested pcall", call = "while true do pcall(function() while true do pcall(error) end end) end", err = "time limit exceeded (2 ms per callback)" },
  { "pcall of pcall", call = "while true do pcall(pcall, function() while true do end end) end", err = "time limit exceeded (2 ms per callback)" },
  { "xpcall handler loops", call = "xpcall(error, function() while true do end end) return 'swallowed'", err = "time limit exceeded (2 ms per callback)" },
  { "xpcall handler after a timeout", call = "while true do xpcall(function() while true do end end, function(m) while true do end end) end", err = "time limit exceeded (2 ms per callback)" },
  { "xpcall still works", load = "return xpcall(error, function(m) return 'handled ' .. m end, 'boom', 0)", ok = { false, "handled boom" } },
  { "coroutine loop", call = "while true do coroutine.resume(coroutine.create(function() while true do end end)) end", err = "time limit exceeded (2 ms per callback)" },
  { "coroutine.wrap loop", call = "coroutine.wrap(function() while true do end end)()", err = "time limit exceeded (2 ms per callback)" },
  { "coroutine from load resumed later", load = "co_ = coroutine.create(function() coroutine.yield() while true do end end) coroutine.resume(co_)", call = "while true do coroutine.resume(co_) end", err = "time limit exceeded (2 ms per callback)" },
  { "__close loop", call = "do local x <close> = setmetatable({}, {__close = function() while true do end end}) end", err = "time limit exceeded (2 ms per callback)" },
  { "__close loop while unwinding", call = "local x <close> = setmetatable({}, {__close = function() while true do end end}) error('first')", err = "time limit exceeded (2 ms per callback)" },
  { "__tostring loop", call = "return tostring(setmetatable({}, {__tostring = function() while true do end end}))", err = "time limit exceeded (2 ms per callback)" },
  { "__index loop", call = "return setmetatable({}, {__index = function() while true do end end}).x", err = "time limit exceeded (2 ms per callback)" },
  { "sort comparator loop", call = "table.sort({3, 2, 1}, function() while true do end end)", err = "time limit exceeded (2 ms per callback)" },
  { "gsub callback loop", call = "return ('abc'):gsub('.', function() while true do end end)", err = "time limit exceeded (2 ms per callback)" },
  { "log of a looping __tostring", call = "log(setmetatable({}, {__tostring = function() while true do end end}))", err = "time limit exceeded (2 ms per callback)" },
  -- Pattern bombs: stock Lua runs these in C for seconds with the hook silent.
  { "find bomb", call = "return string.find(('a'):rep(200), ('a-'):rep(4) .. 'b')", err = "time limit exceeded (2 ms per callback)" },
  { "match bomb", call = "return ('a'):rep(40):match(('a?'):rep(40) .. ('a'):rep(40) .. 'b')", err = "time limit exceeded (2 ms per callback)" },
  { "gmatch bomb", call = "for m in ('a'):rep(300):gmatch(('a*'):rep(6) .. 'b') do end", err = "time limit exceeded (2 ms per callback)" },
  { "gsub bomb", call = "return (('a'):rep(200)):gsub(('a-'):rep(4) .. 'b', '')", err = "time limit exceeded (2 ms per callback)" },
  { "bomb at load", load = "string.find(('a'):rep(200), ('a-'):rep(4) .. 'b')", err = "time limit exceeded (30 ms per load)" },
  { "pattern too long", call = "return ('a'):find(('a?'):rep(40000))", err = "pattern too long (65536 bytes at most in mods)" },
  { "pattern too deep", call = "return ('a'):rep(300):match(('(a)'):rep(32) .. ('a?'):rep(250))", err = "pattern too complex" },
  { "swallowed bombs", call = "while true do pcall(string.find, ('a'):rep(200), ('a-'):rep(4) .. 'b') end", err = "time limit exceeded (2 ms per callback)" },
  -- Memory bombs.
  { "string doubling", limits = BOMB, load = "local s = 'x' while true do s = s .. s end", err = "not enough memory" },
  { "table fill", limits = BOMB, load = "local t = {} for i = 1, math.huge do t[i] = i end", err = "not enough memory" },
  { "deep recursion", limits = BOMB, load = "local function f(n) return 1 + f(n + 1) end f(1)", err = "not enough memory" },
  { "deep recursion, large budget", limits = { memory = 64 << 20, load_ms = 5000, callback_ms = 5000 }, load = "local function f(n) return 1 + f(n + 1) end f(1)", err = "stack overflow" },
  { "string.rep 2^40", load = "return string.rep('x', 2^40)", err = "resulting string too large" },
  { "string.rep 2^30", limits = BOMB, load = "return string.rep('x', 2^30)", err = "not enough memory" },
  { "coroutine flood", limits = BOMB, load = "local t = {} while true do t[#t + 1] = coroutine.create(print) end", err = "not enough memory" },
  -- Memory the cleave API takes for a mod is the mod's: arenas, entities and weapons live in C,
  -- and count against the budget like tables do.
  { "arena capacity bomb", load = "local t = {} for i = 1, 20 do t[i] = cleave.arena { capacity = 1048576 } end", err = "cleave.arena: out of memory" },
  { "entity flood", limits = BOMB, load = "local a = cleave.arena {} local t = {} while true do t[#t + 1] = a:spawn { radius = 1 } end", err = "spawn: out of memory" },
  { "weapon flood", limits = BOMB, load = "local hb = {} for i = 1, 200 do hb[i] = { id = 'h' .. i, frames = 1, x = 0, y = 0, radius = 1 } end local t = {} while true do t[#t + 1] = cleave.weapon { attacks = { a = { hitboxes = hb } } } end", err = "out of memory" },
  -- A C loop the hook cannot see: arena:step(n) checks the deadline between frames.
  { "step flood", load = "local a = cleave.arena {} a:spawn {} a:step(1000000000)", err = "sandbox:1: time limit exceeded (30 ms per load)" },
  { "swallowed step floods", call = "local a = cleave.arena {} a:spawn {} while true do pcall(a.step, a, 1000000000) end", err = "time limit exceeded (2 ms per callback)" },
  { "hitbox flood", limits = { memory = 64 << 20, load_ms = 5000, callback_ms = 30 }, load = "hb = {} for i = 1, 40000 do hb[i] = { id = 'h' .. i, frames = 1, x = 0, y = 0, radius = 1 } end", call = "local w = cleave.weapon { attacks = { a = { hitboxes = hb } } }", err = "sandbox:1: time limit exceeded (30 ms per callback)" },
  { "no mod loading from a mod", load = "return cleave.load_mod == nil, cleave.reload_mod == nil, cleave.sandbox == nil", ok = { true, true, true } },
  { "swallowed memory errors", call = "while true do pcall(string.rep, 'x', 1 << 30) end", err = "time limit exceeded (2 ms per callback)" },
  -- Finalizers.
  { "__gc refused", load = "setmetatable({}, {__gc = function() while true do end end})", err = "__gc metamethods are not allowed in mods" },
  { "__gc false refused", load = "setmetatable({}, {__gc = false})", err = "__gc metamethods are not allowed in mods" },
  { "__gc added later never runs", load = "local mt = {} for i = 1, 1000 do setmetatable({}, mt) end mt.__gc = function() while true do end end for i = 1, 20000 do local _ = {i} end return 'done'", ok = { "done" } },
  -- C loops of the libraries over a range the mod picks: no allocation, so only a deadline
  -- check inside the loop stops them.
  { "table.move over a huge range", call = "table.move({}, 1, math.maxinteger - 1, 1)", err = "sandbox:1: time limit exceeded (2 ms per callback)" },
  { "table.move backwards over a huge range", call = "local t = {} table.move(t, 1, math.maxinteger - 1, 2)", err = "time limit exceeded (2 ms per callback)" },
  { "table.insert under a forged __len", call = "local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end}) table.insert(t, 1, 'x')", err = "sandbox:1: time limit exceeded (2 ms per callback)" },
  { "table.remove under a forged __len", call = "local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end}) table.remove(t, 1)", err = "sandbox:1: time limit exceeded (2 ms per callback)" },
  { "swallowed table.move", call = "while true do pcall(table.move, {}, 1, math.maxinteger - 1, 1) end", err = "time limit exceeded (2 ms per callback)" },
  { "table functions still work", load = "local t = {1, 2, 3} table.insert(t, 1, 0) table.insert(t, 4) local r = table.remove(t, 2) table.move(t, 1, 3, 2) return r, table.concat(t, ','), #table.move({1, 2}, 1, 2, 1, {})", ok = { 1, "0,0,2,3", 2 } },
  { "table.insert position checked", load = "table.insert({}, 5, 1)", err = "bad argument #2 to 'insert' (position out of bounds)" },
  { "table.move wrap checked", load = "table.move({}, 1, math.maxinteger, 2)", err = "bad argument #4 to 'move' (destination wrap around)" },
  { "string.rep of nothing", call = "return #string.rep('', math.maxinteger), #('').rep('', math.maxinteger, '')", ok = { 0, 0 } },
  { "string.rep still works", load = "return ('ab'):rep(3, '-'), ('x'):rep(0)", ok = { "ab-ab-ab", "" } },
  -- Metatables: read when setmetatable is called, and refused when Lua would loop in C.
  { "__call chain", load = "local t = setmetatable({}, {}) getmetatable(t).__call = t t()", err = "attempt to call a table value" },
  { "__call to a table refused", load = "setmetatable({}, {__call = {}})", err = "__call must be a function in mods (got table)" },
  { "__call replaced later does nothing", load = "local mt = {__call = function() return 1 end} local t = setmetatable({}, mt) mt.__call = t return t()", ok = { 1 } },
  { "__call function works", load = "return setmetatable({}, {__call = function(self, x) return x * 2 end})(21)", ok = { 42 } },
  { "weak keys refused", load = "setmetatable({}, {__mode = 'k'})", err = "weak keys (__mode with 'k') are not allowed in mods" },
  { "weak keys and values refused", load = "setmetatable({}, {__mode = 'kv'})", err = "weak keys (__mode with 'k') are not allowed in mods" },
  { "weak keys added later do nothing", load = "local mt = {} local t = setmetatable({}, mt) mt.__mode = 'k' t[{}] = 1 for i = 1, 20000 do local _ = {i} end return next(t) ~= nil", ok = { true } },
  { "weak values allowed", load = "local t = setmetatable({}, {__mode = 'v'}) return getmetatable(t).__mode", ok = { "v" } },
  { "getmetatable answers the mod's table", load = "local mt = {__index = {x = 1}} local t = setmetatable({}, mt) return getmetatable(t) == mt, t.x", ok = { true, 1 } },
  { "metatable replaced", load = "local t = setmetatable({}, {}) setmetatable(t, {__index = {x = 2}}) return t.x, getmetatable(setmetatable(t, nil))", ok = { 2, nil } },
  { "__metatable of the mod kept", load = "local t = setmetatable({}, {__metatable = 'mine'}) return getmetatable(t)", ok = { "mine" } },
  { "__metatable of the mod protects", load = "local t = setmetatable({}, {__metatable = 'mine'}) setmetatable(t, {})", err = "cannot change a protected metatable" },
  { "class idiom", load = "local C = {} C.__index = C function C.new(v) return setmetatable({v = v}, C) end function C:get() return self.v end C.__tostring = function(s) return 'C' .. s.v end return C.new(7):get(), tostring(C.new(8))", ok = { 7, "C8" } },
  -- Error objects.
  { "table error with looping __tostring", call = "error(setmetatable({}, {__tostring = function() while true do end end}))", err = "sandbox:1: (error object is a table value)" },
  { "nil error", call = "error(nil)", err = "(error object is a nil value)" },
  { "error with looping __index", load = "error(setmetatable({}, {__index = function() while true do end end, __name = 'x'}))", err = "(error object is a table value)" },
  { "number error", call = "error(42)", err = "42" },
  -- Re-entering the host.
  { "bad arguments into the API", call = "return cleave.circle(0, 0, -1)", err = "bad argument #3 to 'circle'" },
  { "API names a function called through pcall", load = "local ok, e = pcall(cleave.circle, 'x', 0, 1) return e", ok = { "bad argument #1 to 'cleave.circle' (number expected, got string)" } },
  { "API inside a callback", call = "local a, b = cleave.circle(0, 0, 2), cleave.circle(3, 0, 2) return cleave.overlaps(a, b)", ok = { true } },
}

describe("sandbox abuse catalogue", function()
  it("has at least 40 cases", function()
    T.expect_at_least(#catalogue, 40, "cases")
  end)

  for _, case in ipairs(catalogue) do
    local name = case[1]
    it(name, function()
      local sb = fresh(limits_of(case))
      local ok, msg, tb
      local results
      if case.load then
        results = { sb:run(case.load, "=sandbox") }
      end
      if case.call then
        if case.load then
          assert.is_true(results[1], results[2])
        end
        assert(sb:run("function abuse() " .. case.call .. "\nend", "=sandbox"))
        results = { sb:call("abuse") }
      end
      ok, msg, tb = results[1], results[2], results[3]
      if case.ok then
        assert.is_true(ok, msg)
        assert.are.same(case.ok, { table.unpack(results, 2) })
      else
        assert.is_nil(ok)
        assert.is_string(msg)
        assert.is_truthy(msg:find(case.err, 1, true),
          ("expected %q in %q"):format(case.err, msg))
        if tb ~= nil then
          assert.is_truthy(tb:find("^stack traceback:"))
        end
      end
      assert_sixty_frames(sb)
      local bytes, peak, budget = sb:memory()
      T.expect_at_most(peak, budget, "peak bytes")
      T.expect_greater(bytes, 0, "bytes")
      sb:close()
      assert.are.equal(0, (sb:memory()))
      assert_host_untouched()
    end)
  end
end)

describe("sandbox", function()
  it("gives every byte back when closed", function()
    local sb = fresh(BOMB)
    assert(sb:run("t = {} for i = 1, 1000 do t[i] = ('x'):rep(i) end"))
    T.expect_greater((sb:memory()), 500000, "bytes")
    sb:close()
    assert.are.equal(0, (sb:memory()))
    assert.has_error(function() sb:run("return 1") end, "sandbox is closed")
  end)

  it("builds string.rep's strings as stock Lua does", function()
    local sb = fresh()
    assert(sb:run("function rep(...) return string.rep(...) end"))
    local strings, seps = { "x", "ab", "", "h\195\169llo\0", ("z"):rep(300) }, { "", "-", ", ", "\0" }
    local counts = { -3, 0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 1000, 4097 }
    for _, s in ipairs(strings) do
      for _, sep in ipairs(seps) do
        for _, n in ipairs(counts) do
          local ok, got = sb:call("rep", s, n, sep)
          assert(ok, got)
          local want = string.rep(s, n, sep)
          if got ~= want then
            error(("rep(%q, %d, %q): %d bytes, want %d"):format(s, n, sep, #got, #want))
          end
        end
      end
      local ok, got = sb:call("rep", s, 5)
      assert(ok, got)
      assert.are.equal(string.rep(s, 5), got)
    end
  end)

  it("keeps one mod's string library its own", function()
    local a, b = fresh(), fresh()
    assert(a:run("string.upper = function() return 'pwned' end"))
    assert.are.same({ true, "pwned" }, { a:run("return ('x'):upper()") })
    assert.are.same({ true, "X" }, { b:run("return ('x'):upper()") })
    assert_host_untouched()
  end)

  it("copies values across the boundary", function()
    local sb = fresh()
    assert(sb:run("function keep(t) kept = t t.x = 2 return t end function get() return kept end"))
    local mine = { x = 1, list = { 1, 2, 3 }, [1.5] = true }
    local ok, back = sb:call("keep", mine)
    assert.is_true(ok)
    assert.are.equal(1, mine.x)
    assert.are.equal(2, back.x)
    assert.are_not.equal(mine, back)
    assert.are.same({ 1, 2, 3 }, back.list)
    assert.is_true(back[1.5])
    local _, again = sb:call("get")
    assert.are_not.equal(back, again)
    assert.are.equal(math.maxinteger, select(2, sb:run("return math.maxinteger")))
    assert.are.equal(math.type(1), math.type(select(2, sb:run("return 1"))))
  end)

  it("refuses values it cannot copy", function()
    local sb = fresh()
    assert.has_error(function() sb:call("frame", print) end,
      "bad argument #2 to 'call' (cannot copy a function into a sandbox)")
    assert.has_error(function() sb:call("frame", setmetatable({}, {})) end,
      "bad argument #2 to 'call' (cannot copy a table with a metatable into a sandbox)")
    local cyc = {} cyc.self = cyc
    assert.has_error(function() sb:call("frame", cyc) end,
      "bad argument #2 to 'call' (cannot copy a tables nested too deep (or a cycle) into a sandbox)")
    assert.are.same({ nil, "cannot copy result 1 out of the sandbox (function)" },
      { (sb:run("return print")) , select(2, sb:run("return print")) })
    assert.are.same({ nil, "cannot copy result 2 out of the sandbox (table with a metatable)", nil },
      { sb:run("return 1, setmetatable({}, {})") })
    assert_sixty_frames(sb)
  end)

  it("names a missing callback", function()
    local sb = fresh()
    local ok, msg = sb:call("on_hit", 1)
    assert.is_nil(ok)
    assert.are.equal("global 'on_hit' is not a function (a nil value)", msg)
  end)

  it("counts consecutive faults", function()
    local sb = fresh()
    assert(sb:run("function bad() error('no') end"))
    for i = 1, 3 do
      assert.is_nil((sb:call("bad")))
      assert.are.equal(i, sb:faults())
    end
    assert.is_true((sb:call("frame", 1)))
    assert.are.equal(0, sb:faults())
  end)

  it("reports file and line with a traceback", function()
    local sb = fresh()
    local ok, msg, tb = sb:run("local x = 1\nlocal y = nil + x\n", "@mods/scythe/mod.lua")
    assert.is_nil(ok)
    assert.are.equal("mods/scythe/mod.lua:2: attempt to perform arithmetic on a nil value", msg)
    assert.is_truthy(tb:find("mods/scythe/mod.lua:2: in main chunk", 1, true))
    ok, msg = sb:run("x = = 1", "@mods/scythe/mod.lua")
    assert.is_nil(ok)
    assert.are.equal("mods/scythe/mod.lua:1: unexpected symbol near '='", msg)
    ok, msg = sb:run(string.dump(function() end), "@mods/scythe/mod.lua")
    assert.is_nil(ok)
    assert.are.equal("mods/scythe/mod.lua: attempt to load a binary chunk (mode is 't')", msg)
  end)

  it("keeps a bounded log", function()
    local sb = fresh()
    assert(sb:run("for i = 1, 70 do log('line', i) end print(('x'):rep(1000))"))
    local lines, dropped = sb:log()
    assert.are.equal(64, #lines)
    assert.are.equal(7, dropped)
    assert.are.equal("line\t8", lines[1])
    assert.are.equal(255, #lines[64])
    assert.are.same({}, (sb:log()))
  end)

  it("validates its options", function()
    assert.has_error(function() sandbox.new{ memory = -1 } end,
      "bad argument #1 to 'new' (memory must be an integer >= 65536, got -1)")
    assert.has_error(function() sandbox.new{ callback_ms = 0 } end,
      "bad argument #1 to 'new' (callback_ms must be > 0 and finite, got 0.0)")
    assert.has_error(function() sandbox.new{ load_ms = 0 / 0 } end)
    assert.has_error(function() sandbox.new{ memroy = 1 } end,
      "bad argument #1 to 'new' (unknown option 'memroy')")
  end)

  it("uses the default limits of the issue", function()
    local sb = assert(sandbox.new())
    assert.are.equal(64 << 20, select(3, sb:memory()))
    local ok, msg = sb:run("while true do end")
    assert.is_nil(ok)
    assert.is_truthy(msg:find("time limit exceeded (250 ms per load)", 1, true))
    assert(sb:run("function spin() while true do end end"))
    ok, msg = sb:call("spin")
    assert.is_nil(ok)
    assert.is_truthy(msg:find("time limit exceeded (2 ms per callback)", 1, true))
  end)

  it("survives the allocator failing at every allocation", function()
    local mod = [[
      local shapes = {}
      for i = 1, 20 do shapes[i] = cleave.capsule(0, 0, i, i, 2) end
      function frame(i) return cleave.overlaps(shapes[1], shapes[(i % 20) + 1]) and i + 1 end
      return #shapes
    ]]
    local n, succeeded = 0, false
    while not succeeded do
      n = n + 1
      local sb, err = sandbox.new{ memory = 4 << 20, fail_after = n }
      if sb then
        local ok, msg = sb:run(mod, "=mod")
        if ok then
          succeeded = true
        else
          assert.are.equal("not enough memory", msg:match("not enough memory") or msg)
        end
        sb:close()
        assert.are.equal(0, (sb:memory()))
      else
        assert.are.equal("not enough memory", err)
      end
      T.expect_less(n, 100000, "allocations")
    end
    T.expect_greater(n, 50, "allocations the sweep covered")
  end)
end)

describe("sandbox patterns", function()
  -- The guarded matcher must give stock Lua's answers.
  local cases = {
    { "hello world", "o" }, { "hello world", "(o)(r)" }, { "hello", "^h" }, { "hello", "^e" },
    { "hello", "o$" }, { "hel$lo", "l$l" }, { "key = value", "(%w+)%s*=%s*(%w+)" },
    { "  trim  ", "^%s*(.-)%s*$" }, { "f(a(b)c)d", "%b()" }, { "THE (quick) fox", "%f[%a]%a+" },
    { "abcabc", "(abc)%1" }, { "x=1, y=22", "()%d+()" }, { "a.b", "%." }, { "aaa", "a-" },
    { "aaa", "a-$" }, { "aaab", "a*b" }, { "b", "a+b" }, { "[x]", "[]]" }, { "a-b", "[a%-]+" },
    { "A1b2", "[%u%d]+" }, { "abc", "[^a]+" }, { "z", "[a-y]" }, { "\0a\0", "%z" },
    { "caf\xC3\xA9", "[\x80-\xFF]+" }, { "", "" }, { "abc", "" }, { "abc", ".?c" },
  }
  local sb = fresh()
  assert(sb:run([[
    function pack(...) return {n = select('#', ...), ...} end
    function find(s, p, i) return pack(string.find(s, p, i)) end
    function match(s, p, i) return pack(string.match(s, p, i)) end
    function gmatch(s, p) local r = {} for a, b in string.gmatch(s, p) do r[#r + 1] = {a, b} end return r end
    function gsub(s, p, r, n) return pack(string.gsub(s, p, r, n)) end
  ]], "=patterns"))
  local function pack(...) return { n = select("#", ...), ... } end
  for _, c in ipairs(cases) do
    local s, p = c[1], c[2]
    it(("agrees with stock Lua on %q ~ %q"):format(s, p), function()
      for _, init in ipairs { 1, 2, -2, 10 } do
        assert.are.same(pack(s:find(p, init)), select(2, sb:call("find", s, p, init)))
        assert.are.same(pack(s:match(p, init)), select(2, sb:call("match", s, p, init)))
      end
      local g = {}
      for a, b in s:gmatch(p) do g[#g + 1] = { a, b } end
      assert.are.same(g, select(2, sb:call("gmatch", s, p)))
      assert.are.same(pack(s:gsub(p, "<%0>")), select(2, sb:call("gsub", s, p, "<%0>")))
      assert.are.same(pack(s:gsub(p, "%1", 1)), select(2, sb:call("gsub", s, p, "%1", 1)))
      assert.are.same(pack(s:gsub(p, { hello = "HI", o = 0 })),
        select(2, sb:call("gsub", s, p, { hello = "HI", o = 0 })))
    end)
  end

  it("gives stock Lua's errors for malformed patterns", function()
    for _, p in ipairs { "%", "[a", "(a", "a.)", "%1", "%b", "%f", "%fa", "(()" } do
      local ok, stock = pcall(string.find, "abc", p)
      assert.is_false(ok)
      local _, msg = sb:run(("return string.find('abc', %q)"):format(p), "=p")
      stock = stock:gsub("^.-: ", "")
      assert.are.equal(stock, msg:gsub("^p:1: ", ""), "pattern " .. p)
    end
  end)

  it("supports plain find and replacement functions", function()
    assert.are.same({ true, 2, 3 }, { sb:run("return ('a.b'):find('.b', 1, true)") })
    assert.are.same({ true, "A-B", 2 },
      { sb:run("return ('a-b'):gsub('%a', function(c) return c:upper() end)") })
    assert.are.same({ true, "a-b", 2 }, { sb:run("return ('a-b'):gsub('%a', function() end)") })
    local _, msg = sb:run("return ('a'):gsub('a', function() return {} end)", "=p")
    assert.are.equal("p:1: invalid replacement value (a table)", msg)
  end)
end)
