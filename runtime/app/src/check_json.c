/* `cleave check --format json`: the frame data as one JSON document, built with cJSON. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "cleave/mod.h"

#ifdef CLEAVE_HAVE_CJSON
#include <cjson/cJSON.h>

struct check_json {
    cJSON *root, *weapons, *attacks;
    bool failed; /* out of memory somewhere: the document is not printed */
};

static void note(check_out *o, bool ok) { o->json->failed = o->json->failed || !ok; }

static void add_text(check_out *o, cJSON *obj, const char *key, const char *s) {
    char shown[1024];
    note(o, cJSON_AddStringToObject(obj, key, SHOWN(s, shown)) != NULL);
}

static void add_int(check_out *o, cJSON *obj, const char *key, int32_t v) {
    note(o, cJSON_AddNumberToObject(obj, key, (double)v) != NULL);
}

/* Floats as their shortest exact text: cJSON would print 0.1f as 0.10000000149011612. */
static void add_float(check_out *o, cJSON *obj, const char *key, float v) {
    char num[32];
    note(o, cJSON_AddRawToObject(obj, key, app_float_text(v, num, sizeof num)) != NULL);
}

/* A frame count the arena may compute: the number, or the string "auto". */
static void add_frames(check_out *o, cJSON *obj, const char *key, int32_t v) {
    if (v == CLV_FRAMES_AUTO) {
        add_text(o, obj, key, "auto");
    } else {
        add_int(o, obj, key, v);
    }
}

static bool json_begin(check_out *o, const char *mod, const char *version, const char *dir,
                       int32_t weapons) {
    (void)dir, (void)weapons;
    o->json = calloc(1, sizeof *o->json);
    if (o->json == NULL) {
        return false;
    }
    o->json->root = cJSON_CreateObject();
    note(o, o->json->root != NULL);
    if (o->json->root != NULL) {
        add_text(o, o->json->root, "mod", mod);
        add_text(o, o->json->root, "version", version);
        o->json->weapons = cJSON_AddArrayToObject(o->json->root, "weapons");
        note(o, o->json->weapons != NULL);
    }
    return true;
}

static void json_weapon(check_out *o, const char *name, const char *same_as, int32_t attacks) {
    (void)attacks;
    cJSON *w = cJSON_CreateObject();
    o->json->attacks = NULL;
    if (w == NULL || !cJSON_AddItemToArray(o->json->weapons, w)) {
        cJSON_Delete(w);
        note(o, false);
        return;
    }
    add_text(o, w, "name", name);
    if (same_as != NULL) {
        add_text(o, w, "same_as", same_as);
        return;
    }
    o->json->attacks = cJSON_AddArrayToObject(w, "attacks");
    note(o, o->json->attacks != NULL);
}

static void json_attack(check_out *o, const app_attack_facts *f, bool readable) {
    cJSON *a = cJSON_CreateObject();
    if (a == NULL || !cJSON_AddItemToArray(o->json->attacks, a)) {
        cJSON_Delete(a);
        note(o, false);
        return;
    }
    add_text(o, a, "name", f->name);
    if (!readable) {
        note(o, cJSON_AddFalseToObject(a, "readable") != NULL);
        return;
    }
    add_int(o, a, "frames", f->frames);
    add_int(o, a, "startup", f->startup);
    add_int(o, a, "active_first", f->active_first + 1);
    add_int(o, a, "active_last", f->active_last + 1);
    add_int(o, a, "active", f->active_count);
    add_int(o, a, "recovery", f->recovery);
    add_frames(o, a, "rebound", f->rebound);
    note(o, cJSON_AddArrayToObject(a, "hitboxes") != NULL);
}

static const char *const kb_kinds[] = {"none", "fixed", "scaling", "radial", "smash"};
static const char *const shape_names[] = {"point", "circle", "capsule", "aabb", "obb"};

/* The angle in degrees as a mod writes it; a smash hit's may be "sakurai". */
static void add_angle(check_out *o, cJSON *kb, const clv_knockback *k) {
    if (k->kind == CLV_KNOCKBACK_SMASH && k->sakurai) {
        add_text(o, kb, "angle", "sakurai");
    } else {
        add_float(o, kb, "angle", k->angle * (float)(180.0 / CLV_PI));
    }
}

