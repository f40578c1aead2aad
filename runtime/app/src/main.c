/* cleave: the demo, and the render/check commands for mod authors. */
#include <stdio.h>
#include <string.h>

#include "app.h"

static void usage(FILE *f) {
    fprintf(f, "usage: cleave demo [--headless --frames N [--inputs FILE] --screenshot out.png]\n"
               "                   [--enemies N] [--bench] [--mods DIR | --mod DIR] [--overlay]\n"
               "                   [--seed N] [--miss-margin PX] [--assets DIR] [--quit-after N]\n"
               "                   [--status FILE]\n"
               "       cleave render <mod folder> [--weapon NAME] [--attack NAME] [--frames A-B]\n"
               "                     --out sheet.png\n"
               "       cleave check <mod folder> [--format table|json|csv|markdown]\n"
               "       cleave bake <mod folder> [--weapon NAME] [--attack NAME] [--out DIR]\n"
               "       cleave import aseprite <sheet.json> --attack NAME --out FILE\n"
               "See docs/demo.md.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "demo") == 0) {
        return app_cmd_demo(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "render") == 0) {
        return app_cmd_render(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "check") == 0) {
        return app_cmd_check(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "bake") == 0) {
        return app_cmd_bake(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "import") == 0) {
        return app_cmd_import(argc - 2, argv + 2);
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr,
            "cleave: unknown command '%s' (commands: demo, render, check, bake, import; see cleave "
            "--help)\n",
            argv[1]);
    return 2;
}
