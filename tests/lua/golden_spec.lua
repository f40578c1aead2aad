-- Golden logs: the first CLEAVE_UPDATE_GOLDEN=1 run of a new spec writes spec/golden/ itself.

local function sh_quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

describe("cleave.testing golden logs", function()
  it("creates the golden folder on the first update run, then compares", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert.is_true(os.execute("mkdir -p " .. sh_quote(dir .. "/spec")))
    local spec = dir .. "/spec/first.lua"
    local f = assert(io.open(spec, "w"))
    f:write('local T = require "cleave.testing"\n',
      'T.golden("swing", "frame 1  hit\\n")\n', 'print("ok")\n')
    f:close()
    local run = ("lua5.4 -e %s %s 2>&1"):format(
      sh_quote(("package.path = %q .. package.path package.cpath = %q"):format(
        package.path .. ";", package.cpath)), sh_quote(spec))

    local p = assert(io.popen("CLEAVE_UPDATE_GOLDEN=1 " .. run))
    local out = p:read("a")
    p:close()
    assert.are.equal("ok\n", out)
    local g = assert(io.open(dir .. "/spec/golden/swing.log", "r"))
    assert.are.equal("frame 1  hit\n", g:read("a"))
    g:close()

    p = assert(io.popen(run))
    out = p:read("a")
    p:close()
    assert.are.equal("ok\n", out)
    os.execute("rm -rf " .. sh_quote(dir))
  end)
end)