/* A grab holds its target and pushes it nowhere, whatever knockback it names. */
static void add_knockback(check_out *o, cJSON *row, const check_row *r) {
    const clv_knockback *k = &r->h->knockback;
    clv_knockback_kind kind = r->h->kind == CLV_HITBOX_GRAB ? CLV_KNOCKBACK_NONE : k->kind;
    cJSON *kb = cJSON_AddObjectToObject(row, "knockback");
    if (kb == NULL) {
        note(o, false);
        return;
    }
    add_text(o, kb, "kind", (unsigned)kind < 5u ? kb_kinds[kind] : "?");
    if (kind == CLV_KNOCKBACK_FIXED) {
        add_float(o, kb, "x", k->vector.x);
        add_float(o, kb, "y", k->vector.y);
    } else if (kind != CLV_KNOCKBACK_NONE) {
        if (kind == CLV_KNOCKBACK_SCALING || kind == CLV_KNOCKBACK_SMASH) {
            add_angle(o, kb, k);
        }
        add_float(o, kb, "base", k->base);
        add_float(o, kb, "growth", k->growth);
        if (kind == CLV_KNOCKBACK_SMASH) {
            add_float(o, kb, "set", k->set);
        }
    }
    add_float(o, kb, "speed", r->kb_speed);
}

/* Blockstun and frame advantage on block: null for a hit no guard stops. */
static void add_block(check_out *o, cJSON *row, const check_row *r) {
    if (r->blockable) {
        add_int(o, row, "blockstun", r->blockstun);
        add_int(o, row, "on_block", r->on_block);
    } else {
        note(o, cJSON_AddNullToObject(row, "blockstun") != NULL);
        note(o, cJSON_AddNullToObject(row, "on_block") != NULL);
    }
}

static void json_hitbox(check_out *o, const app_attack_facts *f, const check_row *r) {
    (void)f;
    cJSON *last = cJSON_GetArrayItem(o->json->attacks, cJSON_GetArraySize(o->json->attacks) - 1);
    cJSON *rows = cJSON_GetObjectItemCaseSensitive(last, "hitboxes");
    cJSON *row = cJSON_CreateObject();
    if (row == NULL || !cJSON_AddItemToArray(rows, row)) {
        cJSON_Delete(row);
        note(o, false);
        return;
    }
    const clv_hitbox_def *h = r->h;
    add_text(o, row, "id", h->id);
    add_int(o, row, "first", r->first + 1);
    add_int(o, row, "last", r->last + 1);
    add_text(o, row, "shape", (unsigned)h->shape.type < 5u ? shape_names[h->shape.type] : "?");
    add_int(o, row, "group", h->group);
    add_float(o, row, "damage", h->damage);
    add_knockback(o, row, r);
    add_int(o, row, "max_hits", h->max_hits);
    add_int(o, row, "hitlag", r->hitlag);
    add_int(o, row, "hitstun", r->hitstun);
    add_int(o, row, "priority", h->priority);
    add_int(o, row, "on_hit", r->on_hit);
    add_block(o, row, r);
    add_text(o, row, "clash", app_clash_text(h->clash));
    add_text(o, row, "kind", app_kind_text(h->kind));
    if (h->kind == CLV_HITBOX_REFLECT) {
        add_float(o, row, "reflect_speed", h->reflect_speed);
        add_float(o, row, "reflect_damage", h->reflect_damage);
        add_text(o, row, "reflect_along", h->reflect_along_facing ? "facing" : "normal");
    }
    add_frames(o, row, "parry_stun", h->parry_stun);
}

static bool json_end(check_out *o, bool ok) {
    bool written = false;
    if (o->json == NULL) {
        fprintf(stderr, "cleave check: out of memory\n");
        return false;
    }
    char *text = ok && !o->json->failed ? cJSON_Print(o->json->root) : NULL;
    if (text != NULL) {
        written = puts(text) >= 0 && fflush(stdout) == 0;
    } else if (ok) {
        fprintf(stderr, "cleave check: out of memory\n");
    }
    cJSON_free(text);
    cJSON_Delete(o->json->root);
    free(o->json);
    o->json = NULL;
    return written || !ok;
}

const check_format app_check_json = {"json",      json_begin, json_weapon, json_attack,
                                     json_hitbox, json_end,   NULL};
#else
const check_format app_check_json = {
    "json",
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    "cleave was built without cJSON; Debian: apt-get install libcjson-dev, then rebuild"};
#endif
