"""A fake Azure Resource Manager for the tests (no Azure account exists here; the real API is
the one thing faked). An HTTPS server on 127.0.0.1, in a thread, answering the subset of the
ARM REST API the Azure SDK's clients call for a lab: resource groups with tags (DELETE as a 202
long-running operation polled through Location), NSGs, virtual networks with subnets, public
IPs, NICs, virtual machines (PUT 201 polled through Azure-AsyncOperation, deallocate, start,
instanceView, list), compute resource SKUs and usages, and the Retail Prices API (served
without authentication, as Azure serves it, paged through NextPageLink). Every VM becomes a
real host (fake_vm_hosts). Faults are injected per request: 429 with Retry-After, 5xx,
QuotaExceeded, SkuNotAvailable. HTTPS with a self-signed certificate, so the SDK's
bearer-token policy runs exactly as against Azure.

Past 400 lines on purpose: one handler per ARM resource type, all reading and writing one
state under one lock (a NIC's address depends on the vnet, a VM's on its NIC, usages on the
VMs); split by resource type they would each need the whole state anyway."""

from __future__ import annotations

import datetime as dt
import ipaddress
import itertools
import json
import re
import ssl
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from azure.core.credentials import AccessToken
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from infra.tests.fake_vm_hosts import VmHosts

SUBSCRIPTION = "00000000-0000-4000-8000-00000000f00d"
TOKEN = "fake-arm-token"

# size -> (family, vCPUs): what the fake's regions offer (Azure's resource SKUs, trimmed).
SKUS: dict[str, tuple[str, int]] = {
    "Standard_A1_v2": ("standardAv2Family", 1),
    "Standard_A2_v2": ("standardAv2Family", 2),
    "Standard_A8_v2": ("standardAv2Family", 8),
    "Standard_B2s": ("standardBSFamily", 2),
    "Standard_D2s_v5": ("standardDSv5Family", 2),
}


# The resource types the fake creates, by the lower-case form matched in paths.
TYPES = {
    t.lower(): t
    for t in (
        "Microsoft.Network/networkSecurityGroups",
        "Microsoft.Network/virtualNetworks",
        "Microsoft.Network/publicIPAddresses",
        "Microsoft.Network/networkInterfaces",
        "Microsoft.Compute/virtualMachines",
    )
}


class FakeCredential:
    """A TokenCredential handing out the one token the fake accepts."""

    def get_token(self, *scopes: str, **kwargs: Any) -> AccessToken:
        return AccessToken(TOKEN, int(time.time()) + 3600)


@dataclass
class Fault:
    """Answer matching requests with `status` (and ARM error `code`) `times` times (None:
    always)."""

    method: str
    path: re.Pattern[str]
    status: int
    code: str
    times: int | None
    retry_after: int | None = None


@dataclass
class Logged:
    method: str
    path: str
    status: int
    at: float


@dataclass
class Operation:
    polls_left: int
    error: dict[str, str] | None = None


@dataclass
class State:
    groups: dict[str, dict[str, Any]] = field(default_factory=dict)  # lower name -> body
    resources: dict[str, dict[str, Any]] = field(default_factory=dict)  # lower id -> body
    operations: dict[str, Operation] = field(default_factory=dict)
    quota: dict[str, int] = field(default_factory=dict)  # family or "cores" -> limit
    faults: list[Fault] = field(default_factory=list)
    log: list[Logged] = field(default_factory=list)
    prices: list[dict[str, Any]] = field(default_factory=lambda: retail_items("westeurope"))
    price_page_size: int = 100
    price_filters: list[str] = field(default_factory=list)  # every $filter received


