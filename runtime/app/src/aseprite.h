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
    int32_t *start;     ///< start[i]: 60 Hz frame where sprite frame first+i begins (count + 1)
    int32_t (*rect)[4]; ///< rect[i]: x, y, w, h of sprite frame first+i in the sheet's image
    clv_vec2 origin;    ///< the wielder's place in a sprite frame, pixels
    char image[256];    ///< meta.image: the sheet's PNG, beside the JSON ("" when not given)
    app_ase_box *box;   ///< in frame order, slice order within a frame
    int32_t count;
    char notes[2048]; ///< what could not be mapped, one line each
} app_aseprite;

/// Reads text (Aseprite's JSON, hash or array frames) as the attack tagged attack (or every
/// frame when no tag has that name). false with err naming the JSON path of the mistake.
bool app_aseprite_read(const char *text, size_t len, const char *attack, app_aseprite *out,
                       char *err, size_t errlen);
void app_aseprite_free(app_aseprite *a);

/// The whole file path (a regular file of at most 16 MiB), NUL-terminated, malloc'd; NULL with
/// the reason on stderr, prefixed by who.
char *app_read_json(const char *who, const char *path, size_t *len);

/// The sprite of 60 Hz frame fr (0-based) of the sheet: its pixels copied out of image into
/// out (free with app_image_free); false past the sheet's frames or out of memory.
bool app_aseprite_sprite(const app_aseprite *a, const app_image *image, int32_t fr, app_image *out);

#endif
