/* The cleave app's private interface: a software canvas, images, the demo's simulation and its
 * drawing, mods with hot reload, scripted inputs, and the render/check commands.
 *
 * The simulation (app_game) never looks at the canvas or at SDL: the same inputs give the same
 * game whether a window shows it or not.
 */
#ifndef CLEAVE_APP_INTERNAL_H
#define CLEAVE_APP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cleave/body.h"
#include "cleave/hit.h"

/* ---- Canvas: 32-bit ARGB pixels, drawn in software, identical with or without a window ---- */

/// A view of pixels owned elsewhere (an SDL surface or a plain buffer). pitch is in pixels.
typedef struct app_canvas {
    uint32_t *px;
    int w, h, pitch;
} app_canvas;

/// ARGB from components.
static inline uint32_t app_rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
    return (a << 24) | (r << 16) | (g << 8) | b;
}

/// An RGBA image in memory (8 bits per channel, row-major, no padding), as stb_image gives it.
typedef struct app_image {
    uint8_t *rgba; ///< owned; free with app_image_free
    int w, h;
    bool placeholder; ///< true when the file was missing or corrupt
} app_image;

/// Loads a PNG. Never fails: on a missing or corrupt file it writes why to err (when not NULL)
/// and returns a w x h magenta/black checker placeholder. Returns false in that case.
bool app_image_load(const char *path, int w, int h, app_image *out, char *err, size_t errlen);
/// The file at path opened for reading only when it is a regular file, and without blocking (a
/// FIFO is refused, not waited on); NULL with *why set ("not a regular file", ...) otherwise.
FILE *app_open_regular(const char *path, const char **why);
/// Frees the pixels.
void app_image_free(app_image *img);
/// Writes the canvas as a PNG; false on error.
bool app_canvas_write_png(const app_canvas *c, const char *path);

/// A bitmap font: 16 x 6 cells, ASCII 32..127, white glyphs on transparent. Cells are 6 pixels
/// wide and a sixth of the image high (10: caps and x-height above the baseline at row 6,
/// descenders in rows 7-8).
typedef struct app_font {
    app_image img;
} app_font;

#define APP_GLYPH_W 6
/// Height of a cell of f (10 without a font: the boxes drawn instead).
int app_font_cell_h(const app_font *f);

void app_clear(app_canvas *c, uint32_t color);
/// Alpha-blended filled rectangle.
void app_fill_rect(app_canvas *c, int x, int y, int w, int h, uint32_t color);
void app_rect(app_canvas *c, int x, int y, int w, int h, uint32_t color);
void app_line(app_canvas *c, float x0, float y0, float x1, float y1, uint32_t color);
/// A capsule (a == b: a circle): fill inside, outline (1 px) at the edge; 0 alpha skips either.
void app_capsule(app_canvas *c, clv_vec2 a, clv_vec2 b, float r, uint32_t fill, uint32_t line);
/// A convex quad (points in order) filled with alpha.
void app_quad(app_canvas *c, const clv_vec2 p[4], uint32_t fill, uint32_t line);
/// Draws a shape placed in world space, offset by (ox, oy) and scaled.
void app_shape(app_canvas *c, const clv_shape *s, float ox, float oy, float scale, uint32_t fill,
               uint32_t line);
/// Draws an image with its top-left at (x, y), scaled by an integer factor; tint_white in
/// 0..255 mixes toward white (hit flash), alpha scales opacity, flip mirrors horizontally.
void app_blit(app_canvas *c, const app_image *img, int x, int y, int scale, int tint_white,
              int alpha, bool flip);
/// Draws an image turned about its point pivot (image pixels), which lands on canvas point at:
/// each image pixel is scale canvas pixels, mirror flips the image's y first, then it turns by
/// angle (radians), as a weapon-local shape is placed (app_place_shape). Nearest pixel, alpha.
void app_blit_turned(app_canvas *c, const app_image *img, clv_vec2 at, clv_vec2 pivot, float scale,
                     float angle, bool mirror);
