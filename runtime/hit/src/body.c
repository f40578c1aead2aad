/* Bodies: named animations whose frames hold hurtbox lists, checked as they are built. */
#include "hit_internal.h"

#include <string.h>

#include "cleave/body.h"

/* One frame's hurtboxes, grown as they are added (at most CLV_BODY_MAX_HURTBOXES). */
typedef struct frame_boxes {
    clv_hurtbox_def *boxes;
    int32_t count, cap;
} frame_boxes;

typedef struct anim {
    clv_animation_def def;
    frame_boxes *frames; /* def.frames of them */
} anim;

struct clv_body {
    clv_allocator al;
    char name[CLV_HIT_NAME_MAX];
    anim *anims;
    int32_t anim_count, anim_cap;
    int32_t total_frames;
    clv_guard_def guard;
};

clv_guard_def clv_default_guard_def(void) {
    clv_guard_def d;
    memset(&d, 0, sizeof d);
    d.meter = 50.0f;
    d.regen = 0.1f;
    d.guard_break = 120;
    return d;
}

clv_hit_status clv_body_set_guard(clv_body *body, const clv_guard_def *def, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (body == NULL || def == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, "guard", "body or guard is NULL");
    }
    if (!clv__in_world(def->meter) || !(def->meter > 0.0f)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "guard.meter",
                             "guard.meter must be > 0 and finite (got %g)", (double)def->meter);
    }
    if (!clv__in_world(def->regen) || !(def->regen >= 0.0f)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "guard.regen",
                             "guard.regen must be >= 0 and finite (got %g)", (double)def->regen);
    }
    if (def->guard_break < 0 || def->guard_break > 3600) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "guard.guard_break",
                             "guard.guard_break must be in 0..3600 (got %d)",
                             (int)def->guard_break);
    }
    body->guard = *def;
    return CLV_HIT_OK;
}

clv_guard_def clv_body_guard(const clv_body *body) { return body->guard; }

clv_hurtbox_def clv_default_hurtbox_def(void) {
    clv_hurtbox_def d;
    memset(&d, 0, sizeof d);
    d.shape.type = CLV_CIRCLE;
    d.shape.u.circle.r = 8.0f;
    d.state = CLV_HURTBOX_NORMAL;
    return d;
}

clv_hit_status clv_hurtbox_def_check(const clv_hurtbox_def *def, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (def == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, "def", "hurtbox def is NULL");
    }
    if (!clv__name_ok(def->id)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NAME, "id",
                             "id must be a non-empty name shorter than %d bytes", CLV_HIT_NAME_MAX);
    }
    clv_shape_type t = def->shape.type;
    if (t != CLV_CAPSULE && t != CLV_CIRCLE && t != CLV_OBB) {
        return clv__diag_set(diag, CLV_HIT_ERR_SHAPE, "shape",
                             "shape must be a capsule, circle or obb (got type %d)", (int)t);
    }
    clv_hit_status st = clv__check_shape(&def->shape, "shape", diag);
    if (st != CLV_HIT_OK) {
        return st;
    }
    if ((int)def->state < (int)CLV_HURTBOX_NORMAL || (int)def->state > (int)CLV_HURTBOX_ARMOR) {
        return clv__diag_set(diag, CLV_HIT_ERR_ENUM, "state",
                             "state must be normal, invincible, intangible or armor (got %d)",
                             (int)def->state);
    }
    if (!clv__in_world(def->heavy) || def->heavy < 0.0f) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "heavy",
                             "heavy must be >= 0 and finite (got %g)", (double)def->heavy);
    }
    return CLV_HIT_OK;
}

clv_body *clv_body_create(const char *name, const clv_allocator *al, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (name == NULL || name[0] == '\0' || strlen(name) >= CLV_HIT_NAME_MAX) {
        clv__diag_set(diag, CLV_HIT_ERR_NAME, "name",
                      "name must be a non-empty name shorter than %d bytes", CLV_HIT_NAME_MAX);
        return NULL;
    }
    clv_allocator use = {NULL, NULL, NULL};
    if (al != NULL) {
        use = *al;
    }
    clv_body *b = (clv_body *)clv__alloc(&use, sizeof *b);
    if (b == NULL) {
        clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "body", "out of memory");
        return NULL;
    }
    memset(b, 0, sizeof *b);
    b->al = use;
    memcpy(b->name, name, strlen(name) + 1);
    b->guard = clv_default_guard_def();
    return b;
}

void clv_body_destroy(clv_body *body) {
    if (body == NULL) {
        return;
    }
    clv_allocator al = body->al;
    for (int32_t i = 0; i < body->anim_count; i++) {
        anim *an = &body->anims[i];
        for (int32_t f = 0; f < an->def.frames; f++) {
            clv__free(&al, an->frames[f].boxes,
                      (size_t)an->frames[f].cap * sizeof(clv_hurtbox_def));
        }
        clv__free(&al, an->frames, (size_t)an->def.frames * sizeof *an->frames);
    }
    clv__free(&al, body->anims, (size_t)body->anim_cap * sizeof *body->anims);
    clv__free(&al, body, sizeof *body);
}

