"""Create, inspect, stop, start and delete a lab through the Azure SDK: the one code path behind
the command-line tool and the Azure worker's tasks (lab_creation, lab_power, the janitor).

One resource group per lab, made by mcscope and tagged (resource_plan.lab_tags); creation
checks quota first, then creates in plan order, each long-running operation through its SDK
poller. If anything fails after the group exists, the group is deleted before the error is
raised, so a failed creation leaves nothing behind. A group without mcscope's tag is never
deleted."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from azure.core.exceptions import AzureError, HttpResponseError, ResourceNotFoundError

from backend.azure.arm import Arm
from backend.azure.cloud_init import new_host_key
from backend.azure.lab_spec import LabSpec, Role
from backend.azure.resource_plan import (
    TAG_TESTBED,
    Kind,
    Resource,
    build_plan,
    lab_tags,
    planned_vms,
)
from backend.azure.vcpu_quota import QuotaLine, check_quota

logger = logging.getLogger(__name__)


class ProvisionError(RuntimeError):
    """A lab could not be created (and what was made is gone) or could not be deleted."""


@dataclass(frozen=True)
class LabHost:
    """One VM as mcscope registers it: the host key is the one mcscope generated for it."""

    name: str
    role: Role | None
    size: str
    private_ip: str
    public_ip: str | None
    host_key: str
    # The availability zone Azure put the VM in (read back from the VM); None: regional.
    zone: str | None = None


@dataclass(frozen=True)
class Lab:
    resource_group: str
    region: str
    tags: dict[str, str]
    quota: list[QuotaLine]
    hosts: list[LabHost]


def describe(exc: BaseException) -> str:
    """ARM's error code and message ("SkuNotAvailable: ..."), else the exception's text."""
    if isinstance(exc, HttpResponseError) and exc.error is not None and exc.error.code:
        return f"{exc.error.code}: {exc.error.message}"
    return str(exc) or type(exc).__name__


def _create_one(arm: Arm, rg: str, res: Resource) -> None:
    # Imported here, as the clients are (backend.azure.arm.connect says why).
    from azure.mgmt.compute import models as compute_models
    from azure.mgmt.network import models as network_models
    from azure.mgmt.resource.resources import models as resource_models

    if res.kind is Kind.GROUP:
        arm.resource.resource_groups.create_or_update(rg, resource_models.ResourceGroup(res.body))
    elif res.kind is Kind.NSG:
        arm.network.network_security_groups.begin_create_or_update(
            rg, res.name, network_models.NetworkSecurityGroup(res.body)
        ).result()
    elif res.kind is Kind.VNET:
        arm.network.virtual_networks.begin_create_or_update(
            rg, res.name, network_models.VirtualNetwork(res.body)
        ).result()
    elif res.kind is Kind.PUBLIC_IP:
        arm.network.public_ip_addresses.begin_create_or_update(
            rg, res.name, network_models.PublicIPAddress(res.body)
        ).result()
    elif res.kind is Kind.NIC:
        arm.network.network_interfaces.begin_create_or_update(
            rg, res.name, network_models.NetworkInterface(res.body)
        ).result()
    else:
        arm.compute.virtual_machines.begin_create_or_update(
            rg, res.name, compute_models.VirtualMachine(res.body)
        ).result()


def _exists(arm: Arm, rg: str, res: Resource) -> bool:
    """The resource is already there, fully made (a resumed creation reuses it)."""
    try:
        if res.kind is Kind.GROUP:
            return bool(arm.resource.resource_groups.check_existence(rg))
        if res.kind is Kind.NSG:
            found: Any = arm.network.network_security_groups.get(rg, res.name)
        elif res.kind is Kind.VNET:
            found = arm.network.virtual_networks.get(rg, res.name)
        elif res.kind is Kind.PUBLIC_IP:
            found = arm.network.public_ip_addresses.get(rg, res.name)
        elif res.kind is Kind.NIC:
            found = arm.network.network_interfaces.get(rg, res.name)
        else:
            found = arm.compute.virtual_machines.get(rg, res.name)
    except ResourceNotFoundError:
        return False
    # The network models give an enum, the compute one a string.
    state = str(getattr(found.provisioning_state, "value", found.provisioning_state) or "")
    if state.lower() != "succeeded":
        # Half made by the dead worker; its key's private half is gone, so it cannot be redone
        # with the same custom data: fail (and clean up) rather than guess.
        raise ProvisionError(f"{res.kind.value} {res.name} was left {state or 'unfinished'}")
    return True


@dataclass
class Resume:
    """What a creation writes ahead so another worker can finish it: `host_keys` (VM name ->
    public key line) as recorded by an earlier attempt, and `record`, called with every VM's
    key before the first VM is created."""

    host_keys: dict[str, str]
    record: Callable[[dict[str, str]], None]


def _start(
    arm: Arm, spec: LabSpec, testbed_id: str | None, now: datetime | None, resume: Resume | None
) -> tuple[list[QuotaLine], dict[str, str], bool]:
    """(quota, tags, resuming): a resumed creation keeps the group's tags (its expiry)."""
    rg = spec.resource_group
    # Only an earlier attempt's group is resumed: it recorded its keys before making any VM.
    tags = group_tags(arm, rg) if resume is not None and resume.host_keys else None
    if tags is not None:
        if tags.get(TAG_TESTBED) != (testbed_id or spec.name):
            raise ProvisionError(f"resource group {rg} exists and is not this lab's")
        return [], tags, True  # quota counts the VMs already made: ARM checks the rest
    quota = check_quota(arm, spec)
    if arm.resource.resource_groups.check_existence(rg):
        raise ProvisionError(f"resource group {rg} already exists: delete it or pick another name")
    created = (now or datetime.now(UTC)).replace(microsecond=0)
    return quota, lab_tags(spec, created, testbed_id), False


