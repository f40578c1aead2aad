/* Checks on PNG screenshots for the app's tests.
 *   png_stat check FILE MIN_W MIN_H   readable, at least that size, and not blank
 *   png_stat differ A B MIN_PIXELS    same size, and at least MIN_PIXELS pixels differ
 *   png_stat count FILE RRGGBB [X Y W H]
 *                                     prints how many opaque pixels have exactly that colour
 *                                     (within the box, when given) and their bounding box:
 *                                     "COUNT X0 Y0 X1 Y1" (inclusive; -1s when none)
 * "Not blank": at least 16 distinct colours and no colour covering 90% of the image. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static int cmp_u32(const void *a, const void *b) {
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

static unsigned char *load(const char *path, int *w, int *h) {
    int n;
    unsigned char *p = stbi_load(path, w, h, &n, 4);
    if (p == NULL) {
        fprintf(stderr, "png_stat: %s: %s\n", path, stbi_failure_reason());
    }
    return p;
}

static int check(const char *path, int min_w, int min_h) {
    int w, h;
    unsigned char *p = load(path, &w, &h);
    if (p == NULL) {
        return 1;
    }
    size_t n = (size_t)w * (size_t)h;
    unsigned *v = malloc(n * sizeof *v);
    if (v == NULL) {
        stbi_image_free(p);
        return 1;
    }
    memcpy(v, p, n * 4);
    qsort(v, n, sizeof *v, cmp_u32);
    size_t distinct = 0, run = 0, best = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || v[i] != v[i - 1]) {
            distinct++;
            run = 0;
        }
        run++;
        best = run > best ? run : best;
    }
    double top = (double)best / (double)n;
    printf("%s: %dx%d, %zu colours, most common covers %.1f%%\n", path, w, h, distinct,
           top * 100.0);
    free(v);
    stbi_image_free(p);
    if (w < min_w || h < min_h) {
        fprintf(stderr, "png_stat: %s is %dx%d, expected at least %dx%d\n", path, w, h, min_w,
                min_h);
        return 1;
    }
    if (distinct < 16 || top > 0.9) {
        fprintf(stderr, "png_stat: %s looks blank\n", path);
        return 1;
    }
    return 0;
}

static int differ(const char *a, const char *b, long min_pixels) {
    int wa, ha, wb, hb;
    unsigned char *pa = load(a, &wa, &ha), *pb = load(b, &wb, &hb);
    int rc = 1;
    if (pa && pb) {
        if (wa != wb || ha != hb) {
            fprintf(stderr, "png_stat: sizes differ: %dx%d vs %dx%d\n", wa, ha, wb, hb);
        } else {
            long count = 0;
            for (size_t i = 0; i < (size_t)wa * (size_t)ha; i++) {
                count += memcmp(pa + i * 4, pb + i * 4, 4) != 0;
            }
            printf("%s vs %s: %ld pixels differ\n", a, b, count);
            rc = count >= min_pixels ? 0 : 1;
            if (rc) {
                fprintf(stderr, "png_stat: expected at least %ld differing pixels\n", min_pixels);
            }
        }
    }
    stbi_image_free(pa);
    stbi_image_free(pb);
    return rc;
}

static int count(const char *path, const char *hex, const int box[4]) {
    int w, h;
    unsigned char *p = load(path, &w, &h);
    if (p == NULL) {
        return 1;
    }
    unsigned long rgb = strtoul(hex, NULL, 16);
    long n = 0;
    int x0 = -1, y0 = -1, x1 = -1, y1 = -1;
    for (int y = box[1]; y < h && y < box[1] + box[3]; y++) {
        for (int x = box[0]; x < w && x < box[0] + box[2]; x++) {
            const unsigned char *q = p + ((size_t)y * (size_t)w + (size_t)x) * 4;
            unsigned long c = ((unsigned long)q[0] << 16) | ((unsigned long)q[1] << 8) | q[2];
            if (q[3] == 255 && c == rgb) {
                x0 = n == 0 || x < x0 ? x : x0;
                y0 = n == 0 || y < y0 ? y : y0;
                x1 = x > x1 ? x : x1;
                y1 = y > y1 ? y : y1;
                n++;
            }
        }
    }
    printf("%ld %d %d %d %d\n", n, x0, y0, x1, y1);
    stbi_image_free(p);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "check") == 0) {
        return check(argv[2], atoi(argv[3]), atoi(argv[4]));
    }
    if (argc == 5 && strcmp(argv[1], "differ") == 0) {
        return differ(argv[2], argv[3], atol(argv[4]));
    }
    if ((argc == 4 || argc == 8) && strcmp(argv[1], "count") == 0) {
        int box[4] = {0, 0, 1 << 30, 1 << 30};
        for (int i = 0; argc == 8 && i < 4; i++) {
            box[i] = atoi(argv[4 + i]);
        }
        return count(argv[2], argv[3], box);
    }
    fprintf(stderr, "usage: png_stat check FILE MIN_W MIN_H | differ A B MIN_PIXELS | count FILE "
                    "RRGGBB [X Y W H]\n");
    return 2;
}
