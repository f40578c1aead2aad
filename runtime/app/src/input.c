/* Scripted inputs for headless runs (format in docs/demo.md) and the attract mode. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

enum {
    EV_MOVE,
    EV_AIM,
    EV_ATTACK,
    EV_ATTACK2,
    EV_WEAPON,
    EV_NEXT,
    EV_PREV,
    EV_ENEMY,
    EV_ZOOM,
    EV_EDIT,
    EV_CLICK,
    EV_DRAG,
    EV_DRAGFREE,
    EV_KEY,
    EV_THROWER,
    EV_PARRY,
    EV_KNIGHT,
    EV_GUARD,
    EV_DODGE
};

/* min_args < args: the last arguments are optional ("attack" is "attack 1"). */
static const struct {
    const char *name;
    int kind, min_args, args;
} commands[] = {
    {"move", EV_MOVE, 2, 2},         {"aim", EV_AIM, 2, 2},       {"attack", EV_ATTACK, 0, 1},
    {"attack2", EV_ATTACK2, 0, 0},   {"weapon", EV_WEAPON, 1, 1}, {"next", EV_NEXT, 0, 0},
    {"prev", EV_PREV, 0, 0},         {"enemy", EV_ENEMY, 2, 2},   {"zoom", EV_ZOOM, 1, 1},
    {"edit", EV_EDIT, 0, 0},         {"click", EV_CLICK, 2, 2},   {"drag", EV_DRAG, 4, 4},
    {"dragfree", EV_DRAGFREE, 4, 4}, {"key", EV_KEY, 1, 1},       {"thrower", EV_THROWER, 2, 2},
    {"parry", EV_PARRY, 0, 0},       {"knight", EV_KNIGHT, 2, 2}, {"guard", EV_GUARD, 1, 1},
    {"dodge", EV_DODGE, 0, 0}};

static bool whole_in(float v, float lo, float hi) { return v >= lo && v <= hi && v == floorf(v); }

static bool parse_number(const char *tok, float *out) {
    char *end;
    double v = strtod(tok, &end);
    if (end == tok || *end != '\0' || !isfinite(v) || fabs(v) > 1e6) {
        return false;
    }
    *out = (float)v;
    return true;
}

/* Splits a line into at most six tokens, dropping a '#' comment; returns their count. */
static int tokenize(char *line, char *tok[6]) {
    char *hash = strchr(line, '#');
    if (hash) {
        *hash = '\0';
    }
    int nt = 0;
    for (char *t = strtok(line, " \t\r\n"); t && nt < 6; t = strtok(NULL, " \t\r\n")) {
        tok[nt++] = t;
    }
    return nt;
}

/* Where a line is, for messages: "path:line". */
typedef struct {
    const char *path;
    int lineno;
    char *err;
    size_t errlen;
} script_pos;

static bool parse_frame(const script_pos *p, const char *tok, int64_t *last, int64_t *out) {
    char *end;
    long long fr = strtoll(tok, &end, 10);
    if (*end != '\0' || fr < 0 || fr > 100000000LL) {
        snprintf(p->err, p->errlen, "%s:%d: frame must be an integer >= 0 (got '%s')", p->path,
                 p->lineno, tok);
        return false;
    }
    if (fr < *last) {
        snprintf(p->err, p->errlen, "%s:%d: frames must not go back (%lld after %lld)", p->path,
                 p->lineno, fr, (long long)*last);
        return false;
    }
    *last = *out = fr;
    return true;
}

static int find_command(const script_pos *p, const char *name) {
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(name, commands[i].name) == 0) {
            return (int)i;
        }
    }
    snprintf(p->err, p->errlen,
             "%s:%d: unknown command '%s' (move, aim, attack, attack2, weapon, next, "
             "prev, enemy, thrower, knight, parry, guard, dodge, zoom, edit, click, drag, "
             "dragfree, key)",
             p->path, p->lineno, name);
    return -1;
}

static bool check_arg_count(const script_pos *p, int c, int nargs) {
    if (nargs >= commands[c].min_args && nargs <= commands[c].args) {
        return true;
    }
    if (commands[c].min_args == commands[c].args) {
        snprintf(p->err, p->errlen, "%s:%d: '%s' takes %d argument(s), got %d", p->path, p->lineno,
                 commands[c].name, commands[c].args, nargs);
    } else {
        snprintf(p->err, p->errlen, "%s:%d: '%s' takes %d to %d argument(s), got %d", p->path,
                 p->lineno, commands[c].name, commands[c].min_args, commands[c].args, nargs);
    }
    return false;
}

