"""The interactive API docs (/docs), with Swagger UI's assets served from the built UI.

FastAPI's default page loads Swagger UI from a CDN, which leaves it blank on a machine without
internet access; the UI build copies the assets (npm swagger-ui-dist) into dist/swagger-ui.
"""

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS_PATH = "/swagger-ui"


def mount_docs(app: FastAPI, dist: Path, openapi_url: str) -> None:
    assets = dist / "swagger-ui"
    # check_dir=False: the route exists (and says where assets would be) even before a build.
    app.mount(ASSETS_PATH, StaticFiles(directory=assets, check_dir=False), name="swagger-ui")

    @app.get("/docs", include_in_schema=False)
    def read_docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} API",
            swagger_js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_PATH}/favicon-32x32.png",
        )
