"""Serving the built single-page UI: static assets, and index.html for every client route."""

from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

# Paths the UI must never shadow: an unknown /api/... is a JSON 404, not the app shell.
_RESERVED = ("api/", "docs", "redoc", "swagger-ui/", "guide")


def mount_guide(app: FastAPI, site: Path) -> None:
    """The documentation site at /guide/ (`mkdocs build` writes it; `make up` builds it), so
    the UI's Guide link works on the same URL with no network; nothing when it is not built."""
    if (site / "index.html").is_file():
        app.mount("/guide", StaticFiles(directory=site, html=True), name="guide")


def mount_ui(app: FastAPI, dist: Path) -> None:
    index = dist / "index.html"
    if not index.is_file():
        return
    if (dist / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=dist / "assets"), name="ui-assets")

    @app.get("/{path:path}", include_in_schema=False)
    def serve_ui(path: str) -> FileResponse:
        if path.startswith(_RESERVED):
            raise HTTPException(status_code=404, detail="Not Found")
        candidate = (dist / path).resolve()
        # Top-level files (favicon, robots.txt) are served as they are; resolve() plus the
        # parent check keeps "../" from escaping dist.
        if path and candidate.is_file() and candidate.parent == dist.resolve():
            return FileResponse(candidate)
        return FileResponse(index)