def retail_items(region: str) -> list[dict[str, Any]]:
    """The Retail Prices API's items for the fake's sizes in `region`: for each, the Linux
    pay-as-you-go meter (made-up price: 0.05 per vCPU and hour), a Windows one, a Spot one and a
    Low Priority one, as Azure lists them for one size."""
    items = []
    for size, (_family, vcpus) in SKUS.items():
        series = size.removeprefix("Standard_").replace("_", " ")
        linux = round(0.05 * vcpus, 4)
        for product, sku, price in [
            (f"Virtual Machines {series} Series", series, linux),
            (f"Virtual Machines {series} Series Windows", series, linux * 2),
            (f"Virtual Machines {series} Series", f"{series} Spot", linux / 5),
            (f"Virtual Machines {series} Series", f"{series} Low Priority", linux / 4),
        ]:
            items.append(
                {
                    "currencyCode": "USD",
                    "retailPrice": price,
                    "unitPrice": price,
                    "armRegionName": region,
                    "armSkuName": size,
                    "productName": product,
                    "skuName": sku,
                    "meterName": sku,
                    "serviceName": "Virtual Machines",
                    "unitOfMeasure": "1 Hour",
                    "type": "Consumption",
                }
            )
    return items


# $filter fields the fake understands, by the item field they test (priceType is `type`).
_FILTER_FIELDS = {
    "serviceName": "serviceName",
    "armRegionName": "armRegionName",
    "armSkuName": "armSkuName",
    "priceType": "type",
}
_EQ = re.compile(r"^(\w+) eq '([^']*)'$")


def _eq(clause: str) -> tuple[str, str]:
    m = _EQ.match(clause.strip())
    if not m or m.group(1) not in _FILTER_FIELDS:
        raise ArmError(400, "InvalidFilter", f"the fake cannot read {clause!r}")
    return _FILTER_FIELDS[m.group(1)], m.group(2)


def parse_filter(text: str) -> list[list[tuple[str, str]]]:
    """An OData $filter of `f eq 'v'` clauses joined by `and`, each clause possibly an
    `(a or b)` group: a list of groups, an item matches when it matches one clause of each."""
    groups = []
    for part in re.split(r" and (?![^(]*\))", text.strip()):
        part = part.strip()
        if part.startswith("(") and part.endswith(")"):
            groups.append([_eq(c) for c in part[1:-1].split(" or ")])
        else:
            groups.append([_eq(part)])
    return groups


def _self_signed(dir_: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "fake-arm")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = dir_ / "fake-arm.crt", dir_ / "fake-arm.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


class ArmError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


_SUB = r"/subscriptions/(?P<sub>[^/]+)"
PRICES_PATH = "/api/retail/prices"
_RG = _SUB + r"/resourcegroups/(?P<rg>[^/]+)"
ROUTES: list[tuple[str, re.Pattern[str]]] = [
    (name, re.compile(pattern + "$", re.IGNORECASE))
    for name, pattern in [
        ("groups", _SUB + r"/resourcegroups"),
        ("group", _RG),
        ("skus", _SUB + r"/providers/microsoft\.compute/skus"),
        ("usages", _SUB + r"/providers/microsoft\.compute/locations/(?P<loc>[^/]+)/usages"),
        ("poll", r"/fake-operations/(?P<op>[^/]+)"),
        ("prices", PRICES_PATH),
        (
            "vm_action",
            _RG + r"/providers/microsoft\.compute/virtualmachines/(?P<name>[^/]+)"
            r"/(?P<action>deallocate|start|instanceview)",
        ),
        ("list", _RG + r"/providers/(?P<type>microsoft\.\w+/\w+)"),
        ("resource", _RG + r"/providers/(?P<type>microsoft\.\w+/\w+)/(?P<name>[^/]+)"),
    ]
]


