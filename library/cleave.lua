---@meta cleave
-- LuaLS annotations of the cleave Lua API, for editors only (never loaded at run time). Add
-- this folder to "workspace.library" in .luarc.json. Units: world units, +y down, degrees,
-- frames (1-based, ranges inclusive). The reference is docs/modding.md and docs/lua-api.md.

---@class cleave.Shape
local Shape = {}
---@return "point"|"circle"|"capsule"|"aabb"|"obb"
function Shape:kind() end
---@return number ...
function Shape:unpack() end
---@return number min_x, number min_y, number max_x, number max_y
function Shape:bounds() end
---@param other cleave.Shape
---@return boolean
function Shape:overlaps(other) end
---@param other cleave.Shape
---@return number gap between the surfaces, 0 when they overlap or touch
function Shape:distance(other) end
---@param other cleave.Shape
---@return number? nx, number? ny, number? depth moving other by (nx, ny) * depth separates it
function Shape:contact(other) end
---@param other cleave.Shape
---@return number distance, number ax, number ay, number bx, number by, number ta, number tb
function Shape:closest(other) end
---@return number? t, number? nx, number? ny
function Shape:raycast(ox, oy, dx, dy, max_t) end
---@param target cleave.Shape
---@return number? t the first t in [0, 1] at which self, moved by t * (dx, dy), touches target
function Shape:sweep(dx, dy, target) end

---@class cleave.Knockback
---inferred when absent: scaling with angle, fixed with x/y, else radial
---@field kind? "none"|"fixed"|"scaling"|"radial"|"smash"
---@field x? number fixed: velocity given to a weight-1 target, weapon-local, units/frame
---@field y? number fixed: velocity y
---@field angle? number|"sakurai" scaling, smash: launch direction, weapon-local degrees
---@field base? number scaling/radial: speed at 0 damage (>= 0); smash: base knockback
---@field growth? number scaling/radial: extra speed per point of damage; smash: percent
---@field set? number smash: set knockback (> 0 replaces the damage terms)

---@class cleave.EffectDef
---@field name? string required when written inline in a hitbox; else the key in weapon.effects
---@field duration? integer frames it lasts (default 60)
---@field period? integer frames between ticks, 1..duration (default 10)
---@field magnitude? number per tick, hp when damaging (default 1)
---@field damages? boolean ticks remove magnitude hp (default true)
---@field on_tick? fun(tick: cleave.Tick) called after each frame for each tick

---@class cleave.HitboxFields
---@field x? number circle centre x
---@field y? number circle centre y
---@field ax? number capsule start x
---@field ay? number capsule start y
---@field bx? number capsule end x
---@field by? number capsule end y
---@field radius? number >= 0
---@field shape? cleave.Shape a capsule, circle or obb instead of the fields above
---@field group? integer|false hitboxes of one group share their hit (default 0); false: alone
---@field damage? number >= 0 (default 1)
---@field knockback? cleave.Knockback
---@field max_hits? integer targets damaged per frame, 0 = no limit
---@field knockback_ignores_hit_count? boolean targets beyond max_hits are still pushed
---@field hitlag? integer|"auto" frames both sides freeze (default "auto")
---@field hitlag_scale? number multiplies the automatic hitlag (default 1)
---@field hitstun? integer|"auto" frames the target is stunned (default "auto")
---@field priority? integer higher wins within a group (default 0)
---@field sweep? boolean cover the path from the previous frame (default true)
---@field effects? (string|cleave.EffectDef)[] at most 4
---@field chip? number 0..1: fraction of the damage a guarded hit deals (default 0)
---@field blockstun? integer|"auto" frames a blocked hit stuns the guard
---@field shield_damage? number guard meter a blocked hit takes beyond its damage
---@field unblockable? boolean a guard does not stop it
---@field hits? "ground"|"air"|"both"|"auto" which targets by their airborne flag
---@field facing_restrict? "any"|"away"|"front"|"behind"
---@field layer? integer 0..65535 (default 1)
---@field mask? integer 0..65535 (default 65535)
---@field kind? "hit"|"reflect"|"absorb"|"grab" what it does to projectiles; "grab" holds a target
---@field grab_offset? number[] {x, y}: where a grab holds its target (default {24, 0})

