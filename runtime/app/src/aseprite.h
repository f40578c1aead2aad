/* Aseprite's JSON export read as an attack: frames with durations, slices as hitboxes. */
#ifndef CLEAVE_APP_ASEPRITE_H
#define CLEAVE_APP_ASEPRITE_H

#include "app.h"

/// Most sprite frames and hitboxes (over all 60 Hz frames) an import takes.
#define APP_ASE_MAX_SPRITE_FRAMES 1024
#define APP_ASE_MAX_BOXES 8192

/// A hitbox on one 60 Hz frame (0-based) of the attack.
typedef struct app_ase_box {
    int32_t frame;
    clv_hitbox_def def;
} app_ase_box;

typedef struct app_aseprite {
    int32_t frames; ///< the attack's length in 60 Hz frames
    int32_t first;  ///< the sprite frames the attack covers, first..last
    int32_t last;
    int32_t *start;   ///< start[i]: 60 Hz frame where sprite frame first+i begins (count + 1)
    app_ase_box *box; ///< in frame order, slice order within a frame
    int32_t count;
    char notes[2048]; ///< what could not be mapped, one line each
} app_aseprite;

/// Reads text (Aseprite's JSON, hash or array frames) as the attack tagged attack (or every
/// frame when no tag has that name). false with err naming the JSON path of the mistake.
bool app_aseprite_read(const char *text, size_t len, const char *attack, app_aseprite *out,
                       char *err, size_t errlen);
void app_aseprite_free(app_aseprite *a);

#endif
