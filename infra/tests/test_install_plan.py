"""The install steps of the load generators come from their registry: the local set-up asks
`python3 -m infra.install_plan`, setup-host.sh carries the same plan as a generated block held
equal to the registry here, and cloud-init ships every recipe beside setup-host.sh."""

from __future__ import annotations

import shutil
import subprocess
import sys

from backend.azure.cloud_init import RECIPES
from backend.domain.load_generators import LOAD_GENERATORS, LoadGeneratorSpec, install_recipes
from infra.install_plan import (
    ROOT,
    SETUP_HOST,
    main,
    packages,
    setup_host_block,
    with_block,
)


def test_plan_is_the_registrys() -> None:
    assert packages() == ["libmemcached-tools"]
    assert install_recipes() == ["infra/hosts/install-memtier.sh"]
    assert all((ROOT / r).is_file() for r in install_recipes())
    assert [p.relative_to(ROOT).as_posix() for p in RECIPES] == install_recipes()


def test_setup_host_block_is_current() -> None:
    text = SETUP_HOST.read_text()
    assert with_block(text, setup_host_block()) == text, "run python3 -m infra.install_plan --write"
    assert main(["--check"]) == 0


def test_a_new_tool_is_one_registration() -> None:
    extra = LoadGeneratorSpec(
        name="twemperf",
        program="mcperf",
        driver="worker.drivers.twemperf:TwemperfDriver",
        candidates=("mcperf",),
        version_args=("-V",),
        debian_packages=("twemperf", "libmemcached-tools"),
        install_recipe="infra/hosts/install-twemperf.sh",
    )
    tools = (*LOAD_GENERATORS, extra)
    assert packages(tools) == ["libmemcached-tools", "twemperf"]
    assert install_recipes(tools)[-1] == "infra/hosts/install-twemperf.sh"
    block = setup_host_block(tools)
    assert "CLIENT_PACKAGES=(libmemcached-tools twemperf)" in block
    assert "CLIENT_RECIPES=(install-memtier.sh install-twemperf.sh)" in block
    assert 'v="$( (mcperf -V) 2>&1 | head -1 || echo missing)"; say "  mcperf: $v"' in block


def test_the_system_python_prints_the_plan() -> None:
    """install-deps.sh runs it before the virtualenv exists: the registry needs no package."""
    python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
    for what, want in (("packages", packages()), ("recipes", install_recipes())):
        out = subprocess.run(
            [python, "-m", "infra.install_plan", what],
            cwd=ROOT,
            env={"PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert out.splitlines() == want


def test_setup_host_installs_what_the_registry_says() -> None:
    proc = subprocess.run(
        ["bash", str(SETUP_HOST), "client"],
        env={"PATH": "/usr/bin:/bin", "DRY_RUN": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    installs = [line for line in proc.stdout.splitlines() if "apt-get install" in line]
    for package in packages():
        assert any(line.split()[-1] == package for line in installs), package
    # Each recipe ran (memtier's builds its release).
    assert "autoreconf" in proc.stdout
