"""Quality rules on seeded per-second series: each defect is found, clean series pass."""

import numpy as np
import pytest

from backend.domain.middleware_memory import MiddlewareMemory
from backend.domain.quality import FlagCode
from backend.quality import drift, outliers, warmup
from backend.quality.check import run_flags
from backend.quality.evidence import STEAL_COLUMN, evidence_from_series
from backend.quality.model import Thresholds
from backend.results.aggregate import SourceSeries, Window

TH = Thresholds.from_settings()
LEVEL, CV, SECONDS = 10_000.0, 0.03, 60
WINDOW = Window(10, 70)  # 10 s warm-up, 60 s measured, 5 s cool-down of a 75 s run


def clean(rng: np.random.Generator, n: int = SECONDS) -> np.ndarray:
    return rng.normal(LEVEL, CV * LEVEL, n)


def codes(values: np.ndarray) -> set[FlagCode]:
    found = [drift.trend_flag(list(values), TH), drift.step_flag(list(values), TH)]
    found.append(warmup.warmup_flag(list(values), TH))
    return {f.code for f in found if f is not None}


def test_clean_series_raise_no_flag() -> None:
    rng = np.random.default_rng(1)
    for _ in range(50):
        assert codes(clean(rng)) == set()


def test_drift_is_a_trend_with_its_p_value() -> None:
    x = clean(np.random.default_rng(2)) * np.linspace(1.0, 0.8, SECONDS)  # -20 % over the window
    flag = drift.trend_flag(list(x), TH)
    assert flag is not None and flag.code is FlagCode.TREND
    assert flag.numbers["p_value"] < TH.alpha
    assert flag.numbers["relative_change"] == pytest.approx(-0.2, abs=0.05)


def test_step_is_found_where_it_is() -> None:
    x = clean(np.random.default_rng(3))
    x[35:] *= 0.75
    flag = drift.step_flag(list(x), TH)
    assert flag is not None and flag.code is FlagCode.STEP
    assert flag.numbers["at_s"] == pytest.approx(35, abs=1)
    assert flag.numbers["relative_change"] == pytest.approx(-0.25, abs=0.04)
    assert flag.numbers["p_value"] < TH.alpha


def test_late_warmup_is_flagged() -> None:
    x = clean(np.random.default_rng(4))
    x[:5] *= np.linspace(0.5, 0.8, 5)  # still ramping when the window opens
    flag = warmup.warmup_flag(list(x), TH)
    assert flag is not None and flag.code is FlagCode.WARMUP
    assert flag.numbers["relative_change"] < -TH.min_shift


def test_outlier_repetition_is_named_and_the_rest_are_not() -> None:
    reps = [(1, 10_050.0), (2, 9_900.0), (3, 7_000.0), (4, 10_120.0), (5, 9_980.0)]
    flags = outliers.outlier_flags("throughput_per_s", reps, TH)
    assert [f.run_id for f in flags] == [3]
    assert flags[0].numbers["modified_z"] < -TH.outlier_z
    assert "modified z-score" in flags[0].rule


def test_two_repetitions_name_no_outlier() -> None:
    assert outliers.outlier_flags("throughput_per_s", [(1, 10_000.0), (2, 5_000.0)], TH) == []


def _series(
    rng: np.random.Generator,
    *,
    client_tp: float = LEVEL,
    mw_tp: float | None = LEVEL,
    rt_us: float = 3_200.0,
    misses: float = 0.0,
    steal: float | None = None,
) -> list[SourceSeries]:
    n = WINDOW.end_s + 5
    out = [
        SourceSeries(
            "client:0",
            1_000.0,
            {
                "throughput": list(rng.normal(client_tp, CV * client_tp, n)),
                "response_time_us": [rt_us] * n,
                "keys_per_s": [client_tp] * n,
                "misses_per_s": [misses] * n,
            },
        )
    ]
    if mw_tp is not None:
        out.append(
            SourceSeries(
                "middleware:0",
                1_000.2,
                {"throughput": [mw_tp] * n, "response_time_us": [rt_us * 0.8] * n},
            )
        )
    if steal is not None:
        out.append(
            SourceSeries(
                "host:client-vm", 999.9, {"throughput": [0.0] * n, STEAL_COLUMN: [steal] * n}
            )
        )
    return out


def _flags(series: list[SourceSeries], **kw: object) -> set[FlagCode]:
    ev = evidence_from_series(series, WINDOW, clients=32, expects_no_misses=True, **kw)  # type: ignore[arg-type]
    return {f.code for f in run_flags(ev, TH).flags}


def test_clean_run_raises_no_flag_and_says_steal_is_not_measured() -> None:
    rng = np.random.default_rng(5)
    ev = evidence_from_series(
        _series(rng), WINDOW, clients=32, expects_no_misses=True, tool_errors={"middleware:0": 0}
    )
    quality = run_flags(ev, TH)
    assert quality.flags == []
    assert "not measured" in quality.not_measured[FlagCode.CPU_STEAL]


