local g2 = coroutine.wrap(function() while true do coroutine.yield() end end) g2()
local g1 = coroutine.wrap(function() while true do coroutine.yield() pcall(g2) end end) g1()
local function r(d) pcall(g1) pcall(r, d + 1) end r(1)
for i = 1, 3 do pcall(g2) end
