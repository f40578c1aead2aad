/* cleave lua: the `cleave` Lua 5.4 module.
 *
 * `require "cleave"` returns one plain table (see luaopen_cleave); nothing is written to the
 * globals. Shapes are full userdata of type CLV_LUA_SHAPE that keep the numbers they were
 * given at full Lua precision (an integer stays an integer), so the exact-integer queries see
 * exactly what the script passed, while the float queries use a float copy built once.
 *
 * The helpers below are for C code that embeds Lua (the app, the hit bindings): they move
 * shapes between a lua_State and the collide API without going through the Lua functions.
 */
#ifndef CLEAVE_LUA_H
#define CLEAVE_LUA_H

#include <lua.h>

#include "cleave/collide.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Marks the module entry point visible even when the rest of cleave.so is hidden.
#if defined(__GNUC__)
#define CLV_LUA_EXPORT __attribute__((visibility("default")))
#else
#define CLV_LUA_EXPORT
#endif

/// Userdata type name of a shape, as it appears in type errors ("cleave.Shape expected").
#define CLV_LUA_SHAPE "cleave.Shape"

/// Opens the module and pushes its table; for require or luaL_requiref.
CLV_LUA_EXPORT int luaopen_cleave(lua_State *L);

/// The float form of the shape at index idx, or NULL when that value is not a cleave.Shape.
/// The pointer lives as long as the userdata does.
const clv_shape *clv_lua_toshape(lua_State *L, int idx);

/// Like clv_lua_toshape, but raises a Lua argument error when the value is not a shape.
const clv_shape *clv_lua_checkshape(lua_State *L, int idx);

/// Pushes a new cleave.Shape made from a valid float shape (clv_shape_valid). Its numbers read
/// back as Lua floats; an obb's angle reads back in degrees.
void clv_lua_pushshape(lua_State *L, const clv_shape *in);

#ifdef __cplusplus
}
#endif

#endif