clv_hit_status clv_body_add_animation(clv_body *body, const clv_animation_def *def,
                                      int32_t *out_index, clv_hit_diag *diag) {
    clv__diag_clear(diag);
    if (body == NULL || def == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, "body", "body or def is NULL");
    }
    if (!clv__name_ok(def->name)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NAME, "name",
                             "name must be a non-empty name shorter than %d bytes",
                             CLV_HIT_NAME_MAX);
    }
    if (clv_body_find_animation(body, def->name) >= 0) {
        return clv__diag_set(diag, CLV_HIT_ERR_NAME, "name", "animation '%s' already exists",
                             def->name);
    }
    if (def->frames < 1 || def->frames > CLV_BODY_MAX_FRAMES - body->total_frames) {
        return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "frames",
                             "frames must be in 1..%d (the body's animations together at most "
                             "%d; got %d)",
                             CLV_BODY_MAX_FRAMES - body->total_frames, CLV_BODY_MAX_FRAMES,
                             (int)def->frames);
    }
    if (!clv__reserve(&body->al, (void **)&body->anims, &body->anim_cap, body->anim_count + 1,
                      sizeof *body->anims)) {
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "animations", "out of memory");
    }
    size_t bytes = (size_t)def->frames * sizeof(frame_boxes);
    frame_boxes *frames = (frame_boxes *)clv__alloc(&body->al, bytes);
    if (frames == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "frames", "out of memory");
    }
    memset(frames, 0, bytes);
    anim *an = &body->anims[body->anim_count];
    an->def = *def;
    an->def.name[CLV_HIT_NAME_MAX - 1] = '\0';
    an->frames = frames;
    body->total_frames += def->frames;
    if (out_index != NULL) {
        *out_index = body->anim_count;
    }
    body->anim_count++;
    return CLV_HIT_OK;
}

/* The first frame of first..last where id is already used, or -1. */
static int32_t id_taken(const anim *an, int32_t first, int32_t last, const char *id) {
    for (int32_t f = first; f <= last; f++) {
        const frame_boxes *fb = &an->frames[f];
        for (int32_t k = 0; k < fb->count; k++) {
            if (strcmp(fb->boxes[k].id, id) == 0) {
                return f;
            }
        }
    }
    return -1;
}

clv_hit_status clv_body_add_hurtbox(clv_body *body, int32_t animation, int32_t first_frame,
                                    int32_t last_frame, const clv_hurtbox_def *def,
                                    clv_hit_diag *diag) {
    clv_hit_status st = clv_hurtbox_def_check(def, diag);
    if (st != CLV_HIT_OK) {
        return st;
    }
    if (body == NULL) {
        return clv__diag_set(diag, CLV_HIT_ERR_NULL, "body", "body is NULL");
    }
    if (animation < 0 || animation >= body->anim_count) {
        return clv__diag_set(diag, CLV_HIT_ERR_INDEX, "animation",
                             "animation %d does not exist (the body has %d)", (int)animation,
                             (int)body->anim_count);
    }
    struct anim *an = &body->anims[animation];
    if (first_frame < 0 || last_frame < first_frame || last_frame >= an->def.frames) {
        return clv__diag_set(diag, CLV_HIT_ERR_INDEX, "frames",
                             "frames %d..%d are not within the animation's 1..%d",
                             (int)first_frame + 1, (int)last_frame + 1, (int)an->def.frames);
    }
    int32_t taken = id_taken(an, first_frame, last_frame, def->id);
    if (taken >= 0) {
        return clv__diag_set(diag, CLV_HIT_ERR_NAME, "id",
                             "hurtbox id '%s' is used twice on frame %d", def->id, (int)taken + 1);
    }
    for (int32_t f = first_frame; f <= last_frame; f++) {
        if (an->frames[f].count == CLV_BODY_MAX_HURTBOXES) {
            return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, "hurtboxes",
                                 "frame %d already holds %d hurtboxes, the most a frame may",
                                 (int)f + 1, CLV_BODY_MAX_HURTBOXES);
        }
    }
    for (int32_t f = first_frame; f <= last_frame; f++) {
        frame_boxes *fb = &an->frames[f];
        if (!clv__reserve(&body->al, (void **)&fb->boxes, &fb->cap, fb->count + 1,
                          sizeof *fb->boxes)) {
            /* frames before f hold the hurtbox already: take it back so nothing changed */
            for (int32_t g = first_frame; g < f; g++) {
                an->frames[g].count--;
            }
            return clv__diag_set(diag, CLV_HIT_ERR_NO_MEMORY, "hurtboxes", "out of memory");
        }
        fb->boxes[fb->count] = *def;
        fb->boxes[fb->count].id[CLV_HIT_NAME_MAX - 1] = '\0';
        fb->count++;
    }
    return CLV_HIT_OK;
}

const char *clv_body_name(const clv_body *body) { return body->name; }

int32_t clv_body_animation_count(const clv_body *body) { return body->anim_count; }

int32_t clv_body_find_animation(const clv_body *body, const char *name) {
    for (int32_t i = 0; name != NULL && i < body->anim_count; i++) {
        if (strcmp(body->anims[i].def.name, name) == 0) {
            return i;
        }
    }
    return -1;
}

const clv_animation_def *clv_body_animation(const clv_body *body, int32_t index) {
    if (index < 0 || index >= body->anim_count) {
        return NULL;
    }
    return &body->anims[index].def;
}

int32_t clv_body_frame_at(const clv_body *body, int32_t animation, int64_t elapsed) {
    if (animation < 0 || animation >= body->anim_count || elapsed < 0) {
        return -1;
    }
    const clv_animation_def *d = &body->anims[animation].def;
    if (elapsed < d->frames) {
        return (int32_t)elapsed;
    }
    return d->loop ? (int32_t)(elapsed % d->frames) : d->frames - 1;
}

const clv_hurtbox_def *clv_body_hurtboxes(const clv_body *body, int32_t animation, int32_t frame,
                                          int32_t *count) {
    *count = 0;
    if (animation < 0 || animation >= body->anim_count || frame < 0 ||
        frame >= body->anims[animation].def.frames) {
        return NULL;
    }
    const frame_boxes *fb = &body->anims[animation].frames[frame];
    *count = fb->count;
    return fb->count > 0 ? fb->boxes : NULL;
}
