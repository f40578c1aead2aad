-- "Did you mean": the known name nearest a mistyped one, counted as the C module counts it.
-- Shared by cleave.ffi and cleave.testing (plain Lua: Lua 5.4 and LuaJIT alike).
local M = {}

-- Edits that turn a into b: insertions, deletions, substitutions and swaps of two neighbours
-- (a swap is one slip, so "kidn" is one from "kind"); 99 past 40 bytes, where no name is meant.
function M.edit_distance(a, b)
  if #a > 40 or #b > 40 then return 99 end
  local two, one = {}, {}
  for j = 0, #b do one[j] = j end
  for i = 1, #a do
    local row, ai = { [0] = i }, a:byte(i)
    for j = 1, #b do
      local bj = b:byte(j)
      local d = math.min(one[j - 1] + (ai == bj and 0 or 1), one[j] + 1, row[j - 1] + 1)
      if i > 1 and j > 1 and ai == b:byte(j - 1) and a:byte(i - 1) == bj then
        d = math.min(d, two[j - 2] + 1)
      end
      row[j] = d
    end
    two, one = one, row
  end
  return one[#b]
end

-- The nearest of the names in known (the first of equals): within one slip of a short key, up
-- to three of a long one; else nil.
function M.nearest(key, known)
  local best, bestd = nil, 99
  for _, k in ipairs(known) do
    local d = M.edit_distance(key, k)
    if d < bestd then best, bestd = k, d end
  end
  local lim = math.max(1, math.min(3, math.floor(#key / 2)))
  return bestd <= lim and best or nil
end

return M
