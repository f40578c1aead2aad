xpcall(error, function() while true do end end)
