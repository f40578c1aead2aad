-- cleave.love: drawing helpers for LÖVE over a cleave.ffi arena, with the colours of the demo's
-- overlay: each hitbox of a frame in the colour of its place in the frame's list (its
-- precedence), hurtboxes by how the entity takes hits, and the frame-data bar of an attack.
--
--   local cleave = require "cleave.ffi"
--   local overlay = require "cleave.love"
--   function love.draw() overlay.draw_hurtboxes(arena); overlay.draw_hitboxes(arena) end
--
-- Shapes are drawn in world units with the current transform: scale or translate with
-- love.graphics before calling, as for any other drawing.
local ffi = require "ffi"

local M = {}

local function rgb(hex, alpha)
  return { math.floor(hex / 65536) % 256 / 255, math.floor(hex / 256) % 256 / 255,
    hex % 256 / 255, alpha or 1 }
end

--- The colours, { r, g, b, a } in 0..1; a game may replace any of them.
M.colours = {
  -- by a hitbox's place in its frame's list: 1st, 2nd, ...
  hitboxes = { rgb(0xFF4A4A), rgb(0xFFA030), rgb(0x50D0FF), rgb(0xB070FF), rgb(0x60F080),
    rgb(0xFF70C0) },
  hitbox_fill_alpha = 0x70 / 255,
  hurtbox = { normal = rgb(0x40FFFF), invincible = rgb(0x4080FF), intangible = rgb(0x8080A0),
    parry = rgb(0xFFD040) },
  hurtbox_fill_alpha = 0x30 / 255,
  startup = rgb(0x3C9A5A), active = rgb(0xD8463C), recovery = rgb(0x3C64B4),
  current = rgb(0xFFFFFF), text = rgb(0xE8E8E8),
}

local SEGMENTS = 16

-- The outline of a capsule (segment a-b grown by r) as a convex polygon.
local function capsule_points(ax, ay, bx, by, r)
  local dx, dy = bx - ax, by - ay
  local base = (dx == 0 and dy == 0) and 0 or math.atan2(dy, dx)
  local pts = {}
  for i = 0, SEGMENTS do -- the cap around b, then the cap around a
    local t = base - math.pi / 2 + math.pi * i / SEGMENTS
    pts[#pts + 1], pts[#pts + 2] = bx + r * math.cos(t), by + r * math.sin(t)
  end
  for i = 0, SEGMENTS do
    local t = base + math.pi / 2 + math.pi * i / SEGMENTS
    pts[#pts + 1], pts[#pts + 2] = ax + r * math.cos(t), ay + r * math.sin(t)
  end
  return pts
end

local function obb_points(o)
  local ux, uy, hw, hh = o.u.x, o.u.y, o.h.x, o.h.y
  local vx, vy = -uy, ux
  local cx, cy = o.c.x, o.c.y
  return { cx + ux * hw + vx * hh, cy + uy * hw + vy * hh, cx - ux * hw + vx * hh,
    cy - uy * hw + vy * hh, cx - ux * hw - vx * hh, cy - uy * hw - vy * hh,
    cx + ux * hw - vx * hh, cy + uy * hw - vy * hh }
end

-- Draws one outline or fill of shape s (a clv_shape), moved by (ox, oy).
local function shape(mode, s, ox, oy)
  local g, t = love.graphics, s.type
  if t == 0 then
    g.circle(mode, ox + s.u.point.x, oy + s.u.point.y, 1.5)
  elseif t == 1 then
    local c = s.u.circle
    g.circle(mode, ox + c.c.x, oy + c.c.y, c.r)
  elseif t == 2 then
    local c = s.u.capsule
    if c.r <= 0 then
      g.line(ox + c.a.x, oy + c.a.y, ox + c.b.x, oy + c.b.y)
    else
      g.polygon(mode, capsule_points(ox + c.a.x, oy + c.a.y, ox + c.b.x, oy + c.b.y, c.r))
    end
  elseif t == 3 then
    local b = s.u.aabb
    g.rectangle(mode, ox + b.min.x, oy + b.min.y, b.max.x - b.min.x, b.max.y - b.min.y)
  else
    local pts = obb_points(s.u.obb)
    for i = 1, #pts, 2 do pts[i], pts[i + 1] = pts[i] + ox, pts[i + 1] + oy end
    g.polygon(mode, pts)
  end
end

--- Draws shape s (a cleave.Shape or a clv_shape) filled with fill_alpha of colour, outlined
--- in colour; (ox, oy) moves it (an entity's position for its hurtboxes).
function M.draw_shape(s, colour, fill_alpha, ox, oy)
  if ffi.istype("clv_ffi_shape", s) then s = s.f end
  local r, g, b, a = colour[1], colour[2], colour[3], colour[4] or 1
  love.graphics.setColor(r, g, b, fill_alpha or 0.3)
  shape("fill", s, ox or 0, oy or 0)
  love.graphics.setColor(r, g, b, a)
  shape("line", s, ox or 0, oy or 0)
end

--- Every hitbox placed on the current frame of every attack in progress, each in the colour
--- of its place in its frame's list.
function M.draw_hitboxes(arena)
  local c = M.colours
  arena:each_hitbox(function(s, n)
    M.draw_shape(s, c.hitboxes[(n - 1) % #c.hitboxes + 1], c.hitbox_fill_alpha)
  end)
  love.graphics.setColor(1, 1, 1, 1)
end

--- The hurtboxes of every living entity, coloured by how it takes hits (normal, invincible,
--- intangible).
function M.draw_hurtboxes(arena)
  local c = M.colours
  for _, e in ipairs(arena:entities()) do
    if e:alive() then
      local x, y = e:position()
      local colour = c.hurtbox[e:state()] or c.hurtbox.normal
      for _, s in ipairs(e:hurtboxes()) do M.draw_shape(s, colour, c.hurtbox_fill_alpha, x, y) end
    end
  end
  love.graphics.setColor(1, 1, 1, 1)
end

--- The frame-data bar of an attack (weapon:frame_data(name)) at (x, y), at most w pixels
--- wide: startup, active and recovery frames in their colours, the current frame (1-based,
--- nil for none) marked, and a line of text above it.
function M.draw_frame_bar(data, x, y, w, current)
  local g, c = love.graphics, M.colours
  g.setColor(c.text)
  g.print(("%s  startup %d  active %d  recovery %d  total %d"):format(data.name, data.startup,
    data.active_first and (data.active_last - data.active_first + 1) or 0,
    data.frames - (data.active_last or data.startup), data.frames), x, y)
  local cell = math.max(2, math.min(24, math.floor(w / math.max(data.frames, 1))))
  local by, bh = y + 16, 16
  for i = 1, data.frames do
    local active = data.active_first and i >= data.active_first and i <= data.active_last
    g.setColor(i <= data.startup and c.startup or (active and c.active or c.recovery))
    g.rectangle("fill", x + (i - 1) * cell, by, cell - (cell > 3 and 1 or 0), bh)
  end
  if current and current >= 1 and current <= data.frames then
    g.setColor(c.current)
    g.rectangle("line", x + (current - 1) * cell - 1, by - 2, cell + 1, bh + 4)
  end
  g.setColor(1, 1, 1, 1)
end

--- The hurtboxes then the hitboxes: the demo's overlay of an arena.
function M.draw(arena)
  M.draw_hurtboxes(arena)
  M.draw_hitboxes(arena)
end

return M
