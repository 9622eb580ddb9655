"""Application settings: one object, read from the environment (MCSCOPE_*)."""

import shutil
from ipaddress import IPv4Network, IPv6Network
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from backend.domain.memcached_sizing import MIN_MEMORY_MB, host_memory_mb

REPO_ROOT = Path(__file__).resolve().parents[2]


def _on_path(program: str) -> Path:
    """A program's path from PATH (Debian installs chromium in /usr/bin); its bare name when
    it is not installed, so that rendering fails saying which browser is missing."""
    found = shutil.which(program)
    return Path(found) if found else Path(program)


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
    # How often the beat scheduler runs recovery (dead workers' runs, lost queue messages).
    RECOVERY_EVERY_S: float = Field(default=20.0, gt=0)
    # A queued run without a live message for this long is re-sent by recovery.
    RESEND_AFTER_S: float = Field(default=30.0, ge=0)
    # A queued run's message held by a worker (waiting for a retry's countdown) counts as lost
    # this long after it was due, even when that worker lives (another host's cannot be asked).
    LEASE_GRACE_S: float = Field(default=30.0, ge=0)
    # Most memcached memory one server may need (key_maximum x value_size); by default half
    # of this machine's physical memory (the local testbed's host).
    MEMCACHED_MAX_MEMORY_MB: int = Field(default_factory=host_memory_mb, ge=MIN_MEMORY_MB)
    # Fixed cost of one run beyond its run time (start servers, populate, collect).
    RUN_OVERHEAD_S: int = Field(default=8, ge=0)
    # The local testbed's own sshd (infra/local/sshd.sh): loopback port and state directory
    # holding its host key and the client key the worker logs in with.
    LOCAL_SSH_PORT: int = Field(default=2222, ge=1, le=65_535)
    LOCAL_SSH_DIR: Path = REPO_ROOT / "var" / "ssh"
    # The built UI, served at "/" when present so the product is one URL.
    UI_DIST: Path = REPO_ROOT / "frontend" / "dist"
    # The documentation site (`mkdocs build`, mkdocs.yml), served at /guide/ when built.
    GUIDE_DIR: Path = REPO_ROOT / "var" / "site"
    # The Chromium kaleido drives to render static figures (Debian's, found on PATH; never
    # downloaded). Set MCSCOPE_BROWSER_PATH for another one.
    BROWSER_PATH: Path = Field(default_factory=lambda: _on_path("chromium"))
    # Start that browser with the app (in the background), so the first export is warm too.
    FIGURE_WARM_START: bool = True
    CORS_ORIGINS: list[str] = ["http://127.0.0.1:5173", "http://localhost:5173"]

    # --- Exposure and authentication (README "Security") ---
    # The address uvicorn binds (infra/local/start.sh passes it as --host). Anything but a
    # loopback address requires authentication to be configured, or the API refuses to start.
    API_HOST: str = "127.0.0.1"
    # Seconds an idle keep-alive connection stays open. Above the clients' own idle limits
    # (Node's fetch 4 s, proxies' 60 s), so a client never sends on a connection the server has
    # just closed: uvicorn's 5 s reset a browser test's request once (ECONNRESET, CI 2026-11-29).
    API_KEEP_ALIVE_S: int = Field(default=75, ge=1)
    # Bearer token accepted besides the tokens of `python -m backend.cli token create`; meant for
    # the first start. At least 32 characters: it is compared by its SHA-256 digest.
    ADMIN_TOKEN: SecretStr | None = Field(default=None, min_length=32)
    # Host header allowlist (DNS rebinding): loopback names by default, add the public name
    # when exposing the API.
    ALLOWED_HOSTS: list[str] = ["127.0.0.1", "localhost", "[::1]"]
    # Largest request body accepted (413 beyond it).
    MAX_BODY_BYTES: int = Field(default=1_048_576, ge=1_024)
    # A request still unanswered this many seconds after it arrived is logged then, and again
    # with its status and time when answered (backend/api/slow_requests.py).
    API_SLOW_REQUEST_S: float = Field(default=2.0, gt=0)
    # Live event streams: at most this many open per client address and in all, each closed
    # after STREAM_MAX_S seconds (the browser reconnects).
    STREAMS_PER_CLIENT: int = Field(default=8, ge=1)
    STREAMS_TOTAL: int = Field(default=64, ge=1)
    STREAM_MAX_S: float = Field(default=900.0, gt=0)
    # How often an open stream re-checks its token: a revoked or expired token ends it.
    STREAM_AUTH_CHECK_S: float = Field(default=5.0, gt=0)
    # Days a token of `python -m backend.cli token create` is valid unless told otherwise;
    # None (MCSCOPE_TOKEN_TTL_DAYS=): tokens never expire.
    TOKEN_TTL_DAYS: float | None = Field(default=90.0, gt=0)
    # Reverse proxies whose X-Forwarded-For names the client (backend/serve.py hands them to
    # uvicorn). None by default: the socket peer is the client, so no header can spoof it.
    TRUSTED_PROXIES: list[str] = []

    # --- Testbed hosts ---
    # Registered hosts' key_path must name a regular file under this folder, of at most
    # SSH_KEY_MAX_BYTES bytes (private keys are a few KiB).
    SSH_KEY_DIR: Path = Path.home() / ".ssh"
    SSH_KEY_MAX_BYTES: int = Field(default=16_384, ge=1)
    # Reading a host's SSH key at registration or re-pin: connect and key-exchange timeout.
    SSH_KEYSCAN_TIMEOUT_S: float = Field(default=5.0, gt=0, le=60)
    # Key reads run in the background, at most this many at once (backend/core/host_scans.py).
    SSH_KEYSCAN_CONCURRENCY: int = Field(default=16, ge=1, le=256)
    # Networks testbed host addresses may be in (a host name: every address it resolves to).
    # Loopback (the local sshd, tests) and the private ranges by default; link-local, cloud
    # metadata, unspecified and multicast addresses are refused whatever this says
    # (backend/core/addresses.py).
    HOST_NETWORKS: list[IPv4Network | IPv6Network] = [
        IPv4Network("127.0.0.0/8"),
        IPv6Network("::1/128"),
        IPv4Network("10.0.0.0/8"),
        IPv4Network("172.16.0.0/12"),
        IPv4Network("192.168.0.0/16"),
        IPv6Network("fc00::/7"),
    ]
    # Where earlier versions pinned remote host keys at the worker's first contact (known_hosts
    # format); migration 0009 moves those keys onto their hosts. Not written any more.
    SSH_KNOWN_HOSTS: Path = REPO_ROOT / "var" / "known_hosts"
    # Caps on one host's archive of outputs: compressed download, members, unpacked bytes.
    FETCH_MAX_ARCHIVE_BYTES: int = Field(default=512 * 1024 * 1024, ge=1)
    FETCH_MAX_MEMBERS: int = Field(default=10_000, ge=1)
    FETCH_MAX_UNPACKED_BYTES: int = Field(default=4 * 1024 * 1024 * 1024, ge=1)

    # --- Importing earlier runs (worker/imports, docs/user-guide/import.md) ---
    # Caps on one upload (archive or single file) and on what it unpacks to: the upload's
    # bytes, its member count, the bytes it unpacks to, any one file, and the unpacked size
    # per compressed byte of a zip member (an archive bomb is refused before it is written).
    IMPORT_MAX_ARCHIVE_BYTES: int = Field(default=512 * 1024 * 1024, ge=1)
    IMPORT_MAX_FILES: int = Field(default=5_000, ge=1)
    IMPORT_MAX_EXPANDED_BYTES: int = Field(default=2 * 1024 * 1024 * 1024, ge=1)
    IMPORT_MAX_FILE_BYTES: int = Field(default=256 * 1024 * 1024, ge=1)
    IMPORT_MAX_RATIO: float = Field(default=200.0, gt=1)
    # How long an upload waits in the staging area for its confirmation.
    IMPORT_STAGING_TTL_S: float = Field(default=24 * 3600.0, gt=0)

    # --- Azure testbeds (the engine: backend/azure) ---
    # The subscription the worker's Azure tasks act in, signed in through DefaultAzureCredential
    # (`az login`, a service principal's AZURE_* variables, or a managed identity). Unset: the
    # Azure tasks do nothing.
    AZURE_SUBSCRIPTION_ID: str | None = None
    # How often the beat scheduler runs the Azure janitor (expired testbeds deleted, failed
    # creations' groups deleted, dead workers' creations resumed, idle testbeds deallocated).
    AZURE_JANITOR_EVERY_S: float = Field(default=300.0, gt=0)
    # A ready Azure testbed with no queued or running run for this long is deallocated (its
    # VMs stop billing compute; Start brings them back).
    AZURE_IDLE_DEALLOCATE_S: float = Field(default=3600.0, gt=0)
    # The Azure Retail Prices API (no authentication) `prices refresh` reads VM prices from,
    # and the currency asked for.
    AZURE_PRICES_URL: str = "https://prices.azure.com/api/retail/prices"
    AZURE_PRICES_CURRENCY: str = Field(default="USD", pattern=r"^[A-Z]{3}$")
    # The management endpoint and its CA bundle (unset: Azure's public cloud and the system's
    # CAs); set to point the engine at another ARM, as the end-to-end tests do at the fake.
    AZURE_ARM_URL: str | None = None
    AZURE_CA_BUNDLE: Path | None = None
    # A bearer token (`az account get-access-token --query accessToken`) used instead of
    # DefaultAzureCredential; it expires within the hour, so it suits a session, not a server.
    AZURE_ACCESS_TOKEN: str | None = None
    # Seconds between polls of a long-running operation that sends no Retry-After.
    AZURE_POLLING_INTERVAL_S: float = Field(default=10.0, gt=0)
    # The longest expiry a testbed may be given from the page (a new one gets 4 h).
    AZURE_MAX_EXPIRY_HOURS: float = Field(default=24.0, gt=0, le=168.0)

    # --- Rehearsal testbeds (backend/rehearsal: an Azure plan as namespace hosts here) ---
    # Most namespace hosts all live rehearsals may hold together: each runs an sshd and its
    # role's processes on this machine's shared cores (the reports' largest topology has 12).
    REHEARSAL_MAX_HOSTS: int = Field(default=12, ge=1, le=64)
    # The private range rehearsal hosts take a free /24 of (tests use 10.231.0.0/16).
    REHEARSAL_NETWORK: IPv4Network = IPv4Network("10.232.0.0/16")
    # How often the beat scheduler runs the rehearsal janitor (expired rehearsals torn down,
    # builds whose worker died torn down, failed teardowns retried).
    REHEARSAL_SWEEP_EVERY_S: float = Field(default=60.0, gt=0)

    # --- Quality flags (backend/quality; defaults argued in README "Quality flags") ---
    # Outlier repetition: modified z-score (Iglewicz-Hoaglin, 0.6745 |x - median| / MAD) above
    # this, and at least QUALITY_MIN_SHIFT away from the median.
    QUALITY_OUTLIER_Z: float = Field(default=3.5, gt=0)
    # Significance of the trend, step and warm-up tests on the per-second series (asv's).
    QUALITY_ALPHA: float = Field(default=0.002, gt=0, lt=1)
    # Smallest relative change worth a flag (trend over the window, step, warm-up, outlier).
    QUALITY_MIN_SHIFT: float = Field(default=0.10, gt=0, lt=1)
    # Seconds at the start of the stable window compared with the rest (warm-up not over).
    QUALITY_WARMUP_PROBE_S: int = Field(default=5, ge=2)
    # Client and middleware throughput may differ by this fraction of the client's.
    QUALITY_THROUGHPUT_TOLERANCE: float = Field(default=0.05, gt=0)
    # Measured throughput may differ from the interactive law's N / (R + Z) by this fraction.
    QUALITY_INTERACTIVE_TOLERANCE: float = Field(default=0.10, gt=0)
    # Misses per requested key tolerated where the design populated every key.
    QUALITY_MISS_RATIO: float = Field(default=0.001, ge=0, lt=1)
    # Mean CPU steal (percent) over the window above which a host is flagged.
    QUALITY_STEAL_PCT: float = Field(default=10.0, ge=0, le=100)

    @field_validator(
        "ADMIN_TOKEN",
        "TOKEN_TTL_DAYS",
        "AZURE_SUBSCRIPTION_ID",
        "AZURE_ARM_URL",
        "AZURE_CA_BUNDLE",
        "AZURE_ACCESS_TOKEN",
        mode="before",
    )
    @classmethod
    def _unset_when_empty(cls, value: object) -> object:
        # `MCSCOPE_ADMIN_TOKEN=` (docker compose without the variable) means "not set".
        return None if value == "" else value


settings = Settings()
