"""The size table: DOMAIN.md section 9's figures, each with a source and a date, and the
reports' measured bandwidths reached through a current size's retired predecessor."""

import pytest

from backend.domain.azure_lab_rules import RETIRED_SIZES
from backend.domain.vm_sizes import BASES, SIZES, bandwidth, vcpus
from infra.tests.fake_arm import SKUS

# Reaches the test hosts but runs no load on them: with the load-free tests (conftest.py).
pytestmark = pytest.mark.hosts_without_load


@pytest.mark.parametrize(
    ("size", "cpus", "published", "measured"),
    [
        ("Standard_A1_v2", 1, 250, 101),
        ("Standard_A2_v2", 2, 500, 201),
        ("Standard_A4_v2", 4, 1_000, None),
        ("Standard_A8_v2", 8, 2_000, 802),
        ("Standard_A8m_v2", 8, 2_000, None),
        ("Basic_A1", 1, None, 101),
        ("Standard_B2s", 2, None, None),
    ],
)
def test_size_figures(
    size: str, cpus: int, published: float | None, measured: float | None
) -> None:
    assert vcpus(size) == cpus
    got = {b: (f.value if (f := bandwidth(size, b)) else None) for b in BASES}
    assert got == {"published": published, "measured": measured}


def test_measured_figure_names_the_predecessor() -> None:
    fig = bandwidth("Standard_A1_v2", "measured")
    assert fig is not None and "Basic_A1" in fig.source and "iperf" in fig.source


def test_unknown_size_has_no_figures() -> None:
    assert vcpus("Standard_Z9_v9") is None
    assert bandwidth("Standard_Z9_v9", "published") is None


def test_every_figure_has_a_source_and_date() -> None:
    for size in SIZES.values():
        figures = [size.vcpus, size.memory_gib, *size.bandwidth_mbit_s.values()]
        assert all(f.source and f.date and f.value > 0 for f in figures), size.name


def test_successors_agree_with_the_azure_spec_and_the_fake() -> None:
    # The Azure engine maps retired sizes to the same successors, and the fake Azure offers
    # each size with the table's vCPUs.
    for name, size in SIZES.items():
        if size.successor is not None:
            assert RETIRED_SIZES[name] == size.successor
    for name, (_family, cpus) in SKUS.items():
        assert vcpus(name) == cpus, name
