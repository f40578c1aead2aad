/* Allocation, diagnostics and validation helpers. */
#include "hit_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *clv__alloc(const clv_allocator *al, size_t size) {
    if (size == 0) {
        size = 1;
    }
    if (al->alloc != NULL) {
        return al->alloc(size, al->ctx);
    }
    return malloc(size);
}

void clv__free(const clv_allocator *al, void *ptr, size_t size) {
    if (ptr == NULL) {
        return;
    }
    if (size == 0) {
        size = 1;
    }
    if (al->free != NULL) {
        al->free(ptr, size, al->ctx);
    } else {
        free(ptr);
    }
}

bool clv__reserve(const clv_allocator *al, void **ptr, int32_t *cap, int32_t need, size_t elem) {
    if (need <= *cap) {
        return true;
    }
    int64_t grown = *cap < 8 ? 8 : (int64_t)*cap * 2;
    while (grown < need) {
        grown *= 2;
    }
    if (grown > INT32_MAX) {
        grown = INT32_MAX;
    }
    if (grown < need || (uint64_t)grown > SIZE_MAX / elem) {
        return false;
    }
    void *fresh = clv__alloc(al, (size_t)grown * elem);
    if (fresh == NULL) {
        return false;
    }
    /* Zeroed so that padding bytes (copied by snapshots) are the same on every run. */
    memset(fresh, 0, (size_t)grown * elem);
    if (*ptr != NULL) {
        memcpy(fresh, *ptr, (size_t)*cap * elem);
        clv__free(al, *ptr, (size_t)*cap * elem);
    }
    *ptr = fresh;
    *cap = (int32_t)grown;
    return true;
}

void clv__diag_clear(clv_hit_diag *diag) {
    if (diag == NULL) {
        return;
    }
    memset(diag, 0, sizeof *diag);
    diag->code = CLV_HIT_OK;
    diag->attack = -1;
    diag->frame = -1;
    diag->hitbox = -1;
}

