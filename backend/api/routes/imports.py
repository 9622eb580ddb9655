"""Importing earlier runs: upload (staged, unpacked under limits), preview with a mapping,
confirm (stored in one transaction), discard.

The work is the worker package's (worker/imports: the recogniser beside the parsers it
calls, docs/user-guide/import.md says why); these routes stream the upload to disk and map its
errors to HTTP.
"""

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Query, Request, status
from starlette.concurrency import run_in_threadpool

from backend.api.deps import SessionDep
from backend.schemas.imports import ImportMapping, ImportOutcome, ImportPreview, StagedUpload
from backend.schemas.problems import unprocessable
from worker.imports import store
from worker.imports.preview import MappingError
from worker.imports.staging import (
    Limits,
    Staged,
    StagedNotFound,
    StagingError,
    discard,
    new_incoming,
    open_staged,
    stage_file,
    too_large,
)

router = APIRouter(prefix="/imports", tags=["imports"])

UploadId = Annotated[
    str,
    Path(min_length=32, max_length=32, pattern="^[0-9a-f]{32}$", description="a staged upload"),
]
GONE = "no staged upload with this id (confirmed already, discarded or expired): upload again"


def _staged(upload: str) -> Staged:
    try:
        return open_staged(upload)
    except StagedNotFound:
        raise HTTPException(status.HTTP_404_NOT_FOUND, GONE) from None


def _mapping_problem(exc: MappingError) -> Exception:
    return unprocessable(exc.field, exc.message)


@router.post(
    "",
    response_model=StagedUpload,
    status_code=status.HTTP_201_CREATED,
    responses={
        413: {"description": "Larger than IMPORT_MAX_ARCHIVE_BYTES"},
        422: {"description": "Refused (archive bomb, `..` path, link, oversized file...)"},
    },
)
async def upload_import(
    request: Request,
    filename: Annotated[
        str, Query(min_length=1, max_length=255, description="the uploaded file's name")
    ],
) -> StagedUpload:
    """Stage an upload sent as the raw body (application/octet-stream): a tar or zip archive
    of tool outputs, or one output file. Nothing is stored until confirmed."""
    limits = Limits.from_settings()
    incoming = new_incoming()
    size = 0
    try:
        # Written as it arrives (page-cache writes of one chunk do not stall the loop), so
        # an upload never sits in memory whole.
        with open(incoming, "wb") as out:  # noqa: ASYNC230
            async for chunk in request.stream():
                size += len(chunk)
                if size > limits.archive_bytes:
                    raise HTTPException(status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, too_large(limits))
                out.write(chunk)
    except BaseException:
        incoming.unlink(missing_ok=True)
        raise
    try:
        staged = await run_in_threadpool(stage_file, incoming, filename, limits)
    except StagingError as exc:
        raise unprocessable(("body",), f"refused: {exc}") from exc
    files = sum(1 for p in staged.root.rglob("*") if p.is_file())
    return StagedUpload(
        id=staged.id, source=staged.source, files=files, expires_at=staged.expires_at
    )


@router.post("/{upload}/preview", response_model=ImportPreview)
def preview_import(session: SessionDep, upload: UploadId, mapping: ImportMapping) -> ImportPreview:
    """What confirming with this mapping would store: runs, their parameters (read from the
    files and supplied), configurations, and the files not used with the reason."""
    staged = _staged(upload)
    try:
        return store.preview(session, staged, mapping).preview
    except MappingError as exc:
        raise _mapping_problem(exc) from exc


@router.post(
    "/{upload}/confirm",
    response_model=ImportOutcome,
    status_code=status.HTTP_201_CREATED,
    responses={409: {"description": "The preview has problems; nothing was stored"}},
)
def confirm_import(session: SessionDep, upload: UploadId, mapping: ImportMapping) -> ImportOutcome:
    """Store what the preview of this mapping shows, in one transaction: an experiment of kind
    "imported" with its runs; runs imported before are skipped. The upload is then removed."""
    staged = _staged(upload)
    try:
        outcome = store.confirm(session, staged, mapping)
    except MappingError as exc:
        raise _mapping_problem(exc) from exc
    except store.ImportRefused as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, f"nothing was stored: {exc}") from exc
    discard(staged.id)
    return outcome


@router.delete("/{upload}", status_code=status.HTTP_204_NO_CONTENT)
def discard_import(upload: UploadId) -> None:
    """Remove a staged upload without storing anything."""
    _staged(upload)
    discard(upload)
