/* The demo's loop driven with a FIXTURE weapon built in C with the hit API (no mod), plus the
 * asset loader's failure paths, the inputs parser, rewind, and hot reload of a mod folder. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "cleave/mod.h"
#include "harness.h"

#define BAR_TOP 480 /* the frame-data bar's band at the bottom of the canvas */

static clv_weapon *fixture_weapon(void) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    clv_attack_def ad = clv_default_attack_def();
    snprintf(ad.name, sizeof ad.name, "fixture_swing");
    ad.frames = 10;
    int32_t ai = -1;
    CHECK(clv_weapon_add_attack(w, &ad, &ai, NULL) == CLV_HIT_OK);
    clv_hitbox_def hd = clv_default_hitbox_def();
    snprintf(hd.id, sizeof hd.id, "fixture_blade");
    hd.shape = clv_shape_capsule(10.0f, 0.0f, 50.0f, 0.0f, 6.0f);
    hd.damage = 7.0f;
    hd.knockback.kind = CLV_KNOCKBACK_FIXED;
    hd.knockback.vector = clv_v2(3.0f, 0.0f);
    CHECK(clv_weapon_add_hitbox(w, ai, 2, 5, &hd, NULL) == CLV_HIT_OK);
    return w;
}

typedef struct run_result {
    int32_t hits;
    float enemy_damage;
    uint32_t *pixels;
    char log_tail[80];
    bool bar_named;    ///< the frame-data bar reads the attack's own name and length
    bool bar_numbered; ///< the bar reads "attack 1" instead
} run_result;

static app_canvas make_canvas(void) {
    app_canvas c;
    c.w = APP_W;
    c.h = APP_H;
    c.pitch = APP_W;
    c.px = calloc((size_t)APP_W * APP_H, sizeof *c.px);
    return c;
}

/* true when text, drawn by the app's font over a plain bg, appears pixel for pixel somewhere in
 * rows y0..y1 of c: a check that a name really reached the screen, not just a struct. */
static bool find_text(const app_canvas *c, const app_font *f, const char *text, uint32_t color,
                      int scale, uint32_t bg, int y0, int y1) {
    int tw = app_text_width(text, scale), th = app_font_cell_h(f) * scale;
    app_canvas ref = {.w = tw, .h = th, .pitch = tw};
    ref.px = calloc((size_t)tw * (size_t)th, sizeof *ref.px);
    if (ref.px == NULL || tw <= 0) {
        free(ref.px);
        return false;
    }
    app_clear(&ref, bg);
    app_text(&ref, f, 0, 0, text, color, scale);
    bool found = false;
    for (int y = y0; y <= y1 - th && y + th <= c->h && !found; y++) {
        for (int x = 0; x + tw <= c->w && !found; x++) {
            bool same = true;
            for (int j = 0; j < th && same; j++) {
                same = memcmp(&c->px[(size_t)(y + j) * (size_t)c->pitch + (size_t)x],
                              &ref.px[(size_t)j * (size_t)tw], (size_t)tw * sizeof *ref.px) == 0;
            }
            found = same;
        }
    }
    free(ref.px);
    return found;
}

/* w joins the arena and takes the slot named slot (the first, in a fresh game). */
static void give_slot(app_game *g, const clv_weapon *w, const char *slot) {
    char err[256];
    clv_weapon_id wid;
    CHECK(clv_arena_add_weapon(g->arena, w, &wid, NULL) == CLV_HIT_OK);
    CHECK(app_game_set_slot(g, slot, w, wid, err, sizeof err) == 0);
}

static run_result run_fixture(bool swing, const app_assets *assets) {
    run_result r;
    memset(&r, 0, sizeof r);
    char err[256];
    app_game g;
    CHECK(app_game_init(&g, 0, 1, -1.0f, err, sizeof err));
    clv_weapon *w = fixture_weapon();
    give_slot(&g, w, "fixture");
    CHECK(strcmp(g.slots[0].facts[0].name, "fixture_swing") == 0);
    CHECK(g.slots[0].facts[0].frames == 10);
    CHECK(g.slots[0].facts[0].startup == 2);
    CHECK(g.slots[0].facts[0].active_count == 4);
    CHECK(g.slots[0].facts[0].recovery == 4);
    clv_entity_info pi;
    CHECK(clv_arena_entity(g.arena, g.st.player, &pi) == CLV_HIT_OK);
    for (int f = 0; f < 30; f++) {
        app_input in;
        memset(&in, 0, sizeof in);
        in.aim = clv_v2(pi.position.x + 100.0f, pi.position.y);
        if (f == 0) {
            in.spawn_count = 1;
            in.spawn_at[0] = clv_v2(pi.position.x + 36.0f, pi.position.y);
        }
        in.attack = swing && f == 1 ? 1 : 0;
        app_game_remember(&g);
        CHECK(app_game_step(&g, &in, err, sizeof err));
    }
    r.hits = g.st.hits;
    clv_entity_info ei;
    CHECK(g.st.enemy_count == 1);
    CHECK(clv_arena_entity(g.arena, g.enemies[0].id, &ei) == CLV_HIT_OK);
    r.enemy_damage = ei.damage_taken;
    for (int i = 0; i < g.st.log_next && i < APP_LOG_LINES; i++) {
        if (strstr(g.st.log[i].text, " hit ") != NULL) {
            snprintf(r.log_tail, sizeof r.log_tail, "%s", g.st.log[i].text);
        }
    }
    app_canvas c = make_canvas();
    app_view v;
    memset(&v, 0, sizeof v);
    v.slow = 1;
    v.overlay = true;
    app_draw_game(&c, assets, &g, &v);
    /* idle again: the bar shows the selected weapon's first attack, in the bottom band */
    r.bar_named =
        find_text(&c, &assets->font, "fixture_swing  startup 2  active 4  recovery 4  total 10",
                  0xFFE8E8E8u, 1, 0xFF15171Du, APP_H - 80, APP_H);
    r.bar_numbered = find_text(&c, &assets->font, "attack 1  startup 2  active 4  recovery 4",
                               0xFFE8E8E8u, 1, 0xFF15171Du, APP_H - 80, APP_H);
    r.pixels = c.px;
    app_game_free(&g);
    clv_weapon_destroy(w);
    return r;
}

