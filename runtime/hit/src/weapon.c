/* Weapon definitions: defaults, validation with named fields, the editable weapon. */
#include "hit_internal.h"

#include <stdio.h>
#include <string.h>

clv_hitbox_def clv_default_hitbox_def(void) {
    clv_hitbox_def d;
    memset(&d, 0, sizeof d);
    d.shape.type = CLV_CIRCLE;
    d.shape.u.circle.c = clv_v2(0.0f, 0.0f);
    d.shape.u.circle.r = 8.0f;
    d.group = 0;
    d.damage = 1.0f;
    d.knockback.kind = CLV_KNOCKBACK_NONE;
    d.max_hits = 0;
    d.knockback_ignores_hit_count = false;
    d.hitlag = CLV_FRAMES_AUTO;
    d.hitlag_scale = 1.0f;
    d.hitstun = CLV_FRAMES_AUTO;
    d.priority = 0;
    d.sweep = true;
    d.effect_count = 0;
    d.clash = CLV_CLASH_NORMAL;
    d.parry_stun = CLV_FRAMES_AUTO;
    d.kind = CLV_HITBOX_HIT;
    d.reflect_speed = 1.0f;
    d.reflect_damage = 1.0f;
    d.blockstun = CLV_FRAMES_AUTO;
    d.hits = CLV_HITS_AUTO;
    d.facing_restrict = CLV_FACING_ANY;
    d.layer = 1;
    d.mask = 0xFFFF;
    d.grab_offset = clv_v2(24.0f, 0.0f);
    return d;
}

clv_attack_def clv_default_attack_def(void) {
    clv_attack_def d;
    memset(&d, 0, sizeof d);
    d.frames = 1;
    d.rebound = CLV_FRAMES_AUTO;
    return d;
}

clv_effect_def clv_default_effect_def(void) {
    clv_effect_def d;
    memset(&d, 0, sizeof d);
    d.duration = 60;
    d.period = 10;
    d.magnitude = 1.0f;
    d.damages = true;
    return d;
}

clv_weapon_def clv_default_weapon_def(void) {
    clv_weapon_def d;
    memset(&d, 0, sizeof d);
    return d;
}

static clv_hit_status check_float(float v, float lo, const char *field, clv_hit_diag *diag) {
    if (!clv__finite(v)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, field, "%s must be finite (got %g)", field,
                             (double)v);
    }
    if (v < lo) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, field, "%s must be >= %g (got %g)", field,
                             (double)lo, (double)v);
    }
    return CLV_HIT_OK;
}

static clv_hit_status check_int(int32_t v, int32_t lo, int32_t hi, const char *field,
                                clv_hit_diag *diag) {
    if (v < lo || v > hi) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, field, "%s must be in %d..%d (got %d)",
                             field, (int)lo, (int)hi, (int)v);
    }
    return CLV_HIT_OK;
}

static clv_hit_status check_name(const char *s, const char *field, clv_hit_diag *diag) {
    if (s[0] == '\0') {
        return clv__diag_set(diag, CLV_HIT_ERR_NAME, field, "%s must not be empty", field);
    }
    if (!clv__name_ok(s)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NAME, field, "%s must be shorter than %d bytes",
                             field, CLV_HIT_NAME_MAX);
    }
    return CLV_HIT_OK;
}

static clv_hit_status check_effect(const clv_effect_def *e, int index, clv_hit_diag *diag) {
    char f[48];
    clv_hit_status st;
    snprintf(f, sizeof f, "effects[%d].name", index);
    if ((st = check_name(e->name, f, diag)) != CLV_HIT_OK) {
        return st;
    }
    snprintf(f, sizeof f, "effects[%d].duration", index);
    if ((st = check_int(e->duration, 1, CLV_ATTACK_MAX_FRAMES * 16, f, diag)) != CLV_HIT_OK) {
        return st;
    }
    snprintf(f, sizeof f, "effects[%d].period", index);
    if ((st = check_int(e->period, 1, e->duration, f, diag)) != CLV_HIT_OK) {
        return st;
    }
    snprintf(f, sizeof f, "effects[%d].magnitude", index);
    return check_float(e->magnitude, 0.0f, f, diag);
}

