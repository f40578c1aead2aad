/* Hurtboxes an attack carries: the extended arm of a punch is hittable while it is out. They
 * are defined per frame with the weapon, copied with it into an arena, and while the attack is
 * on such a frame its owner has them too, placed from the attack's pose. */
#include "step_internal.h"

#include <math.h>
#include <string.h>

clv_hit_status clv_weapon_add_hurtbox(clv_weapon *w, int32_t attack, int32_t first, int32_t last,
                                      const clv_hurtbox_def *def, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    clv_hit_status st = clv__check_attack_frames(w, attack, first, last, diag);
    if (st != CLV_HIT_OK) {
        return st;
    }
    st = clv_hurtbox_def_check(def, diag);
    if (st != CLV_HIT_OK) {
        return st;
    }
    if (last - first + 1 > CLV_WEAPON_MAX_PLACED - w->hurt_placed) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "frames",
                             "the weapon would carry more than %d hurtboxes (one per hurtbox "
                             "and frame)",
                             CLV_WEAPON_MAX_PLACED);
    }
    for (int32_t f = first; f <= last; f++) {
        int32_t n = 0;
        for (int32_t i = 0; i < w->hurt_count; i++) {
            const clv__hurt_entry *e = &w->hurts[i];
            bool here = e->attack == attack && e->first <= f && f <= e->last;
            if (here && strncmp(e->def.id, def->id, CLV_HIT_NAME_MAX) == 0) {
                return clv__diag_set(diag, CLV_HIT_ERR_NAME, "id",
                                     "hurtbox id '%s' is used twice on frame %d", def->id, (int)f);
            }
            n += here ? 1 : 0;
        }
        if (n == CLV_BODY_MAX_HURTBOXES) {
            return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "hurtboxes",
                                 "frame %d already carries %d hurtboxes, the most a frame may",
                                 (int)f, CLV_BODY_MAX_HURTBOXES);
        }
    }
    if (!clv__reserve(&w->al, (void **)&w->hurts, &w->hurt_cap, w->hurt_count + 1,
                      sizeof *w->hurts)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "hurtboxes", "out of memory");
    }
    clv__hurt_entry *e = &w->hurts[w->hurt_count++];
    e->attack = attack;
    e->first = first;
    e->last = last;
    e->def = *def;
    e->def.id[CLV_HIT_NAME_MAX - 1] = '\0';
    w->hurt_placed += last - first + 1;
    return CLV_HIT_OK;
}

size_t clv__hurts_bytes(const clv_weapon *src) {
    if (src->hurt_placed == 0) {
        return 0;
    }
    return (size_t)(src->frame_total + 1) * sizeof(int32_t) +
           (size_t)src->hurt_placed * sizeof(clv_hurtbox_def);
}

void clv__free_hurts(clv_arena *a, clv__aweapon *w) {
    clv__free(&a->al, w->hurt_start, (size_t)(w->frame_total + 1) * sizeof *w->hurt_start);
    clv__free(&a->al, w->hurts, (size_t)w->hurt_total * sizeof *w->hurts);
    w->hurt_start = NULL;
    w->hurts = NULL;
    w->hurt_total = 0;
}

bool clv__file_hurts(clv_arena *a, const clv_weapon *src, clv__aweapon *w) {
    if (src->hurt_placed == 0) {
        return true;
    }
    w->hurt_start = clv__alloc(&a->al, (size_t)(w->frame_total + 1) * sizeof *w->hurt_start);
    w->hurts = clv__alloc(&a->al, (size_t)src->hurt_placed * sizeof *w->hurts);
    w->hurt_total = src->hurt_placed;
    if (w->hurt_start == NULL || w->hurts == NULL) {
        clv__free_hurts(a, w);
        return false;
    }
    /* counts per frame, then offsets, then each frame's hurtboxes in the order they were added */
    memset(w->hurt_start, 0, (size_t)(w->frame_total + 1) * sizeof *w->hurt_start);
    for (int32_t i = 0; i < src->hurt_count; i++) {
        const clv__hurt_entry *e = &src->hurts[i];
        for (int32_t f = e->first; f <= e->last; f++) {
            w->hurt_start[w->frame_base[e->attack] + f + 1]++;
        }
    }
    for (int32_t f = 0; f < w->frame_total; f++) {
        w->hurt_start[f + 1] += w->hurt_start[f];
    }
    /* each entry written on its frames in the order added: a cursor per frame */
    int32_t *cursor = clv__alloc(&a->al, (size_t)w->frame_total * sizeof *cursor);
    if (cursor == NULL) {
        clv__free_hurts(a, w);
        return false;
    }
    memcpy(cursor, w->hurt_start, (size_t)w->frame_total * sizeof *cursor);
    w->hurt_reach = 0.0f;
    for (int32_t i = 0; i < src->hurt_count; i++) {
        const clv__hurt_entry *e = &src->hurts[i];
        for (int32_t f = e->first; f <= e->last; f++) {
            w->hurts[cursor[w->frame_base[e->attack] + f]++] = e->def;
        }
        w->hurt_reach = fmaxf(w->hurt_reach, clv__shape_reach(&e->def.shape));
    }
    clv__free(&a->al, cursor, (size_t)w->frame_total * sizeof *cursor);
    return true;
}

