/* The frames file writer: an attack as data (docs/modding.md, "Frames files"), in a stable,
 * diff-friendly form: one hitbox a line, fields always in the same order, every field written
 * (so the file means the same whatever defaults the mod sets), numbers in the shortest text
 * that reads back as the same float. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

/* The shortest "%.Ng" text of guess that reads back (times scale, as a float) as want: the
 * reader turns text into a double, multiplies it by scale and rounds it to a float. */
static const char *shortest(double guess, float want, double scale, char *buf, size_t n) {
    if (want == 0.0f) {
        snprintf(buf, n, signbit(want) ? "-0.0" : "0"); /* Lua reads "-0" as the integer 0 */
        return buf;
    }
    if (fabs(guess) < 1e9 && (float)(nearbyint(guess) * scale) == want) {
        snprintf(buf, n, "%.0f", nearbyint(guess) + 0.0); /* "20", never "2e+01" or "-0" */
        return buf;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, n, "%.*g", digits, guess);
        if ((float)(strtod(buf, NULL) * scale) == want) {
            return buf;
        }
    }
    return buf; /* %.17g of a float's double always reads back */
}

static const char *num(float v, char *buf, size_t n) { return shortest((double)v, v, 1.0, buf, n); }

/* A Lua string literal: quotes, backslashes and bytes outside printable ASCII escaped. */
static void put_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            fprintf(f, "\\%c", *p);
        } else if (*p < 32 || *p >= 127) {
            fprintf(f, "\\%03u", *p);
        } else {
            fputc(*p, f);
        }
    }
    fputc('"', f);
}

static void put_knockback(FILE *f, const clv_knockback *k) {
    static const char *const kinds[] = {"none", "fixed", "scaling", "radial", "smash"};
    char a[40], b[40], c[40];
    fprintf(f, "knockback = { kind = \"%s\"", kinds[(unsigned)k->kind < 5u ? k->kind : 0]);
    if (k->kind == CLV_KNOCKBACK_FIXED) {
        fprintf(f, ", x = %s, y = %s", num(k->vector.x, a, 40), num(k->vector.y, b, 40));
    } else if (k->kind == CLV_KNOCKBACK_SCALING || k->kind == CLV_KNOCKBACK_RADIAL) {
        if (k->kind == CLV_KNOCKBACK_SCALING) {
            /* degrees, as a mod writes them; the reader turns them back into these radians */
            fprintf(f, ", angle = %s",
                    shortest((double)k->angle * (180.0 / CLV_PI), k->angle, CLV_PI / 180.0, a, 40));
        }
        fprintf(f, ", base = %s, growth = %s", num(k->base, b, 40), num(k->growth, c, 40));
    } else if (k->kind == CLV_KNOCKBACK_SMASH) {
        if (k->sakurai) {
            fputs(", angle = \"sakurai\"", f);
        } else {
            fprintf(f, ", angle = %s",
                    shortest((double)k->angle * (180.0 / CLV_PI), k->angle, CLV_PI / 180.0, a, 40));
        }
        fprintf(f, ", base = %s, growth = %s", num(k->base, b, 40), num(k->growth, c, 40));
        fprintf(f, ", set = %s", num(k->set, a, 40));
    }
    fputs(" }", f);
}

static void put_effects(FILE *f, const clv_hitbox_def *h) {
    char m[40];
    fputs("effects = {", f);
    for (int32_t e = 0; e < h->effect_count; e++) {
        const clv_effect_def *d = &h->effects[e];
        fputs(e > 0 ? ", { name = " : " { name = ", f);
        put_string(f, d->name);
        fprintf(f, ", duration = %d, period = %d, magnitude = %s, damages = %s }", (int)d->duration,
                (int)d->period, num(d->magnitude, m, 40), d->damages ? "true" : "false");
    }
    fputs(h->effect_count > 0 ? " }" : "}", f);
}

static void put_frames_auto(FILE *f, const char *key, int32_t v) {
    if (v == CLV_FRAMES_AUTO) {
        fprintf(f, ", %s = \"auto\"", key);
    } else {
        fprintf(f, ", %s = %d", key, (int)v);
    }
}

/* How the hitbox meets other attacks and projectiles. */
static void put_meeting(FILE *f, const clv_hitbox_def *h) {
    static const char *const clash[] = {"normal", "transcend", "trade"};
    static const char *const kind[] = {"hit", "reflect", "absorb", "grab"};
    char sp[40], dm[40];
    fprintf(f, ", clash = \"%s\"", clash[(unsigned)h->clash < 3u ? h->clash : 0]);
    put_frames_auto(f, "parry_stun", h->parry_stun);
    fprintf(f, ", kind = \"%s\", reflect_speed = %s, reflect_damage = %s, reflect_along = \"%s\"",
            kind[(unsigned)h->kind < 4u ? h->kind : 0], num(h->reflect_speed, sp, 40),
            num(h->reflect_damage, dm, 40), h->reflect_along_facing ? "facing" : "normal");
}

