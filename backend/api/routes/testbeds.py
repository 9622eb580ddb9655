"""Testbeds and hosts."""

import ipaddress
from collections import Counter
from datetime import UTC, datetime

from fastapi import APIRouter, HTTPException, status
from sqlalchemy.exc import IntegrityError

from backend.api.deps import OwnerDep, SessionDep
from backend.core.addresses import refused_names
from backend.core.config import settings
from backend.core.host_keys import fingerprint
from backend.core.host_scans import PINNING, SCANNING, UNDER_WAY, scanner
from backend.core.keys import KeyPathError, check_key_path
from backend.crud import testbed as crud_testbed
from backend.crud.costs import accrued
from backend.crud.network import request_measurement
from backend.crud.run import latest_tool_versions
from backend.models import Host, Testbed
from backend.schemas.network import NetworkMeasure
from backend.schemas.problems import unprocessable
from backend.schemas.testbed import (
    HostKeyPin,
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
    rows = crud_testbed.list_testbeds(session=session)
    return TestbedsPublic(data=[_public(session, t) for t in rows], count=len(rows))


def _public(session: SessionDep, testbed: Testbed) -> TestbedPublic:
    out = TestbedPublic.model_validate(testbed)
    out.cost = accrued(session, testbed)
    return out


@router.get("/tools", response_model=TestbedToolsPublic)
def read_testbed_tools(session: SessionDep) -> TestbedToolsPublic:
    """Tools found on each testbed, with versions, as the newest runs' preflight recorded them."""
    data = [
        TestbedToolPublic(testbed_id=t, tool=tool, version=v, run_id=r, seen_at=at)
        for t, tool, v, r, at in latest_tool_versions(session=session)
    ]
    return TestbedToolsPublic(data=data, count=len(data))


@router.post("", response_model=TestbedPublic, status_code=status.HTTP_201_CREATED)
def create_testbed(session: SessionDep, owner: OwnerDep, body: TestbedCreate) -> TestbedPublic:
    """Register a testbed and its hosts (SSH key paths only, never keys). Hosts without a
    given host_key are answered with scan_status "pinning": their keys are read and pinned in
    the background (GET the testbed to see them)."""
    names = [h.name for h in body.hosts]
    dupes = sorted(n for n, k in Counter(names).items() if k > 1)
    if dupes:
        raise unprocessable(("hosts",), f"host names must be unique: {', '.join(dupes)}", names)
    refused = refused_names(
        sorted({h.address for h in body.hosts if not _is_ip(h.address)}),
        settings.SSH_KEYSCAN_TIMEOUT_S,
    )
    hosts = []
    for i, h in enumerate(body.hosts):
        if h.address in refused:
            raise unprocessable(("hosts", i, "address"), refused[h.address], h.address)
        try:
            key_path = check_key_path(h.key_path)
        except KeyPathError as e:
            raise unprocessable(("hosts", i, "key_path"), str(e), h.key_path) from e
        hosts.append(Host(**{**h.model_dump(), "key_path": key_path}))
    now = datetime.now(UTC)
    for host in hosts:
        if host.host_key is not None:
            host.host_key_source, host.host_key_pinned_at = "supplied", now
        else:
            host.scan_status = PINNING
    testbed = Testbed(name=body.name, kind=body.kind, description=body.description, hosts=hosts)
    session.add(testbed)
    try:
        session.commit()
    except IntegrityError as e:
        session.rollback()
        raise unprocessable(
            ("name",), f"a testbed named {body.name!r} already exists", body.name
        ) from e
    scanner.submit((h for h in testbed.hosts if h.scan_status == PINNING), owner)
    request_measurement(session=session, testbed=testbed, bandwidth=False)
    return TestbedPublic.model_validate(testbed)


@router.post(
    "/{testbed_id}/network", response_model=TestbedPublic, status_code=status.HTTP_202_ACCEPTED
)
def measure_testbed_network(
    session: SessionDep, testbed_id: int, body: NetworkMeasure
) -> TestbedPublic:
    """Measure the network between the testbed's roles in the background: TCP round trips
    client -> middleware -> server, and with bandwidth=true each role host's iperf3 upload.
    The testbed shows network.status "measuring", then "measured" or "failed"; a running
    experiment goes first."""
    testbed = session.get(Testbed, testbed_id)
    if testbed is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Testbed not found")
    if not request_measurement(session=session, testbed=testbed, bandwidth=body.bandwidth):
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "The worker queue is unreachable")
    return _public(session, testbed)


def _is_ip(address: str) -> bool:
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return False
    return True


def _host(session: SessionDep, testbed_id: int, host_id: int) -> Host:
    host = session.get(Host, host_id)
    if host is None or host.testbed_id != testbed_id:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Host not found")
    return host


@router.post(
    "/{testbed_id}/hosts/{host_id}/host-key/scan",
    response_model=HostPublic,
    status_code=status.HTTP_202_ACCEPTED,
)
def scan_testbed_host_key(
    session: SessionDep, owner: OwnerDep, testbed_id: int, host_id: int
) -> HostPublic:
    """Read the SSH key the host offers now (a key exchange, no login), in the background and
    without pinning it: the host shows scan_status "scanning", then "read" with
    scanned_key_fingerprint to compare with the host's own (`ssh-keygen -lf` on the host)
    before pinning it, or "failed" with scan_error."""
    host = _host(session, testbed_id, host_id)
    if host.scan_status not in UNDER_WAY:
        host.scan_status, host.scan_error = SCANNING, None
        session.commit()
        scanner.submit([host], owner)
    return HostPublic.model_validate(host)


@router.put("/{testbed_id}/hosts/{host_id}/host-key", response_model=HostPublic)
def pin_testbed_host_key(
    session: SessionDep, testbed_id: int, host_id: int, body: HostKeyPin
) -> HostPublic:
    """Pin a host's SSH key (e.g. after the host was rebuilt): the given key, or the key the
    last scan read (POST .../host-key/scan), only if its fingerprint is the one confirmed
    (expected_fingerprint)."""
    host = _host(session, testbed_id, host_id)
    if body.host_key is not None:
        key, source = body.host_key, "supplied"
    else:
        if host.scan_status in UNDER_WAY or host.scanned_key is None:
            why = "is still being read" if host.scan_status in UNDER_WAY else "was not read"
            raise unprocessable(
                ("host_key",),
                f"the key of {host.name} {why}: scan it and confirm its fingerprint, "
                "or give the key",
            )
        key, source = host.scanned_key, "scanned"
        offered = fingerprint(key).split()[-1]
        wanted = (body.expected_fingerprint or "").split()
        if wanted and wanted[-1] != offered:
            raise unprocessable(
                ("expected_fingerprint",),
                f"{host.name} offered {offered}, not the confirmed {wanted[-1]}: "
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
    return _public(session, testbed)


@router.delete("/{testbed_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_testbed(session: SessionDep, testbed_id: int) -> None:
    """Delete a testbed no experiment uses."""
    testbed = session.get(Testbed, testbed_id)
    if testbed is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Testbed not found")
    used = crud_testbed.experiments_using(session=session, testbed_id=testbed_id)
    if used:
        raise HTTPException(status.HTTP_409_CONFLICT, "Testbed is used by experiments")
    session.delete(testbed)
    session.commit()
