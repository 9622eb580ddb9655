"""The New Azure testbed page's server side: its defaults (templates, expiry and its maximum
from the settings) and the plan of a testbed before anything is created."""

from fastapi import APIRouter

from backend.api.deps import SessionDep
from backend.api.routes.azure_labs import checked_spec
from backend.azure.arm import arm_clients
from backend.azure.lab_spec import LabSpec
from backend.azure.plan_preview import plan
from backend.core.config import settings
from backend.crud.prices import list_prices
from backend.domain.azure_lab_rules import DEFAULT_EXPIRY_HOURS, MIN_EXPIRY_HOURS
from backend.domain.azure_templates import (
    CLIENT_SIZE,
    MIDDLEWARE_SIZE,
    SERVER_SIZE,
    TEMPLATES,
)
from backend.schemas.azure_lab import AzureLabCreate
from backend.schemas.azure_plan import (
    AzureLabDefaultsPublic,
    AzureLabPlanPublic,
    AzureTemplatePublic,
)

# Included before the azure-labs router: /azure-labs/defaults is not a lab id.
router = APIRouter(prefix="/azure-labs", tags=["azure-labs"])

DEFAULT_REGION = "westeurope"
# The Retail Prices API answers in USD unless asked for another currency
# (backend/azure/retail_prices.py).
DEFAULT_CURRENCY = "USD"


@router.get("/defaults", response_model=AzureLabDefaultsPublic)
def read_azure_lab_defaults(session: SessionDep) -> AzureLabDefaultsPublic:
    """Templates, the suggested region and image, the expiry's default and maximum, and the
    currency a budget is given in."""
    currencies = {p.currency for p in list_prices(session, DEFAULT_REGION)}
    return AzureLabDefaultsPublic(
        currency=currencies.pop() if len(currencies) == 1 else DEFAULT_CURRENCY,
        configured=bool(settings.AZURE_SUBSCRIPTION_ID),
        templates=[
            AzureTemplatePublic(
                name=t.name,
                label=t.label,
                servers=t.servers,
                middlewares=t.middlewares,
                clients=t.clients,
                server_size=SERVER_SIZE,
                middleware_size=MIDDLEWARE_SIZE,
                client_size=CLIENT_SIZE,
            )
            for t in TEMPLATES
        ],
        region=DEFAULT_REGION,
        image=str(LabSpec.model_fields["image"].default),
        default_expiry_hours=min(DEFAULT_EXPIRY_HOURS, settings.AZURE_MAX_EXPIRY_HOURS),
        min_expiry_hours=MIN_EXPIRY_HOURS,
        max_expiry_hours=settings.AZURE_MAX_EXPIRY_HOURS,
    )


@router.post("/plan", response_model=AzureLabPlanPublic)
def plan_azure_lab(session: SessionDep, body: AzureLabCreate) -> AzureLabPlanPublic:
    """What creating this lab would make, the quota it needs and what it would cost; nothing
    is created. Bad values are 422s naming the field, as on create."""
    spec, key_missing = checked_spec(session, body, plan_only=True)
    planned = plan(session, spec, body.budget, arm_clients)
    return planned.model_copy(update={"key_missing": key_missing})
