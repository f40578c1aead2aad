-- LÖVE settings of the cleave example: a fixed 800x600 window and no sound (the game has
-- none, and a machine without an audio device then starts without complaint).
function love.conf(t)
  t.identity = "cleave-example"
  t.version = "11.4"
  t.window.title = "cleave in LÖVE"
  t.window.width = 800
  t.window.height = 600
  t.window.vsync = 1
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
