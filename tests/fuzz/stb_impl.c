/* stb_image and stb_image_write compiled into the PNG fuzz target, so the decoder is built
 * with the fuzzer's coverage and sanitizers (Debian's libstb is not). Not our code to warn
 * about. */
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
