"""Proof that the compiled walk over MuPDF's structured text (parsers/stext_walk.pyx) gives a page's fragments
exactly as PyMuPDF's "dict" path does (``parsers.pdf._fragments(textpage.extractDICT())``).

For every page of every PDF given (files or folders; default: .corpus/, benchmarks/.work/structure/ and
benchmarks/.work/corpus_extra/), it reads the page's TextPage once, builds the fragments both ways and compares them
item by item, type by type (a float must stay a float, a bool a bool). It prints each mismatch, the pages where the
walk declined (it returns None there and the dict is read), and the time of each path. PyMuPDF's quad corrections
change the boxes of some fonts' characters: ``--quad-corrections on|off|both`` checks the walk under each setting
(the dict is made under the same one).

    .venv/bin/python benchmarks/stext_walk_check.py                  # the default folders, both settings
    .venv/bin/python benchmarks/stext_walk_check.py a.pdf dir/ --quad-corrections off

Exit status 1 when any page mismatched.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from parsers import pdf as P  # noqa: E402

DEFAULT_DIRS = [ROOT / ".corpus", ROOT / "benchmarks/.work/structure", ROOT / "benchmarks/.work/corpus_extra"]


def pdfs(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths) if paths else DEFAULT_DIRS:
        if p.is_dir():
            out += sorted(p.rglob("*.pdf"))
        elif p.is_file():
            out.append(p)
    return out


def same(a: list[tuple], b: list[tuple]) -> bool:
    return len(a) == len(b) and all(
        len(x) == len(y) and all(type(u) is type(v) and u == v for u, v in zip(x, y)) for x, y in zip(a, b))


def check(files: list[Path], skip_quad_corrections: bool, show: int) -> tuple[int, int, int, float, float]:
    pymupdf.TOOLS.unset_quad_corrections(skip_quad_corrections)
    pages = mismatched = declined = 0
    t_dict = t_walk = 0.0
    for path in files:
        try:
            doc = pymupdf.open(path)
        except Exception as exc:
            print(f"  {path.name}: cannot open ({exc})")
            continue
        for page in doc:
            try:
                tp = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT)
            except Exception:
                continue
            t0 = time.perf_counter()
            data = tp.extractDICT()
            ref = P._fragments(data)
            del data
            t1 = time.perf_counter()
            got = P._walked_fragments(tp)
            t2 = time.perf_counter()
            pages += 1
            t_dict += t1 - t0
            t_walk += t2 - t1
            if got is None:
                declined += 1
                if declined <= show:
                    print(f"  declined: {path.name} p.{page.number + 1}")
                continue
            if not same(got, ref):
                mismatched += 1
                if mismatched <= show:
                    print(f"  MISMATCH: {path.name} p.{page.number + 1}: {len(got)} fragments walked, {len(ref)} in the dict")
                    for g, r in zip(got, ref):
                        if not same([g], [r]):
                            print(f"    walk {g!r}\n    dict {r!r}")
                            break
        doc.close()
    return pages, mismatched, declined, t_dict, t_walk


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", help="PDF files or folders (default: the corpus folders)")
    ap.add_argument("--quad-corrections", choices=["on", "off", "both"], default="both")
    ap.add_argument("--show", type=int, default=10, help="mismatches / declined pages printed per setting")
    args = ap.parse_args()
    print(f"fragments from: {P.fragments_in_use()}; PyMuPDF {pymupdf.VersionBind}, MuPDF {pymupdf.VersionFitz}")
    if P._stext_walk is None:
        print("the walk is not in use: nothing to check")
        return 1
    files = pdfs(args.paths)
    settings = {"on": [False], "off": [True], "both": [False, True]}[args.quad_corrections]
    was = bool(pymupdf.TOOLS.unset_quad_corrections())
    bad = 0
    try:
        for skip in settings:
            print(f"quad corrections {'off' if skip else 'on'}: {len(files)} PDFs")
            pages, mismatched, declined, t_dict, t_walk = check(files, skip, args.show)
            bad += mismatched
            print(f"  pages {pages}, mismatched {mismatched}, declined (dict read) {declined}; "
                  f"dict + fragments {t_dict:.1f} s, walk {t_walk:.1f} s ({t_walk / max(t_dict, 1e-9):.3f}x)")
    finally:
        pymupdf.TOOLS.unset_quad_corrections(was)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
