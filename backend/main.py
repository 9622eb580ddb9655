"""The FastAPI application."""

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.routing import APIRoute

from backend.api.main import api_router
from backend.core.config import settings
from backend.ui import mount_ui


def custom_generate_unique_id(route: APIRoute) -> str:
    # Gives the generated TS client names like ExperimentsService.readExperiment.
    return f"{route.tags[0]}-{route.name}" if route.tags else route.name


app = FastAPI(
    title="mcscope",
    description="Design, run and analyse memcached middleware experiments.",
    openapi_url=f"{settings.API_V1_STR}/openapi.json",
    docs_url="/docs",
    generate_unique_id_function=custom_generate_unique_id,
)
app.add_middleware(
    CORSMiddleware, allow_origins=settings.CORS_ORIGINS, allow_methods=["*"], allow_headers=["*"]
)
app.include_router(api_router, prefix=settings.API_V1_STR)
mount_ui(app, settings.UI_DIST)
