"""Administration commands: `python -m backend.cli token create|list|revoke|rotate-admin` and
`python -m backend.cli prices refresh|list`.

A token is printed once, at creation; only its digest is stored.
"""

import argparse
import ssl
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from backend.azure import retail_prices
from backend.core import tokens
from backend.core.config import settings
from backend.core.db import SessionLocal
from backend.crud import prices
from backend.models import ApiToken


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m backend.cli", description=__doc__)
    groups = parser.add_subparsers(dest="group", required=True)
    token = groups.add_parser("token", help="API bearer tokens")
    actions = token.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="create a token and print it once")
    create.add_argument("name", help="who or what uses it (unique), e.g. alice or ci")
    expiry = create.add_mutually_exclusive_group()
    expiry.add_argument(
        "--expires-in-days",
        type=float,
        metavar="DAYS",
        help=f"valid for DAYS days (default MCSCOPE_TOKEN_TTL_DAYS: {settings.TOKEN_TTL_DAYS})",
    )
    expiry.add_argument("--no-expiry", action="store_true", help="valid until revoked")
    actions.add_parser("list", help="token names, creation dates, expiry, revoked or not")
    revoke = actions.add_parser("revoke", help="revoke a token by name")
    revoke.add_argument("name")
    rotate = actions.add_parser(
        "rotate-admin",
        help="replace the admin token (MCSCOPE_ADMIN_TOKEN, var/admin-token): revoke it, "
        "write a new one to the file and print it",
    )
    rotate.add_argument(
        "--file",
        type=Path,
        default=settings.VAR_DIR / "admin-token",
        help="where `make up` keeps the admin token (default: %(default)s)",
    )
    price_cmd = groups.add_parser("prices", help="Azure VM prices (per region and size)")
    pactions = price_cmd.add_subparsers(dest="action", required=True)
    refresh = pactions.add_parser(
        "refresh", help="fetch prices from the Azure Retail Prices API (needs the internet)"
    )
    refresh.add_argument("--region", required=True, help="Azure region, e.g. westeurope")
    refresh.add_argument("--sizes", nargs="+", required=True, help="e.g. Standard_A2_v2")
    refresh.add_argument(
        "--url", default=settings.AZURE_PRICES_URL, help="API URL (default: %(default)s)"
    )
    refresh.add_argument(
        "--currency", default=settings.AZURE_PRICES_CURRENCY, help="default: %(default)s"
    )
    refresh.add_argument(
        "--ca-file", type=Path, help="trust this CA bundle (a TLS-inspecting proxy, a test server)"
    )
    plist = pactions.add_parser("list", help="stored prices with their date and source")
    plist.add_argument("--region")
    return parser


def _prices(session: Session, args: argparse.Namespace) -> int:
    if args.action == "list":
        for p in prices.list_prices(session, args.region):
            print(
                f"{p.region}\t{p.size}\t{p.price_per_hour:.4f} {p.currency}/h\t"
                f"{p.source} {p.fetched_at:%Y-%m-%d %H:%M}"
            )
        return 0
    try:
        stored, missing = retail_prices.refresh(
            session,
            args.region,
            args.sizes,
            base_url=args.url,
            currency=args.currency,
            verify=ssl.create_default_context(cafile=str(args.ca_file)) if args.ca_file else True,
        )
    except (ValueError, RuntimeError, OSError, httpx.HTTPError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for p in stored:
        print(f"{p.region}\t{p.size}\t{p.price_per_hour:.4f} {p.currency}/h\tretail-api")
    for size in missing:
        print(f"{args.region}\t{size}\tno price in the Retail Prices API", file=sys.stderr)
    return 1 if missing else 0


def _expiry(args: argparse.Namespace) -> datetime | None:
    if args.no_expiry:
        return None
    if args.expires_in_days is None:
        return tokens.default_expiry()
    if not args.expires_in_days > 0:
        raise SystemExit("error: --expires-in-days must be positive")
    return datetime.now(UTC) + timedelta(days=args.expires_in_days)


def _state(row: ApiToken) -> str:
    if row.revoked_at is not None:
        return f"revoked {row.revoked_at:%Y-%m-%d %H:%M}"
    if row.expires_at is None:
        return "active, no expiry"
    if not tokens.active(row):
        return f"expired {row.expires_at:%Y-%m-%d %H:%M}"
    return f"active, expires {row.expires_at:%Y-%m-%d %H:%M}"


def _check_name(name: str) -> str:
    name = name.strip()
    if not 1 <= len(name) <= 100:
        raise SystemExit("error: a token name has 1 to 100 characters")
    return name


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    with SessionLocal() as session:
        if args.group == "prices":
            return _prices(session, args)
        if args.action == "create":
            name = _check_name(args.name)
            try:
                token = tokens.create(session, name, _expiry(args))
            except IntegrityError:
                print(f"error: a token named {name!r} already exists", file=sys.stderr)
                return 1
            print(token)
            print(
                f"token {name!r} created; it is shown only now. "
                "Send it as `Authorization: Bearer <token>` or paste it on the login page.",
                file=sys.stderr,
            )
            return 0
        if args.action == "rotate-admin":
            token = tokens.rotate_admin(session, args.file)
            print(token)
            print(
                f"admin token replaced and written to {args.file}; the old one is refused from "
                "now on. A running API accepts the new one at once; where MCSCOPE_ADMIN_TOKEN "
                "is set (Docker, .env), set it to the new token.",
                file=sys.stderr,
            )
            return 0
        if args.action == "revoke":
            if not tokens.revoke(session, args.name):
                print(f"error: no active token named {args.name!r}", file=sys.stderr)
                return 1
            print(f"token {args.name!r} revoked")
            return 0
        for row in tokens.listing(session):
            print(f"{row.name}\tcreated {row.created_at:%Y-%m-%d %H:%M}\t{_state(row)}")
        return 0


if __name__ == "__main__":
    sys.exit(main())
