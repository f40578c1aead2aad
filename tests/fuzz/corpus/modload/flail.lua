-- flail: a ball on a chain, whirled overhead. The chain is four capsules following one arc,
-- each link trailing the one inside it by a frame; the whirl lingers for 36 frames and may hit
-- the same target again every 8 frames (rehit = 8).
local flail = cleave.weapon {
  name = "flail",
  defaults = { group = 0, damage = 3, hitlag = 2 },
  attacks = {
    whirl = {
      length = 48,
      rehit = 8,
      hitboxes = {
        cleave.arc { id = "chain", frames = { 6, 41 }, from = -180, to = 900, inner = 6,
                     outer = 54, radius = 3, links = 4, lag = 1 },
        cleave.arc { id = "ball", frames = { 6, 41 }, from = -184, to = 896, inner = 54,
                     outer = 64, radius = 7, damage = 6 },
      },
    },
  },
}

return {
  name = "flail",
  version = "1.0.0",
  weapons = { flail = flail },
}
