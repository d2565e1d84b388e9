"""Pick a group of never-tuned manuals from Debian by a rule fixed before anyone looks at them.

    python benchmarks/pick_heldout.py GROUP [--count 10] [--out rows.tsv]

Why a script: a held-out group is only held out if nobody chose its documents by how the indexer does on
them. The rule below is written down and run once, before any structure or search result on the picked
documents is seen; its output rows are appended to benchmarks/corpus_extra.tsv unchanged.

The rule:
1. Candidates are the PDFs under usr/share/doc/ of Debian bookworm's main archive (Contents-all.gz),
   from packages not already in ../shared/corpus/manuals/corpus.tsv or benchmarks/corpus_extra.tsv and not
   from the texlive documentation packages (over-represented in the earlier groups already), and never from
   the packages that ../shared/corpus/manuals/README.md reserves for judging (its "Packages reserved for
   judging" list, read from the README, with the other languages of lilypond-doc-pdf).
2. Packages are visited in the order of sha256(GROUP + ':' + package) — arbitrary but fixed — and a package
   whose .deb is larger than --max-mb is skipped.
3. In a package, the PDFs are tried in path order and the first that qualifies is taken (one per package):
   20-1,500 pages, portrait first page (no slides), 8+ outline entries at levels <= 2 (the answer key), and
   English (the words 'the', 'and', 'of', 'to', 'is', 'in' make up 4%+ of the words of its first 10 pages).
4. kind: `no-toc` when none of the first six pages has a line reading "Contents" or "Table of Contents",
   else `plain` (the same test as the earlier groups).
5. Stop after --count documents. With --kind, only documents of that kind are taken (run once without it,
   then with `--kind no-toc` to add documents without a printed contents; packages already in
   corpus_extra.tsv are skipped, so the second run continues the same order).
6. `--suite` names the Debian release whose archive is read (default bookworm, the release of these machines).
   By session 17o bookworm had no qualifying `no-toc` document left (`pick_heldout.py heldout10 --kind no-toc`
   visited every candidate package and found none), so a group's no-toc documents may come from the next release
   (`--suite trixie`): the same rule over that release's Contents-all.gz and binary-all Packages index, the .deb
   downloaded from the archive's pool; the row's `suite` column tells benchmarks/fetch_extra.sh where to fetch it.
7. A PDF whose sha256 is already in a corpus table is skipped, and the package's next PDF is tried: the same file
   shipped by another package is no new document (added in session 17p, when heldout11's no-toc run took freedm's
   copy of the Freedoom manual that heldout10 had taken from freedoom; the run was repeated with this rule).
8. A PDF of the same file name as a corpus row's, from a package whose name is the same once version numbers are
   removed, is another edition of a document already held and is skipped, and the package's next PDF is tried
   (added in session 17q, when heldout12's no-toc run took slepc3.22-doc's slepc.pdf, a later edition of the SLEPc
   manual heldout4 holds from slepc3.18-doc; that run had visited every candidate, so the rule drops the row and
   changes no other pick).
9. Rule 8 also holds across binary packages of one source package and across translations and releases: names are
   compared by source package (the `Source:` field of the package index) as well as by binary package, and file
   names without a language tag before `.pdf` or a Debian release's code name (`debian-faq.nl.pdf` is
   `debian-faq.en.pdf`; `debian-edu-trixie-manual.pdf` is `debian-edu-bookworm-manual.pdf`). Added in session
   17r, when heldout13's first no-toc run took the Dutch Debian FAQ (heldout2 holds the English one), the
   Norwegian Debian Edu manual (heldout11 holds the Danish one) and freedm's later Freedoom manual (heldout10
   holds freedoom's); both of heldout13's runs were repeated with this rule before any result was looked at.
   By then bookworm and trixie had no qualifying `no-toc` document left, so heldout13's no-toc rows come from the
   next release, forky (rule 6).
10. File names are also compared without letter case and without a version number glued to a word
   (`MineXpert3-doc.pdf` is `minexpert2-doc.pdf`): added in session 17s, when heldout14's first run took
   minexpert2-doc's manual, an earlier edition of the MineXpert3 manual that heldout13 holds; the run was repeated
   with this rule before any result on its documents was looked at. In the same session forky had no qualifying
   `no-toc` document left either (heldout13's forky run had visited every candidate), so heldout14's no-toc run read
   the unstable archive (`--suite sid`, rule 6): it visited every candidate and found 1.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import lzma
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import pymupdf

HERE = Path(__file__).resolve().parent
ARCHIVE = "http://deb.debian.org/debian"
DEFAULT_SUITE = "bookworm"  # the release of these machines: apt-get knows its packages
COMMON = {"the", "and", "of", "to", "is", "in"}
CONTENTS = re.compile(r"^\s*(table\s+of\s+)?contents\s*$", re.I | re.M)


CODENAMES = re.compile(r"[-_.](?:hamm|slink|potato|woody|sarge|etch|lenny|squeeze|wheezy|jessie|stretch|buster"
                       r"|bullseye|bookworm|trixie|forky|duke)(?=[-_.])")


def edition(source: str, path: str) -> tuple[str, str]:
    """A document's edition- and language-free name (rules 8 and 9): the source package without version numbers,
    and the file name without `.gz`, a language tag before `.pdf` (`.nl.pdf`, `.pt_BR.pdf`), a release's name, letter
    case or a version number glued to a word (rule 10)."""
    name = re.sub(r"\.gz$", "", path.rsplit("/", 1)[-1])
    name = re.sub(r"\.[a-z]{2}(?:_[A-Z]{2})?(?=\.pdf$)", "", name)
    name = re.sub(r"(?<=[a-z])[0-9][0-9.]*(?=[-_.])", "", name.lower())  # rule 10: `MineXpert3-doc` is `minexpert2-doc`
    return re.sub(r"[0-9.]+", "", source), CODENAMES.sub("", name)


def source_of(pkg: str, pool: dict[str, tuple[str, int, str, str]]) -> str:
    """The source package a binary package is built from (its `Source:` field; the binary's own name without one)."""
    if pkg in pool:
        return pool[pkg][3]
    out = subprocess.run(["apt-cache", "show", "--no-all-versions", pkg], capture_output=True, text=True).stdout
    m = re.search(r"^Source: (\S+)", out, re.M)
    return m.group(1) if m else pkg


def used(work: Path) -> tuple[set[str], set[str], set[str], set[tuple[str, str]]]:
    """Packages, doc_ids, PDF sha256s and edition-free names already in the corpus tables."""
    pkgs, ids, shas, editions = set(), set(), set(), set()
    pools: dict[str, dict[str, tuple[str, int, str, str]]] = {DEFAULT_SUITE: {}}
    for tsv in (HERE.parent.parent / "shared/corpus/manuals/corpus.tsv", HERE / "corpus_extra.tsv"):
        lines = tsv.read_text().splitlines()
        head = lines[0].split("\t")
        sha_col = head.index("sha256")
        for line in lines[1:]:
            cells = line.split("\t")
            ids.add(cells[0])
            pkgs.add(cells[1])
            shas.add(cells[sha_col])
            suite = cells[head.index("suite")] if "suite" in head and len(cells) > head.index("suite") else ""
            suite = suite or DEFAULT_SUITE
            if suite not in pools:
                pools[suite] = suite_packages(suite, work)
            editions.add(edition(cells[1], cells[3]))  # rule 8 as first written: the binary package's name
            editions.add(edition(source_of(cells[1], pools[suite]), cells[3]))
    return pkgs, ids, shas, editions


def reserved() -> set[str]:
    """The packages ../shared/corpus/manuals/README.md holds out for judging: never picked, never read."""
    text = (HERE.parent.parent / "shared/corpus/manuals/README.md").read_text()
    part = text.split("## Packages reserved for judging", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`([a-z0-9][a-z0-9.+-]+)`", part))


def is_reserved(pkg: str, names: set[str]) -> bool:
    return pkg in names or pkg.startswith("lilypond-doc-pdf")


def candidates(contents: Path) -> dict[str, list[str]]:
    by_pkg: dict[str, list[str]] = {}
    with gzip.open(contents, "rt", errors="replace") as fh:
        for line in fh:
            m = re.match(r"^(usr/share/doc/\S+\.pdf(?:\.gz)?)\s+(\S+)$", line.rstrip("\n"))
            if not m:
                continue
            for loc in m.group(2).split(","):
                by_pkg.setdefault(loc.rsplit("/", 1)[-1], []).append(m.group(1))
    return by_pkg


def suite_packages(suite: str, work: Path) -> dict[str, tuple[str, int, str, str]]:
    """package -> (version, size, pool path, source package) from another release's binary-all Packages index (no
    apt source needed)."""
    index = work / f"Packages-all-{suite}.xz"
    if not index.exists():
        urllib.request.urlretrieve(f"{ARCHIVE}/dists/{suite}/main/binary-all/Packages.xz", index)
    out: dict[str, tuple[str, int, str, str]] = {}
    for stanza in lzma.decompress(index.read_bytes()).decode("utf-8", "replace").split("\n\n"):
        f = dict(re.findall(r"^([A-Za-z-]+): (.*)$", stanza, re.M))
        if {"Package", "Version", "Size", "Filename"} <= f.keys():
            out[f["Package"]] = (f["Version"], int(f["Size"]), f["Filename"], f.get("Source", f["Package"]).split()[0])
    return out


def deb_info(pkg: str) -> tuple[str, int] | None:
    out = subprocess.run(["apt-cache", "show", "--no-all-versions", pkg], capture_output=True, text=True).stdout
    ver = re.search(r"^Version: (\S+)", out, re.M)
    size = re.search(r"^Size: (\d+)", out, re.M)
    return (ver.group(1), int(size.group(1))) if ver and size else None


def qualifies(pdf: Path) -> tuple[bool, str, int]:
    try:
        doc = pymupdf.open(pdf)
    except Exception as exc:  # a package's PDF we cannot open is simply not a candidate
        return False, f"unreadable: {exc}", 0
    with doc:
        n = doc.page_count
        if not 20 <= n <= 1500:
            return False, f"{n} pages", n
        r = doc[0].rect
        if r.width > r.height:
            return False, "landscape (slides)", n
        top = [e for e in doc.get_toc(simple=True) if e[0] <= 2]
        if len(top) < 8:
            return False, f"{len(top)} outline entries at levels <= 2", n
        words = re.findall(r"[^\W\d_]+", " ".join(doc[i].get_text() for i in range(min(10, n))).lower())
        share = sum(w in COMMON for w in words) / max(1, len(words))
        if share < 0.04:
            return False, f"not English ({share:.3f})", n
        head = "\n".join(doc[i].get_text() for i in range(min(6, n)))
        return True, "no-toc" if not CONTENTS.search(head) else "plain", n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("group")
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--kind", choices=("plain", "no-toc"), default=None, help="take only documents of this kind")
    ap.add_argument("--max-mb", type=float, default=80)
    ap.add_argument("--work", type=Path, default=HERE / ".work" / "pick")
    ap.add_argument("--out", type=Path, default=None, help="write the picked rows here (default: stdout)")
    ap.add_argument("--suite", default=DEFAULT_SUITE, help="Debian release whose archive is read (rule 6)")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    contents = args.work / ("Contents-all.gz" if args.suite == DEFAULT_SUITE else f"Contents-all-{args.suite}.gz")
    if not contents.exists():
        urllib.request.urlretrieve(f"{ARCHIVE}/dists/{args.suite}/main/Contents-all.gz", contents)
    pool = {} if args.suite == DEFAULT_SUITE else suite_packages(args.suite, args.work)
    used_pkgs, ids, used_shas, used_editions = used(args.work)
    held = reserved()
    if len(held) < 10:
        raise SystemExit("could not read the reserved packages from ../shared/corpus/manuals/README.md")
    by_pkg = {p: f for p, f in candidates(contents).items()
              if p not in used_pkgs and not p.startswith("texlive") and not is_reserved(p, held)}
    order = sorted(by_pkg, key=lambda p: hashlib.sha256(f"{args.group}:{p}".encode()).hexdigest())
    rows = []
    for pkg in order:
        if len(rows) >= args.count:
            break
        info = deb_info(pkg) if not pool else (pool[pkg][:2] if pkg in pool else None)
        if info is None or info[1] > args.max_mb * 1e6:
            print(f"skip {pkg}: {'not in apt' if info is None else f'{info[1] / 1e6:.0f} MB'}", file=sys.stderr)
            continue
        ver, _ = info
        debdir = args.work / ("debs" if not pool else f"debs-{args.suite}")
        debdir.mkdir(exist_ok=True)
        if pool and not list(debdir.glob(f"{pkg}_*.deb")):
            urllib.request.urlretrieve(f"{ARCHIVE}/{pool[pkg][2]}", debdir / pool[pkg][2].rsplit("/", 1)[-1])
        elif not list(debdir.glob(f"{pkg}_*.deb")):
            subprocess.run(["apt-get", "download", "-q", f"{pkg}={ver}"], cwd=debdir, check=True,
                           capture_output=True)
        deb = sorted(debdir.glob(f"{pkg}_*.deb"))[0]
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["dpkg-deb", "-x", str(deb), tmp], check=True)
            for path in sorted(by_pkg[pkg]):
                src = Path(tmp) / path
                if not src.exists():
                    continue
                if src.is_symlink():  # fetch_extra.sh extracts the listed member only: list the link's target
                    path = str(src.resolve().relative_to(Path(tmp).resolve()))
                pdf = Path(tmp) / "doc.pdf"
                pdf.write_bytes(gzip.decompress(src.read_bytes()) if path.endswith(".gz") else src.read_bytes())
                ok, why, n = qualifies(pdf)
                if ok and args.kind and why != args.kind:
                    ok, why = False, f"kind {why}"
                if not ok:
                    print(f"  no  {pkg} {path}: {why}", file=sys.stderr)
                    continue
                sha = hashlib.sha256(pdf.read_bytes()).hexdigest()
                if sha in used_shas:  # rule 7: the same file shipped by another package is not a new document
                    print(f"  no  {pkg} {path}: the same PDF as a row of the corpus tables", file=sys.stderr)
                    continue
                used_shas.add(sha)
                names = {edition(pkg, path), edition(source_of(pkg, pool), path)}
                if names & used_editions:  # rules 8-9: another edition or translation of a document already held
                    print(f"  no  {pkg} {path}: another edition or translation of a row of the corpus tables",
                          file=sys.stderr)
                    continue
                used_editions |= names
                doc_id = re.sub(r"\.pdf(\.gz)?$", "", path.rsplit("/", 1)[-1]).lower()
                doc_id = re.sub(r"[^a-z0-9]+", "-", doc_id).strip("-")
                if doc_id in ids:
                    doc_id = f"{pkg}-{doc_id}"
                ids.add(doc_id)
                rows.append("\t".join([doc_id, pkg, ver, path, why, args.group, sha,
                                       f"picked by benchmarks/pick_heldout.py {args.group}; {n} pages", args.suite]))
                print(f"  yes {pkg} {path}: {why}, {n} pages", file=sys.stderr)
                break
    text = "".join(r + "\n" for r in rows)
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    return 0 if len(rows) == args.count else 1


if __name__ == "__main__":
    sys.exit(main())
