/* The demo's edit mode: one attack of the selected weapon, edited on its frames, saved as the
 * mod's frames file (docs/demo.md, "Edit mode"). */
#ifndef CLEAVE_APP_EDITOR_H
#define CLEAVE_APP_EDITOR_H

#include "app.h"

/// A hitbox on one frame (0-based) of the attack being edited.
typedef struct app_ed_box {
    int32_t frame;
    clv_hitbox_def def;
} app_ed_box;

/// A copy of the attack's hitboxes, for undo and redo.
typedef struct app_ed_copy {
    app_ed_box *box;
    int32_t count;
} app_ed_copy;

#define APP_ED_UNDO 64
#define APP_ED_MAX_BOXES 4096

/* Where the editor draws, screen pixels: the panel, the weapon's origin in it, the scale. */
#define APP_ED_X0 40
#define APP_ED_Y0 70
#define APP_ED_W 496
#define APP_ED_H 372
#define APP_ED_OX 200.0f
#define APP_ED_OY 230.0f
#define APP_ED_SCALE 4.0f
#define APP_ED_STRIP_Y (APP_ED_Y0 + APP_ED_H - 26)
#define APP_ED_STRIP_H 18

enum { APP_ED_FIELDS = 5 }; /* damage, angle, max_hits, group, priority */

typedef struct app_editor {
    bool on;
    int32_t slot;          ///< the weapon slot edited
    clv_attack_def attack; ///< its attack: name, length, rules
    char path[600];        ///< the frames file a save writes
    app_ed_box *box;       ///< APP_ED_MAX_BOXES, by frame; within a frame in precedence order
    int32_t count;
    int32_t frame; ///< the frame shown
    int32_t sel;   ///< index of the selected hitbox, -1 for none
    int32_t field; ///< the inspector's field
    int32_t drag;  ///< what the pointer holds (a handle, a frame bar end), 0 for nothing
    bool dirty;    ///< the drag has changed something (its undo copy is taken)
    app_ed_copy undo[APP_ED_UNDO], redo[APP_ED_UNDO];
    int32_t undo_count, redo_count;
    char message[1024]; ///< the last save's or refusal's line
} app_editor;

/// The screen points of a hitbox's handles: [1] end a, [2] end b, [3] centre, [4] radius,
/// [5] the knockback arrow's head ([0] unused; a circle's ends are off screen).
#define APP_ED_HANDLES 6
void app_editor_handles(const clv_hitbox_def *d, clv_vec2 out[APP_ED_HANDLES]);

/// Turns the edit mode on for the selected weapon's last attack (or its first), or off.
void app_editor_toggle(app_editor *e, app_game *g, app_mods *m);
/// Applies one action; a save writes the frames file and reloads the mod.
void app_editor_apply(app_editor *e, app_game *g, app_mods *m, const app_ed_action *a);
void app_editor_draw(app_canvas *c, const app_font *f, const app_editor *e);
void app_editor_free(app_editor *e);

#endif
