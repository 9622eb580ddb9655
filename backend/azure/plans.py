"""The plan of an Azure testbed as the New Azure testbed page shows it: the engine's own plan
(infra.azure.plan, the resources `create` makes, in order), the vCPU quota they draw on
(infra.azure.quota, asked of Azure), and their price from the stored VM prices (each with its
date and source; a size without one is listed, never guessed)."""

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from azure.core.exceptions import AzureError
from sqlalchemy.orm import Session

from backend.core.azure import NoSubscription
from backend.crud.costs import cost
from backend.domain.vm_sizes import vcpus
from backend.schemas.azure_plan import (
    AzureLabPlanPublic,
    PlannedResourcePublic,
    QuotaLinePublic,
    QuotaPublic,
)
from infra.azure.arm import Arm
from infra.azure.cloud_init import new_host_key
from infra.azure.plan import Kind, build_plan, lab_tags, planned_vms
from infra.azure.provision import describe
from infra.azure.quota import QuotaError, quota_lines, shortfall
from infra.azure.spec import LabSpec

logger = logging.getLogger(__name__)

PLAN_COUNTED = (
    "every VM of the plan (its hosts and its jump host) running; disks, IPs and traffic are "
    "not counted"
)


def resources(spec: LabSpec) -> list[PlannedResourcePublic]:
    """The resources `create` makes, in its order (the engine's plan, bodies left out)."""
    vms = {vm.name: vm for vm in planned_vms(spec)}
    # A VM's NIC and public IP carry its role too.
    by_part = dict(vms)
    for v in vms.values():
        by_part[v.nic_name] = by_part[v.ip_name] = v
    # Throwaway host keys: the plan's names and order do not depend on them.
    keys = {name: new_host_key() for name in vms}
    plan = build_plan(spec, "planned", lab_tags(spec, datetime.now(UTC)), keys)
    out = []
    for res in plan:
        vm = by_part.get(res.name)
        role = None if vm is None else (vm.role.value if vm.role else "jump")
        out.append(
            PlannedResourcePublic(
                kind=res.kind.value,
                name=res.name,
                label=f"{res.kind.value} {res.name}",
                role=role,
                size=vm.size if vm is not None and res.kind is Kind.VM else None,
            )
        )
    return out


def table_vcpus(spec: LabSpec) -> int | None:
    """The plan's vCPUs from backend.domain.vm_sizes, for when Azure's quota cannot be read;
    None when a size is not in the table."""
    counts = [vcpus(vm.size) for vm in planned_vms(spec)]
    return None if any(c is None for c in counts) else sum(c or 0 for c in counts)


def quota(spec: LabSpec, arm_for: Callable[[], Arm]) -> QuotaPublic:
    """The quota lines; an error naming the family and numbers when one does not fit."""
    try:
        arm = arm_for()
    except NoSubscription as exc:
        return QuotaPublic(
            checked=False,
            lines=[],
            error=f"quota not checked: {exc}",
            table_vcpus=table_vcpus(spec),
        )
    try:
        lines = quota_lines(arm, spec)
    except QuotaError as exc:  # a size the region does not offer
        return QuotaPublic(checked=True, lines=[], error=str(exc))
    except AzureError as exc:
        logger.warning("azure.plan_quota_failed", extra={"error": describe(exc)})
        return QuotaPublic(
            checked=False,
            lines=[],
            error=f"quota not read: {describe(exc)}",
            table_vcpus=table_vcpus(spec),
        )
    finally:
        arm.close()
    public = [
        QuotaLinePublic(family=q.family, needed=q.needed, used=q.used, limit=q.limit, fits=q.fits)
        for q in lines
    ]
    return QuotaPublic(checked=True, lines=public, error=shortfall(spec.region, lines))


def plan(
    session: Session, spec: LabSpec, budget: float | None, arm_for: Callable[[], Arm]
) -> AzureLabPlanPublic:
    """Everything the page shows before Create."""
    vms = [(spec.region, vm.size) for vm in planned_vms(spec)]
    per_hour = cost(session, vms, 1.0, PLAN_COUNTED)
    until = cost(session, vms, spec.expires_in_hours, PLAN_COUNTED)
    return AzureLabPlanPublic(
        resource_group=spec.resource_group,
        region=spec.region,
        zone=spec.zone,
        image=spec.image,
        resources=resources(spec),
        quota=quota(spec, arm_for),
        per_hour=per_hour,
        until_expiry=until,
        expires_in_hours=spec.expires_in_hours,
        budget=budget,
        over_budget=budget is not None and until.amount is not None and until.amount > budget,
    )
