-- The sandbox's limits that close whole classes of attack: C loops a mod can make long, metatable
-- fields that make the VM or the collector loop in C, callbacks that keep timing out, and the
-- arena refusing to be rolled back under its own callbacks. Each case failed before its fix.
local cleave = require "cleave"
local T = require "cleave.testing"
local sandbox = require "cleave.sandbox"

-- Calls global `name` of sb and asserts that it timed out, with a message matching pattern,
-- within cpu seconds of CPU.
local function times_out(sb, name, pattern, cpu)
  local t0 = os.clock()
  local ok, msg = sb:call(name)
  assert.is_nil(ok, name)
  assert.matches(pattern, msg)
  T.expect_less(os.clock() - t0, cpu, name .. ": CPU seconds")
end

local function stick(on_hit)
  return cleave.weapon {
    name = "stick",
    on_hit = on_hit,
    attacks = { swing = { length = 6, hitboxes = {
      { id = "tip", frames = { 2, 4 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4, damage = 10, hitlag = 0 },
    } } },
  }
end

describe("arena:restore inside a callback", function()
  it("is refused before the arena is rolled back", function()
    local errors = {}
    local a = cleave.arena { on_error = function(msg) errors[#errors + 1] = msg end }
    local p = a:spawn { team = 1 }
    a:spawn { x = 25, team = 2, radius = 6 }
    local early = a:snapshot()
    local inside
    a:on_hit(function() a:restore(early) inside = a:hash() end)
    a:attack { weapon = stick(), attack = "swing", owner = p }
    a:step(2)
    assert.are.equal(1, #errors)
    assert.matches("restore: the arena cannot be restored inside one of its callbacks", errors[1])
    assert.is_nil(inside)
    -- the frame the callback saw is still the arena's: the snapshot was not applied
    local b = cleave.arena {}
    b:restore(early)
    assert.are_not.equal(b:hash(), a:hash())
  end)
end)

describe("a late request refused by the allocator", function()
  it("is not swallowed by a pcall in the mod", function()
    -- string.upper asks for its buffer (the allocator looks at the clock: in time), upper-cases
    -- 32 MiB, far longer than 1 ms on any machine, then asks for its result: the allocator sees
    -- the deadline and refuses. pcall catches that memory error; the mod must still not return.
    local sb = assert(sandbox.new { memory = 256 << 20, load_ms = 5000, callback_ms = 1 })
    assert(sb:run("s = ('x'):rep(32 << 20) function late() local ok, e = pcall(string.upper, s) return e end", "=up"))
    local ok, msg = sb:call("late")
    assert.is_nil(ok, msg)
    assert.are.equal("up:1: time limit exceeded (1 ms per callback)", msg)
  end)

  it("stops the mod at its next instruction, not a thousand later", function()
    local sb = assert(sandbox.new { memory = 256 << 20, load_ms = 5000, callback_ms = 1 })
    assert(sb:run([[s = ('x'):rep(32 << 20) count = 0
      function late() pcall(string.upper, s) for i = 1, 5000 do count = count + 1 end end]], "=up"))
    local ok, msg = sb:call("late")
    assert.is_nil(ok)
    assert.are.equal("up:2: time limit exceeded (1 ms per callback)", msg)
    local _, count = sb:run("return count")
    assert.are.equal(0, count) -- with the hook's own count, about 250 turns of the loop ran
  end)

  it("names the line the time ran out on, not an earlier refusal of memory", function()
    local sb = assert(sandbox.new { memory = 8 << 20, load_ms = 5000, callback_ms = 2 })
    assert(sb:run([[function loop() while true do end end
      function cb() pcall(string.rep, "x", 64 << 20)
        return pcall(loop) end]], "=m"))
    local ok, msg = sb:call("cb")
    assert.is_nil(ok)
    assert.are.equal("m:1: time limit exceeded (2 ms per callback)", msg)
  end)
end)

describe("a mod that catches the sandbox's stop", function()
  -- Each case returned a result past its deadline, or ran for seconds, before its fix.
  local function calls(src, limits)
    local sb = assert(sandbox.new(limits or { memory = 64 << 20, load_ms = 5000, callback_ms = 2 }))
    assert(sb:run(src, "=m"))
    return sb
  end

  it("still times out when the catching call is its last (a tail call runs no hook)", function()
    local sb = calls("function loop() while true do end end function cb() return pcall(loop) end")
    local ok, msg = sb:call("cb")
    assert.is_nil(ok)
    assert.are.equal("m:1: time limit exceeded (2 ms per callback)", msg)
    local quick = assert(sandbox.new { load_ms = 20 })
    local ok2, msg2 = quick:run("return pcall(function() while true do end end)", "=l")
    assert.is_nil(ok2)
    assert.are.equal("l:1: time limit exceeded (20 ms per load)", msg2)
    local big = calls("s = ('x'):rep(32 << 20) function late() return pcall(string.upper, s) end",
      { memory = 256 << 20, load_ms = 5000, callback_ms = 1 })
    local ok3, msg3 = big:call("late")
    assert.is_nil(ok3)
    assert.are.equal("m:1: time limit exceeded (1 ms per callback)", msg3)
  end)

  it("stops the main thread at once when a coroutine timed out", function()
    local sb = calls([[function cb()
      local ok, e = coroutine.resume(coroutine.create(function() while true do end end))
      local n = 0 for i = 1, 100 do n = n + i end
      return "survived", n
    end]])
    local ok, msg = sb:call("cb")
    assert.is_nil(ok)
    assert.are.equal("m:3: time limit exceeded (2 ms per callback)", msg) -- the line after resume
  end)

  it("runs a timed-out coroutine's __close under the deadline", function()
    -- the __close loops for about a second of CPU (for ever, before the fix: hooks were off)
    local sb = calls([[
      local mt = { __close = function() for i = 1, 2e8 do end end }
      function wrapped()
        coroutine.wrap(function() local x <close> = setmetatable({}, mt) while true do end end)()
      end
      function closed()
        local co = coroutine.create(function() local x <close> = setmetatable({}, mt) while true do end end)
        coroutine.resume(co)
        coroutine.close(co)
      end]])
    for _, name in ipairs { "wrapped", "closed" } do
      times_out(sb, name, "time limit exceeded %(2 ms per callback%)", 0.2)
    end
  end)
end)

describe("a suspended coroutine whose resume is refused", function()
  it("stays suspended and resumes later (its stack was reset below its base)", function()
    local sb = assert(sandbox.new {})
    local ok, hits, after = sb:run([[
      local g2 = coroutine.wrap(function() while true do coroutine.yield(7) end end) g2()
      local hits = {}
      local g1 = coroutine.wrap(function() while true do coroutine.yield()
        local ok, e = pcall(g2) hits[#hits + 1] = tostring(ok) .. " " .. tostring(e) end end) g1()
      local function r(d) pcall(g1) pcall(r, d + 1) end r(1)
      local ok, v = pcall(g2)
      return hits[#hits], tostring(ok) .. " " .. tostring(v)]], "=m")
    assert.is_true(ok, hits)
    assert.are.equal("false C stack overflow", hits)
    assert.are.equal("true 7", after)
  end)
end)

describe("stock functions that loop in C without asking for memory", function()
  it("meet the deadline within one call", function()
    local sb = assert(sandbox.new { memory = 64 << 20, load_ms = 5000, callback_ms = 2 })
    assert(sb:run([[
      T = {} for i = 1, 1 << 16 do T[i] = (i * 7919) % 65536 end
      E = {} for i = 1, 1 << 16 do E[i] = "" end
      U = ("x"):rep(1 << 20)
      D = (" "):rep(1 << 20)
      function sort() while true do table.sort(T) end end
      function concat() while true do table.concat(E) end end
      function len() while true do utf8.len(U) end end
      function offset() while true do utf8.offset(U, -1) end end
      function number() while true do tonumber(D) end end
      function ordered() while true do table.sort(T, math.ult) end end
      C = "a" .. ("\128"):rep(1 << 20)
      function codes() local f = utf8.codes(C) while true do pcall(f, C, 1) end end
      N = {} for i = 1, 1 << 16 do N[i] = i end for i = 1, 1 << 16 do N[i] = nil end
      function nexts() local f = pairs(N) while true do f(N) end end
      A, B = ("x"):rep(1 << 20), ("x"):rep(1 << 20)
      function same() while true do rawequal(A, B) end end]], "=m"))
    -- before: a thousand calls between two looks of the hook, 0.5 to 10 s (a C order given to
    -- sort: no look at all)
    for _, name in ipairs { "sort", "concat", "len", "offset", "number", "ordered", "codes",
      "nexts", "same" } do
      times_out(sb, name, "^m:%d+: time limit exceeded %(2 ms per callback%)", 0.1)
    end
  end)

  it("keep pairs and __pairs working, and sort long strings under the deadline", function()
    local sb = assert(sandbox.new { memory = 200 << 20, load_ms = 5000, callback_ms = 2 })
    -- a __pairs returning next, a closure or a coroutine iterator crashed the host once pairs
    -- wrapped every C function it returned
    local ok, r = sb:run([[
      local out = {}
      local function keys(t) local n = 0 for _ in pairs(t) do n = n + 1 end return n end
      out[#out + 1] = keys(setmetatable({}, { __pairs = function(t) return next, { 1, 2, 3 }, nil end }))
      out[#out + 1] = keys(setmetatable({}, { __pairs = function() return utf8.codes("ab") end }))
      out[#out + 1] = keys(setmetatable({}, { __pairs = function() return ("a b c"):gmatch("%a") end }))
      out[#out + 1] = keys(setmetatable({}, { __pairs = function()
        return coroutine.wrap(function() coroutine.yield(1) coroutine.yield(2) end) end }))
      out[#out + 1] = tostring(pairs({}) == next)
      return table.concat(out, ",")]], "=m")
    assert.is_true(ok, r)
    assert.are.equal("3,2,3,2,true", r)
    -- 4096 references to one long string: each comparison reads it all
    assert(sb:run([[L = {} local s = ("x"):rep(8 << 20) for i = 1, 4096 do L[i] = s end
      function sortlong() table.sort(L) end]], "=m"))
    times_out(sb, "sortlong", "time limit exceeded %(2 ms per callback%)", 0.1)
  end)

  it("refuse a pack format longer than 4096 bytes", function()
    local sb = assert(sandbox.new {})
    local ok, msg = sb:run("string.pack((' '):rep(4097))", "=m")
    assert.is_nil(ok)
    assert.are.equal("m:1: bad argument #1 to 'pack' (format longer than 4096 bytes in mods)", msg)
    assert.are.same({ true, 4 }, { sb:run("return string.packsize((' '):rep(4000) .. 'i4')") })
  end)

  it("sort and read as stock Lua's do, errors included", function()
    local src = [[
      local out = {}
      local function m(f) local ok, e = pcall(f) out[#out + 1] = tostring(ok) .. " " .. tostring(e) end
      m(function() utf8.len() end)
      m(function() local ulen = utf8.len ulen(5, 1, 2) end)
      m(function() table.sort(5) end)
      m(function() table.sort() end)
      m(function() table.sort({}, 5) end)
      m(function() table.sort({1, {}}) end)
      m(function() table.concat({{}}) end)
      m(function() string.unpack("i4", "ab") end)
      m(function() tonumber("10", 99) end)
      m(function() utf8.codepoint("\xff") end)
      m(function() string.pack("i4", "x") end)
      m(function() table.sort({3, 1, 2}, math.ult) end)
      m(function() table.sort({-1, 1}, math.ult) end)
      m(function() next({}, "nokey") end)
      local keys = {} for k in pairs({a = 1, b = 2, 10, 20}) do keys[#keys + 1] = tostring(k) end
      table.sort(keys)
      local cps = {} for p, c in utf8.codes("h\u{e9}!") do cps[#cps + 1] = p .. ":" .. c end
      out[#out + 1] = table.concat(keys, ",") .. " " .. table.concat(cps, ",")
      out[#out + 1] = string.packsize("i4i8") .. " " .. #string.pack("zB", "ab", 5) ..
        tostring(rawequal("a", "a")) .. tostring(next({}))
      local t = {} for i = 1, 200 do t[i] = (i * 37) % 101 end
      table.sort(t)
      local u = {"b", "c", "a"} table.sort(u, function(a, b) return a > b end)
      out[#out + 1] = table.concat(t, ",") .. " " .. table.concat(u, ",")
      out[#out + 1] = table.concat({ tonumber("0x10"), tonumber("z", 36), utf8.len("h\u{e9}"),
        utf8.offset("h\u{e9}x", 3), utf8.codepoint("h\u{e9}", 1, -1) }, ",")
      out[#out + 1] = table.concat({ string.unpack("zB", "ab\0\5") }, ",")
      return table.concat(out, "\n")]]
    local sb = assert(sandbox.new {})
    local ok, inside = sb:run(src, "=m")
    assert.is_true(ok, inside)
    assert.are.equal(load(src, "=m")(), inside)
  end)
end)

describe("errors in a mod", function()
  it("do not walk the mod's own tables to name a function", function()
    -- the traceback looked for function names in the loaded-modules table, which held the
    -- mod's own `cleave`: two million fields made every error cost 0.3 s
    local sb = assert(sandbox.new { memory = 128 << 20, load_ms = 5000, callback_ms = 2 })
    assert(sb:run([[
      for i = 1, 1 << 21 do cleave[i] = true end
      local function deep(n) if n == 0 then error("boom") end return (deep(n - 1)) end
      function cb() deep(20) end
      function arg() return pcall(string.rep) end]], "=m"))
    local t0 = os.clock()
    for _ = 1, 3 do
      local ok, msg = sb:call("cb")
      assert.is_nil(ok)
      assert.are.equal("m:2: boom", msg)
    end
    local _, ok, msg = sb:call("arg")
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'string.rep' (string expected, got no value)", msg)
    T.expect_less(os.clock() - t0, 0.05, "CPU seconds")
  end)

  it("in a load() reader come back as load's plain message", function()
    local sb = assert(sandbox.new {})
    local ok, f, msg = sb:run("return load(function() error('no more', 0) end)")
    assert.is_true(ok)
    assert.is_nil(f)
    assert.are.equal("no more", msg)
  end)
end)

describe("sandbox sources", function()
  it("refuses a source over 4 MiB, from the host and from load()", function()
    local sb = assert(sandbox.new { memory = 64 << 20, load_ms = 5000 })
    local big = ("-"):rep(4 * 1024 * 1024 + 1)
    local ok, msg = sb:run(big, "=big")
    assert.is_nil(ok)
    assert.are.equal("big: source larger than 4194304 bytes", msg)
    local ok2, a, b = sb:run("return load(('-'):rep(4 * 1024 * 1024 + 1))")
    assert.is_true(ok2)
    assert.is_nil(a)
    assert.are.equal("load: source larger than 4194304 bytes", b)
  end)

  it("stops a source that parses slowly at the load deadline", function()
    -- 80,000 elseif branches parse in seconds (quadratic in stock Lua); the deadline stops the
    -- parser between two 1 KiB pieces of the source.
    local parts = { "local x = 0 if x == 0 then x = 1" }
    for i = 1, 80000 do parts[#parts + 1] = " elseif x == " .. i .. " then x = " .. i end
    parts[#parts + 1] = " end return x"
    local src = table.concat(parts)
    local sb = assert(sandbox.new { memory = 64 << 20, load_ms = 30 })
    local t0 = os.clock()
    local ok, msg = sb:run(src, "=slow")
    local cpu = os.clock() - t0
    assert.is_nil(ok)
    assert.are.equal("slow: time limit exceeded (30 ms per load)", msg)
    T.expect_less(cpu, 1.0, "CPU seconds") -- unbounded, it takes seconds
    -- load() inside the mod: the same deadline, the error at the line of the load
    local sb2 = assert(sandbox.new { memory = 64 << 20, load_ms = 5000, callback_ms = 30 })
    assert(sb2:run("function parse(s) local f, e = load(s) return e end", "=setup"))
    local ok3, m3 = sb2:call("parse", src)
    assert.is_nil(ok3)
    assert.are.equal("setup:1: time limit exceeded (30 ms per callback)", m3)
  end)

  it("parses a good source in pieces as before", function()
    local sb = assert(sandbox.new {})
    local body = {}
    for i = 1, 3000 do body[#body + 1] = "x = x + " .. i end
    local ok, v = sb:run("x = 0 " .. table.concat(body, "\n") .. " return x, load('return ...', 'n')(5)")
    assert.is_true(ok, v)
    assert.are.equal(3000 * 3001 // 2, v)
    local _, f, e = sb:run("return load('x = ')")
    assert.is_nil(f)
    assert.are.equal([[[string "x = "]:1: unexpected symbol near <eof>]], e)
  end)
end)

describe("cleave.sandbox copies", function()
  it("charges the bytes of a result to the mod's memory limit", function()
    local sb = assert(sandbox.new { memory = 80 << 20, load_ms = 5000 })
    local ok, msg = sb:run("local s = ('x'):rep(30 << 20) local t = {} for i = 1, 40 do t[i] = s end return t")
    assert.is_nil(ok)
    assert.are.equal("cannot copy result 1 out of the sandbox (more bytes than the mod's memory limit)", msg)
    local ok2, t = sb:run("return { ('y'):rep(1000), 'z' }")
    assert.is_true(ok2)
    assert.are.equal(1000, #t[1])
  end)
end)

describe("coroutine.wrap in a sandbox", function()
  it("reports a recursion's error with its position once", function()
    local sb = assert(sandbox.new {})
    local ok, msg = sb:run("local function f() return coroutine.wrap(f)() end f()", "=mod")
    assert.is_nil(ok)
    local _, count = msg:gsub("mod:1: ", "")
    assert.are.equal(1, count, msg)
    assert.matches("stack overflow", msg)
  end)

  it("still wraps like stock Lua", function()
    local sb = assert(sandbox.new {})
    assert.are.same({ true, 1, 2, "done" }, { sb:run([[
      local g = coroutine.wrap(function(a) local b = coroutine.yield(a) coroutine.yield(b) return "done" end)
      return g(1), g(2), g()]]) })
    local ok, msg = sb:run("local g = coroutine.wrap(function() error('boom') end) g()", "=w")
    assert.is_nil(ok)
    assert.are.equal("w:1: boom", msg)
    ok, msg = sb:run("local g = coroutine.wrap(function() end) g() g()", "=w")
    assert.is_nil(ok)
    assert.are.equal("w:1: cannot resume dead coroutine", msg)
    ok, msg = sb:run("local g = coroutine.wrap(function() error({}) end) g()", "=w")
    assert.is_nil(ok)
    assert.are.equal("w:1: (error object is a table value)", msg)
  end)
end)

describe("guarded gmatch", function()
  it("yields nothing from a start past the end, as stock Lua", function()
    local sb = assert(sandbox.new {})
    local src = "local n = 0 for _ in ('abc'):gmatch('', %d) do n = n + 1 end return n"
    for _, init in ipairs { 4, 5, 100, -1, -10 } do
      local ok, n = sb:run(src:format(init))
      assert.is_true(ok, n)
      local stock = 0
      for _ in ("abc"):gmatch("", init) do stock = stock + 1 end
      assert.are.equal(stock, n, "init " .. init)
    end
  end)
end)

describe("a mod's callbacks", function()
  local lfs = require "lfs"
  local made = {}
  teardown(function()
    for _, dir in ipairs(made) do
      os.remove(dir .. "/mod.lua")
      os.remove(dir)
    end
  end)

  it("are disabled after 3 timeouts in a row, and share 5 ms of CPU per frame", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(lfs.mkdir(dir))
    made[#made + 1] = dir
    local f = assert(io.open(dir .. "/mod.lua", "w"))
    f:write([[
local w = cleave.weapon {
  name = "stick",
  on_hit = function() while true do end end,
  attacks = { swing = { length = 4, hitboxes = {
    { id = "tip", frames = { 1, 3 }, ax = 0, ay = 0, bx = 30, by = 0, radius = 4, hitlag = 0 } } } },
}
return { name = "spin", version = "1", weapons = { stick = w } }
]])
    f:close()
    local m = cleave.load_mod(dir)
    local errors = {}
    local a = cleave.arena { on_error = function(e) errors[#errors + 1] = e end }
    local p = a:spawn { team = 1 }
    for _ = 1, 10 do a:spawn { x = 20, team = 2 } end
    local t0 = os.clock()
    a:attack { weapon = m.weapons.stick, attack = "swing", owner = p }
    a:step(1)
    -- ten hits: two timeouts of 2 ms, one cut at the frame's 5 ms, one notice, six skipped
    assert.are.equal(10, a:hit_count())
    assert.are.equal(4, #errors)
    assert.matches("mod.lua:3: time limit exceeded %(2 ms per callback%)", errors[1])
    assert.matches("mod.lua:3: time limit exceeded %(2 ms per callback%)", errors[2])
    assert.matches("mod.lua:3: time limit exceeded %(5 ms per frame%)", errors[3])
    assert.matches("the mod's callbacks used up their 5 ms of this frame", errors[4])
    a:step(5)
    a:attack { weapon = m.weapons.stick, attack = "swing", owner = p }
    a:step(1)
    -- the next frame's first timeout is the third in a row: disabled, the rest skipped
    assert.are.equal(10, a:hit_count())
    assert.are.equal(5, #errors)
    assert.matches("%(a callback ran out of time 3 times in a row and is disabled%)", errors[5])
    assert.are.same({ "cleave: a callback ran out of time 3 times in a row and is disabled" }, m.handle:log())
    for _ = 1, 20 do
      a:step(5)
      a:attack { weapon = m.weapons.stick, attack = "swing", owner = p }
      a:step(1)
    end
    assert.are.equal(5, #errors)
    -- CPU time: 2 frames of 5 and 2 ms, then nothing; unbounded this took 2 ms per hit
    T.expect_less(os.clock() - t0, 0.3, "CPU seconds")
  end)
end)

describe("string.rep in a mod", function()
  it("says where a result too large was asked for, as stock Lua does", function()
    local sb = assert(sandbox.new { memory = 64 << 20, load_ms = 5000 })
    local ok, msg = sb:run("local n = 2^40\nreturn string.rep('x', n)", "=bad/mod.lua")
    assert.is_nil(ok)
    assert.are.equal("bad/mod.lua:2: resulting string too large", msg)
    local ok2, msg2 = sb:run("return ('ab'):rep(2^31, ',')", "=sep.lua")
    assert.is_nil(ok2)
    assert.are.equal("sep.lua:1: resulting string too large", msg2)
    -- the largest results that fit still come back whole
    local ok3, s = sb:run("return ('ab'):rep(3, ',')")
    assert.is_true(ok3)
    assert.are.equal("ab,ab,ab", s)
  end)
end)
