"""Catalog selection by period and by short names (query/periods.py, query/names.py): pure functions on strings."""

from __future__ import annotations

import datetime as dt

from query.names import mend_small_caps, short_forms
from query.periods import ANNUAL, EVENT, QUARTER, asked, covered, fit, place_quarters, time_token, without_period


def test_questions_name_years_quarters_dates_and_forms_in_many_spellings():
    assert asked("What is the FY2018 capex for 3M?").years == {2018}
    assert asked("Did Pfizer grow its PPNE between FY20 and FY21?").target_year == 2021
    assert asked("the FY2015 - FY2017 3 year average").target_year == 2017  # the report's year is the latest named
    assert asked("As of FY 2021, how much will it pay for retirees in 2024?").years == {2021, 2024}
    for text, quarter, year in [("during Q2 of FY2024", 2, 2024), ("in 2021 Q1", 1, 2021), ("in Q22023", 2, 2023),
                                ("As of Q2'2023, is it", 2, 2023), ("As of FY2023Q1, why", 1, 2023),
                                ("in the second fiscal quarter of 2023", 2, 2023)]:
        a = asked(text)
        assert (a.quarter, a.target_year) == (quarter, year), text
    assert asked("short term investments in H1 FY2023").quarter == 2
    assert asked("on May 26, 2023, what").dates == (dt.date(2023, 5, 26),)
    assert asked("the 8k filing dated 1st July 2022").dates == (dt.date(2022, 7, 1),)
    assert asked("the 8k filing dated 1st July 2022").form == EVENT
    assert asked("mentioned in this 10K report").form == ANNUAL
    assert asked("What industry does it operate in?") == asked("")  # nothing named: nothing read
    assert asked("revenue of $2,021 million and 2019.5 units").years == frozenset()  # amounts are no years


def test_catalog_titles_give_form_period_and_fiscal_quarter():
    k = covered("GLOBEX CORPORATION Form 10-K for the fiscal year ended June 30, 2023", "Company: GLOBEX CORPORATION.")
    q = covered("GLOBEX CORPORATION Form 10-Q for the quarter ended December 31, 2022", "Company: Globex Corp.")
    e = covered("Globex Corporation Form 8-K for the report dated May 3, 2023", "Company: Globex Corporation.")
    r = covered("Globex Reports Fourth Quarter and Full Year 2022 Results", "Company: Globex Corporation. Trading symbols: GBX.")
    place_quarters([k, q, e, r])
    assert (k.kind, k.years, k.quarter) == (ANNUAL, {2023: 1.0}, 4)
    # The company's year ends in June (its 10-K says so): December closes the second quarter of fiscal 2023.
    assert (q.kind, q.quarter, q.years) == (QUARTER, 2, {2023: 1.0})
    assert (e.kind, e.end) == (EVENT, dt.date(2023, 5, 3))
    assert (r.kind, r.quarter, r.years) == (ANNUAL, 4, {2022: 1.0})
    alone = covered("INITECH INC Form 10-Q for the quarter ended July 2, 2023", "Company: INITECH INC.")
    place_quarters([alone])  # no annual report of the company: calendar quarters; July 2 closes June's quarter
    assert alone.quarter == 2 and alone.years[2023] == 1.0
    retail = covered("WIDGETMART INC. Form 10-K for the fiscal year ended January 31, 2020", "")
    assert set(retail.years) == {2019, 2020}  # a year ending in January goes by either name
    assert without_period("3M COMPANY Form 10-K for the fiscal year ended December 31, 2018") == "3M COMPANY"


def test_the_report_of_the_period_asked_fits_best():
    k22 = covered("X Form 10-K for the fiscal year ended December 31, 2022", "Company: X Corp.")
    k20 = covered("X Form 10-K for the fiscal year ended December 31, 2020", "Company: X Corp.")
    q23 = covered("X Form 10-Q for the quarter ended June 30, 2023", "Company: X Corp.")
    e23 = covered("X Form 8-K for the report dated May 26, 2023", "Company: X Corp.")
    place_quarters([k22, k20, q23, e23])
    years = asked("How did revenue change from FY2020 to FY2022?")
    assert fit(years, k22) > fit(years, k20) > fit(years, q23)
    quarter = asked("Which segment led in Q2 2023?")
    assert fit(quarter, q23) > max(fit(quarter, k22), fit(quarter, e23))
    dated = asked("As of May 26, 2023, how much may it borrow?")
    assert fit(dated, e23) > max(fit(dated, k22), fit(dated, q23))
    now = asked("Is the business cyclical?")  # no period named: the latest report
    assert fit(now, k22, latest=2023) > fit(now, k20, latest=2023)
    assert fit(asked("What production rate is forecast for FY2023?"), k22) > fit(asked("… for FY2023?"), k20)


