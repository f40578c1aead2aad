/* Bodies in an arena, and what an entity does beyond being hit: facing, filters, armor, guard
 * and grabs (the state; the rules that read it are in step_body.c). */
#include "hit_internal.h"

#include <math.h>
#include <string.h>

clv__combat clv__combat_default(void) {
    clv__combat c;
    memset(&c, 0, sizeof c);
    c.anim = -1;
    c.layer = 1;
    c.mask = 0xFFFF;
    clv_guard_def g = clv_default_guard_def();
    c.guard_meter = g.meter;
    c.guard_regen = g.regen;
    c.guard_break = g.guard_break;
    c.guard_all_round = g.all_round ? 1 : 0;
    c.meter = g.meter;
    return c;
}

bool clv__combat_is_default(const clv__combat *c) {
    clv__combat d = clv__combat_default();
    return c->body1 == 0 && c->anim == d.anim && c->elapsed == 0 && c->facing == 0.0f &&
           c->mirror == 0 && c->airborne == 0 && c->layer == d.layer && c->mask == d.mask &&
           c->armor == 0 && c->heavy == 0.0f && c->guard_meter == d.guard_meter &&
           c->guard_regen == d.guard_regen && c->guard_break == d.guard_break &&
           c->guard_all_round == d.guard_all_round && c->meter == d.meter &&
           c->held_by.index1 == 0 && c->holding.index1 == 0 && c->hold.x == 0.0f &&
           c->hold.y == 0.0f;
}

clv__combat *clv__combat_of(clv_arena *a, int32_t s) {
    if (a->cmb == NULL && a->ent_cap > 0) {
        clv__combat *cmb = clv__alloc(&a->al, (size_t)a->ent_cap * sizeof *cmb);
        if (cmb == NULL) {
            return NULL;
        }
        memset(cmb, 0, (size_t)a->ent_cap * sizeof *cmb);
        for (int32_t i = 0; i < a->ent_cap; i++) {
            cmb[i] = clv__combat_default();
        }
        a->cmb = cmb;
    }
    return a->cmb != NULL ? &a->cmb[s] : NULL;
}

/* ---- compiled bodies ---- */

static void abody_free(clv_arena *a, clv__abody *b) {
    clv__free(&a->al, b->anims, (size_t)b->anim_count * sizeof *b->anims);
    clv__free(&a->al, b->frame_base, (size_t)b->anim_count * sizeof *b->frame_base);
    clv__free(&a->al, b->frame_start, (size_t)(b->frame_total + 1) * sizeof *b->frame_start);
    clv__free(&a->al, b->boxes, (size_t)b->box_count * sizeof *b->boxes);
}

void clv__bodies_free(clv_arena *a) {
    for (int32_t i = 0; i < a->body_count; i++) {
        abody_free(a, &a->bodies[i]);
    }
    clv__free(&a->al, a->bodies, (size_t)a->body_cap * sizeof *a->bodies);
    a->bodies = NULL;
    a->body_count = a->body_cap = 0;
}

/* Counts the body's frames and hurtboxes into b (anims set); false when a count overflows. */
static bool count_body(const clv_body *src, clv__abody *b) {
    int64_t frames = 0, boxes = 0;
    for (int32_t i = 0; i < b->anim_count; i++) {
        const clv_animation_def *ad = clv_body_animation(src, i);
        frames += ad->frames;
        for (int32_t f = 0; f < ad->frames; f++) {
            int32_t n = 0;
            (void)clv_body_hurtboxes(src, i, f, &n);
            boxes += n;
        }
    }
    if (frames > CLV_BODY_MAX_FRAMES || boxes > (int64_t)CLV_BODY_MAX_FRAMES * 16) {
        return false;
    }
    b->frame_total = (int32_t)frames;
    b->box_count = (int32_t)boxes;
    return true;
}

/* Fills the counted arrays of b from src, frame by frame. */
static void file_body(const clv_body *src, clv__abody *b) {
    int32_t f_all = 0, k_all = 0;
    b->reach = 0.0f;
    for (int32_t i = 0; i < b->anim_count; i++) {
        b->anims[i] = *clv_body_animation(src, i);
        b->frame_base[i] = f_all;
        for (int32_t f = 0; f < b->anims[i].frames; f++, f_all++) {
            int32_t n = 0;
            const clv_hurtbox_def *hb = clv_body_hurtboxes(src, i, f, &n);
            b->frame_start[f_all] = k_all;
            for (int32_t k = 0; k < n; k++) {
                b->boxes[k_all++] = hb[k];
                float r = clv__shape_reach(&hb[k].shape);
                b->reach = r > b->reach ? r : b->reach;
            }
        }
    }
    b->frame_start[f_all] = k_all;
}

