"""Comparing experiments: parameters side by side, differences against a base with their
confidence intervals, grouped curves with bands, and every configuration for parallel
coordinates. Selections travel in the body: brushing may name thousands of configurations.
The answers are backend.compare.service's."""

from fastapi import APIRouter

from backend.api.deps import SessionDep
from backend.compare import service
from backend.schemas.compare import (
    CompareSelection,
    ConfigurationsRequest,
    ConfigurationTablePublic,
    DifferencesPublic,
    DifferencesRequest,
    GroupsPublic,
    GroupsRequest,
    ParametersComparisonPublic,
)

router = APIRouter(prefix="/compare", tags=["compare"])


@router.post("/parameters", response_model=ParametersComparisonPublic)
def compare_parameters(session: SessionDep, body: CompareSelection) -> ParametersComparisonPublic:
    """Design, parameters, testbed and tool versions of the experiments side by side."""
    return service.compare_parameters(session=session, body=body)


@router.post("/differences", response_model=DifferencesPublic)
def compare_differences(session: SessionDep, body: DifferencesRequest) -> DifferencesPublic:
    """Absolute and relative differences against a base, with Welch intervals and a verdict."""
    return service.compare_differences(session=session, body=body)


@router.post("/groups", response_model=GroupsPublic)
def compare_groups(session: SessionDep, body: GroupsRequest) -> GroupsPublic:
    """One mean curve per group over x, with a std, standard-error or t-interval band."""
    return service.compare_groups(session=session, body=body)


@router.post("/configurations", response_model=ConfigurationTablePublic)
def compare_configurations(
    session: SessionDep, body: ConfigurationsRequest
) -> ConfigurationTablePublic:
    """Every configuration of the experiments with its metric means (parallel coordinates)."""
    return service.compare_configurations(session=session, body=body)
