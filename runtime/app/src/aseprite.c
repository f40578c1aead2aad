/* Aseprite's JSON export (File > Export Sprite Sheet, "JSON Data" with slices) as an attack.
 *
 * Sprite frames last `duration` milliseconds; the attack runs at 60 Hz, so each lasts
 * round(duration * 60 / 1000) frames (at least one). A slice is a hitbox: its name is the id
 * (a "capsule:" or "circle:" prefix picks the shape), its user data the hit data
 * ("damage=5 angle=-30 base=2 growth=0.1 group=0 priority=1 max_hits=1 hitlag=6 hitstun=10
 * shape=circle"). A key of a slice holds from its frame to the next key's; a key with an empty
 * rectangle ends it. A rectangle becomes a capsule along its long axis (its radius half the
 * short side), or a circle. The wielder stands at the pivot of the slice named "origin", else
 * at the centre of the first frame. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aseprite.h"

#ifdef CLEAVE_HAVE_CJSON
#include <cjson/cJSON.h>

/* The reader's place: the JSON path every message names, and the output. */
typedef struct ase {
    char path[256];
    size_t plen;
    char *err;
    size_t errlen;
    app_aseprite *out;
    int32_t sprite_frames;
    clv_vec2 origin;
} ase;

static size_t path_key(ase *s, const char *key) {
    size_t old = s->plen;
    int n = snprintf(s->path + old, sizeof s->path - old, "%s%s", old ? "." : "", key);
    s->plen = n > 0 && (size_t)n < sizeof s->path - old ? old + (size_t)n : old;
    return old;
}

static size_t path_index(ase *s, int i) {
    size_t old = s->plen;
    int n = snprintf(s->path + old, sizeof s->path - old, "[%d]", i);
    s->plen = n > 0 && (size_t)n < sizeof s->path - old ? old + (size_t)n : old;
    return old;
}

static void path_pop(ase *s, size_t old) {
    s->plen = old;
    s->path[old] = '\0';
}

/* Sets the error "path: message"; always false. */
static bool fail(ase *s, const char *msg, const char *detail) {
    snprintf(s->err, s->errlen, "%s: %s%s", s->plen ? s->path : "(top)", msg, detail);
    return false;
}

static void note(ase *s, const char *fmt, const char *a, const char *b) {
    size_t used = strlen(s->out->notes);
    snprintf(s->out->notes + used, sizeof s->out->notes - used, fmt, a, b);
}

/* The member key of obj, which must be of the type is() accepts. */
static const cJSON *member(ase *s, const cJSON *obj, const char *key,
                           cJSON_bool (*is)(const cJSON *const), const char *what) {
    size_t old = path_key(s, key);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (v == NULL) {
        fail(s, "missing (", what);
        strncat(s->err, " expected)", s->errlen - strlen(s->err) - 1);
        return NULL;
    }
    if (!is(v)) {
        fail(s, "expected ", what);
        return NULL;
    }
    path_pop(s, old);
    return v;
}

/* A number member, finite and within lo..hi. */
static bool number(ase *s, const cJSON *obj, const char *key, double lo, double hi, double *out) {
    const cJSON *v = member(s, obj, key, cJSON_IsNumber, "a number");
    if (v == NULL) {
        return false;
    }
    if (!isfinite(v->valuedouble) || v->valuedouble < lo || v->valuedouble > hi) {
        size_t old = path_key(s, key);
        char range[64];
        snprintf(range, sizeof range, "%g..%g", lo, hi);
        fail(s, "must be in ", range);
        path_pop(s, old);
        return false;
    }
    *out = v->valuedouble;
    return true;
}

/* A rectangle {x, y, w, h} member. */
static bool rect(ase *s, const cJSON *obj, const char *key, double r[4]) {
    const cJSON *b = member(s, obj, key, cJSON_IsObject, "an object {x, y, w, h}");
    if (b == NULL) {
        return false;
    }
    size_t old = path_key(s, key);
    bool ok = number(s, b, "x", -1e6, 1e6, &r[0]) && number(s, b, "y", -1e6, 1e6, &r[1]) &&
              number(s, b, "w", 0, 1e6, &r[2]) && number(s, b, "h", 0, 1e6, &r[3]);
    if (ok) {
        path_pop(s, old);
    }
    return ok;
}

/* ---- frames ---- */

/* 60 Hz frames a sprite frame of ms milliseconds lasts. */
static int32_t ticks_of(double ms) {
    double t = floor(ms * 60.0 / 1000.0 + 0.5);
    return t < 1.0 ? 1 : (int32_t)t;
}

