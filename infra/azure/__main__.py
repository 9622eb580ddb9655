"""`python -m infra.azure plan|up|down|stop|start|register|status --spec FILE`: an Azure lab
for mcscope through the Azure SDK (backend.azure.provisioning), registered as a testbed."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import httpx
from azure.core.exceptions import AzureError, ClientAuthenticationError
from pydantic import ValidationError

from backend.azure import provisioning
from backend.azure.arm import Arm, connect
from backend.azure.cloud_init import new_host_key
from backend.azure.lab_spec import LabSpec, load_spec
from backend.azure.resource_plan import TAG_EXPIRES, build_plan, lab_tags, planned_vms
from backend.azure.vcpu_quota import QuotaError, quota_lines
from infra.azure.register import DEFAULT_API_URL, host_key_lines, load_hosts, register, save_lab

Connect = Callable[[str], Arm]
SUBSCRIPTION_ENV = "AZURE_SUBSCRIPTION_ID"


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
        ("plan", "list what `up` would create and the vCPU quota it needs"),
        ("up", "check quota, create the lab (deleted again if creation fails)"),
        ("down", "delete the lab's resource group"),
        ("stop", "deallocate every VM (compute billing stops; disks stay)"),
        ("start", "start every VM again"),
        ("register", "POST the VMs to the mcscope API as an azure testbed"),
        ("status", "list the lab's VMs and their power state"),
    ]:
        c = sub.add_parser(name, help=help_)
        c.add_argument("--spec", type=Path, required=True, help="topology spec (.json/.yaml)")
        c.add_argument("--workdir", type=Path, help="where `up` records the lab's hosts")
        c.add_argument(
            "--subscription",
            default=os.environ.get(SUBSCRIPTION_ENV),
            help=f"Azure subscription id (default: ${SUBSCRIPTION_ENV})",
        )
        if name == "down":
            c.add_argument("--yes", action="store_true", help="really delete everything")
        if name == "register":
            c.add_argument("--api-url", default=DEFAULT_API_URL, help="mcscope API base URL")
    return p


def main(argv: Sequence[str] | None = None, connect_to: Connect | None = None) -> int:
    """`connect_to` builds the clients from a subscription id (tests: the fake ARM)."""
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
        return _dispatch(args, spec, workdir, connect_to or connect)
    except ClientAuthenticationError as e:
        print(f"error: not signed in to Azure (run `az login`): {e.message}", file=sys.stderr)
        return 1
    except (
        AzureError,
        provisioning.ProvisionError,
        QuotaError,
        LookupError,
        RuntimeError,
        httpx.HTTPError,
    ) as e:
        print(f"error: {provisioning.describe(e)}", file=sys.stderr)
        return 1


def _plan(spec: LabSpec, args: argparse.Namespace, connect_to: Connect) -> int:
    keys = {vm.name: new_host_key() for vm in planned_vms(spec)}
    tags = lab_tags(spec, datetime.now(UTC).replace(microsecond=0))
    for res in build_plan(spec, args.subscription or "<subscription>", tags, keys):
        print(f"{res.kind.value:<24} {res.name}")
    print(f"tags: {', '.join(f'{k}={v}' for k, v in tags.items())}")
    if not args.subscription:
        print(f"(no subscription: set ${SUBSCRIPTION_ENV} to check the vCPU quota)")
        return 0
    arm = connect_to(args.subscription)
    try:
        short = 0
        for q in quota_lines(arm, spec):
            short += not q.fits
            verdict = "ok" if q.fits else "NOT ENOUGH"
            print(
                f"quota {q.family:<24} needs {q.needed:>3}, {q.used} of {q.limit} used: {verdict}"
            )
    finally:
        arm.close()
    return 1 if short else 0


def _dispatch(args: argparse.Namespace, spec: LabSpec, workdir: Path, connect_to: Connect) -> int:
    rg = spec.resource_group
    if args.command == "plan":
        return _plan(spec, args, connect_to)
    if args.command == "register":
        body = register(spec, load_hosts(workdir), api_url=args.api_url)
        print(
            f"registered testbed {body['name']!r} (id {body['id']}) with {len(body['hosts'])} hosts"
        )
        for line in host_key_lines(body):
            print(line)
        return 0
    if args.command == "down" and not args.yes:
        print(f"would delete resource group {rg} and everything in it")
        print("re-run with --yes", file=sys.stderr)
        return 2
    if not args.subscription:
        print(
            f"error: no subscription: pass --subscription or set ${SUBSCRIPTION_ENV}",
            file=sys.stderr,
        )
        return 2
    arm = connect_to(args.subscription)
    try:
        if args.command == "up":
            lab = provisioning.create(
                arm, spec, progress=lambda r: print(f"created  {r.kind.value} {r.name}")
            )
            path = save_lab(lab, workdir)
            for h in lab.hosts:
                print(f"{h.name:<28} {h.private_ip:<15} {h.public_ip or '':<15} {h.host_key}")
            print(f"expires {lab.tags[TAG_EXPIRES]}; hosts recorded in {path}")
        elif args.command == "down":
            gone = provisioning.delete(arm, rg)
            print(f"deleted resource group {rg}" if gone else "nothing to delete")
        elif args.command in ("stop", "start"):
            act = provisioning.deallocate if args.command == "stop" else provisioning.start
            for name in act(arm, rg):
                print(f"{'deallocated' if args.command == 'stop' else 'started':<12} {name}")
        elif args.command == "status":
            rows = provisioning.status(arm, rg)
            for s in rows:
                print(f"{s.name:<28} {s.power_state:<14} {s.size:<18} {s.role}")
            if not rows:
                print(f"no VMs in {rg}")
    finally:
        arm.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
