/* PNG in and out through Debian's libstb, and the placeholder shown when an asset is bad. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#endif
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static void placeholder(app_image *out, int w, int h) {
    out->w = w > 0 ? w : 16;
    out->h = h > 0 ? h : 16;
    out->rgba = malloc((size_t)out->w * (size_t)out->h * 4);
    out->placeholder = true;
    if (out->rgba == NULL) {
        out->w = out->h = 0;
        return;
    }
    for (int y = 0; y < out->h; y++) {
        for (int x = 0; x < out->w; x++) {
            uint8_t *p = out->rgba + ((size_t)y * (size_t)out->w + (size_t)x) * 4;
            bool on = ((x / 4) + (y / 4)) % 2 == 0;
            p[0] = on ? 255 : 20;
            p[1] = on ? 0 : 20;
            p[2] = on ? 255 : 20;
            p[3] = 255;
        }
    }
}

/* Largest sprite file and canvas the app reads. */
#define SPRITE_MAX_BYTES (16L << 20)
#define SPRITE_MAX_SIDE 4096

static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Why bytes are not a PNG worth decoding, or NULL. stb allocates what a file claims before it
 * reads it: the canvas from the header, each chunk from its length field. So the signature,
 * every chunk length (each must fit in the file) and the canvas size are checked first, and
 * stb only ever sees a file whose claims are bounded by its own size and 4096 x 4096. */
static const char *png_refusal(const unsigned char *b, size_t size, int *iw, int *ih) {
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (size < sizeof sig || memcmp(b, sig, sizeof sig) != 0) {
        return "no PNG signature";
    }
    /* Up to IEND: a file that ends first, even inside a chunk's 12-byte frame, is refused (stb
     * would take a length from a frame cut short). */
    for (size_t off = sizeof sig;;) {
        if (off == size) {
            return "no IEND chunk";
        }
        uint32_t len = size - off >= 12 ? be32(b + off) : 0;
        if (size - off < 12 || len > size - off - 12) {
            return "a chunk runs past the end of the file";
        }
        if (memcmp(b + off + 4, "IEND", 4) == 0) {
            break;
        }
        off += 12 + (size_t)len;
    }
    int n = 0;
    if (!stbi_info_from_memory(b, (int)size, iw, ih, &n)) {
        return stbi_failure_reason();
    }
    if (*iw <= 0 || *ih <= 0 || *iw > SPRITE_MAX_SIDE || *ih > SPRITE_MAX_SIDE) {
        return "larger than 4096 x 4096";
    }
    return NULL;
}

/* The whole file, or NULL with *why set. */
static unsigned char *read_file(FILE *f, size_t *size, const char **why) {
    long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
        *why = "cannot read";
        return NULL;
    }
    if (len > SPRITE_MAX_BYTES) {
        *why = "larger than 16 MiB";
        return NULL;
    }
    unsigned char *b = malloc(len > 0 ? (size_t)len : 1);
    if (b == NULL || fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        *why = b == NULL ? "out of memory" : "cannot read";
        return NULL;
    }
    *size = (size_t)len;
    return b;
}

/* A FIFO or a device in an asset's place would otherwise stop the app on open or read. */
FILE *app_open_regular(const char *path, const char **why) {
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        *why = "cannot open (missing?)";
        return NULL;
    }
    struct stat sb;
    FILE *f = NULL;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        *why = "not a regular file";
    } else if ((f = fdopen(fd, "rb")) == NULL) {
        *why = "cannot open";
    }
    if (f == NULL) {
        close(fd);
    }
    return f;
}

bool app_image_load(const char *path, int w, int h, app_image *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    const char *why = NULL;
    FILE *f = app_open_regular(path, &why);
    if (f == NULL) {
        if (err) {
            snprintf(err, errlen, "%s: %s; using a placeholder", path, why);
        }
        placeholder(out, w, h);
        return false;
    }
    size_t size = 0;
    int iw = 0, ih = 0, n = 0;
    unsigned char *bytes = read_file(f, &size, &why);
    fclose(f);
    stbi_uc *px = NULL;
    if (bytes != NULL && (why = png_refusal(bytes, size, &iw, &ih)) == NULL) {
        px = stbi_load_from_memory(bytes, (int)size, &iw, &ih, &n, 4);
        why = px == NULL ? stbi_failure_reason() : NULL;
    }
    free(bytes);
    if (px == NULL) {
        if (err) {
            snprintf(err, errlen, "%s: not a readable PNG (%s); using a placeholder", path, why);
        }
        placeholder(out, w, h);
        return false;
    }
    out->w = iw;
    out->h = ih;
    out->rgba = malloc((size_t)iw * (size_t)ih * 4);
    if (out->rgba == NULL) {
        stbi_image_free(px);
        placeholder(out, w, h);
        if (err) {
            snprintf(err, errlen, "%s: out of memory; using a placeholder", path);
        }
        return false;
    }
    memcpy(out->rgba, px, (size_t)iw * (size_t)ih * 4);
    stbi_image_free(px);
    return true;
}

