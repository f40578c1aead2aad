-- aseprite/swing: 27 frames, one hitbox a line in precedence order (cleave bake writes this form; see docs/modding.md, "Frames files")
return {
  length = 27, rehit = 0, max_targets = 0, lockout = 0,
  frames = {
    [7] = {
      { id = "blade", ax = 7, ay = 0, bx = 28, by = 0, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [8] = {
      { id = "blade", ax = 7, ay = 0, bx = 28, by = 0, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [9] = {
      { id = "blade", ax = 7, ay = 0, bx = 28, by = 0, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [10] = {
      { id = "blade", ax = 7, ay = 0, bx = 28, by = 0, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "tip", x = 28, y = 0, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [11] = {
      { id = "blade", ax = 7, ay = 0, bx = 28, by = 0, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "tip", x = 28, y = 0, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [12] = {
      { id = "blade", ax = 7, ay = 0, bx = 28, by = 0, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "tip", x = 28, y = 0, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [13] = {
      { id = "blade", ax = 7, ay = 0, bx = 28, by = 0, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "tip", x = 28, y = 0, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [14] = {
      { id = "blade", ax = 7, ay = 0, bx = 28, by = 0, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "tip", x = 28, y = 0, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [15] = {
      { id = "blade", ax = 7, ay = 0, bx = 28, by = 0, radius = 3, group = 0, damage = 7, knockback = { kind = "scaling", angle = -20, base = 1.5, growth = 0.1 }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "tip", x = 28, y = 0, radius = 4, group = 0, damage = 12, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 1, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [16] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [17] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [18] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [19] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [20] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [21] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [22] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [23] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [24] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [25] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [26] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
    [27] = {
      { id = "guard", ax = 4, ay = -6, bx = 4, by = 2, radius = 2, group = 0, damage = 3, knockback = { kind = "none" }, max_hits = 0, knockback_ignores_hit_count = false, hitlag = "auto", hitlag_scale = 1, hitstun = "auto", priority = 0, sweep = true, effects = {}, clash = "normal", parry_stun = "auto", kind = "hit", reflect_speed = 1, reflect_damage = 1, reflect_along = "normal" },
    },
  },
}
