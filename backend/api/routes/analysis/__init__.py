"""Analysis endpoints (queueing models, factorial designs, statistics on stored results).

Ad-hoc endpoints take parameters in the body; /analysis/experiments/{id}/... read stored
results. An AnalysisError (model undefined for the input) becomes a 422 naming the field.
The math lives in backend/analysis; stored results are read through the results services
(backend/results/analyses.py and histograms.py).
"""

from fastapi import APIRouter

from backend.api.routes.analysis import (
    demands,
    experiments,
    fit,
    models,
    network,
    percentiles,
    statistics,
)

router = APIRouter(prefix="/analysis", tags=["analysis"])
router.include_router(models.router)
router.include_router(statistics.router)
router.include_router(experiments.router)
router.include_router(percentiles.router)
router.include_router(fit.router)
router.include_router(demands.router)
router.include_router(network.router)
