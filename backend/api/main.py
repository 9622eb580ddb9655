"""The v1 API router: one include per resource."""

from fastapi import APIRouter

from backend.api.routes import (
    analysis,
    experiment_runs,
    experiments,
    health,
    live,
    parameters,
    testbeds,
)

api_router = APIRouter()
api_router.include_router(health.router)
api_router.include_router(parameters.router)
api_router.include_router(testbeds.router)
api_router.include_router(experiments.router)
api_router.include_router(experiment_runs.router)
api_router.include_router(experiment_runs.runs_router)
api_router.include_router(analysis.router)
api_router.include_router(live.router)