def create(
    arm: Arm,
    spec: LabSpec,
    *,
    testbed_id: str | None = None,
    now: datetime | None = None,
    progress: Callable[[Resource], None] | None = None,
    resume: Resume | None = None,
) -> Lab:
    """Create the lab; on any failure after its group exists, delete the group, then raise
    ProvisionError naming the resource that failed and why. With `resume`, a group this lab
    made earlier is finished: resources already there are reused, the rest created."""
    rg = spec.resource_group
    quota, tags, resuming = _start(arm, spec, testbed_id, now, resume)
    keys = {vm.name: new_host_key() for vm in planned_vms(spec)}
    public = {n: k.public_line for n, k in keys.items()}
    if resume is not None:
        # Keys of VMs an earlier attempt may have made stay; the others get new ones.
        public.update({n: k for n, k in resume.host_keys.items() if n in public})
        resume.record(public)
    group_made = resuming
    current: Resource | None = None
    try:
        for current in build_plan(spec, arm.subscription_id, tags, keys):
            if resuming and _exists(arm, rg, current):
                logger.info(
                    "azure.reused", extra={"kind": current.kind.value, "resource": current.name}
                )
            else:
                if (
                    current.kind is Kind.VM
                    and public[current.name] != keys[current.name].public_line
                ):
                    # Recorded by an attempt that died before making this VM: pin the new key.
                    public[current.name] = keys[current.name].public_line
                    if resume is not None:
                        resume.record(dict(public))
                _create_one(arm, rg, current)
                logger.info(
                    "azure.created", extra={"kind": current.kind.value, "resource": current.name}
                )
            group_made = True
            if progress is not None:
                progress(current)
        hosts = _hosts(arm, spec, public)
    except BaseException as exc:
        what = f"{current.kind.value} {current.name}" if current else rg
        if not group_made:
            raise ProvisionError(f"creating {what} failed: {describe(exc)}") from exc
        try:
            _delete_group(arm, rg)
        except AzureError as cleanup:
            raise ProvisionError(
                f"creating {what} failed: {describe(exc)}; deleting resource group {rg} failed "
                f"too ({describe(cleanup)}): delete it by hand"
            ) from exc
        if not isinstance(exc, Exception):
            raise  # Ctrl-C or exit: cleaned up, then passed on unchanged
        raise ProvisionError(
            f"creating {what} failed: {describe(exc)}; resource group {rg} was deleted"
        ) from exc
    return Lab(rg, spec.region, tags, quota, hosts)


def _hosts(arm: Arm, spec: LabSpec, keys: dict[str, str]) -> list[LabHost]:
    rg = spec.resource_group
    out = []
    for vm in planned_vms(spec):
        nic = arm.network.network_interfaces.get(rg, vm.nic_name)
        private_ip = nic.ip_configurations[0].private_ip_address
        public_ip = None
        if vm.public_ip:
            public_ip = arm.network.public_ip_addresses.get(rg, vm.ip_name).ip_address
        zones = arm.compute.virtual_machines.get(rg, vm.name).zones or []
        out.append(
            LabHost(
                vm.name,
                vm.role,
                vm.size,
                str(private_ip),
                public_ip,
                keys[vm.name],
                zones[0] if zones else None,
            )
        )
    return out


def _delete_group(arm: Arm, rg: str) -> None:
    arm.resource.resource_groups.begin_delete(rg).result()
    logger.info("azure.deleted", extra={"resource_group": rg})


def group_tags(arm: Arm, rg: str) -> dict[str, str] | None:
    """The group's tags; None when there is no such group."""
    if not arm.resource.resource_groups.check_existence(rg):
        return None
    return dict(arm.resource.resource_groups.get(rg).tags or {})


def delete(arm: Arm, rg: str) -> bool:
    """Delete a lab's resource group and all in it; False if it does not exist. A group that
    does not carry mcscope's tag is refused: mcscope deletes only what it made."""
    tags = group_tags(arm, rg)
    if tags is None:
        return False
    if TAG_TESTBED not in tags:
        raise ProvisionError(f"resource group {rg} has no {TAG_TESTBED} tag: not made by mcscope")
    _delete_group(arm, rg)
    return True


@dataclass(frozen=True)
class VmStatus:
    name: str
    power_state: str
    size: str
    role: str


def _power_state(view: Any) -> str:
    for s in view.statuses or []:
        if s.code and s.code.startswith("PowerState/"):
            return str(s.code.split("/", 1)[1])
    return "unknown"


def status(arm: Arm, rg: str) -> list[VmStatus]:
    """The group's VMs with their power state (from each VM's instance view)."""
    out = []
    for vm in arm.compute.virtual_machines.list(rg):
        view = arm.compute.virtual_machines.instance_view(rg, str(vm.name))
        size = vm.hardware_profile.vm_size if vm.hardware_profile else ""
        role = (vm.tags or {}).get("mcscope-role", "")
        out.append(VmStatus(str(vm.name), _power_state(view), str(size), role))
    return sorted(out, key=lambda s: s.name)


def deallocate(arm: Arm, rg: str) -> list[str]:
    """Stop and deallocate every VM of the group (no compute billed; disks and IPs stay)."""
    names = [str(vm.name) for vm in arm.compute.virtual_machines.list(rg)]
    for name in names:
        arm.compute.virtual_machines.begin_deallocate(rg, name).result()
    return names


def start(arm: Arm, rg: str) -> list[str]:
    """Start every VM of the group again (same disks, host keys and private addresses)."""
    names = [str(vm.name) for vm in arm.compute.virtual_machines.list(rg)]
    for name in names:
        arm.compute.virtual_machines.begin_start(rg, name).result()
    return names