/* The attack's sprite frames: the tag named attack, or all of them. */
static bool read_tag(ase *s, const cJSON *meta, const char *attack) {
    s->out->first = 0;
    s->out->last = s->sprite_frames - 1;
    const cJSON *tags = cJSON_GetObjectItemCaseSensitive(meta, "frameTags");
    if (!cJSON_IsArray(tags)) {
        tags = NULL;
    }
    int i = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, tags) {
        size_t old = path_key(s, "meta.frameTags");
        path_index(s, i++);
        const cJSON *name = member(s, t, "name", cJSON_IsString, "a string");
        if (name == NULL) {
            return false;
        }
        double from, to;
        if (strcmp(name->valuestring, attack) == 0) {
            double hi = s->sprite_frames - 1;
            if (!number(s, t, "from", 0, hi, &from) || !number(s, t, "to", from, hi, &to)) {
                return false;
            }
            s->out->first = (int32_t)from, s->out->last = (int32_t)to;
            path_pop(s, old);
            return true;
        }
        path_pop(s, old);
    }
    note(s, "no frame tag is named '%s': the attack is every frame of the sheet%s\n", attack, "");
    return true;
}

static bool read_frames(ase *s, const cJSON *root, const char *attack) {
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(root, "frames");
    if (!cJSON_IsArray(frames) && !cJSON_IsObject(frames)) {
        path_key(s, "frames");
        return fail(s, "expected an array or an object of frames", "");
    }
    s->sprite_frames = cJSON_GetArraySize(frames);
    if (s->sprite_frames < 1 || s->sprite_frames > APP_ASE_MAX_SPRITE_FRAMES) {
        path_key(s, "frames");
        return fail(s, "must hold 1 to 1024 frames", "");
    }
    const cJSON *meta = member(s, root, "meta", cJSON_IsObject, "an object");
    if (meta == NULL || !read_tag(s, meta, attack)) {
        return false;
    }
    const cJSON *image = cJSON_GetObjectItemCaseSensitive(meta, "image");
    if (cJSON_IsString(image)) {
        snprintf(s->out->image, sizeof s->out->image, "%s", image->valuestring);
    }
    int32_t n = s->out->last - s->out->first + 1;
    s->out->start = calloc((size_t)n + 1, sizeof *s->out->start);
    if (s->out->start == NULL) {
        return fail(s, "out of memory", "");
    }
    s->out->rect = calloc((size_t)n, sizeof *s->out->rect);
    if (s->out->rect == NULL) {
        return fail(s, "out of memory", "");
    }
    for (int32_t i = 0; i < n; i++) {
        size_t old = path_key(s, "frames");
        path_index(s, s->out->first + i);
        const cJSON *f = cJSON_GetArrayItem(frames, s->out->first + i);
        double ms, r[4];
        if (!cJSON_IsObject(f)
                ? fail(s, "expected an object", "")
                : !number(s, f, "duration", 1, 60000, &ms) || !rect(s, f, "frame", r)) {
            return false;
        }
        for (int k = 0; k < 4; k++) {
            s->out->rect[i][k] = (int32_t)r[k];
        }
        path_pop(s, old);
        int32_t t = ticks_of(ms);
        if (fabs(ms * 60.0 / 1000.0 - t) > 1e-6) {
            char what[96];
            snprintf(what, sizeof what, "sprite frame %d lasts %g ms", (int)(s->out->first + i),
                     ms);
            note(s, "%s: rounded to whole 60 Hz frames%s\n", what, "");
        }
        s->out->start[i + 1] = s->out->start[i] + t;
    }
    s->out->frames = s->out->start[n];
    if (s->out->frames > CLV_ATTACK_MAX_FRAMES) {
        return fail(s, "the attack would last more frames than an attack may", "");
    }
    return true;
}

/* ---- hit data from a slice's user data ---- */

