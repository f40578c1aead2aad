t = {} for i = 1, 6e4 do t[i] = (i * 7919) % 6e4 end
function frame() table.sort(t, math.ult) end
