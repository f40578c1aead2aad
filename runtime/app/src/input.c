/* Scripted inputs for headless runs (format in docs/demo.md) and the attract mode. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

enum { EV_MOVE, EV_AIM, EV_ATTACK, EV_ATTACK2, EV_WEAPON, EV_NEXT, EV_PREV, EV_ENEMY, EV_ZOOM };

/* min_args < args: the last arguments are optional ("attack" is "attack 1"). */
static const struct {
    const char *name;
    int kind, min_args, args;
} commands[] = {
    {"move", EV_MOVE, 2, 2},       {"aim", EV_AIM, 2, 2},       {"attack", EV_ATTACK, 0, 1},
    {"attack2", EV_ATTACK2, 0, 0}, {"weapon", EV_WEAPON, 1, 1}, {"next", EV_NEXT, 0, 0},
    {"prev", EV_PREV, 0, 0},       {"enemy", EV_ENEMY, 2, 2},   {"zoom", EV_ZOOM, 1, 1}};

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

bool app_script_load(app_script *s, const char *path, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    const char *why = NULL;
    FILE *f = app_open_regular(path, &why);
    if (f == NULL) {
        snprintf(err, errlen, "%s: %s", path, why);
        return false;
    }
    char line[512];
    int lineno = 0;
    int32_t cap = 0;
    int64_t last = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f) != NULL) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) {
            *hash = '\0';
        }
        char *tok[6];
        int nt = 0;
        for (char *t = strtok(line, " \t\r\n"); t && nt < 6; t = strtok(NULL, " \t\r\n")) {
            tok[nt++] = t;
        }
        if (nt == 0) {
            continue;
        }
        char *end;
        long long fr = strtoll(tok[0], &end, 10);
        if (*end != '\0' || fr < 0 || fr > 100000000LL) {
            snprintf(err, errlen, "%s:%d: frame must be an integer >= 0 (got '%s')", path, lineno,
                     tok[0]);
            ok = false;
            break;
        }
        if (fr < last) {
            snprintf(err, errlen, "%s:%d: frames must not go back (%lld after %lld)", path, lineno,
                     fr, (long long)last);
            ok = false;
            break;
        }
        last = fr;
        if (nt < 2) {
            snprintf(err, errlen, "%s:%d: a command must follow the frame", path, lineno);
            ok = false;
            break;
        }
        int c = -1;
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
            if (strcmp(tok[1], commands[i].name) == 0) {
                c = (int)i;
            }
        }
        if (c < 0) {
            snprintf(err, errlen,
                     "%s:%d: unknown command '%s' (move, aim, attack, attack2, weapon, next, "
                     "prev, enemy, zoom)",
                     path, lineno, tok[1]);
            ok = false;
            break;
        }
        int nargs = nt - 2;
        if (nargs < commands[c].min_args || nargs > commands[c].args) {
            if (commands[c].min_args == commands[c].args) {
                snprintf(err, errlen, "%s:%d: '%s' takes %d argument(s), got %d", path, lineno,
                         tok[1], commands[c].args, nargs);
            } else {
                snprintf(err, errlen, "%s:%d: '%s' takes %d to %d argument(s), got %d", path,
                         lineno, tok[1], commands[c].min_args, commands[c].args, nargs);
            }
            ok = false;
            break;
        }
        app_script_event ev = {fr, commands[c].kind, 0.0f, 0.0f, 0};
        if (nargs >= 1 && !parse_number(tok[2], &ev.a)) {
            ok = false;
        }
        if (ok && nargs >= 2 && !parse_number(tok[3], &ev.b)) {
            ok = false;
        }
        if (!ok) {
            snprintf(err, errlen, "%s:%d: '%s' needs finite numbers", path, lineno, tok[1]);
            break;
        }
        if (ev.kind == EV_WEAPON) {
            if (!whole_in(ev.a, 1.0f, 9.0f)) {
                snprintf(err, errlen, "%s:%d: weapon slot must be 1..9", path, lineno);
                ok = false;
                break;
            }
            ev.n = (int32_t)ev.a;
        }
        if (ev.kind == EV_ATTACK) {
            if (nargs == 0) {
                ev.a = 1.0f;
            }
            if (!whole_in(ev.a, 1.0f, 999.0f)) {
                snprintf(err, errlen, "%s:%d: attack number must be 1..999 (name order)", path,
                         lineno);
                ok = false;
                break;
            }
            ev.n = (int32_t)ev.a;
        }
        if (ev.kind == EV_ZOOM) {
            if (!whole_in(ev.a, 1.0f, (float)APP_MAX_ZOOM)) {
                snprintf(err, errlen, "%s:%d: zoom must be 1..%d", path, lineno, APP_MAX_ZOOM);
                ok = false;
                break;
            }
            ev.n = (int32_t)ev.a;
        }
        if (ev.kind == EV_MOVE && (fabsf(ev.a) > 1.0f || fabsf(ev.b) > 1.0f)) {
            snprintf(err, errlen, "%s:%d: move components must be in -1..1", path, lineno);
            ok = false;
            break;
        }
        if (s->count == cap) {
            cap = cap * 2 + 16;
            app_script_event *ne = realloc(s->ev, (size_t)cap * sizeof *ne);
            if (ne == NULL) {
                snprintf(err, errlen, "%s: out of memory", path);
                ok = false;
                break;
            }
            s->ev = ne;
        }
        s->ev[s->count++] = ev;
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
        case EV_ENEMY:
            if (out->spawn_count < 8) {
                out->spawn_at[out->spawn_count++] = clv_v2(e->a, e->b);
            }
            break;
        default:
            break;
        }
    }
    out->move_x = s->move_x;
    out->move_y = s->move_y;
    out->aim = s->aim;
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
}