/* One "key=value" of the user data into def; false (err set) on a bad value. */
static bool data_field(ase *s, const char *key, const char *val, clv_hitbox_def *def, int *shape,
                       bool *scaling) {
    char *end;
    double v = strtod(val, &end);
    bool is_num = end != val && *end == '\0' && isfinite(v);
    if (strcmp(key, "shape") == 0) {
        *shape = strcmp(val, "circle") == 0 ? 1 : strcmp(val, "capsule") == 0 ? 0 : 2;
        if (*shape == 2) {
            note(s,
                 "%s: shape '%s' is written as a capsule (a frames file holds capsules and "
                 "circles)\n",
                 s->path, val);
            *shape = 0;
        }
        return true;
    }
    static const char *const known[] = {"damage",   "angle",    "base",   "growth",  "group",
                                        "priority", "max_hits", "hitlag", "hitstun", NULL};
    bool is_known = false;
    for (const char *const *k = known; *k != NULL; k++) {
        is_known = is_known || strcmp(*k, key) == 0;
    }
    if (!is_known) {
        note(s, "%s: '%s' is not hit data (left out)\n", s->path, key);
        return true;
    }
    if (!is_num) {
        char what[96];
        snprintf(what, sizeof what, "'%s=%s' is not a number", key, val);
        return fail(s, what, "");
    }
    float f = (float)v;
    int32_t i = (int32_t)fmax(fmin(v, 1e9), -1e9);
    if (strcmp(key, "damage") == 0) {
        def->damage = f;
    } else if (strcmp(key, "angle") == 0) {
        def->knockback.angle = (float)(v * (CLV_PI / 180.0)), *scaling = true;
    } else if (strcmp(key, "base") == 0) {
        def->knockback.base = f, *scaling = true;
    } else if (strcmp(key, "growth") == 0) {
        def->knockback.growth = f, *scaling = true;
    } else if (strcmp(key, "group") == 0) {
        def->group = i;
    } else if (strcmp(key, "priority") == 0) {
        def->priority = i;
    } else if (strcmp(key, "max_hits") == 0) {
        def->max_hits = i;
    } else if (strcmp(key, "hitlag") == 0) {
        def->hitlag = i;
    } else {
        def->hitstun = i;
    }
    return true;
}

