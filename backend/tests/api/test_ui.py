"""The built UI is served at "/" with a fallback to index.html, never over the API."""

from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

from backend.ui import mount_guide, mount_ui


def _app(tmp_path: Path) -> TestClient:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<html>shell</html>")
    (tmp_path / "assets" / "app.js").write_text("console.log(1)")
    (tmp_path / "favicon.svg").write_text("<svg/>")
    (tmp_path.parent / "secret.txt").write_text("no")
    app = FastAPI()

    @app.get("/api/v1/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    mount_ui(app, tmp_path)
    return TestClient(app)


def test_ui_routes(tmp_path: Path) -> None:
    c = _app(tmp_path)
    assert c.get("/").text == "<html>shell</html>"
    assert c.get("/experiments/12").text == "<html>shell</html>"  # client-side route
    assert c.get("/assets/app.js").text == "console.log(1)"
    assert c.get("/favicon.svg").text == "<svg/>"
    assert c.get("/api/v1/health").json() == {"status": "ok"}
    assert c.get("/api/v1/nope").status_code == 404
    assert "no" not in c.get("/../secret.txt").text


def test_no_dist_no_routes(tmp_path: Path) -> None:
    app = FastAPI()
    mount_ui(app, tmp_path / "missing")
    assert TestClient(app).get("/").status_code == 404


def test_guide_is_served_beside_the_ui(tmp_path: Path) -> None:
    """The documentation site answers at /guide/ (its pages by folder) and the UI's
    catch-all never shadows it; without a built site /guide/ is the UI's 404, not a crash."""
    site, dist = tmp_path / "site", tmp_path / "dist"
    (site / "concepts" / "runs").mkdir(parents=True)
    (site / "index.html").write_text("<html>guide</html>")
    (site / "concepts" / "runs" / "index.html").write_text("<html>runs</html>")
    dist.mkdir()
    (dist / "index.html").write_text("<html>shell</html>")
    app = FastAPI()
    mount_guide(app, site)
    mount_ui(app, dist)
    c = TestClient(app)
    assert c.get("/guide/").text == "<html>guide</html>"
    assert c.get("/guide/concepts/runs/").text == "<html>runs</html>"
    assert c.get("/experiments").text == "<html>shell</html>"

    bare = FastAPI()
    mount_guide(bare, tmp_path / "missing")
    mount_ui(bare, dist)
    assert TestClient(bare).get("/guide/").status_code == 404