class FakeArm:
    """The fake's state and its server. `allowed` is the network VM hosts may be put in."""

    def __init__(self, state_dir: Path, allowed: ipaddress.IPv4Network) -> None:
        self.state = State()
        self.hosts = VmHosts(state_dir / "vms", allowed)
        self.lock = threading.RLock()
        state_dir.mkdir(parents=True, exist_ok=True)
        self.cert, key = _self_signed(state_dir)
        handler = type("Handler", (_Handler,), {"fake": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(self.cert, key)
        self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True)
        self.base_url = f"https://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._ids = itertools.count(1)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=10)
        self.hosts.close()

    # Test controls -----------------------------------------------------------------------

    def inject(
        self,
        method: str,
        path: str,
        status: int,
        code: str = "InternalServerError",
        times: int | None = 1,
        retry_after: int | None = None,
    ) -> None:
        """Answer the next `times` requests whose path matches the regex `path` with an error."""
        with self.lock:
            self.state.faults.append(
                Fault(method, re.compile(path, re.IGNORECASE), status, code, times, retry_after)
            )

    def set_quota(self, family: str, limit: int) -> None:
        with self.lock:
            self.state.quota[family] = limit

    def resource_ids(self) -> list[str]:
        """Every resource group and resource the fake holds."""
        with self.lock:
            return sorted(self.state.groups) + sorted(self.state.resources)

    def requests(self, method: str | None = None, path: str = "") -> list[Logged]:
        with self.lock:
            return [
                r
                for r in self.state.log
                if (method is None or r.method == method) and re.search(path, r.path, re.I)
            ]

    def add_group(self, name: str, tags: dict[str, str] | None = None) -> None:
        """A group made outside mcscope (e.g. by hand in the portal)."""
        with self.lock:
            self.state.groups[name.lower()] = self._group_body(name, "westeurope", tags or {})

    # Request handling ---------------------------------------------------------------------

    def handle(
        self, method: str, path: str, query: dict[str, str], body: Any
    ) -> tuple[int, dict[str, str], Any]:
        with self.lock:
            fault = self._fault(method, path)
            if fault is not None:
                headers = {"Retry-After": str(fault.retry_after)} if fault.retry_after else {}
                err = {"error": {"code": fault.code, "message": f"injected {fault.code}"}}
                return fault.status, headers, err
            for name, pattern in ROUTES:
                m = pattern.match(path)
                if m:
                    try:
                        result: tuple[int, dict[str, str], Any] = getattr(self, f"_{name}")(
                            method, m.groupdict(), query, body
                        )
                        return result
                    except ArmError as e:
                        return e.status, {}, {"error": {"code": e.code, "message": e.message}}
            return 404, {}, {"error": {"code": "NoRoute", "message": f"fake has no {path}"}}

    def _fault(self, method: str, path: str) -> Fault | None:
        for f in self.state.faults:
            if f.method == method and f.path.search(path) and f.times != 0:
                if f.times is not None:
                    f.times -= 1
                return f
        return None

    def _operation(self, polls: int = 1, error: dict[str, str] | None = None) -> dict[str, str]:
        op = f"op{next(self._ids)}"
        self.state.operations[op] = Operation(polls, error)
        return {"Azure-AsyncOperation": f"{self.base_url}/fake-operations/{op}"}

    def _check_sub(self, groups: dict[str, str]) -> None:
        if groups["sub"] != SUBSCRIPTION:
            raise ArmError(404, "SubscriptionNotFound", f"no subscription {groups['sub']}")

    def _require_group(self, groups: dict[str, str]) -> dict[str, Any]:
        self._check_sub(groups)
        g = self.state.groups.get(groups["rg"].lower())
        if g is None:
            raise ArmError(
                404, "ResourceGroupNotFound", f"Resource group '{groups['rg']}' could not be found."
            )
        return g

    def _group_body(self, name: str, location: str, tags: dict[str, str]) -> dict[str, Any]:
        return {
            "id": f"/subscriptions/{SUBSCRIPTION}/resourceGroups/{name}",
            "name": name,
            "type": "Microsoft.Resources/resourceGroups",
            "location": location,
            "tags": tags,
            "properties": {"provisioningState": "Succeeded"},
        }

    def _groups(self, method: str, g: dict[str, str], q: dict[str, str], body: Any) -> Any:
        self._check_sub(g)
        return 200, {}, {"value": list(self.state.groups.values())}

    def _group(self, method: str, g: dict[str, str], q: dict[str, str], body: Any) -> Any:
        self._check_sub(g)
        key = g["rg"].lower()
        found = self.state.groups.get(key)
        if method == "HEAD":
            return (204 if found else 404), {}, None
        if method == "PUT":
            self.state.groups[key] = self._group_body(
                g["rg"], body["location"], body.get("tags") or {}
            )
            return (200 if found else 201), {}, self.state.groups[key]
        if found is None:
            raise ArmError(
                404, "ResourceGroupNotFound", f"Resource group '{g['rg']}' could not be found."
            )
        if method == "GET":
            return 200, {}, found
        if method == "DELETE":
            self._delete_group(key)
            op = f"op{next(self._ids)}"
            self.state.operations[op] = Operation(1)
            location = f"{self.base_url}/fake-operations/{op}?kind=location"
            return 202, {"Location": location, "Retry-After": "0"}, None
        raise ArmError(405, "MethodNotAllowed", method)

    def _delete_group(self, key: str) -> None:
        prefix = self.state.groups[key]["id"].lower() + "/"
        for rid in [r for r in self.state.resources if r.startswith(prefix)]:
            res = self.state.resources.pop(rid)
            if res["type"] == "Microsoft.Compute/virtualMachines":
                self.hosts.delete(rid)
            if res["type"] == "Microsoft.Network/virtualNetworks":
                for s in res["properties"].get("subnets", []):
                    self.hosts.delete_bridge(s["properties"]["addressPrefix"])
        del self.state.groups[key]

    def _poll(self, method: str, g: dict[str, str], q: dict[str, str], body: Any) -> Any:
        op_id, kind = g["op"], q.get("kind")
        op = self.state.operations.get(op_id)
        if op is None:
            raise ArmError(404, "NotFound", op_id)
        if op.polls_left > 0:
            op.polls_left -= 1
            if kind == "location":
                return (
                    202,
                    {"Location": f"{self.base_url}/fake-operations/{op_id}?kind=location"},
                    None,
                )
            return 200, {}, {"status": "InProgress"}
        if kind == "location":
            return 200, {}, None
        if op.error is not None:
            return 200, {}, {"status": "Failed", "error": op.error}
        return 200, {}, {"status": "Succeeded"}

    def _prices(self, method: str, g: dict[str, str], q: dict[str, str], body: Any) -> Any:
        """The Retail Prices API: items matching $filter, a page at a time ($skip)."""
        text = q.get("$filter", "")
        self.state.price_filters.append(text)
        groups = parse_filter(text) if text else []
        items = [
            i
            for i in self.state.prices
            if all(any(i.get(f) == v for f, v in grp) for grp in groups)
        ]
        skip = int(q.get("$skip", "0"))
        page = items[skip : skip + self.state.price_page_size]
        nxt = None
        if skip + len(page) < len(items):
            nxt = f"{self.base_url}{PRICES_PATH}?" + urlencode(
                {**q, "$skip": str(skip + len(page))}
            )
        return (
            200,
            {},
            {
                "BillingCurrency": q.get("currencyCode", "USD"),
                "Items": page,
                "NextPageLink": nxt,
                "Count": len(page),
            },
        )

    def _skus(self, method: str, g: dict[str, str], q: dict[str, str], body: Any) -> Any:
        self._check_sub(g)
        loc = re.search(r"location eq '([^']+)'", q.get("$filter", ""))
        where = [loc.group(1)] if loc else ["westeurope"]
        return (
            200,
            {},
            {
                "value": [
                    {
                        "resourceType": "virtualMachines",
                        "name": size,
                        "tier": "Standard",
                        "family": family,
                        "locations": where,
                        "capabilities": [{"name": "vCPUs", "value": str(vcpus)}],
                        "restrictions": [],
                    }
                    for size, (family, vcpus) in SKUS.items()
                ]
            },
        )

    def _used(self) -> dict[str, int]:
        used: dict[str, int] = {"cores": 0}
        for res in self.state.resources.values():
            if res["type"] == "Microsoft.Compute/virtualMachines":
                family, vcpus = SKUS[res["properties"]["hardwareProfile"]["vmSize"]]
                used[family] = used.get(family, 0) + vcpus
                used["cores"] += vcpus
        return used

    def _usages(self, method: str, g: dict[str, str], q: dict[str, str], body: Any) -> Any:
        self._check_sub(g)
        used = self._used()
        families = {"cores", *(f for f, _ in SKUS.values())}
        return (
            200,
            {},
            {
                "value": [
                    {
                        "name": {"value": f, "localizedValue": f},
                        "currentValue": used.get(f, 0),
                        "limit": self.state.quota.get(f, 100),
                        "unit": "Count",
                    }
                    for f in sorted(families)
                ]
            },
        )

    def _list(self, method: str, g: dict[str, str], q: dict[str, str], body: Any) -> Any:
        group = self._require_group(g)
        prefix = f"{group['id']}/providers/{g['type']}/".lower()
        items = [r for rid, r in self.state.resources.items() if rid.startswith(prefix)]
        return 200, {}, {"value": items}

    def _resource(self, method: str, g: dict[str, str], q: dict[str, str], body: Any) -> Any:
        group = self._require_group(g)
        rid = f"{group['id']}/providers/{g['type']}/{g['name']}"
        found = self.state.resources.get(rid.lower())
        if method == "GET":
            if found is None:
                raise ArmError(
                    404,
                    "ResourceNotFound",
                    f"The Resource '{g['type']}/{g['name']}' was not found.",
                )
            return 200, {}, found
        if method != "PUT":
            raise ArmError(405, "MethodNotAllowed", method)
        kind = g["type"].lower()
        res = {
            "id": rid,
            "name": g["name"],
            "type": TYPES.get(kind, g["type"]),
            "location": body["location"],
            "tags": body.get("tags") or {},
            "properties": dict(body.get("properties") or {}),
        }
        if "sku" in body:
            res["sku"] = body["sku"]
        if body.get("zones"):
            res["zones"] = list(body["zones"])
        ops = getattr(self, f"_put_{kind.split('/')[1]}", None)
        if ops is None:
            raise ArmError(400, "UnsupportedResourceType", g["type"])
        ops(res)
        res["properties"]["provisioningState"] = "Succeeded"
        self.state.resources[rid.lower()] = res
        return (200 if found else 201), self._operation(), res

    def _put_networksecuritygroups(self, res: dict[str, Any]) -> None:
        for rule in res["properties"].get("securityRules", []):
            rule["id"] = f"{res['id']}/securityRules/{rule['name']}"

    def _put_virtualnetworks(self, res: dict[str, Any]) -> None:
        for s in res["properties"].get("subnets", []):
            why = self.hosts.check_subnet(s["properties"]["addressPrefix"])
            if why:
                raise ArmError(400, "InvalidAddressPrefix", why)
            s["id"] = f"{res['id']}/subnets/{s['name']}"

    def _put_publicipaddresses(self, res: dict[str, Any]) -> None:
        # Documentation range (TEST-NET-2): data only, never connected to.
        n = sum(1 for r in self.state.resources.values() if "publicIPAddresses" in r["type"])
        res["properties"]["ipAddress"] = f"198.51.100.{n + 10}"

    def _subnet(self, subnet_id: str) -> dict[str, Any]:
        vnet_id, _, name = subnet_id.rpartition("/subnets/")
        vnet = self.state.resources.get(vnet_id.lower())
        for s in (vnet or {}).get("properties", {}).get("subnets", []):
            if s["name"].lower() == name.lower():
                return dict(s)
        raise ArmError(400, "InvalidResourceReference", f"subnet {subnet_id} not found")

    def _put_networkinterfaces(self, res: dict[str, Any]) -> None:
        taken = {
            c["properties"].get("privateIPAddress")
            for r in self.state.resources.values()
            if r["type"] == "Microsoft.Network/networkInterfaces"
            for c in r["properties"]["ipConfigurations"]
        }
        for conf in res["properties"]["ipConfigurations"]:
            props = conf["properties"]
            subnet = self._subnet(props["subnet"]["id"])
            pip = props.get("publicIPAddress")
            if pip and pip["id"].lower() not in self.state.resources:
                raise ArmError(400, "InvalidResourceReference", f"{pip['id']} not found")
            # Azure keeps the first four addresses of a subnet; VMs get .4, .5, ...
            hosts = ipaddress.ip_network(subnet["properties"]["addressPrefix"]).hosts()
            free = (str(a) for i, a in enumerate(hosts) if i >= 3 and str(a) not in taken)
            props["privateIPAddress"] = next(free)
            conf["id"] = f"{res['id']}/ipConfigurations/{conf['name']}"

    def _put_virtualmachines(self, res: dict[str, Any]) -> None:
        props = res["properties"]
        size = props["hardwareProfile"]["vmSize"]
        if size not in SKUS:
            raise ArmError(409, "SkuNotAvailable", f"The requested size {size} is not available")
        family, vcpus = SKUS[size]
        used = self._used()
        for quota in (family, "cores"):
            limit = self.state.quota.get(quota, 100)
            if used.get(quota, 0) + vcpus > limit:
                raise ArmError(
                    409,
                    "QuotaExceeded",
                    f"{quota}: limit {limit}, in use {used.get(quota, 0)}, requested {vcpus}",
                )
        nic_ref = props["networkProfile"]["networkInterfaces"][0]["id"]
        nic = self.state.resources.get(nic_ref.lower())
        if nic is None:
            raise ArmError(400, "InvalidResourceReference", f"{nic_ref} not found")
        conf = nic["properties"]["ipConfigurations"][0]["properties"]
        prefix = self._subnet(conf["subnet"]["id"])["properties"]["addressPrefix"]
        os_profile = props["osProfile"]
        login = [k["keyData"] for k in os_profile["linuxConfiguration"]["ssh"]["publicKeys"]]
        self.hosts.create(
            res["id"].lower(),
            conf["privateIPAddress"],
            prefix,
            os_profile["customData"],
            os_profile["adminUsername"],
            login,
            size,
        )
        props["vmId"] = str(uuid.uuid4())
        # ARM never returns custom data.
        res["properties"]["osProfile"] = {k: v for k, v in os_profile.items() if k != "customData"}
        res["power"] = "running"

    def _vm_action(self, method: str, g: dict[str, str], q: dict[str, str], body: Any) -> Any:
        group = self._require_group(g)
        rid = f"{group['id']}/providers/Microsoft.Compute/virtualMachines/{g['name']}".lower()
        vm = self.state.resources.get(rid)
        if vm is None:
            raise ArmError(404, "ResourceNotFound", g["name"])
        action = g["action"].lower()
        if action == "instanceview" and method == "GET":
            return (
                200,
                {},
                {
                    "statuses": [
                        {"code": "ProvisioningState/succeeded", "level": "Info"},
                        {"code": f"PowerState/{vm['power']}", "level": "Info"},
                    ]
                },
            )
        if method != "POST":
            raise ArmError(405, "MethodNotAllowed", method)
        if action == "deallocate":
            self.hosts.deallocate(rid)
            vm["power"] = "deallocated"
        elif action == "start":
            self.hosts.start(rid)
            vm["power"] = "running"
        return 202, self._operation(), None


class _Handler(BaseHTTPRequestHandler):
    fake: FakeArm
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the fake's own log (FakeArm.requests) is what tests read

    def _serve(self) -> None:
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers: dict[str, str] = {}
        # The Retail Prices API takes no token, as Azure's does not.
        if url.path != PRICES_PATH and self.headers.get("Authorization") != f"Bearer {TOKEN}":
            status = 401
            body: Any = {"error": {"code": "AuthenticationFailed", "message": "no token"}}
        else:
            status, headers, body = self.fake.handle(
                self.command, url.path, query, json.loads(raw) if raw else None
            )
        with self.fake.lock:
            self.fake.state.log.append(Logged(self.command, url.path, status, time.monotonic()))
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = do_PATCH = _serve


def iter_namespaces() -> Iterator[str]:
    """Namespaces on this machine (to check that none of the fake's is left)."""
    import subprocess

    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=30)
    for line in out.stdout.splitlines():
        if line.strip():
            yield line.split()[0]