def test_client_and_middleware_disagreeing() -> None:
    flags = _flags(_series(np.random.default_rng(6), mw_tp=LEVEL * 0.8))
    assert flags == {FlagCode.THROUGHPUT_DISAGREEMENT}


def test_interactive_law_off() -> None:
    # N = 32 clients at 3.2 ms allow 10,000 ops/s; 2.0 ms would need 16,000.
    assert _flags(_series(np.random.default_rng(7), rt_us=2_000.0)) == {FlagCode.INTERACTIVE_LAW}


def test_misses_where_none_expected() -> None:
    assert _flags(_series(np.random.default_rng(8), misses=50.0)) == {FlagCode.UNEXPECTED_MISSES}
    ev = evidence_from_series(
        _series(np.random.default_rng(8), misses=50.0), WINDOW, clients=32, expects_no_misses=False
    )
    assert run_flags(ev, TH).flags == []


def test_tool_errors() -> None:
    flags = _flags(_series(np.random.default_rng(9)), tool_errors={"middleware:0": 3})
    assert flags == {FlagCode.TOOL_ERRORS}


def _memory(pauses: int = 0, deferred: int = 0, closes: int = 0) -> MiddlewareMemory:
    return MiddlewareMemory(
        max_buffered_bytes=64 << 20,
        memory_pauses=pauses,
        memory_deferred_replies=deferred,
        memory_closes=closes,
        body_timeout_closes=2,  # a slow set's close is not the cap
        buffered_bytes_max=1 << 20,
    )


@pytest.mark.parametrize(
    ("memory", "flagged"),
    [
        (_memory(), False),
        (_memory(pauses=1), True),
        (_memory(deferred=4), True),
        (_memory(closes=1), True),
    ],
)
def test_a_middleware_that_reached_its_memory_cap_is_flagged(
    memory: MiddlewareMemory, flagged: bool
) -> None:
    ev = evidence_from_series(
        _series(np.random.default_rng(11)),
        WINDOW,
        clients=32,
        expects_no_misses=True,
        memory={"middleware:0": memory},
    )
    flags = run_flags(ev, TH).flags
    assert {f.code for f in flags} == ({FlagCode.MEMORY_CAP} if flagged else set())
    if flagged:
        assert flags[0].numbers["middleware:0 max_buffered_bytes"] == 64 << 20
        assert "middleware:0" in flags[0].reason


def test_steal_read_from_the_host_series_when_present() -> None:
    assert _flags(_series(np.random.default_rng(10), steal=25.0)) == {FlagCode.CPU_STEAL}
    ev = evidence_from_series(
        _series(np.random.default_rng(10), steal=2.0), WINDOW, clients=32, expects_no_misses=True
    )
    quality = run_flags(ev, TH)
    assert quality.flags == [] and FlagCode.CPU_STEAL not in quality.not_measured


def test_short_window_says_what_it_could_not_test() -> None:
    ev = evidence_from_series(
        _series(np.random.default_rng(11)), Window(1, 4), clients=32, expects_no_misses=True
    )
    quality = run_flags(ev, TH)
    assert {FlagCode.TREND, FlagCode.STEP, FlagCode.WARMUP} <= set(quality.not_measured)


def _ar1(rng: np.random.Generator, n: int, phi: float) -> np.ndarray:
    """Unit-variance AR(1) noise: seconds of a real run are correlated with their neighbours."""
    e = rng.normal(0.0, 1.0, n)
    x = np.empty(n)
    x[0] = e[0] / np.sqrt(1 - phi**2)
    for i in range(1, n):
        x[i] = phi * x[i - 1] + e[i]
    scale: float = np.sqrt(1 - phi**2)
    return x * scale


@pytest.mark.parametrize(("phi", "cv", "most"), [(0.0, 0.03, 0.0), (0.5, 0.05, 0.05)])
def test_false_positive_rate_on_clean_seeded_series(phi: float, cv: float, most: float) -> None:
    """The README states these rates: 0 of 200 independent series at 3 % noise; correlated
    seconds (AR(1), phi 0.5) at 5 % noise flag a few percent (8 of these 200; 2.7 % of 1,000)."""
    rng = np.random.default_rng(2026)
    runs = 200
    flagged = sum(bool(codes(LEVEL * (1 + cv * _ar1(rng, SECONDS, phi)))) for _ in range(runs))
    print(f"false positives phi={phi} cv={cv}: {flagged}/{runs} = {flagged / runs:.1%}")
    assert flagged / runs <= most


def test_outlier_false_positive_rate_on_clean_repetitions() -> None:
    """3 and 5 repetitions at 3 % noise: about 0.5 % of configurations (README)."""
    rng = np.random.default_rng(2026)
    trials = 4_000
    for n in (3, 5):
        flagged = sum(
            bool(outliers.outlier_flags("throughput_per_s", list(enumerate(clean(rng, n))), TH))
            for _ in range(trials)
        )
        print(f"outlier false positives n={n}: {flagged}/{trials} = {flagged / trials:.2%}")
        assert flagged / trials < 0.01
