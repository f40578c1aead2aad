-- A small spec runner that works the same in lua5.4 and in LuaJIT (busted needs one
-- interpreter): describe/it and the few assertions the shared spec uses.
-- usage: run.lua c|ffi SPEC_FILE SOURCE_DIR
--   c:   require "cleave" (the Lua 5.4 module, found on package.cpath)
--   ffi: require "cleave.ffi" (LuaJIT with libcleave.so, found through CLEAVE_LIB)
-- Lines "result NAME VALUE" that the spec reports are printed for the two runs to compare.
local impl, spec, src = arg[1], arg[2], arg[3]
package.path = src .. "/scripts/?.lua;" .. package.path

local failures, passed, prefix = 0, 0, {}

local function fmt(v)
  return type(v) == "string" and ("%q"):format(v) or tostring(v)
end

local function check(ok, msg, level)
  if not ok then error(msg, (level or 1) + 2) end
end

local assert_ = {}
assert_.are = {}
function assert_.are.equal(expected, actual, what)
  check(expected == actual, ("%sexpected %s, got %s"):format(what and (what .. ": ") or "",
    fmt(expected), fmt(actual)))
end
function assert_.are.same(expected, actual)
  check(#expected == #actual, ("expected %d values, got %d"):format(#expected, #actual))
  for i = 1, #expected do
    check(expected[i] == actual[i], ("value %d: expected %s, got %s"):format(i,
      fmt(expected[i]), fmt(actual[i])))
  end
end
function assert_.is_true(v, what)
  check(v == true, (what or "") .. " expected true, got " .. fmt(v))
end
function assert_.is_false(v, what)
  check(v == false, (what or "") .. " expected false, got " .. fmt(v))
end
function assert_.is_nil(v) check(v == nil, "expected nil, got " .. fmt(v)) end
function assert_.near(expected, actual, tol)
  check(type(actual) == "number" and math.abs(expected - actual) <= (tol or 1e-5),
    ("expected %.9g, got %s"):format(expected, fmt(actual)))
end
-- Like busted's: the message without the "file:line: " where it was raised.
function assert_.has_error(fn, expected)
  local ok, err = pcall(fn)
  check(not ok, "expected an error, got none")
  err = type(err) == "string" and err:gsub("^[^\n]-:%d+: ", "", 1) or err
  check(err == expected, ("expected error %s, got %s"):format(fmt(expected), fmt(err)))
end
function assert_.matches(pattern, s)
  check(type(s) == "string" and s:find(pattern) ~= nil,
    ("expected %s to match %s"):format(fmt(s), fmt(pattern)))
end

local env = setmetatable({
  assert = assert_,
  describe = function(name, body)
    prefix[#prefix + 1] = name
    body()
    prefix[#prefix] = nil
  end,
  it = function(name, body)
    local ok, err = pcall(body)
    if ok then
      passed = passed + 1
    else
      failures = failures + 1
      print(("FAIL %s %s: %s"):format(table.concat(prefix, " "), name, tostring(err)))
    end
  end,
  -- numbers with every digit, and without Lua 5.4's ".0" on a float that is whole
  result = function(name, value)
    if type(value) == "number" then value = ("%.17g"):format(value) end
    print(("result %s %s"):format(name, tostring(value)))
  end,
  SOURCE_DIR = src,
  IMPLEMENTATION = impl,
}, { __index = _G })

env.cleave = require(impl == "ffi" and "cleave.ffi" or "cleave")
local chunk = assert(loadfile(spec))
if setfenv then setfenv(chunk, env) else chunk = assert(loadfile(spec, "t", env)) end
chunk()
print(("%s: %d passed, %d failed (%s)"):format(spec:match("[^/]+$"), passed, failures,
  env.cleave._VERSION .. (jit and (", " .. jit.version) or (", " .. _VERSION))))
os.exit(failures == 0 and 0 or 1)
