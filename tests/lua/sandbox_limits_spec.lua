-- The sandbox's limits that close whole classes of attack: C loops a mod can make long, metatable
-- fields that make the VM or the collector loop in C, callbacks that keep timing out, and the
-- arena refusing to be rolled back under its own callbacks. Each case failed before its fix.
local cleave = require "cleave"
local T = require "cleave.testing"
local sandbox = require "cleave.sandbox"

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
