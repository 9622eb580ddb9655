"""The network bound of each configuration from its testbed's measured bandwidths."""

from fastapi import APIRouter

from backend.analysis.model_fit import fit
from backend.analysis.network_bound import configuration_bounds, design_sizes
from backend.analysis.wire_bytes import GET_END, GET_LINE
from backend.api.deps import SessionDep
from backend.api.window import ExperimentDep, WindowDep
from backend.crud.network import experiment_testbed, testbed_bandwidths
from backend.domain.labels import levels_label
from backend.modelfit.measured import measured_configs
from backend.models import RequestType
from backend.schemas.analysis.network_bound import ExperimentNetworkBoundPublic
from backend.schemas.problems import analysis_errors, unprocessable
from backend.schemas.respond import respond

router = APIRouter()
EXP = "/experiments/{experiment_id}"


@router.get(EXP + "/network-bound", response_model=ExperimentNetworkBoundPublic)
def read_network_bound(
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    request_type: RequestType = RequestType.ALL,
) -> ExperimentNetworkBoundPublic:
    """Per configuration, each role's network bound (hosts x link bandwidth / bytes the role
    sends per request: the hosts' link caps when recorded, else iperf3's uploads; for the
    design's value size, key range, ratio, multi-get size, sharding and replication) next to
    the clients' measured throughput."""
    testbed = experiment_testbed(session=session, experiment=experiment)
    known = testbed_bandwidths(testbed)
    bandwidth = known.mbit_s
    if testbed is None or not bandwidth:
        raise unprocessable(
            ("testbed",),
            "no bandwidth known on this experiment's testbed: its hosts record no link cap, "
            "so measure it with POST /testbeds/{id}/network and bandwidth true (the local "
            "testbed's loopback has none)",
            experiment.testbed_id,
            location="query",
        )
    hosts = {r: sum(1 for h in testbed.hosts if h.role.value == r) for r in bandwidth}
    configs = measured_configs(
        session=session, experiment=experiment, request_type=request_type, window=window
    )
    rows = []
    with analysis_errors("query"):
        for c in configs:
            roles = configuration_bounds(c.params, bandwidth, hosts, known.source)
            limiting = min(roles, key=lambda r: r.bound_per_s)
            x = c.client.get("throughput_per_s")
            measured = x.mean if x is not None else None
            rows.append(
                {
                    "configuration_id": c.configuration_id,
                    "index": c.index,
                    "values": c.values,
                    "measured_throughput_per_s": measured,
                    "roles": roles,
                    "bound_per_s": limiting.bound_per_s,
                    "limiting_role": limiting.role,
                    "fraction_of_bound": None
                    if measured is None
                    else measured / limiting.bound_per_s,
                    "fit": None
                    if measured is None
                    else fit(
                        "throughput",
                        measured,
                        None,
                        limiting.bound_per_s,
                        "upper",
                        levels_label(c.values),
                    ),
                }
            )
    sizes = design_sizes(4096, 10_000)
    note = (
        "memcached text protocol with memtier's keys (longest key of the range); e.g. 4096 B "
        f"values and 10,000 keys: set request {sizes.set_request_b} B, set reply "
        f"{sizes.set_reply_b} B, get request {sizes.get_request_b} B, get reply "
        f"{sizes.get_reply_b} B. A multi-get of K keys is one request (as the measured "
        f"throughput counts it): {len(GET_LINE)} B + {sizes.key_in_get_b} B per key, reply "
        f"{sizes.value_block_b} B per key + {len(GET_END)} B; sharded, one get line and one "
        "END per server its keys hash to (S (1 - (1 - 1/S)^K) of S on average). memtier's "
        "ratio counts keys: 1:9 with 3 keys per get is one set per three multi-gets"
    )
    return respond(
        ExperimentNetworkBoundPublic,
        {
            "data": rows,
            "bandwidth_measured_at": testbed.network.get("bandwidth_measured_at"),
            "sizes_note": note,
        },
    )
