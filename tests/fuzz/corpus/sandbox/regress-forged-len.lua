local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end})
function frame(i) if i == 0 then table.insert(t, 1, i) else table.remove(t, 1) end end
