"""Response-time percentiles of every configuration of a stored experiment (for plots vs a factor).

Each configuration's histograms (all repetitions and matching sources) are merged first, as
/histogram does for one configuration; this answers the whole grid in one query.
"""

from fastapi import APIRouter

from backend.analysis.percentiles import merge, percentiles_from_histogram
from backend.analysis.plain import plain
from backend.api.deps import SessionDep
from backend.api.routes.analysis.common import analysis_errors, parse_percentiles, respond
from backend.api.routes.analysis.experiments import EXP, load_configs
from backend.crud.analysis import read_histograms_by_configuration
from backend.models import HistogramMetric, RequestType
from backend.schemas import analysis as s

router = APIRouter()


@router.get(EXP + "/percentiles", response_model=s.ExperimentPercentilesPublic)
def read_experiment_percentiles(
    session: SessionDep,
    experiment_id: int,
    metric: HistogramMetric = HistogramMetric.CLIENT,
    source: s.SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
    percentiles: str = "50,90,99",
) -> s.ExperimentPercentilesPublic:
    """Percentiles per configuration from its merged histograms; none where none is stored."""
    configs = load_configs(session, experiment_id)
    qs = parse_percentiles(percentiles)
    hists = read_histograms_by_configuration(
        session=session,
        experiment_id=experiment_id,
        source=source,
        request_type=request_type,
        metric=metric,
    )
    rows = []
    with analysis_errors("query"):
        for c in configs:
            merged = merge(hists[c.id]) if c.id in hists else None
            # An all-zero histogram has no percentiles either: shown as a gap, not an error.
            pct = percentiles_from_histogram(merged, qs) if merged and merged.total > 0 else []
            rows.append(
                {
                    "configuration_id": c.id,
                    "index": c.index,
                    "values": c.values,
                    "total": merged.total if merged else 0.0,
                    "percentiles": plain(pct),
                }
            )
    return respond(
        s.ExperimentPercentilesPublic,
        {"metric": metric.value, "source": source, "percentiles": list(qs), "data": rows},
    )
