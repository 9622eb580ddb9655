"""A run's raw files one by one: list them, read a text file a page at a time, download one.

The whole archive as a zip stays at GET /runs/{id}/files (experiment_runs.py)."""

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, status
from fastapi.responses import FileResponse

from backend.api.deps import SessionDep
from backend.core.run_files import RunFileError, list_run_files, read_text_page, run_file
from backend.models import Run
from backend.schemas.limits import INT32_MAX
from backend.schemas.problems import unprocessable
from backend.schemas.run_file import RunFilePagePublic, RunFilePublic, RunFilesPublic

router = APIRouter(prefix="/runs", tags=["runs"])

# A page of text a browser shows without effort; the viewer asks for the next one.
PAGE_BYTES = 65_536
MAX_PAGE_BYTES = 1_048_576

FilePath = Annotated[
    str, Query(min_length=1, max_length=1_000, description="path inside the run's archive")
]


def _archived(session: SessionDep, run_id: int, path: str) -> Path:
    """The run's archived file at `path`: 404 for an unknown run, 422 naming `path` otherwise."""
    if session.get(Run, run_id) is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Run not found")
    try:
        return run_file(run_id, path)
    except RunFileError:
        raise unprocessable(("path",), "not a file of this run", path, location="query") from None


@router.get("/{run_id}/files/index", response_model=RunFilesPublic)
def read_run_file_index(session: SessionDep, run_id: int) -> RunFilesPublic:
    """List the run's archived files (every attempt and host) with their sizes."""
    if session.get(Run, run_id) is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Run not found")
    files = [RunFilePublic(path=p, size_bytes=s) for p, s in list_run_files(run_id)]
    return RunFilesPublic(data=files, count=len(files))


@router.get("/{run_id}/files/text", response_model=RunFilePagePublic)
def read_run_file_text(
    session: SessionDep,
    run_id: int,
    path: FilePath,
    offset: Annotated[int, Query(ge=0, le=INT32_MAX, description="first byte to read")] = 0,
    limit: Annotated[
        int, Query(ge=1, le=MAX_PAGE_BYTES, description="bytes to read at most")
    ] = PAGE_BYTES,
) -> RunFilePagePublic:
    """Read one page of an archived file as text, for the run page's viewer."""
    disk = _archived(session, run_id, path)
    size = disk.stat().st_size
    if offset > size:
        raise unprocessable(
            ("offset",), f"past the end of the file ({size} bytes)", offset, location="query"
        )
    text, after, binary = read_text_page(disk, offset, limit)
    return RunFilePagePublic(
        path=path,
        offset=offset,
        next_offset=after if after < size else None,
        size_bytes=size,
        binary=binary,
        text="" if binary else text,
    )


@router.get(
    "/{run_id}/files/raw",
    response_class=FileResponse,
    responses={200: {"content": {"application/octet-stream": {}}, "description": "the file"}},
)
def read_run_file_raw(session: SessionDep, run_id: int, path: FilePath) -> FileResponse:
    """Download one archived file as it is."""
    disk = _archived(session, run_id, path)
    name = f"run-{run_id}-{path.replace('/', '-')}"
    return FileResponse(disk, media_type="application/octet-stream", filename=name)
