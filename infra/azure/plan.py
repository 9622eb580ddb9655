"""The ordered `az` commands that build a lab: each step pairs a `show` (does it exist?)
with the `create` that `up` runs only when the show reports it missing."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from infra.azure.cloud_init import custom_data_path
from infra.azure.spec import LabSpec, Role

TAG = "mcscope-lab"
SSH_RULE = "allow-ssh"
SSH_RULE_PRIORITY = "1000"


@dataclass(frozen=True)
class Step:
    """One resource: what it is, how to see it, how to create it."""

    kind: str
    name: str
    show: tuple[str, ...]
    create: tuple[str, ...]


@dataclass(frozen=True)
class PlannedVm:
    name: str
    role: Role | None  # None for the jump host, which is not an mcscope host
    size: str
    public_ip: bool


def planned_vms(spec: LabSpec) -> list[PlannedVm]:
    """Every VM of the lab, servers first (the order they are created and registered)."""
    vms: list[PlannedVm] = []
    if spec.jump_host.enabled:
        vms.append(PlannedVm(spec.jump_name(), None, spec.jump_host.size, True))
    for role in (Role.SERVER, Role.MIDDLEWARE, Role.CLIENT):
        rs = spec.roles.get(role)
        if rs is None:
            continue
        vms += [PlannedVm(n, role, rs.size, rs.public_ip) for n in spec.vm_names(role)]
    return vms


def build_plan(spec: LabSpec, workdir: Path) -> list[Step]:
    """The whole lab as steps, in dependency order."""
    rg, net = spec.resource_group, spec.network
    g = ("--resource-group", rg)
    # Option/value pairs read better side by side than one token per line.
    # fmt: off
    steps = [
        Step("group", rg,
             ("group", "show", "--name", rg),
             ("group", "create", "--name", rg, "--location", spec.region,
              "--tags", f"{TAG}={spec.name}")),
        Step("nsg", net.nsg,
             ("network", "nsg", "show", *g, "--name", net.nsg),
             ("network", "nsg", "create", *g, "--name", net.nsg, "--location", spec.region)),
        Step("nsg-rule", SSH_RULE,
             ("network", "nsg", "rule", "show", *g, "--nsg-name", net.nsg, "--name", SSH_RULE),
             ("network", "nsg", "rule", "create", *g, "--nsg-name", net.nsg, "--name", SSH_RULE,
              "--priority", SSH_RULE_PRIORITY, "--direction", "Inbound", "--access", "Allow",
              "--protocol", "Tcp", "--source-address-prefixes", net.ssh_source_cidr,
              "--destination-port-ranges", "22")),
        Step("vnet", net.vnet,
             ("network", "vnet", "show", *g, "--name", net.vnet),
             ("network", "vnet", "create", *g, "--name", net.vnet, "--location", spec.region,
              "--address-prefixes", net.address_prefix)),
        # The NSG sits on the subnet, so it covers every NIC in it: only SSH from outside.
        Step("subnet", net.subnet,
             ("network", "vnet", "subnet", "show", *g, "--vnet-name", net.vnet,
              "--name", net.subnet),
             ("network", "vnet", "subnet", "create", *g, "--vnet-name", net.vnet,
              "--name", net.subnet, "--address-prefixes", net.subnet_prefix,
              "--network-security-group", net.nsg)),
    ]
    # fmt: on
    steps += [_vm_step(spec, vm, workdir) for vm in planned_vms(spec)]
    return steps


def _vm_step(spec: LabSpec, vm: PlannedVm, workdir: Path) -> Step:
    rg, net = spec.resource_group, spec.network
    # fmt: off
    create = [
        "vm", "create", "--resource-group", rg, "--name", vm.name, "--location", spec.region,
        "--image", spec.image, "--size", vm.size, "--admin-username", spec.admin_user,
        "--ssh-key-values", spec.ssh_public_key_path, "--authentication-type", "ssh",
        "--vnet-name", net.vnet, "--subnet", net.subnet,
        # No per-NIC NSG: the subnet's NSG applies.
        "--nsg", "",
        "--os-disk-delete-option", "Delete", "--nic-delete-option", "Delete",
        "--tags", f"{TAG}={spec.name}", f"mcscope-role={vm.role.value if vm.role else 'jump'}",
    ]
    # fmt: on
    if vm.public_ip:
        create += ["--public-ip-address", f"{vm.name}-ip", "--public-ip-sku", "Standard"]
    else:
        # An empty value tells az not to create a public IP at all.
        create += ["--public-ip-address", ""]
    if vm.role is not None:
        create += ["--custom-data", str(custom_data_path(workdir, vm.role))]
    return Step(
        "vm",
        vm.name,
        ("vm", "show", "--resource-group", rg, "--name", vm.name),
        tuple(create),
    )
