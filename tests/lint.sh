#!/bin/sh
# The conventions of CONTRIBUTING.md that a program can check:
#   format  clang-format (the repository's .clang-format) over the C files of runtime/ and tests/
#   lua     luacheck (.luacheckrc) over scripts/, mods/, tests/lua and library/
#   tidy    clang-tidy on the checks below, over runtime/, with a compile_commands.json; one of
#           them holds every function of runtime/ to 120 lines
#   size    no source file of runtime/ over 900 lines
# Usage: sh tests/lint.sh [format|lua|tidy|size]...   (no argument: all four)
# LINT_BUILD names the CMake folder that tidy configures (default build-lint). Exit status 1
# when a check finds something; every check runs before the script fails.
set -eu
cd "$(dirname "$0")/.."

# Each of these found real defects here; the tree is kept free of them.
TIDY_CHECKS='-*,readability-inconsistent-declaration-parameter-name,readability-braces-around-statements,readability-function-size'
# A function longer than this does more than one job: split it into named steps.
TIDY_CONFIG='{CheckOptions: [{key: readability-function-size.LineThreshold, value: 120}]}'
MAX_FILE_LINES=900

c_files() { git ls-files -- 'runtime/*.c' 'runtime/*.h' 'tests/*.c' 'tests/*.h'; }

check_format() {
    # shellcheck disable=SC2046
    clang-format --dry-run -Werror $(c_files)
}

check_lua() {
    luacheck --no-color --quiet scripts mods tests/lua library
}

check_tidy() {
    build=${LINT_BUILD:-build-lint}
    cmake -S . -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
    # shellcheck disable=SC2046
    # The compiler's warnings are the build's business; this one CMake turns off for clang.
    clang-tidy --quiet -p "$build" --checks="$TIDY_CHECKS" --config="$TIDY_CONFIG" \
        --warnings-as-errors='*' \
        --extra-arg=-Wno-bitwise-instead-of-logical --header-filter='runtime/.*' \
        $(git ls-files -- 'runtime/*.c') 2>/dev/null
}

check_size() {
    # shellcheck disable=SC2046
    wc -l $(git ls-files -- 'runtime/*.c' 'runtime/*.h') | awk -v max="$MAX_FILE_LINES" '
        $2 != "total" && $1 > max { print $2 ": " $1 " lines (at most " max ")"; bad = 1 }
        END { exit bad }'
}

[ $# -gt 0 ] || set -- format lua tidy size
sh cmake/install-deps.sh lint
failed=""
for check in "$@"; do
    case $check in
    format) check_format || failed="$failed format" ;;
    lua) check_lua || failed="$failed lua" ;;
    tidy) check_tidy || failed="$failed tidy" ;;
    size) check_size || failed="$failed size" ;;
    *)
        echo "lint.sh: unknown check '$check' (format, lua, tidy or size)" >&2
        exit 2
        ;;
    esac
done
if [ -n "$failed" ]; then
    echo "lint:$failed found something (CONTRIBUTING.md says how to fix each)" >&2
    exit 1
fi
echo "lint: $* clean"
