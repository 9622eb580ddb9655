"""The v1 API router: one include per resource. Everything but health and login sits behind
the bearer-token dependency, set once on the protected router so no route can forget it."""

from fastapi import APIRouter, Depends

from backend.api.path_ids import check_path_ids
from backend.api.routes import (
    analysis,
    analysis_figures,
    auth,
    azure_groups,
    azure_lab_plans,
    azure_labs,
    compare,
    compare_figures,
    compare_tables,
    experiment_runs,
    experiments,
    figures,
    health,
    imports,
    live,
    parameters,
    prices,
    quality,
    rehearsals,
    reports,
    run_files,
    tables,
    testbeds,
    views,
)
from backend.api.security import Authenticated

protected = APIRouter(dependencies=[Authenticated, Depends(check_path_ids)])
protected.include_router(parameters.router)
protected.include_router(testbeds.router)
protected.include_router(azure_lab_plans.router)  # before azure_labs: /defaults
protected.include_router(azure_groups.router)  # before azure_labs: its paths are more specific
protected.include_router(azure_labs.router)
protected.include_router(rehearsals.router)
protected.include_router(prices.router)
protected.include_router(experiments.router)
protected.include_router(experiment_runs.router)
protected.include_router(experiment_runs.runs_router)
protected.include_router(imports.router)
protected.include_router(run_files.router)
protected.include_router(analysis.router)
protected.include_router(analysis_figures.router)
protected.include_router(figures.router)
protected.include_router(tables.router)
protected.include_router(reports.router)
protected.include_router(live.router)
protected.include_router(compare.router)
protected.include_router(compare_figures.router)
protected.include_router(compare_tables.router)
protected.include_router(views.router)
protected.include_router(quality.router)
protected.include_router(quality.runs_router)

api_router = APIRouter()
api_router.include_router(health.router)
api_router.include_router(auth.router)
api_router.include_router(protected)
