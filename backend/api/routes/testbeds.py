"""Testbeds and hosts."""

from collections import Counter

from fastapi import APIRouter, HTTPException, status
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from backend.api.deps import SessionDep
from backend.api.errors import unprocessable
from backend.core.keys import KeyPathError, check_key_path
from backend.crud.run import latest_tool_versions
from backend.models import Experiment, Host, Testbed
from backend.schemas.testbed import (
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
    testbed = Testbed(name=body.name, kind=body.kind, description=body.description, hosts=hosts)
    session.add(testbed)
    try:
        session.commit()
    except IntegrityError as e:
        session.rollback()
        raise unprocessable(
            ("name",), f"a testbed named {body.name!r} already exists", body.name
        ) from e
    return TestbedPublic.model_validate(testbed)


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
