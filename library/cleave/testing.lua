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
---Some recorded hit matches every field given (target: entity or name); returns it.
---@param want table frame=, hitbox=, target=, damage=, attack=, arena=...
---@return cleave.Hit
function T.expect_hit(want) end
---@param want table
function T.expect_no_hit(want) end
---@param want table target=, reason=, frame=, hitbox=...
---@return cleave.Miss
function T.expect_miss(want) end
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
---@param spec {dir: string, find: string, replace: string, message: string, at?: string}
---@return string
function T.expect_broken(spec) end

return T