/// Text at (x, y), scale >= 1; returns the width in pixels. '\n' starts a new line, one cell
/// height and a pixel lower.
int app_text(app_canvas *c, const app_font *f, int x, int y, const char *s, uint32_t color,
             int scale);
/// Text with a 1 px dark shadow, for text over the room.
int app_text_shadow(app_canvas *c, const app_font *f, int x, int y, const char *s, uint32_t color,
                    int scale);
/// Width in pixels of the longest line.
int app_text_width(const char *s, int scale);

/* ---- Weapons: attack facts read through the public hit API ---- */

/// What a person tuning an attack wants to see at once.
typedef struct app_attack_facts {
    char name[CLV_HIT_NAME_MAX];
    int32_t frames;  ///< length
    int32_t startup; ///< frames before the first active one (the first active is startup+1)
    int32_t active_first, active_last; ///< 0-based, -1 when the attack has no hitbox
    int32_t active_count;              ///< frames with at least one hitbox
    int32_t recovery;                  ///< frames after the last active one
    int32_t rebound; ///< frames of recovery when the attack clanks, or CLV_FRAMES_AUTO
} app_attack_facts;

/// Facts of attack index of a weapon, read from its definition. false for a bad index (out->name
/// then reads "attack N", 1-based).
bool app_attack_facts_of(const clv_weapon *weapon, int32_t attack, app_attack_facts *out);

/// Places a weapon-local shape at a pose: mirror flips y, then rotate by facing, then translate.
clv_shape app_place_shape(const clv_shape *local, clv_vec2 pos, float facing, bool mirror);

/* ---- The check, render and bake commands: one mod and its weapons in an arena ---- */

struct clv_mod;

/// A mod loaded for a command, with the weapon last picked placed in an arena of its own.
typedef struct app_picked {
    struct clv_mod *mod;
    clv_arena *arena;
    clv_weapon_id wid;
    const clv_weapon *weapon;
    const char *weapon_name;
    const clv_weapon *arena_weapon; ///< the weapon wid names
} app_picked;

/// The mod folder an argument names: the folder itself, or the folder of a mod.lua given in its
/// place (written to buf).
const char *app_mod_folder(const char *arg, char *buf, size_t n);
/// Loads the mod in dir; false (the error on stderr) when it does not load. Close p either way.
bool app_pick_open(const char *dir, app_picked *p);
/// Puts weapon index of the mod in p's arena; false (on stderr) when it cannot be used.
bool app_pick_weapon(app_picked *p, int32_t index);
void app_pick_close(app_picked *p);

/// An attack to write as a frames file: its definition, its hitboxes, k-th of frame fr
/// (0-based), NULL past the last, and the hurtboxes it carries on frame fr (their number in
/// *count; hurtboxes NULL when it carries none).
typedef struct app_frames_src {
    const char *weapon_name;
    const clv_attack_def *attack;
    const clv_hitbox_def *(*hitbox)(void *ud, int32_t fr, int32_t k);
    void *ud;
    const clv_hurtbox_def *(*hurtboxes)(void *ud, int32_t fr, int32_t *count);
} app_frames_src;

/// Writes src as the frames file path (through path.tmp, renamed); false with err set.
bool app_frames_write(const char *path, const app_frames_src *src, char *err, size_t errlen);
/// Writes one hitbox as a frames file line holds it ("{ id = ..., effects = {} }").
bool app_frames_put_hitbox(FILE *f, const clv_hitbox_def *h);

/* ---- The demo's simulation ---- */