---@class cleave.HitboxDef: cleave.HitboxFields
---@field id string unique within a frame
---@field frames? integer|integer[] {first, last}, 1-based inclusive (in attack.hitboxes only)

---@class cleave.ArcDef: cleave.HitboxFields
---@field id string
---@field frames integer|integer[] {first, last}
---@field pivot? number[] {x, y} (default {0, 0})
---@field from number degrees on the first frame
---@field to number degrees on the last frame
---@field inner? number distance from the pivot to the capsule's start (default 0)
---@field outer number distance from the pivot to the capsule's end
---@field ease? "linear"|"in"|"out"|"in_out"
---@field links? integer chain of this many capsules (ids id1..idN)
---@field lag? integer frames each link trails the one inside it

---@class cleave.ThrustDef: cleave.HitboxFields
---@field id string
---@field frames integer|integer[] {first, last}
---@field origin? number[] {x, y} (default {0, 0})
---@field angle? number direction in degrees (default 0)
---@field from number tip distance on the first frame
---@field to number tip distance on the last frame
---@field reach number capsule length behind the tip, in units (> 0)
---@field ease? "linear"|"in"|"out"|"in_out"

---@class cleave.AttackDef
---@field length? integer frames (default: the last frame used)
---@field frames? table<integer, cleave.HitboxDef[]> hitboxes active on exactly that frame
---@field hitboxes? (cleave.HitboxDef|cleave.ArcDef|cleave.ThrustDef|table)[]
---@field defaults? cleave.HitboxFields
---@field hurtboxes? cleave.HurtboxDef[] carried by the owner on their frames (a punch's arm)
---@field rehit? integer frames before a group may hit a target again, 0 = once per swing
---@field max_targets? integer distinct targets per swing, 0 = no limit
---@field lockout? integer frames a hit target is immune to the swing's other groups

---@class cleave.WeaponDef
---@field name? string
---@field attacks table<string, cleave.AttackDef>
---@field defaults? cleave.HitboxFields
---@field effects? table<string, cleave.EffectDef>
---@field on_hit? fun(hit: cleave.Hit)
---@field on_clash? fun(clash: table) a clash of its hitboxes; clash.side is its own side
---@field on_reflect? fun(event: table) a projectile one of its hitboxes turned back

---@class cleave.Weapon
local Weapon = {}
---@return string
function Weapon:name() end
---@return string[] names in index order
function Weapon:attacks() end
---@param attack string
---@return integer frames
function Weapon:length(attack) end
---@param attack string
---@param frame integer 1-based
---@return string[] ids in precedence order
function Weapon:hitboxes(attack, frame) end
---@param attack string
---@param frame integer
---@param id string
---@return table? fields the compiled hitbox (shape, damage, knockback...)
function Weapon:hitbox(attack, frame, id) end

---@class cleave.HurtboxDef
---@field id string unique within a frame
---@field frames? integer|integer[] a frame or {first, last} (in `hurtboxes`; default: all)
---@field state? "normal"|"invincible"|"intangible"|"armor"
---@field heavy? number > 0: heavy armor's threshold (makes the hurtbox armor)
---@field x? number circle centre
---@field y? number
---@field ax? number capsule ends
---@field ay? number
---@field bx? number
---@field by? number
---@field radius? number
---@field shape? cleave.Shape a capsule, circle or obb

---@class cleave.AnimationDef
---@field length integer frames
---@field loop? boolean starts again after its last frame (else holds it)
---@field hurtboxes? cleave.HurtboxDef[] each over its frames
---@field frames? table<integer, cleave.HurtboxDef[]> the hurtboxes of one frame

---@class cleave.GuardDef
---@field meter? number > 0 (default 50)
---@field regen? number meter per frame while not guarding (default 0.1)
---@field guard_break? integer frames of stun when it breaks (default 120)
---@field all_round? boolean blocks from behind too (default false)

---@class cleave.BodyDef
---@field name string
---@field animations table<string, cleave.AnimationDef>
---@field guard? cleave.GuardDef

---@class cleave.Body
local Body = {}
---@return string
function Body:name() end
---@return {name: string, length: integer, loop: boolean}[] in name order
function Body:animations() end
---@param animation string
---@param frame integer 1-based
---@return {id: string, state: string, shape: cleave.Shape}[]
function Body:hurtboxes(animation, frame) end
---@param animation string
---@param elapsed integer frames since it began
---@return integer frame 1-based
function Body:frame_at(animation, elapsed) end
---@return cleave.GuardDef
function Body:guard() end

---@class cleave.Hit
---@field frame integer arena frame
---@field weapon string
---@field attack string
---@field attack_frame integer 1-based
---@field hitbox string id
---@field hitbox_index integer position in the frame's list
---the id of the hurtbox that took the hit (nil for a shape given to spawn, which has none)
---@field hurtbox string?
---its position in the target's list as the frame's hits met it (entity:hurtboxes()), 1-based
---@field hurtbox_index integer
---@field group integer
---@field damage number
---@field knockback_x number
---@field knockback_y number
---@field x number contact point
---@field y number
---@field t number where on the hitbox's segment, 0..1
---where in the motion from the previous frame (0) to this one (1) the first touching sub-step
---starts; 1 without a sweep
---@field sweep_t number
---@field hitlag integer
---@field hitstun integer
---@field effects string[]
---@field push_only boolean
---@field invincible boolean
---@field killed boolean
---@field trade boolean
---@field blocked boolean a guard took it: damage is the chip, hitstun the blockstun
---@field armor boolean armor took it: damage without push or stun
---@field grab boolean the target is now held
---@field guard_break boolean this block emptied the guard meter
---@field target cleave.Entity|integer a handle in the host, an id in a mod's callback
---@field attacker cleave.Entity|integer
---@field target_id integer
---@field attacker_id integer
---@field target_name? string

---@alias cleave.MissReason
---| "out_of_reach"
---| "team"
---| "dead"
---| "intangible"
---| "rehit"
---| "lockout"
---| "precedence"
---| "max_hits"
---| "max_targets"
---| "clanked"
---| "outprioritized"
---| "transcended"
---| "parried"
---| "reflected"
---| "absorbed"
---| "layer"
---| "airborne"
---| "grounded"
---| "facing"
---| "interrupted"
---| "not_thrown"

---@class cleave.Miss
---@field frame integer
---@field weapon string
---@field attack string
---@field attack_frame integer
---@field hitbox string
---@field hitbox_index integer
---@field group integer
---@field reason cleave.MissReason
---@field distance number
---@field target cleave.Entity
---@field target_id integer
---@field target_name? string

---@class cleave.Tick
---@field frame integer
---@field effect string
---@field magnitude number
---@field damage number
---@field expired boolean
---@field killed boolean
---@field target cleave.Entity|integer
---@field target_id integer
---@field target_name? string the name it was spawned with (in the host)

---@class cleave.SpawnDef
---@field x? number
---@field y? number
---@field vx? number units/frame
---@field vy? number
---@field hp? number (default 100)
---@field weight? number > 0 (default 1)
---@field friction? number speed lost per frame (default 0)
---@field team? integer (default 0)
---@field state? "normal"|"invincible"|"intangible"|"parry"|"guard"
---@field body? cleave.Body its hurtboxes are the body's
---@field animation? string the body's animation to play (default: "idle", else its first by name)
---@field facing? number degrees (turns the body and the guard's front)
---@field mirror? boolean
---@field airborne? boolean
---@field radius? number one circle hurtbox (default 8); give one of radius, hurtbox, hurtboxes
---@field hurtbox? cleave.Shape relative to the position
---@field hurtboxes? cleave.Shape[] at most 4
---@field name? string shown in logs
---@field user? integer

---@class cleave.AttackStart
---@field weapon cleave.Weapon
---@field attack? string may be left out when the weapon has one attack
---@field owner cleave.Entity
---@field facing? number degrees (default 0)
---@field x? number pose (an offset from the owner when following)
---@field y? number
---@field mirror? boolean flip weapon-local y
---@field follow? boolean the pose moves with the owner (default true)

---@class cleave.Entity
local Entity = {}
---@return integer
function Entity:id() end
---@return string?
function Entity:name() end
---@return boolean
function Entity:valid() end
---@return boolean
function Entity:alive() end
---@return number
function Entity:hp() end
---@return number x, number y
function Entity:position() end
---@return number vx, number vy
function Entity:velocity() end
---@return table
function Entity:info() end
function Entity:remove() end
---@param x number
---@param y number
function Entity:set_position(x, y) end
---@param vx number
---@param vy number
function Entity:set_velocity(vx, vy) end
---@param hp number
function Entity:set_hp(hp) end
---@param state "normal"|"invincible"|"intangible"|"parry"|"guard"
---@param frames? integer 0 = until changed
function Entity:set_state(state, frames) end
---@param animation string
---@param body? cleave.Body a new body (default: the one it plays)
function Entity:play(animation, body) end
---@param facing number degrees
---@param mirror? boolean
function Entity:set_facing(facing, mirror) end
---@param airborne boolean
function Entity:set_airborne(airborne) end
---@param layer integer 0..65535
---@param mask integer 0..65535
function Entity:set_layers(layer, mask) end
---@param armor "none"|"super"|"heavy"
---@param heavy? number > 0, heavy armor's threshold
function Entity:set_armor(armor, heavy) end
---Lets the entity it holds, or that holds it, go.
function Entity:release() end
---@return {shape: cleave.Shape, state: string, id?: string}[] world shapes now
function Entity:hurtboxes() end

---@class cleave.Attack
local Attack = {}
---@return boolean
function Attack:running() end
---@return table? info frame, elapsed, targets_hit, x, y, facing, mirror
function Attack:info() end
function Attack:cancel() end
---@param x number
---@param y number
---@param facing number degrees
---@param mirror? boolean
function Attack:set_pose(x, y, facing, mirror) end

---@class cleave.ArenaDef
---@field miss_margin? number record out_of_reach misses closer than this
---@field capacity? integer entity slots reserved up front, 0..1048576 (default 64; grows)
---> 0: how far (world units) a swept hitbox may overreach between frames; smaller is finer
---and slower (default 1)
---@field sweep_tolerance? number
---@field on_error? fun(message: string) receives callback errors (default: stderr)

---@class cleave.Arena
local Arena = {}
---@param def cleave.SpawnDef
---@return cleave.Entity
function Arena:spawn(def) end
---@param def cleave.AttackStart
---@return cleave.Attack
function Arena:attack(def) end
---A throw: an attack of an owner that holds a target, which hits that target only.
---@param def cleave.AttackStart
---@return cleave.Attack
function Arena:throw(def) end
---Copies a body into the arena now (a restore needs the bodies in the same order).
---@param body cleave.Body
function Arena:add_body(body) end
---@param n? integer frames, an integer in 0..1000000000 (default 1)
---@return integer hits in those frames
function Arena:step(n) end
---@return integer
function Arena:frame() end
---@return cleave.Hit[]
function Arena:hits() end
---@return cleave.Miss[]
function Arena:misses() end
---@return cleave.Tick[]
function Arena:ticks() end
---@return integer
function Arena:hit_count() end
---@return integer
function Arena:miss_count() end
---@return string[]
function Arena:errors() end
---@param fn fun(hit: cleave.Hit)
function Arena:on_hit(fn) end
---@return string 16 hex digits
function Arena:hash() end
---@return string
function Arena:snapshot() end
---@param snapshot string
function Arena:restore(snapshot) end
---@return integer
function Arena:entity_count() end
---Frees the arena now (also `local arena <close> = cleave.arena {}`); every other method then
---raises "arena is closed". Refused inside one of the arena's own callbacks.
function Arena:close() end

---@class cleave.Mod
local Mod = {}
---@return string[]
function Mod:log() end
---@return integer bytes
function Mod:memory() end

---@class cleave.LoadedMod
---@field name string
---@field version string
---@field dir string the folder it was loaded from, as given (reload_mod reads it again)
---@field weapons table<string, cleave.Weapon>
---@field bodies table<string, cleave.Body>
---@field effects string[]
---@field handle cleave.Mod

---What a mod's mod.lua returns.
---@class cleave.ModDef
---@field name string non-empty
---@field version string non-empty
---@field weapons table<string, cleave.Weapon> at least one
---@field bodies? table<string, cleave.Body>
---@field effects? table<string, cleave.EffectDef>
---@field description? string
---run after validation, under the load deadline; an error fails the load or reload
---@field selftest? fun(mod: cleave.ModDef)

---@class cleave
local cleave = {}
cleave._VERSION = "cleave 0.1.0"

---@return cleave.Shape
function cleave.point(x, y) end
---@return cleave.Shape
function cleave.circle(x, y, radius) end
---@return cleave.Shape
function cleave.capsule(ax, ay, bx, by, radius) end
---@return cleave.Shape
function cleave.aabb(min_x, min_y, max_x, max_y) end
---@return cleave.Shape
function cleave.obb(cx, cy, half_w, half_h, angle) end
---@return boolean
function cleave.is_shape(v) end
---@return boolean
function cleave.overlaps(a, b) end
---@return number
function cleave.distance(a, b) end
---@return number? nx, number? ny, number? depth
function cleave.contact(a, b) end
---@return number distance, number ax, number ay, number bx, number by, number ta, number tb
function cleave.closest(a, b) end
---@return number? t, number? nx, number? ny
function cleave.raycast(s, ox, oy, dx, dy, max_t) end
---@return number? t
function cleave.sweep(moving, dx, dy, target) end

cleave.exact = {}
---@return boolean
function cleave.exact.overlaps(a, b) end

---@param def cleave.WeaponDef
---@return cleave.Weapon
function cleave.weapon(def) end
---@generic T: cleave.HitboxDef
---@param def T
---@return T
function cleave.hitbox(def) end
---@param def cleave.ArcDef
---@return cleave.ArcDef
function cleave.arc(def) end
---@param def cleave.ThrustDef
---@return cleave.ThrustDef
function cleave.thrust(def) end
---@param def cleave.EffectDef
---@return cleave.EffectDef
function cleave.effect(def) end
---Inside a mod only: the attack table frames/<name>.lua of the mod's folder returns, a data
---file (docs/modding.md, "Frames files").
---@param name string the file's name without .lua: letters, digits, '_', '-', '.'
---@return table attack
function cleave.frames(name) end
---@param def? cleave.ArenaDef
---@return cleave.Arena
function cleave.arena(def) end
---@param def cleave.BodyDef
---@return cleave.Body
function cleave.body(def) end
---@param dir string folder holding mod.lua
---@return cleave.LoadedMod
function cleave.load_mod(dir) end
---Loads mod.dir again in a fresh sandbox as one transaction; mod itself is never changed. On
---any failure it raises "file:line: message", as load_mod does, and the old mod stays.
---@param mod cleave.LoadedMod|cleave.Mod a table from load_mod or reload_mod, or its handle
---@return cleave.LoadedMod new
function cleave.reload_mod(mod) end

---Inside a mod only: a line in the mod's log.
---@param ... any
function log(...) end

return cleave
