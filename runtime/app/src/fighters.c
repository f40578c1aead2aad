/* The bodies of the demo's fighters and the knights' blade, built in C: the player's body
 * (idle, walk, a dodge roll with intangible frames, guard), a knight's body whose sword arm is
 * out while it swings, and the blade a knight swings, whose startup is long enough to read. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"

#define TORSO_RADIUS 11.0f
#define DODGE_SAFE_FIRST 3 /* the dodge's intangible frames, 0-based: 8 of them */
#define DODGE_SAFE_LAST 10
#define BLADE_STARTUP 18 /* frames before the blade's first active one */
#define BLADE_ACTIVE 6
#define BLADE_RECOVERY 12
#define KNIGHT_POISE 3.5f /* units per frame: the sword's pushes (2.4-2.9) do not stop a swing */
#define DEG (3.14159265f / 180.0f)

static clv_hurtbox_def hurtbox(const char *id, clv_shape shape, clv_hurtbox_state state) {
    clv_hurtbox_def h = clv_default_hurtbox_def();
    snprintf(h.id, sizeof h.id, "%s", id);
    h.shape = shape;
    h.state = state;
    return h;
}

/* An animation of n frames; *ok turns false (with diag) on the first refusal. */
static int32_t animation(clv_body *b, const char *name, int32_t n, bool loop, bool *ok,
                         clv_hit_diag *diag) {
    clv_animation_def a = {{0}, n, loop};
    snprintf(a.name, sizeof a.name, "%s", name);
    int32_t index = -1;
    *ok = *ok && clv_body_add_animation(b, &a, &index, diag) == CLV_HIT_OK;
    return index;
}

static void add(clv_body *b, int32_t anim, int32_t first, int32_t last, clv_hurtbox_def h, bool *ok,
                clv_hit_diag *diag) {
    *ok = *ok && clv_body_add_hurtbox(b, anim, first, last, &h, diag) == CLV_HIT_OK;
}

/* The player: a torso that bobs as it walks, a roll whose frames 4-11 let hits pass through,
 * and a guard whose shield stands out in front. */
static clv_body *player_body(clv_hit_diag *diag) {
    clv_body *b = clv_body_create("player", NULL, diag);
    bool ok = b != NULL;
    int32_t idle = animation(b, "idle", 1, true, &ok, diag);
    add(b, idle, 0, 0, hurtbox("torso", clv_shape_circle(0, 0, TORSO_RADIUS), CLV_HURTBOX_NORMAL),
        &ok, diag);
    int32_t walk = animation(b, "walk", 24, true, &ok, diag);
    add(b, walk, 0, 11, hurtbox("torso", clv_shape_circle(1, 0, TORSO_RADIUS), CLV_HURTBOX_NORMAL),
        &ok, diag);
    add(b, walk, 12, 23,
        hurtbox("torso", clv_shape_circle(-1, 0, TORSO_RADIUS), CLV_HURTBOX_NORMAL), &ok, diag);
    int32_t dodge = animation(b, "dodge", APP_DODGE_FRAMES, false, &ok, diag);
    clv_shape roll = clv_shape_circle(0, 0, TORSO_RADIUS - 2.0f);
    add(b, dodge, 0, DODGE_SAFE_FIRST - 1, hurtbox("torso", roll, CLV_HURTBOX_NORMAL), &ok, diag);
    add(b, dodge, DODGE_SAFE_FIRST, DODGE_SAFE_LAST, hurtbox("torso", roll, CLV_HURTBOX_INTANGIBLE),
        &ok, diag);
    add(b, dodge, DODGE_SAFE_LAST + 1, APP_DODGE_FRAMES - 1,
        hurtbox("torso", roll, CLV_HURTBOX_NORMAL), &ok, diag);
    int32_t guard = animation(b, "guard", 1, true, &ok, diag);
    add(b, guard, 0, 0, hurtbox("torso", clv_shape_circle(0, 0, TORSO_RADIUS), CLV_HURTBOX_NORMAL),
        &ok, diag);
    add(b, guard, 0, 0, hurtbox("shield", clv_shape_obb(12, 0, 3, 11, 0), CLV_HURTBOX_NORMAL), &ok,
        diag);
    clv_guard_def gd = clv_default_guard_def();
    gd.regen = 0.15f;
    gd.guard_break = 90;
    ok = ok && clv_body_set_guard(b, &gd, diag) == CLV_HIT_OK;
    if (!ok) {
        clv_body_destroy(b);
        return NULL;
    }
    return b;
}

/* A knight: a torso, and while it swings an arm held out toward its target; both are heavy
 * armor from the wind-up to the blade's last active frame (pushes slower than KNIGHT_POISE
 * land without stopping the swing), and the recovery is open. */