/* The commands that take a whole number check it is in 1..their limit. */
static bool check_whole_arg(const script_pos *p, app_script_event *ev, int nargs) {
    if (ev->kind == EV_ATTACK && nargs == 0) {
        ev->a = 1.0f;
    }
    float hi = ev->kind == EV_WEAPON   ? 9.0f
               : ev->kind == EV_ATTACK ? 999.0f
               : ev->kind == EV_ZOOM   ? (float)APP_MAX_ZOOM
                                       : 0.0f;
    if (hi == 0.0f) {
        return true;
    }
    if (whole_in(ev->a, 1.0f, hi)) {
        ev->n = (int32_t)ev->a;
        return true;
    }
    if (ev->kind == EV_WEAPON) {
        snprintf(p->err, p->errlen, "%s:%d: weapon slot must be 1..9", p->path, p->lineno);
    } else if (ev->kind == EV_ATTACK) {
        snprintf(p->err, p->errlen, "%s:%d: attack number must be 1..999 (name order)", p->path,
                 p->lineno);
    } else {
        snprintf(p->err, p->errlen, "%s:%d: zoom must be 1..%d", p->path, p->lineno, APP_MAX_ZOOM);
    }
    return false;
}

/* The edit mode's key a `key` line names. */
static bool parse_key(const script_pos *p, const char *name, app_script_event *ev) {
    static const char *const names[] = APP_ED_KEY_NAMES;
    for (int k = 0; k < APP_EK_COUNT; k++) {
        if (strcmp(name, names[k]) == 0) {
            ev->n = k;
            return true;
        }
    }
    snprintf(p->err, p->errlen,
             "%s:%d: unknown key '%s' (next, prev, add, dup, del, undo, redo, save, up, down, "
             "left, right)",
             p->path, p->lineno, name);
    return false;
}

static bool parse_event(const script_pos *p, char *tok[6], int nt, int64_t fr,
                        app_script_event *ev) {
    int c = find_command(p, tok[1]);
    int nargs = nt - 2;
    if (c < 0 || !check_arg_count(p, c, nargs)) {
        return false;
    }
    *ev = (app_script_event){fr, commands[c].kind, 0.0f, 0.0f, 0.0f, 0.0f, 0};
    if (ev->kind == EV_KEY) {
        return parse_key(p, tok[2], ev);
    }
    float *dst[4] = {&ev->a, &ev->b, &ev->c, &ev->d};
    bool numbers = true;
    for (int k = 0; k < nargs; k++) {
        numbers = numbers && parse_number(tok[2 + k], dst[k]);
    }
    if (!numbers) {
        snprintf(p->err, p->errlen, "%s:%d: '%s' needs finite numbers", p->path, p->lineno, tok[1]);
        return false;
    }
    if (!check_whole_arg(p, ev, nargs)) {
        return false;
    }
    if (ev->kind == EV_GUARD && ev->a != 0.0f && ev->a != 1.0f) {
        snprintf(p->err, p->errlen, "%s:%d: guard takes 1 (held) or 0 (let go)", p->path,
                 p->lineno);
        return false;
    }
    if (ev->kind == EV_MOVE && (fabsf(ev->a) > 1.0f || fabsf(ev->b) > 1.0f)) {
        snprintf(p->err, p->errlen, "%s:%d: move components must be in -1..1", p->path, p->lineno);
        return false;
    }
    return true;
}

static bool push_event(app_script *s, int32_t *cap, const app_script_event *ev) {
    if (s->count == *cap) {
        *cap = *cap * 2 + 16;
        app_script_event *ne = realloc(s->ev, (size_t)*cap * sizeof *ne);
        if (ne == NULL) {
            return false;
        }
        s->ev = ne;
    }
    s->ev[s->count++] = *ev;
    return true;
}

/* Reads one line into s; false with err set when it is refused. */
static bool load_line(app_script *s, script_pos *p, char *line, int64_t *last, int32_t *cap) {
    char *tok[6];
    int nt = tokenize(line, tok);
    if (nt == 0) {
        return true;
    }
    int64_t fr;
    if (!parse_frame(p, tok[0], last, &fr)) {
        return false;
    }
    if (nt < 2) {
        snprintf(p->err, p->errlen, "%s:%d: a command must follow the frame", p->path, p->lineno);
        return false;
    }
    app_script_event ev;
    if (!parse_event(p, tok, nt, fr, &ev)) {
        return false;
    }
    if (!push_event(s, cap, &ev)) {
        snprintf(p->err, p->errlen, "%s: out of memory", p->path);
        return false;
    }
    return true;
}

bool app_script_load(app_script *s, const char *path, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    const char *why = NULL;
    FILE *f = app_open_regular(path, &why);
    if (f == NULL) {
        snprintf(err, errlen, "%s: %s", path, why);
        return false;
    }
    char line[512];
    script_pos pos = {path, 0, err, errlen};
    int32_t cap = 0;
    int64_t last = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f) != NULL) {
        pos.lineno++;
        ok = load_line(s, &pos, line, &last, &cap);
    }
    fclose(f);
    if (!ok) {
        app_script_free(s);
    }
    s->aim = clv_v2(APP_ROOM_X1, (APP_ROOM_Y0 + APP_ROOM_Y1) * 0.5f);
    return ok;
}