/* The fields that say how a hitbox meets other attacks. */
static clv_hit_status check_meeting(const clv_hitbox_def *d, clv_hit_diag *diag) {
    if ((int)d->clash < (int)CLV_CLASH_NORMAL || (int)d->clash > (int)CLV_CLASH_TRADE) {
        return clv__diag_set(diag, CLV_HIT_ERR_ENUM, "clash",
                             "clash must be normal, transcend or trade (got %d)", (int)d->clash);
    }
    if ((int)d->kind < (int)CLV_HITBOX_HIT || (int)d->kind > (int)CLV_HITBOX_GRAB) {
        return clv__diag_set(diag, CLV_HIT_ERR_ENUM, "kind",
                             "kind must be hit, reflect, absorb or grab (got %d)", (int)d->kind);
    }
    clv_hit_status st;
    if ((st = check_float(d->reflect_speed, 0.0f, "reflect_speed", diag)) != CLV_HIT_OK ||
        (st = check_float(d->reflect_damage, 0.0f, "reflect_damage", diag)) != CLV_HIT_OK) {
        return st;
    }
    return check_int(d->parry_stun, CLV_FRAMES_AUTO, 3600, "parry_stun", diag);
}

/* The fields that say how a hitbox meets bodies that defend, and which it may hit. */
static clv_hit_status check_defence(const clv_hitbox_def *d, clv_hit_diag *diag) {
    clv_hit_status st;
    if ((st = check_float(d->chip, 0.0f, "chip", diag)) != CLV_HIT_OK) {
        return st;
    }
    if (d->chip > 1.0f) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "chip", "chip must be in 0..1 (got %g)",
                             (double)d->chip);
    }
    if ((st = check_int(d->blockstun, CLV_FRAMES_AUTO, 3600, "blockstun", diag)) != CLV_HIT_OK ||
        (st = check_float(d->shield_damage, 0.0f, "shield_damage", diag)) != CLV_HIT_OK) {
        return st;
    }
    if ((int)d->hits < (int)CLV_HITS_AUTO || (int)d->hits > (int)CLV_HITS_BOTH) {
        return clv__diag_set(diag, CLV_HIT_ERR_ENUM, "hits",
                             "hits must be ground, air or both (got %d)", (int)d->hits);
    }
    if ((int)d->facing_restrict < (int)CLV_FACING_ANY ||
        (int)d->facing_restrict > (int)CLV_FACING_BEHIND) {
        return clv__diag_set(diag, CLV_HIT_ERR_ENUM, "facing_restrict",
                             "facing_restrict must be any, away, front or behind (got %d)",
                             (int)d->facing_restrict);
    }
    if (!clv__in_world(d->grab_offset.x) || !clv__in_world(d->grab_offset.y)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "grab_offset",
                             "grab_offset must be finite, within +-1e9 (got %g, %g)",
                             (double)d->grab_offset.x, (double)d->grab_offset.y);
    }
    return CLV_HIT_OK;
}