clv_hit_status clv_arena_add_body(clv_arena *a, const clv_body *body, clv_body_id *out,
                                  clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (a == NULL || body == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, a == NULL ? "arena" : "body", "%s is NULL",
                             a == NULL ? "arena" : "body");
    }
    if (a->body_count == INT32_MAX - 1 || !clv__reserve(&a->al, (void **)&a->bodies, &a->body_cap,
                                                        a->body_count + 1, sizeof *a->bodies)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
    }
    clv__abody b;
    memset(&b, 0, sizeof b);
    memcpy(b.name, clv_body_name(body), strlen(clv_body_name(body)) + 1);
    b.anim_count = clv_body_animation_count(body);
    b.guard = clv_body_guard(body);
    if (!count_body(body, &b)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "frames", "the body is too large");
    }
    b.anims = clv__alloc(&a->al, (size_t)b.anim_count * sizeof *b.anims);
    b.frame_base = clv__alloc(&a->al, (size_t)b.anim_count * sizeof *b.frame_base);
    b.frame_start = clv__alloc(&a->al, (size_t)(b.frame_total + 1) * sizeof *b.frame_start);
    b.boxes = clv__alloc(&a->al, (size_t)b.box_count * sizeof *b.boxes);
    bool ok = (b.anim_count == 0 || (b.anims != NULL && b.frame_base != NULL)) &&
              b.frame_start != NULL && (b.box_count == 0 || b.boxes != NULL);
    if (!ok) {
        abody_free(a, &b);
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "", "out of memory");
    }
    a->bodies[a->body_count] = b;
    clv__abody *nb = &a->bodies[a->body_count];
    file_body(body, nb);
    nb->fingerprint = clv__body_fingerprint(nb);
    a->body_count++;
    if (out != NULL) {
        out->index1 = (uint32_t)a->body_count;
        out->gen = 0;
    }
    return CLV_HIT_OK;
}

static const clv__abody *body_get(const clv_arena *a, clv_body_id id) {
    if (a == NULL || id.index1 == 0 || id.index1 > (uint32_t)a->body_count || id.gen != 0) {
        return NULL;
    }
    return &a->bodies[id.index1 - 1];
}

int32_t clv_arena_find_animation(const clv_arena *a, clv_body_id body, const char *name) {
    const clv__abody *b = body_get(a, body);
    for (int32_t i = 0; b != NULL && name != NULL && i < b->anim_count; i++) {
        if (strncmp(b->anims[i].name, name, CLV_HIT_NAME_MAX) == 0) {
            return i;
        }
    }
    return -1;
}

int32_t clv__body_frame(const clv__abody *b, const clv__combat *c) {
    const clv_animation_def *d = &b->anims[c->anim];
    int32_t shown = c->elapsed > 0 ? c->elapsed - 1 : 0; /* the step advances, then hits */
    if (shown < d->frames) {
        return shown;
    }
    return d->loop ? shown % d->frames : d->frames - 1;
}

bool clv__body_bounds(const clv_arena *a, int32_t s, clv_vec2 *centre, float *half) {
    if (a->cmb == NULL || a->cmb[s].body1 == 0) {
        return false;
    }
    float r = a->bodies[a->cmb[s].body1 - 1].reach;
    *centre = clv_v2(0.0f, 0.0f);
    /* > 0 marks a slot that can be hit; grown by a little for the rounding of placed boxes */
    *half = r + 1e-4f * r + 1e-30f;
    return true;
}

/* ---- entity state ---- */

/* The combat state of a live entity, allocated if needed; NULL with *st set otherwise. */
static clv__combat *live_combat(clv_arena *a, clv_entity_id id, clv_hit_status *st) {
    int32_t s = clv__entity_slot(a, id);
    if (s < 0) {
        *st = a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_STALE_ID;
        return NULL;
    }
    clv__combat *c = clv__combat_of(a, s);
    *st = c == NULL ? CLV_HIT_ERR_NO_MEMORY : CLV_HIT_OK;
    return c;
}