static void test_fixture_swing_hits_and_draws(void) {
    app_assets assets;
    app_assets_load(&assets, CLEAVE_SOURCE_DIR "/assets");
    CHECK(assets.problems[0] == '\0');
    run_result a = run_fixture(true, &assets), b = run_fixture(false, &assets);
    CHECK(a.hits == 1);
    CHECK_NEAR(a.enemy_damage, 7.0, 1e-6);
    CHECK(strstr(a.log_tail, "hit fixture_blade") != NULL);
    CHECK(b.hits == 0);
    CHECK_NEAR(b.enemy_damage, 0.0, 0.0);
    CHECK(a.bar_named && b.bar_named);
    CHECK(!a.bar_numbered && !b.bar_numbered);
    long differ = 0, colours = 0;
    for (size_t i = 0; i < (size_t)APP_W * APP_H; i++) {
        differ += a.pixels[i] != b.pixels[i];
        colours += i > 0 && a.pixels[i] != a.pixels[i - 1];
    }
    CHECK(differ > 100);   /* the damage number, the log line, the hit flash */
    CHECK(colours > 1000); /* a room of tiles and sprites, not a blank fill */
    free(a.pixels);
    free(b.pixels);
    app_assets_free(&assets);
}

static void test_rewind_restores_earlier_frames(void) {
    char err[256];
    app_game g;
    CHECK(app_game_init(&g, 5, 7, -1.0f, err, sizeof err));
    clv_weapon *w = fixture_weapon();
    give_slot(&g, w, "fixture");
    uint64_t hashes[40];
    for (int f = 0; f < 40; f++) {
        hashes[f] = clv_arena_hash(g.arena);
        app_input in;
        memset(&in, 0, sizeof in);
        in.aim = clv_v2(400.0f, 256.0f);
        in.move_x = 1.0f;
        in.attack = f % 12 == 0 ? 1 : 0;
        app_game_remember(&g);
        CHECK(app_game_step(&g, &in, err, sizeof err));
    }
    for (int back = 1; back <= 15; back++) {
        CHECK(app_game_rewind(&g));
        CHECK(g.st.frame == 40 - back);
        CHECK(clv_arena_hash(g.arena) == hashes[40 - back]);
    }
    app_game_free(&g);
    clv_weapon_destroy(w);
}

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
}

