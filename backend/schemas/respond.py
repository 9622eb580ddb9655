"""Engine results as response models: units from field names, MVA curves flattened."""

from typing import Any, TypeVar, get_args

from pydantic import BaseModel

from backend.analysis.mva.network import Station
from backend.analysis.mva.result import MvaResult
from backend.analysis.plain import plain
from backend.schemas import analysis as s

M = TypeVar("M", bound=BaseModel)

_SUFFIX_UNITS = (
    ("_per_s", "1/s"),
    ("_s2", "s^2"),
    ("_us", "us"),
    ("_s", "s"),
    ("_percent", "%"),
)


def units_of(model: type[BaseModel]) -> dict[str, str]:
    """Unit of every field whose name carries one, nested row models included (flat map).

    Throughputs are in ops/s, other rates in 1/s.
    """
    out: dict[str, str] = {}
    for name, field in model.model_fields.items():
        for suffix, unit in _SUFFIX_UNITS:
            if name.endswith(suffix):
                out[name] = "ops/s" if "throughput" in name and unit == "1/s" else unit
                break
        for arg in (field.annotation, *get_args(field.annotation)):
            if isinstance(arg, type) and issubclass(arg, BaseModel) and arg is not model:
                out.update({k: v for k, v in units_of(arg).items() if k not in out})
    return out


def respond(model: type[M], data: Any, **extra: Any) -> M:
    """Validate plain(data) into the response model and attach its units."""
    payload = {**plain(data), **extra, "units": units_of(model)}
    return model.model_validate(payload)


def stations_of(items: list[s.StationIn]) -> tuple[Station, ...]:
    """Schema stations to engine stations."""
    return tuple(Station(i.name, i.kind, i.service_time_s, i.visits, i.servers) for i in items)


def mva_public(res: MvaResult) -> s.MvaPublic:
    """Flatten per-station curves (station description beside its arrays)."""
    stations = [
        {
            **plain(c.station),
            "demand_s": c.station.demand_s,
            **{k: v for k, v in plain(c).items() if k != "station"},
        }
        for c in res.stations
    ]
    last = len(res.populations) - 1
    at = {
        "population": int(res.populations[last]),
        "throughput_per_s": float(res.throughput_per_s[last]),
        "response_time_s": float(res.response_time_s[last]),
        "stations": [
            {
                "name": c.station.name,
                "kind": c.station.kind,
                "servers": c.station.servers,
                "throughput_per_s": float(c.throughput_per_s[last]),
                "utilization_per_server": float(c.utilization_per_server[last]),
                "prob_busy": None if c.prob_busy is None else float(c.prob_busy[last]),
                "residence_time_s": float(c.residence_time_s[last]),
                "queue_length": float(c.queue_length[last]),
            }
            for c in res.stations
        ],
    }
    return respond(
        s.MvaPublic, res, stations=stations, bottleneck=res.bottleneck(), at_population=at
    )
