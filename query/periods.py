"""Document selection by period: what time and kind of report a question asks about, what a catalog entry
covers, and how well the two fit.

A question about a filing names the company and the period ("FY2022", "fiscal 2022", "Q2 of FY2024",
"2021 Q1", "as of May 26, 2023"); a store holds several reports of one company (10-Ks of several years, a
10-Q, an earnings release, an 8-K), and words alone cannot tell them apart: every 10-K of a company
prints the same name, and the latest year a question names ("from FY2015 to FY2017") is the report's
year, which a bag of words weighs no more than the others. So the period is read as a structure here:
from the question, the years, quarter, dates and form it names; from the catalog row (title and
description written by parsers/describe.py), the form, the period end and the fiscal year and quarter it
covers. Fiscal quarters come from the company's fiscal year end, read off its annual reports in the
same catalog (a 10-Q for the quarter ended December 31, 2022 of a company whose year ends in June is
its second quarter of fiscal 2023). Pure functions over strings; no constant here was read off a
question set.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from query.names import LEGAL_WORDS

_MONTHS = "january february march april may june july august september october november december".split()
_MONTH = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_ORD = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_YEAR = r"((?:19|20)\d\d)"
# Dates written out: "May 26, 2023", "1st July 2022", "30 June 2023".
_DATE_MDY = re.compile(_MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\s*,?\s+" + _YEAR + r"\b", re.I)
_DATE_DMY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"\s*,?\s+" + _YEAR + r"\b", re.I)
# Quarters with their year, in every order questions and headlines write them: "Q2 2023", "Q2'2023",
# "Q22023", "2021 Q1", "FY2023Q1", "Q2 of FY2024", "second fiscal quarter of 2023", "2023 Second-Quarter",
# "4Q 2023", "Fourth Quarter Fiscal 2022", "fourth quarter and full year 2022".
_Q = r"(?:q([1-4])|([1-4])q|(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal[\s-]+)?quarter)"
_Q_THEN_YEAR = re.compile(r"\b" + _Q + r"[\s'’,-]*(?:of\s+)?(?:(?:the\s+)?(?:fiscal|fy)(?:\s+year)?[\s'’-]*)?(?:and\s+full[\s-]+year\s+)?"
                          + r"(?:(?:19|20)?(\d\d)\b|" + _YEAR + r")", re.I)
_Q_GLUED = re.compile(r"\bq([1-4])((?:19|20)\d\d)\b", re.I)
_YEAR_THEN_Q = re.compile(r"\b(?:fy\s*)?" + _YEAR + r"[\s'’-]*" + _Q, re.I)
_QUARTER = re.compile(r"\b" + _Q + r"(?![\w])", re.I)
_HALF = re.compile(r"\b(?:h1|first[\s-]+half|six\s+months)\b", re.I)
_NINE = re.compile(r"\bnine\s+months\b", re.I)
_FULL_YEAR = re.compile(r"\b(?:full[\s-]+year|fiscal\s+(?:year\s+)?" + _YEAR + r"\s+results|annual\s+results)", re.I)
# Years: "FY2022", "FY 2022", "fiscal 2022", "fiscal year 2022", "2022", and two-digit "FY22", "FY'22".
_FY_SHORT = re.compile(r"\bfy\s*['’]?(\d\d)\b", re.I)
_YEARS = re.compile(r"(?<![\d.,$])(?:fy\s*)?" + _YEAR + r"(?!\d|[,.]\d)", re.I)
_FORMS = (("annual", re.compile(r"\b(?:10-?k|20-?f|40-?f|annual\s+report)\b", re.I)),
          ("quarter", re.compile(r"\b(?:10-?q|quarterly\s+report)\b", re.I)),
          ("event", re.compile(r"\b(?:8-?k|6-?k|current\s+report)\b", re.I)))
# What parsers/describe.py writes for a filing: "Form 10-K for the fiscal year ended December 31, 2018",
# "Form 10-Q for the quarter ended July 29, 2023", "Form 8-K for the report dated May 30, 2023".
_FORM_OF_DOC = re.compile(r"\bform\s+(10-k\w*|10-q\w*|8-k|20-f|40-f|6-k)\b", re.I)
_ENDED = re.compile(r"(fiscal\s+year|quarter|transition\s+period)\s+ended\s+" + _MONTH + r"\s+(\d{1,2})\s*,?\s*" + _YEAR, re.I)
_DATED = re.compile(r"report\s+dated\s+" + _MONTH + r"\s+(\d{1,2})\s*,?\s*" + _YEAR, re.I)
# The kind of document a question asks for, beyond its period. An earnings or press release, when named, or when
# the question wants what a company gives with its results and not in its filings: guidance, an outlook,
# "adjusted" (non-GAAP) measures.
_RELEASE_ASKED = re.compile(r"\b(?:(?:earnings|press|news)\s+releases?|earnings\s+(?:report|announcement|call)s?|"
                            r"guidance|outlook|non[\s-]?gaap|adjusted)\b", re.I)
# A question about what is expected is answered by the report that gave the expectation: for a year, the report of
# the year before (its outlook) as well as that year's.
_FORWARD = re.compile(r"\b(?:expect(?:s|ed|ing|ations?)?|guid(?:e|es|ance)|outlook|forecast(?:s|ed|ing)?)\b", re.I)
# What parsers/describe.py writes: "Report: earnings release", "Report: current report with a press release".
_RELEASE_ROW = re.compile(r"\bReport:\s*[^.]*\b(?:earnings|press)\s+release\b")
_COMPANY = re.compile(r"Company:\s*([^.]+(?:\.(?! )[^.]*)*)")
_LEGAL = re.compile(r"\b(?:" + "|".join(sorted(LEGAL_WORDS)) + r")\b")
RELEASE_HEAD = 400  # characters of a release's description that hold its headline and lead

ANNUAL, QUARTER, EVENT = "annual", "quarter", "event"


def _month(name: str) -> int:
    name = name.lower().rstrip(".")
    return next(i for i, m in enumerate(_MONTHS, start=1) if m.startswith(name[:3]))


def _date(year: str, month: str, day: str) -> dt.date | None:
    try:
        return dt.date(int(year), _month(month), int(day))
    except ValueError:
        return None


def _quarter(groups: tuple[str | None, ...]) -> int:
    a, b, word = groups[:3]
    return int(a or b) if (a or b) else _ORD[word.lower()]


def _full_year(two: str | None, four: str | None) -> int:
    return int(four) if four else 2000 + int(two or 0)


@dataclass(frozen=True)
class Asked:
    """The period a question names: years, a quarter (with its year when written together), dates, a form."""

    years: frozenset[int] = frozenset()
    quarter: int | None = None
    quarter_year: int | None = None
    dates: tuple[dt.date, ...] = ()
    form: str | None = None
    release: bool = False   # asks for an earnings or press release
    forward: bool = False   # asks what was expected (guidance, an outlook, a forecast)

    @property
    def target_year(self) -> int | None:
        """The year asked about: a report covers its own year and compares earlier ones, so the latest named."""
        if self.quarter_year:
            return self.quarter_year
        return max(self.years) if self.years else None


def asked(question: str) -> Asked:
    """The years, quarter, dates and form a question names (all optional)."""
    dates = [d for m in _DATE_MDY.finditer(question) if (d := _date(m.group(3), m.group(1), m.group(2)))]
    dates += [d for m in _DATE_DMY.finditer(question) if (d := _date(m.group(3), m.group(2), m.group(1)))]
    years = {int(y) for y in _YEARS.findall(question)} | {2000 + int(y) for y in _FY_SHORT.findall(question)}
    quarter = quarter_year = None
    pairs = [(_quarter(m.groups()), _full_year(m.group(4), m.group(5))) for m in _Q_THEN_YEAR.finditer(question)]
    pairs += [(int(m.group(1)), int(m.group(2))) for m in _Q_GLUED.finditer(question)]
    pairs += [(_quarter(m.groups()[1:]), int(m.group(1))) for m in _YEAR_THEN_Q.finditer(question)]
    if pairs:
        quarter, quarter_year = max(pairs, key=lambda p: (p[1], p[0]))
        years |= {y for _, y in pairs}
    elif (q := _QUARTER.search(question)):
        quarter = _quarter(q.groups())
    elif _HALF.search(question):
        quarter = 2
    elif _NINE.search(question):
        quarter = 3
    form = next((kind for kind, rx in _FORMS if rx.search(question)), None)
    years |= {d.year for d in dates}
    return Asked(frozenset(years), quarter, quarter_year, tuple(dates), form,
                 release=bool(_RELEASE_ASKED.search(question)), forward=bool(_FORWARD.search(question)))


def _rounded_month(day: dt.date) -> tuple[int, int]:
    """(year, month) a period ending on ``day`` is named by: 52/53-week periods end a few days either side of
    a month's end (July 2 closes June's quarter, January 28 closes January's year)."""
    if day.day <= 15:
        prev = day.replace(day=1) - dt.timedelta(days=1)
        return prev.year, prev.month
    return day.year, day.month


