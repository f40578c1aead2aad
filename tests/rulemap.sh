#!/bin/sh
# Every test docs/hit-rules.md names must exist, so the map from a rule to the test that pins it
# stays true as tests are renamed or removed. A reference is a code span `tests/PATH: NAME`
# (NAME a C test function, or the title of a busted `it`) or a bare `tests/PATH` (a file).
# Usage: sh tests/rulemap.sh [DOC]   Exit status 1 names each broken reference.
set -eu
cd "$(dirname "$0")/.."
doc=${1:-docs/hit-rules.md}
refs=$(grep -o '`\(tests\|mods\)/[^`]*`' "$doc" | tr -d '`' | sort -u)
if [ -z "$refs" ]; then
    echo "$doc: no test reference found" >&2
    exit 1
fi
status=0
count=0
# A here-document, not a pipe: the loop must set status in this shell.
while IFS= read -r ref; do
    count=$((count + 1))
    file=${ref%%: *}
    name=
    [ "$file" = "$ref" ] || name=${ref#*: }
    if [ ! -f "$file" ]; then
        echo "$doc: $ref: no file $file" >&2
        status=1
        continue
    fi
    [ -n "$name" ] || continue
    case $file in
    *.c) grep -q "^static void $name(void)" "$file" && grep -q "RUN($name);" "$file" ;;
    *.lua) grep -qF "it(\"$name\"" "$file" ;;
    *) false ;;
    esac || {
        echo "$doc: $ref: $file has no test named '$name'" >&2
        status=1
    }
done <<REFS
$refs
REFS
echo "$count test references checked in $doc"
exit $status