#define APP_W 960
#define APP_H 540
#define APP_ROOM_X0 32.0f
#define APP_ROOM_Y0 64.0f
#define APP_ROOM_X1 544.0f
#define APP_ROOM_Y1 448.0f
#define APP_MAX_SLOTS 16
#define APP_MAX_RETIRING 8 ///< replaced weapons kept for their swings in flight
#define APP_LOG_LINES 64
#define APP_MAX_FACTS 16          ///< attacks per weapon whose frame data the demo shows
#define APP_ATTACK_KEYS "JKLUIOP" ///< the keys that start attacks 1..7 (with Shift 8..14)
#define APP_POPUPS 96
#define APP_SPARKS 16
#define APP_PARRY_FRAMES 12   ///< frames the parry key (Q) keeps the player in CLV_HURT_PARRY
#define APP_PARRY_COOLDOWN 30 ///< frames from one parry to the next
#define APP_THROW_WINDUP 30   ///< frames a thrower stands with its knife raised before it throws
#define APP_PLAYER_HP 100.0f
#define APP_PLAYER_RESPAWN 120  ///< frames from the player's death to its return
#define APP_DODGE_FRAMES 20     ///< the dodge roll's length (intangible on its frames 4 to 11)
#define APP_DODGE_COOLDOWN 40   ///< frames from one dodge to the next
#define APP_GUARD_BREAK_SHOW 90 ///< frames a broken guard is shown

/// What the edit mode is told: a toggle, the mouse (screen pixels), or a key.
typedef enum app_ed_kind {
    APP_ED_TOGGLE = 1,
    APP_ED_PRESS,
    APP_ED_MOTION,
    APP_ED_RELEASE,
    APP_ED_KEY
} app_ed_kind;

/// The edit mode's keys, in the order of APP_ED_KEY_NAMES.
typedef enum app_ed_key {
    APP_EK_NEXT,
    APP_EK_PREV,
    APP_EK_ADD,
    APP_EK_DUP,
    APP_EK_DEL,
    APP_EK_UNDO,
    APP_EK_REDO,
    APP_EK_SAVE,
    APP_EK_UP,
    APP_EK_DOWN,
    APP_EK_LEFT,
    APP_EK_RIGHT,
    APP_EK_COUNT
} app_ed_key;
#define APP_ED_KEY_NAMES                                                                           \
    { "next", "prev", "add", "dup", "del", "undo", "redo", "save", "up", "down", "left", "right" }

typedef struct app_ed_action {
    int32_t kind; ///< app_ed_kind
    float x, y;   ///< PRESS, MOTION: the pointer, screen pixels
    bool free;    ///< PRESS, MOTION: the modifier that turns snapping off is held
    int32_t key;  ///< KEY: app_ed_key
} app_ed_action;

#define APP_ED_ACTIONS 8

/// Inputs of one simulation frame (from devices, a script or the attract mode).
typedef struct app_input {
    float move_x, move_y; ///< -1..1 each
    clv_vec2 aim;         ///< world point
    int32_t attack;       ///< pressed this frame: start this attack (1-based, name order), 0 none
    int32_t select_slot;  ///< 1..9 to select a weapon slot, 0 = no change
    int32_t cycle;        ///< +1 / -1: next / previous weapon slot
    int32_t spawn_count;  ///< extra enemies to spawn this frame, at spawn_at[0..count)
    clv_vec2 spawn_at[8];
    int32_t spawn_kind[8]; ///< app_enemy_kind of each
    bool parry;            ///< pressed this frame: the player parries (APP_PARRY_FRAMES)
    bool guard;            ///< held: the player guards toward the aim
    bool dodge;            ///< pressed this frame: the player rolls (APP_DODGE_FRAMES)
    int32_t zoom; ///< a view request carried with the frame: zoom 1..4, 0 = keep (not simulated)
    int32_t ed_count; ///< actions for the edit mode (not simulated)
    app_ed_action ed[APP_ED_ACTIONS];
} app_input;

struct app_anim;

/// A weapon the player can hold: from a mod, or built in C by a test fixture.
typedef struct app_slot {
    char label[48];           ///< "mod/weapon"
    clv_weapon_id id;         ///< in the game's arena
    const clv_weapon *weapon; ///< owned by the mod or fixture; NULL once retired
    int32_t attack_count;
    app_attack_facts facts[APP_MAX_FACTS];
    const struct app_anim *anim; ///< the attacker's sheet (owned by its mod), or NULL
} app_slot;