/* The slice's user data ("k=v k=v", spaces or commas between) into def and *shape. */
static bool read_data(ase *s, const cJSON *slice, clv_hitbox_def *def, int *shape) {
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(slice, "data");
    if (data == NULL) {
        return true;
    }
    size_t old = path_key(s, "data");
    if (!cJSON_IsString(data)) {
        return fail(s, "expected a string", "");
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", data->valuestring);
    bool scaling = false;
    for (char *tok = strtok(buf, " ,\t\n"); tok != NULL; tok = strtok(NULL, " ,\t\n")) {
        char *eq = strchr(tok, '=');
        if (eq == NULL) {
            note(s, "%s: '%s' is not key=value (left out)\n", s->path, tok);
            continue;
        }
        *eq = '\0';
        if (!data_field(s, tok, eq + 1, def, shape, &scaling)) {
            return false;
        }
    }
    if (scaling) {
        def->knockback.kind = CLV_KNOCKBACK_SCALING;
    }
    path_pop(s, old);
    return true;
}

/* ---- slices ---- */

/* The shape of rectangle r (sprite pixels) in weapon-local units. */
static clv_shape shape_of(const ase *s, const double r[4], int shape) {
    clv_shape out;
    float x = (float)r[0] - s->origin.x, y = (float)r[1] - s->origin.y;
    float w = (float)r[2], h = (float)r[3];
    if (shape == 1) {
        out.type = CLV_CIRCLE;
        out.u.circle.c = clv_v2(x + w * 0.5f, y + h * 0.5f);
        out.u.circle.r = fminf(w, h) * 0.5f;
        return out;
    }
    float rad = fminf(w, h) * 0.5f;
    out.type = CLV_CAPSULE;
    out.u.capsule.r = rad;
    if (w >= h) {
        out.u.capsule.a = clv_v2(x + rad, y + rad);
        out.u.capsule.b = clv_v2(x + w - rad, y + rad);
    } else {
        out.u.capsule.a = clv_v2(x + rad, y + rad);
        out.u.capsule.b = clv_v2(x + rad, y + h - rad);
    }
    return out;
}

/* Adds def on every 60 Hz frame of sprite frames from..to (sheet numbering). */
static bool add_boxes(ase *s, const clv_hitbox_def *def, int32_t from, int32_t to) {
    app_aseprite *o = s->out;
    for (int32_t f = from > o->first ? from : o->first; f <= to && f <= o->last; f++) {
        for (int32_t t = o->start[f - o->first]; t < o->start[f - o->first + 1]; t++) {
            for (int32_t k = 0; k < o->count; k++) {
                if (o->box[k].frame == t && strcmp(o->box[k].def.id, def->id) == 0) {
                    return fail(s, "names the same hitbox as another slice: ", def->id);
                }
            }
            if (o->count == APP_ASE_MAX_BOXES) {
                return fail(s, "makes more hitboxes than an import takes", "");
            }
            o->box[o->count++] = (app_ase_box){t, *def};
        }
    }
    return true;
}

/* The id and shape a slice's name gives ("capsule:blade", "circle:tip", "blade"). */
static bool slice_name(ase *s, const cJSON *slice, clv_hitbox_def *def, int *shape) {
    const cJSON *name = member(s, slice, "name", cJSON_IsString, "a string");
    if (name == NULL) {
        return false;
    }
    const char *id = name->valuestring;
    if (strncmp(id, "capsule:", 8) == 0 || strncmp(id, "circle:", 7) == 0) {
        *shape = id[1] == 'i' ? 1 : 0;
        id = strchr(id, ':') + 1;
    }
    if (id[0] == '\0' || strlen(id) >= CLV_HIT_NAME_MAX) {
        size_t old = path_key(s, "name");
        fail(s, "must give a hitbox id of 1 to 31 bytes", "");
        path_pop(s, old);
        return false;
    }
    snprintf(def->id, sizeof def->id, "%s", id);
    return true;
}

/* One key of a slice: its rectangle holds from its frame up to (not including) until. */
static bool read_key(ase *s, const cJSON *key, const clv_hitbox_def *def, int shape,
                     int32_t until) {
    double fr, r[4];
    if (!number(s, key, "frame", -1e9, 1e9, &fr)) {
        return false;
    }
    if (fr < 0 || fr >= s->sprite_frames || fr != floor(fr)) {
        char what[96];
        snprintf(what, sizeof what, "frame %g does not exist (the sheet has %d frames)", fr,
                 (int)s->sprite_frames);
        path_key(s, "frame");
        return fail(s, what, "");
    }
    if (!rect(s, key, "bounds", r)) {
        return false;
    }
    if (r[2] <= 0 || r[3] <= 0) {
        return true; /* an empty key: the slice is absent from here */
    }
    clv_hitbox_def d = *def;
    d.shape = shape_of(s, r, shape);
    clv_hit_diag diag;
    if (clv_hitbox_def_check(&d, &diag) != CLV_HIT_OK) {
        return fail(s, diag.message, "");
    }
    return add_boxes(s, &d, (int32_t)fr, until - 1);
}

static bool read_slice(ase *s, const cJSON *slice) {
    if (!cJSON_IsObject(slice)) {
        return fail(s, "expected an object", "");
    }
    clv_hitbox_def def = clv_default_hitbox_def();
    int shape = 0;
    if (!slice_name(s, slice, &def, &shape) || !read_data(s, slice, &def, &shape)) {
        return false;
    }
    const cJSON *keys = member(s, slice, "keys", cJSON_IsArray, "an array");
    if (keys == NULL) {
        return false;
    }
    int n = cJSON_GetArraySize(keys);
    for (int j = 0; j < n; j++) {
        size_t old = path_key(s, "keys");
        path_index(s, j);
        const cJSON *next = cJSON_GetArrayItem(keys, j + 1);
        const cJSON *nf = cJSON_GetObjectItemCaseSensitive(next, "frame");
        int32_t until =
            cJSON_IsNumber(nf) && nf->valuedouble > 0 && nf->valuedouble < s->sprite_frames
                ? (int32_t)nf->valuedouble
                : s->sprite_frames;
        const cJSON *key = cJSON_GetArrayItem(keys, j);
        if (!cJSON_IsObject(key) ? fail(s, "expected an object", "")
                                 : !read_key(s, key, &def, shape, until)) {
            return false;
        }
        path_pop(s, old);
    }
    return true;
}

/* The pivot of the slice named "origin" on its first key, or the first frame's centre. */
static bool read_origin(ase *s, const cJSON *slices, const cJSON *root) {
    const cJSON *sl;
    int i = 0;
    cJSON_ArrayForEach(sl, slices) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(sl, "name");
        if (cJSON_IsString(name) && strcmp(name->valuestring, "origin") == 0) {
            size_t old = path_key(s, "meta.slices");
            path_index(s, i);
            path_key(s, "keys[0]");
            const cJSON *key = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(sl, "keys"), 0);
            double r[4], px = 0, py = 0;
            const cJSON *pivot = cJSON_GetObjectItemCaseSensitive(key, "pivot");
            if (!cJSON_IsObject(key)
                    ? fail(s, "expected an object", "")
                    : !rect(s, key, "bounds", r) ||
                          (pivot != NULL && (!number(s, pivot, "x", -1e6, 1e6, &px) ||
                                             !number(s, pivot, "y", -1e6, 1e6, &py)))) {
                return false;
            }
            s->origin = clv_v2((float)(r[0] + px), (float)(r[1] + py));
            path_pop(s, old);
            return true;
        }
        i++;
    }
    const cJSON *f = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "frames"), 0);
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(f, "sourceSize");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(size, "w");
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(size, "h");
    s->origin = clv_v2(cJSON_IsNumber(w) ? (float)w->valuedouble * 0.5f : 0.0f,
                       cJSON_IsNumber(h) ? (float)h->valuedouble * 0.5f : 0.0f);
    note(s, "no slice is named 'origin': the wielder stands at the centre of the first frame%s%s\n",
         "", "");
    return true;
}