void app_script_free(app_script *s) {
    free(s->ev);
    s->ev = NULL;
    s->count = s->next = 0;
}

static void push_action(app_input *out, int kind, float x, float y, bool free, int32_t key) {
    if (out->ed_count < APP_ED_ACTIONS) {
        out->ed[out->ed_count++] = (app_ed_action){kind, x, y, free, key};
    }
}

/* An edit mode line as the actions a pointer or keyboard would give. */
static void edit_actions(const app_script_event *e, app_input *out) {
    bool free = e->kind == EV_DRAGFREE;
    switch (e->kind) {
    case EV_EDIT:
        push_action(out, APP_ED_TOGGLE, 0.0f, 0.0f, false, 0);
        break;
    case EV_KEY:
        push_action(out, APP_ED_KEY, 0.0f, 0.0f, false, e->n);
        break;
    default: /* click, drag: press, (move,) release */
        push_action(out, APP_ED_PRESS, e->a, e->b, free, 0);
        if (e->kind != EV_CLICK) {
            push_action(out, APP_ED_MOTION, e->c, e->d, free, 0);
        }
        push_action(out, APP_ED_RELEASE, 0.0f, 0.0f, free, 0);
        break;
    }
}

void app_script_input(app_script *s, int64_t frame, app_input *out) {
    memset(out, 0, sizeof *out);
    while (s->next < s->count && s->ev[s->next].frame <= frame) {
        const app_script_event *e = &s->ev[s->next++];
        if (e->frame < frame) {
            continue; /* only reachable when a run starts past the event */
        }
        switch (e->kind) {
        case EV_MOVE:
            s->move_x = e->a;
            s->move_y = e->b;
            break;
        case EV_AIM:
            s->aim = clv_v2(e->a, e->b);
            break;
        case EV_ATTACK:
            out->attack = e->n;
            break;
        case EV_ATTACK2:
            out->attack = 2;
            break;
        case EV_ZOOM:
            out->zoom = e->n;
            break;
        case EV_WEAPON:
            out->select_slot = e->n;
            break;
        case EV_NEXT:
            out->cycle = 1;
            break;
        case EV_PREV:
            out->cycle = -1;
            break;
        case EV_EDIT:
        case EV_CLICK:
        case EV_DRAG:
        case EV_DRAGFREE:
        case EV_KEY:
            edit_actions(e, out);
            break;
        case EV_ENEMY:
        case EV_THROWER:
        case EV_KNIGHT:
            if (out->spawn_count < 8) {
                out->spawn_kind[out->spawn_count] = e->kind == EV_THROWER  ? APP_ENEMY_THROWER
                                                    : e->kind == EV_KNIGHT ? APP_ENEMY_KNIGHT
                                                                           : APP_ENEMY_SLIME;
                out->spawn_at[out->spawn_count++] = clv_v2(e->a, e->b);
            }
            break;
        case EV_PARRY:
            out->parry = true;
            break;
        case EV_GUARD:
            s->guard = e->a != 0.0f;
            break;
        case EV_DODGE:
            out->dodge = true;
            break;
        default:
            break;
        }
    }
    out->move_x = s->move_x;
    out->move_y = s->move_y;
    out->aim = s->aim;
    out->guard = s->guard;
}

void app_attract_input(const app_game *g, app_input *out) {
    memset(out, 0, sizeof *out);
    clv_entity_info pi;
    if (clv_arena_entity(g->arena, g->st.player, &pi) != CLV_HIT_OK) {
        return;
    }
    float best = 1e30f;
    clv_vec2 target = clv_v2(pi.position.x + 40.0f, pi.position.y);
    for (int32_t i = 0; i < g->st.enemy_count; i++) {
        clv_entity_info ei;
        if (clv_arena_entity(g->arena, g->enemies[i].id, &ei) != CLV_HIT_OK || !ei.alive) {
            continue;
        }
        float dx = ei.position.x - pi.position.x, dy = ei.position.y - pi.position.y;
        float d = dx * dx + dy * dy;
        if (d < best) {
            best = d;
            target = ei.position;
        }
    }
    out->aim = target;
    float dx = target.x - pi.position.x, dy = target.y - pi.position.y;
    float d = sqrtf(dx * dx + dy * dy);
    if (d > 44.0f && d > 0.0f) {
        out->move_x = dx / d;
        out->move_y = dy / d;
    }
    if (d < 64.0f && g->st.slot >= 0 && g->st.slot < g->slot_count) {
        /* every attack of the weapon in turn, two seconds each */
        int32_t n = g->slots[g->st.slot].attack_count;
        out->attack = n > 0 ? 1 + (int32_t)((g->st.frame / 120) % n) : 0;
    }
    /* Show every weapon: change every 6 seconds. */
    if (g->st.frame > 0 && g->st.frame % 360 == 0) {
        out->cycle = 1;
    }
    app_attract_defend(g, out);
}
