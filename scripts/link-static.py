#!/usr/bin/env python3
"""Links a SwiftPM release build's `activetask` again, with the Swift runtime and Foundation
linked statically, from the objects that build compiled: no second compilation.

    python3 scripts/link-static.py BUILD-DIR OUTPUT
    python3 scripts/link-static.py .build .build/activetask              # the package's build
    python3 scripts/link-static.py Benchmarks/.build .build/activetask   # CI: the gate's modules

A statically linked command starts without the dynamic loader finding, mapping and relocating
the Swift runtime's and Foundation's shared libraries (docs/cli.md, "Start-up"). SwiftPM links
statically only with `--static-swift-stdlib`, which also compiles every module again (its compile
commands change), and it drops a dependency package's linker flags, so the benchmark package's
build cannot link the command statically itself. This takes SwiftPM's own link command for
`activetask` from the build manifest, adds `-static-stdlib` and Foundation's static libraries in
link order (the objects of a dynamic-mode build name only Foundation's top libraries) and the
archives of libstdc++, FFTW and SQLite, links to a
temporary file beside OUTPUT, checks that no Swift library is loaded at run time, and renames it.
"""
import json
import os
import pathlib
import re
import subprocess
import sys

# Foundation's static libraries, each before the ones it needs.
STATIC_FOUNDATION = ["Foundation", "FoundationInternationalization", "FoundationEssentials", "CoreFoundation",
                     "_FoundationICU", "_FoundationCShims", "_FoundationCollections", "BlocksRuntime", "dispatch"]

# C and C++ libraries linked from their archives too (Debian's -dev packages ship them): the
# loader resolved about 6,000 of their symbols at start-up and on first calls, searching every
# loaded object for each (`score spl` on 1 s of sound: 8.9 → 7.4 ms of CPU). libsndfile (with
# its codecs) and ALSA, which have no archive on Debian, are loaded with dlopen on first use
# (Sources/CSndFile, Sources/CAlsa).
# libstdc++'s archive is where the toolchain's clang (swiftc's linker driver) finds it; gcc need
# not be installed.
STATIC_ARCHIVES = {"stdc++": subprocess.run(["clang", "-print-file-name=libstdc++.a"], capture_output=True, text=True).stdout.strip(),
                   "fftw3": "/usr/lib/x86_64-linux-gnu/libfftw3.a",
                   "fftw3f": "/usr/lib/x86_64-linux-gnu/libfftw3f.a",
                   "sqlite3": "/usr/lib/x86_64-linux-gnu/libsqlite3.a",
                   "nettle": "/usr/lib/x86_64-linux-gnu/libnettle.a"}


def link_command(build: pathlib.Path) -> list[str]:
    manifest = (build / "release.yaml").read_text()
    found = re.search(r'^  "C\.activetask-[^"]*-release\.exe":\n(?:    .*\n)*?    args: (\[.*\])$', manifest, re.MULTILINE)
    if not found:
        sys.exit(f"link-static: {build / 'release.yaml'} has no release link command for activetask (build it first: swift build -c release --product activetask)")
    return json.loads(found.group(1))


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    build, output = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    command = link_command(build)
    at = command.index("-o") + 1
    temporary = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    command[at] = str(temporary)
    if "-static-stdlib" not in command:
        command.append("-static-stdlib")
    # A fixed-address executable: the loader has no relative relocations to apply (96,000 in
    # the position-independent one) before main.
    command += ["-Xclang-linker", "-no-pie"]
    # No dynamic symbol table of its own: swiftc exports every symbol of an executable (20,789
    # here), and the runtime's dladdr at start-up walks them all; nothing looks a symbol of the
    # command up (the libraries it loads with dlopen need only their own). 1.2 ms of `score spl`'s
    # 9.9 ms of CPU on 1 s of sound (docs/cli.md, "Start-up").
    command += ["-Xlinker", "--no-export-dynamic"]
    command += [flag for library in STATIC_FOUNDATION for flag in ("-Xlinker", "-l" + library)]
    # A folder holding only the archives, searched first: every -lNAME of the command (its own,
    # the Swift runtime's) finds NAME's archive there before any shared library; libstdc++ once
    # more after Foundation's libraries, which need it.
    for path in STATIC_ARCHIVES.values():
        if not pathlib.Path(path).is_file():
            sys.exit(f"link-static: {path} is missing (scripts/setup.sh installs the -dev packages that ship it)")
    archives = pathlib.Path(f"{temporary}.archives")
    archives.mkdir()
    for name, path in STATIC_ARCHIVES.items():
        (archives / f"lib{name}.a").symlink_to(path)
    command[1:1] = ["-L", str(archives)]
    command += ["-Xlinker", "-lstdc++"]
    try:
        linked = subprocess.run(command, capture_output=True, text=True)
        if linked.returncode != 0:
            sys.exit(f"link-static: the link failed:\n{linked.stderr}")
        loaded = subprocess.run(["ldd", str(temporary)], capture_output=True, text=True, check=True).stdout
        shared = [line.split()[0] for line in loaded.splitlines()
                  if "libswift" in line or "libFoundation" in line or any(f"lib{name}.so" in line for name in STATIC_ARCHIVES)]
        if shared:
            sys.exit(f"link-static: {output} would still load {', '.join(shared)}")
        os.replace(temporary, output)
    finally:
        temporary.unlink(missing_ok=True)
        for link in archives.iterdir():
            link.unlink()
        archives.rmdir()
    print(output)


if __name__ == "__main__":
    main()
