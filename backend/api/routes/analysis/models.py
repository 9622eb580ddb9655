"""Ad-hoc queueing-model and factorial endpoints: parameters in the body, results with units."""

from fastapi import APIRouter

from backend.analysis.factorial import factorial
from backend.analysis.mm1 import mm1
from backend.analysis.mmm import mmm
from backend.analysis.mva.bounds import bounds
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.multiclass import ClassSpec
from backend.analysis.mva.solve import solve_multiclass_by
from backend.analysis.mva.whatif import what_if
from backend.modelfit import service
from backend.schemas import analysis as s
from backend.schemas.problems import analysis_errors
from backend.schemas.respond import mva_public, respond, stations_of

router = APIRouter()


@router.post("/mm1", response_model=s.MM1Public)
def solve_mm1(body: s.MM1Request) -> s.MM1Public:
    """M/M/1 queue, all outputs of Jain Box 31.1."""
    with analysis_errors():
        res = mm1(body.arrival_rate_per_s, body.service_rate_per_s, body.percentiles)
    return respond(s.MM1Public, res)


@router.post("/mmm", response_model=s.MMmPublic)
def solve_mmm(body: s.MMmRequest) -> s.MMmPublic:
    """M/M/m queue (Jain Box 31.2), stable for hundreds of servers."""
    with analysis_errors():
        res = mmm(body.arrival_rate_per_s, body.service_rate_per_s, body.servers, body.percentiles)
    return respond(s.MMmPublic, res)


@router.post("/mva", response_model=s.MvaPublic)
def solve_mva_route(body: s.MvaRequest) -> s.MvaPublic:
    """Exact single-class MVA for populations 1..N, optionally with ABA/BJB bounds."""
    stations = stations_of(body.stations)
    with analysis_errors():
        res = solve_mva(stations, body.population, body.think_time_s)
        out = mva_public(res)
        if body.include_bounds:
            b = bounds(stations, body.population, body.think_time_s)
            out.bounds = respond(s.BoundsPublic, b)
    return out


@router.post("/mva/bounds", response_model=s.BoundsPublic)
def solve_bounds(body: s.MvaRequest) -> s.BoundsPublic:
    """Asymptotic and balanced job bounds."""
    with analysis_errors():
        res = bounds(stations_of(body.stations), body.population, body.think_time_s)
    return respond(s.BoundsPublic, res)


@router.post("/mva/multiclass", response_model=s.MultiClassPublic)
def solve_multiclass_route(body: s.MultiClassRequest) -> s.MultiClassPublic:
    """Multi-class MVA at the full population: exact, Bard-Schweitzer, or chosen by size."""
    classes = tuple(
        ClassSpec(c.name, c.population, c.think_time_s, tuple(c.demands_s)) for c in body.classes
    )
    stations = stations_of(body.stations)
    with analysis_errors():
        res = solve_multiclass_by(body.method, stations, classes)
    return respond(s.MultiClassPublic, res)


@router.post("/mva/what-if", response_model=s.WhatIfPublic)
def solve_what_if(body: s.WhatIfRequest) -> s.WhatIfPublic:
    """Re-solve the model over a range of one parameter."""
    with analysis_errors():
        res = what_if(
            stations_of(body.stations),
            body.population,
            body.think_time_s,
            body.parameter,
            tuple(body.values),
            body.station,
        )
    return respond(s.WhatIfPublic, res)


@router.post("/network-model", response_model=s.NetworkModelPublic)
def solve_network_model(body: s.NetworkModelRequest) -> s.NetworkModelPublic:
    """Build DOMAIN.md's network from a configuration and compare it with measurements."""
    return service.network_model(body)


@router.post("/factorial", response_model=s.FactorialPublic)
def solve_factorial(body: s.FactorialRequest) -> s.FactorialPublic:
    """2^k r factorial design from responses in standard order (first factor fastest)."""
    with analysis_errors():
        res = factorial(
            tuple(body.factors), body.y, body.confidence, body.multiplicative, body.t_critical
        )
    return respond(s.FactorialPublic, res)
