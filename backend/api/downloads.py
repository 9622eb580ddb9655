"""A file download as an HTTP answer, named after what it comes from."""

from fastapi import Response

from backend.figures.export import slug


def attachment(content: bytes, media_type: str, experiment_name: str, suffix: str) -> Response:
    """A download named after the experiment: "<slug>-<suffix>" (figures, tables, reports)."""
    name = f"{slug(experiment_name)}-{suffix}"
    return Response(
        content,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