/* How the hitbox meets bodies that defend: every field, since a weapon's `defaults` may give
 * any of them and the file must mean the same under any defaults. */
static void put_defence(FILE *f, const clv_hitbox_def *h) {
    static const char *const hits[] = {"auto", "ground", "air", "both"};
    static const char *const facing[] = {"any", "away", "front", "behind"};
    char a[40], b[40];
    fprintf(f, ", chip = %s", num(h->chip, a, 40));
    put_frames_auto(f, "blockstun", h->blockstun);
    fprintf(f, ", shield_damage = %s, unblockable = %s", num(h->shield_damage, a, 40),
            h->unblockable ? "true" : "false");
    fprintf(f, ", hits = \"%s\", facing_restrict = \"%s\"",
            hits[(unsigned)h->hits < 4u ? h->hits : 0],
            facing[(unsigned)h->facing_restrict < 4u ? h->facing_restrict : 0]);
    fprintf(f, ", layer = %d, mask = %d, grab_offset = { %s, %s }", (int)h->layer, (int)h->mask,
            num(h->grab_offset.x, a, 40), num(h->grab_offset.y, b, 40));
}

/* The shape's fields; false for a shape a frames file cannot hold. */
static bool put_shape(FILE *f, const clv_shape *s) {
    char a[40], b[40], c[40], d[40], r[40];
    if (s->type == CLV_CAPSULE) {
        fprintf(f, "ax = %s, ay = %s, bx = %s, by = %s, radius = %s", num(s->u.capsule.a.x, a, 40),
                num(s->u.capsule.a.y, b, 40), num(s->u.capsule.b.x, c, 40),
                num(s->u.capsule.b.y, d, 40), num(s->u.capsule.r, r, 40));
        return true;
    }
    if (s->type == CLV_CIRCLE) {
        fprintf(f, "x = %s, y = %s, radius = %s", num(s->u.circle.c.x, a, 40),
                num(s->u.circle.c.y, b, 40), num(s->u.circle.r, r, 40));
        return true;
    }
    return false;
}

bool app_frames_put_hitbox(FILE *f, const clv_hitbox_def *h) {
    char v[40];
    fputs("{ id = ", f);
    put_string(f, h->id);
    fputs(", ", f);
    if (!put_shape(f, &h->shape)) {
        return false;
    }
    if (h->group == CLV_GROUP_NONE) {
        fputs(", group = false", f);
    } else {
        fprintf(f, ", group = %d", (int)h->group);
    }
    fprintf(f, ", damage = %s, ", num(h->damage, v, 40));
    put_knockback(f, &h->knockback);
    fprintf(f, ", max_hits = %d, knockback_ignores_hit_count = %s", (int)h->max_hits,
            h->knockback_ignores_hit_count ? "true" : "false");
    put_frames_auto(f, "hitlag", h->hitlag);
    fprintf(f, ", hitlag_scale = %s", num(h->hitlag_scale, v, 40));
    put_frames_auto(f, "hitstun", h->hitstun);
    fprintf(f, ", priority = %d, sweep = %s, ", (int)h->priority, h->sweep ? "true" : "false");
    put_effects(f, h);
    put_meeting(f, h);
    put_defence(f, h);
    fputs(" }", f);
    return true;
}

static bool same_shape(const clv_shape *a, const clv_shape *b) {
    if (a->type != b->type) {
        return false;
    }
    if (a->type == CLV_CAPSULE) {
        return a->u.capsule.a.x == b->u.capsule.a.x && a->u.capsule.a.y == b->u.capsule.a.y &&
               a->u.capsule.b.x == b->u.capsule.b.x && a->u.capsule.b.y == b->u.capsule.b.y &&
               a->u.capsule.r == b->u.capsule.r;
    }
    if (a->type == CLV_CIRCLE) {
        return a->u.circle.c.x == b->u.circle.c.x && a->u.circle.c.y == b->u.circle.c.y &&
               a->u.circle.r == b->u.circle.r;
    }
    return false; /* not written: the writer refuses it */
}

/* Two frames carry the same hurtboxes, in the same order. */
static bool same_hurtboxes(const clv_hurtbox_def *a, int32_t na, const clv_hurtbox_def *b,
                           int32_t nb) {
    if (na != nb) {
        return false;
    }
    for (int32_t k = 0; k < na; k++) {
        if (strcmp(a[k].id, b[k].id) != 0 || a[k].state != b[k].state || a[k].heavy != b[k].heavy ||
            !same_shape(&a[k].shape, &b[k].shape)) {
            return false;
        }
    }
    return true;
}