/* The hurtboxes attack slot s carries on its current frame, and their number. */
static const clv_hurtbox_def *carried_of(const clv_arena *a, int32_t s, int32_t *n) {
    const clv__attack *at = &a->att[s];
    const clv__aweapon *w = &a->weapons[at->weapon1 - 1];
    *n = 0;
    if (w->hurt_total == 0 || at->frame < 0) {
        return NULL;
    }
    int32_t f = w->frame_base[at->attack] + at->frame;
    *n = w->hurt_start[f + 1] - w->hurt_start[f];
    return &w->hurts[w->hurt_start[f]];
}

const clv_hurtbox_def *clv__carried_defs(const clv_arena *a, int32_t s, int32_t *n) {
    *n = 0;
    if (a->carry == NULL || s >= a->carry_cap || a->carry[s] == 0) {
        return NULL;
    }
    int32_t k = a->carry[s] - 1;
    const clv__attack *at = &a->att[k];
    if (k >= a->att_count || !at->used || at->owner.index1 != (uint32_t)s + 1) {
        return NULL; /* ended since the last step */
    }
    return carried_of(a, k, n);
}

int32_t clv__carried_world(const clv_arena *a, int32_t s, clv_shape *out, int32_t *states,
                           float *heavy) {
    int32_t n = 0;
    const clv_hurtbox_def *d = clv__carried_defs(a, s, &n);
    if (n == 0) {
        return 0;
    }
    clv__pose p = clv__attack_pose(a, &a->att[a->carry[s] - 1]);
    for (int32_t i = 0; i < n; i++) {
        out[i] = clv__place_shape(&p, &d[i].shape);
        states[i] = (int32_t)d[i].state;
        heavy[i] = d[i].heavy;
    }
    return n;
}

/* The slot's broadphase square grown to cover a square of half side r around c. */
static void grow_square(clv_arena *a, int32_t s, clv_vec2 c, float r) {
    if (!(a->br[s] > 0.0f)) { /* no hurtbox of its own: the square is the attack's */
        a->bx[s] = c.x;
        a->by[s] = c.y;
        a->br[s] = r + 1e-4f * (r + fabsf(c.x) + fabsf(c.y)) + 1e-30f;
        return;
    }
    float x0 = fminf(a->bx[s] - a->br[s], c.x - r), x1 = fmaxf(a->bx[s] + a->br[s], c.x + r);
    float y0 = fminf(a->by[s] - a->br[s], c.y - r), y1 = fmaxf(a->by[s] + a->br[s], c.y + r);
    float half = 0.5f * fmaxf(x1 - x0, y1 - y0);
    a->bx[s] = 0.5f * (x0 + x1);
    a->by[s] = 0.5f * (y0 + y1);
    /* the rounding of the centre can move an edge by an ulp */
    a->br[s] = half + 1e-4f * (half + fabsf(a->bx[s]) + fabsf(a->by[s])) + 1e-30f;
}

clv_hit_status clv__carry(clv_arena *a) {
    for (int32_t i = 0; i < a->carried_count; i++) {
        int32_t s = a->carried[i];
        a->carry[s] = 0;
        if (s < a->ent_count) {
            clv__entity_update_bounds(a, s);
        }
    }
    a->carried_count = 0;
    if (a->carrying_weapons == 0) {
        return CLV_HIT_OK;
    }
    if (!clv__reserve(&a->al, (void **)&a->carry, &a->carry_cap, a->ent_cap, sizeof *a->carry) ||
        !clv__reserve(&a->al, (void **)&a->carried, &a->carried_cap, a->ent_cap,
                      sizeof *a->carried)) {
        return CLV_HIT_ERR_NO_MEMORY;
    }
    /* clv__reserve keeps what the arrays held and zeroes what it adds */
    for (int32_t k = 0; k < a->att_count; k++) {
        const clv__attack *at = &a->att[k];
        int32_t n = 0;
        if (!at->used || at->projectile || carried_of(a, k, &n) == NULL || n == 0) {
            continue;
        }
        int32_t o = (int32_t)at->owner.index1 - 1;
        if (a->carry[o] != 0) {
            continue; /* one attack's hurtboxes per entity: the lowest slot's */
        }
        a->carry[o] = k + 1;
        a->carried[a->carried_count++] = o;
        clv__pose p = clv__attack_pose(a, at);
        grow_square(a, o, p.o, a->weapons[at->weapon1 - 1].hurt_reach);
    }
    return CLV_HIT_OK;
}

const clv_hurtbox_def *clv_arena_frame_hurtboxes(const clv_arena *a, clv_weapon_id weapon,
                                                 int32_t attack, int32_t frame, int32_t *count) {
    *count = 0;
    const clv__aweapon *w = clv__weapon_get(a, weapon);
    if (w == NULL || w->hurt_total == 0 || attack < 0 || attack >= w->attack_count || frame < 0 ||
        frame >= w->attacks[attack].frames) {
        return NULL;
    }
    int32_t f = w->frame_base[attack] + frame;
    *count = w->hurt_start[f + 1] - w->hurt_start[f];
    return *count > 0 ? &w->hurts[w->hurt_start[f]] : NULL;
}
