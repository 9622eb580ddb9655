"""Ad-hoc statistics endpoints: repetitions, instances, percentiles, laws, saturation, breakdown."""

from fastapi import APIRouter

from backend.analysis.breakdown import breakdown
from backend.analysis.comparison import relative_differences
from backend.analysis.laws import interactive_check, little_check, utilization
from backend.analysis.percentiles import (
    make_histogram,
    merge,
    percentiles_from_histogram,
    percentiles_from_samples,
    rebin,
)
from backend.analysis.plain import plain
from backend.analysis.saturation import Series, saturation
from backend.results.aggregate import combine_instance_means, confidence_interval, summarize
from backend.schemas import analysis as s
from backend.schemas.problems import analysis_errors
from backend.schemas.respond import respond

router = APIRouter()


@router.post("/statistics/repetitions", response_model=s.RepetitionsPublic)
def summarize_repetitions(body: s.RepetitionsRequest) -> s.RepetitionsPublic:
    """Mean, standard deviation and t confidence interval over repetitions."""
    with analysis_errors():
        summary = summarize(body.values)
        ci = confidence_interval(body.values, body.confidence) if body.confidence else None
    return s.RepetitionsPublic.model_validate({**plain(summary), "ci": plain(ci)})


@router.post("/statistics/instances", response_model=s.InstancesPublic)
def combine_instances(body: s.InstancesRequest) -> s.InstancesPublic:
    """Combine unaligned client instances (sum X, weighted R, root-sum-square stds)."""
    with analysis_errors():
        x, x_std, r, r_std = combine_instance_means(
            body.throughput_means_per_s,
            body.throughput_stds_per_s,
            body.response_means_us,
            body.response_stds_us,
        )
    return respond(
        s.InstancesPublic,
        {
            "throughput_per_s": x,
            "throughput_std_per_s": x_std,
            "response_time_us": r,
            "response_time_std_us": r_std,
        },
    )


@router.post("/percentiles/histogram", response_model=s.HistogramPublic)
def histogram_percentiles(body: s.HistogramRequest) -> s.HistogramPublic:
    """Merge histograms (re-binning if layouts differ), optionally re-bin, read percentiles."""
    with analysis_errors():
        hist = merge(
            [make_histogram(h.upper_bounds_us, h.counts, h.overflow) for h in body.histograms]
        )
        if body.rebin_upper_bounds_us:
            hist = rebin(hist, body.rebin_upper_bounds_us)
        pct = percentiles_from_histogram(hist, body.percentiles)
    return respond(s.HistogramPublic, hist, total=hist.total, percentiles=plain(pct))


@router.post("/percentiles/samples", response_model=s.SamplesPublic)
def sample_percentiles(body: s.SamplesRequest) -> s.SamplesPublic:
    """Percentiles of raw samples by the one rule: the sample at rank round(q/100 x n)."""
    with analysis_errors():
        values = percentiles_from_samples(body.samples_us, body.percentiles)
    return respond(s.SamplesPublic, {"percentiles": body.percentiles, "values_us": values})


@router.post("/laws/interactive", response_model=s.InteractivePublic)
def check_interactive_law(body: s.InteractiveRequest) -> s.InteractivePublic:
    """Interactive response time law: expected X = N / (R + Z) against measured X."""
    with analysis_errors():
        res = interactive_check(
            body.clients, body.response_time_s, body.think_time_s, body.measured_throughput_per_s
        )
    return respond(s.InteractivePublic, res)


@router.post("/laws/little", response_model=s.LittlePublic)
def check_little_law(body: s.LittleRequest) -> s.LittlePublic:
    """Little's law: measured length against throughput x time."""
    with analysis_errors():
        res = little_check(body.measured_length, body.throughput_per_s, body.time_s)
    return respond(s.LittlePublic, res)


@router.post("/laws/utilization", response_model=s.UtilizationPublic)
def utilization_law(body: s.UtilizationRequest) -> s.UtilizationPublic:
    """Utilization law U = X S / m."""
    with analysis_errors():
        u = utilization(body.throughput_per_s, body.service_time_s, body.servers)
    return s.UtilizationPublic(utilization=u)


@router.post("/saturation", response_model=s.SaturationPublic)
def find_saturation(body: s.SaturationRequest) -> s.SaturationPublic:
    """Knee per series and the cheapest configuration near the maximum throughput."""
    series = [
        Series(x.label, x.resource, tuple(x.loads), tuple(x.throughputs_per_s)) for x in body.series
    ]
    with analysis_errors():
        res = saturation(series, body.fraction)
    return respond(s.SaturationPublic, res)


@router.post("/breakdown", response_model=s.BreakdownPublic)
def split_response_time(body: s.BreakdownRequest) -> s.BreakdownPublic:
    """Queue, server, processing and network parts of the client response time."""
    with analysis_errors():
        res = breakdown(
            body.client_response_us,
            body.middleware_response_us,
            body.queue_us,
            body.server_us,
            body.round_trip_us,
        )
    return respond(s.BreakdownPublic, res)


@router.post("/relative-differences", response_model=s.RelativePublic)
def compare_to_base(body: s.RelativeRequest) -> s.RelativePublic:
    """100 (y - x) / x for every case against the base case."""
    with analysis_errors():
        rows = relative_differences(body.values, body.base)
    return respond(s.RelativePublic, {"rows": rows})