/* One carried hurtbox over 0-based frames first..last; false for a shape a file cannot hold. */
static bool put_hurtbox(FILE *f, const clv_hurtbox_def *h, int32_t first, int32_t last) {
    static const char *const states[] = {"normal", "invincible", "intangible", "armor"};
    char v[40];
    fputs("    { id = ", f);
    put_string(f, h->id);
    fprintf(f, ", frames = { %d, %d }, ", (int)first + 1, (int)last + 1);
    if (!put_shape(f, &h->shape)) {
        return false;
    }
    fprintf(f, ", state = \"%s\"", states[(unsigned)h->state < 4u ? h->state : 0]);
    if (h->state == CLV_HURTBOX_ARMOR && h->heavy > 0.0f) { /* heavy = 0 is super armor */
        fprintf(f, ", heavy = %s", num(h->heavy, v, 40));
    }
    fputs(" },\n", f);
    return true;
}

/* The hurtboxes the attack carries: one entry per hurtbox and run of frames that carry the same
 * list, so that each frame's list reads back in its order. */
static bool put_carried(FILE *f, const app_frames_src *src, char *err, size_t errlen) {
    bool any = false;
    for (int32_t fr = 0, last = 0; src->hurtboxes != NULL && fr < src->attack->frames;
         fr = last + 1) {
        int32_t n, m;
        const clv_hurtbox_def *hb = src->hurtboxes(src->ud, fr, &n);
        for (last = fr; last + 1 < src->attack->frames; last++) {
            const clv_hurtbox_def *next = src->hurtboxes(src->ud, last + 1, &m);
            if (!same_hurtboxes(hb, n, next, m)) {
                break;
            }
        }
        for (int32_t k = 0; k < n; k++) {
            fputs(any ? "" : "  hurtboxes = {\n", f);
            any = true;
            if (!put_hurtbox(f, &hb[k], fr, last)) {
                snprintf(err, errlen,
                         "frame %d: carried hurtbox '%s' is not a capsule or a circle, which is "
                         "all a frames file holds",
                         (int)fr + 1, hb[k].id);
                return false;
            }
        }
    }
    fputs(any ? "  },\n" : "", f);
    return true;
}

/* Writes the whole file to f; false with err set when a hitbox or hurtbox cannot be written. */
static bool put_attack(FILE *f, const app_frames_src *src, char *err, size_t errlen) {
    const clv_attack_def *a = src->attack;
    fputs("-- ", f);
    fprintf(f,
            "%s/%s: %d frames, one hitbox a line in precedence order (cleave bake writes "
            "this form; see docs/modding.md, \"Frames files\")\n",
            src->weapon_name, a->name, (int)a->frames);
    fprintf(f, "return {\n  length = %d, rehit = %d, max_targets = %d, lockout = %d,",
            (int)a->frames, (int)a->rehit, (int)a->max_targets, (int)a->lockout);
    if (a->rebound != CLV_FRAMES_AUTO) { /* the attack's field has no "auto": left out then */
        fprintf(f, " rebound = %d,", (int)a->rebound);
    }
    fputs("\n", f);
    fputs("  frames = {\n", f);
    for (int32_t fr = 0; fr < a->frames; fr++) {
        const clv_hitbox_def *h = src->hitbox(src->ud, fr, 0);
        if (h == NULL) {
            continue;
        }
        fprintf(f, "    [%d] = {\n", (int)fr + 1);
        for (int32_t k = 0; h != NULL; h = src->hitbox(src->ud, fr, ++k)) {
            fputs("      ", f);
            if (!app_frames_put_hitbox(f, h)) {
                snprintf(err, errlen,
                         "frame %d: hitbox '%s' is not a capsule or a circle, which is all a "
                         "frames file holds",
                         (int)fr + 1, h->id);
                return false;
            }
            fputs(",\n", f);
        }
        fputs("    },\n", f);
    }
    fputs("  },\n", f);
    if (!put_carried(f, src, err, errlen)) {
        return false;
    }
    fputs("}\n", f);
    return true;
}

bool app_frames_write(const char *path, const app_frames_src *src, char *err, size_t errlen) {
    /* written beside it and renamed over it, so a reader (the demo's hot reload) never sees
     * half a file */
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL) {
        snprintf(err, errlen, "cannot write %s", tmp);
        return false;
    }
    bool ok = put_attack(f, src, err, errlen);
    if (fclose(f) != 0 && ok) {
        snprintf(err, errlen, "cannot write %s", tmp);
        ok = false;
    }
    if (ok && rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot rename %s to %s", tmp, path);
        ok = false;
    }
    if (!ok) {
        remove(tmp);
    }
    return ok;
}
