table.move({}, 1, math.maxinteger - 1, 1)
function frame(i) return table.move({}, 1, math.maxinteger - i, 1) end