void app_image_free(app_image *img) {
    free(img->rgba);
    img->rgba = NULL;
    img->w = img->h = 0;
}

bool app_canvas_write_png(const app_canvas *c, const char *path) {
    size_t n = (size_t)c->w * (size_t)c->h;
    uint8_t *rgb = malloc(n * 3);
    if (rgb == NULL) {
        return false;
    }
    for (int y = 0; y < c->h; y++) {
        for (int x = 0; x < c->w; x++) {
            uint32_t p = c->px[(size_t)y * (size_t)c->pitch + (size_t)x];
            uint8_t *q = rgb + ((size_t)y * (size_t)c->w + (size_t)x) * 3;
            q[0] = (uint8_t)(p >> 16);
            q[1] = (uint8_t)(p >> 8);
            q[2] = (uint8_t)p;
        }
    }
    int ok = stbi_write_png(path, c->w, c->h, 3, rgb, c->w * 3);
    free(rgb);
    return ok != 0;
}

/* The thrower and the knight are the slime recoloured, so that each reads apart at a glance
 * with no sprite of its own to keep: a pixel's colour from the slime's (alpha kept). */
typedef void (*recolour_fn)(const uint8_t *p, uint8_t *out);

/* green to violet */
static void thrower_colour(const uint8_t *p, uint8_t *out) {
    out[0] = (uint8_t)((p[1] * 3 + p[0]) / 4);
    out[1] = (uint8_t)((p[0] + p[2]) / 2);
    out[2] = p[1];
}

/* steel grey with a red cast */
static void knight_colour(const uint8_t *p, uint8_t *out) {
    int lum = (p[0] + 2 * p[1] + p[2]) / 4;
    out[0] = (uint8_t)(lum + (255 - lum) / 4);
    out[1] = (uint8_t)(lum * 7 / 8);
    out[2] = (uint8_t)(lum * 7 / 8);
}

static void recolour(const app_image *enemy, app_image *out, recolour_fn colour) {
    size_t n = (size_t)enemy->w * (size_t)enemy->h * 4;
    out->rgba = malloc(n);
    if (out->rgba == NULL) {
        return;
    }
    out->w = enemy->w;
    out->h = enemy->h;
    out->placeholder = enemy->placeholder;
    for (size_t i = 0; i < n; i += 4) {
        colour(enemy->rgba + i, out->rgba + i);
        out->rgba[i + 3] = enemy->rgba[i + 3];
    }
}

void app_assets_load(app_assets *a, const char *dir) {
    memset(a, 0, sizeof *a);
    struct {
        const char *file;
        app_image *img;
        int w, h;
    } list[] = {{"player.png", &a->player, 32, 32},
                {"enemy.png", &a->enemy, 32, 32},
                {"floor.png", &a->floor, 32, 32},
                {"wall.png", &a->wall, 32, 32},
                {"font.png", &a->font.img, 96, 48}};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
        char path[1024], err[1200];
        snprintf(path, sizeof path, "%s/%s", dir, list[i].file);
        if (!app_image_load(path, list[i].w, list[i].h, list[i].img, err, sizeof err)) {
            fprintf(stderr, "cleave: %s\n", err);
            size_t used = strlen(a->problems);
            snprintf(a->problems + used, sizeof a->problems - used, "%s%s", used ? "; " : "",
                     list[i].file);
        }
    }
    /* A font of the wrong size would index out of its pixels. */
    if (!a->font.img.placeholder && (a->font.img.w < 96 || a->font.img.h < 48)) {
        fprintf(stderr, "cleave: %s/font.png: expected 96x48 pixels, got %dx%d; using boxes\n", dir,
                a->font.img.w, a->font.img.h);
        a->font.img.placeholder = true;
    }
    recolour(&a->enemy, &a->thrower, thrower_colour);
    recolour(&a->enemy, &a->knight, knight_colour);
}

void app_assets_free(app_assets *a) {
    app_image_free(&a->player);
    app_image_free(&a->thrower);
    app_image_free(&a->knight);
    app_image_free(&a->enemy);
    app_image_free(&a->floor);
    app_image_free(&a->wall);
    app_image_free(&a->font.img);
}
