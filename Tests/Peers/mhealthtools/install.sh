#!/usr/bin/env bash
# Installs the cran/ subsets (EMD, seewave, statcomp, signal: the functions mhealthtools calls, copied
# unmodified at the versions their DESCRIPTION names) into the R library $1, once per content.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lib=$1
stamp=$(cat "$here"/cran/*/DESCRIPTION "$here"/cran/*/R/*.R | sha256sum | cut -c1-16)
[ "$(cat "$lib/.stamp" 2>/dev/null)" = "$stamp" ] && exit 0
mkdir -p "$lib"
for package in EMD seewave statcomp signal; do R CMD INSTALL --no-docs --no-multiarch --library="$lib" "$here/cran/$package" >/dev/null 2>&1; done
echo "$stamp" > "$lib/.stamp"
