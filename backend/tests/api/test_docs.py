"""/docs loads Swagger UI from this server (dist/swagger-ui), never from a CDN."""

import re
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

from backend.docs import mount_docs
from backend.ui import mount_ui


def test_docs_page_and_assets_are_local(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<html>shell</html>")
    (tmp_path / "swagger-ui").mkdir()
    (tmp_path / "swagger-ui" / "swagger-ui-bundle.js").write_text("window.SwaggerUIBundle=1")
    app = FastAPI(docs_url=None)
    mount_docs(app, tmp_path, "/api/v1/openapi.json")
    mount_ui(app, tmp_path)
    c = TestClient(app)
    page = c.get("/docs").text
    urls = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page)
    assert "/swagger-ui/swagger-ui-bundle.js" in urls
    assert all(u.startswith("/") for u in urls), urls  # nothing from another host
    assert "/api/v1/openapi.json" in page
    assert c.get("/swagger-ui/swagger-ui-bundle.js").text == "window.SwaggerUIBundle=1"
    # A missing asset is a 404, not the UI shell.
    assert c.get("/swagger-ui/nope.js").status_code == 404
