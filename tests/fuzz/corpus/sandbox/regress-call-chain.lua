local t = setmetatable({}, {}) getmetatable(t).__call = t
function frame() return pcall(t) end
t()
