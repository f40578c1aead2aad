local co = coroutine.wrap(function() while true do coroutine.yield(setmetatable({}, {__close = function() end})) end end) co() error(setmetatable({}, {__tostring = function() while true do end end}))
