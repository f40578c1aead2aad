-- The mod the edit mode test edits: its one attack lives in frames/swing.lua.
return {
  name = "blade", version = "1.0.0",
  weapons = { blade = cleave.weapon { name = "blade", attacks = { swing = cleave.frames "swing" } } },
}
