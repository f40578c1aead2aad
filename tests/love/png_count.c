/* Counts the pixels of a PNG whose colour lies in a box of RGB values, for the LÖVE example's
 * test: how much of the screenshot shows the colour of a hit.
 *   png_count FILE RMIN RMAX GMIN GMAX BMIN BMAX   prints "N of WxH pixels" */
#include <stdio.h>
#include <stdlib.h>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: %s FILE RMIN RMAX GMIN GMAX BMIN BMAX\n", argv[0]);
        return 2;
    }
    int lo[3], hi[3];
    for (int c = 0; c < 3; c++) {
        lo[c] = atoi(argv[2 + 2 * c]);
        hi[c] = atoi(argv[3 + 2 * c]);
    }
    int w, h, n;
    unsigned char *p = stbi_load(argv[1], &w, &h, &n, 3);
    if (p == NULL) {
        fprintf(stderr, "png_count: %s: %s\n", argv[1], stbi_failure_reason());
        return 1;
    }
    long count = 0;
    for (long i = 0; i < (long)w * h; i++) {
        const unsigned char *px = p + 3 * i;
        int inside = 1;
        for (int c = 0; c < 3; c++) {
            inside &= px[c] >= lo[c] && px[c] <= hi[c];
        }
        count += inside;
    }
    printf("%ld of %dx%d pixels\n", count, w, h);
    stbi_image_free(p);
    return 0;
}
