"""Turn result dataclasses holding numpy values into plain Python (for JSON responses)."""

from __future__ import annotations

import dataclasses
import math
from enum import Enum
from typing import Any

import numpy as np


def plain(value: Any) -> Any:
    """Recursively convert dataclasses, numpy arrays and scalars, tuples and dicts.

    Non-finite floats become None: a response must never carry NaN (JSON has no NaN).
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, np.generic):
        return plain(value.item())
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value
