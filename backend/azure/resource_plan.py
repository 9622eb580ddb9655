"""What a lab is made of, as Azure Resource Manager request bodies in creation order: resource
group, NSG, virtual network with its subnet, public IPs, NICs, VMs. Pure: no request is sent
here, so `plan` shows exactly what `up` will create."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Any

from backend.azure.cloud_init import HostKey, custom_data, render
from backend.azure.lab_spec import LabSpec, Role

# Tags on the resource group and on every resource in it: whose, since and until when.
TAG_TESTBED = "mcscope-testbed"
TAG_OWNER = "mcscope-owner"
TAG_CREATED = "mcscope-created"
TAG_EXPIRES = "mcscope-expires"
TAG_ROLE = "mcscope-role"

SSH_RULE = "allow-ssh"
SSH_RULE_PRIORITY = 1000


class Kind(StrEnum):
    GROUP = "resource group"
    NSG = "network security group"
    VNET = "virtual network"
    PUBLIC_IP = "public IP"
    NIC = "network interface"
    VM = "virtual machine"


@dataclass(frozen=True)
class PlannedVm:
    name: str
    role: Role | None  # None for the jump host, which is not an mcscope host
    size: str
    public_ip: bool

    @property
    def nic_name(self) -> str:
        return f"{self.name}-nic"

    @property
    def ip_name(self) -> str:
        return f"{self.name}-ip"


@dataclass(frozen=True)
class Resource:
    """One resource to create: its kind, name and ARM body."""

    kind: Kind
    name: str
    body: dict[str, Any]


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


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def lab_tags(spec: LabSpec, created: datetime, testbed_id: str | None = None) -> dict[str, str]:
    """The tags every resource of the lab carries; `created` is timezone-aware UTC."""
    return {
        TAG_TESTBED: testbed_id or spec.name,
        TAG_OWNER: spec.owner,
        TAG_CREATED: _iso(created),
        TAG_EXPIRES: _iso(created + timedelta(hours=spec.expires_in_hours)),
    }


def expires_at(tags: dict[str, str] | None) -> datetime | None:
    """The expiry a resource group's tags carry; None when it is not an mcscope group."""
    if not tags or TAG_EXPIRES not in tags:
        return None
    return datetime.fromisoformat(tags[TAG_EXPIRES])


def _id(spec: LabSpec, subscription_id: str, provider_type: str, name: str) -> str:
    return (
        f"/subscriptions/{subscription_id}/resourceGroups/{spec.resource_group}"
        f"/providers/{provider_type}/{name}"
    )


def _zones(spec: LabSpec) -> dict[str, list[str]]:
    """A zonal lab's VMs and public IPs carry its zone (a zonal VM needs a Standard IP of
    the same zone or none); a regional lab's carry no zones."""
    return {"zones": [spec.zone]} if spec.zone else {}


def _image(urn: str) -> dict[str, str]:
    publisher, offer, sku, version = urn.split(":")
    return {"publisher": publisher, "offer": offer, "sku": sku, "version": version}


def _vm_body(
    spec: LabSpec, sub: str, vm: PlannedVm, tags: dict[str, str], key: HostKey
) -> dict[str, Any]:
    # A plan shown before the key exists (nothing is created from it) carries no login key.
    public = Path(spec.ssh_public_key_path)
    login_key = public.read_text().strip() if public.is_file() else ""
    nic_id = _id(spec, sub, "Microsoft.Network/networkInterfaces", vm.nic_name)
    return {
        "location": spec.region,
        **_zones(spec),
        "tags": {**tags, TAG_ROLE: vm.role.value if vm.role else "jump"},
        "properties": {
            "hardwareProfile": {"vmSize": vm.size},
            "storageProfile": {
                "imageReference": _image(spec.image),
                # Deleted with the VM, so nothing is billed after it is gone.
                "osDisk": {
                    "createOption": "FromImage",
                    "deleteOption": "Delete",
                    "managedDisk": {"storageAccountType": "Standard_LRS"},
                },
            },
            "osProfile": {
                "computerName": vm.name,
                "adminUsername": spec.admin_user,
                "customData": custom_data(render(spec, vm.role, key)),
                "linuxConfiguration": {
                    "disablePasswordAuthentication": True,
                    "ssh": {
                        "publicKeys": [
                            {
                                "path": f"/home/{spec.admin_user}/.ssh/authorized_keys",
                                "keyData": login_key,
                            }
                        ]
                    },
                },
            },
            "networkProfile": {
                "networkInterfaces": [
                    {"id": nic_id, "properties": {"primary": True, "deleteOption": "Delete"}}
                ]
            },
        },
    }


def build_plan(
    spec: LabSpec, subscription_id: str, tags: dict[str, str], host_keys: dict[str, HostKey]
) -> list[Resource]:
    """The whole lab, in dependency order; `host_keys` holds one new key per VM name."""
    net, sub = spec.network, subscription_id
    nsg_id = _id(spec, sub, "Microsoft.Network/networkSecurityGroups", net.nsg)
    subnet_id = _id(spec, sub, "Microsoft.Network/virtualNetworks", net.vnet) + (
        f"/subnets/{net.subnet}"
    )
    base = {"location": spec.region, "tags": tags}
    plan = [
        Resource(Kind.GROUP, spec.resource_group, dict(base)),
        # Only SSH from the configured source; traffic inside the vnet (the memcached and
        # middleware ports) is allowed by Azure's default AllowVnetInBound rule.
        Resource(
            Kind.NSG,
            net.nsg,
            {
                **base,
                "properties": {
                    "securityRules": [
                        {
                            "name": SSH_RULE,
                            "properties": {
                                "priority": SSH_RULE_PRIORITY,
                                "direction": "Inbound",
                                "access": "Allow",
                                "protocol": "Tcp",
                                "sourceAddressPrefix": net.ssh_source_cidr,
                                "sourcePortRange": "*",
                                "destinationAddressPrefix": "*",
                                "destinationPortRange": "22",
                            },
                        }
                    ]
                },
            },
        ),
        Resource(
            Kind.VNET,
            net.vnet,
            {
                **base,
                "properties": {
                    "addressSpace": {"addressPrefixes": [net.address_prefix]},
                    "subnets": [
                        {
                            "name": net.subnet,
                            "properties": {
                                "addressPrefix": net.subnet_prefix,
                                "networkSecurityGroup": {"id": nsg_id},
                            },
                        }
                    ],
                },
            },
        ),
    ]
    vms = planned_vms(spec)
    for vm in vms:
        if vm.public_ip:
            plan.append(
                Resource(
                    Kind.PUBLIC_IP,
                    vm.ip_name,
                    {
                        **base,
                        **_zones(spec),
                        "sku": {"name": "Standard"},
                        "properties": {"publicIPAllocationMethod": "Static"},
                    },
                )
            )
    for vm in vms:
        ipconf: dict[str, Any] = {
            "subnet": {"id": subnet_id},
            "privateIPAllocationMethod": "Dynamic",
        }
        if vm.public_ip:
            ipconf["publicIPAddress"] = {
                "id": _id(spec, sub, "Microsoft.Network/publicIPAddresses", vm.ip_name)
            }
        plan.append(
            Resource(
                Kind.NIC,
                vm.nic_name,
                {
                    **base,
                    "properties": {
                        "ipConfigurations": [{"name": "ipconfig1", "properties": ipconf}]
                    },
                },
            )
        )
    for vm in vms:
        plan.append(Resource(Kind.VM, vm.name, _vm_body(spec, sub, vm, tags, host_keys[vm.name])))
    return plan
