"""One APIRouter per resource; each handler is one service call over its dependencies."""
