/* Fuzz target: the demo's PNG asset loader (app_image_load), with stb_image compiled into the
 * target (stb_impl.c) so that its decoder is instrumented too. Each input is written to a
 * scratch file and loaded as a 32 x 32 asset.
 *
 * Invariants: nothing crashes or trips a sanitizer (leaks included); a load that succeeds
 * gives an image of 1..4096 pixels a side with pixels; one that fails gives the 32 x 32
 * placeholder and a message that names the file.
 */
#define _XOPEN_SOURCE 700
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"

static char g_file[300];

static void cleanup(void) { remove(g_file); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (g_file[0] == '\0') {
        const char *tmp = getenv("TMPDIR");
        snprintf(g_file, sizeof g_file, "%s/clv_fuzz_png_%ld.png",
                 tmp != NULL && *tmp ? tmp : P_tmpdir, (long)getpid());
        atexit(cleanup);
    }
    FILE *f = fopen(g_file, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size) {
        perror("fuzz_png: write");
        abort();
    }
    fclose(f);
    app_image img;
    char err[512] = "";
    bool ok = app_image_load(g_file, 32, 32, &img, err, sizeof err);
    if (ok) {
        if (img.placeholder || img.rgba == NULL || img.w < 1 || img.h < 1 || img.w > 4096 ||
            img.h > 4096) {
            fprintf(stderr, "fuzz_png: a loaded image of %d x %d\n", img.w, img.h);
            abort();
        }
        /* touch the last pixel: the buffer must hold w * h pixels */
        volatile uint8_t last = img.rgba[(size_t)img.w * (size_t)img.h * 4 - 1];
        (void)last;
    } else if (!img.placeholder || img.rgba == NULL || img.w != 32 || img.h != 32 ||
               strstr(err, g_file) == NULL) {
        fprintf(stderr, "fuzz_png: a failed load without its placeholder or message: %s\n", err);
        abort();
    }
    app_image_free(&img);
    return 0;
}
