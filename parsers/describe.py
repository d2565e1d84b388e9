"""What a document is and what it is called: its kind, printed title and catalog description.

The catalog picks documents for a question that names none, so each document needs a title a reader
would recognise and a description that says what it covers. PDF metadata is a poor source (titles such
as "0000004962-23-000006", or none) and a document's first page is often cover boilerplate ("Indicate by
check mark if the registrant ..."). This module reads instead:

- the SEC cover page of a filing: registrant, form, the period it covers, trading symbols;
- the title printed on the first pages of anything else: the largest type on them;
- the top-level outline (the chapter or Item titles) for the description.

``doc_kind`` is ``"filing"`` (an SEC form, or a financial report whose pages are headed by financial
statements, such as an earnings release), ``"manual"`` (a structured book: a contents outline of at
least a few chapters), or ``"other"``. Query profiles key on it (query/profiles.py): filing knowledge
applies to filings only. Pure over plain data: page texts, positioned lines, the tree's root.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from index_store.model import DOC_KINDS, LEGAL_WORDS, Node
from parsers.layout import PageLayout

COVER_HEAD = 600         # characters of a cover page that hold the Commission's name (the form within twice that)
COVER_PAGES = 3          # a filing's cover page, or a book's title page, is among the first pages
TITLE_PAGES = 3
MAX_TITLE = 200
OUTLINE_TITLES = 40      # top-level titles kept in a description
MIN_MANUAL_CHAPTERS = 3  # top-level sections that make a structured book
STATEMENT_PAGES = 2      # pages headed by a financial statement that make a financial report
MIN_ITEMS = 3            # top-level "Item N" sections that make a filing (as parsers/filings.py reads TOCs)
TITLE_SIZE_RATIO = 1.15  # a printed title is set at least this much larger than the body text

_SEC = re.compile(r"securities\s+and\s+exchange\s+commission", re.I)
_FORM = re.compile(r"\bform\s+(10-k(?:t|405)?|10-q(?:t)?|8-k|20-f|40-f|6-k|s-1|s-4|def\s*14a|11-k)\b", re.I)
_REGISTRANT = re.compile(r"\(\s*exact\s+name\s+of\s+registrants?\b", re.I)
_MONTH = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
          r"\s+\d{1,2}\s*,?\s*\d{4}")
# Two-column covers interleave cells ("For the quarterly period ended / Commission file / June 30, 2022").
_PERIOD = re.compile(r"for\s+the\s+(fiscal\s+year|quarterly\s+period|transition\s+period)\s+ended\b.{0,60}?(" + _MONTH + ")",
                     re.I)
# A press release names its issuer with its listing: "Johnson & Johnson (NYSE: JNJ) today announced ...".
_LISTED = re.compile(r"([A-Z][\w.&,'’ -]{1,60}?)\s*\(\s*(?:NYSE|NASDAQ|Nasdaq|NYSE American|ASX|LSE)\s*:\s*([A-Z]{1,5}(?:\.[A-Z])?)\s*\)")
_FINANCIALS = re.compile(r"balance\s+sheets?|statements?\s+of\s+(?:consolidated\s+)?(?:operations|income|earnings|cash\s+flows?)"
                         r"|statements?\s+of\s+financial\s+position", re.I)
_REPORT_DATE = re.compile(r"date\s+of\s+report[^:\n]*(?:\n[^:\n]*)?:?\s*\(?\s*(" + _MONTH + r")", re.I)
_SYMBOL_HEAD = re.compile(r"trading\s+symbol", re.I)
_SYMBOL = re.compile(r"^[A-Z]{1,5}(?:\.[A-Z])?$")
_COMPANY = re.compile(r"(?:^|\b)(?:inc|incorporated|corp|corporation|company|co|ltd|limited|plc|n\.?v|s\.?a|llc|l\.?p|group|"
                      r"holdings?|&\s*co)\.?\s*$", re.I)
# Headings of the primary financial statements: a report whose pages open with them is a financial report.
_STATEMENT_HEADING = re.compile(
    r"\b(?:consolidated\s+)?(?:balance\s+sheets?|statements?\s+of\s+(?:consolidated\s+)?(?:operations|income|earnings|"
    r"cash\s+flows?|financial\s+(?:position|condition)))\b", re.I)
_ITEM = re.compile(r"^item\s+\d{1,2}[a-z]?\b", re.I)
_OTHER_FIELD = re.compile(r"\(\s*(?:state|i\.?\s*r\.?\s*s|address|zip|commission|registrant.s\s+telephone)", re.I)
_SUBSIDIARIES = re.compile(r"\s+and\s+(?:its\s+)?(?:consolidated\s+)?subsidiaries\b.*$", re.I)
_CAPITALISED = re.compile(r"\b[A-Z][A-Za-z]{2,9}\b")
# The kind of report each form is (what a reader asks for: "the annual report", "the 8-K", "the proxy").
REPORT_OF_FORM = {"10-K": "annual report", "10-KT": "annual report", "10-K405": "annual report", "20-F": "annual report",
                  "40-F": "annual report", "10-Q": "quarterly report", "10-QT": "quarterly report",
                  "8-K": "current report", "6-K": "current report", "DEF 14A": "proxy statement",
                  "S-1": "registration statement", "S-4": "registration statement", "11-K": "annual report"}
# A current report lists the events it reports as numbered Items ("Item 5.02. Departure of Directors ..."); the
# description names them by their titles in Form 8-K, since printed titles run on into the text.
EVENT_ITEMS = {
    "1.01": "Entry into a Material Definitive Agreement", "1.02": "Termination of a Material Definitive Agreement",
    "1.03": "Bankruptcy or Receivership", "1.05": "Material Cybersecurity Incidents",
    "2.01": "Completion of Acquisition or Disposition of Assets", "2.02": "Results of Operations and Financial Condition",
    "2.03": "Creation of a Direct Financial Obligation", "2.05": "Costs Associated with Exit or Disposal Activities",
    "2.06": "Material Impairments", "3.01": "Notice of Delisting or Failure to Satisfy a Continued Listing Rule",
    "3.02": "Unregistered Sales of Equity Securities", "3.03": "Material Modification to Rights of Security Holders",
    "4.01": "Changes in Registrant's Certifying Accountant",
    "4.02": "Non-Reliance on Previously Issued Financial Statements", "5.01": "Changes in Control of Registrant",
    "5.02": "Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; "
            "Compensatory Arrangements of Certain Officers",
    "5.03": "Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year",
    "5.07": "Submission of Matters to a Vote of Security Holders", "7.01": "Regulation FD Disclosure",
    "8.01": "Other Events", "9.01": "Financial Statements and Exhibits"}
_EVENT_ITEM = re.compile(r"\bItem\s+(\d\.\d\d)\b")
_PRESS_EXHIBIT = re.compile(r"\bpress\s+release\b", re.I)
MAX_EVENT_ITEMS = 6
# A release that announces results is an earnings release ("Amcor reports fiscal 2023 results"); any other is a
# press release.
_RESULTS = re.compile(r"\b(?:results|earnings|quarter|full[\s-]+year|fiscal\s+year)\b", re.I)
_REPORTS_RESULTS = re.compile(r"\b(?:reports?|reported|announces?|announced)\b.{0,80}\b(?:results|earnings)\b", re.I)
ALIAS_PAGES = 3          # a short name the document uses on at least this many pages
_GENERATED = re.compile(r"^(?:pages?\s+\d+|front\s+matter)\b", re.I)
_MONTHS = ("january february march april may june july august september october november december").split()


@dataclass
class Description:
    """The kind, title and catalog description of one document, with the facts they were read from."""

    doc_kind: str
    title: str
    description: str
    facts: dict[str, Any] = field(default_factory=dict)


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _flat(text: str) -> str:
    return " ".join(text.split())


def cover_facts(texts: Sequence[str]) -> dict[str, Any]:
    """Registrant, form, period and trading symbols from an SEC cover page ({} when there is none)."""
    for number, text in enumerate(texts[:COVER_PAGES], start=1):
        flat = _flat(text)
        # A cover page opens with the Commission's name and the form; a release that mentions them later is no cover.
        form = _FORM.search(flat[:COVER_HEAD * 2])
        if not (_SEC.search(flat[:COVER_HEAD]) and form):
            continue
        facts: dict[str, Any] = {"form": re.sub(r"\s+", " ", form.group(1)).upper(), "cover_page": number}
        period = _PERIOD.search(flat)
        if period:
            kind = " ".join(period.group(1).lower().split())
            facts["period"] = {"quarterly period": "quarter"}.get(kind, kind)
            facts["period_end"] = _flat(period.group(2))
        elif (report := _REPORT_DATE.search(text)):
            facts["period"] = "report date"
            facts["period_end"] = _flat(report.group(1))
        if "period_end" in facts:
            facts["fiscal_year"] = fiscal_year(facts["period_end"], facts["period"])
        company = registrant(text) or company_line(texts[number: number + 2])
        if company:
            facts["company"] = company
            aliases = short_names(texts, company)
            if aliases:
                facts["aliases"] = aliases
        symbols = trading_symbols(text)
        if symbols:
            facts["symbols"] = symbols
        return facts
    return {}


def release_facts(texts: Sequence[str]) -> dict[str, Any]:
    """Issuer and ticker of a financial press release (an earnings release, say): {} when there is none."""
    for text in texts[:2]:
        m = _LISTED.search(_flat(text))
        if m and any(_FINANCIALS.search(t) for t in texts):
            name = re.split(r"\s[-–—]\s", m.group(1))[-1].strip(" ,-–—")  # after a dateline "CITY - date - "
            return {"company": name, "symbols": [m.group(2)], "lead": _flat(text)[:300]}
    return {}


def event_items(texts: Sequence[str]) -> list[str]:
    """The Items a current report (8-K) reports, "5.02 Departure of Directors ...", in order, each once."""
    found: dict[str, str] = {}
    for text in texts:
        for m in _EVENT_ITEM.finditer(_flat(text)):
            if m.group(1) in EVENT_ITEMS:
                found.setdefault(m.group(1), f"{m.group(1)} {EVENT_ITEMS[m.group(1)]}")
            if len(found) >= MAX_EVENT_ITEMS:
                return list(found.values())
    return list(found.values())


def report_kind(texts: Sequence[str], facts: dict[str, Any]) -> str:
    """What kind of report this is, in a reader's words: "annual report", "current report", "earnings release", …
    ('' when unknown). A current report that furnishes a press release says so ("current report with a press
    release"): the release is what a question about it quotes."""
    form = facts.get("form")
    if form:
        kind = REPORT_OF_FORM.get(form, "")
        if kind == "current report" and any(_PRESS_EXHIBIT.search(t) for t in texts):
            kind += " with a press release"
        return kind
    if facts.get("company"):
        return "earnings release" if _RESULTS.search(f"{facts.get('headline', '')} {facts.get('lead', '')}") else "press release"
    # No listing line to name the issuer, but a headline that reports results: still an earnings release.
    return "earnings release" if _REPORTS_RESULTS.search(facts.get("headline", "")) else ""


def fiscal_year(period_end: str, period: str) -> int | None:
    """The fiscal year a period ending on ``period_end`` is named by.

    Annual reports ending in January (retailers' 52/53-week years) are named by the year before: Best Buy's
    year ended February 1, 2020 is its fiscal 2020 but Walmart's ended January 31, 2019 is fiscal 2019, so
    only January moves back a year; the description carries both years anyway.
    """
    m = re.search(r"([a-z]+)\s+\d{1,2}\s*,?\s*(\d{4})", period_end.lower())
    if not m:
        return None
    year = int(m.group(2))
    return year - 1 if period == "fiscal year" and m.group(1) == "january" else year


def registrant(text: str) -> str:
    """The registrant's name: the line printed just above "(Exact name of registrant as specified in its charter)",
    else the first cover line that ends like a company name ("3M COMPANY", "Foot Locker, Inc.")."""
    m = _REGISTRANT.search(text)
    if not m:
        return next((ln for ln in _lines(text) if _COMPANY.search(ln) and len(ln) <= 80
                     and not re.search(r"exchange|commission|securities|act\b", ln, re.I)), "")
    lines = _lines(text[: m.start()])
    for j in range(len(lines) - 1, max(-1, len(lines) - 4), -1):
        cand = lines[j].strip(" ,")
        if _name_like(cand):
            if j > 0 and _COMPANY.fullmatch(cand):  # "AMCOR" / "PLC" set on two lines
                cand = f"{lines[j - 1].strip(' ,')} {cand}"
            return cand[:MAX_TITLE]
    # Some covers print the name below its caption: the first name-like line after the parenthesis closes,
    # unless the next line captions it as another field ("Delaware" above "(State or other jurisdiction ...)").
    after = _lines(text[m.end():].split(")", 1)[-1])
    named = [ln.strip(" ,") for i, ln in enumerate(after[:4]) if _name_like(ln.strip(" ,"))
             and not (i + 1 < len(after) and _OTHER_FIELD.match(after[i + 1]))]
    return next((ln for ln in named if _COMPANY.search(ln)), named[0] if named else "")[:MAX_TITLE]


def company_line(texts: Sequence[str]) -> str:
    """The first line of these pages that reads as a company's name ("THE COCA-COLA COMPANY AND SUBSIDIARIES",
    a statement's heading): for a cover that prints its name only in a logo."""
    for text in texts:
        for ln in _lines(text):
            name = _SUBSIDIARIES.sub("", ln).strip(" ,")
            if len(name) <= 80 and _COMPANY.search(name) and _name_like(name) and len(name.split()) >= 2 \
                    and not re.search(r"exchange|commission|securities|act\b|of\s+the\b", name, re.I):
                return name[:MAX_TITLE]
    return ""


def short_names(texts: Sequence[str], company: str) -> list[str]:
    """Names the document calls its issuer by, when they are made of the first letters of its name's words
    ("Amex" for American Express, "FedEx" for Federal Express): capitalised words, on at least
    ALIAS_PAGES pages, that split into prefixes of two or more of the name's words, in order."""
    words = [w for w in re.findall(r"[a-z]+", company.lower()) if w not in LEGAL_WORDS]
    if len(words) < 2:
        return []
    pages: dict[str, int] = {}
    # Only a word opening with an initial of the name can be made of its words' prefixes: the others are never
    # collected (a filing has tens of thousands of capitalised words). _CAPITALISED with its word boundary
    # checked after the initial, so that the regex engine can skip to the initials instead of trying every
    # position: the same matches, a quarter of the time.
    initials = "".join(sorted({w[0].upper() for w in words}))
    capitalised = re.compile(rf"[{initials}](?<!\w[{initials}])[A-Za-z]{{2,9}}\b")
    for text in texts:
        for w in set(capitalised.findall(text)):
            pages[w] = pages.get(w, 0) + 1
    joined = "".join(words)  # a piece of the name itself ("Resorts" of "MGM R ESORTS") is no short name
    found = [w for w, n in pages.items() if n >= ALIAS_PAGES and w.lower() not in joined
             and _prefixes_of(w.lower(), words)]
    return sorted(found, key=lambda w: -pages[w])[:3]


def _prefixes_of(word: str, words: list[str], used: int = 0) -> bool:
    """Whether ``word`` is non-empty prefixes of at least two of ``words`` (in order), e.g. "amex" = am+ex."""
    if not word:
        return used >= 2
    return any(word.startswith(w[:k]) and _prefixes_of(word[k:], words[i + 1:], used + 1)
               for i, w in enumerate(words) for k in range(min(len(w), len(word)), 0, -1))


def _name_like(line: str) -> bool:
    return bool(re.search(r"[A-Za-z]{2}", line)) and not re.search(
        r"commission\s+file|^\(|^for\s+the\b|number|pursuant|\d{4}\)?$|^form\s+\S+$", line, re.I)


def trading_symbols(text: str) -> list[str]:
    """Ticker symbols from the cover's "Trading Symbol(s)" table (newer forms), in order, de-duplicated."""
    lines = _lines(text)
    for i, line in enumerate(lines):
        if _SYMBOL_HEAD.search(line):
            found = [w for ln in lines[i + 1: i + 16] for w in ln.split() if _SYMBOL.match(w) and len(w) >= 2]
            return list(dict.fromkeys(w for w in found if w not in {"NYSE", "LLC", "INC", "CO", "USD", "EUR"}))[:4]
    return []


def printed_title(layouts: Sequence[PageLayout]) -> str:
    """The largest type on the first pages, when it stands out from the body text (consecutive lines of
    that size joined, at most three): the printed title. '' when no line is set larger than the body."""
    sizes: dict[float, int] = {}
    for layout in layouts[:TITLE_PAGES]:
        for ln in layout.lines:
            if ln.size > 0:
                sizes[round(ln.size, 1)] = sizes.get(round(ln.size, 1), 0) + len(ln.text)
    if not sizes:
        return ""
    body = max(sizes, key=lambda k: sizes[k])
    best_size, best = body * TITLE_SIZE_RATIO, []
    for layout in layouts[:TITLE_PAGES]:
        lines = [ln for ln in layout.lines if ln.size > 0 and len(re.findall(r"[^\W\d_]", ln.text)) >= 3]
        if not lines:
            continue
        size = max(ln.size for ln in lines)
        if size < best_size * 1.05 if best else size < best_size:
            continue
        run: list[str] = []
        for ln in sorted(lines, key=lambda l: (l.y0, l.x0)):
            if ln.size >= size * 0.9:
                run.append(" ".join(ln.text.split()))
            elif run:
                break
        best_size, best = size, run[:3]
        break  # the first page with a line standing out holds the title (a later page's banner is not it)
    # Text drawn twice for a bold or shadow effect comes out doubled ("TikZ TikZ"): keep one copy.
    return re.sub(r"\b(\S+)(?: \1\b)+", r"\1", " ".join(best))[:MAX_TITLE].strip()


def sensible_metadata_title(title: str) -> str:
    """The PDF's metadata title when it reads like a title (words), not an id, a file name or a tool's default."""
    title = " ".join((title or "").split())
    if len(re.findall(r"[A-Za-z]{2,}", title)) < 2 or len(title) > MAX_TITLE:
        return ""
    if re.search(r"\.(?:pdf|docx?|tex|dvi|indd)\b|^microsoft\s+word|^untitled|^document\d*$", title, re.I):
        return ""
    return title


def top_titles(root: Node) -> list[str]:
    """Titles of the real top-level sections (made-up page groups and front matter left out)."""
    out = []
    for child in root.nodes:
        if child.extra.get("kind") in ("front_matter", "page_group") or _GENERATED.match(child.title):
            continue
        out.append(" ".join(child.title.split()))
    return out[:OUTLINE_TITLES]


def classify(texts: Sequence[str], root: Node, facts: dict[str, Any]) -> str:
    """"filing" | "manual" | "other" (see the module docstring)."""
    if facts.get("form") or facts.get("symbols"):
        return "filing"
    if sum(1 for n in root.walk() if n.level in (1, 2) and _ITEM.match(n.title.strip())) >= MIN_ITEMS:
        return "filing"
    headed = sum(1 for t in texts if _STATEMENT_HEADING.search(" ".join(_lines(t)[:6])))
    if headed >= STATEMENT_PAGES:
        return "filing"
    chapters = [c for c in root.nodes if c.extra.get("kind") not in ("front_matter", "page_group")
                and not _GENERATED.match(c.title)]
    return "manual" if len(chapters) >= MIN_MANUAL_CHAPTERS else "other"


def with_tagged_cover(read: dict[str, Any], tagged: dict[str, Any] | None) -> dict[str, Any]:
    """Cover facts when the filer also tagged its cover (inline XBRL ``dei:`` facts, parsers/xbrl.dei_cover):
    the tags win over what the cover's text reads as, the text fills what was not tagged."""
    if not tagged or not tagged.get("form"):
        return read
    merged = {**read, **tagged}
    if "period_end" in tagged and "fiscal_year" not in tagged:
        merged["fiscal_year"] = fiscal_year(tagged["period_end"], tagged.get("period", ""))
    return merged


def describe(texts: Sequence[str], layouts: Sequence[PageLayout], root: Node, *, metadata_title: str = "",
             fallback_title: str = "", summary: str = "", cover: dict[str, Any] | None = None) -> Description:
    """Kind, title and description of a document from its page texts, first pages' layouts and tree
    (``cover``: the cover facts the document tags, see with_tagged_cover)."""
    facts = with_tagged_cover(cover_facts(texts) or release_facts(texts), cover)
    if facts.get("form") in ("8-K", "6-K") and (items := event_items(texts[:COVER_PAGES + 2])):
        facts["items"] = items
    printed = printed_title(layouts)
    if (report := report_kind(texts, {**facts, "headline": printed})):
        facts["report"] = report
    kind = classify(texts, root, facts)
    assert kind in DOC_KINDS
    meta = sensible_metadata_title(metadata_title)
    outline = top_titles(root)
    parts: list[str] = []
    if facts.get("form"):
        company = facts.get("company") or printed or meta or fallback_title
        period = ""
        if facts.get("period_end"):
            period = (f"report dated {facts['period_end']}" if facts["period"] == "report date"
                      else f"{facts['period']} ended {facts['period_end']}")
        title = " ".join(x for x in (company, f"Form {facts['form']}", f"for the {period}" if period else "") if x)
        years = {facts.get("fiscal_year")} | {int(y) for y in re.findall(r"\d{4}", facts.get("period_end", ""))}
        fy = " ".join(f"fiscal year {y} FY{y}" for y in sorted(y for y in years if y))
        if facts.get("fiscal_period") and facts.get("fiscal_year"):  # tagged: "Q1", "FY"
            fy += f" {facts['fiscal_period']} {facts['fiscal_year']}"
        parts += [title, f"Company: {company}", f"Form {facts['form']}", fy]
        if facts.get("report"):
            parts.append(f"Report: {facts['report']}")
        if facts.get("items"):
            parts.append("Items: " + "; ".join(facts["items"]))
        if facts.get("aliases"):
            parts.append("Also called: " + " ".join(facts["aliases"]))
        if facts.get("symbols"):
            parts.append("Trading symbols: " + " ".join(facts["symbols"]))
    elif facts.get("company"):  # a press release: its headline, issuer, ticker and opening lines
        title = printed or f"{facts['company']} news release"
        parts += [title, f"Company: {facts['company']}", "Trading symbols: " + " ".join(facts["symbols"]),
                  f"Report: {facts['report']}" if facts.get("report") else "", facts["lead"]]
    else:
        title = printed or meta or fallback_title
        parts.append(title)
        if facts.get("report"):
            parts.append(f"Report: {facts['report']}")
        if meta and meta.casefold() != title.casefold():
            parts.append(meta)
        if summary and kind != "filing":
            parts.append(_flat(summary)[:300])
    if outline:
        parts.append("Contents: " + "; ".join(outline))
    description = ". ".join(p.strip(" .") for p in parts if p and p.strip(" ."))
    return Description(kind, title[:MAX_TITLE] or fallback_title, description, facts)
