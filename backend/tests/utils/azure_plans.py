"""The request body of an Azure plan (create a lab, show its plan, rehearse it), as the New
Azure testbed page sends it: one VM of each role by default, the fields a test changes given."""

from typing import Any


def plan_request(name: str, key_path: str = "mcscope_azure", **over: Any) -> dict[str, Any]:
    return {
        "name": name,
        "region": "westeurope",
        "servers": {"count": 1, "size": "Standard_A1_v2"},
        "middlewares": {"count": 1, "size": "Standard_A2_v2"},
        "clients": {"count": 1, "size": "Standard_A2_v2"},
        "key_path": key_path,
        "ssh_source_cidr": "203.0.113.0/24",
        "jump_host": False,
        **over,
    }
