"""Money on an Azure testbed: the hourly price of its VMs, an experiment's estimated cost and
what the testbed has cost so far. Prices come from vm_prices only; a VM without one makes the
total unknown (listed as unpriced), never guessed."""

from collections import Counter
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.crud.prices import prices_for
from backend.models import AzureLab, Host, Testbed, TestbedKind
from backend.schemas.price import CostLinePublic, CostPublic, TestbedCostPublic, VmPricePublic

ESTIMATE_COUNTED = (
    "runs x (run time + overhead per run) x the hourly price of every VM of the testbed "
    "(its hosts and its jump host), all running"
)
ACCRUED_COUNTED = (
    "every VM of the testbed (its hosts and its jump host) running from the lab's request to "
    "its deletion or now; stopped (deallocated) time is not subtracted, so this is an upper "
    "bound; disks, IPs and traffic are not counted"
)


def lab_of(session: Session, testbed_id: int) -> AzureLab | None:
    return session.scalar(
        select(AzureLab).where(AzureLab.testbed_id == testbed_id).order_by(AzureLab.id.desc())
    )


def testbed_vms(session: Session, testbed: Testbed) -> list[tuple[str, str]]:
    """(region, size) of every billed VM: the hosts that record theirs, and the jump host of
    the lab it was created as (a VM, billed, but not an mcscope host)."""
    hosts = session.scalars(select(Host).where(Host.testbed_id == testbed.id)).all()
    vms = [(h.region, h.size) for h in hosts if h.region and h.size]
    lab = lab_of(session, testbed.id)
    if lab is not None:
        jump = lab.spec.get("jump_host") or {}
        if jump.get("enabled", True) and jump.get("size") and lab.spec.get("region"):
            vms.append((str(lab.spec["region"]), str(jump["size"])))
    return vms


def cost(session: Session, vms: list[tuple[str, str]], hours: float, counted: str) -> CostPublic:
    """What `vms` cost over `hours`, with each price's date and source."""
    counts = Counter(vms)
    prices = prices_for(session, counts)
    lines = [
        CostLinePublic(
            region=region,
            size=size,
            count=n,
            price=VmPricePublic.model_validate(prices[(region, size)])
            if (region, size) in prices
            else None,
        )
        for (region, size), n in sorted(counts.items())
    ]
    unpriced = [f"{line.region}/{line.size}" for line in lines if line.price is None]
    currencies = {line.price.currency for line in lines if line.price is not None}
    per_hour: float | None = None
    if not unpriced and len(currencies) == 1 and lines:
        per_hour = sum(line.count * line.price.price_per_hour for line in lines if line.price)
    return CostPublic(
        vms=lines,
        hours=hours,
        per_hour=per_hour,
        amount=None if per_hour is None else per_hour * hours,
        currency=next(iter(currencies)) if len(currencies) == 1 else None,
        unpriced=unpriced,
        counted=counted
        if len(currencies) <= 1
        else counted + "; prices in different currencies are not added",
    )


def estimate(session: Session, testbed_id: int | None, seconds: int) -> CostPublic | None:
    """The cost of `seconds` of the testbed's VMs (an experiment's duration estimate); None
    for a testbed that is not on Azure."""
    testbed = session.get(Testbed, testbed_id) if testbed_id is not None else None
    if testbed is None or testbed.kind != TestbedKind.AZURE:
        return None
    return cost(session, testbed_vms(session, testbed), seconds / 3600, ESTIMATE_COUNTED)


def accrued(
    session: Session, testbed: Testbed, now: datetime | None = None
) -> TestbedCostPublic | None:
    """What the testbed has cost since its lab was requested; None for a testbed not created
    as an Azure lab (nothing records when its VMs started)."""
    lab = lab_of(session, testbed.id) if testbed.kind == TestbedKind.AZURE else None
    if lab is None:
        return None
    until = lab.deleted_at or now or datetime.now(UTC)
    hours = max(0.0, (until - lab.created_at).total_seconds() / 3600)
    so_far = cost(session, testbed_vms(session, testbed), hours, ACCRUED_COUNTED)
    remaining = None if lab.budget is None or so_far.amount is None else lab.budget - so_far.amount
    return TestbedCostPublic(
        accrued=so_far, since=lab.created_at, until=until, budget=lab.budget, remaining=remaining
    )


def over_budget(
    session: Session, testbed_id: int | None, seconds: int, now: datetime | None = None
) -> tuple[str, dict[str, float | str | None]] | None:
    """Why running `seconds` more on the testbed is refused, with the numbers; None when it
    fits, or the testbed has no budget. With a budget, a VM without a price is refused too:
    the estimate cannot be known."""
    testbed = session.get(Testbed, testbed_id) if testbed_id is not None else None
    money = accrued(session, testbed, now) if testbed is not None else None
    if money is None or money.budget is None:
        return None
    est = estimate(session, testbed_id, seconds)
    assert est is not None  # an Azure testbed (it has a lab)
    numbers: dict[str, float | str | None] = {
        "estimate": est.amount,
        "remaining": money.remaining,
        "budget": money.budget,
        "accrued": money.accrued.amount,
        "currency": est.currency,
    }
    if est.amount is None or money.remaining is None:
        missing = ", ".join(est.unpriced) or "prices in different currencies"
        return f"cannot check the testbed's budget: no price for {missing}", numbers
    if est.amount > money.remaining:
        return (
            f"estimated cost {est.amount:.2f} {est.currency} exceeds the testbed's remaining "
            f"budget {money.remaining:.2f} (budget {money.budget:.2f}, "
            f"{money.accrued.amount:.2f} accrued)"
        ), numbers
    return None
