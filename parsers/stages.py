"""Declared stage versions: what the pipeline fingerprint is made of, and what a change costs.

Each stage that shapes the output declares a version here. Bump a stage's version when you change its
output (text, pages, tree, summaries) on purpose; leave it when a change is a refactor, a comment or a
speed-up. ``tests/parsers/test_stage_goldens.py`` keeps this honest: it digests every stage's output on
fixture documents and fails, naming the stage, when an output changes without a bump
(regenerate with ``make goldens`` after a bump; docs/operations.md, "Rolling out a parser upgrade").

The fingerprint of a pipeline is the schema version, these versions and the settings: never code bytes,
so a comment or a refactor leaves every stored version current. The stages run in ``ORDER``; a stale
stage makes every later stage stale too, and ``first_stale`` decides how much of an old version a
rebuild can reuse (see flows/reuse.py).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from index_store.model import SCHEMA_VERSION

#: stage -> (version, the modules whose output it is). The prompts stage's version is
#: providers.prompts.PROMPT_VERSION (declared here so that parsers never import providers); it enters the
#: fingerprint through the ``prompt_version`` setting (only when a model writes summaries).
STAGES: dict[str, tuple[str, str]] = {
    "text": ("1", "parsers/pdf.py, parsers/layout.py: text layer, labels, positioned lines"),
    "ocr": ("1", "parsers/ocr.py, parsers/ocr_layout.py, parsers/classify.py, parsers/ocr_stage.py: page classes, OCR"),
    "vision": ("1", "parsers/ocr_stage.py (_describe), providers/vision.py: figure and low-confidence page descriptions"),
    # structure 4: a contents listing itself and the front matter before it keep their pages; labels set twice on a
    # page and the title page's date are not headings (session 17g)
    # structure 5: manual pages and reference entries bound in one file keep their series of heads and get their
    # names; a figure's labels and a footnote-marked author line are not headings; an index is not a contents (17h);
    # filings: back matter ends the Items, unlabelled exhibits found from the exhibit index, an exhibit's numbered
    # sections as its children, folios like "- 12 -" and "F-12" as page labels (17f)
    # structure 6: a contents entry goes to its numbered heading rather than a page that only mentions its title, and
    # a page of one figure is not a section's anchor; a chapters-only contents gets the numbered sections of the body;
    # TeX's separately drawn accents are put on their letters in contents titles; a contents page's running head
    # ("4 CONTENTS") is not an entry; a bulleted contents without page numbers is read; a lone roman-looking title
    # takes its style's level (17c)
    # and (17n) bold run-in heads set like the document's heads, an index's display letters left out, no
    # run-in heads from contents lines, the title set again at the back and C preprocessor lines are not headings, a
    # list's count is not the document's numbering
    # structure 7 (17lc): a contents begun under a title block and abstract keeps its first rows; a wrapped contents
    # title joins when its lines have x-height boxes; a chapter number glued to its title ("11Index") is split off;
    # two-number folios ("APP-2-3") become page labels; a form filed as an exhibit is found from the exhibit index
    # structure 7 (17lh): TeX bold faces by name, definition-list terms, heads wrapped at commas, CWEB's named chunks
    # structure 8 (17mh): a contents page's rows are no heads in the fallback; a licence's numbered clauses after the
    # last numbered section are no chapters
    # structure 8 (17mc): a long leaf's body-size heads in the heading face before page groups; no head larger only
    # than a leaf's small print; chapters-only contents' sections; ragged contents; wrapped tails across weights
    # structure 8 (lead): a contents title of a version and a date alone ("2.7 (2022-12-03)") is an entry
    # structure 8 (lead): Portuguese "Sumário" heads a contents page
    # structure 9 (17nh): dblatex reference entries keep their Name/Synopsis/Description sections; amsart's
    # small-capital numbered sections; heads atop the page in display type (generated example books); "Title :"
    # (French colon) is a head; an index's letter groups in three columns
    # structure 9 (17nc): HTMLDOC's two-sided contents (levels per page, reprinted chapter, far-jumping links);
    # babel's glued section numbers ("3.14.LinkedList"); a listing's last rows atop the first chapter's page
    # structure 10 (17oh): man pages bound in one file keep their capital sections under a larger name; heads told
    # by a recurring style alone (a full stop, a lower-case start); Texinfo unnumbered sections; title-page authors
    # are no head; version-numbered runs are no entry family
    # structure 10 (17oc): text set at an angle (watermarks) is no part of a page's lines; a listing's last rows alone
    # on a page stay in it; a run of entries listed with one page number stays with its found neighbour
    # structure 11 (17p): a head told by its style alone is set apart from the lines above and below it; chapters
    # numbered alone keep their unnumbered sections; an epigraph is no head; a contents entry verified by its number
    # and title run in on a page; a section letter's page ("A-vii") is no part of a title; layouts read by a compiled
    # walk over MuPDF's text (the same lines) and unrotated page sizes
    # structure 12 (17q): contents running heads told by a folio that tracks the page, margin rows listed like
    # others kept, run-in wraps, Nordic/"Content" contents heads, index pages are no contents, unfound unnumbered
    # entries at the contents' end; fixed-pitch faces by name, spaced code signatures, lower-case function names as
    # heads; a filing's SEC cover page read as heads becomes one "Cover Page" node
    # structure 13 (17r): definition-list terms at any text margin, listed terms, fixed-pitch call signatures and their
    # wrapped parameters are no heads; an appendix's bare letter named as its page heads it; a contents link whose
    # destination sits at the foot of its page goes to the next page when only that page prints the title
    # structure 14 (17s): documents set right to left read from the right; a contents printed without page numbers
    # (numbered rows) read as a contents and never as heads; running heads carrying the folio are no heads and no
    # evidence of a section's start; a level between chapters and sections; stale contents placed by numbered
    # heads; a preface's unlisted numbered sections; a one-page contents' running foot
    # structure 15 (17t): a list after the contents under its running head (below prose, numbers starting over) is
    # no part of it; a chapter title under label-only lines kept whatever it ends in; heads opening page after page
    # in one style at one height are a reference's entries; numbered heads set smaller than deeper-numbered ones are
    # a list's; licence clauses after dotted section numbering; a one-word head over a longer line is whole
    # structure 16 (17t, second round): a leaf split by its headings after the last numbered section drops clauses
    # counting from 0 or 1 again (an appended licence's)
    # structure 17 (17u): a drifting stale contents moves its offset; DocBook chapter words from the page; a contents
    # link into a page's top margin goes to the next page; release heads, function-family names, labels repeated
    # smaller, one-name heads, reference-entry series with a few repeats, admonitions are no sections; a 10-K's
    # statements after its signatures get a section from their index page
    # structure 18 (17v): a one-level contents gets the heads its body sets one level below each entry; titles overrule
    # folios that do not number the file; links at the page foot named in passing; a numbered contents heading; long
    # title keys; front/back-matter heads between chapter and section size; +constant+ names; numbers run into titles
    # structure 19 (17v): tree titles spell out ligature characters ("ﬁrst" -> "first"; parsers/ranges.plain_titles)
    "structure": ("19", "parsers/structure.py, toc.py, toc_sections.py, offsets.py, ranges.py, numbering.py, headings.py, index_groups.py, bookmarks.py, "
                       "filings.py, filing_pdf.py, filing_anatomy.py, statements_index.py, inner_toc.py, exhibits.py, exhibit_index.py, ranges.py, "
                       "providers/structure_llm.py: the tree"),
    "node_text": ("1", "parsers/sections.py: each node's own text and end page"),
    # summaries 3: the description names the kind of report and a current report's Items (issue 16)
    "summaries": ("3", "parsers/summarize.py, providers/summarizer.py, parsers/describe.py: summaries and the description"),
    # p2: document title and section path inside the fence
    "prompts": ("p2", "providers/prompts.py: every prompt sent to a model"),
}
ORDER = ("text", "ocr", "vision", "structure", "node_text", "summaries", "prompts")

#: Which stage each PipelineSettings field feeds. A setting not listed here counts as "text" (the first
#: stage): a new setting makes a full rebuild until someone says which stage it belongs to.
SETTING_STAGE: dict[str, str] = {
    "max_bytes": "text", "max_pages": "text", "virtual_page_chars": "text",
    "ocr": "ocr", "ocr_lang": "ocr", "ocr_dpi": "ocr", "ocr_timeout": "ocr", "ocr_max_pixels": "ocr",
    "vision_below_confidence": "vision", "vision_max_pages": "vision", "vision_model": "vision",
    "page_group_size": "structure", "max_leaf_pages": "structure", "outline_split_factor": "structure",
    "summarizer": "summaries", "model": "summaries",
    "prompt_version": "prompts",
}

#: Stages whose output a rebuild can take from the previous version when only later stages are stale.
RESUMMARIZE_FROM = ("summaries", "prompts")


def stage_versions() -> dict[str, str]:
    """The declared version of every stage (prompts included, for the record)."""
    return {name: version for name, (version, _) in STAGES.items()}


def fingerprint(settings: Mapping[str, Any]) -> str:
    """sha256 over the schema version, the stage versions (prompts via settings) and the settings."""
    stages = {k: v for k, v in stage_versions().items() if k != "prompts"}
    payload = json.dumps({"schema_version": SCHEMA_VERSION, "stages": stages, "settings": dict(settings)},
                         sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass(frozen=True)
class StaleStage:
    """One stage of a stored version that the current pipeline would build differently, and why."""

    stage: str
    why: str

    def to_dict(self) -> dict[str, str]:
        return {"stage": self.stage, "why": self.why}


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:37] + "..."


def stale_stages(old: Mapping[str, Any] | None, settings: Mapping[str, Any], *,
                 structure_source: str | None = None) -> list[StaleStage]:
    """What differs between ``old`` (a manifest's ``pipeline`` record) and the current pipeline, per stage.

    A record without declared stages (built before they existed) is stale from the first stage.
    A structure recovered by the model (``structure_source`` "llm") depends on the model setting too.
    """
    old = old or {}
    recorded = old.get("stages")
    if not isinstance(recorded, Mapping):
        return [StaleStage(ORDER[0], "built before declared stage versions (code-digest fingerprint)")]
    out: list[StaleStage] = []
    now = stage_versions()
    for stage in ORDER:
        if stage == "prompts":
            continue  # its version travels as the prompt_version setting
        before = recorded.get(stage)
        if before != now[stage]:
            out.append(StaleStage(stage, f"{stage} version {before or 'none'} -> {now[stage]}"))
    if old.get("schema_version", SCHEMA_VERSION) != SCHEMA_VERSION:
        out.append(StaleStage(ORDER[0], f"schema version {old.get('schema_version')} -> {SCHEMA_VERSION}"))
    before_settings = old.get("settings") or {}
    for key in sorted(set(before_settings) | set(settings)):
        a, b = before_settings.get(key), settings.get(key)
        if a == b:
            continue
        stage = SETTING_STAGE.get(key, ORDER[0])
        out.append(StaleStage(stage, f"setting {key} {_short(a)} -> {_short(b)}"))
        if key == "model" and structure_source == "llm":
            out.append(StaleStage("structure", f"setting {key} {_short(a)} -> {_short(b)} (structure came from the model)"))
    return sorted(out, key=lambda s: ORDER.index(s.stage))


def first_stale(stale: Iterable[StaleStage]) -> str | None:
    stages = [s.stage for s in stale]
    return min(stages, key=ORDER.index) if stages else None


def reusable_stages(first: str | None) -> list[str]:
    """The stages before ``first``, whose output an unchanged document keeps (all of them when None)."""
    return list(ORDER) if first is None else list(ORDER[:ORDER.index(first)])


# -- golden outputs ------------------------------------------------------------------------------------------


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def output_digests(index: Any) -> dict[str, str]:
    """A digest of what each stage produced for one indexed document (a parsers.result.DocumentIndex).

    Each digest covers only its own stage's output, so the stage that changed is the first whose digest
    differs (later stages then differ because their input did)."""
    pages = index.pages
    ocr_decisions = index.decisions.get("ocr") or {}
    nodes = list(index.tree.root.walk())
    return {
        "text": _digest([[p.page_number, p.label, p.text] for p in pages if p.text_source in ("text", "none")]),
        "ocr": _digest({"classes": ocr_decisions.get("classes"),
                        "pages": [[p.page_number, p.text, round(p.ocr_confidence or 0.0)] for p in pages
                                  if p.text_source == "ocr"]}),
        "vision": _digest({"wanted": (ocr_decisions.get("vision") or {}).get("wanted"),
                           "pages": [[p.page_number, p.text] for p in pages if p.text_source == "vision"]}),
        "structure": _digest({"source": index.tree.structure_source, "offset": index.tree.page_offset,
                              "nodes": [[n.node_id, n.title, n.level, n.start_page, n.extra.get("kind")] for n in nodes]}),
        "node_text": _digest([[r.node_id, r.end_page, r.text] for r in index.nodes]),
        "summaries": _digest({"description": index.tree.extra.get("description"),
                              "nodes": [[n.node_id, n.summary, n.summary_source] for n in nodes]}),
    }


def golden_problems(recorded: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """Stages whose output changed on a fixture document without a version bump, as messages naming the stage.

    ``recorded`` and ``current`` are ``{"stages": {stage: version}, "prompts": digest, "documents": {name:
    {stage: digest}}}``. Walking the stages in order, the first whose digest changed fails unless it or an
    earlier stage was bumped since the goldens were recorded (later stages change with their input)."""
    problems: list[str] = []
    was, now = recorded.get("stages") or {}, current.get("stages") or {}
    regen = "regenerate the goldens with `make goldens` once the bump is in"
    for name, digests in sorted((current.get("documents") or {}).items()):
        old = (recorded.get("documents") or {}).get(name)
        if old is None:
            problems.append(f"{name}: no golden outputs recorded; {regen}")
            continue
        bumped = False
        for stage in ORDER:
            if stage not in digests:
                continue
            bumped = bumped or was.get(stage) != now.get(stage)
            if digests[stage] != old.get(stage) and not bumped:
                problems.append(
                    f"stage '{stage}' output changed on fixture {name} without a version bump: bump "
                    f"STAGES['{stage}'] in parsers/stages.py (now {now.get(stage)!r}; it covers "
                    f"{STAGES[stage][1].split(':')[0]}), then {regen}")
                break
    if current.get("prompts") != recorded.get("prompts") and was.get("prompts") == now.get("prompts"):
        problems.append(f"stage 'prompts' output changed without a version bump: bump STAGES['prompts'] "
                        f"in parsers/stages.py (now {now.get('prompts')!r}), then {regen}")
    return problems
