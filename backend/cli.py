"""Administration commands: `python -m backend.cli token create|list|revoke`.

A token is printed once, at creation; only its digest is stored.
"""

import argparse
import sys

from sqlalchemy.exc import IntegrityError

from backend.core import tokens
from backend.core.db import SessionLocal


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m backend.cli", description=__doc__)
    groups = parser.add_subparsers(dest="group", required=True)
    token = groups.add_parser("token", help="API bearer tokens")
    actions = token.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="create a token and print it once")
    create.add_argument("name", help="who or what uses it (unique), e.g. alice or ci")
    actions.add_parser("list", help="token names, creation dates, revoked or not")
    revoke = actions.add_parser("revoke", help="revoke a token by name")
    revoke.add_argument("name")
    return parser


def _check_name(name: str) -> str:
    name = name.strip()
    if not 1 <= len(name) <= 100:
        raise SystemExit("error: a token name has 1 to 100 characters")
    return name


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    with SessionLocal() as session:
        if args.action == "create":
            name = _check_name(args.name)
            try:
                token = tokens.create(session, name)
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
        if args.action == "revoke":
            if not tokens.revoke(session, args.name):
                print(f"error: no active token named {args.name!r}", file=sys.stderr)
                return 1
            print(f"token {args.name!r} revoked")
            return 0
        for row in tokens.listing(session):
            state = f"revoked {row.revoked_at:%Y-%m-%d %H:%M}" if row.revoked_at else "active"
            print(f"{row.name}\tcreated {row.created_at:%Y-%m-%d %H:%M}\t{state}")
        return 0


if __name__ == "__main__":
    sys.exit(main())
