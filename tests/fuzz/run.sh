#!/bin/sh
# Runs every fuzz target of a CLEAVE_FUZZ build for a bounded time each.
# Usage: run.sh BUILD_DIR SECONDS   (from the repository root)
# The png target is built only where the stb headers are; every other one must be there.
set -eu
build=$1
seconds=$2
for target in collide grid sandbox weapon modload restore patterns png aseprite; do
    exe="$build/tests/fuzz/fuzz_$target"
    if [ ! -x "$exe" ]; then
        if [ "$target" = png ] || [ "$target" = aseprite ]; then
            echo "fuzz: $target not built (no stb headers, or no cJSON): skipped"
            continue
        fi
        echo "fuzz: $exe not built" >&2
        exit 1
    fi
    work="$build/fuzz-corpus/$target"
    mkdir -p "$work"
    echo "fuzz: $target for $seconds s"
    # New inputs go to the scratch corpus; the committed one only seeds it.
    log="$build/fuzz-$target.log"
    # FUZZ_SEED fixes the mutation sequence (CI uses one, so that a red run can be replayed);
    # unset, every run explores anew.
    if ! "$exe" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
        -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$build/fuzz-$target-" \
        "$work" "tests/fuzz/corpus/$target" >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "fuzz: $target failed (log: $log)" >&2
        exit 1
    fi
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)' "$log" || tail -n 5 "$log"
done
