-- blade/swing: 12 frames, one hitbox a line in precedence order (cleave bake writes this form; see docs/modding.md, "Frames files")
return {
  length = 12, rehit = 0, max_targets = 0, lockout = 0,
  frames = {
    [4] = {
      { id = "board", ax = 6, ay = 0, bx = 30, by = 0, radius = 2, group = 0, damage = 6, knockback = { kind = "scaling", angle = -30, base = 2, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [5] = {
      { id = "board", ax = 6, ay = 0, bx = 30, by = 0, radius = 2, group = 0, damage = 6, knockback = { kind = "scaling", angle = -30, base = 2, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [6] = {
      { id = "board", ax = 6, ay = 0, bx = 30, by = 0, radius = 2, group = 0, damage = 6, knockback = { kind = "scaling", angle = -30, base = 2, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
  },
  hurtboxes = {
    { id = "arm", frames = { 3, 7 }, ax = 0, ay = 0, bx = 6, by = 0, radius = 3, state = "normal" },
  },
}