clv_hit_status clv__diag_set(clv_hit_diag *diag, clv_hit_status code, const char *field,
                             const char *fmt, ...) {
    if (diag == NULL) {
        return code;
    }
    diag->code = code;
    snprintf(diag->field, sizeof diag->field, "%s", field != NULL ? field : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
    return code;
}

void clv__diag_prefix(clv_hit_diag *diag, const char *fmt, ...) {
    if (diag == NULL) {
        return;
    }
    char prefix[128];
    char old[sizeof diag->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, diag->message, sizeof old);
    old[sizeof old - 1] = '\0';
    /* Joined by hand: the result is cut at the buffer's end, on purpose. */
    size_t cap = sizeof diag->message - 1, n = 0;
    for (const char *parts[3] = {prefix, ": ", old}, **q = parts; q < parts + 3; q++) {
        for (const char *c = *q; *c != '\0' && n < cap; c++) {
            diag->message[n++] = *c;
        }
    }
    diag->message[n] = '\0';
}

bool clv__finite(float v) { return isfinite(v) != 0; }

bool clv__in_world(float v) { return v >= -CLV_WORLD_LIMIT && v <= CLV_WORLD_LIMIT; }

bool clv__name_ok(const char *s) {
    if (s == NULL || s[0] == '\0') {
        return false;
    }
    for (int i = 0; i < CLV_HIT_NAME_MAX; i++) {
        if (s[i] == '\0') {
            return true;
        }
    }
    return false;
}

/* The verdict on v: a failure names the field as "field.sub", formatted only then (shapes are
 * checked for every spawn and every hitbox a weapon loads). */
static clv_hit_status check_num(float v, bool nonneg, const char *field, const char *sub,
                                clv_hit_diag *diag) {
    const char *rule = NULL;
    if (!clv__finite(v)) {
        rule = "must be finite";
    } else if (nonneg && v < 0.0f) {
        rule = "must be >= 0";
    } else if (!clv__in_world(v)) {
        rule = "must be within +-1e9";
    } else {
        return CLV_HIT_OK;
    }
    char name[64];
    snprintf(name, sizeof name, "%s.%s", field, sub);
    return clv__diag_set(diag, CLV_HIT_ERR_NUMBER, name, "%s %s (got %g)", name, rule, (double)v);
}

clv_hit_status clv__check_shape(const clv_shape *s, const char *field, clv_hit_diag *diag) {
    clv_hit_status st = CLV_HIT_OK;
    switch (s->type) {
    case CLV_POINT:
        if ((st = check_num(s->u.point.x, false, field, "x", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.point.y, false, field, "y", diag)) != CLV_HIT_OK) {
            return st;
        }
        return CLV_HIT_OK;
    case CLV_CIRCLE:
        if ((st = check_num(s->u.circle.c.x, false, field, "x", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.circle.c.y, false, field, "y", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.circle.r, true, field, "r", diag)) != CLV_HIT_OK) {
            return st;
        }
        return CLV_HIT_OK;
    case CLV_CAPSULE:
        if ((st = check_num(s->u.capsule.a.x, false, field, "ax", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.capsule.a.y, false, field, "ay", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.capsule.b.x, false, field, "bx", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.capsule.b.y, false, field, "by", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.capsule.r, true, field, "r", diag)) != CLV_HIT_OK) {
            return st;
        }
        return CLV_HIT_OK;
    case CLV_AABB:
        if ((st = check_num(s->u.aabb.min.x, false, field, "min_x", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.aabb.min.y, false, field, "min_y", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.aabb.max.x, false, field, "max_x", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.aabb.max.y, false, field, "max_y", diag)) != CLV_HIT_OK) {
            return st;
        }
        if (!(s->u.aabb.min.x <= s->u.aabb.max.x) || !(s->u.aabb.min.y <= s->u.aabb.max.y)) {
            return clv__diag_set(diag, CLV_HIT_ERR_SHAPE, field, "%s must have min <= max", field);
        }
        return CLV_HIT_OK;
    case CLV_OBB: {
        if ((st = check_num(s->u.obb.c.x, false, field, "cx", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.obb.c.y, false, field, "cy", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.obb.h.x, true, field, "half_w", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.obb.h.y, true, field, "half_h", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.obb.u.x, false, field, "ux", diag)) != CLV_HIT_OK ||
            (st = check_num(s->u.obb.u.y, false, field, "uy", diag)) != CLV_HIT_OK) {
            return st;
        }
        float len2 = s->u.obb.u.x * s->u.obb.u.x + s->u.obb.u.y * s->u.obb.u.y;
        if (!(fabsf(len2 - 1.0f) <= 2e-3f)) {
            return clv__diag_set(diag, CLV_HIT_ERR_SHAPE, field,
                                 "%s axis must have length 1 (got %g)", field, (double)sqrtf(len2));
        }
        return CLV_HIT_OK;
    }
    default:
        return clv__diag_set(diag, CLV_HIT_ERR_ENUM, field, "%s has an unknown shape type (%d)",
                             field, (int)s->type);
    }
}

const char *clv_hit_status_name(clv_hit_status status) {
    switch (status) {
    case CLV_HIT_OK:
        return "ok";
    case CLV_HIT_ERR_NULL:
        return "null argument";
    case CLV_HIT_ERR_NUMBER:
        return "bad number";
    case CLV_HIT_ERR_SHAPE:
        return "bad shape";
    case CLV_HIT_ERR_NAME:
        return "bad name";
    case CLV_HIT_ERR_INDEX:
        return "index out of range";
    case CLV_HIT_ERR_STALE_ID:
        return "stale id";
    case CLV_HIT_ERR_NO_MEMORY:
        return "out of memory";
    case CLV_HIT_ERR_SNAPSHOT:
        return "bad snapshot";
    case CLV_HIT_ERR_ENUM:
        return "bad enum value";
    case CLV_HIT_ERR_IN_USE:
        return "in use";
    }
    return "unknown status";
}

const char *clv_miss_reason_name(clv_miss_reason reason) {
    switch (reason) {
    case CLV_MISS_OUT_OF_REACH:
        return "out_of_reach";
    case CLV_MISS_TEAM:
        return "team";
    case CLV_MISS_DEAD:
        return "dead";
    case CLV_MISS_INTANGIBLE:
        return "intangible";
    case CLV_MISS_REHIT:
        return "rehit";
    case CLV_MISS_LOCKOUT:
        return "lockout";
    case CLV_MISS_PRECEDENCE:
        return "precedence";
    case CLV_MISS_MAX_HITS:
        return "max_hits";
    case CLV_MISS_MAX_TARGETS:
        return "max_targets";
    case CLV_MISS_CLANKED:
        return "clanked";
    case CLV_MISS_OUTPRIORITIZED:
        return "outprioritized";
    case CLV_MISS_TRANSCENDED:
        return "transcended";
    case CLV_MISS_PARRIED:
        return "parried";
    case CLV_MISS_REFLECTED:
        return "reflected";
    case CLV_MISS_ABSORBED:
        return "absorbed";
    case CLV_MISS_LAYER:
        return "layer";
    case CLV_MISS_AIRBORNE:
        return "airborne";
    case CLV_MISS_GROUNDED:
        return "grounded";
    case CLV_MISS_FACING:
        return "facing";
    case CLV_MISS_INTERRUPTED:
        return "interrupted";
    case CLV_MISS_NOT_THROWN:
        return "not_thrown";
    case CLV_MISS_REASON_COUNT:
        break;
    }
    return "unknown";
}

float clv__shape_reach(const clv_shape *s) {
    switch (s->type) {
    case CLV_CIRCLE:
        return hypotf(s->u.circle.c.x, s->u.circle.c.y) + s->u.circle.r;
    case CLV_CAPSULE:
        return fmaxf(hypotf(s->u.capsule.a.x, s->u.capsule.a.y),
                     hypotf(s->u.capsule.b.x, s->u.capsule.b.y)) +
               s->u.capsule.r;
    case CLV_OBB:
        return hypotf(s->u.obb.c.x, s->u.obb.c.y) + hypotf(s->u.obb.h.x, s->u.obb.h.y);
    default:
        return 0.0f;
    }
}