static void test_sprites_missing_and_corrupt(void) {
    char err[512];
    app_image img;
    CHECK(!app_image_load("no-such-sprite.png", 32, 24, &img, err, sizeof err));
    CHECK(img.placeholder && img.w == 32 && img.h == 24 && img.rgba != NULL);
    CHECK(strstr(err, "no-such-sprite.png: cannot open") != NULL);
    app_image_free(&img);

    write_file("corrupt.png", "\x89PNG\r\n\x1a\nnot really", 18);
    CHECK(!app_image_load("corrupt.png", 16, 16, &img, err, sizeof err));
    CHECK(img.placeholder && img.w == 16);
    CHECK(strstr(err, "corrupt.png: not a readable PNG") != NULL);
    app_image_free(&img);

    /* a real PNG cut short */
    FILE *f = fopen(CLEAVE_SOURCE_DIR "/assets/player.png", "rb");
    CHECK(f != NULL);
    unsigned char buf[4096];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) {
        fclose(f);
    }
    CHECK(n > 100);
    write_file("truncated.png", buf, n / 2);
    CHECK(!app_image_load("truncated.png", 32, 32, &img, err, sizeof err));
    CHECK(img.placeholder);
    app_image_free(&img);

    CHECK(app_image_load(CLEAVE_SOURCE_DIR "/assets/player.png", 1, 1, &img, err, sizeof err));
    CHECK(!img.placeholder && img.w == 32 && img.h == 32);
    app_image_free(&img);

    /* Its chunks up to IEND, then the first 11 bytes of a chunk frame claiming 2 GB (found by
     * fuzzing: the frame was too short to be checked, and stb asked for the 2 GB); and its
     * chunks without IEND at all. */
    size_t iend = 0;
    for (size_t k = 8; k + 8 <= n; k++) {
        iend = memcmp(buf + k + 4, "IEND", 4) == 0 && iend == 0 ? k : iend;
    }
    CHECK(iend > 8);
    unsigned char cut[4096 + 11];
    memcpy(cut, buf, iend);
    memcpy(cut + iend, "\x7f\xff\xff\xf0IDATx\xda\x01", 11);
    write_file("short-frame.png", cut, iend + 11);
    CHECK(!app_image_load("short-frame.png", 8, 8, &img, err, sizeof err));
    CHECK(img.placeholder && strstr(err, "a chunk runs past the end of the file") != NULL);
    app_image_free(&img);
    write_file("no-iend.png", cut, iend);
    CHECK(!app_image_load("no-iend.png", 8, 8, &img, err, sizeof err));
    CHECK(img.placeholder && strstr(err, "no IEND chunk") != NULL);
    app_image_free(&img);

    /* a whole missing asset folder: placeholders everywhere, and a frame still draws */
    app_assets a;
    app_assets_load(&a, "no-such-folder");
    CHECK(strstr(a.problems, "player.png") != NULL && strstr(a.problems, "font.png") != NULL);
    char e2[256];
    app_game g;
    CHECK(app_game_init(&g, 3, 1, -1.0f, e2, sizeof e2));
    app_canvas c = make_canvas();
    app_view v;
    memset(&v, 0, sizeof v);
    v.slow = 1;
    app_draw_game(&c, &a, &g, &v);
    long magenta = 0;
    for (size_t i = 0; i < (size_t)APP_W * APP_H; i++) {
        magenta += (c.px[i] & 0xFFFFFFu) == 0xFF00FFu;
    }
    CHECK(magenta > 1000); /* the placeholder checker is visible */
    free(c.px);
    app_game_free(&g);
    app_assets_free(&a);
}

