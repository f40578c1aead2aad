local big = (" "):rep(1e6)
function frame(i)
  if i == 0 then while true do string.pack(big) end end
  while true do string.packsize(big) end
end
