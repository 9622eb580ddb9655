"""Application settings: one object, read from the environment (MCSCOPE_*)."""

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MCSCOPE_", env_file=".env", extra="ignore")

    DATABASE_URL: str = "postgresql+psycopg://postgres@127.0.0.1:5432/mcscope"
    REDIS_URL: str = "redis://127.0.0.1:6379/0"
    # Tests use their own queue so a running dev worker never takes their tasks.
    RUNS_QUEUE: str = "runs"
    API_V1_STR: str = "/api/v1"
    # Where raw run outputs are archived and where local processes keep pid files and logs.
    VAR_DIR: Path = REPO_ROOT / "var"
    # Guards against a typo turning into a month of machine time.
    GRID_MAX_CONFIGURATIONS: int = Field(default=5_000, ge=1)
    GRID_MAX_RUNS: int = Field(default=20_000, ge=1)
    # Fixed cost of one run beyond its run time (start servers, populate, collect).
    RUN_OVERHEAD_S: int = Field(default=8, ge=0)
    # The local testbed's own sshd (infra/local/sshd.sh): loopback port and state directory
    # holding its host key and the client key the worker logs in with.
    LOCAL_SSH_PORT: int = Field(default=2222, ge=1, le=65_535)
    LOCAL_SSH_DIR: Path = REPO_ROOT / "var" / "ssh"
    # The built UI, served at "/" when present so the product is one URL.
    UI_DIST: Path = REPO_ROOT / "frontend" / "dist"
    CORS_ORIGINS: list[str] = ["http://127.0.0.1:5173", "http://localhost:5173"]


settings = Settings()
