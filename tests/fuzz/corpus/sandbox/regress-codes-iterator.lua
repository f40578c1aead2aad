local big = "a" .. ("\128"):rep(1e6) local f = utf8.codes(big)
function frame() while true do pcall(f, big, 1) end end
