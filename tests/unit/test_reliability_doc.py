"""docs/reliability.md's bad-input table is current: it matches the corpus (cases per class,
the cases passing, the lazily raised and the pending lists). The corpus test asserts every
non-pending case passes and every pending one fails, so the rendered counts are what
``python -m tests.parity.bad_input_report`` measures while the suite is green."""

from tests.parity.bad_input_report import DOC, expected_counts, generated_block, render


def test_bad_input_table_is_current() -> None:
    assert generated_block(DOC.read_text()) == render(expected_counts()), (
        "docs/reliability.md's bad-input table is stale: run "
        "`python -m tests.parity.bad_input_report`"
    )


def test_corpus_has_at_least_200_cases() -> None:
    assert sum(tried for tried, _ in expected_counts().values()) >= 200
