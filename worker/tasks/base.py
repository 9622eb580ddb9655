"""The one task decorator: dotted name, queue, late acks, no result, timing log."""

import logging
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from worker.celery_app import app

logger = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")


def instrumented_task(name: str, queue: str, **options: Any) -> Callable[[Callable[P, R]], Any]:
    def decorator(func: Callable[P, R]) -> Any:
        @wraps(func)
        def timed(*args: P.args, **kwargs: P.kwargs) -> R:
            start = time.monotonic()
            try:
                return func(*args, **kwargs)
            finally:
                logger.info(
                    "task.finished", extra={"task": name, "duration_s": time.monotonic() - start}
                )

        return app.task(name=name, queue=queue, acks_late=True, ignore_result=True, **options)(
            timed
        )

    return decorator
