/* Attacks: starting, posing and cancelling them; the events and queries of the last frame. */
#include "hit_internal.h"

#include <string.h>

/* ---- attacks ---- */

static int32_t attack_slot(const clv_arena *a, clv_attack_id id) {
    if (a == NULL || id.index1 == 0 || id.index1 > (uint32_t)a->att_count) {
        return -1;
    }
    int32_t s = (int32_t)(id.index1 - 1);
    if (!a->att[s].used || a->att[s].gen != id.gen) {
        return -1;
    }
    return s;
}

void clv__attack_end(clv_arena *a, int32_t s) {
    clv__attack *at = &a->att[s];
    at->used = 0;
    at->active = 0;
    at->gen = (uint16_t)(at->gen + 1);
    if (s < a->att_free_hint) {
        a->att_free_hint = s;
    }
    uint32_t key = (uint32_t)s + 1;
    int32_t n = 0;
    for (int32_t i = 0; i < a->rec_count; i++) {
        if (a->rec[i].attack1 != key) {
            a->rec[n++] = a->rec[i];
        }
    }
    a->rec_count = n;
}

clv_hit_status clv_arena_start_attack(clv_arena *a, const clv_attack_start_def *d,
                                      clv_attack_id *out, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (a == NULL || d == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, a == NULL ? "arena" : "def", "%s is NULL",
                             a == NULL ? "arena" : "def");
    }
    const clv__aweapon *w = clv__weapon_get(a, d->weapon);
    if (w == NULL) {
        bool was_here = d->weapon.index1 >= 1 && d->weapon.index1 <= (uint32_t)a->weapon_count;
        return clv__diag_set(diag, CLV_HIT_ERR_STALE_ID, "weapon", "weapon id %u %s this arena",
                             (unsigned)d->weapon.index1,
                             was_here ? "was removed from" : "is not in");
    }
    if (d->attack < 0 || d->attack >= w->attack_count) {
        return clv__diag_set(diag, CLV_HIT_ERR_INDEX, "attack", "attack must be in 0..%d (got %d)",
                             (int)w->attack_count - 1, (int)d->attack);
    }
    if (clv__entity_slot(a, d->owner) < 0) {
        return clv__diag_set(diag, CLV_HIT_ERR_STALE_ID, "owner", "owner id is stale");
    }
    if (!clv__in_world(d->position.x) || !clv__in_world(d->position.y) || !clv__finite(d->facing)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "position",
                             "pose must be finite, position within +-1e9 (got %g, %g, %g)",
                             (double)d->position.x, (double)d->position.y, (double)d->facing);
    }
    int32_t s = a->att_free_hint;
    while (s < a->att_count && a->att[s].used) {
        s++;
    }
    if (s == a->att_count) {
        if (!clv__reserve(&a->al, (void **)&a->att, &a->att_cap, s + 1, sizeof *a->att)) {
            return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
        }
        memset(&a->att[s], 0, sizeof a->att[s]);
        a->att_count++;
    }
    a->att_free_hint = s + 1;
    clv__attack *at = &a->att[s];
    uint16_t gen = at->gen;
    memset(at, 0, sizeof *at);
    at->gen = gen;
    at->used = 1;
    at->weapon1 = d->weapon.index1;
    at->attack = d->attack;
    at->owner = d->owner;
    at->frame = -1;
    at->offset = d->position;
    at->facing = d->facing;
    at->mirror = d->mirror ? 1 : 0;
    at->follow = d->follow_owner ? 1 : 0;
    if (out != NULL) {
        out->index1 = (uint32_t)s + 1;
        out->gen = gen;
    }
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_set_attack_pose(clv_arena *a, clv_attack_id id, clv_vec2 position,
                                         float facing, bool mirror) {
    int32_t s = attack_slot(a, id);
    if (s < 0) {
        return a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_STALE_ID;
    }
    if (!clv__in_world(position.x) || !clv__in_world(position.y) || !clv__finite(facing)) {
        return CLV_HIT_ERR_NUMBER;
    }
    a->att[s].offset = position;
    a->att[s].facing = facing;
    a->att[s].mirror = mirror ? 1 : 0;
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_cancel_attack(clv_arena *a, clv_attack_id id) {
    int32_t s = attack_slot(a, id);
    if (s < 0) {
        return a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_STALE_ID;
    }
    clv__attack_end(a, s);
    return CLV_HIT_OK;
}

bool clv_arena_attack_valid(const clv_arena *a, clv_attack_id id) {
    return attack_slot(a, id) >= 0;
}

clv_hit_status clv_arena_attack(const clv_arena *a, clv_attack_id id, clv_attack_info *out) {
    if (a == NULL || out == NULL) {
        return CLV_HIT_ERR_NULL;
    }
    int32_t s = attack_slot(a, id);
    if (s < 0) {
        return CLV_HIT_ERR_STALE_ID;
    }
    const clv__attack *at = &a->att[s];
    memset(out, 0, sizeof *out);
    out->weapon.index1 = at->weapon1;
    out->weapon.gen = a->weapons[at->weapon1 - 1].gen;
    out->attack = at->attack;
    out->owner = at->owner;
    out->frame = at->frame;
    out->elapsed = at->elapsed;
    out->targets_hit = at->targets_hit;
    out->position = at->offset;
    int32_t o = clv__entity_slot(a, at->owner);
    if (at->follow && o >= 0) {
        out->position.x = at->offset.x + a->pos[o].x;
        out->position.y = at->offset.y + a->pos[o].y;
    }
    out->facing = at->facing;
    out->mirror = at->mirror != 0;
    return CLV_HIT_OK;
}

/* ---- events ---- */

void clv__events_clear(clv_arena *a) {
    a->hit_count = 0;
    a->miss_count = 0;
    a->tick_count = 0;
    a->clash_count = 0;
    a->pevent_count = 0;
}

int64_t clv_arena_frame(const clv_arena *a) { return a != NULL ? a->frame : 0; }

const clv_hit_event *clv_arena_hits(const clv_arena *a, int32_t *count) {
    if (count != NULL) {
        *count = a != NULL ? a->hit_count : 0;
    }
    return a != NULL ? a->hits : NULL;
}

const clv_miss_record *clv_arena_misses(const clv_arena *a, int32_t *count) {
    if (count != NULL) {
        *count = a != NULL ? a->miss_count : 0;
    }
    return a != NULL ? a->misses : NULL;
}

const clv_tick_event *clv_arena_ticks(const clv_arena *a, int32_t *count) {
    if (count != NULL) {
        *count = a != NULL ? a->tick_count : 0;
    }
    return a != NULL ? a->ticks : NULL;
}

const clv_clash_event *clv_arena_clashes(const clv_arena *a, int32_t *count) {
    if (count != NULL) {
        *count = a != NULL ? a->clash_count : 0;
    }
    return a != NULL ? a->clashes : NULL;
}

clv_arena_profile clv_arena_last_profile(const clv_arena *a) {
    clv_arena_profile p;
    memset(&p, 0, sizeof p);
    return a != NULL ? a->profile : p;
}

int32_t clv_arena_attack_hitboxes(const clv_arena *a, clv_attack_id id, clv_shape *out,
                                  int32_t cap) {
    int32_t s = attack_slot(a, id);
    if (s < 0) {
        return -1;
    }
    const clv__attack *at = &a->att[s];
    if (at->frame < 0) {
        return 0;
    }
    const clv__aweapon *w = &a->weapons[at->weapon1 - 1];
    int32_t f = w->frame_base[at->attack] + at->frame;
    int32_t first = w->frame_start[f], count = w->frame_start[f + 1] - first;
    for (int32_t k = 0; k < count && k < cap && out != NULL; k++) {
        out[k] = clv__place_hitbox(a, at, &w->boxes[w->list[first + k]].def.shape);
    }
    return count;
}

bool clv_arena_next_entity(const clv_arena *a, clv_entity_id *cursor) {
    if (a == NULL || cursor == NULL) {
        return false;
    }
    for (uint32_t s = cursor->index1; s < (uint32_t)a->ent_count; s++) {
        if (a->ent[s].used) {
            cursor->index1 = s + 1;
            cursor->gen = a->ent[s].gen;
            return true;
        }
    }
    return false;
}

bool clv_arena_next_attack(const clv_arena *a, clv_attack_id *cursor) {
    if (a == NULL || cursor == NULL) {
        return false;
    }
    for (uint32_t s = cursor->index1; s < (uint32_t)a->att_count; s++) {
        if (a->att[s].used) {
            cursor->index1 = s + 1;
            cursor->gen = a->att[s].gen;
            return true;
        }
    }
    return false;
}
