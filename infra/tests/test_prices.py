"""The Retail Prices API fetcher against the fake's prices endpoint (on 127.0.0.1, the only
place tests reach): the $filter it sends, every page followed through NextPageLink, only the
pay-as-you-go Linux meter kept, and the refresh storing each price dated, with its source."""

from __future__ import annotations

import ssl
from datetime import UTC, datetime

import pytest
from sqlalchemy.orm import Session

from backend import cli
from backend.azure.retail_prices import fetch_prices, price_filter, refresh
from backend.crud.prices import prices_for, set_price
from backend.models import PriceSource
from infra.tests.fake_arm import PRICES_PATH, FakeArm, parse_filter, retail_items

# Reaches the test hosts but runs no load on them: with the load-free tests (conftest.py).
pytestmark = pytest.mark.hosts_without_load

SIZES = ["Standard_A1_v2", "Standard_A2_v2", "Standard_B2s"]


def _ca(fake: FakeArm) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(fake.cert))


def _url(fake: FakeArm) -> str:
    return fake.base_url + PRICES_PATH


def test_fetch_follows_every_page_and_keeps_the_linux_on_demand_price(fake_arm: FakeArm) -> None:
    # Another region's meters for the same sizes, priced differently: the filter leaves them.
    other = retail_items("northeurope")
    for item in other:
        item["retailPrice"] *= 10
    fake_arm.state.prices += other
    fake_arm.state.price_page_size = 3  # 12 matching meters: 4 pages
    got = fetch_prices("westeurope", SIZES, base_url=_url(fake_arm), verify=_ca(fake_arm))
    assert {s: p.price_per_hour for s, p in got.items()} == {
        "Standard_A1_v2": 0.05,
        "Standard_A2_v2": 0.1,
        "Standard_B2s": 0.1,
    }
    assert {p.currency for p in got.values()} == {"USD"}
    assert len(fake_arm.requests("GET", PRICES_PATH)) == 4
    sent = fake_arm.state.price_filters[0]
    assert sent == price_filter("westeurope", SIZES)
    groups = parse_filter(sent)
    assert [("armRegionName", "westeurope")] in groups
    assert [("type", "Consumption")] in groups
    assert [("armSkuName", s) for s in SIZES] in groups
    # Every page asked with the same filter (the link carries it).
    assert set(fake_arm.state.price_filters) == {sent}


def test_a_size_the_api_does_not_price_is_absent(fake_arm: FakeArm) -> None:
    got = fetch_prices(
        "westeurope",
        ["Standard_A1_v2", "Standard_F2s_v2"],
        base_url=_url(fake_arm),
        verify=_ca(fake_arm),
    )
    assert set(got) == {"Standard_A1_v2"}


@pytest.mark.parametrize(
    ("region", "sizes"),
    [("west europe", ["Standard_A1_v2"]), ("westeurope", ["Standard_A1' or 1 eq 1"])],
)
def test_values_are_checked_before_they_reach_the_filter(region: str, sizes: list[str]) -> None:
    with pytest.raises(ValueError):
        price_filter(region, sizes)


def test_refresh_caches_prices_with_date_and_source(fake_arm: FakeArm, db: Session) -> None:
    earlier = datetime(2026, 1, 1, tzinfo=UTC)
    set_price(db, "westeurope", "Standard_A1_v2", 9.99, "USD", PriceSource.USER, earlier)
    set_price(db, "westeurope", "Standard_F2s_v2", 0.2, "USD", PriceSource.USER, earlier)
    db.commit()
    before = datetime.now(UTC)
    stored, missing = refresh(
        db,
        "westeurope",
        ["Standard_A1_v2", "Standard_A8_v2", "Standard_F2s_v2"],
        base_url=_url(fake_arm),
        currency="USD",
        verify=_ca(fake_arm),
    )
    assert missing == ["Standard_F2s_v2"]
    assert sorted(p.size for p in stored) == ["Standard_A1_v2", "Standard_A8_v2"]
    db.expire_all()
    rows = prices_for(
        db, [("westeurope", s) for s in ("Standard_A1_v2", "Standard_A8_v2", "Standard_F2s_v2")]
    )
    a1, a8, f2 = (
        rows[("westeurope", s)] for s in ("Standard_A1_v2", "Standard_A8_v2", "Standard_F2s_v2")
    )
    # The user's A1_v2 price is replaced by the API's, dated now.
    assert (a1.price_per_hour, a1.source) == (0.05, "retail-api") and a1.fetched_at >= before
    assert (a8.price_per_hour, a8.source) == (0.4, "retail-api") and a8.fetched_at >= before
    # A size the API has no price for keeps its own, with its own date.
    assert (f2.price_per_hour, f2.source, f2.fetched_at) == (0.2, "user", earlier)


def test_the_refresh_command_prints_and_stores_prices(
    fake_arm: FakeArm, db: Session, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["prices", "refresh", "--region", "westeurope", "--url", _url(fake_arm)]
    argv += ["--ca-file", str(fake_arm.cert), "--sizes", "Standard_B2s"]
    assert cli.main(argv) == 0
    assert "Standard_B2s\t0.1000 USD/h\tretail-api" in capsys.readouterr().out
    row = prices_for(db, [("westeurope", "Standard_B2s")])[("westeurope", "Standard_B2s")]
    assert (row.price_per_hour, row.source) == (0.1, "retail-api")
    # A size the API does not price is named, and the exit status says so.
    assert cli.main([*argv[:-1], "Standard_F4s_v2"]) == 1
    assert "Standard_F4s_v2\tno price in the Retail Prices API" in capsys.readouterr().err
