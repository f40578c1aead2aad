function frame() return string.find(('a'):rep(200), ('a-'):rep(4)..'b') end