@dataclass
class Covered:
    """What a catalog entry covers: the kind of report, its period end, the fiscal years and quarter it is named by."""

    kind: str | None = None          # "annual" | "quarter" | "event" | None (unknown)
    end: dt.date | None = None       # period end, or the report date of an event
    years: dict[int, float] = field(default_factory=dict)   # fiscal year label -> how surely it names this report
    quarter: int | None = None       # fiscal quarter (4 for an annual report)
    company: str = ""                # a key for the issuer ("" unknown): fiscal year ends are shared per company
    release: bool = False            # an earnings or press release (or a current report that furnishes one)


_PERIOD_CLAUSE = re.compile(r"\bform\s+\S+\s+for\s+the\s+.*$", re.I)
# A release's headline: "Globex Reports Fourth Quarter and Full Year 2022 Results" names Globex, then the news.
_HEADLINE_CLAUSE = re.compile(r"\s+(?:reports?|announces?|posts?|delivers?|provides?)\b.*$", re.I)


def without_period(title: str) -> str:
    """A filing's title without its form and period ("3M COMPANY Form 10-K for the fiscal year ended …" -> "3M
    COMPANY"), a release's headline without its news ("Globex Reports Fourth Quarter … Results" -> "Globex"): the
    period is matched by ``fit``, and the name field should hold names only (a long one would dilute them)."""
    return _HEADLINE_CLAUSE.sub("", _PERIOD_CLAUSE.sub("", title or "")).strip()


