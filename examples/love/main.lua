-- cleave in LÖVE: swing the example mods (mods/) at enemies, with the hitbox overlay.
--
--   love examples/love            (after `make`, from the repository root)
--
-- WASD moves, the mouse aims, the left button or J, K, L start the weapon's attacks, 1-9 pick
-- a weapon, H shows or hides the overlay. The arena steps at a fixed 60 Hz.
--
-- For tests: --script swing|whiff plays a fixed input instead of the player (a sword slash at
-- the nearest enemy, or away from it), --frames N quits after N frames (one frame per update,
-- whatever the machine's speed) and --screenshot FILE saves the last frame as a PNG.
local source = love.filesystem.getSource()
local root = os.getenv("CLEAVE_ROOT") or (source .. "/../..")
package.path = root .. "/scripts/?.lua;" .. package.path
package.cpath = root .. "/build/?.so;" .. package.cpath

local cleave = require "cleave.ffi"
local overlay = require "cleave.love"

local MOD_NAMES = { "sword", "plank", "scythe", "spear", "hammer", "flail" }
local HIT_FLASH = { 1, 230 / 255, 40 / 255 } -- an enemy hit in the last 20 frames
local ENEMY, DEAD, PLAYER = { 0.75, 0.3, 0.35 }, { 0.3, 0.3, 0.32 }, { 0.35, 0.6, 0.95 }
local STEP = 1 / 60
local ZOOM = 2 -- world units are pixels at zoom 1; the camera follows the player

local game = {
  weapons = {}, enemies = {}, flash = {}, popups = {}, log = {},
  weapon = 1, facing = 0, show_overlay = true, frame = 0, hits = 0, lag = 0,
}

local function options(args)
  local o = {}
  for i = 1, #args do
    local key = args[i]:match("^%-%-(.+)")
    if key then o[key] = args[i + 1] end
  end
  o.frames = tonumber(o.frames)
  return o
end

local function load_weapons()
  for _, name in ipairs(MOD_NAMES) do
    local ok, mod = pcall(cleave.load_mod, root .. "/mods/" .. name)
    if ok then
      for wname, w in pairs(mod.weapons) do
        game.weapons[#game.weapons + 1] = { name = wname, weapon = w, attacks = w:attacks() }
      end
    else
      print("cleave-love: " .. tostring(mod))
    end
  end
end

function love.load(args)
  game.opt = options(args)
  if game.opt.script then
    -- a test has no one to read LÖVE's error screen: say it and fail
    love.errorhandler = function(msg)
      print(debug.traceback("cleave-love: error: " .. tostring(msg), 2))
      os.exit(1)
    end
  end
  love.graphics.setBackgroundColor(0.11, 0.11, 0.14)
  load_weapons()
  local a = cleave.arena {}
  game.arena = a
  game.player = a:spawn { x = 400, y = 300, team = 1, radius = 11, hp = 100, friction = 0.5,
    name = "player" }
  local spots = { { 440, 300 }, { 330, 240 }, { 520, 420 }, { 260, 400 }, { 560, 180 } }
  for i, p in ipairs(spots) do
    game.enemies[i] = a:spawn { x = p[1], y = p[2], team = 2, radius = 11, hp = 40,
      friction = 0.3, name = "enemy " .. i }
  end
end

-- Starts attack k of the current weapon toward the facing, unless one is running.
local function swing(k)
  local w = game.weapons[game.weapon]
  if w == nil or w.attacks[k] == nil or (game.attack and game.attack:running()) then return end
  game.attack = game.arena:attack { weapon = w.weapon, attack = w.attacks[k],
    owner = game.player, facing = game.facing }
  game.frame_data = w.weapon:frame_data(w.attacks[k])
  game.attack_start = game.frame
end

-- The fixed input of --script: the sword, aimed at enemy 1 (swing) or away from it (whiff).
local function scripted_input(frame)
  if frame == 1 then
    game.weapon = 1
    game.facing = game.opt.script == "whiff" and 180 or 0
  elseif frame == 4 then
    swing(1)
  end
end

local function live_input()
  local mx, my = love.mouse.getPosition()
  local cx, cy = love.graphics.getWidth() / 2, love.graphics.getHeight() / 2
  game.facing = math.deg(math.atan2(my - cy, mx - cx)) -- the player is at the centre
  local k = love.keyboard.isDown
  local vx = (k("d") and 1 or 0) - (k("a") and 1 or 0)
  local vy = (k("s") and 1 or 0) - (k("w") and 1 or 0)
  game.player:set_velocity(vx * 2.5, vy * 2.5)
end

local function record_hits()
  for _, h in ipairs(game.arena:hits()) do
    game.hits = game.hits + 1
    game.flash[h.target_id] = 20
    game.popups[#game.popups + 1] = { x = h.x, y = h.y, text = ("%g"):format(h.damage), age = 0 }
    table.insert(game.log, 1, ("frame %d: %s %s hit %s for %g"):format(h.frame, h.weapon,
      h.hitbox, h.target_name or "?", h.damage))
    game.log[7] = nil
  end
end

local function step_frame()
  game.frame = game.frame + 1
  if game.opt.script then scripted_input(game.frame) else live_input() end
  game.arena:step(1)
  record_hits()
  for id, f in pairs(game.flash) do game.flash[id] = f > 1 and f - 1 or nil end
  for i = #game.popups, 1, -1 do
    local p = game.popups[i]
    p.age = p.age + 1
    if p.age > 40 then table.remove(game.popups, i) end
  end
end

function love.update(dt)
  if game.opt.script or game.opt.frames then
    if game.shot_done or (game.opt.frames and game.frame >= game.opt.frames) then
      if not game.opt.screenshot or game.shot_done then
        print(("cleave-love: frames=%d hits=%d"):format(game.frame, game.hits))
        love.event.quit(0)
      end
      return
    end
    step_frame()
    if game.frame == game.opt.frames and game.opt.screenshot then
      love.graphics.captureScreenshot(function(image)
        local f = assert(io.open(game.opt.screenshot, "wb"))
        f:write(image:encode("png"):getString())
        f:close()
        game.shot_done = true
      end)
    end
    return
  end
  game.lag = math.min(game.lag + dt, 0.25)
  while game.lag >= STEP do
    step_frame()
    game.lag = game.lag - STEP
  end
end

function love.keypressed(key)
  if game.opt.script then return end
  local attack_keys = { j = 1, k = 2, l = 3 }
  if attack_keys[key] then swing(attack_keys[key]) end
  local n = tonumber(key)
  if n and game.weapons[n] then game.weapon = n end
  if key == "h" then game.show_overlay = not game.show_overlay end
  if key == "escape" then love.event.quit(0) end
end

function love.mousepressed(_, _, button)
  if button == 1 and not game.opt.script then swing(1) end
end

local function draw_entity(e, colour)
  local x, y = e:position()
  love.graphics.setColor(colour)
  love.graphics.circle("fill", x, y, 11)
end

local function draw_world()
  for _, e in ipairs(game.enemies) do
    if e:valid() then
      local colour = not e:alive() and DEAD or (game.flash[e:id()] and HIT_FLASH or ENEMY)
      draw_entity(e, colour)
      local x, y = e:position()
      love.graphics.setColor(0.2, 0.8, 0.3)
      love.graphics.rectangle("fill", x - 12, y - 20, 24 * math.max(e:hp(), 0) / 40, 3)
    end
  end
  draw_entity(game.player, PLAYER)
  if game.show_overlay then overlay.draw(game.arena) end
  for _, p in ipairs(game.popups) do
    love.graphics.setColor(1, 1, 1, 1 - p.age / 40)
    love.graphics.print(p.text, p.x + 6, p.y - 16 - p.age / 2, 0, 1 / ZOOM)
  end
end

local function draw_hud()
  local g = love.graphics
  g.setColor(0.9, 0.9, 0.9)
  local w = game.weapons[game.weapon]
  g.print(("weapon %d/%d: %s   frame %d   hits %d"):format(game.weapon, #game.weapons,
    w and w.name or "none", game.frame, game.hits), 10, 10)
  g.print("WASD move, mouse aims, click/J K L attack, 1-9 weapon, H overlay", 10, 28)
  for i, line in ipairs(game.log) do g.print(line, 10, 46 + i * 16) end
  if game.frame_data then
    local current = game.attack and game.attack:running() and (game.frame - game.attack_start)
    overlay.draw_frame_bar(game.frame_data, 10, 540, 780, current or nil)
  end
end

function love.draw()
  local px, py = game.player:position()
  love.graphics.push()
  love.graphics.translate(love.graphics.getWidth() / 2, love.graphics.getHeight() / 2)
  love.graphics.scale(ZOOM)
  love.graphics.translate(-px, -py)
  love.graphics.setLineWidth(1 / ZOOM)
  draw_world()
  love.graphics.pop()
  love.graphics.setLineWidth(1)
  draw_hud()
end
