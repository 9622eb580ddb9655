"""A fake `az` executable for the tests (Azure's API cannot be reached here): records every
invocation as a JSON line and answers show/create/delete/list from a small JSON state file."""

from __future__ import annotations

import ipaddress
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

STATE = Path(os.environ["FAKE_AZ_STATE"])
LOG = Path(os.environ["FAKE_AZ_LOG"])


def opt(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1]


def not_found(what: str) -> int:
    sys.stderr.write(f"ERROR: (ResourceNotFound) The Resource '{what}' was not found.\n")
    return 3


def load() -> dict[str, Any]:
    if STATE.exists():
        data: dict[str, Any] = json.loads(STATE.read_text())
        return data
    return {"resources": {}, "vms": []}


def key(argv: list[str]) -> tuple[str, str]:
    """Resource kind and name of a show/create call, e.g. ('network vnet subnet', 'x')."""
    verb = next(i for i, a in enumerate(argv) if a in ("show", "create"))
    return " ".join(argv[:verb]), opt(argv, "--name")


def vm_create(state: dict[str, Any], argv: list[str]) -> dict[str, Any]:
    subnet = state["resources"].get(f"network vnet subnet:{opt(argv, '--subnet')}")
    if subnet is None:
        raise SystemExit(not_found(opt(argv, "--subnet")))
    hosts = list(ipaddress.ip_network(subnet["prefix"]).hosts())
    # Azure keeps the first four addresses of a subnet; VMs get .4, .5, ...
    ip = str(hosts[3 + len(state["vms"])])
    custom = opt(argv, "--custom-data") if "--custom-data" in argv else None
    if custom is not None and not Path(custom).is_file():
        raise SystemExit(not_found(custom))
    public = opt(argv, "--public-ip-address")
    vm = {
        "name": opt(argv, "--name"),
        "rg": opt(argv, "--resource-group"),
        "ip": ip,
        "size": opt(argv, "--size"),
        "public": public,
        "custom_data": custom,
    }
    state["vms"].append(vm)
    return {"name": vm["name"], "privateIpAddress": ip, "powerState": "VM running"}


def main(argv: list[str]) -> int:
    with LOG.open("a") as f:
        f.write(json.dumps(argv) + "\n")
    if os.environ.get("FAKE_AZ_SLEEP"):
        time.sleep(float(os.environ["FAKE_AZ_SLEEP"]))
    if os.environ.get("FAKE_AZ_LOGGED_OUT"):
        sys.stderr.write("ERROR: Please run 'az login' to setup account.\n")
        return 1
    if argv[-2:] == ["--output", "json"]:
        argv = argv[:-2]
    state = load()
    res = state["resources"]
    out: Any = None
    if argv[:2] == ["group", "delete"]:
        state = {"resources": {}, "vms": []}
    elif argv[:2] == ["vm", "list-ip-addresses"]:
        out = [
            {
                "virtualMachine": {
                    "name": v["name"],
                    "resourceGroup": v["rg"],
                    "network": {
                        "privateIpAddresses": [v["ip"]],
                        "publicIpAddresses": [{"ipAddress": "198.51.100.7", "name": v["public"]}]
                        if v["public"]
                        else [],
                    },
                }
            }
            for v in state["vms"]
        ]
    elif argv[:2] == ["vm", "list"]:
        out = [
            {
                "name": v["name"],
                "powerState": "VM running",
                "privateIps": v["ip"],
                "publicIps": "198.51.100.7" if v["public"] else "",
                "hardwareProfile": {"vmSize": v["size"]},
            }
            for v in state["vms"]
        ]
    elif argv[:2] == ["vm", "show"]:
        names = [v["name"] for v in state["vms"]]
        if opt(argv, "--name") not in names:
            return not_found(opt(argv, "--name"))
        out = {"name": opt(argv, "--name")}
    elif argv[:2] == ["vm", "create"]:
        out = vm_create(state, argv)
    elif "show" in argv or "create" in argv:
        kind, name = key(argv)
        if "show" in argv:
            if f"{kind}:{name}" not in res:
                return not_found(name)
            out = res[f"{kind}:{name}"]
        else:
            prefix = opt(argv, "--address-prefixes") if "--address-prefixes" in argv else None
            res[f"{kind}:{name}"] = out = {"name": name, "prefix": prefix}
    else:
        sys.stderr.write(f"ERROR: fake az does not know {argv[:3]}\n")
        return 2
    STATE.write_text(json.dumps(state))
    if out is not None:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