clv_hit_status clv_hitbox_def_check(const clv_hitbox_def *d, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (d == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, "def", "hitbox definition is NULL");
    }
    clv_hit_status st;
    if ((st = check_name(d->id, "id", diag)) != CLV_HIT_OK) {
        return st;
    }
    if (d->shape.type != CLV_CIRCLE && d->shape.type != CLV_CAPSULE && d->shape.type != CLV_OBB) {
        return clv__diag_set(diag, CLV_HIT_ERR_SHAPE, "shape",
                             "shape must be a capsule, circle or obb (got type %d)",
                             (int)d->shape.type);
    }
    if ((st = clv__check_shape(&d->shape, "shape", diag)) != CLV_HIT_OK) {
        return st;
    }
    if (d->group < CLV_GROUP_NONE) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "group",
                             "group must be >= 0 or CLV_GROUP_NONE (got %d)", (int)d->group);
    }
    if ((st = check_float(d->damage, 0.0f, "damage", diag)) != CLV_HIT_OK) {
        return st;
    }
    const clv_knockback *k = &d->knockback;
    if ((int)k->kind < (int)CLV_KNOCKBACK_NONE || (int)k->kind > (int)CLV_KNOCKBACK_SMASH) {
        return clv__diag_set(
            diag, CLV_HIT_ERR_ENUM, "knockback.kind",
            "knockback.kind must be none, fixed, scaling, radial or smash (got %d)", (int)k->kind);
    }
    if (k->kind == CLV_KNOCKBACK_FIXED) {
        if ((st = check_float(k->vector.x, -3.0e38f, "knockback.x", diag)) != CLV_HIT_OK ||
            (st = check_float(k->vector.y, -3.0e38f, "knockback.y", diag)) != CLV_HIT_OK) {
            return st;
        }
    }
    if (k->kind == CLV_KNOCKBACK_SMASH &&
        (st = check_float(k->set, 0.0f, "knockback.set", diag)) != CLV_HIT_OK) {
        return st;
    }
    if (k->kind == CLV_KNOCKBACK_SCALING || k->kind == CLV_KNOCKBACK_SMASH) {
        if ((st = check_float(k->angle, -3.0e38f, "knockback.angle", diag)) != CLV_HIT_OK) {
            return st;
        }
    }
    if (k->kind == CLV_KNOCKBACK_SCALING || k->kind == CLV_KNOCKBACK_RADIAL ||
        k->kind == CLV_KNOCKBACK_SMASH) {
        if ((st = check_float(k->base, 0.0f, "knockback.base", diag)) != CLV_HIT_OK ||
            (st = check_float(k->growth, 0.0f, "knockback.growth", diag)) != CLV_HIT_OK) {
            return st;
        }
    }
    if ((st = check_int(d->max_hits, 0, INT32_MAX, "max_hits", diag)) != CLV_HIT_OK ||
        (st = check_int(d->hitlag, CLV_FRAMES_AUTO, 3600, "hitlag", diag)) != CLV_HIT_OK ||
        (st = check_int(d->hitstun, CLV_FRAMES_AUTO, 3600, "hitstun", diag)) != CLV_HIT_OK) {
        return st;
    }
    if ((st = check_float(d->hitlag_scale, 0.0f, "hitlag_scale", diag)) != CLV_HIT_OK) {
        return st;
    }
    if (d->hitlag_scale > 100.0f) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "hitlag_scale",
                             "hitlag_scale must be <= 100 (got %g)", (double)d->hitlag_scale);
    }
    if ((st = check_int(d->effect_count, 0, CLV_HITBOX_MAX_EFFECTS, "effect_count", diag)) !=
        CLV_HIT_OK) {
        return st;
    }
    for (int i = 0; i < d->effect_count; i++) {
        if ((st = check_effect(&d->effects[i], i, diag)) != CLV_HIT_OK) {
            return st;
        }
    }
    if ((st = check_meeting(d, diag)) != CLV_HIT_OK) {
        return st;
    }
    return check_defence(d, diag);
}

clv_hit_status clv_attack_def_check(const clv_attack_def *d, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (d == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, "def", "attack definition is NULL");
    }
    clv_hit_status st;
    if ((st = check_name(d->name, "name", diag)) != CLV_HIT_OK ||
        (st = check_int(d->frames, 1, CLV_ATTACK_MAX_FRAMES, "frames", diag)) != CLV_HIT_OK ||
        (st = check_int(d->max_targets, 0, INT32_MAX, "max_targets", diag)) != CLV_HIT_OK ||
        (st = check_int(d->rehit, 0, CLV_ATTACK_MAX_FRAMES, "rehit", diag)) != CLV_HIT_OK ||
        (st = check_int(d->lockout, 0, CLV_ATTACK_MAX_FRAMES, "lockout", diag)) != CLV_HIT_OK ||
        (st = check_int(d->rebound, CLV_FRAMES_AUTO, 3600, "rebound", diag)) != CLV_HIT_OK) {
        return st;
    }
    return CLV_HIT_OK;
}

clv_weapon *clv_weapon_create(const clv_weapon_def *def, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    clv_weapon_def d = def != NULL ? *def : clv_default_weapon_def();
    if ((d.allocator.alloc == NULL) != (d.allocator.free == NULL)) {
        clv__diag_set(diag, CLV_HIT_ERR_NULL, "allocator",
                      "allocator needs both alloc and free, or neither");
        return NULL;
    }
    bool terminated = false;
    for (int i = 0; i < CLV_HIT_NAME_MAX; i++) {
        if (d.name[i] == '\0') {
            terminated = true;
            break;
        }
    }
    if (!terminated) {
        clv__diag_set(diag, CLV_HIT_ERR_NAME, "name", "name must be shorter than %d bytes",
                      CLV_HIT_NAME_MAX);
        return NULL;
    }
    clv_weapon *w = clv__alloc(&d.allocator, sizeof *w);
    if (w == NULL) {
        clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
        return NULL;
    }
    memset(w, 0, sizeof *w);
    w->al = d.allocator;
    memcpy(w->name, d.name, sizeof w->name);
    return w;
}