def company_key(description: str) -> str:
    """The issuer as a key ("PepsiCo, Inc." and "PEPSICO INC" meet): letters and digits of its name, legal words dropped."""
    m = _COMPANY.search(description or "")
    if not m:
        return ""
    return " ".join(_LEGAL.sub(" ", re.sub(r"[^\w&]+", " ", m.group(1).lower())).split())


def covered(title: str, description: str) -> Covered:
    """The report a catalog row describes, read from its title and description (parsers/describe.py)."""
    text = f"{title or ''}. {description or ''}"
    cov = Covered(company=company_key(description))
    form = _FORM_OF_DOC.search(text)
    # Rows described before "Report:" existed: a company named without an SEC form is a release.
    cov.release = bool(_RELEASE_ROW.search(text)) or (form is None and bool(cov.company))
    ended, dated = _ENDED.search(text), _DATED.search(text)
    if form and (ended or dated):
        name = form.group(1).upper()
        if dated:
            cov.kind, cov.end = EVENT, _date(dated.group(3), dated.group(1), dated.group(2))
        else:
            cov.end = _date(ended.group(4), ended.group(2), ended.group(3))
            cov.kind = QUARTER if name.startswith("10-Q") or "quarter" in ended.group(1).lower() else ANNUAL
        if cov.end is None:
            cov.kind = None
        elif cov.kind == EVENT:
            cov.years = {cov.end.year: 1.0}
        elif cov.kind == ANNUAL:
            year, month = _rounded_month(cov.end)
            cov.quarter, cov.years = 4, {year: 1.0}
            if month == 1:  # a year ending in January is called by the year it ends in or the one it mostly covers
                cov.years[year - 1] = 1.0
        return cov
    return _release(text[: len(title or "") + 2 + RELEASE_HEAD], cov)


def _release(head: str, cov: Covered) -> Covered:
    """An earnings release: its headline and lead name the quarter and year ("Fourth Quarter and Full Year 2022")."""
    pairs = [(_quarter(m.groups()), _full_year(m.group(4), m.group(5))) for m in _Q_THEN_YEAR.finditer(head)]
    pairs += [(_quarter(m.groups()[1:]), int(m.group(1))) for m in _YEAR_THEN_Q.finditer(head)]
    full = _FULL_YEAR.search(head)
    if pairs:
        quarter, year = pairs[0]
        cov.kind, cov.quarter, cov.years = (ANNUAL if quarter == 4 else QUARTER), quarter, {year: 1.0}
    elif full and full.group(1):
        cov.kind, cov.quarter, cov.years = ANNUAL, 4, {int(full.group(1)): 1.0}
    return cov


def fiscal_year_ends(entries: list[Covered]) -> dict[str, int]:
    """company key -> the month its fiscal year ends, from the annual reports among ``entries``."""
    out: dict[str, int] = {}
    for cov in entries:
        if cov.kind == ANNUAL and cov.end and cov.company:
            out.setdefault(cov.company, _rounded_month(cov.end)[1])
    return out


def place_quarters(entries: list[Covered]) -> None:
    """Give each quarterly report its fiscal quarter and year: from its company's fiscal year end when an
    annual report of that company is in the catalog, else as calendar quarters (a year ending in December)."""
    ends = fiscal_year_ends(entries)
    for cov in entries:
        if cov.kind != QUARTER or cov.end is None:
            continue
        year, month = _rounded_month(cov.end)
        fy_end = ends.get(cov.company, 12)
        cov.quarter = (month - fy_end - 1) % 12 // 3 + 1
        fiscal = year if month <= fy_end else year + 1
        # Without the company's year end the fiscal year may be the next calendar year's.
        cov.years = {fiscal: 1.0} if cov.company in ends else {year: 1.0, year + 1: 0.7}


