"""Testbeds and hosts."""

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Literal

from fastapi import APIRouter, HTTPException, status
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from backend.api.deps import SessionDep
from backend.api.errors import unprocessable
from backend.core.host_keys import HostKeyScanError, fingerprint, scan_host_key
from backend.core.keys import KeyPathError, check_key_path
from backend.crud.run import latest_tool_versions
from backend.models import Experiment, Host, Testbed
from backend.schemas.testbed import (
    HostKeyPin,
    HostKeyScanPublic,
    HostPublic,
    TestbedCreate,
    TestbedPublic,
    TestbedsPublic,
    TestbedToolPublic,
    TestbedToolsPublic,
)

router = APIRouter(prefix="/testbeds", tags=["testbeds"])


@router.get("", response_model=TestbedsPublic)
def read_testbeds(session: SessionDep) -> TestbedsPublic:
    """List testbeds with their hosts."""
    rows = session.scalars(select(Testbed).order_by(Testbed.id)).all()
    return TestbedsPublic(data=[TestbedPublic.model_validate(t) for t in rows], count=len(rows))


@router.get("/tools", response_model=TestbedToolsPublic)
def read_testbed_tools(session: SessionDep) -> TestbedToolsPublic:
    """Tools found on each testbed, with versions, as the newest runs' preflight recorded them."""
    data = [
        TestbedToolPublic(testbed_id=t, tool=tool, version=v, run_id=r, seen_at=at)
        for t, tool, v, r, at in latest_tool_versions(session=session)
    ]
    return TestbedToolsPublic(data=data, count=len(data))


@router.post("", response_model=TestbedPublic, status_code=status.HTTP_201_CREATED)
def create_testbed(session: SessionDep, body: TestbedCreate) -> TestbedPublic:
    """Register a testbed and its hosts (SSH key paths only, never keys)."""
    names = [h.name for h in body.hosts]
    dupes = sorted(n for n, k in Counter(names).items() if k > 1)
    if dupes:
        raise unprocessable(("hosts",), f"host names must be unique: {', '.join(dupes)}", names)
    hosts = []
    for i, h in enumerate(body.hosts):
        try:
            key_path = check_key_path(h.key_path)
        except KeyPathError as e:
            raise unprocessable(("hosts", i, "key_path"), str(e), h.key_path) from e
        hosts.append(Host(**{**h.model_dump(), "key_path": key_path}))
    errors = _pin_at_registration(hosts)
    testbed = Testbed(name=body.name, kind=body.kind, description=body.description, hosts=hosts)
    session.add(testbed)
    try:
        session.commit()
    except IntegrityError as e:
        session.rollback()
        raise unprocessable(
            ("name",), f"a testbed named {body.name!r} already exists", body.name
        ) from e
    out = TestbedPublic.model_validate(testbed)
    for host in out.hosts:
        host.host_key_error = errors.get(host.name)
    return out


def _scan(address: str, port: int) -> str | HostKeyScanError:
    try:
        return scan_host_key(address, port)
    except HostKeyScanError as exc:
        return exc


def _pin_at_registration(hosts: list[Host]) -> dict[str, str]:
    """Pin each host's key: the given one, or the one it offers now (read in parallel, each
    address once). A host that cannot be read is registered unpinned; {name: why}."""
    now = datetime.now(UTC)
    for h in hosts:
        if h.host_key is not None:
            h.host_key_source, h.host_key_pinned_at = "supplied", now
    wanted = sorted({(h.address, h.ssh_port) for h in hosts if h.host_key is None})
    if not wanted:
        return {}
    with ThreadPoolExecutor(max_workers=min(16, len(wanted))) as pool:
        found = dict(zip(wanted, pool.map(lambda a: _scan(*a), wanted), strict=True))
    errors = {}
    for h in hosts:
        if h.host_key is not None:
            continue
        key = found[(h.address, h.ssh_port)]
        if isinstance(key, HostKeyScanError):
            errors[h.name] = f"{key}; not pinned: pin it on the Testbeds page or give host_key"
        else:
            h.host_key, h.host_key_source, h.host_key_pinned_at = key, "scanned", now
    return errors


def _host(session: SessionDep, testbed_id: int, host_id: int) -> Host:
    host = session.get(Host, host_id)
    if host is None or host.testbed_id != testbed_id:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Host not found")
    return host


def _scan_or_422(host: Host, loc: tuple[str, ...], location: Literal["body", "path"]) -> str:
    try:
        return scan_host_key(host.address, host.ssh_port)
    except HostKeyScanError as exc:
        raise unprocessable(
            loc,
            f"cannot read the SSH host key of {host.name}: {exc}; give the key instead",
            location=location,
        ) from exc


@router.get("/{testbed_id}/hosts/{host_id}/host-key/scan", response_model=HostKeyScanPublic)
def scan_testbed_host_key(session: SessionDep, testbed_id: int, host_id: int) -> HostKeyScanPublic:
    """Read the SSH key the host offers now (a key exchange, no login), without pinning it:
    compare its fingerprint with the host's own (`ssh-keygen -lf` on the host) first."""
    host = _host(session, testbed_id, host_id)
    key = _scan_or_422(host, ("host_id",), "path")
    return HostKeyScanPublic(
        host_id=host.id,
        host_key=key,
        host_key_fingerprint=fingerprint(key),
        matches_pinned=key == host.host_key,
    )


@router.put("/{testbed_id}/hosts/{host_id}/host-key", response_model=HostPublic)
def pin_testbed_host_key(
    session: SessionDep, testbed_id: int, host_id: int, body: HostKeyPin
) -> HostPublic:
    """Pin a host's SSH key (e.g. after the host was rebuilt): the given key, or the key the
    host offers now, only if its fingerprint is the one confirmed (expected_fingerprint)."""
    host = _host(session, testbed_id, host_id)
    if body.host_key is not None:
        key, source = body.host_key, "supplied"
    else:
        key, source = _scan_or_422(host, ("host_key",), "body"), "scanned"
        offered = fingerprint(key).split()[-1]
        wanted = (body.expected_fingerprint or "").split()
        if wanted and wanted[-1] != offered:
            raise unprocessable(
                ("expected_fingerprint",),
                f"{host.name} now offers {offered}, not the confirmed {wanted[-1]}: "
                "nothing pinned; scan again and compare with the host",
                body.expected_fingerprint,
            )
    host.host_key, host.host_key_source = key, source
    host.host_key_pinned_at = datetime.now(UTC)
    session.commit()
    return HostPublic.model_validate(host)


@router.get("/{testbed_id}", response_model=TestbedPublic)
def read_testbed(session: SessionDep, testbed_id: int) -> TestbedPublic:
    """Get one testbed."""
    testbed = session.get(Testbed, testbed_id)
    if testbed is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Testbed not found")
    return TestbedPublic.model_validate(testbed)


@router.delete("/{testbed_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_testbed(session: SessionDep, testbed_id: int) -> None:
    """Delete a testbed no experiment uses."""
    testbed = session.get(Testbed, testbed_id)
    if testbed is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Testbed not found")
    used = session.scalar(select(func.count()).where(Experiment.testbed_id == testbed_id))
    if used:
        raise HTTPException(status.HTTP_409_CONFLICT, "Testbed is used by experiments")
    session.delete(testbed)
    session.commit()
