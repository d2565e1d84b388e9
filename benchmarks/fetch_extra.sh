#!/usr/bin/env bash
# Fetch the held-out manuals listed in benchmarks/corpus_extra.tsv (next to this script).
#
#   benchmarks/fetch_extra.sh [TARGET_DIR]     (default: benchmarks/.work/corpus_extra, git-ignored)
#
# The same procedure as ../shared/corpus/manuals/fetch.sh (read-only for us): for every row
# `apt-get download PACKAGE=VERSION` (run `apt-get update` once first; no root needed; a row whose `suite` is
# another Debian release than this machine's, e.g. trixie, is downloaded from the archive's pool by the path its
# binary-all Packages index gives for that version, with curl and xz), extract ONLY
# the listed PDF from the .deb, gunzip `.pdf.gz`, write TARGET_DIR/<doc_id>.pdf and check the sha256.
# Idempotent: documents already present with the right sha256 are skipped; .debs are reused.
# The `group` column says which documents were seen while tuning (tuning; heldout, tuned on since session 17n)
# and which are only ever run to report (heldout17, picked by benchmarks/pick_heldout.py on 2026-12-03 at the start
# of session 17v; heldout2 is tuned on since session 17g, heldout3 since 17h, heldout4 since 17k, heldout5 since 17l,
# heldout6 since 17m, heldout7 since 17n, heldout9 since 17o, heldout10 since 17p, heldout11 since 17q, heldout12 since 17r, heldout13 since 17s, heldout14 since 17t, heldout15 since 17u, heldout16 since 17v; heldout8, picked the same way in session 17m after heldout7, was opened by
# that session's lead from the start: a tuning group);
# see docs/structure.md.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tsv="$here/corpus_extra.tsv"
target="${1:-$here/.work/corpus_extra}"
mkdir -p "$target/.debs"
target="$(cd "$target" && pwd)"
debs="$target/.debs"

col() { head -n1 "$tsv" | tr '\t' '\n' | grep -nx "$1" | cut -d: -f1; }
c_id=$(col doc_id); c_pkg=$(col package); c_ver=$(col version); c_path=$(col path); c_sha=$(col sha256)
c_suite=$(col suite)
archive="http://deb.debian.org/debian"

fetch_pool() { # package version suite -> downloads the .deb of that version from the archive's pool into $debs
  local pkg="$1" ver="$2" suite="$3" index="$debs/Packages-all-$3.xz" file
  [ -s "$index" ] || curl -fsSL -o "$index" "$archive/dists/$suite/main/binary-all/Packages.xz" || return 1
  file=$(xz -dc "$index" | awk -v p="$pkg" -v v="$ver" '
    /^Package: / {pk = $2} /^Version: / {vr = $2} /^Filename: / {fn = $2}
    /^$/ {if (pk == p && vr == v) {print fn; exit} pk = vr = fn = ""}')
  [ -n "$file" ] || { echo "error: $pkg $ver not in $suite's Packages index" >&2; return 1; }
  curl -fsSL -o "$debs/${file##*/}" "$archive/$file"
}

fetch_deb() { # package version suite -> prints path of .deb
  local pkg="$1" ver="$2" suite="$3" f
  f=$(ls "$debs"/"${pkg}"_*.deb 2>/dev/null | head -n1 || true)
  if [ -z "$f" ] && [ -n "$suite" ] && [ "$suite" != bookworm ]; then
    fetch_pool "$pkg" "$ver" "$suite" || return 1
    f=$(ls "$debs"/"${pkg}"_*.deb | head -n1)
  elif [ -z "$f" ]; then
    if ! (cd "$debs" && apt-get download -q "${pkg}=${ver}" >/dev/null 2>&1); then
      echo "warning: ${pkg}=${ver} not available, downloading current candidate" >&2
      (cd "$debs" && apt-get download -q "$pkg" >/dev/null) || { echo "error: apt-get download $pkg failed (run apt-get update?)" >&2; return 1; }
    fi
    f=$(ls "$debs"/"${pkg}"_*.deb | head -n1)
  fi
  printf '%s\n' "$f"
}

status=0
while IFS=$'\t' read -r -a row; do
  id="${row[$((c_id-1))]}"; pkg="${row[$((c_pkg-1))]}"; ver="${row[$((c_ver-1))]}"
  path="${row[$((c_path-1))]}"; sha="${row[$((c_sha-1))]}"; suite="${row[$((c_suite-1))]:-bookworm}"
  out="$target/$id.pdf"
  if [ -f "$out" ] && [ "$(sha256sum "$out" | cut -d' ' -f1)" = "$sha" ]; then
    echo "ok      $id"; continue
  fi
  if ! deb=$(fetch_deb "$pkg" "$ver" "$suite"); then status=1; continue; fi
  tmp="$out.part"
  if ! dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./${path#/}" > "$tmp"; then
    echo "error: $path not found in $deb" >&2; rm -f "$tmp"; status=1; continue
  fi
  case "$path" in *.gz) gzip -dc "$tmp" > "$tmp.u" && mv "$tmp.u" "$tmp";; esac
  mv "$tmp" "$out"
  got=$(sha256sum "$out" | cut -d' ' -f1)
  if [ "$got" != "$sha" ]; then
    echo "changed $id (sha256 $got differs from corpus_extra.tsv)" >&2
  else
    echo "fetched $id"
  fi
done < <(tail -n +2 "$tsv" | grep -v '^#')
exit "$status"