def latest_years(entries: list[Covered]) -> dict[str, int]:
    """company key -> the latest fiscal year among its reports in the catalog."""
    out: dict[str, int] = {}
    for cov in entries:
        if cov.company and cov.years:
            out[cov.company] = max(out.get(cov.company, 0), max(cov.years))
    return out


# How well each kind of report answers each kind of question (the reader's habit: an annual report for a
# year, a quarterly report or release for a quarter, a current report for an event on a date).
KIND_FIT = {
    None: {ANNUAL: 1.0, QUARTER: 0.6, EVENT: 0.5, None: 0.5},        # no period kind named
    QUARTER: {QUARTER: 1.0, ANNUAL: 0.4, EVENT: 0.3, None: 0.5},    # a first to third quarter, a half year, a 10-Q
    ANNUAL: {ANNUAL: 1.0, QUARTER: 0.4, EVENT: 0.3, None: 0.5},     # a fourth quarter, a 10-K
    EVENT: {EVENT: 1.0, ANNUAL: 0.4, QUARTER: 0.4, None: 0.5},      # an 8-K, a date
}
# A report of year Y covers Y and compares Y-1 and Y-2; a report of Y-1 gives the outlook for Y.
YEAR_FIT = {0: 1.0, 1: 0.6, 2: 0.5, -1: 0.5}
# What was expected for Y was said by the report of Y-1 (its outlook) as much as by Y's own.
FORWARD_YEAR_FIT = {0: 1.0, -1: 1.0, 1: 0.6, 2: 0.5}
RELEASE_MISS = 0.7    # a release asked for: the share any other report keeps (selection weights, cross-validated)
OTHER_YEAR = 0.8      # a named year other than the latest
UNKNOWN_YEAR = 0.75   # a report whose year could not be read, or no year to compare with
RECENCY_STEP, RECENCY_FLOOR = 0.2, 0.4  # no year named: each year older than the company's latest report


def fit(q: Asked, cov: Covered, latest: int | None = None, *, release_miss: float | None = None) -> float:
    """How well a report fits the period and the kind of document a question asks about, in [0, 1]. ``latest`` is
    the latest fiscal year among the reports of the company the question names: with no year named, the question
    asks about now. ``release_miss`` (default RELEASE_MISS): the share a report keeps when a release is asked and it
    is none."""
    kind_of_doc = 1.0 if cov.release or not q.release else (RELEASE_MISS if release_miss is None else release_miss)
    return kind_of_doc * _period_fit(q, cov, latest)


def _period_fit(q: Asked, cov: Covered, latest: int | None) -> float:
    if q.dates and cov.kind == EVENT and cov.end:
        days = min(abs((d - cov.end).days) for d in q.dates)
        return 1.0 if days <= 7 else 0.6 if days <= 31 else 0.2
    wanted = q.form or (QUARTER if q.quarter in (1, 2, 3) else ANNUAL if q.quarter == 4 else EVENT if q.dates else None)
    kind = KIND_FIT[wanted][cov.kind]
    if wanted is None and q.forward and not q.years and cov.kind in (ANNUAL, QUARTER):
        kind = 1.0  # an expectation "now" is in the latest report, whichever kind it is
    if wanted == QUARTER and cov.kind == QUARTER and q.quarter and cov.quarter and q.quarter != cov.quarter:
        kind *= 0.6
    if not cov.years:
        return kind * UNKNOWN_YEAR
    if not q.years:
        if latest is None:
            return kind * UNKNOWN_YEAR
        # No year named: the question asks about now, so the company's latest report fits best.
        return kind * max(RECENCY_FLOOR, 1.0 - RECENCY_STEP * (latest - max(cov.years)))
    target = q.target_year
    years_fit = FORWARD_YEAR_FIT if q.forward else YEAR_FIT
    # The latest year named is the report's; an earlier one named beside it is a comparison (or a later one
    # a forecast: "as of FY2021, what will it pay in 2024"), which that year's report also answers, a little less surely.
    return kind * max(w * years_fit.get(y - named, 0.0) * (1.0 if named == target else OTHER_YEAR)
                      for y, w in cov.years.items() for named in q.years)


def time_token(token: str) -> bool:
    """A query token that only names a period ("2018", "fy2018", "fy", "q2", "10", "k"): the period fit reads
    those, so they are left out of the word match (where every filing of a year would share them)."""
    return bool(re.fullmatch(r"(?:fy|q[1-4]|[1-4]q|h[12])?\d*|fy|k|q", token))