static clv_body *knight_body(clv_hit_diag *diag) {
    clv_body *b = clv_body_create("knight", NULL, diag);
    bool ok = b != NULL;
    clv_hurtbox_def torso =
        hurtbox("torso", clv_shape_circle(0, 0, TORSO_RADIUS), CLV_HURTBOX_NORMAL);
    int32_t idle = animation(b, "idle", 1, true, &ok, diag);
    add(b, idle, 0, 0, torso, &ok, diag);
    int32_t len = BLADE_STARTUP + BLADE_ACTIVE + BLADE_RECOVERY;
    int32_t swing = animation(b, "swing", len, false, &ok, diag);
    torso.state = CLV_HURTBOX_ARMOR;
    torso.heavy = KNIGHT_POISE;
    add(b, swing, 0, BLADE_STARTUP + BLADE_ACTIVE - 1, torso, &ok, diag);
    clv_hurtbox_def arm = hurtbox("arm", clv_shape_capsule(8, 0, 20, 0, 4), CLV_HURTBOX_ARMOR);
    arm.heavy = KNIGHT_POISE;
    add(b, swing, 6, BLADE_STARTUP + BLADE_ACTIVE - 1, arm, &ok, diag);
    torso.state = CLV_HURTBOX_NORMAL;
    add(b, swing, BLADE_STARTUP + BLADE_ACTIVE, len - 1, torso, &ok, diag);
    if (!ok) {
        clv_body_destroy(b);
        return NULL;
    }
    return b;
}

/* The knight's blade: one "cleave", a long wind-up, a 130-degree arc, and a recovery a
 * player who blocked or dodged it can punish. */
static clv_weapon *knight_blade(clv_hit_diag *diag) {
    clv_weapon *w = clv_weapon_create(NULL, diag);
    clv_attack_def ad = clv_default_attack_def();
    snprintf(ad.name, sizeof ad.name, "cleave");
    ad.frames = BLADE_STARTUP + BLADE_ACTIVE + BLADE_RECOVERY;
    int32_t attack = -1;
    bool ok = w != NULL && clv_weapon_add_attack(w, &ad, &attack, diag) == CLV_HIT_OK;
    for (int32_t k = 0; ok && k < BLADE_ACTIVE; k++) {
        float a = (-70.0f + 26.0f * (float)k) * DEG;
        clv_hitbox_def h = clv_default_hitbox_def();
        snprintf(h.id, sizeof h.id, "blade");
        h.shape = clv_shape_capsule(10 * cosf(a), 10 * sinf(a), 42 * cosf(a), 42 * sinf(a), 3);
        h.damage = 8.0f;
        h.knockback.kind = CLV_KNOCKBACK_SCALING;
        h.knockback.angle = 0.0f;
        h.knockback.base = 2.0f;
        h.knockback.growth = 0.1f;
        h.hitstun = 14; /* the arena's own (0.4 x push) is nothing on the heavy player */
        h.chip = 0.25f;
        h.shield_damage = 6.0f;
        int32_t fr = BLADE_STARTUP + k;
        ok = clv_weapon_add_hitbox(w, attack, fr, fr, &h, diag) == CLV_HIT_OK;
    }
    if (!ok) {
        clv_weapon_destroy(w);
        return NULL;
    }
    return w;
}

clv_body *app_demo_body(const char *name, clv_hit_diag *diag) {
    if (strcmp(name, "player") == 0) {
        return player_body(diag);
    }
    return strcmp(name, "knight") == 0 ? knight_body(diag) : NULL;
}

static bool add_bodies(app_game *g, clv_hit_diag *diag) {
    app_fighters *f = &g->fighters;
    clv_body *p = player_body(diag), *k = knight_body(diag);
    bool ok = p != NULL && k != NULL &&
              clv_arena_add_body(g->arena, p, &f->player_body, diag) == CLV_HIT_OK &&
              clv_arena_add_body(g->arena, k, &f->knight_body, diag) == CLV_HIT_OK;
    clv_body_destroy(p);
    clv_body_destroy(k);
    if (!ok) {
        return false;
    }
    f->idle = clv_arena_find_animation(g->arena, f->player_body, "idle");
    f->walk = clv_arena_find_animation(g->arena, f->player_body, "walk");
    f->dodge = clv_arena_find_animation(g->arena, f->player_body, "dodge");
    f->guard = clv_arena_find_animation(g->arena, f->player_body, "guard");
    f->knight_idle = clv_arena_find_animation(g->arena, f->knight_body, "idle");
    f->knight_swing = clv_arena_find_animation(g->arena, f->knight_body, "swing");
    return true;
}

bool app_fighters_init(app_game *g, char *err, size_t errlen) {
    clv_hit_diag diag;
    memset(&diag, 0, sizeof diag);
    if (!add_bodies(g, &diag)) {
        snprintf(err, errlen, "the fighters' bodies: %s", diag.message);
        return false;
    }
    clv_weapon *w = knight_blade(&diag);
    app_fighters *f = &g->fighters;
    bool ok = w != NULL && clv_arena_add_weapon(g->arena, w, &f->blade, &diag) == CLV_HIT_OK;
    if (ok) {
        f->blade_attack = 0;
        app_attack_facts_of(w, 0, &f->blade_facts);
    }
    clv_weapon_destroy(w);
    if (!ok) {
        snprintf(err, errlen, "the knights' blade: %s", diag.message);
        return false;
    }
    g->st.player_anim = f->idle;
    clv_arena_play(g->arena, g->st.player, f->player_body, f->idle);
    return true;
}
