"""The FastAPI application."""

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.middleware.trustedhost import TrustedHostMiddleware

from backend.api.errors import add_error_handlers, validation_error_content
from backend.api.guards import BodyLimit, SameOriginWrites
from backend.api.main import api_router
from backend.api.openapi import install_described_openapi
from backend.api.slow_requests import SlowRequests
from backend.api.well_formed import WellFormedInput
from backend.core.config import settings
from backend.core.db import SessionLocal
from backend.core.exposure import exposure_error
from backend.core.host_scans import scanner
from backend.docs import mount_docs
from backend.figures.render import renderer
from backend.ui import mount_guide, mount_ui

logger = logging.getLogger("mcscope")


def custom_generate_unique_id(route: APIRoute) -> str:
    # Gives the generated TS client names like ExperimentsService.readExperiment.
    return f"{route.tags[0]}-{route.name}" if route.tags else route.name


class ExposureRefused(RuntimeError):
    pass


@asynccontextmanager
async def lifespan(_: FastAPI) -> AsyncIterator[None]:
    with SessionLocal() as session:
        refusal = exposure_error(session, settings.API_HOST)
    if refusal is not None:
        logger.critical(refusal)
        raise ExposureRefused(refusal)
    # The figure renderer's browser (seconds to start) warms up beside the first requests.
    if settings.FIGURE_WARM_START:
        threading.Thread(target=renderer.warm_up, name="kaleido-warm-up", daemon=True).start()
    # Host key reads a stopped API left under way (backend/core/host_scans.py).
    scanner.resume()
    yield
    scanner.close()
    renderer.close()


app = FastAPI(
    lifespan=lifespan,
    title="mcscope",
    description="Design, run and analyse memcached middleware experiments.",
    openapi_url=f"{settings.API_V1_STR}/openapi.json",
    # /docs is served by mount_docs, with Swagger UI's assets from this server, not a CDN.
    docs_url=None,
    generate_unique_id_function=custom_generate_unique_id,
)
# Outermost last: host check, then body cap and origin check, then CORS, then the rule on
# every value (inside CORS, so an allowed UI origin can read its 422).
app.add_middleware(WellFormedInput)
app.add_middleware(
    CORSMiddleware, allow_origins=settings.CORS_ORIGINS, allow_methods=["*"], allow_headers=["*"]
)
app.add_middleware(SameOriginWrites, allowed_origins=settings.CORS_ORIGINS)
app.add_middleware(
    BodyLimit,
    max_bytes=settings.MAX_BODY_BYTES,
    uploads={f"{settings.API_V1_STR}/imports": settings.IMPORT_MAX_ARCHIVE_BYTES},
)
app.add_middleware(TrustedHostMiddleware, allowed_hosts=settings.ALLOWED_HOSTS)
# Outermost: each request timed from its arrival, the other middlewares' work included.
app.add_middleware(SlowRequests, after_s=settings.API_SLOW_REQUEST_S)


add_error_handlers(app)


@app.exception_handler(RequestValidationError)
async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
    # FastAPI's own handler echoes each input as is: NaN from a query (or an echoed value that
    # is not JSON) would fail to serialise and turn the 422 into a 500.
    return JSONResponse(status_code=422, content=validation_error_content(exc))


@app.exception_handler(ArithmeticError)
async def arithmetic_error(request: Request, exc: ArithmeticError) -> JSONResponse:
    # Extreme numbers sent to the models (rates near 0 or 1e308) divide by zero or overflow:
    # that is the request's fault, so a 422 on the body, logged with its traceback so a real
    # bug stays visible.
    logger.warning("arithmetic error on %s %s", request.method, request.url.path, exc_info=exc)
    detail = [
        {
            "type": "value_error",
            "loc": ["body"] if request.method in {"POST", "PUT", "PATCH"} else ["query"],
            "msg": f"these values cannot be evaluated ({exc}); use less extreme numbers",
        }
    ]
    return JSONResponse(status_code=422, content=jsonable_encoder({"detail": detail}))


app.include_router(api_router, prefix=settings.API_V1_STR)
install_described_openapi(app)
mount_docs(app, settings.UI_DIST, f"{settings.API_V1_STR}/openapi.json")
mount_guide(app, settings.GUIDE_DIR)
mount_ui(app, settings.UI_DIST)
