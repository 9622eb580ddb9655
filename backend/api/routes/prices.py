"""VM prices per region and size: list them (each with its date and source), or set one by
hand (offline, or a rate the Retail Prices API does not know)."""

from fastapi import APIRouter, Path, Query

from backend.api.deps import SessionDep
from backend.crud.prices import list_prices, set_price
from backend.domain.azure_lab_rules import SIZE_PATTERN
from backend.models import PriceSource
from backend.schemas.price import VmPricePublic, VmPriceSet, VmPricesPublic

router = APIRouter(prefix="/prices", tags=["prices"])

RegionPath = Path(
    min_length=2, max_length=40, pattern=r"^[a-z][a-z0-9]*$", description="Azure region"
)
SizePath = Path(max_length=64, pattern=SIZE_PATTERN, description="VM size, e.g. Standard_A2_v2")


@router.get("", response_model=VmPricesPublic)
def read_prices(
    session: SessionDep,
    region: str | None = Query(
        default=None, max_length=40, pattern=r"^[a-z][a-z0-9]*$", description="only this region"
    ),
) -> VmPricesPublic:
    """Stored VM prices, by region and size, each with its date and source."""
    rows = list_prices(session, region)
    return VmPricesPublic(data=[VmPricePublic.model_validate(r) for r in rows], count=len(rows))


@router.put("/{region}/{size}", response_model=VmPricePublic)
def put_price(
    session: SessionDep,
    body: VmPriceSet,
    region: str = RegionPath,
    size: str = SizePath,
) -> VmPricePublic:
    """Set the hourly price of one VM size in one region by hand (source "user", dated now);
    a later `prices refresh` replaces it with the Retail Prices API's."""
    row = set_price(session, region, size, body.price_per_hour, body.currency, PriceSource.USER)
    out = VmPricePublic.model_validate(row)
    session.commit()
    return out
