-- aseprite/swing: 27 frames, one hitbox a line in precedence order (cleave bake writes this form; see docs/modding.md, "Frames files")
return {
  length = 27, rehit = 0, max_targets = 0, lockout = 0,
  frames = {
    [7] = {
      { id = "blade", ax = 7, ay = -1, bx = 27, by = -1, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [8] = {
      { id = "blade", ax = 7, ay = -1, bx = 27, by = -1, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [9] = {
      { id = "blade", ax = 7, ay = -1, bx = 27, by = -1, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [10] = {
      { id = "blade", ax = 7, ay = -1, bx = 27, by = -1, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
      { id = "tip", x = 26, y = 6, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {} },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [11] = {
      { id = "blade", ax = 7, ay = -1, bx = 27, by = -1, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
      { id = "tip", x = 26, y = 6, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {} },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [12] = {
      { id = "blade", ax = 7, ay = -1, bx = 27, by = -1, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
      { id = "tip", x = 26, y = 6, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {} },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [13] = {
      { id = "blade", ax = 7, ay = -1, bx = 27, by = -1, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
      { id = "tip", x = 26, y = 6, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {} },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [14] = {
      { id = "blade", ax = 7, ay = -1, bx = 27, by = -1, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
      { id = "tip", x = 26, y = 6, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {} },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [15] = {
      { id = "blade", ax = 7, ay = -1, bx = 27, by = -1, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
      { id = "tip", x = 26, y = 6, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {} },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [16] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [17] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [18] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [19] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [20] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [21] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [22] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [23] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [24] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [25] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [26] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
    [27] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {} },
    },
  },
}
