"""vCPU quota before anything is created: each size's family and vCPU count from the region's
resource SKUs, the family's and the region's usage from the compute usages API. Not enough
quota is an error naming the family and the numbers, raised before the first resource exists."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from backend.azure.arm import Arm
from backend.azure.lab_spec import LabSpec
from backend.azure.resource_plan import planned_vms

# The usages API's name for "Total Regional vCPUs", counted beside each family's own limit.
REGIONAL = "cores"


class QuotaError(RuntimeError):
    """Not enough vCPU quota, or a size the region does not offer to this subscription."""


@dataclass(frozen=True)
class SizeInfo:
    name: str
    family: str
    vcpus: int


@dataclass(frozen=True)
class QuotaLine:
    """One quota the lab draws on: what it needs against what is used of the limit."""

    family: str
    needed: int
    used: int
    limit: int

    @property
    def fits(self) -> bool:
        return self.used + self.needed <= self.limit


def size_infos(arm: Arm, region: str, sizes: set[str]) -> dict[str, SizeInfo]:
    """Family and vCPUs of each size offered in `region`; QuotaError for any other size."""
    found: dict[str, SizeInfo] = {}
    restricted: dict[str, str] = {}
    for sku in arm.compute.resource_skus.list(filter=f"location eq '{region}'"):
        if sku.resource_type != "virtualMachines" or sku.name not in sizes:
            continue
        # The list is filtered to the region, so a Location restriction is one here.
        blocked = [
            r.reason_code or "restricted" for r in sku.restrictions or [] if r.type == "Location"
        ]
        if blocked:
            restricted[str(sku.name)] = blocked[0]
            continue
        vcpus = next((c.value for c in sku.capabilities or [] if c.name == "vCPUs"), None)
        if vcpus is None or sku.family is None:
            continue
        found[str(sku.name)] = SizeInfo(str(sku.name), str(sku.family), int(vcpus))
    missing = sorted(sizes - set(found))
    if missing:
        why = ", ".join(f"{s} ({restricted.get(s, 'not offered')})" for s in missing)
        raise QuotaError(f"VM sizes not available in {region} for this subscription: {why}")
    return found


def quota_lines(arm: Arm, spec: LabSpec) -> list[QuotaLine]:
    """The lab's vCPUs per family and in all, against the region's current usage."""
    vms = planned_vms(spec)
    infos = size_infos(arm, spec.region, {vm.size for vm in vms})
    needed: Counter[str] = Counter()
    for vm in vms:
        info = infos[vm.size]
        needed[info.family] += info.vcpus
        needed[REGIONAL] += info.vcpus
    usage = {
        str(u.name.value): (int(u.current_value), int(u.limit))
        for u in arm.compute.usage.list(spec.region)
        if u.name is not None and u.name.value in needed
    }
    lines = []
    for family, n in needed.items():
        # A family the usages API does not list has no quota to draw on.
        used, limit = usage.get(family, (0, 0))
        lines.append(QuotaLine(family, n, used, limit))
    return lines


def shortfall(region: str, lines: list[QuotaLine]) -> str | None:
    """What does not fit, naming every such family and its numbers; None when all fit."""
    short = [q for q in lines if not q.fits]
    if not short:
        return None
    parts = "; ".join(
        f"{q.family}: needs {q.needed} vCPUs, {q.used} of {q.limit} in use"
        f" ({q.limit - q.used} free)"
        for q in short
    )
    return f"not enough vCPU quota in {region}: {parts}"


def check_quota(arm: Arm, spec: LabSpec) -> list[QuotaLine]:
    """The quota lines, or QuotaError naming every family that does not fit."""
    lines = quota_lines(arm, spec)
    message = shortfall(spec.region, lines)
    if message is not None:
        raise QuotaError(message)
    return lines
