#!/bin/sh
# Installs what a make target needs on Debian when it is missing, and says so.
# Usage: install-deps.sh GROUP...   (groups: build test bench demo fuzz lint love)
set -eu

need=""
want() { # want <package> <test command...>: queue the package when the test fails
    pkg=$1; shift
    if ! "$@" >/dev/null 2>&1; then need="$need $pkg"; fi
}
has() { command -v "$1"; }
hdr() { [ -f "$1" ]; }

for group in "$@"; do
    case $group in
    build)
        want cmake has cmake
        want gcc has cc
        want make has make
        want pkg-config has pkg-config
        want lua5.4 has lua5.4
        want liblua5.4-dev hdr /usr/include/lua5.4/lua.h
        want libcjson-dev hdr /usr/include/cjson/cJSON.h
        ;;
    test)
        want lua-busted has busted
        want python3 has python3
        want luarocks has luarocks
        ;;
    bench)
        want libbox2d-dev hdr /usr/include/box2d/box2d.h
        want libchipmunk-dev hdr /usr/include/chipmunk/chipmunk.h
        ;;
    demo)
        want libsdl2-dev hdr /usr/include/SDL2/SDL.h
        want libstb-dev hdr /usr/include/stb/stb_image.h
        want xvfb has Xvfb
        want xdotool has xdotool
        ;;
    fuzz)
        want clang has clang
        want libclang-rt-14-dev sh -c 'ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a'
        ;;
    love)
        want luajit has luajit
        want libluajit-5.1-dev hdr /usr/include/luajit-2.1/luajit.h
        want love has love
        want xvfb has Xvfb
        ;;
    lint)
        want clang-format has clang-format
        want clang-tidy has clang-tidy
        want lua-check has luacheck
        ;;
    *)
        echo "install-deps.sh: unknown group '$group'" >&2
        exit 2
        ;;
    esac
done

[ -z "$need" ] && exit 0

if ! has apt-get >/dev/null 2>&1; then
    echo "cleave: missing packages:$need (install them with your package manager)" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "cleave: installing missing packages with apt-get:$need"
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need
