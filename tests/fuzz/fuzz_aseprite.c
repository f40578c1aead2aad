/* Fuzz target: the Aseprite JSON import (app_aseprite_read) on any bytes, deep nesting
 * included (cJSON refuses nesting past CJSON_NESTING_LIMIT instead of recursing on).
 *
 * Invariants: nothing crashes or trips a sanitizer (leaks included); a read that succeeds
 * gives an attack of 1..CLV_ATTACK_MAX_FRAMES frames whose hitboxes are on its frames, in
 * frame order, and pass cleave_hit's check; one that fails says why.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aseprite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* the first byte picks the tag, so that both a tagged and an untagged read are tried */
    const char *attack = size > 0 && (data[0] & 1) ? "swing" : "idle";
    app_aseprite a;
    char err[512] = "";
    if (!app_aseprite_read((const char *)data, size, attack, &a, err, sizeof err)) {
        if (err[0] == '\0' || a.box != NULL || a.start != NULL) {
            fprintf(stderr, "fuzz_aseprite: a refusal without a message, or with memory kept\n");
            abort();
        }
        return 0;
    }
    if (a.frames < 1 || a.frames > CLV_ATTACK_MAX_FRAMES || a.count < 0 ||
        a.count > APP_ASE_MAX_BOXES) {
        fprintf(stderr, "fuzz_aseprite: %d frames, %d hitboxes\n", (int)a.frames, (int)a.count);
        abort();
    }
    for (int32_t i = 0; i < a.count; i++) {
        clv_hit_diag diag;
        if (a.box[i].frame < 0 || a.box[i].frame >= a.frames ||
            (i > 0 && a.box[i].frame < a.box[i - 1].frame) ||
            clv_hitbox_def_check(&a.box[i].def, &diag) != CLV_HIT_OK) {
            fprintf(stderr, "fuzz_aseprite: hitbox %d on frame %d of %d\n", (int)i,
                    (int)a.box[i].frame, (int)a.frames);
            abort();
        }
    }
    app_aseprite_free(&a);
    return 0;
}
