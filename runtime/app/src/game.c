/* The demo's simulation: the player, enemies that walk at the player, swings, hit reactions,
 * respawns and the rewind history. It drives a clv_arena and never draws. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

#define PLAYER_SPEED 2.4f
#define PLAYER_RADIUS 11.0f
#define ENEMY_RADIUS 11.0f
#define ENEMY_HP 40.0f
#define RESPAWN_FRAMES 90
#define HISTORY_FRAMES 600
#define HISTORY_MAX_ENEMIES 256
#define FOLD_LINES 12  /* how far back a repeat is looked for in the log */
#define FOLD_FRAMES 90 /* and how recent that line must be */
#define THROW_FIRST 60 /* frames from a thrower's arrival to its first knife */

typedef struct hist_entry {
    uint8_t *snap;
    size_t len, cap;
    app_state st;
    app_enemy *enemies;
    int32_t enemy_cap;
} hist_entry;

static uint64_t rng_next(uint64_t *s) {
    /* xorshift64*: small, fast, and the same on every machine. */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static float rng_unit(uint64_t *s) { return (float)(rng_next(s) >> 40) / 16777216.0f; }

bool app_attack_facts_of(const clv_weapon *weapon, int32_t attack, app_attack_facts *out) {
    memset(out, 0, sizeof *out);
    out->active_first = out->active_last = -1;
    clv_attack_def def;
    if (clv_weapon_attack(weapon, attack, &def) != CLV_HIT_OK || def.frames <= 0) {
        snprintf(out->name, sizeof out->name, "attack %d", (int)attack + 1);
        return false;
    }
    snprintf(out->name, sizeof out->name, "%s", def.name);
    int32_t frames = def.frames;
    out->frames = frames;
    out->rebound = def.rebound;
    for (int32_t f = 0; f < frames; f++) {
        if (clv_weapon_frame_hitbox_count(weapon, attack, f) > 0) {
            if (out->active_first < 0) {
                out->active_first = f;
            }
            out->active_last = f;
            out->active_count++;
        }
    }
    out->startup = out->active_first < 0 ? frames : out->active_first;
    out->recovery = out->active_last < 0 ? 0 : frames - 1 - out->active_last;
    return true;
}

bool app_log_visible(const app_log_line *l, app_log_filter filter, uint32_t target) {
    switch (filter) {
    case APP_FILTER_HITS:
        return l->kind != APP_LOG_MISS && l->kind != APP_LOG_INFO;
    case APP_FILTER_ENEMY:
        return l->kind == APP_LOG_NOTE || (target != 0 && l->target == target);
    default:
        return true;
    }
}

const char *app_log_filter_name(app_log_filter filter) {
    static const char *names[APP_FILTER_COUNT] = {"hits", "enemy", "all"};
    return filter >= 0 && filter < APP_FILTER_COUNT ? names[filter] : "all";
}

static app_log_line *log_at(app_state *st, int32_t back) {
    return &st->log[(uint32_t)(st->log_next - back) % APP_LOG_LINES];
}

/* The recent line with this key, moved to the end of the log, or NULL. */
static app_log_line *fold_repeat(app_state *st, const char *key) {
    int32_t have = st->log_next < FOLD_LINES ? st->log_next : FOLD_LINES;
    for (int32_t back = 1; back <= have; back++) {
        app_log_line *l = log_at(st, back);
        if (st->frame - l->frame > FOLD_FRAMES) {
            return NULL;
        }
        if (strcmp(l->key, key) == 0) {
            app_log_line keep = *l;
            for (int32_t k = back; k > 1; k--) {
                *log_at(st, k) = *log_at(st, k - 1);
            }
            *log_at(st, 1) = keep;
            return log_at(st, 1);
        }
    }
    return NULL;
}

static void log_line(app_game *g, app_log_kind kind, uint32_t target, const char *key,
                     uint32_t color, const char *fmt, va_list ap) {
    app_state *st = &g->st;
    app_log_line *l = key && key[0] ? fold_repeat(st, key) : NULL;
    bool repeat = l != NULL;
    if (repeat) {
        l->count++;
    } else {
        l = log_at(st, 0);
        st->log_next++;
        memset(l, 0, sizeof *l);
        l->count = 1;
        l->kind = (int32_t)kind;
        l->target = target;
        snprintf(l->key, sizeof l->key, "%s", key ? key : "");
    }
    l->frame = st->frame;
    l->color = color;
    vsnprintf(l->text, sizeof l->text, fmt, ap);
    if (g->log_stdout && !repeat &&
        app_log_visible(l, (app_log_filter)g->stdout_filter, g->stdout_target)) {
        printf("%s\n", l->text);
    }
}

void app_game_log(app_game *g, uint32_t color, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    log_line(g, APP_LOG_NOTE, 0, NULL, color, fmt, ap);
    va_end(ap);
}

void app_game_log_event(app_game *g, app_log_kind kind, uint32_t target, const char *key,
                        uint32_t color, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    log_line(g, kind, target, key, color, fmt, ap);
    va_end(ap);
}

static app_popup *popup(app_game *g, clv_vec2 pos, float value, uint32_t color) {
    app_popup *p = &g->st.popups[g->st.popup_next % APP_POPUPS];
    g->st.popup_next++;
    memset(p, 0, sizeof *p);
    p->pos = pos;
    p->value = value;
    p->age = 0;
    p->color = color;
    p->used = true;
    return p;
}

clv_vec2 app_game_spawn_point(app_game *g) {
    /* Along the walls, so a new enemy walks in from the edge of the room. */
    float t = rng_unit(&g->st.rng);
    int side = (int)(rng_next(&g->st.rng) % 4);
    float w = APP_ROOM_X1 - APP_ROOM_X0 - 40.0f, h = APP_ROOM_Y1 - APP_ROOM_Y0 - 40.0f;
    float x0 = APP_ROOM_X0 + 20.0f, y0 = APP_ROOM_Y0 + 20.0f;
    switch (side) {
    case 0:
        return clv_v2(x0 + t * w, y0);
    case 1:
        return clv_v2(x0 + w, y0 + t * h);
    case 2:
        return clv_v2(x0 + t * w, y0 + h);
    default:
        return clv_v2(x0, y0 + t * h);
    }
}

bool app_game_spawn_enemy(app_game *g, int32_t kind, clv_vec2 at, char *err, size_t errlen) {
    if (g->st.enemy_count >= g->enemy_capacity) {
        int32_t cap = g->enemy_capacity * 2 + 8;
        app_enemy *ne = realloc(g->enemies, (size_t)cap * sizeof *ne);
        if (ne == NULL) {
            snprintf(err, errlen, "out of memory for enemies");
            return false;
        }
        g->enemies = ne;
        g->enemy_capacity = cap;
        g->hist_disabled = g->hist_disabled || cap > HISTORY_MAX_ENEMIES;
        g->hist_len = 0; /* entries hold the old enemy count */
    }
    clv_entity_def d = clv_default_entity_def();
    d.position = at;
    d.weight = 1.0f;
    d.friction = 0.35f;
    d.hp = ENEMY_HP;
    d.team = 1;
    d.hurtbox_count = 1;
    d.hurtboxes[0] = clv_shape_circle(0.0f, 0.0f, ENEMY_RADIUS);
    d.user = (uint64_t)g->st.enemy_count + 1;
    app_enemy *e = &g->enemies[g->st.enemy_count];
    memset(e, 0, sizeof *e);
    clv_hit_diag diag;
    if (clv_arena_spawn(g->arena, &d, &e->id, &diag) != CLV_HIT_OK) {
        snprintf(err, errlen, "spawning an enemy: %s", diag.message);
        return false;
    }
    e->speed = 0.7f + 0.5f * rng_unit(&g->st.rng);
    e->kind = kind;
    e->throw_in = THROW_FIRST;
    if (kind == APP_ENEMY_KNIGHT) {
        app_knight_spawned(g, e);
    }
    if (kind == APP_ENEMY_THROWER && app_knife_slot(g) < 0) {
        app_game_log(g, 0xFFFF6060u, "f%lld #%u is a thrower without knives: load the knives mod",
                     (long long)g->st.frame, (unsigned)e->id.index1);
    }
    g->st.enemy_count++;
    return true;
}

bool app_game_init(app_game *g, int32_t n_enemies, uint64_t seed, float miss_margin, char *err,
                   size_t errlen) {
    memset(g, 0, sizeof *g);
    g->st.rng = seed ? seed : 0x9E3779B97F4A7C15ull;
    g->st.slot = 0;
    g->st.attack_slot = -1;
    g->st.last_slot = -1;
    g->st.attack_prev_frame = -1;
    clv_arena_def ad = clv_default_arena_def();
    ad.entity_capacity = n_enemies + 8;
    ad.miss_margin = miss_margin >= 0.0f ? miss_margin : (n_enemies >= 1000 ? 0.0f : 24.0f);
    if (n_enemies >= 1000) {
        /* Crowds: the grid broadphase wins past a few thousand entities (cleave/hit.h). */
        ad.grid_cell_size = 32.0f;
        ad.grid_origin = clv_v2(0.0f, 0.0f);
        ad.grid_cols = (int32_t)(APP_ROOM_X1 / 32.0f) + 2;
        ad.grid_rows = (int32_t)(APP_ROOM_Y1 / 32.0f) + 2;
    }
    clv_hit_diag diag;
    g->arena = clv_arena_create(&ad, &diag);
    if (g->arena == NULL) {
        snprintf(err, errlen, "arena: %s", diag.message);
        return false;
    }
    clv_entity_def pd = clv_default_entity_def();
    pd.position = clv_v2((APP_ROOM_X0 + APP_ROOM_X1) * 0.5f, (APP_ROOM_Y0 + APP_ROOM_Y1) * 0.5f);
    pd.hp = APP_PLAYER_HP;
    pd.team = 0;
    pd.weight = 2.0f;
    pd.friction = 0.5f;
    pd.hurtbox_count = 1;
    pd.hurtboxes[0] = clv_shape_circle(0.0f, 0.0f, PLAYER_RADIUS);
    if (clv_arena_spawn(g->arena, &pd, &g->st.player, &diag) != CLV_HIT_OK) {
        snprintf(err, errlen, "player: %s", diag.message);
        return false;
    }
    if (!app_fighters_init(g, err, errlen)) {
        return false;
    }
    g->hist_disabled = n_enemies > HISTORY_MAX_ENEMIES;
    for (int32_t i = 0; i < n_enemies; i++) {
        if (!app_game_spawn_enemy(g, APP_ENEMY_SLIME, app_game_spawn_point(g), err, errlen)) {
            return false;
        }
    }
    return true;
}

static void hist_clear(app_game *g) {
    hist_entry *h = (hist_entry *)g->hist;
    for (int32_t i = 0; h != NULL && i < g->hist_cap; i++) {
        free(h[i].snap);
        free(h[i].enemies);
    }
    free(g->hist);
    g->hist = NULL;
    g->hist_cap = g->hist_len = g->hist_head = 0;
}

void app_game_free(app_game *g) {
    hist_clear(g);
    clv_arena_destroy(g->arena);
    free(g->enemies);
    memset(g, 0, sizeof *g);
}

int32_t app_game_set_slot(app_game *g, const char *label, const clv_weapon *weapon,
                          clv_weapon_id id, char *err, size_t errlen) {
    int32_t k = -1;
    for (int32_t i = 0; i < g->slot_count; i++) {
        if (strcmp(g->slots[i].label, label) == 0) {
            k = i;
        }
    }
    if (k < 0) {
        if (g->slot_count >= APP_MAX_SLOTS) {
            snprintf(err, errlen, "%s: only %d weapon slots; not added", label, APP_MAX_SLOTS);
            return -1;
        }
        k = g->slot_count++;
    }
    app_slot *s = &g->slots[k];
    memset(s, 0, sizeof *s);
    snprintf(s->label, sizeof s->label, "%s", label);
    s->id = id;
    s->weapon = weapon;
    s->attack_count = clv_weapon_attack_count(weapon);
    for (int32_t a = 0; a < s->attack_count && a < APP_MAX_FACTS; a++) {
        app_attack_facts_of(weapon, a, &s->facts[a]);
    }
    return k;
}

static bool same_weapon(clv_weapon_id x, clv_weapon_id y) {
    return x.index1 == y.index1 && x.gen == y.gen;
}

static void cancel_swings_of(app_game *g, clv_weapon_id id) {
    clv_attack_id cur = {0, 0};
    while (clv_arena_next_attack(g->arena, &cur)) {
        clv_attack_info ai;
        if (clv_arena_attack(g->arena, cur, &ai) == CLV_HIT_OK && same_weapon(ai.weapon, id)) {
            clv_arena_cancel_attack(g->arena, cur);
        }
    }
}

void app_game_retire_weapon(app_game *g, clv_weapon_id id) {
    if (clv_arena_remove_weapon(g->arena, id) != CLV_HIT_ERR_IN_USE) {
        return; /* freed now, or not in the arena */
    }
    if (g->retiring_count < APP_MAX_RETIRING) {
        g->retiring[g->retiring_count++] = id;
        return;
    }
    cancel_swings_of(g, id);
    clv_arena_remove_weapon(g->arena, id);
}

/* The retired weapons whose last swing ended in this step leave the arena. */
static void release_retired(app_game *g) {
    int32_t n = 0;
    for (int32_t i = 0; i < g->retiring_count; i++) {
        if (clv_arena_remove_weapon(g->arena, g->retiring[i]) == CLV_HIT_ERR_IN_USE) {
            g->retiring[n++] = g->retiring[i];
        }
    }
    g->retiring_count = n;
}

/* A press that starts nothing says why in the log, so that a timing being tuned is not lost to
 * a stun the eye missed (the press is dropped, not kept for later). Presses on consecutive
 * frames (the attract run's autopilot holds the key while in reach) say it once. */
static void refused_swing(app_game *g, const clv_entity_info *pi) {
    app_state *st = &g->st;
    bool held = st->refused_after != 0 && st->refused_after == st->frame;
    st->refused_after = st->frame + 1;
    if (held) {
        return;
    }
    char why[64];
    if (!pi->alive) {
        snprintf(why, sizeof why, "down");
    } else if (st->dodge > 0) {
        snprintf(why, sizeof why, "rolling");
    } else if (pi->hitstun > 0 && pi->hitlag > 0) {
        snprintf(why, sizeof why, "hitlag %d, then hitstun %d", (int)pi->hitlag, (int)pi->hitstun);
    } else if (pi->hitstun > 0) {
        snprintf(why, sizeof why, "hitstun %d", (int)pi->hitstun);
    } else {
        snprintf(why, sizeof why, "guarding");
    }
    app_game_log_event(g, APP_LOG_INFO, st->player.index1, NULL, 0xFFB0B0B0u,
                       "f%lld #%u no swing: %s", (long long)st->frame, (unsigned)st->player.index1,
                       why);
}

static void start_swing(app_game *g, const app_input *in) {
    app_state *st = &g->st;
    if (st->slot < 0 || st->slot >= g->slot_count) {
        return;
    }
    if (clv_arena_attack_valid(g->arena, st->attack)) {
        return; /* one swing at a time; no buffering */
    }
    app_slot *s = &g->slots[st->slot];
    int32_t which = in->attack - 1;
    if (which < 0 || which >= s->attack_count) {
        return; /* the weapon has no such attack: the key list shows the ones it has */
    }
    clv_attack_start_def d = clv_default_attack_start_def();
    d.weapon = s->id;
    d.attack = which;
    d.owner = st->player;
    d.position = clv_v2(0.0f, 0.0f);
    d.facing = st->facing;
    d.follow_owner = true;
    clv_hit_diag diag;
    if (clv_arena_start_attack(g->arena, &d, &st->attack, &diag) != CLV_HIT_OK) {
        app_game_log(g, 0xFFFF6060u, "f%lld cannot swing: %s", (long long)st->frame, diag.message);
        return;
    }
    st->swings++;
    st->attack_slot = st->slot;
    st->last_slot = st->slot;
    st->attack_index = which;
    st->attack_prev_frame = -1;
}

/* The hitbox a miss names (its attack may have ended in this step); NULL when none. */
static const clv_hitbox_def *miss_hitbox(const app_game *g, const clv_miss_record *m) {
    return clv_arena_hitbox(g->arena, m->weapon, m->attack_index, m->attack_frame, m->hitbox);
}

/* A miss that is no news: an attack (a swing, a knife, a knight's blade) passing its own
 * wielder or side, also a near miss, whose reason is the distance. */
static bool own_side_miss(const app_game *g, const clv_miss_record *m) {
    clv_entity_info ti, oi;
    return m->reason == CLV_MISS_TEAM ||
           (clv_arena_entity(g->arena, m->target, &ti) == CLV_HIT_OK &&
            clv_arena_entity(g->arena, m->attacker, &oi) == CLV_HIT_OK && oi.team == ti.team);
}

static void react_to_events(app_game *g) {
    app_state *st = &g->st;
    int32_t n = 0;
    const clv_hit_event *hits = clv_arena_hits(g->arena, &n);
    for (int32_t i = 0; i < n; i++) {
        const clv_hit_event *h = &hits[i];
        clv_entity_info info;
        if (clv_arena_entity(g->arena, h->target, &info) != CLV_HIT_OK) {
            continue;
        }
        const clv_hitbox_def *hd =
            clv_arena_hitbox(g->arena, h->weapon, h->attack_index, h->attack_frame, h->hitbox);
        bool by_player = h->attacker.index1 == st->player.index1;
        bool on_player = h->target.index1 == st->player.index1;
        st->hits += by_player;
        st->hurt += on_player;
        if (info.user >= 1 && info.user <= (uint64_t)st->enemy_count) {
            app_enemy *e = &g->enemies[info.user - 1];
            app_knight_hurt(g, e, h);
            e->flash = 8;
            int32_t stun = h->hitstun > 12 ? h->hitstun : 12;
            e->stagger = stun + h->hitlag;
            if (e->kind == APP_ENEMY_THROWER && e->throw_in < APP_THROW_WINDUP) {
                e->throw_in = APP_THROW_WINDUP; /* a hit spoils the throw: it winds up again */
            }
        }
        if (h->flags & CLV_HIT_FLAG_KILLED) {
            st->kills++;
        }
        uint32_t color =
            h->damage >= 15.0f ? 0xFFFF5050u : (h->damage >= 8.0f ? 0xFFFFB040u : 0xFFFFF080u);
        if (h->damage > 0.0f || (h->flags & CLV_HIT_FLAG_PUSH_ONLY)) {
            app_popup *p =
                popup(g, clv_v2(info.position.x, info.position.y - 14.0f), h->damage, color);
            p->contact = h->point;
            p->knockback = h->knockback;
        }
        char words[48];
        app_game_log_event(
            g, APP_LOG_HIT, h->target.index1, NULL, color,
            "f%lld hit %s @%d -> #%u dmg %.1f kb %.1f lag %d%s%s%s", (long long)st->frame,
            hd ? hd->id : "?", (int)h->attack_frame + 1, (unsigned)h->target.index1,
            (double)h->damage,
            (double)sqrtf(h->knockback.x * h->knockback.x + h->knockback.y * h->knockback.y),
            (int)h->hitlag, (h->flags & CLV_HIT_FLAG_KILLED) ? " KO" : "",
            (h->flags & CLV_HIT_FLAG_PUSH_ONLY) ? " push" : "",
            app_hit_flag_words(h, words, sizeof words));
        app_note_guard_break(g, h);
    }
    const clv_miss_record *ms = clv_arena_misses(g->arena, &n);
    int32_t shown = 0;
    for (int32_t i = 0; i < n; i++) {
        const clv_miss_record *m = &ms[i];
        bool news = !own_side_miss(g, m);
        /* counted as the hits are: the player's, its own side left out */
        st->misses += news && m->attacker.index1 == st->player.index1 &&
                      m->attacker.gen == st->player.gen; /* a knife it reflected too */
        if (!news || shown >= 4) {
            continue; /* the panel holds a few */
        }
        shown++;
        const clv_hitbox_def *hd = miss_hitbox(g, m);
        const char *reason = clv_miss_reason_name(m->reason);
        char key[48];
        snprintf(key, sizeof key, "miss %.20s #%u %s", hd ? hd->id : "?",
                 (unsigned)m->target.index1, reason);
        app_game_log_event(g, APP_LOG_MISS, m->target.index1, key, 0xFF8FA0B8u,
                           "f%lld miss %s @%d -> #%u %s %.1fpx", (long long)st->frame,
                           hd ? hd->id : "?", (int)m->attack_frame + 1, (unsigned)m->target.index1,
                           reason, (double)m->distance);
    }
    const clv_tick_event *ts = clv_arena_ticks(g->arena, &n);
    for (int32_t i = 0; i < n; i++) {
        const clv_tick_event *t = &ts[i];
        if (t->damage <= 0.0f) {
            continue;
        }
        clv_entity_info info;
        if (clv_arena_entity(g->arena, t->target, &info) != CLV_HIT_OK) {
            continue;
        }
        popup(g, clv_v2(info.position.x + 8.0f, info.position.y - 8.0f), t->damage, 0xFFE03050u);
        if (t->killed) {
            st->kills++;
        }
        char key[48];
        snprintf(key, sizeof key, "tick %.20s #%u", t->name, (unsigned)t->target.index1);
        app_game_log_event(g, APP_LOG_TICK, t->target.index1, t->killed ? NULL : key, 0xFFE06070u,
                           "f%lld %s tick #%u -%.1f%s", (long long)st->frame, t->name,
                           (unsigned)t->target.index1, (double)t->damage, t->killed ? " KO" : "");
    }
}

/* The attack's own frame stands still in hitlag, so the frozen frames are counted here for
 * the frame-data bar. left is the player's hitlag after this step. */
static void track_hitlag(app_state *st, int32_t left) {
    if (st->lag_left > 0) {
        st->lag_done++; /* this step was frozen */
        if (left > st->lag_left - 1) {
            st->lag_total = st->lag_done + left; /* a longer freeze replaced it */
        }
    } else if (left > 0) {
        st->lag_total = left;
        st->lag_done = 0;
    } else {
        st->lag_total = st->lag_done = 0;
    }
    st->lag_left = left;
}

uint32_t app_enemy_at(const app_game *g, clv_vec2 w) {
    uint32_t best = 0;
    float best_d = ENEMY_RADIUS + 2.0f; /* a little slack: the mouse is a coarse pointer */
    for (int32_t i = 0; i < g->st.enemy_count; i++) {
        clv_entity_info ei;
        if (clv_arena_entity(g->arena, g->enemies[i].id, &ei) != CLV_HIT_OK || !ei.alive) {
            continue;
        }
        float d = hypotf(ei.position.x - w.x, ei.position.y - w.y);
        if (d < best_d) {
            best_d = d;
            best = g->enemies[i].id.index1;
        }
    }
    return best;
}

static void keep_in_room(app_game *g, clv_entity_id id, const clv_entity_info *info, float r) {
    clv_vec2 p = info->position, v = info->velocity;
    bool moved = false;
    if (p.x < APP_ROOM_X0 + r) {
        p.x = APP_ROOM_X0 + r;
        v.x = fabsf(v.x) * 0.5f;
        moved = true;
    } else if (p.x > APP_ROOM_X1 - r) {
        p.x = APP_ROOM_X1 - r;
        v.x = -fabsf(v.x) * 0.5f;
        moved = true;
    }
    if (p.y < APP_ROOM_Y0 + r) {
        p.y = APP_ROOM_Y0 + r;
        v.y = fabsf(v.y) * 0.5f;
        moved = true;
    } else if (p.y > APP_ROOM_Y1 - r) {
        p.y = APP_ROOM_Y1 - r;
        v.y = -fabsf(v.y) * 0.5f;
        moved = true;
    }
    if (moved) {
        clv_arena_set_position(g->arena, id, p);
        clv_arena_set_velocity(g->arena, id, v);
    }
}

/* Each enemy's walk for this frame: dead ones wait to walk back in, staggered and frozen ones
 * are left to the arena, throwers keep their distance, slimes close in. */
static void move_enemies(app_game *g, const clv_entity_info *pi) {
    app_state *st = &g->st;
    for (int32_t i = 0; i < st->enemy_count; i++) {
        app_enemy *e = &g->enemies[i];
        clv_entity_info ei;
        if (clv_arena_entity(g->arena, e->id, &ei) != CLV_HIT_OK) {
            continue;
        }
        if (e->flash > 0) {
            e->flash--;
        }
        if (!ei.alive) {
            if (++e->dead >= RESPAWN_FRAMES) {
                e->dead = 0;
                e->stagger = 0;
                e->throw_in = THROW_FIRST;
                clv_arena_set_position(g->arena, e->id, app_game_spawn_point(g));
                clv_arena_set_velocity(g->arena, e->id, clv_v2(0.0f, 0.0f));
                clv_arena_set_hp(g->arena, e->id, ENEMY_HP);
                if (e->kind == APP_ENEMY_KNIGHT) {
                    app_knight_spawned(g, e);
                }
            } else {
                clv_arena_set_velocity(g->arena, e->id, clv_v2(0.0f, 0.0f));
            }
            continue;
        }
        e->cooldown -= e->cooldown > 0; /* a knight's rest runs out even while it is stunned */
        if (e->stagger > 0) {
            e->stagger--;
            continue; /* knockback and friction own the motion */
        }
        if (ei.hitlag > 0) {
            continue;
        }
        if (e->kind == APP_ENEMY_THROWER) {
            clv_arena_set_velocity(g->arena, e->id, app_thrower_step(g, i, &ei, pi));
            continue;
        }
        if (e->kind == APP_ENEMY_KNIGHT) {
            clv_arena_set_velocity(g->arena, e->id, app_knight_step(g, i, &ei, pi));
            continue;
        }
        /* Each enemy heads for its own spot on a ring around the player (golden-angle
         * spacing), so a crowd surrounds the player instead of piling onto one point. */
        float ring = PLAYER_RADIUS + ENEMY_RADIUS + 6.0f + (float)(i / 12) * 6.0f;
        float ang = (float)i * 2.39996323f;
        clv_vec2 spot =
            clv_v2(pi->position.x + cosf(ang) * ring, pi->position.y + sinf(ang) * ring);
        clv_vec2 to = clv_v2(spot.x - ei.position.x, spot.y - ei.position.y);
        float dist = sqrtf(to.x * to.x + to.y * to.y);
        clv_vec2 v = clv_v2(0.0f, 0.0f);
        if (dist > 1.0f) {
            float sp = dist < e->speed ? dist : e->speed;
            v = clv_v2(to.x / dist * sp, to.y / dist * sp);
        }
        clv_arena_set_velocity(g->arena, e->id, v);
    }
}

bool app_game_step(app_game *g, const app_input *in, char *err, size_t errlen) {
    app_state *st = &g->st;
    if (g->slot_count > 0) {
        if (in->select_slot >= 1 && in->select_slot <= g->slot_count) {
            st->slot = in->select_slot - 1;
        }
        if (in->cycle != 0) {
            st->slot = ((st->slot + in->cycle) % g->slot_count + g->slot_count) % g->slot_count;
        }
    }
    for (int32_t i = 0; i < in->spawn_count && i < 8; i++) {
        if (!app_game_spawn_enemy(g, in->spawn_kind[i], in->spawn_at[i], err, errlen)) {
            return false;
        }
    }

    clv_entity_info pi;
    if (clv_arena_entity(g->arena, st->player, &pi) != CLV_HIT_OK) {
        snprintf(err, errlen, "the player entity is gone");
        return false;
    }
    clv_vec2 d = clv_v2(in->aim.x - pi.position.x, in->aim.y - pi.position.y);
    if (d.x * d.x + d.y * d.y > 1.0f) {
        st->facing = atan2f(d.y, d.x);
    }
    bool acts = app_player_control(g, in, &pi);
    if (acts && pi.hitlag <= 0) {
        float mx = in->move_x, my = in->move_y;
        float len = sqrtf(mx * mx + my * my);
        if (len > 1.0f) {
            mx /= len;
            my /= len;
        }
        float speed = clv_arena_attack_valid(g->arena, st->attack) ? PLAYER_SPEED * 0.5f
                      : st->guarding                               ? PLAYER_SPEED * 0.4f
                                                                   : PLAYER_SPEED;
        clv_arena_set_velocity(g->arena, st->player, clv_v2(mx * speed, my * speed));
    }
    if (in->attack > 0 && acts && !st->guarding) {
        start_swing(g, in);
    } else if (in->attack > 0) {
        refused_swing(g, &pi);
    }
    app_player_parry(g, in);

    move_enemies(g, &pi);

    clv_attack_info ai;
    if (clv_arena_attack(g->arena, st->attack, &ai) == CLV_HIT_OK && ai.frame >= 0) {
        st->attack_prev_pos = ai.position;
        st->attack_prev_frame = ai.frame;
    } else {
        st->attack_prev_frame = -1;
    }

    clv_hit_status rc = clv_arena_step(g->arena);
    if (rc != CLV_HIT_OK) {
        snprintf(err, errlen, "arena step: %s", clv_hit_status_name(rc));
        return false;
    }
    react_to_events(g);
    app_game_react_meetings(g);

    if (clv_arena_entity(g->arena, st->player, &pi) == CLV_HIT_OK) {
        keep_in_room(g, st->player, &pi, PLAYER_RADIUS);
        track_hitlag(st, pi.hitlag);
    }
    for (int32_t i = 0; i < st->enemy_count; i++) {
        clv_entity_info ei;
        if (clv_arena_entity(g->arena, g->enemies[i].id, &ei) == CLV_HIT_OK) {
            keep_in_room(g, g->enemies[i].id, &ei, ENEMY_RADIUS);
        }
    }
    if (!clv_arena_attack_valid(g->arena, st->attack)) {
        st->attack_slot = -1;
        st->attack_prev_frame = -1;
    }
    release_retired(g);
    for (int32_t i = 0; i < APP_POPUPS; i++) {
        if (st->popups[i].used) {
            st->popups[i].age++;
        }
    }
    for (int32_t i = 0; i < APP_SPARKS; i++) {
        st->sparks[i].age += st->sparks[i].used;
    }
    st->frame++;
    return true;
}

void app_game_remember(app_game *g) {
    if (g->hist_disabled) {
        return;
    }
    if (g->hist == NULL) {
        g->hist = calloc(HISTORY_FRAMES, sizeof(hist_entry));
        if (g->hist == NULL) {
            g->hist_disabled = true;
            return;
        }
        g->hist_cap = HISTORY_FRAMES;
    }
    hist_entry *h = &((hist_entry *)g->hist)[g->hist_head];
    size_t need = clv_arena_snapshot_size(g->arena);
    if (need > h->cap) {
        uint8_t *nb = realloc(h->snap, need);
        if (nb == NULL) {
            return;
        }
        h->snap = nb;
        h->cap = need;
    }
    if (h->enemies == NULL || h->enemy_cap < g->st.enemy_count) {
        app_enemy *ne = realloc(h->enemies, (size_t)(g->enemy_capacity + 1) * sizeof *ne);
        if (ne == NULL) {
            return;
        }
        h->enemies = ne;
        h->enemy_cap = g->enemy_capacity + 1;
    }
    if (clv_arena_snapshot(g->arena, h->snap, h->cap, &h->len) != CLV_HIT_OK) {
        return;
    }
    h->st = g->st;
    if (g->st.enemy_count > 0) {
        memcpy(h->enemies, g->enemies, (size_t)g->st.enemy_count * sizeof *g->enemies);
    }
    g->hist_head = (g->hist_head + 1) % g->hist_cap;
    if (g->hist_len < g->hist_cap) {
        g->hist_len++;
    }
}

bool app_game_rewind(app_game *g) {
    if (g->hist_len == 0) {
        return false;
    }
    int32_t k = (g->hist_head - 1 + g->hist_cap) % g->hist_cap;
    hist_entry *h = &((hist_entry *)g->hist)[k];
    if (h->st.enemy_count > g->enemy_capacity ||
        clv_arena_restore(g->arena, h->snap, h->len) != CLV_HIT_OK) {
        g->hist_len = 0;
        return false;
    }
    g->st = h->st;
    if (h->st.enemy_count > 0) {
        memcpy(g->enemies, h->enemies, (size_t)h->st.enemy_count * sizeof *g->enemies);
    }
    g->hist_head = k;
    g->hist_len--;
    return true;
}
