/* Private to the Lua binding: the shape userdata and the argument checkers every function
 * shares, so that all messages have one shape: "bad argument #N to 'f' (<name> must <rule>,
 * got <value>)". */
#ifndef CLEAVE_LUA_INTERNAL_H
#define CLEAVE_LUA_INTERNAL_H

#include <stdbool.h>

#include <lauxlib.h>
#include <lua.h>

#include "cleave/collide.h"
#include "cleave/lua.h"

/// A number exactly as Lua gave it: an integer stays an integer.
typedef struct clv_lnum {
    bool is_int;
    lua_Integer i; ///< the value when is_int
    lua_Number n;  ///< the value otherwise
} clv_lnum;

/// Most numbers a shape is made of (capsule and obb take five).
#define CLV_LUA_MAX_NUMS 5

/// The userdata behind cleave.Shape. Immutable once built.
typedef struct clv_lshape {
    clv_shape f;                  ///< float form, built once at construction
    int count;                    ///< how many numbers the constructor took
    clv_lnum v[CLV_LUA_MAX_NUMS]; ///< the constructor's arguments, as given
} clv_lshape;

/// Parameter names of each kind's constructor, indexed by clv_shape_type.
extern const char *const clv_lua_param_names[CLV_SHAPE_TYPE_COUNT][CLV_LUA_MAX_NUMS];

/// Lower-case name of a shape kind ("capsule").
const char *clv_lua_kind_name(clv_shape_type type);

/// Raises "bad argument #arg to 'name' (msg)" like luaL_argerror, but names the function
/// `fallback` ("cleave.circle") when the call site gives no name (e.g. under pcall(f, ...)).
int clv_lua_argerror(lua_State *L, int arg, const char *fallback, const char *msg);

/// Raises "<expected> expected, got <type of arg>" through clv_lua_argerror.
int clv_lua_typeerror(lua_State *L, int arg, const char *fallback, const char *expected);

/// Raises an error when the call has more than n arguments ("no value expected, got ...").
void clv_lua_check_nargs(lua_State *L, int n, const char *fallback);

/// Pushes a number as text: integers without ".0", floats with the fewest digits that read
/// back to the same value, "inf", "-inf", "nan".
void clv_lua_push_lnum(lua_State *L, clv_lnum v);

/// The number at arg, checked for the float API: a number (not a numeric string), not nan,
/// finite and within float range. `pname` names it in messages ("radius").
clv_lnum clv_lua_check_lnum(lua_State *L, int arg, const char *fallback, const char *pname);

/// A checked number as a float (checks guarantee it fits).
float clv_lua_lnum_float(clv_lnum v);

/// A checked number as a Lua float (lua_Number).
lua_Number clv_lua_lnum_number(clv_lnum v);

/// The cleave.Shape at arg, or an argument error "cleave.Shape expected, got <type>".
clv_lshape *clv_lua_check_lshape(lua_State *L, int arg, const char *fallback);

/// Registers the Shape metatable (idempotent) and leaves it on the stack.
void clv_lua_shape_meta(lua_State *L);

/// The module functions of each file, registered by luaopen_cleave.
extern const luaL_Reg clv_lua_shape_funcs[];
extern const luaL_Reg clv_lua_query_funcs[];
extern const luaL_Reg clv_lua_exact_funcs[];

#endif