/// What an enemy does: walks at the player, keeps its distance and throws knives, or closes in
/// and swings a blade (a knight, with a body).
typedef enum app_enemy_kind { APP_ENEMY_SLIME, APP_ENEMY_THROWER, APP_ENEMY_KNIGHT } app_enemy_kind;

typedef struct app_enemy {
    clv_entity_id id;
    int32_t kind;     ///< app_enemy_kind
    int32_t throw_in; ///< thrower: frames until its knife leaves the hand
    int32_t flash;    ///< frames of hit flash left
    int32_t stagger;  ///< frames the walk is suspended after a hit
    int32_t dead;     ///< frames since death, 0 while alive
    float speed;
    clv_attack_id swing; ///< knight: its swing in progress
    int32_t cooldown;    ///< knight: frames until it may swing again
} app_enemy;

typedef struct app_popup {
    clv_vec2 pos;
    clv_vec2 contact;   ///< where the hit landed (overlay), world
    clv_vec2 knockback; ///< velocity the hit gave (overlay), units per frame
    float value;
    int32_t age; ///< frames since it appeared
    uint32_t color;
    bool used;
} app_popup;

/// CLASH: clashes, parries, reflections; INFO: throws and the like, listed only under `all`
/// (and `enemy` for its enemy).
typedef enum app_log_kind {
    APP_LOG_HIT,
    APP_LOG_MISS,
    APP_LOG_TICK,
    APP_LOG_NOTE,
    APP_LOG_CLASH,
    APP_LOG_INFO
} app_log_kind;

/// A spark where two attacks met, or a hit met a parry (drawn for a few frames).
typedef struct app_spark {
    clv_vec2 pos;
    int32_t kind; ///< clv_clash_kind
    int32_t age;  ///< frames since it appeared
    bool used;
} app_spark;

/// A line of the hit log. Lines of the same kind, hitbox, target and reason close together are
/// one line with a count, so a blade resting on a target reads "rehit x12", not twelve lines.
typedef struct app_log_line {
    int64_t frame;
    uint32_t color;
    int32_t kind;    ///< app_log_kind
    uint32_t target; ///< index1 of the entity the line is about, 0 for none
    int32_t count;   ///< repeats folded into this line (1 = once)
    char key[48];    ///< what makes two lines repeats of each other
    char text[72];
} app_log_line;

/// Everything the simulation owns outside the arena; plain data, copied as a whole into the
/// rewind history with an arena snapshot.
typedef struct app_state {
    int64_t frame;
    uint64_t rng;
    clv_entity_id player;
    float facing;         ///< radians, toward the aim
    clv_attack_id attack; ///< the player's swing in progress
    int32_t attack_slot;  ///< slot of that swing, -1 when none
    int32_t attack_index;
    int32_t last_slot;        ///< slot of the last swing started (with attack_index), -1 before any
    clv_vec2 attack_prev_pos; ///< last frame's pose of the swing, for the swept area
    int32_t attack_prev_frame;   ///< -1 when there is none
    int32_t slot;                ///< selected weapon slot
    int32_t hits, misses, kills; ///< hits the player's attacks landed, misses, KOs
    int32_t hurt;                ///< hits that landed on the player
    int32_t clashes;             ///< clashes and parries
    int32_t parry_cooldown;      ///< frames until the parry key works again
    int32_t spark_next;
    app_spark sparks[APP_SPARKS];
    int32_t swings;        ///< attacks started by the player
    int64_t refused_after; ///< the frame after the last press that started nothing; 0: none
    int32_t popup_next;
    app_popup popups[APP_POPUPS];
    int32_t log_next;
    app_log_line log[APP_LOG_LINES];
    int32_t enemy_count;
    /// The player's hitlag: the freeze's length, frames of it passed, frames left (all 0 when
    /// none was running this frame).
    int32_t lag_total, lag_done, lag_left;
    bool guarding;          ///< the player holds its guard this frame
    int32_t dodge;          ///< frames of the player's dodge left
    clv_vec2 dodge_dir;     ///< unit direction of that dodge
    int32_t dodge_cooldown; ///< frames until the dodge key works again
    int32_t down;           ///< frames since the player died, 0 while alive
    int32_t player_anim;    ///< the animation of the player's body it plays
    int32_t guard_broken;   ///< frames the player's broken guard still shows
    int32_t deaths;         ///< times the player died
} app_state;

