#!/bin/sh
# The Lua specs, the Lua layer's C tests and the app tests on a busy machine: as many CPU-bound
# processes as there are cores, plus one, run beside them, so that every test shares its core
# with another program.
# A limit that counted wall-clock time instead of CPU time would fail here.
# Usage: tests/busy.sh BUILD_DIR [CTEST_REGEX]   (a configured and built tree)
set -eu
build=$1
tests='^(lua|app|c\.lua)\.'
if [ $# -ge 2 ]; then tests=$2; fi

spinners=""
stop() {
    for pid in $spinners; do
        kill "$pid" 2>/dev/null || true
    done
}
trap stop EXIT
trap 'exit 130' INT TERM

n=$(($(nproc 2>/dev/null || echo 1) + 1))
for _ in $(seq "$n"); do
    sh -c 'while :; do :; done' &
    spinners="$spinners $!"
done
printf 'busy: %s CPU-bound processes beside ctest -R %s\n' "$n" "$tests"
cd "$build"
ctest --output-on-failure --no-tests=error -j "${JOBS:-2}" -R "$tests"