def test_period_words_are_left_to_the_period_fit():
    assert all(time_token(t) for t in ("2018", "fy2018", "fy", "q2", "10", "k"))
    assert not any(time_token(t) for t in ("3m", "revenue", "jnj"))


def test_short_forms_come_from_the_printed_name_by_general_rules():
    assert {"jnj", "jj"} <= set(short_forms("JOHNSON & JOHNSON"))
    assert "amd" in short_forms("ADVANCED MICRO DEVICES, INC.")
    assert short_forms("Foot Locker, Inc.") == ["footlocker"]
    assert short_forms("3M COMPANY") == [] and short_forms("The Boeing Company") == []
    assert mend_small_caps("MGM R ESORTS I NTERNATIONAL") == "MGM RESORTS INTERNATIONAL"
    assert mend_small_caps("Acme A Division") == "Acme A Division"  # only all-capitals names are mended


def test_questions_say_when_they_ask_for_a_release_or_an_expectation():
    assert asked("What was the adjusted EPS in FY2022?").release
    assert asked("What did the earnings release say about margins?").release
    assert asked("Why did it raise full year guidance?").release and asked("Why did it raise guidance?").forward
    assert not asked("What is the FY2022 unadjusted EBITDA margin?").release  # computed from the statements
    assert not asked("What was the FY2022 operating income?").release
    assert asked("Is EPS growth expected to accelerate in FY2023?").forward
    assert not asked("Did EPS grow in FY2023?").forward


def test_a_release_fits_a_question_that_asks_for_one():
    k22 = covered("X Form 10-K for the fiscal year ended December 31, 2022", "Company: X Corp. Report: annual report")
    r22 = covered("X Reports Fourth Quarter and Full Year 2022 Results",
                  "X Reports Fourth Quarter and Full Year 2022 Results. Company: X Corp. Report: earnings release")
    old = covered("X Reports Fourth Quarter and Full Year 2022 Results", "Company: X Corp. Trading symbols: X.")
    r23 = covered("X Reports Second Quarter 2023 Results", "Company: X Corp. Report: earnings release")
    e23 = covered("X Form 8-K for the report dated May 3, 2023", "Company: X Corp. Report: current report")
    place_quarters([k22, r22, old, r23, e23])
    assert r22.release and old.release and r23.release and not k22.release and not e23.release
    adjusted = asked("What was X's adjusted EBITDA in FY2022?")
    assert fit(adjusted, r22) > fit(adjusted, k22)
    plain = asked("What was X's operating income in FY2022?")
    assert fit(plain, r22) == fit(plain, k22)  # nothing asks for a release: the period alone decides
    assert fit(adjusted, k22, release_miss=1.0) == fit(adjusted, r22)
    # Guidance for 2023 was given with the 2022 results, ahead of the 2023 quarter's update.
    expected = asked("Is X's adjusted EPS growth expected to accelerate in FY2023?")
    assert fit(expected, r22) > fit(expected, r23) and fit(expected, r22) > fit(expected, k22)


def test_an_expectation_with_no_year_is_read_in_the_latest_report_of_any_kind():
    k21 = covered("X Form 10-K for the fiscal year ended December 31, 2021", "Company: X Corp.")
    q23 = covered("X Form 10-Q for the quarter ended July 2, 2023", "Company: X Corp.")
    place_quarters([k21, q23])
    future = asked("How much does X expect to pay for the spin-off in the future?")
    assert fit(future, q23, latest=2023) > fit(future, k21, latest=2023)
    now = asked("Is X's business cyclical?")  # no expectation: the annual report still reads best
    assert fit(now, k21, latest=2023) >= fit(now, q23, latest=2023)


def test_a_release_headline_names_its_issuer_before_the_news():
    assert without_period("Globex Reports Fourth Quarter and Full Year 2022 Results") == "Globex"
    assert without_period("Amcor reports fiscal 2023 results and provides outlook") == "Amcor"
    assert without_period("APT User Guide") == "APT User Guide"