/// The bodies and the knights' blade the game adds to its arena (fighters.c).
typedef struct app_fighters {
    clv_body_id player_body, knight_body;
    int32_t idle, walk, dodge, guard;  ///< the player body's animations
    int32_t knight_idle, knight_swing; ///< the knight body's
    clv_weapon_id blade;               ///< the knights' weapon
    int32_t blade_attack;              ///< its attack
    app_attack_facts blade_facts;
} app_fighters;

typedef struct app_game {
    clv_arena *arena;
    app_state st;
    app_enemy *enemies; ///< enemy_capacity entries, st.enemy_count used
    int32_t enemy_capacity;
    app_slot slots[APP_MAX_SLOTS];
    int32_t slot_count;
    /// Weapons a reload replaced while a swing still used them: removed from the arena by the
    /// step after which none does (app_game_retire_weapon).
    clv_weapon_id retiring[APP_MAX_RETIRING];
    int32_t retiring_count;
    app_fighters fighters;
    bool log_stdout;        ///< print hits and misses as they happen (headless runs)
    int32_t stdout_filter;  ///< app_log_filter of the lines printed
    uint32_t stdout_target; ///< the enemy APP_FILTER_ENEMY prints (index1)
    /* rewind history: a ring of (arena snapshot, app_state, enemies) */
    int32_t hist_cap, hist_len, hist_head;
    size_t hist_stride;
    uint8_t *hist;
    bool hist_disabled;
} app_game;

/// A game with n_enemies walking toward the player. miss_margin: how near a miss must come to be
/// recorded with its reason (units); < 0 picks 24, or 0 for crowds of 1,000 and more, where
/// recording every near miss costs more than the rest of the frame. false with a message on error.
bool app_game_init(app_game *g, int32_t n_enemies, uint64_t seed, float miss_margin, char *err,
                   size_t errlen);
void app_game_free(app_game *g);
/// Adds or replaces (same label) a weapon slot; returns the slot index or -1 (err says why).
int32_t app_game_set_slot(app_game *g, const char *label, const clv_weapon *weapon,
                          clv_weapon_id id, char *err, size_t errlen);
/// Frees the arena's copy of a weapon the game no longer offers: at once when no swing uses it,
/// else after the step that ends the last one (beyond APP_MAX_RETIRING waiting, its swings are
/// cancelled instead, so that memory stays bounded).
void app_game_retire_weapon(app_game *g, clv_weapon_id id);
/// One fixed 60 Hz frame. false on an arena error (written to err).
bool app_game_step(app_game *g, const app_input *in, char *err, size_t errlen);
/// Spawns an enemy of a kind (app_enemy_kind) at a world point; false with err on error.
bool app_game_spawn_enemy(app_game *g, int32_t kind, clv_vec2 at, char *err, size_t errlen);
/// A random point along the room's walls, where new enemies walk in from.
clv_vec2 app_game_spawn_point(app_game *g);
/// The velocity a thrower walks at this frame; throws its knife when the time comes.
clv_vec2 app_thrower_step(app_game *g, int32_t i, const clv_entity_info *ei,
                          const clv_entity_info *pi);
/// The player's parry (the input's parry press) and its cooldown, before the arena step.
void app_player_parry(app_game *g, const app_input *in);
/// Adds the bodies and the knights' blade to the arena and gives the player its body.
bool app_fighters_init(app_game *g, char *err, size_t errlen);
/// Gives a newly spawned (or returning) knight its body and hp.
void app_knight_spawned(app_game *g, app_enemy *e);
/// The velocity a knight walks at this frame; starts its swing when the player is in reach.
clv_vec2 app_knight_step(app_game *g, int32_t i, const clv_entity_info *ei,
                         const clv_entity_info *pi);