static bool read_slices(ase *s, const cJSON *root) {
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(root, "meta");
    const cJSON *slices = cJSON_GetObjectItemCaseSensitive(meta, "slices");
    if (slices == NULL) {
        note(s, "the sheet has no slices: the attack has no hitbox%s%s\n", "", "");
        return true;
    }
    path_key(s, "meta.slices");
    if (!cJSON_IsArray(slices)) {
        return fail(s, "expected an array", "");
    }
    path_pop(s, 0);
    s->out->box = calloc(APP_ASE_MAX_BOXES, sizeof *s->out->box);
    if (s->out->box == NULL || !read_origin(s, slices, root)) {
        return s->out->box == NULL ? fail(s, "out of memory", "") : false;
    }
    int i = 0;
    const cJSON *sl;
    cJSON_ArrayForEach(sl, slices) {
        size_t old = path_key(s, "meta.slices");
        path_index(s, i++);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(sl, "name");
        bool origin = cJSON_IsString(name) && strcmp(name->valuestring, "origin") == 0;
        if (!origin && !read_slice(s, sl)) {
            return false;
        }
        path_pop(s, old);
    }
    return true;
}

static int cmp_box(const void *x, const void *y) {
    const app_ase_box *a = x, *b = y;
    return (a->frame > b->frame) - (a->frame < b->frame);
}

bool app_aseprite_read(const char *text, size_t len, const char *attack, app_aseprite *out,
                       char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    ase s = {.err = err, .errlen = errlen, .out = out};
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (root == NULL) {
        snprintf(err, errlen, "not JSON, or nested deeper than %d (at byte %ld)",
                 CJSON_NESTING_LIMIT, end != NULL ? (long)(end - text) : 0L);
        return false;
    }
    bool ok = cJSON_IsObject(root) ? read_frames(&s, root, attack) && read_slices(&s, root)
                                   : fail(&s, "expected an object", "");
    out->origin = s.origin;
    cJSON_Delete(root);
    if (!ok) {
        app_aseprite_free(out);
        return false;
    }
    /* stable: within a frame the slices keep their order, which is the hitboxes' precedence */
    for (int32_t i = 1; i < out->count; i++) {
        for (int32_t j = i; j > 0 && cmp_box(&out->box[j - 1], &out->box[j]) > 0; j--) {
            app_ase_box t = out->box[j];
            out->box[j] = out->box[j - 1];
            out->box[j - 1] = t;
        }
    }
    return true;
}
#else
bool app_aseprite_read(const char *text, size_t len, const char *attack, app_aseprite *out,
                       char *err, size_t errlen) {
    (void)text, (void)len, (void)attack;
    memset(out, 0, sizeof *out);
    snprintf(err, errlen,
             "cleave was built without cJSON (Debian: libcjson-dev), which reads "
             "Aseprite's JSON");
    return false;
}
#endif

void app_aseprite_free(app_aseprite *a) {
    free(a->start);
    free(a->box);
    free(a->rect);
    a->start = NULL;
    a->box = NULL;
    a->rect = NULL;
    a->count = 0;
}

bool app_aseprite_sprite(const app_aseprite *a, const app_image *image, int32_t fr,
                         app_image *out) {
    memset(out, 0, sizeof *out);
    int32_t n = a->last - a->first + 1, i = 0;
    while (i < n && a->start[i + 1] <= fr) {
        i++;
    }
    const int32_t *r = a->rect != NULL && i < n ? a->rect[i] : NULL;
    if (r == NULL || fr < 0 || image->rgba == NULL || r[2] <= 0 || r[3] <= 0) {
        return false;
    }
    out->rgba = calloc((size_t)r[2] * (size_t)r[3], 4);
    if (out->rgba == NULL) {
        return false;
    }
    out->w = r[2], out->h = r[3];
    for (int y = 0; y < r[3]; y++) {
        for (int x = 0; x < r[2]; x++) {
            int sx = r[0] + x, sy = r[1] + y; /* pixels outside the image stay clear */
            if (sx >= 0 && sy >= 0 && sx < image->w && sy < image->h) {
                memcpy(out->rgba + ((size_t)y * (size_t)r[2] + (size_t)x) * 4,
                       image->rgba + ((size_t)sy * (size_t)image->w + (size_t)sx) * 4, 4);
            }
        }
    }
    return true;
}
