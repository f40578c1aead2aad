/* `cleave check`: validate a mod and print its frame data, as a table, JSON, CSV or Markdown. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "check.h"
#include "cleave/body.h"
#include "cleave/mod.h"

/* Two hitboxes carry the same hit data when everything but the shape's place is equal. */
static bool same_hit(const clv_hitbox_def *a, const clv_hitbox_def *b) {
    return strcmp(a->id, b->id) == 0 && a->shape.type == b->shape.type && a->group == b->group &&
           a->damage == b->damage &&
           memcmp(&a->knockback, &b->knockback, sizeof a->knockback) == 0 &&
           a->max_hits == b->max_hits && a->hitlag == b->hitlag && a->hitstun == b->hitstun &&
           a->priority == b->priority && a->effect_count == b->effect_count &&
           a->knockback_ignores_hit_count == b->knockback_ignores_hit_count &&
           a->clash == b->clash && a->kind == b->kind && a->parry_stun == b->parry_stun &&
           a->blockstun == b->blockstun;
}

/* true when frame fr of the attack lists a hitbox with the same hit data as h. */
static bool frame_has_same(const app_picked *p, int32_t attack, int32_t fr,
                           const clv_hitbox_def *h) {
    for (int32_t j = 0;; j++) {
        const clv_hitbox_def *q = clv_arena_hitbox(p->arena, p->wid, attack, fr, j);
        if (q == NULL) {
            return false;
        }
        if (same_hit(q, h)) {
            return true;
        }
    }
}

/* Knockback units of a smash hit on the default target: the arena's (clv__smash_push) for a
 * middleweight (weight 1, so 100 in the formula) at 0 percent before the hit. */
static float smash_units(const clv_hitbox_def *h) {
    const clv_knockback *k = &h->knockback;
    clv_smash_hit s = {.damage = h->damage, .base = k->base, .growth = k->growth, .set = k->set};
    float kb = clv_smash_knockback(&s, 0.0f, 100.0f);
    return kb >= 0.0f ? kb : 0.0f; /* NaN beyond the formula's range: no push, as the arena */
}

/* The launch speed and hitstun of a hit on the default target. A grab holds: no push, no stun. */
static void push_numbers(const clv_hitbox_def *h, float *speed, int32_t *stun) {
    const clv_knockback *k = &h->knockback;
    *speed = 0.0f;
    *stun = 0;
    if (h->kind == CLV_HITBOX_GRAB || k->kind == CLV_KNOCKBACK_NONE) {
        return;
    }
    if (k->kind == CLV_KNOCKBACK_SMASH) {
        float units = smash_units(h);
        *speed = clv_smash_launch_speed(units);
        *stun = clv_smash_hitstun(units);
        return;
    }
    if (k->kind == CLV_KNOCKBACK_FIXED) {
        *speed = sqrtf(k->vector.x * k->vector.x + k->vector.y * k->vector.y);
    } else {
        *speed = k->base + k->growth * h->damage;
    }
    *stun = (int32_t)fminf(floorf(0.4f * *speed), 3600.0f);
}

/* The numbers of a hit on the default target (weight 1, 0 percent, on the ground), computed as
 * the arena computes them (docs/hit-rules.md, "Automatic hitlag and hitstun", and "Guard" for
 * blockstun), and the attacker's frame advantage when the hit lands or is blocked on the row's
 * first frame: both sides freeze for the same hitlag, so it is the target's hitstun (or
 * blockstun) less the attacker's frames left after that one. */
static void hit_numbers(const clv_hitbox_def *h, int32_t frames, check_row *r) {
    float speed;
    int32_t stun;
    push_numbers(h, &speed, &stun);
    float lag = floorf(h->damage * 0.3846154f + 5.0f) * h->hitlag_scale;
    r->kb_speed = speed;
    r->hitlag = h->hitlag != CLV_FRAMES_AUTO ? h->hitlag : (int32_t)fminf(floorf(lag), 3600.0f);
    r->hitstun = h->hitstun != CLV_FRAMES_AUTO && h->kind != CLV_HITBOX_GRAB ? h->hitstun : stun;
    float block = floorf(2.0f + 0.8f * h->damage);
    r->blockstun = h->blockstun != CLV_FRAMES_AUTO ? h->blockstun : (int32_t)fminf(block, 3600.0f);
    r->on_hit = r->hitstun - (frames - 1 - r->first);
    r->on_block = r->blockstun - (frames - 1 - r->first);
    r->blockable = h->kind != CLV_HITBOX_GRAB && !h->unblockable;
}

