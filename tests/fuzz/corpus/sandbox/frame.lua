function frame(i) return i + 1 end
