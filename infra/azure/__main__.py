"""`python -m infra.azure plan|up|down|register|status --spec FILE`: provision an Azure lab
for mcscope with the az CLI and register it as a testbed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import httpx
from pydantic import ValidationError

from infra.azure.lab import (
    DEFAULT_API_URL,
    down,
    down_args,
    host_key_lines,
    register,
    status,
    up,
)
from infra.azure.plan import build_plan
from infra.azure.runner import AzError, AzRunner, command_line
from infra.azure.spec import LabSpec, load_spec


def format_errors(err: ValidationError) -> str:
    """One line per problem, led by the dotted field path (e.g. roles.server.size)."""
    lines = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"]) or "spec"
        lines.append(f"  {loc}: {e['msg']}")
    return "invalid spec:\n" + "\n".join(lines)


def default_workdir(spec: LabSpec) -> Path:
    return Path.home() / ".cache" / "mcscope" / "azure" / spec.resource_group


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m infra.azure", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    for name, help_ in [
        ("plan", "print the az commands `up` would run"),
        ("up", "create what is missing (idempotent)"),
        ("down", "delete the lab's resource group"),
        ("register", "POST the VMs to the mcscope API as an azure testbed"),
        ("status", "list the lab's VMs and their power state"),
    ]:
        c = sub.add_parser(name, help=help_)
        c.add_argument("--spec", type=Path, required=True, help="topology spec (.json/.yaml)")
        c.add_argument("--workdir", type=Path, help="where cloud-init files are written")
        if name == "down":
            c.add_argument("--yes", action="store_true", help="really delete everything")
        if name == "register":
            c.add_argument("--api-url", default=DEFAULT_API_URL, help="mcscope API base URL")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        spec = load_spec(args.spec)
    except ValidationError as e:
        print(format_errors(e), file=sys.stderr)
        return 2
    except (OSError, ValueError) as e:
        print(f"cannot read spec {args.spec}: {e}", file=sys.stderr)
        return 2
    workdir = args.workdir or default_workdir(spec)
    try:
        return _dispatch(args, spec, workdir)
    except (AzError, FileNotFoundError, LookupError, RuntimeError, httpx.HTTPError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


def _dispatch(args: argparse.Namespace, spec: LabSpec, workdir: Path) -> int:
    if args.command == "plan":
        print(f"# custom data files are written to {workdir} by `up`")
        for step in build_plan(spec, workdir):
            print(command_line(step.create))
        return 0
    if args.command == "down" and not args.yes:
        print(f"would run: {command_line(down_args(spec))}")
        print("this deletes every resource in the group; re-run with --yes", file=sys.stderr)
        return 2
    runner = AzRunner()
    if args.command == "up":
        result = up(spec, runner, workdir)
        for label in result.skipped:
            print(f"exists   {label}")
        for label in result.created:
            print(f"created  {label}")
        print("VMs run setup-host.sh at first boot: /var/log/cloud-init-output.log shows progress")
    elif args.command == "down":
        gone = down(spec, runner)
        print(f"deleting resource group {spec.resource_group}" if gone else "nothing to delete")
    elif args.command == "status":
        rows = status(spec, runner)
        for s in rows:
            print(f"{s.name:<28} {s.power_state:<16} {s.size:<18} {s.private_ip:<15} {s.public_ip}")
        if not rows:
            print(f"no VMs in {spec.resource_group}")
    elif args.command == "register":
        body = register(spec, runner, api_url=args.api_url)
        print(
            f"registered testbed {body['name']!r} (id {body['id']}) with {len(body['hosts'])} hosts"
        )
        for line in host_key_lines(body):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
