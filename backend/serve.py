"""Runs the API under uvicorn with this project's serving rules: `python -m backend.serve`.

`make up` (infra/local/start.sh), docker-compose and the tests' real server start the API
through here, so these rules hold wherever it runs:

- the client of a request is the socket peer; X-Forwarded-For is believed only from the
  reverse proxies in `settings.TRUSTED_PROXIES` (none by default; uvicorn's own default
  trusts 127.0.0.1, so any local process could claim any address);
- the access log records paths without their query strings (a token or other secret put in a
  URL must not land in the log);
- an idle keep-alive connection stays open `settings.API_KEEP_ALIVE_S`, longer than clients
  keep theirs, so the client is the one that closes it.
"""

import argparse
import copy
import logging
from typing import Any

import uvicorn
from uvicorn.config import LOGGING_CONFIG

from backend.core.config import settings

# uvicorn's access record: (client_addr, method, full_path, http_version, status_code).
_PATH_ARG = 2


class DropQueryString(logging.Filter):
    """Cuts the query string off the path of uvicorn's access log records."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) > _PATH_ARG:
            path = args[_PATH_ARG]
            if isinstance(path, str):
                record.args = (*args[:_PATH_ARG], path.split("?", 1)[0], *args[_PATH_ARG + 1 :])
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with the query string filter on the access log."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"drop_query_string": {"()": DropQueryString}}
    config["handlers"]["access"]["filters"] = ["drop_query_string"]
    # The app's own warnings (slow requests: backend/api/slow_requests.py) beside uvicorn's.
    config["loggers"]["mcscope"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    return config


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m backend.serve", description=__doc__)
    parser.add_argument("--host", default=settings.API_HOST, help="default MCSCOPE_API_HOST")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    proxies = settings.TRUSTED_PROXIES
    uvicorn.run(
        "backend.main:app",
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        log_config=log_config(),
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies,
        timeout_keep_alive=settings.API_KEEP_ALIVE_S,
    )


if __name__ == "__main__":
    main()