void clv_weapon_destroy(clv_weapon *w) {
    if (w == NULL) {
        return;
    }
    clv_allocator al = w->al;
    clv__free(&al, w->attacks, (size_t)w->attack_cap * sizeof *w->attacks);
    clv__free(&al, w->boxes, (size_t)w->box_cap * sizeof *w->boxes);
    clv__free(&al, w->hurts, (size_t)w->hurt_cap * sizeof *w->hurts);
    clv__free(&al, w, sizeof *w);
}

int32_t clv__find_attack(const clv_attack_def *attacks, int32_t count, const char *name) {
    for (int32_t i = 0; name != NULL && i < count; i++) {
        if (strncmp(attacks[i].name, name, CLV_HIT_NAME_MAX) == 0) {
            return i;
        }
    }
    return -1;
}

int32_t clv_weapon_find_attack(const clv_weapon *w, const char *name) {
    return w != NULL ? clv__find_attack(w->attacks, w->attack_count, name) : -1;
}

int32_t clv_weapon_attack_count(const clv_weapon *w) { return w != NULL ? w->attack_count : 0; }

clv_hit_status clv_weapon_attack(const clv_weapon *w, int32_t index, clv_attack_def *out) {
    if (w == NULL || out == NULL) {
        return CLV_HIT_ERR_NULL;
    }
    if (index < 0 || index >= w->attack_count) {
        return CLV_HIT_ERR_INDEX;
    }
    *out = w->attacks[index];
    return CLV_HIT_OK;
}

const clv_attack_def *clv_weapon_attack_def(const clv_weapon *w, int32_t index) {
    return w != NULL && index >= 0 && index < w->attack_count ? &w->attacks[index] : NULL;
}

clv_hit_status clv_weapon_add_attack(clv_weapon *w, const clv_attack_def *def, int32_t *out_index,
                                     clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (w == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, "weapon", "weapon is NULL");
    }
    clv_hit_status st = clv_attack_def_check(def, diag);
    if (st != CLV_HIT_OK) {
        if (def != NULL) {
            char name[CLV_HIT_NAME_MAX];
            memcpy(name, def->name, sizeof name);
            name[CLV_HIT_NAME_MAX - 1] = '\0';
            clv__diag_prefix(diag, "attack %d ('%s')", (int)w->attack_count, name);
        }
        if (diag != NULL) {
            diag->attack = w->attack_count;
        }
        return st;
    }
    if (def->frames > CLV_WEAPON_MAX_FRAMES - w->frame_total) {
        clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "frames",
                      "attack %d ('%s'): the weapon's attacks would last %d frames together, more "
                      "than the limit of %d",
                      (int)w->attack_count, def->name, (int)(w->frame_total + def->frames),
                      CLV_WEAPON_MAX_FRAMES);
        if (diag != NULL) {
            diag->attack = w->attack_count;
        }
        return CLV_HIT_ERR_NUMBER;
    }
    if (clv_weapon_find_attack(w, def->name) >= 0) {
        clv__diag_set(diag, CLV_HIT_ERR_NAME, "name", "attack '%s' is already defined", def->name);
        if (diag != NULL) {
            diag->attack = w->attack_count;
        }
        return CLV_HIT_ERR_NAME;
    }
    if (!clv__reserve(&w->al, (void **)&w->attacks, &w->attack_cap, w->attack_count + 1,
                      sizeof *w->attacks)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
    }
    w->attacks[w->attack_count] = *def;
    w->frame_total += def->frames;
    if (out_index != NULL) {
        *out_index = w->attack_count;
    }
    w->attack_count++;
    return CLV_HIT_OK;
}

int32_t clv_weapon_frame_hitbox_count(const clv_weapon *w, int32_t attack, int32_t frame) {
    return clv_weapon_frame_hitboxes(w, attack, frame, NULL, 0);
}

const char *clv_weapon_name(const clv_weapon *w) { return w != NULL ? w->name : ""; }

