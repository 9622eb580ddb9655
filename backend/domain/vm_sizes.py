"""Azure VM sizes as a testbed imitates them: vCPUs, memory and network bandwidth, each figure
with its source and date. One home for these numbers: the Azure plan's vCPU fallback (when the
quota cannot be read), the shaped namespace testbeds (worker/tests, the fake Azure's VMs) and
the docs read them here.

Two bases for bandwidth (DOMAIN.md section 9), and a shaped testbed says which it follows:
- "published": Azure's "expected network bandwidth" of the Av2 series;
- "measured": the reports' iperf of the Basic A-series VMs they ran on (A1 101, A2 201,
  A4 802 Mbit/s), the sizes the Av2 series replaced (Basic A0-A7 were retired in 2024).
A size has a measured figure only through its retired predecessor; the B-series has no
published figure (Azure: its bandwidth varies), so it has none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Basis = Literal["published", "measured"]
BASES: tuple[Basis, ...] = ("published", "measured")
# What a host's stored link cap follows: a basis of this table, or a rate given directly.
CapBasis = Literal["published", "measured", "custom"]

AV2_DOC = (
    "Azure documentation, Av2-series sizes (learn.microsoft.com/azure/virtual-machines/"
    "sizes/general-purpose/av2-series), 'expected network bandwidth'"
)
AV2_DATE = "2026-11-29"  # as quoted in DOMAIN.md section 9 on this date
DSV5_DOC = "Azure documentation, Dsv5-series sizes, 'max network bandwidth'"
BASIC_DOC = "Azure documentation, Basic A-series (retired 2024-08-31): cores and memory"
BASIC_DATE = "2024-08-31"
REPORTS = "the reports' iperf between roles, once (DOMAIN.md section 7)"
REPORTS_DATE = "the reports' runs (year not recorded in DOMAIN.md)"


@dataclass(frozen=True)
class Figure:
    """One number and where it comes from."""

    value: float
    source: str
    date: str


@dataclass(frozen=True)
class VmSize:
    name: str
    vcpus: Figure
    memory_gib: Figure
    # Expected bandwidth by basis, Mbit/s (10^6 bit/s); a basis missing has no figure.
    bandwidth_mbit_s: dict[Basis, Figure]
    # A retired size: the current size Azure moved it to (same vCPU count).
    successor: str | None = None


def _av2(name: str, vcpus: int, memory_gib: float, mbit_s: float) -> VmSize:
    return VmSize(
        name,
        Figure(vcpus, AV2_DOC, AV2_DATE),
        Figure(memory_gib, AV2_DOC, AV2_DATE),
        {"published": Figure(mbit_s, AV2_DOC, AV2_DATE)},
    )


def _basic(name: str, vcpus: int, memory_gib: float, mbit_s: float, successor: str) -> VmSize:
    return VmSize(
        name,
        Figure(vcpus, BASIC_DOC, BASIC_DATE),
        Figure(memory_gib, BASIC_DOC, BASIC_DATE),
        {"measured": Figure(mbit_s, REPORTS, REPORTS_DATE)},
        successor,
    )


SIZES: dict[str, VmSize] = {
    s.name: s
    for s in (
        _av2("Standard_A1_v2", 1, 2, 250),
        _av2("Standard_A2_v2", 2, 4, 500),
        _av2("Standard_A4_v2", 4, 8, 1_000),
        _av2("Standard_A8_v2", 8, 16, 2_000),
        _av2("Standard_A2m_v2", 2, 16, 500),
        _av2("Standard_A4m_v2", 4, 32, 1_000),
        _av2("Standard_A8m_v2", 8, 64, 2_000),
        # Basic A-series memory was published in GB of 2^30 bytes (1.75, 3.5, 14).
        _basic("Basic_A1", 1, 1.75, 101, "Standard_A1_v2"),
        _basic("Basic_A2", 2, 3.5, 201, "Standard_A2_v2"),
        _basic("Basic_A4", 8, 14, 802, "Standard_A8_v2"),
        VmSize(
            "Standard_D2s_v5",
            Figure(2, DSV5_DOC, AV2_DATE),
            Figure(8, DSV5_DOC, AV2_DATE),
            {"published": Figure(12_500, DSV5_DOC, AV2_DATE)},
        ),
        VmSize(
            "Standard_B2s",
            Figure(2, "Azure documentation, B-series sizes", AV2_DATE),
            Figure(4, "Azure documentation, B-series sizes", AV2_DATE),
            {},  # Azure publishes no bandwidth for the B-series: it varies
        ),
    )
}


def vcpus(size: str) -> int | None:
    """The size's vCPU count; None for a size the table does not know."""
    known = SIZES.get(size)
    return None if known is None else int(known.vcpus.value)


def bandwidth(size: str, basis: Basis) -> Figure | None:
    """The size's expected bandwidth on `basis`. A current size's measured figure is its
    retired predecessor's (the reports ran on Basic A1/A2/A4); None when there is none."""
    known = SIZES.get(size)
    if known is not None and basis in known.bandwidth_mbit_s:
        return known.bandwidth_mbit_s[basis]
    if basis == "measured":
        for old in SIZES.values():
            if old.successor == size and "measured" in old.bandwidth_mbit_s:
                fig = old.bandwidth_mbit_s["measured"]
                return Figure(
                    fig.value, f"{fig.source}, on {old.name} ({size}'s predecessor)", fig.date
                )
    return None
