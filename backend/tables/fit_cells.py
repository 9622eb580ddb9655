"""How a model table shows the fit flags (backend.analysis.model_fit's verdicts): a short
word per row and, under the table, each flag's message (the report prints both)."""

from collections.abc import Iterable

from backend.figures.fit_marks import FitLike

_WORDS = {"fits": "fits", "off_model": "off the model", "beyond_bound": "beyond the bound"}


def fit_cell(fits: Iterable[FitLike | None]) -> str:
    """The strongest verdict of a row's fits, in words ("fits" when all fit)."""
    verdicts = {f.verdict for f in fits if f is not None}
    for verdict in ("beyond_bound", "off_model"):
        if verdict in verdicts:
            return _WORDS[verdict]
    return _WORDS["fits"] if verdicts else "–"


def fit_notes(fits: Iterable[FitLike | None]) -> list[str]:
    """One note per flagged fit: its message, which says the numbers and the tolerance."""
    return [f"Does not fit: {f.message}" for f in fits if f is not None and f.message]