int32_t clv_weapon_frame_hitboxes(const clv_weapon *w, int32_t attack, int32_t frame,
                                  const clv_hitbox_def **out, int32_t cap) {
    if (w == NULL || attack < 0 || attack >= w->attack_count || frame < 0 ||
        frame >= w->attacks[attack].frames) {
        return 0;
    }
    int32_t n = 0;
    for (int32_t i = 0; i < w->box_count; i++) {
        const clv__hitbox_entry *e = &w->boxes[i];
        if (e->attack == attack && e->first <= frame && frame <= e->last) {
            if (n < cap) {
                out[n] = &e->def;
            }
            n++;
        }
    }
    return n;
}

clv_hit_status clv__check_attack_frames(const clv_weapon *w, int32_t attack, int32_t first,
                                        int32_t last, clv_hit_diag *diag) {
    if (w == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, "weapon", "weapon is NULL");
    }
    if (attack < 0 || attack >= w->attack_count) {
        return clv__diag_set(diag, CLV_HIT_ERR_INDEX, "attack",
                             "attack index must be in 0..%d (got %d)", (int)w->attack_count - 1,
                             (int)attack);
    }
    const clv_attack_def *ad = &w->attacks[attack];
    if (first < 0 || last < first || last >= ad->frames) {
        clv__diag_set(diag, CLV_HIT_ERR_INDEX, "frame",
                      "attack '%s': frames %d..%d must lie in 0..%d", ad->name, (int)first,
                      (int)last, (int)ad->frames - 1);
        if (diag != NULL) {
            diag->attack = attack;
            diag->frame = first;
        }
        return CLV_HIT_ERR_INDEX;
    }
    return CLV_HIT_OK;
}

clv_hit_status clv_weapon_add_hitbox(clv_weapon *w, int32_t attack, int32_t first, int32_t last,
                                     const clv_hitbox_def *def, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    clv_hit_status range = clv__check_attack_frames(w, attack, first, last, diag);
    if (range != CLV_HIT_OK) {
        return range;
    }
    const clv_attack_def *ad = &w->attacks[attack];
    int32_t position = clv_weapon_frame_hitbox_count(w, attack, first);
    clv_hit_status st = clv_hitbox_def_check(def, diag);
    int32_t span = last - first + 1;
    if (st == CLV_HIT_OK && span > CLV_WEAPON_MAX_PLACED - w->placed_total) {
        st = clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "frames",
                           "the weapon would place %d hitboxes (one per hitbox and frame), more "
                           "than the limit of %d",
                           (int)(w->placed_total + span), CLV_WEAPON_MAX_PLACED);
    }
    if (st == CLV_HIT_OK) {
        /* An id names one hitbox of a frame: events and tests refer to it. */
        for (int32_t i = 0; i < w->box_count; i++) {
            const clv__hitbox_entry *e = &w->boxes[i];
            if (e->attack == attack && e->first <= last && first <= e->last &&
                strncmp(e->def.id, def->id, CLV_HIT_NAME_MAX) == 0) {
                st = clv__diag_set(diag, CLV_HIT_ERR_NAME, "id",
                                   "id '%s' is already used on frame %d", def->id,
                                   (int)(e->first > first ? e->first : first));
                break;
            }
        }
    }
    if (st != CLV_HIT_OK) {
        if (def != NULL) {
            char id[CLV_HIT_NAME_MAX];
            memcpy(id, def->id, sizeof id);
            id[CLV_HIT_NAME_MAX - 1] = '\0';
            if (first == last) {
                clv__diag_prefix(diag, "attack '%s' frame %d hitbox %d ('%s')", ad->name,
                                 (int)first, (int)position, id);
            } else {
                clv__diag_prefix(diag, "attack '%s' frames %d..%d hitbox %d ('%s')", ad->name,
                                 (int)first, (int)last, (int)position, id);
            }
        }
        if (diag != NULL) {
            diag->attack = attack;
            diag->frame = first;
            diag->hitbox = position;
        }
        return st;
    }
    if (!clv__reserve(&w->al, (void **)&w->boxes, &w->box_cap, w->box_count + 1,
                      sizeof *w->boxes)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
    }
    clv__hitbox_entry *e = &w->boxes[w->box_count++];
    w->placed_total += span;
    e->attack = attack;
    e->first = first;
    e->last = last;
    e->def = *def;
    return CLV_HIT_OK;
}
