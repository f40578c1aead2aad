---@meta cleave.testing
-- LuaLS annotations of require "cleave.testing" (scripts/cleave/testing.lua), for editors.

---@class cleave.testing
local T = {}

---A cleave.arena whose every frame is recorded; it becomes the current arena.
---@param def? cleave.ArenaDef
---@return cleave.Arena
function T.arena(def) end
---@param arena cleave.Arena made by T.arena
function T.use(arena) end
---@param arena? cleave.Arena
---@return cleave.Hit[]
function T.hits(arena) end
---@param arena? cleave.Arena
---@return cleave.Miss[]
function T.misses(arena) end
---Some recorded hit matches every field given (target: entity or name); returns it. A field
---that hits do not have is an error naming the likely one ("did you mean 'damage'?").
---@param want table frame=, hitbox=, target=, damage=, sweep_t=, arena=... (cleave.Hit's fields)
---@return cleave.Hit
function T.expect_hit(want) end
---Some recorded hit was blocked by a guard and matches every field given (damage is the chip
---damage, hitstun the blockstun, guard_break = true the hit that broke it); returns it.
---@param want table
---@return cleave.Hit
function T.expect_blocked(want) end
---Some recorded hit was a grab and matches every field given; returns it.
---@param want table
---@return cleave.Hit
function T.expect_grab(want) end
---No recorded hit matches; unknown fields are errors as for expect_hit.
---@param want table
function T.expect_no_hit(want) end
---Some recorded miss matches; returns it. Unknown fields and reasons are errors.
---@param want table target=, reason= (a cleave.MissReason), frame=, hitbox=...
---@return cleave.Miss
function T.expect_miss(want) end
---a < b, or an error that says both numbers; what names them in the message.
---@param a number
---@param b number
---@param what? string
function T.expect_less(a, b, what) end
---a <= b, or an error that says both numbers.
function T.expect_at_most(a, b, what) end
---a > b, or an error that says both numbers.
function T.expect_greater(a, b, what) end
---a >= b, or an error that says both numbers.
function T.expect_at_least(a, b, what) end
---@param pred fun(arena: cleave.Arena): boolean
---@param max_frames? integer (default 600)
---@param arena? cleave.Arena
---@return integer frames stepped
function T.run_until(pred, max_frames, arena) end
---@param arena? cleave.Arena
---@param opts? {misses?: boolean, reasons?: string[]}
---@return string
function T.log(arena, opts) end
---@param name string golden/<name>.log beside the calling spec
---@param text string
function T.golden(name, text) end
---@return string
function T.diff(expected, actual) end
---@param weapon cleave.Weapon
---@return {attack: string, frame: integer, hitbox: string}[] missing, integer total
function T.coverage(weapon) end
---@param ... cleave.Weapon
---@return string
function T.coverage_report(...) end
---@return string
function T.mod_dir() end
---Loads a copy of dir/mod.lua with the plain text `find` (exactly once) replaced by `replace`
---and asserts the load fails with exactly "<copy>/mod.lua:<line>: <message>". `message` leaves
---out the "file:line: " prefix; <line> is the line of `find`, or of the first occurrence of
---the text snippet `at` in the original (needed when the error is reported at the start of a
---multi-line `cleave.arc {` call above the edited line).
---@param spec {dir: string, find: string, replace: string, message: string, at?: string}
---@return string
function T.expect_broken(spec) end

return T
