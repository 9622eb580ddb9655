"""Topology templates offered on the New Azure testbed page: the reports' testbed (3 clients,
1 middleware, 3 servers), its two-middleware variant, and a small one to start from. Sizes are
the current successors of the reports' retired Basic A sizes
(backend.domain.azure_lab_rules.RETIRED_SIZES)."""

from dataclasses import dataclass

from backend.domain.azure_lab_rules import RETIRED_SIZES

SERVER_SIZE = RETIRED_SIZES["Basic_A1"]
CLIENT_SIZE = RETIRED_SIZES["Basic_A2"]
MIDDLEWARE_SIZE = RETIRED_SIZES["Basic_A4"]


@dataclass(frozen=True)
class AzureTemplate:
    name: str
    label: str
    servers: int
    middlewares: int
    clients: int


TEMPLATES = (
    AzureTemplate("reports", "The reports' testbed: 3 clients, 1 middleware, 3 servers", 3, 1, 3),
    AzureTemplate(
        "two-middlewares", "Two middlewares: 3 clients, 2 middlewares, 3 servers", 3, 2, 3
    ),
    AzureTemplate("custom", "Custom counts (starts at 1 of each)", 1, 1, 1),
)