static void test_inputs_file(void) {
    const char *good =
        "# comment\n0 weapon 2\n0 aim 10 20\n3 move 1 0\n3 attack\n7 enemy 5 6\n7 enemy 8 9\n";
    write_file("good.inputs", good, strlen(good));
    app_script s;
    char err[256];
    CHECK(app_script_load(&s, "good.inputs", err, sizeof err));
    CHECK(s.count == 6);
    app_input in;
    app_script_input(&s, 0, &in);
    CHECK(in.select_slot == 2 && !in.attack);
    CHECK_NEAR(in.aim.x, 10.0, 0.0);
    app_script_input(&s, 1, &in);
    CHECK(in.select_slot == 0 && in.move_x == 0.0f);
    app_script_input(&s, 3, &in);
    CHECK(in.attack && in.move_x == 1.0f);
    app_script_input(&s, 4, &in);
    CHECK(!in.attack && in.move_x == 1.0f); /* movement is held, presses are not */
    app_script_input(&s, 7, &in);
    CHECK(in.spawn_count == 2 && in.spawn_at[0].x == 5.0f && in.spawn_at[1].y == 9.0f);
    app_script_free(&s);

    /* any attack by its number; attack2 is attack 2; zoom is a view request */
    const char *more = "0 attack\n1 attack 3\n2 attack2\n3 zoom 2\n";
    write_file("more.inputs", more, strlen(more));
    CHECK(app_script_load(&s, "more.inputs", err, sizeof err));
    app_script_input(&s, 0, &in);
    CHECK(in.attack == 1 && in.zoom == 0);
    app_script_input(&s, 1, &in);
    CHECK(in.attack == 3);
    app_script_input(&s, 2, &in);
    CHECK(in.attack == 2);
    app_script_input(&s, 3, &in);
    CHECK(in.attack == 0 && in.zoom == 2);
    app_script_free(&s);

    struct {
        const char *text, *want;
    } bad[] = {{"0 aim 1\n", "bad.inputs:1: 'aim' takes 2 argument(s), got 1"},
               {"5 attack\n2 attack\n", "bad.inputs:2: frames must not go back (2 after 5)"},
               {"0 move 2 0\n", "bad.inputs:1: move components must be in -1..1"},
               {"x attack\n", "bad.inputs:1: frame must be an integer >= 0 (got 'x')"},
               {"0 weapon 12\n", "bad.inputs:1: weapon slot must be 1..9"},
               {"0 aim nan 3\n", "bad.inputs:1: 'aim' needs finite numbers"},
               {"0 attack 0\n", "bad.inputs:1: attack number must be 1..999 (name order)"},
               {"0 attack 1 2\n", "bad.inputs:1: 'attack' takes 0 to 1 argument(s), got 2"},
               {"0 zoom 5\n", "bad.inputs:1: zoom must be 1..4"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file("bad.inputs", bad[i].text, strlen(bad[i].text));
        CHECK(!app_script_load(&s, "bad.inputs", err, sizeof err));
        if (strcmp(err, bad[i].want) != 0) {
            fprintf(stderr, "got '%s', want '%s'\n", err, bad[i].want);
        }
        CHECK(strcmp(err, bad[i].want) == 0);
    }
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void test_hot_reload(void) {
    char *plank = read_all(CLEAVE_SOURCE_DIR "/mods/plank/mod.lua");
    CHECK(plank != NULL);
    if (plank == NULL) {
        return;
    }
    char *good = strdup(plank);
    (void)!system("rm -rf reload_mod && mkdir -p reload_mod");
    write_file("reload_mod/mod.lua", good, strlen(good));

    char err[256];
    app_game g;
    CHECK(app_game_init(&g, 0, 1, -1.0f, err, sizeof err));
    app_mods m;
    memset(&m, 0, sizeof m);
    CHECK(app_mods_add(&m, "reload_mod", &g));
    CHECK(g.slot_count == 1);
    CHECK(strcmp(g.slots[0].facts[0].name, "swing") == 0 && g.slots[0].facts[0].frames == 12);
    clv_weapon_id first = g.slots[0].id;
    struct clv_mod *first_mod = m.e[0].mod;
    CHECK(!app_mods_poll(&m, &g)); /* nothing changed */

    /* A broken save: the old version keeps running, the error names file and line. */
    const char *broken = "local x = 1\nreturn {\n  name = 'plank',\n  weapons = {\n";
    write_file("reload_mod/mod.lua", broken, strlen(broken));
    CHECK(app_mods_poll(&m, &g));
    CHECK(m.e[0].mod == first_mod);
    CHECK(strstr(m.e[0].error, "reload_mod/mod.lua:") != NULL);
    CHECK(strstr(m.banner, "keeping the last good version") != NULL);
    CHECK(g.slots[0].id.index1 == first.index1);

    /* A good save with more damage: swapped in, new weapon id, error cleared. */
    char *p = strstr(good, "damage = 6");
    CHECK(p != NULL);
    if (p) {
        p[9] = '9';
    }
    write_file("reload_mod/mod.lua", good, strlen(good));
    CHECK(app_mods_poll(&m, &g));
    CHECK(m.e[0].error[0] == '\0');
    CHECK(m.banner[0] == '\0');
    CHECK(m.e[0].retired_count == 0); /* the replaced version is freed at once */
    CHECK(g.slots[0].id.index1 != first.index1);
    CHECK(strcmp(g.slots[0].facts[0].name, "swing") == 0 && g.slots[0].facts[0].frames == 12);
    const clv_hitbox_def *h = clv_arena_hitbox(g.arena, g.slots[0].id, 0, 3, 0);
    CHECK(h != NULL && h->damage == 9.0f);
    /* no swing in flight: the old copy left the arena (test_reload_memory: one in flight) */
    CHECK(clv_arena_hitbox(g.arena, first, 0, 3, 0) == NULL);

    /* A deleted file also fails cleanly. */
    unlink("reload_mod/mod.lua");
    CHECK(app_mods_poll(&m, &g));
    CHECK(m.e[0].error[0] != '\0');
    CHECK(g.slots[0].id.index1 != first.index1);

    app_mods_close(&m);
    app_game_free(&g);
    free(good);
}

/* Names and lengths come from the attack's definition: a length past the last hitbox counts as
 * recovery, an attack without hitboxes is all startup, and the longest allowed attack is read
 * as is. */
static void test_attack_facts_from_definition(void) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    CHECK(w != NULL);
    if (w == NULL) {
        return;
    }
    clv_attack_def ad = clv_default_attack_def();
    snprintf(ad.name, sizeof ad.name, "jab");
    ad.frames = 9;
    int32_t jab = -1, feint = -1, long_one = -1;
    CHECK(clv_weapon_add_attack(w, &ad, &jab, NULL) == CLV_HIT_OK);
    snprintf(ad.name, sizeof ad.name, "feint");
    ad.frames = 5;
    CHECK(clv_weapon_add_attack(w, &ad, &feint, NULL) == CLV_HIT_OK);
    snprintf(ad.name, sizeof ad.name, "a_very_long_attack_name_of_31_c");
    ad.frames = CLV_ATTACK_MAX_FRAMES;
    CHECK(clv_weapon_add_attack(w, &ad, &long_one, NULL) == CLV_HIT_OK);
    clv_hitbox_def hd = clv_default_hitbox_def();
    snprintf(hd.id, sizeof hd.id, "fist");
    CHECK(clv_weapon_add_hitbox(w, jab, 1, 2, &hd, NULL) == CLV_HIT_OK);
    CHECK(clv_weapon_add_hitbox(w, long_one, 100, 100, &hd, NULL) == CLV_HIT_OK);

    app_attack_facts f;
    CHECK(app_attack_facts_of(w, jab, &f));
    CHECK(strcmp(f.name, "jab") == 0);
    CHECK(f.frames == 9 && f.startup == 1 && f.active_first == 1 && f.active_last == 2);
    CHECK(f.active_count == 2 && f.recovery == 6);

    CHECK(app_attack_facts_of(w, feint, &f));
    CHECK(strcmp(f.name, "feint") == 0);
    CHECK(f.frames == 5 && f.startup == 5 && f.active_first == -1 && f.recovery == 0);

    CHECK(app_attack_facts_of(w, long_one, &f));
    CHECK(strcmp(f.name, "a_very_long_attack_name_of_31_c") == 0);
    CHECK(f.frames == CLV_ATTACK_MAX_FRAMES && f.startup == 100 && f.active_count == 1);
    CHECK(f.recovery == CLV_ATTACK_MAX_FRAMES - 101);

    /* an index the weapon does not have: refused, and named by its 1-based position */
    CHECK(!app_attack_facts_of(w, 3, &f));
    CHECK(strcmp(f.name, "attack 4") == 0);
    CHECK(!app_attack_facts_of(w, -1, &f));
    clv_weapon_destroy(w);
}

/* `cleave render` titles the sheet with the attack's own name, with or without --attack. */
static void test_render_title_names_the_attack(void) {
    app_assets assets;
    app_assets_load(&assets, CLEAVE_SOURCE_DIR "/assets");
    const char *cases[][3] = {
        {"scythe", NULL, "scythe / scythe / swing"},
        {"sword", NULL, "sword / sword / slash1"},
        {"sword", "slash3", "sword / sword / slash3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char dir[512], out[64];
        snprintf(dir, sizeof dir, "%s/mods/%s", CLEAVE_SOURCE_DIR, cases[i][0]);
        snprintf(out, sizeof out, "render-title-%zu.png", i);
        char *argv[] = {dir, "--out", out, "--attack", (char *)cases[i][1]};
        CHECK(app_cmd_render(cases[i][1] ? 5 : 3, argv) == 0);
        app_image img;
        CHECK(app_image_load(out, 1, 1, &img, NULL, 0));
        app_canvas c = {.w = img.w, .h = img.h, .pitch = img.w};
        c.px = calloc((size_t)img.w * (size_t)img.h, sizeof *c.px);
        CHECK(c.px != NULL);
        for (size_t k = 0; c.px && k < (size_t)img.w * (size_t)img.h; k++) {
            const uint8_t *q = img.rgba + k * 4;
            c.px[k] = 0xFF000000u | (uint32_t)q[0] << 16 | (uint32_t)q[1] << 8 | q[2];
        }
        if (c.px) {
            CHECK(find_text(&c, &assets.font, cases[i][2], 0xFFFFD070u, 2, 0xFF14161Cu, 0, 28));
            char numbered[64];
            snprintf(numbered, sizeof numbered, "%s / %s / attack 1", cases[i][0], cases[i][0]);
            CHECK(!find_text(&c, &assets.font, numbered, 0xFFFFD070u, 2, 0xFF14161Cu, 0, 28));
        }
        free(c.px);
        app_image_free(&img);
    }
    app_assets_free(&assets);
}

/* A weapon of n attacks named a1..an, each a blade on frames 2..5 like the fixture's. */
static clv_weapon *weapon_of_attacks(int n) {
    clv_weapon *w = clv_weapon_create(NULL, NULL);
    for (int i = 0; w && i < n; i++) {
        clv_attack_def ad = clv_default_attack_def();
        snprintf(ad.name, sizeof ad.name, "a%d", i + 1);
        ad.frames = 10;
        int32_t ai = -1;
        CHECK(clv_weapon_add_attack(w, &ad, &ai, NULL) == CLV_HIT_OK);
        clv_hitbox_def hd = clv_default_hitbox_def();
        snprintf(hd.id, sizeof hd.id, "blade%d", i + 1);
        hd.shape = clv_shape_capsule(10.0f, 0.0f, 50.0f, 0.0f, 6.0f);
        hd.damage = 7.0f;
        CHECK(clv_weapon_add_hitbox(w, ai, 2, 5, &hd, NULL) == CLV_HIT_OK);
    }
    return w;
}

/* A fresh game (seed 0) wielding weapon_of_attacks(attacks) in the slot named slot; the caller
 * destroys the weapon after freeing the game. */
static clv_weapon *game_with_weapon(app_game *g, int attacks, const char *slot) {
    char err[256];
    CHECK(app_game_init(g, 0, 1, -1.0f, err, sizeof err));
    clv_weapon *w = weapon_of_attacks(attacks);
    give_slot(g, w, slot);
    return w;
}

/* One step that spawns an enemy just inside the blade's reach of the player. */
static void spawn_enemy_ahead(app_game *g) {
    char err[256];
    app_input in;
    memset(&in, 0, sizeof in);
    in.aim = clv_v2(400.0f, 256.0f);
    in.spawn_count = 1;
    in.spawn_at[0] = clv_v2(288.0f + 36.0f, 256.0f);
    CHECK(app_game_step(g, &in, err, sizeof err));
}

static void step_with(app_game *g, int32_t attack) {
    char err[256];
    app_input in;
    memset(&in, 0, sizeof in);
    in.aim = clv_v2(400.0f, 256.0f);
    in.attack = attack;
    CHECK(app_game_step(g, &in, err, sizeof err));
}

static void draw_default(app_canvas *c, const app_assets *a, const app_game *g, int32_t zoom,
                         bool overlay) {
    app_view v;
    memset(&v, 0, sizeof v);
    v.slow = 1;
    v.zoom = zoom;
    v.overlay = overlay;
    app_draw_game(c, a, g, &v);
}

/* Every attack of a weapon starts from an input (not only the first two), and the panel lists
 * the key of each. */
static void test_any_attack_starts(void) {
    app_assets assets;
    app_assets_load(&assets, CLEAVE_SOURCE_DIR "/assets");
    app_game g;
    clv_weapon *w = game_with_weapon(&g, 3, "three");
    for (int32_t want = 1; want <= 3; want++) {
        step_with(&g, want);
        clv_attack_info ai;
        CHECK(clv_arena_attack(g.arena, g.st.attack, &ai) == CLV_HIT_OK);
        CHECK(ai.attack == want - 1);
        for (int f = 0; f < 12; f++) {
            step_with(&g, 0);
        }
    }
    step_with(&g, 4); /* the weapon has no fourth attack: nothing starts */
    CHECK(!clv_arena_attack_valid(g.arena, g.st.attack));
    CHECK(g.st.swings == 3);
    app_canvas c = make_canvas();
    draw_default(&c, &assets, &g, 1, false);
    CHECK(
        find_text(&c, &assets.font, "keys: J a1  K a2  L a3", 0xFFD0C090u, 1, 0xFF15171Du, 0, 120));
    free(c.px);
    app_game_free(&g);
    clv_weapon_destroy(w);
    app_assets_free(&assets);
}

static int log_lines_with(const app_game *g, const char *part, int32_t *count) {
    int n = 0;
    for (int i = 0; i < g->st.log_next && i < APP_LOG_LINES; i++) {
        if (strstr(g->st.log[i].text, part) != NULL) {
            n++;
            *count = g->st.log[i].count;
        }
    }
    return n;
}

/* A blade resting on a target it already hit misses with "rehit" each frame: one line with a
 * count. The filter shows hits only, one enemy's lines, or everything. */
static void test_log_folds_and_filters(void) {
    app_assets assets;
    app_assets_load(&assets, CLEAVE_SOURCE_DIR "/assets");
    app_game g;
    clv_weapon *w = game_with_weapon(&g, 1, "one");
    spawn_enemy_ahead(&g);
    step_with(&g, 1);
    for (int f = 0; f < 20; f++) {
        step_with(&g, 0);
    }
    int32_t count = 0;
    CHECK(log_lines_with(&g, " hit blade1", &count) == 1);
    CHECK(log_lines_with(&g, " rehit ", &count) == 1);
    CHECK(count == 3); /* frames 3, 4 and 5 of the blade */

    /* the same key far apart in time is a new line */
    app_game_log_event(&g, APP_LOG_MISS, 9, "k", 0xFFFFFFFFu, "old");
    g.st.frame += 200;
    app_game_log_event(&g, APP_LOG_MISS, 9, "k", 0xFFFFFFFFu, "new");
    CHECK(log_lines_with(&g, "old", &count) == 1 && count == 1);
    CHECK(log_lines_with(&g, "new", &count) == 1 && count == 1);

    app_log_line hit = {.kind = APP_LOG_HIT, .target = 2},
                 miss = {.kind = APP_LOG_MISS, .target = 2};
    CHECK(app_log_visible(&hit, APP_FILTER_HITS, 0) && !app_log_visible(&miss, APP_FILTER_HITS, 0));
    CHECK(app_log_visible(&miss, APP_FILTER_ENEMY, 2) &&
          !app_log_visible(&miss, APP_FILTER_ENEMY, 3));
    CHECK(!app_log_visible(&hit, APP_FILTER_ENEMY, 0));
    CHECK(app_log_visible(&miss, APP_FILTER_ALL, 0));

    /* on screen: the folded line with its count under "all", not under "hits" */
    g.st.frame -= 200;
    app_canvas c = make_canvas();
    app_view v;
    memset(&v, 0, sizeof v);
    v.slow = 1;
    v.log_filter = APP_FILTER_ALL;
    app_draw_game(&c, &assets, &g, &v);
    CHECK(find_text(&c, &assets.font, " x3", 0xFFFFFFFFu, 1, 0xFF15171Du, 0, APP_H));
    v.log_filter = APP_FILTER_HITS;
    app_draw_game(&c, &assets, &g, &v);
    CHECK(!find_text(&c, &assets.font, " x3", 0xFFFFFFFFu, 1, 0xFF15171Du, 0, APP_H));
    CHECK(find_text(&c, &assets.font, "F: hits", 0xFF70F090u, 1, 0xFF15171Du, 0, APP_H));
    free(c.px);
    app_game_free(&g);
    clv_weapon_destroy(w);
    app_assets_free(&assets);
}

static long count_colour(const app_canvas *c, uint32_t colour) {
    long n = 0;
    for (size_t i = 0; i < (size_t)c->w * (size_t)c->h; i++) {
        n += c->px[i] == colour;
    }
    return n;
}

/* Zoomed in, the world is drawn larger around the player and the mouse maps back to the same
 * world point. */
static void test_zoom(void) {
    app_assets assets;
    app_assets_load(&assets, CLEAVE_SOURCE_DIR "/assets");
    char err[256];
    app_game g;
    CHECK(app_game_init(&g, 0, 1, -1.0f, err, sizeof err));
    app_view v;
    memset(&v, 0, sizeof v);
    v.zoom = 2;
    v.pan = clv_v2(30.0f, -20.0f);
    clv_vec2 w = clv_v2(300.0f, 250.0f);
    clv_vec2 p = app_view_to_screen(&v, &g, w),
             q = app_view_to_screen(&v, &g, clv_v2(310.0f, 250.0f));
    CHECK_NEAR(q.x - p.x, 20.0, 1e-4);
    clv_vec2 back = app_view_to_world(&v, &g, p);
    CHECK_NEAR(back.x, w.x, 1e-3);
    CHECK_NEAR(back.y, w.y, 1e-3);
    v.zoom = 1; /* zoom 1 draws the room where it always was, whatever the pan */
    p = app_view_to_screen(&v, &g, w);
    CHECK_NEAR(p.x, w.x, 0.0);
    CHECK_NEAR(p.y, w.y, 0.0);

    /* the player's hurtbox outline (overlay) is twice as long at 2x */
    app_canvas c = make_canvas();
    draw_default(&c, &assets, &g, 1, true);
    long one = count_colour(&c, 0xFF40FFFFu);
    draw_default(&c, &assets, &g, 2, true);
    long two = count_colour(&c, 0xFF40FFFFu);
    CHECK(one > 20);
    CHECK(two > one * 16 / 10 && two < one * 24 / 10);
    free(c.px);
    app_game_free(&g);
    app_assets_free(&assets);
}

static bool glyph_lit(const app_font *f, int ch, int row) {
    int gi = ch - 32, cell_h = app_font_cell_h(f);
    for (int i = 0; i < APP_GLYPH_W; i++) {
        size_t x = (size_t)((gi % 16) * APP_GLYPH_W + i), y = (size_t)((gi / 16) * cell_h + row);
        if (f->img.rgba[(y * (size_t)f->img.w + x) * 4 + 3] > 127) {
            return true;
        }
    }
    return false;
}

/* g j p q y reach below the baseline (row 6), where capitals, digits and other lower-case
 * letters stop. */
static void test_font_descenders(void) {
    app_assets assets;
    app_assets_load(&assets, CLEAVE_SOURCE_DIR "/assets");
    CHECK(!assets.font.img.placeholder && app_font_cell_h(&assets.font) == 10);
    if (assets.font.img.placeholder) {
        return;
    }
    for (const char *d = "gjpqy"; *d; d++) {
        CHECK(glyph_lit(&assets.font, *d, 6) && glyph_lit(&assets.font, *d, 8));
    }
    for (const char *d = "aehkmnP9"; *d; d++) {
        CHECK(glyph_lit(&assets.font, *d, 6) && !glyph_lit(&assets.font, *d, 7));
    }
    app_assets_free(&assets);
}

static bool wrap_keeps_words(const char *text, int cols) {
    int start[64], len[64];
    int n = app_wrap_words(text, cols, 64, start, len);
    bool ok = n <= 64;
    for (int i = 0; ok && i < n; i++) {
        int end = start[i] + len[i];
        ok = len[i] <= cols && (text[end] == '\0' || text[end] == ' ' || text[end] == '\n') &&
             (start[i] == 0 || text[start[i] - 1] == ' ' || text[start[i] - 1] == '\n');
    }
    return ok;
}

/* The error banner breaks at spaces and newlines; the first line is shown whole. */
static void test_banner_wraps_at_words(void) {
    const char *msg = "reload failed, keeping the last good version: mods/scythe/mod.lua:14: "
                      "attacks.swing.frames[6][2].radius must be >= 0 (got -3) and the rest of "
                      "a long sentence that goes on past two lines of the banner\n"
                      "stack traceback:\n [C]: in ?";
    CHECK(wrap_keeps_words(msg, 40));
    CHECK(wrap_keeps_words(msg, 93));
    int start[8], len[8];
    CHECK(app_wrap_words("ab cd\nef", 3, 8, start, len) == 3);
    CHECK(start[1] == 3 && len[1] == 2 && start[2] == 6 && len[2] == 2);
    CHECK(app_wrap_words("abcdefgh", 3, 8, start, len) == 3); /* a word longer than a line */
    CHECK(len[0] == 3 && start[2] == 6 && len[2] == 2);

    /* the last word of a three-line first line reaches the screen */
    app_assets assets;
    app_assets_load(&assets, CLEAVE_SOURCE_DIR "/assets");
    char err[256];
    app_game g;
    CHECK(app_game_init(&g, 0, 1, -1.0f, err, sizeof err));
    app_canvas a = make_canvas(), b = make_canvas();
    char other[512];
    snprintf(other, sizeof other, "%s", msg);
    char *banner_tail = strstr(other, "banner\n");
    CHECK(banner_tail != NULL);
    if (banner_tail) {
        memcpy(banner_tail, "BANNER", 6);
    }
    app_view v;
    memset(&v, 0, sizeof v);
    v.banner = msg;
    app_draw_game(&a, &assets, &g, &v);
    v.banner = other;
    app_draw_game(&b, &assets, &g, &v);
    long differ = 0;
    for (size_t i = 0; i < (size_t)APP_W * APP_H; i++) {
        differ += a.px[i] != b.px[i];
    }
    CHECK(differ > 10);
    free(a.px);
    free(b.px);
    app_game_free(&g);
    app_assets_free(&assets);
}

/* Screenshots take the next free number and never replace a file. */
static void test_screenshot_names(void) {
    (void)!system("rm -rf shots && mkdir -p shots");
    write_file("shots/s-000.png", "keep0", 5);
    write_file("shots/s-001.png", "keep1", 5);
    write_file("shots/s-003.png", "keep3", 5);
    int next = 0;
    char name[64];
    CHECK(app_claim_free_name("shots/s-%03d.png", &next, name, sizeof name));
    CHECK(strcmp(name, "shots/s-002.png") == 0 && next == 3);
    CHECK(app_claim_free_name("shots/s-%03d.png", &next, name, sizeof name));
    CHECK(strcmp(name, "shots/s-004.png") == 0 && next == 5);
    char *kept = read_all("shots/s-001.png");
    CHECK(kept != NULL && strcmp(kept, "keep1") == 0);
    kept = read_all("shots/s-003.png");
    CHECK(kept != NULL && strcmp(kept, "keep3") == 0);
    next = 0;
    CHECK(!app_claim_free_name("no-such-folder/s-%03d.png", &next, name, sizeof name));
}

/* While the wielder is frozen in hitlag the attack's frame stands still; the bar counts the
 * frozen frames, a step at a time, and says "hitlag". */
static void test_hitlag_on_frame_bar(void) {
    app_assets assets;
    app_assets_load(&assets, CLEAVE_SOURCE_DIR "/assets");
    app_game g;
    clv_weapon *w = game_with_weapon(&g, 1, "one");
    spawn_enemy_ahead(&g);
    step_with(&g, 1);
    for (int f = 0; f < 10 && g.st.hits == 0; f++) {
        step_with(&g, 0);
    }
    CHECK(g.st.hits == 1 && g.st.lag_total == 7 && g.st.lag_done == 0);
    app_canvas prev = make_canvas(), c = make_canvas();
    draw_default(&prev, &assets, &g, 1, false);
    CHECK(
        find_text(&prev, &assets.font, "hitlag 0/7", 0xFFFFD040u, 1, 0xFF15171Du, BAR_TOP, APP_H));
    for (int k = 1; k <= 7; k++) {
        clv_attack_info before, after;
        CHECK(clv_arena_attack(g.arena, g.st.attack, &before) == CLV_HIT_OK);
        step_with(&g, 0);
        CHECK(clv_arena_attack(g.arena, g.st.attack, &after) == CLV_HIT_OK);
        CHECK(after.frame == before.frame); /* frozen */
        draw_default(&c, &assets, &g, 1, false);
        char want[32];
        snprintf(want, sizeof want, "hitlag %d/7", k);
        CHECK(find_text(&c, &assets.font, want, 0xFFFFD040u, 1, 0xFF15171Du, BAR_TOP, APP_H));
        long moved = 0;
        for (size_t y = BAR_TOP; y < APP_H; y++) {
            for (size_t x = 0; x < 560; x++) {
                moved += c.px[y * APP_W + x] != prev.px[y * APP_W + x];
            }
        }
        CHECK(moved > 10); /* the bar itself changes at each frozen step */
        memcpy(prev.px, c.px, (size_t)APP_W * APP_H * sizeof *c.px);
    }
    step_with(&g, 0);
    CHECK(g.st.lag_total == 0);
    draw_default(&c, &assets, &g, 1, false);
    CHECK(!find_text(&c, &assets.font, "hitlag", 0xFFFFD040u, 1, 0xFF15171Du, BAR_TOP, APP_H));
    free(prev.px);
    free(c.px);
    app_game_free(&g);
    clv_weapon_destroy(w);
    app_assets_free(&assets);
}

int main(int argc, char **argv) {
    clv_test_init(argc, argv);
    RUN(test_fixture_swing_hits_and_draws);
    RUN(test_rewind_restores_earlier_frames);
    RUN(test_sprites_missing_and_corrupt);
    RUN(test_inputs_file);
    RUN(test_hot_reload);
    RUN(test_attack_facts_from_definition);
    RUN(test_render_title_names_the_attack);
    RUN(test_any_attack_starts);
    RUN(test_log_folds_and_filters);
    RUN(test_zoom);
    RUN(test_font_descenders);
    RUN(test_banner_wraps_at_words);
    RUN(test_screenshot_names);
    RUN(test_hitlag_on_frame_bar);
    return clv_test_report();
}
