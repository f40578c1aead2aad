local mt = { __close = function() while true do end end }
function frame()
  coroutine.wrap(function() local x <close> = setmetatable({}, mt) while true do end end)()
end