clv_hit_status clv_arena_play(clv_arena *a, clv_entity_id id, clv_body_id body, int32_t animation) {
    const clv__abody *b = body_get(a, body);
    if (a == NULL) {
        return CLV_HIT_ERR_NULL;
    }
    if (clv__entity_slot(a, id) < 0 || b == NULL) {
        return CLV_HIT_ERR_STALE_ID;
    }
    if (animation < 0 || animation >= b->anim_count) {
        return CLV_HIT_ERR_INDEX;
    }
    clv_hit_status st;
    clv__combat *c = live_combat(a, id, &st);
    if (c == NULL) {
        return st;
    }
    if (c->body1 != body.index1) {
        c->body1 = body.index1;
        c->guard_meter = b->guard.meter;
        c->guard_regen = b->guard.regen;
        c->guard_break = b->guard.guard_break;
        c->guard_all_round = b->guard.all_round ? 1 : 0;
        c->meter = b->guard.meter;
    }
    c->anim = animation;
    c->elapsed = 0;
    clv__entity_refresh_bounds(a, (int32_t)id.index1 - 1);
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_set_facing(clv_arena *a, clv_entity_id id, float facing, bool mirror) {
    if (!clv__finite(facing)) {
        return a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_NUMBER;
    }
    clv_hit_status st;
    clv__combat *c = live_combat(a, id, &st);
    if (c != NULL) {
        c->facing = facing;
        c->mirror = mirror ? 1 : 0;
    }
    return st;
}

clv_hit_status clv_arena_set_airborne(clv_arena *a, clv_entity_id id, bool airborne) {
    clv_hit_status st;
    clv__combat *c = live_combat(a, id, &st);
    if (c != NULL) {
        c->airborne = airborne ? 1 : 0;
    }
    return st;
}

clv_hit_status clv_arena_set_layers(clv_arena *a, clv_entity_id id, uint16_t layer, uint16_t mask) {
    clv_hit_status st;
    clv__combat *c = live_combat(a, id, &st);
    if (c != NULL) {
        c->layer = layer;
        c->mask = mask;
    }
    return st;
}

clv_hit_status clv_arena_set_armor(clv_arena *a, clv_entity_id id, clv_armor_kind armor,
                                   float heavy) {
    if ((int)armor < (int)CLV_ARMOR_NONE || (int)armor > (int)CLV_ARMOR_HEAVY) {
        return a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_ENUM;
    }
    if (armor == CLV_ARMOR_HEAVY && !(clv__in_world(heavy) && heavy > 0.0f)) {
        return a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_NUMBER;
    }
    clv_hit_status st;
    clv__combat *c = live_combat(a, id, &st);
    if (c != NULL) {
        c->armor = (int32_t)armor;
        c->heavy = armor == CLV_ARMOR_HEAVY ? heavy : 0.0f;
    }
    return st;
}

/* Ends the hold of slot s (held) and its grabber's side of it. */
void clv__release_slot(clv_arena *a, int32_t s) {
    clv__combat *c = &a->cmb[s];
    int32_t g = clv__entity_slot(a, c->held_by);
    if (g >= 0 && a->cmb[g].holding.index1 == (uint32_t)s + 1) {
        memset(&a->cmb[g].holding, 0, sizeof a->cmb[g].holding);
    }
    memset(&c->held_by, 0, sizeof c->held_by);
    c->hold = clv_v2(0.0f, 0.0f);
}

clv_hit_status clv_arena_release(clv_arena *a, clv_entity_id held) {
    int32_t s = clv__entity_slot(a, held);
    if (s < 0) {
        return a == NULL ? CLV_HIT_ERR_NULL : CLV_HIT_ERR_STALE_ID;
    }
    if (a->cmb == NULL || a->cmb[s].held_by.index1 == 0) {
        return CLV_HIT_ERR_STALE_ID;
    }
    clv__release_slot(a, s);
    return CLV_HIT_OK;
}

void clv__combat_forget(clv_arena *a, int32_t s) {
    if (a->cmb == NULL) {
        return;
    }
    if (a->cmb[s].held_by.index1 != 0) {
        clv__release_slot(a, s);
    }
    int32_t h = clv__entity_slot(a, a->cmb[s].holding);
    if (h >= 0) {
        clv__release_slot(a, h);
    }
    a->cmb[s] = clv__combat_default();
}

clv_hit_status clv_arena_throw(clv_arena *a, const clv_attack_start_def *def, clv_attack_id *out,
                               clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (a == NULL || def == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, a == NULL ? "arena" : "def", "%s is NULL",
                             a == NULL ? "arena" : "def");
    }
    int32_t s = clv__entity_slot(a, def->owner);
    int32_t h = s >= 0 && a->cmb != NULL ? clv__entity_slot(a, a->cmb[s].holding) : -1;
    if (h < 0) {
        return clv__diag_set(diag, CLV_HIT_ERR_STALE_ID, "owner",
                             "a throw needs an owner that holds a target");
    }
    clv_attack_id id;
    clv_hit_status st = clv_arena_start_attack(a, def, &id, diag);
    if (st != CLV_HIT_OK) {
        return st;
    }
    a->att[id.index1 - 1].throw = a->cmb[s].holding;
    if (out != NULL) {
        *out = id;
    }
    return CLV_HIT_OK;
}

clv_hit_status clv_arena_entity_body(const clv_arena *a, clv_entity_id id,
                                     clv_entity_body_info *out) {
    if (a == NULL || out == NULL) {
        return CLV_HIT_ERR_NULL;
    }
    int32_t s = clv__entity_slot(a, id);
    if (s < 0) {
        return CLV_HIT_ERR_STALE_ID;
    }
    clv__combat c = a->cmb != NULL ? a->cmb[s] : clv__combat_default();
    memset(out, 0, sizeof *out);
    out->body.index1 = c.body1;
    out->animation = c.body1 != 0 ? c.anim : -1;
    out->frame = c.body1 != 0 ? clv__body_frame(&a->bodies[c.body1 - 1], &c) : -1;
    out->elapsed = c.elapsed;
    out->facing = c.facing;
    out->mirror = c.mirror != 0;
    out->airborne = c.airborne != 0;
    out->layer = c.layer;
    out->mask = c.mask;
    out->armor = (clv_armor_kind)c.armor;
    out->heavy = c.heavy;
    out->guard.meter = c.guard_meter;
    out->guard.regen = c.guard_regen;
    out->guard.guard_break = c.guard_break;
    out->guard.all_round = c.guard_all_round != 0;
    out->guard_meter = c.meter;
    out->held_by = c.held_by;
    out->holding = c.holding;
    out->hold_offset = c.hold;
    return CLV_HIT_OK;
}
