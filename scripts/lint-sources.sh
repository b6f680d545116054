#!/usr/bin/env bash
# Source rules the compiler does not check (issue 35; run by the tests, SourceRulesTests):
# 1. System calls on files go through InputGuards' one layer (FileSystem, RegularFile,
#    OutputFile, DirectoryListing): no open/stat/read/write/rename/unlink/mkdir/fsync/… elsewhere.
# 2. The executable parses, calls the library and prints: no level arithmetic (logarithms, powers,
#    roots) and no loops over samples in Sources/activetask.
# 3. Feature rows come from typed results (FeatureSet(name:features:)): no feature read back by
#    name in library code.
# 4. Every public stored property of a feature, result or spec type (a struct or class named
#    …Features, …Measures, …Statistics, …Distances, …Regularity, …Score, …Result, …Report,
#    …Outcome, …Summary, …Spec, …Parameters, …Configuration, …Plan) has a doc comment of its
#    own: what it is, its unit and source.
# 5-7. Allow-lists: the clock is read only in InputGuards/SystemClock.swift; Foundation's file
#    APIs (FileManager, contentsOfFile, write(toFile:), Data(contentsOf:)) only in InputGuards;
#    sockets (socket, bind, listen, connect, getaddrinfo, setsockopt, getsockname, accept,
#    shutdown) only in InputGuards/Sockets.swift.
# 8. Comments cite pages inside the repository: every `docs/PAGE.md §N` resolves to a section
#    heading of that page, and no comment cites a design note outside docs/ by its bare file name.
# Usage: lint-sources.sh [SOURCES [DOCS]]   (default: the package's Sources and docs). Exit 1
# listing each violation.
set -euo pipefail
sources="${1:-$(cd "$(dirname "$0")/.." && pwd)/Sources}"
docs="${2:-$sources/../docs}"
status=0
report() { # rule, matches
    if [ -n "$2" ]; then
        echo "lint-sources: $1" >&2
        echo "$2" >&2
        status=1
    fi
}
layer='(^|[^.A-Za-z0-9_])(lstat|fstat|stat|pread|pwrite|mkdir|rmdir|unlink|rename|fsync|ftruncate|opendir|readdir|access)\(|Glibc\.(open|read|write|close)\(|(^|[^.A-Za-z0-9_])(close|read|write)\((fd|descriptor|probe)[,)]|(^|[^.A-Za-z0-9_])open\([^)]*O_(RDONLY|WRONLY|RDWR)'
report "system calls outside InputGuards' FileSystem layer" \
    "$(grep -rnE --include='*.swift' "$layer" "$sources" | grep -v "^$sources/InputGuards/" | grep -vE ':[0-9]+:\s*///' || true)"
front="$sources/activetask"
if [ -d "$front" ]; then
    report "level arithmetic or sample loops in the executable (move them into a library module)" \
        "$(grep -rnE --include='*.swift' '(^|[^A-Za-z0-9_])(log10|log2|log|pow|exp)\(|squareRoot\(\)|for [a-z]+ in (block|samples|buffer|frames|channel)\b' "$front" | grep -vE ':[0-9]+:\s*///' || true)"
fi
report "the clock read outside InputGuards/SystemClock.swift" \
    "$(grep -rnE --include='*.swift' 'clock_gettime|gettimeofday|(^|[^A-Za-z0-9_])time\(nil\)' "$sources" | grep -v "^$sources/InputGuards/SystemClock.swift:" | grep -vE ':[0-9]+:\s*///' || true)"
report "Foundation's file APIs outside InputGuards" \
    "$(grep -rnE --include='*.swift' 'FileManager|contentsOfFile|write\(toFile|Data\(contentsOf' "$sources" | grep -v "^$sources/InputGuards/" | grep -vE ':[0-9]+:\s*///' || true)"
report "sockets outside InputGuards/Sockets.swift" \
    "$(grep -rnE --include='*.swift' '(^|[^.A-Za-z0-9_])(socket|bind|listen|connect|getaddrinfo|setsockopt|getsockname)\(|Glibc\.(shutdown|accept)\(' "$sources" | grep -v "^$sources/InputGuards/Sockets.swift:" | grep -vE ':[0-9]+:\s*///|func (socket|bind|listen|connect|getaddrinfo|setsockopt|getsockname)\(' || true)"
report "a feature read back by name in library code (read the typed result's field)" \
    "$(grep -rnE --include='*.swift' '(features|peer|atk|set)\["[A-Za-z]' "$sources" | grep -vE ':[0-9]+:\s*///' || true)"
report "a stored property of a feature, result or spec type without a doc comment" \
    "$(find "$sources" -name '*.swift' -print0 | xargs -0 awk '
        FNR == 1 { inside = 0 }
        /(struct|class) [A-Za-z0-9]+[^=]*\{/ && !/^ *\/\// {
            match($0, /(struct|class) [A-Za-z0-9]+/); split(substr($0, RSTART, RLENGTH), words, " ")
            inside = words[2] ~ /(Features|Measures|Statistics|Distances|Regularity|Score|Result|Report|Outcome|Summary|Spec|Parameters|Configuration|Plan)$/
        }
        inside && /^ *public (private\(set\) )?(var|let) [A-Za-z0-9]+/ && !/\{/ && previous !~ /^ *\/\/\// { print FILENAME ":" FNR ": " $0 }
        { previous = $0 }' || true)"
report "a comment citing a page outside the repository (cite docs/PAGE.md §N)" \
    "$(grep -rnE --include='*.swift' '(^|[^/A-Za-z0-9_])(analysis|analyses|formats|audiometry|architecture)\.md' "$sources" || true)"
unresolved() { # file:line:docs/PAGE.md §N of every citation whose page or section is missing
    grep -rnoE --include='*.swift' 'docs/[a-z-]+\.md( ?§ ?[0-9]+(\.[0-9]+)?)?' "$sources" | while IFS= read -r hit; do
        cite="${hit#*:*:}"
        page="$docs/${cite#docs/}"
        page="${page%%.md*}.md"
        section="$(printf '%s' "$cite" | sed -nE 's/.*§ ?([0-9]+(\.[0-9]+)?).*/\1/p')"
        if [ ! -f "$page" ]; then
            echo "$hit (no such page)"
        elif [ -n "$section" ] && ! grep -qE "^#+ ${section//./\\.}[. ]|^- \*\*${section//./\\.} " "$page"; then
            echo "$hit (no section $section)"
        fi
    done
}
report "a citation of docs/ that does not resolve to a page and section" "$(unresolved)"
exit $status
