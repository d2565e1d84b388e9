"""The filing profile: the financial statements a question names or implies, and headings that hold them.

Applied only to documents indexed as ``doc_kind == "filing"`` (parsers/describe.py; query/lexical.py
checks), never to manuals.

A question that says "using the cash flow statement" points at one section
whose title ("Consolidated Statements of Cash Flows") shares almost no words
with it, on a page that is mostly numbers. A reader goes straight there; this
module gives the lexical navigator that reflex. Titles are compared with
letters only, because extracted headings are often broken ("Balance Shee t").
"""

from __future__ import annotations

import re

# kind -> (how a question names it, how a heading spells it once reduced to letters)
STATEMENTS: dict[str, tuple[re.Pattern[str], tuple[str, ...]]] = {
    "balance_sheet": (
        re.compile(r"balance sheets?|statements? of (?:consolidated )?financial (?:position|condition)"),
        ("balancesheet", "statementoffinancialposition", "statementsoffinancialposition",
         "statementofcondition", "statementsofcondition", "statementsofconsolidatedfinancialposition"),
    ),
    "cash_flow": (
        re.compile(r"cash ?flows? statements?|statements? of (?:consolidated )?cash ?flows?"),
        ("statementofcashflow", "statementsofcashflow", "cashflowstatement", "statementofconsolidatedcashflow",
         "statementsofconsolidatedcashflow"),
    ),
    "income": (
        re.compile(r"income statements?|statements? of (?:consolidated )?(?:comprehensive )?(?:income|operations|earnings)"
                   r"|p&l|profit (?:and|&) loss"),
        ("statementofincome", "statementsofincome", "statementofoperations", "statementsofoperations",
         "statementofearnings", "statementsofearnings", "incomestatement", "statementofconsolidatedincome",
         "statementsofconsolidatedincome", "statementofconsolidatedoperations", "statementsofconsolidatedoperations",
         "statementofconsolidatedearnings", "statementsofconsolidatedearnings", "profitandloss"),
    ),
}

# Line items each primary statement presents, and the ratios built from them, as a financial-accounting
# textbook lists them (not phrases picked from a question set): a question about one of them points at
# the statement that carries it even when it names no statement. A ratio built from two statements
# ("inventory turnover": cost of sales over inventory) implies both.
IMPLIED: dict[str, re.Pattern[str]] = {
    "income": re.compile(r"\b(?:revenues?|net sales|cost of (?:goods sold|sales|revenues?)|gross (?:profit|margin)"
                         r"|operating (?:income|profit|expenses?|margin)|ebitda?|net (?:income|earnings|profit|margin)"
                         r"|earnings per share|eps|interest expense|income tax(?:es)? expense|effective tax rate"
                         r"|inventory turnover|days (?:sales|inventory|payables?) outstanding|interest coverage"
                         r"|return on (?:assets|equity))\b"),
    "balance_sheet": re.compile(r"\b(?:total assets|total liabilities|current assets|current liabilities|working capital"
                                r"|current ratio|quick ratio|cash ratio|debt[- ]to[- ](?:equity|assets)|inventor(?:y|ies)"
                                r"|accounts (?:receivable|payable)|property,? plant,? (?:and|&) equipment|pp&e"
                                r"|(?:share|stock)holders'? equity|long[- ]term debt|goodwill"
                                r"|inventory turnover|days (?:sales|inventory|payables?) outstanding"
                                r"|return on (?:assets|equity))\b"),
    "cash_flow": re.compile(r"\b(?:cash (?:flows? )?(?:from|provided by|used in) (?:operating|operations|investing|financing)"
                            r"|operating cash ?flows?|capital expenditures?|capex|purchases? of property"
                            r"|free cash ?flows?|dividends? paid|(?:share|stock) repurchases?|repurchases? of (?:common )?stock"
                            r"|depreciation and amortization)\b"),
}

_NON_LETTERS = re.compile(r"[^a-z]+")


def asked_statements(question: str) -> set[str]:
    """Statement kinds the question names ("balance sheet", "P&L", "statement of cash flows", ...)."""
    q = question.lower()
    return {kind for kind, (asked, _) in STATEMENTS.items() if asked.search(q)}


def implied_statements(question: str) -> set[str]:
    """Statement kinds the metrics in a question are read from ("gross margin" -> income statement)."""
    q = question.lower()
    return {kind for kind, rx in IMPLIED.items() if rx.search(q)}


def statement_kinds(heading: str) -> set[str]:
    """Statement kinds a heading is the title of; none for an index page that lists several."""
    letters = _NON_LETTERS.sub("", heading.lower())
    kinds = {kind for kind, (_, spelled) in STATEMENTS.items() if any(s in letters for s in spelled)}
    return kinds if len(kinds) == 1 else set()
