T = {} for i = 1, 1 << 14 do T[i] = (i * 7919) % 16384 end
E = {} for i = 1, 1 << 14 do E[i] = "" end
function frame(i)
  if i == 0 then while true do table.sort(T) end end
  if i == 1 then while true do table.concat(E) end end
  return pcall(loop)
end
function loop() while true do end end
