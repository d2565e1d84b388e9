"""Where a reader of a filing looks: the financial statements a question names, and headings that hold them.

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

# Metrics an analyst reads off one statement even when the question does not name it.
IMPLIED: dict[str, re.Pattern[str]] = {
    "income": re.compile(r"gross (?:profit )?margin|operating (?:profit )?margin|net (?:profit |income )?margin"
                         r"|operating income|ebitda|cost of (?:goods|sales|revenue)|earnings per share"),
    "balance_sheet": re.compile(r"working capital|quick ratio|current ratio|debt[- ]to[- ]equity|total assets"
                                r"|pp&?e\b|ppne|property,? plant|inventory turnover|days (?:payable|sales|inventory)"),
    "cash_flow": re.compile(r"capital expenditure|capex|free cash ?flow|dividends? paid|cash (?:flow )?from operations"
                            r"|operating cash ?flow|capital[- ]intensive"),
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
