/* The demo's edit mode: the model (a copy of one attack's hitboxes), what the pointer and keys
 * do to it, undo and redo, and the save that writes the frames file and reloads the mod. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleave/mod.h"
#include "editor.h"

enum { H_NONE, H_A, H_B, H_CENTRE, H_RADIUS, H_ARROW, H_FIRST, H_LAST };

/* ---- geometry: weapon-local units <-> screen pixels ---- */

static clv_vec2 to_screen(clv_vec2 p) {
    return clv_v2(APP_ED_OX + p.x * APP_ED_SCALE, APP_ED_OY + p.y * APP_ED_SCALE);
}

static clv_vec2 to_local(float x, float y, bool free) {
    clv_vec2 p = clv_v2((x - APP_ED_OX) / APP_ED_SCALE, (y - APP_ED_OY) / APP_ED_SCALE);
    /* snapping: whole units, unless the modifier is held */
    return free ? p : clv_v2(roundf(p.x), roundf(p.y));
}

/* The handles of a hitbox, screen pixels, indexed by H_A..H_ARROW. */
void app_editor_handles(const clv_hitbox_def *d, clv_vec2 out[APP_ED_HANDLES]) {
    clv_vec2 a, b;
    float r;
    if (d->shape.type == CLV_CIRCLE) {
        a = b = d->shape.u.circle.c, r = d->shape.u.circle.r;
    } else {
        a = d->shape.u.capsule.a, b = d->shape.u.capsule.b, r = d->shape.u.capsule.r;
    }
    clv_vec2 c = clv_v2((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
    float dx = b.x - a.x, dy = b.y - a.y, len = sqrtf(dx * dx + dy * dy);
    clv_vec2 side = len > 0.0f ? clv_v2(-dy / len, dx / len) : clv_v2(0.0f, -1.0f);
    out[H_A] = to_screen(a);
    out[H_B] = to_screen(b);
    out[H_CENTRE] = to_screen(c);
    out[H_RADIUS] = to_screen(clv_v2(c.x + side.x * r, c.y + side.y * r));
    float s = sinf(d->knockback.angle), co = cosf(d->knockback.angle);
    out[H_ARROW] = clv_v2(out[H_CENTRE].x + co * 40.0f, out[H_CENTRE].y + s * 40.0f);
    if (d->shape.type == CLV_CIRCLE) {
        out[H_A] = out[H_B] = clv_v2(-1e6f, -1e6f); /* a circle has no ends */
    }
}

static bool near(clv_vec2 p, float x, float y) {
    return fabsf(p.x - x) <= 6.0f && fabsf(p.y - y) <= 6.0f;
}

/* ---- the model ---- */

/* The run of frames in which hitbox id appears: first and last, false when it does not. */
static bool id_run(const app_editor *e, const char *id, int32_t *first, int32_t *last) {
    *first = INT32_MAX, *last = -1;
    for (int32_t i = 0; i < e->count; i++) {
        if (strcmp(e->box[i].def.id, id) == 0) {
            *first = e->box[i].frame < *first ? e->box[i].frame : *first;
            *last = e->box[i].frame > *last ? e->box[i].frame : *last;
        }
    }
    return *last >= 0;
}

static int32_t find_box(const app_editor *e, int32_t frame, const char *id) {
    for (int32_t i = 0; i < e->count; i++) {
        if (e->box[i].frame == frame && strcmp(e->box[i].def.id, id) == 0) {
            return i;
        }
    }
    return -1;
}

/* Inserts def after the last hitbox of its frame (the lowest precedence); its index or -1. */
static int32_t insert_box(app_editor *e, int32_t frame, const clv_hitbox_def *def) {
    if (e->count == APP_ED_MAX_BOXES) {
        snprintf(e->message, sizeof e->message, "too many hitboxes");
        return -1;
    }
    int32_t at = 0;
    while (at < e->count && e->box[at].frame <= frame) {
        at++;
    }
    memmove(&e->box[at + 1], &e->box[at], (size_t)(e->count - at) * sizeof *e->box);
    e->box[at] = (app_ed_box){frame, *def};
    e->count++;
    return at;
}

static void remove_box(app_editor *e, int32_t i) {
    memmove(&e->box[i], &e->box[i + 1], (size_t)(e->count - i - 1) * sizeof *e->box);
    e->count--;
}

/* Makes hitbox id span frames first..last: copies of its nearest frame fill new frames, and
 * frames outside lose it. */
static void set_run(app_editor *e, const char *id_in, int32_t first, int32_t last) {
    char id[CLV_HIT_NAME_MAX];
    snprintf(id, sizeof id, "%s", id_in);
    for (int32_t i = e->count - 1; i >= 0; i--) {
        if (strcmp(e->box[i].def.id, id) == 0 &&
            (e->box[i].frame < first || e->box[i].frame > last)) {
            remove_box(e, i);
        }
    }
    for (int32_t f = first; f <= last; f++) {
        int32_t near_i = -1;
        for (int32_t i = 0; i < e->count; i++) {
            if (strcmp(e->box[i].def.id, id) == 0 &&
                (near_i < 0 || abs(e->box[i].frame - f) < abs(e->box[near_i].frame - f))) {
                near_i = i;
            }
        }
        if (near_i >= 0 && e->box[near_i].frame != f) {
            clv_hitbox_def d = e->box[near_i].def;
            insert_box(e, f, &d);
        }
    }
}

/* ---- undo and redo: a copy of the hitboxes before each change ---- */

static bool copy_take(app_ed_copy *c, const app_editor *e) {
    c->box = malloc((size_t)(e->count > 0 ? e->count : 1) * sizeof *c->box);
    if (c->box == NULL) {
        return false;
    }
    memcpy(c->box, e->box, (size_t)e->count * sizeof *c->box);
    c->count = e->count;
    return true;
}

static void push_copy(app_ed_copy *stack, int32_t *n, const app_editor *e) {
    if (*n == APP_ED_UNDO) {
        free(stack[0].box);
        memmove(stack, stack + 1, (APP_ED_UNDO - 1) * sizeof *stack);
        (*n)--;
    }
    if (copy_take(&stack[*n], e)) {
        (*n)++;
    }
}

static void clear_stack(app_ed_copy *stack, int32_t *n) {
    while (*n > 0) {
        free(stack[--*n].box);
    }
}

/* Before a change: remember the hitboxes for undo; a new change forgets what redo held. */
static void will_change(app_editor *e) {
    push_copy(e->undo, &e->undo_count, e);
    clear_stack(e->redo, &e->redo_count);
}

/* Undo (from = undo, to = redo) or redo (the other way). */
static void restore(app_editor *e, app_ed_copy *from, int32_t *nfrom, app_ed_copy *to,
                    int32_t *nto) {
    if (*nfrom == 0) {
        return;
    }
    push_copy(to, nto, e);
    app_ed_copy *c = &from[--*nfrom];
    memcpy(e->box, c->box, (size_t)c->count * sizeof *e->box);
    e->count = c->count;
    free(c->box);
    e->sel = -1;
}

/* ---- selection and the pointer ---- */

static float seg_dist(clv_vec2 p, clv_vec2 a, clv_vec2 b) {
    float dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
    float t = l2 > 0.0f ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2 : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    float ex = a.x + dx * t - p.x, ey = a.y + dy * t - p.y;
    return sqrtf(ex * ex + ey * ey);
}

/* The hitbox of the current frame under local point p, the first in precedence; -1 for none. */
static int32_t box_at(const app_editor *e, clv_vec2 p) {
    for (int32_t i = 0; i < e->count; i++) {
        const clv_shape *s = &e->box[i].def.shape;
        if (e->box[i].frame != e->frame) {
            continue;
        }
        float d = s->type == CLV_CIRCLE
                      ? seg_dist(p, s->u.circle.c, s->u.circle.c) - s->u.circle.r
                      : seg_dist(p, s->u.capsule.a, s->u.capsule.b) - s->u.capsule.r;
        if (d <= 0.0f) {
            return i;
        }
    }
    return -1;
}

static int32_t strip_cell(const app_editor *e, float x) {
    float cw = (float)(APP_ED_W - 16) / (float)e->attack.frames;
    int32_t f = (int32_t)floorf((x - (float)(APP_ED_X0 + 8)) / cw);
    return f < 0 ? 0 : (f >= e->attack.frames ? e->attack.frames - 1 : f);
}

static bool on_strip(float y) { return y >= APP_ED_STRIP_Y && y < APP_ED_STRIP_Y + APP_ED_STRIP_H; }

/* Which handle of the selection is under the pointer, H_NONE for none. */
static int32_t handle_at(const app_editor *e, float x, float y) {
    if (e->sel < 0) {
        return H_NONE;
    }
    if (on_strip(y)) {
        int32_t first, last, f = strip_cell(e, x);
        id_run(e, e->box[e->sel].def.id, &first, &last);
        return f == last ? H_LAST : (f == first ? H_FIRST : H_NONE);
    }
    clv_vec2 h[H_ARROW + 1];
    app_editor_handles(&e->box[e->sel].def, h);
    for (int32_t k = H_A; k <= H_ARROW; k++) {
        if (near(h[k], x, y)) {
            return k;
        }
    }
    return H_NONE;
}

static void press(app_editor *e, const app_ed_action *a) {
    e->dirty = false;
    e->drag = handle_at(e, a->x, a->y);
    if (e->drag != H_NONE) {
        return;
    }
    if (on_strip(a->y)) {
        e->frame = strip_cell(e, a->x);
        e->sel = e->sel >= 0 ? find_box(e, e->frame, e->box[e->sel].def.id) : -1;
        return;
    }
    e->sel = box_at(e, to_local(a->x, a->y, true));
    e->drag = e->sel >= 0 ? H_CENTRE : H_NONE;
}

/* Moves the held handle of hitbox i to local point p. */
static void move_handle(app_editor *e, int32_t i, clv_vec2 p, const app_ed_action *a) {
    clv_shape *s = &e->box[i].def.shape;
    bool circle = s->type == CLV_CIRCLE;
    clv_vec2 *pa = circle ? &s->u.circle.c : &s->u.capsule.a;
    clv_vec2 *pb = circle ? &s->u.circle.c : &s->u.capsule.b;
    float *r = circle ? &s->u.circle.r : &s->u.capsule.r;
    clv_vec2 c = clv_v2((pa->x + pb->x) * 0.5f, (pa->y + pb->y) * 0.5f);
    if (e->drag == H_A) {
        *pa = p;
    } else if (e->drag == H_B) {
        *pb = p;
    } else if (e->drag == H_CENTRE) {
        clv_vec2 d = clv_v2(p.x - c.x, p.y - c.y);
        pa->x += d.x, pa->y += d.y;
        if (!circle) {
            pb->x += d.x, pb->y += d.y;
        }
    } else if (e->drag == H_RADIUS) {
        float rr = circle ? seg_dist(p, *pa, *pa) : seg_dist(p, *pa, *pb);
        *r = a->free ? rr : fmaxf(1.0f, roundf(rr));
    }
}

/* Sets the knockback angle of every hitbox named like the selection from the pointer:
 * snapped to 15 degrees unless the modifier is held. */
static void aim_arrow(app_editor *e, const app_ed_action *a) {
    clv_vec2 h[H_ARROW + 1];
    app_editor_handles(&e->box[e->sel].def, h);
    float deg = atan2f(a->y - h[H_CENTRE].y, a->x - h[H_CENTRE].x) * (float)(180.0 / CLV_PI);
    deg = a->free ? roundf(deg) : roundf(deg / 15.0f) * 15.0f;
    char id[CLV_HIT_NAME_MAX];
    snprintf(id, sizeof id, "%s", e->box[e->sel].def.id);
    for (int32_t i = 0; i < e->count; i++) {
        clv_knockback *k = &e->box[i].def.knockback;
        if (strcmp(e->box[i].def.id, id) == 0) {
            k->kind = k->kind == CLV_KNOCKBACK_SCALING ? k->kind : CLV_KNOCKBACK_SCALING;
            k->angle = (float)((double)deg * (CLV_PI / 180.0));
        }
    }
}

static void motion(app_editor *e, const app_ed_action *a) {
    if (e->drag == H_NONE || e->sel < 0) {
        return;
    }
    if (!e->dirty) {
        will_change(e);
        e->dirty = true;
    }
    char id[CLV_HIT_NAME_MAX];
    snprintf(id, sizeof id, "%s", e->box[e->sel].def.id);
    if (e->drag == H_FIRST || e->drag == H_LAST) {
        int32_t first, last, f = strip_cell(e, a->x);
        id_run(e, id, &first, &last);
        f = e->drag == H_FIRST ? (f < last ? f : last) : (f > first ? f : first);
        set_run(e, id, e->drag == H_FIRST ? f : first, e->drag == H_LAST ? f : last);
        e->frame = f; /* show the frame the end is dragged to */
        e->sel = find_box(e, f, id);
        return;
    }
    if (e->drag == H_ARROW) {
        aim_arrow(e, a);
        return;
    }
    move_handle(e, e->sel, to_local(a->x, a->y, a->free), a);
}

/* ---- keys ---- */

/* id with the first number suffix that no hitbox of the attack has ("blade2", "blade3"...). */
static void fresh_id(const app_editor *e, const char *base, char *out) {
    for (int n = 2;; n++) {
        snprintf(out, CLV_HIT_NAME_MAX, "%.24s%d", base, n % 100000);
        int32_t first, last;
        if (!id_run(e, out, &first, &last)) {
            return;
        }
    }
}

/* A copy of the selection, or a new capsule, added to the current frame and selected. */
static void add_box(app_editor *e, bool duplicate) {
    clv_hitbox_def d = clv_default_hitbox_def();
    if (duplicate && e->sel >= 0) {
        d = e->box[e->sel].def;
        d.shape.u.capsule.a.y += 4.0f, d.shape.u.capsule.b.y += 4.0f; /* beside it, not on it */
    } else {
        d.shape.type = CLV_CAPSULE;
        d.shape.u.capsule.a = clv_v2(8.0f, 0.0f);
        d.shape.u.capsule.b = clv_v2(24.0f, 0.0f);
        d.shape.u.capsule.r = 3.0f;
        d.damage = 1.0f;
    }
    char id[CLV_HIT_NAME_MAX];
    fresh_id(e, duplicate && e->sel >= 0 ? d.id : "hitbox", id);
    snprintf(d.id, sizeof d.id, "%s", id);
    will_change(e);
    e->sel = insert_box(e, e->frame, &d);
}

/* The inspector: steps the focused field of every hitbox named like the selection. */
static void step_field(app_editor *e, int dir) {
    if (e->sel < 0) {
        return;
    }
    will_change(e);
    char id[CLV_HIT_NAME_MAX];
    snprintf(id, sizeof id, "%s", e->box[e->sel].def.id);
    for (int32_t i = 0; i < e->count; i++) {
        clv_hitbox_def *d = &e->box[i].def;
        if (strcmp(d->id, id) != 0) {
            continue;
        }
        if (e->field == 0) {
            d->damage = fmaxf(0.0f, d->damage + (float)dir);
        } else if (e->field == 1) {
            double deg = round((double)d->knockback.angle * (180.0 / CLV_PI)) + 15.0 * dir;
            d->knockback.kind = CLV_KNOCKBACK_SCALING;
            d->knockback.angle = (float)(deg * (CLV_PI / 180.0));
        } else if (e->field == 2) {
            d->max_hits = d->max_hits + dir < 0 ? 0 : d->max_hits + dir;
        } else if (e->field == 3) {
            /* below group 0 is a group of its own (CLV_GROUP_NONE) */
            d->group = d->group + dir < 0 ? CLV_GROUP_NONE : d->group + dir;
        } else {
            d->priority += dir;
        }
    }
}

/* What a save writes: the model's hitboxes, and the hurtboxes the attack carries, which the
 * edit mode does not change, as the running weapon has them. */
typedef struct save_src {
    const app_editor *e;
    const clv_arena *arena;
    clv_weapon_id weapon;
    int32_t attack;
} save_src;

static const clv_hitbox_def *model_hitbox(void *ud, int32_t fr, int32_t k) {
    const app_editor *e = ((const save_src *)ud)->e;
    for (int32_t i = 0; i < e->count; i++) {
        if (e->box[i].frame == fr && k-- == 0) {
            return &e->box[i].def;
        }
    }
    return NULL;
}

static const clv_hurtbox_def *carried_hurtboxes(void *ud, int32_t fr, int32_t *count) {
    const save_src *s = ud;
    return clv_arena_frame_hurtboxes(s->arena, s->weapon, s->attack, fr, count);
}

/* Writes the frames file when every hitbox passes cleave_hit's check (else refuses with its
 * message, as a reload would), then reloads the mod through the usual transaction. */
static void save(app_editor *e, app_game *g, app_mods *m) {
    for (int32_t i = 0; i < e->count; i++) {
        clv_hit_diag diag;
        if (clv_hitbox_def_check(&e->box[i].def, &diag) != CLV_HIT_OK) {
            snprintf(e->message, sizeof e->message, "save refused: frame %d, hitbox '%s': %s",
                     (int)e->box[i].frame + 1, e->box[i].def.id, diag.message);
            return;
        }
    }
    char err[256];
    const app_slot *slot = &g->slots[e->slot];
    save_src ss = {e, g->arena, slot->id,
                   slot->weapon != NULL ? clv_weapon_find_attack(slot->weapon, e->attack.name)
                                        : -1};
    app_frames_src src = {slot->label, &e->attack, model_hitbox, &ss, carried_hurtboxes};
    if (!app_frames_write(e->path, &src, err, sizeof err)) {
        snprintf(e->message, sizeof e->message, "save failed: %s", err);
        return;
    }
    snprintf(e->message, sizeof e->message, "saved %s", e->path);
    app_mods_poll(m, g);
}

static void key(app_editor *e, app_game *g, app_mods *m, int32_t k) {
    if (k == APP_EK_NEXT || k == APP_EK_PREV) {
        e->frame = (e->frame + (k == APP_EK_NEXT ? 1 : e->attack.frames - 1)) % e->attack.frames;
        e->sel = e->sel >= 0 ? find_box(e, e->frame, e->box[e->sel].def.id) : -1;
    } else if (k == APP_EK_ADD || k == APP_EK_DUP) {
        add_box(e, k == APP_EK_DUP);
    } else if (k == APP_EK_DEL && e->sel >= 0) {
        will_change(e);
        remove_box(e, e->sel);
        e->sel = -1;
    } else if (k == APP_EK_UNDO) {
        restore(e, e->undo, &e->undo_count, e->redo, &e->redo_count);
    } else if (k == APP_EK_REDO) {
        restore(e, e->redo, &e->redo_count, e->undo, &e->undo_count);
    } else if (k == APP_EK_SAVE) {
        save(e, g, m);
    } else if (k == APP_EK_UP || k == APP_EK_DOWN) {
        e->field = (e->field + (k == APP_EK_DOWN ? 1 : APP_ED_FIELDS - 1)) % APP_ED_FIELDS;
    } else if (k == APP_EK_LEFT || k == APP_EK_RIGHT) {
        step_field(e, k == APP_EK_RIGHT ? 1 : -1);
    }
}

void app_editor_apply(app_editor *e, app_game *g, app_mods *m, const app_ed_action *a) {
    if (a->kind == APP_ED_TOGGLE) {
        app_editor_toggle(e, g, m);
    } else if (!e->on) {
        return;
    } else if (a->kind == APP_ED_PRESS) {
        press(e, a);
    } else if (a->kind == APP_ED_MOTION) {
        motion(e, a);
    } else if (a->kind == APP_ED_RELEASE) {
        e->drag = H_NONE;
    } else if (a->kind == APP_ED_KEY) {
        key(e, g, m, a->key);
    }
}

/* ---- entering and leaving ---- */

/* The folder of the mod that gave slot its weapon, or NULL (a fixture's weapon). */
static const char *slot_mod_dir(const app_game *g, const app_mods *m, int32_t slot) {
    clv_weapon_id id = g->slots[slot].id;
    for (int32_t i = 0; i < m->count; i++) {
        for (int32_t j = 0; m->e[i].mod != NULL && j < clv_mod_weapon_count(m->e[i].mod); j++) {
            if (m->e[i].ids[j].index1 == id.index1 && m->e[i].ids[j].gen == id.gen) {
                return m->e[i].dir;
            }
        }
    }
    return NULL;
}

/* Copies the attack of the selected slot into the model; false (message set) when none. */
static bool load_attack(app_editor *e, const app_game *g, const app_mods *m) {
    e->slot = g->st.slot;
    const app_slot *s = e->slot >= 0 && e->slot < g->slot_count ? &g->slots[e->slot] : NULL;
    int32_t attack = g->st.last_slot == e->slot ? g->st.attack_index : 0;
    const char *dir = s != NULL ? slot_mod_dir(g, m, e->slot) : NULL;
    if (s == NULL || s->weapon == NULL || dir == NULL ||
        clv_weapon_attack(s->weapon, attack, &e->attack) != CLV_HIT_OK) {
        snprintf(e->message, sizeof e->message, "edit mode: the selected weapon has no mod");
        return false;
    }
    snprintf(e->path, sizeof e->path, "%s/frames/%s.lua", dir, e->attack.name);
    e->count = 0;
    for (int32_t fr = 0; fr < e->attack.frames; fr++) {
        for (int32_t k = 0;; k++) {
            const clv_hitbox_def *h = clv_arena_hitbox(g->arena, s->id, attack, fr, k);
            if (h == NULL || e->count == APP_ED_MAX_BOXES) {
                break;
            }
            e->box[e->count++] = (app_ed_box){fr, *h};
        }
    }
    e->frame = e->count > 0 ? e->box[0].frame : 0;
    snprintf(e->message, sizeof e->message, "editing %s: save writes %s", e->attack.name, e->path);
    return true;
}

void app_editor_toggle(app_editor *e, app_game *g, app_mods *m) {
    if (e->on) {
        e->on = false;
        return;
    }
    if (e->box == NULL) {
        e->box = malloc(APP_ED_MAX_BOXES * sizeof *e->box);
    }
    clear_stack(e->undo, &e->undo_count);
    clear_stack(e->redo, &e->redo_count);
    e->sel = -1;
    e->drag = H_NONE;
    e->on = e->box != NULL && load_attack(e, g, m);
}

void app_editor_free(app_editor *e) {
    clear_stack(e->undo, &e->undo_count);
    clear_stack(e->redo, &e->redo_count);
    free(e->box);
    e->box = NULL;
}