/// A hit that gets through a knight's armor while its swing is still winding up spoils it.
void app_knight_hurt(app_game *g, app_enemy *e, const clv_hit_event *h);
/// The player's guard, dodge, animation, death and return, before the arena step. false when
/// the player does not act this frame (down, dodging, stunned): its motion is not the input's.
bool app_player_control(app_game *g, const app_input *in, const clv_entity_info *pi);
/// Logs a hit that broke its target's guard, on a line of its own, and shows it on the player.
void app_note_guard_break(app_game *g, const clv_hit_event *h);
/// The hit log's words for a hit's defence flags (" blocked stun 8", " armor"...), in buf.
const char *app_hit_flag_words(const clv_hit_event *h, char *buf, size_t n);
/// The attract mode's defence: guard or dodge the knight winding up nearest the player.
void app_attract_defend(const app_game *g, app_input *out);
/// The slot of the weapon throwers throw (the knives mod's), or -1 when none is loaded.
int32_t app_knife_slot(const app_game *g);
/// Logs the last step's clashes, parries and projectile events, and puts up their sparks.
void app_game_react_meetings(app_game *g);
/// Records the current state into the rewind history.
void app_game_remember(app_game *g);
/// Goes back one frame; false when the history is empty.
bool app_game_rewind(app_game *g);
/// Appends a line to the hit log panel (and stdout when log_stdout): a note, not about a target.
void app_game_log(app_game *g, uint32_t color, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/// Appends a line about a target; a line with the same key among the last few of the recent
/// frames is counted and moved to the end instead. Printed on stdout (log_stdout) only when new.
void app_game_log_event(app_game *g, app_log_kind kind, uint32_t target, const char *key,
                        uint32_t color, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* ---- Drawing the game ---- */

typedef struct app_assets {
    app_image player, enemy, floor, wall;
    app_image thrower; ///< made from enemy
    app_image knight;  ///< made from enemy
    app_font font;
    char problems[512]; ///< asset load failures, shown on screen
} app_assets;

/// Loads every asset from dir; never fails (placeholders), problems lists what went wrong.
void app_assets_load(app_assets *a, const char *dir);
void app_assets_free(app_assets *a);

/// Which lines the hit log shows.
typedef enum app_log_filter {
    APP_FILTER_HITS,  ///< hits, effect ticks and notes
    APP_FILTER_ENEMY, ///< everything about the enemy last under the mouse
    APP_FILTER_ALL,
    APP_FILTER_COUNT
} app_log_filter;

/// true when the filter shows line l; target is the enemy under the mouse (index1, 0 = none).
bool app_log_visible(const app_log_line *l, app_log_filter filter, uint32_t target);
/// The filter's name as the panel and --log spell it: "hits", "enemy", "all".
const char *app_log_filter_name(app_log_filter filter);

#define APP_MAX_ZOOM 4

/// What the timing tools show (not part of the simulation).
typedef struct app_view {
    bool overlay; ///< H: hitboxes, swept area, hurtboxes, onion skin
    bool paused;
    int32_t slow;       ///< 1, 2, 4 or 8: simulation frames every slow display frames
    const char *banner; ///< an error to show (reload failure), or NULL
    const char *status; ///< a line of status (mods loaded...), or NULL
    bool headless;
    int32_t zoom;        ///< 1..APP_MAX_ZOOM; 0 reads as 1
    clv_vec2 pan;        ///< world offset of the view's centre from the player (zoom > 1)
    int32_t log_filter;  ///< app_log_filter
    uint32_t log_target; ///< index1 of the enemy the ENEMY filter follows, 0 = none yet
} app_view;

/// The room's viewport on the canvas: x 0..APP_VIEW_W, y APP_VIEW_Y0..APP_VIEW_Y1.
#define APP_VIEW_W 576
#define APP_VIEW_Y0 30
#define APP_VIEW_Y1 482

/// The world point drawn at canvas point p (the inverse of the view's zoom and pan).
clv_vec2 app_view_to_world(const app_view *v, const app_game *g, clv_vec2 p);
/// The canvas point where world point w is drawn.
clv_vec2 app_view_to_screen(const app_view *v, const app_game *g, clv_vec2 w);
/* The view's mapping as canvas = world * z + o, for drawing many points. */
typedef struct app_xf {
    float z, ox, oy;
} app_xf;
app_xf app_view_xf(const app_view *v, const app_game *g);
clv_vec2 app_xf_point(const app_xf *t, clv_vec2 w);
/// The living enemy whose hurtbox is under world point w (index1), or 0.
uint32_t app_enemy_at(const app_game *g, clv_vec2 w);

/// Splits text into lines of at most cols characters, breaking at spaces (a word longer than a
/// line is cut) and at '\n'. Writes up to max_lines (start, length) pairs; returns the number
/// of lines the whole text needs, which may be more than max_lines.
int app_wrap_words(const char *text, int cols, int max_lines, int *start, int *len);

void app_draw_game(app_canvas *c, const app_assets *a, const app_game *g, const app_view *v);
/// Hurtboxes by state (normal, intangible, invincible, armor) and the guard's shield arc.
void app_draw_hurtboxes(app_canvas *c, const app_game *g, const app_view *v);
/// One hurtbox drawn at canvas = shape * z + o in its state's colours (intangible: dashed).
void app_draw_hurtbox(app_canvas *c, const clv_shape *s, clv_vec2 o, float z,
                      clv_hurtbox_state state);
/// The outline colour of a hurtbox state, as the overlay and body sheets draw it.
uint32_t app_hurtbox_color(clv_hurtbox_state state);
/// A body the demo builds in C ("player", "knight"), or NULL (diag says why when not NULL).
clv_body *app_demo_body(const char *name, clv_hit_diag *diag);
/// Draws every frame of every animation of a body, one cell each, into the PNG out; false (on
/// stderr) when it cannot. title heads the sheet.
bool app_render_body(const clv_body *body, const char *title, const char *out);
/// The player's health and guard meter, its guard and dodge, the knights' wind-ups.
void app_draw_fighters(app_canvas *c, const app_font *f, const app_game *g, const app_view *v);
/// Knives in flight, throwers winding up, the player's parry and the sparks of clashes.
void app_draw_meetings(app_canvas *c, const app_font *f, const app_game *g, const app_view *v);
/// The frame-data bar of attack facts at (x, y), w wide; current is the frame to mark or -1.
void app_draw_frame_bar(app_canvas *c, const app_font *f, int x, int y, int w,
                        const app_attack_facts *facts, int32_t current);
/// The same bar while the wielder is frozen in hitlag: lag_done of lag_total frames passed (the
/// attack's own frame does not advance then, so the bar counts the frozen frames itself).
void app_draw_frame_bar_lag(app_canvas *c, const app_font *f, int x, int y, int w,
                            const app_attack_facts *facts, int32_t current, int32_t lag_done,
                            int32_t lag_total);

/* ---- Mods and hot reload ---- */

/// A mod's Aseprite sheet (sheet.json in its folder) read for one of its weapons.
typedef struct app_anim {
    app_image image;
    int32_t attacks;
    struct app_aseprite *attack; ///< by attack index: the frames of the tag named like it
} app_anim;

/// Reads dir/sheet.json and its PNG for weapon w. false when there is none (err "") or when it
/// cannot be used (err names the file and, for JSON, the path of the mistake).
bool app_anim_load(app_anim *a, const char *dir, const clv_weapon *w, char *err, size_t errlen);
void app_anim_free(app_anim *a);
/// Draws the sprite of frame (0-based) of attack with the wielder at canvas point at; false
/// when the sheet has none for it.
bool app_anim_draw(app_canvas *c, const app_anim *a, int32_t attack, int32_t frame, clv_vec2 at,
                   float scale, float facing, bool mirror);

#define APP_MAX_MODS 16
/* Folders whose mod failed to load keep an entry (a fix reloads them) without counting as mods. */
#define APP_MAX_MOD_FOLDERS (APP_MAX_MODS * 2)

typedef struct app_mod_entry {
    char dir[512];
    char name[64];
    struct clv_mod *mod;                  ///< the running version, NULL when it never loaded
    clv_weapon_id ids[APP_MAX_SLOTS * 2]; ///< its weapons in the arena (clv_mod_weapon order)
    struct clv_mod
        *retired[8]; ///< older versions, kept until exit (their weapons are in the arena)
    app_anim
        anims[APP_MAX_SLOTS * 2]; ///< each weapon's frames of sheet.json (clv_mod_weapon order)
    int32_t retired_count;
    int64_t stamp;   ///< digest of the folder's file times and sizes
    char error[512]; ///< last load error, "" when fine
} app_mod_entry;

typedef struct app_mods {
    app_mod_entry e[APP_MAX_MOD_FOLDERS];
    int32_t count;
    char banner[600]; ///< the most recent error, shown on screen
} app_mods;

/// Finds every folder of root holding a mod.lua, loads each, and gives its weapons slots.
void app_mods_open(app_mods *m, const char *root, app_game *g);
/// Loads one mod folder (render, check, or demo with a single mod).
bool app_mods_add(app_mods *m, const char *dir, app_game *g);
/// Polls file times; reloads changed mods and swaps them in (call between frames).
/// Returns true when something was reloaded or failed.
bool app_mods_poll(app_mods *m, app_game *g);
/// Runs the mods' Lua callbacks for the last frame; errors go to the banner.
void app_mods_callbacks(app_mods *m, app_game *g);
/// How many of the folders hold a loaded mod (a broken folder does not count).
int32_t app_mods_loaded(const app_mods *m);
void app_mods_close(app_mods *m);

/* ---- Scripted inputs ---- */

typedef struct app_script_event {
    int64_t frame;
    int kind;
    float a, b, c, d; ///< the numbers given (a drag takes four)
    int32_t n;        ///< a whole number given, or the edit mode's key (app_ed_key)
} app_script_event;

typedef struct app_script {
    app_script_event *ev;
    int32_t count, next;
    float move_x, move_y; ///< held movement
    clv_vec2 aim;
    bool guard; ///< held guard
} app_script;

/// Parses an inputs file (format in docs/demo.md). false with "file:line: message" in err.
bool app_script_load(app_script *s, const char *path, char *err, size_t errlen);
void app_script_free(app_script *s);
/// The inputs of frame (events of that frame applied, held movement kept).
void app_script_input(app_script *s, int64_t frame, app_input *out);
/// The built-in attract mode: walks toward the nearest enemy and swings when it is close.
void app_attract_input(const app_game *g, app_input *out);

/// Creates the first file named by pattern (a printf format with one int, e.g.
/// "cleave-shot-%03d.png") that does not exist yet, from number *next on, and writes its name
/// to out; *next moves past it. false when none of the next 1000 names is free.
bool app_claim_free_name(const char *pattern, int *next, char *out, size_t outlen);

/* ---- Commands ---- */

/// What a command's option takes, from its table of {option, what it takes}, or NULL when arg
/// is not one of them.
const char *app_option_needs(const char *const (*options)[2], size_t count, const char *arg);
int app_cmd_demo(int argc, char **argv);
int app_cmd_render(int argc, char **argv);
int app_cmd_import(int argc, char **argv);
int app_cmd_bake(int argc, char **argv);
int app_cmd_check(int argc, char **argv);

/// Folder of the assets and of the mods: next to the executable's source tree, overridable
/// with the CLEAVE_ASSETS environment variable.
const char *app_assets_dir(void);

#endif