/* One row per run of consecutive frames where a hitbox id keeps the same hit data. */
static void attack_rows(const app_picked *p, int32_t attack, const app_attack_facts *f,
                        check_out *o) {
    for (int32_t fr = 0; fr < f->frames; fr++) {
        for (int32_t k = 0;; k++) {
            const clv_hitbox_def *h = clv_arena_hitbox(p->arena, p->wid, attack, fr, k);
            if (h == NULL) {
                break;
            }
            if (fr > 0 && frame_has_same(p, attack, fr - 1, h)) {
                continue;
            }
            check_row r = {.h = h, .first = fr, .last = fr};
            while (r.last + 1 < f->frames && frame_has_same(p, attack, r.last + 1, h)) {
                r.last++;
            }
            hit_numbers(h, f->frames, &r);
            o->fmt->hitbox(o, f, &r);
        }
    }
}

static bool check_weapon(app_picked *p, int32_t w, check_out *o) {
    int32_t first = clv_mod_weapon_first(p->mod, w);
    if (first != w) {
        /* one weapon under several names: its frame data once, under its first name */
        o->fmt->weapon(o, clv_mod_weapon_name(p->mod, w), clv_mod_weapon_name(p->mod, first), 0);
        return true;
    }
    if (!app_pick_weapon(p, w)) {
        return false;
    }
    int32_t na = clv_weapon_attack_count(p->weapon);
    o->fmt->weapon(o, p->weapon_name, NULL, na);
    for (int32_t a = 0; a < na; a++) {
        app_attack_facts f;
        bool ok = app_attack_facts_of(p->weapon, a, &f);
        o->fmt->attack(o, &f, ok);
        if (ok) {
            attack_rows(p, a, &f, o);
        }
    }
    return true;
}

static const char *const check_usage =
    "usage: cleave check <mod folder> [--format table|json|csv|markdown]";

/* Reads check's arguments; false (one line on stderr) when they are not usable. */
static bool check_args(int argc, char **argv, const char **dir, const check_format **fmt) {
    *dir = NULL;
    *fmt = app_check_format("table");
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, "cleave check: --format needs table, json, csv or markdown\n");
                return false;
            }
            *fmt = app_check_format(argv[++i]);
            if (*fmt == NULL) {
                fprintf(stderr,
                        "cleave check: --format needs table, json, csv or markdown (got '%s')\n",
                        argv[i]);
                return false;
            }
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "cleave check: unknown option '%s' (%s)\n", argv[i], check_usage);
            return false;
        } else if (*dir != NULL) {
            fprintf(stderr, "cleave check: unexpected argument '%s' (%s)\n", argv[i], check_usage);
            return false;
        } else {
            *dir = argv[i];
        }
    }
    if (*dir == NULL) {
        fprintf(stderr, "cleave check: no mod folder given (%s)\n", check_usage);
        return false;
    }
    return true;
}

int app_cmd_check(int argc, char **argv) {
    const char *dir;
    const check_format *fmt;
    if (!check_args(argc, argv, &dir, &fmt)) {
        return 2;
    }
    if (fmt->begin == NULL) {
        fprintf(stderr, "cleave check: --format %s is not available (%s)\n", fmt->name,
                fmt->missing);
        return 1;
    }
    char folder[1024];
    app_picked p;
    if (!app_pick_open(app_mod_folder(dir, folder, sizeof folder), &p)) {
        app_pick_close(&p);
        return 1;
    }
    check_out o = {.fmt = fmt};
    int32_t nw = clv_mod_weapon_count(p.mod);
    bool ok = fmt->begin(&o, clv_mod_name(p.mod), clv_mod_version(p.mod), dir, nw);
    for (int32_t w = 0; ok && w < nw; w++) {
        ok = check_weapon(&p, w, &o);
    }
    ok = fmt->end(&o, ok) && ok;
    app_pick_close(&p);
    return ok ? 0 : 1;
}
