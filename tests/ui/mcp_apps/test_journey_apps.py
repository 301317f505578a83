"""Journey (issue 26): the App of the official basic-vanillajs example, opened and used
through the window as a person does (tests/ui/mcp_apps/journey_app.py, in a process of its
own: QtWebEngine allows one loop run per process)."""

from __future__ import annotations

import os
import subprocess

import pytest

from inspector.ui.mcp_apps.webengine import webengine_available
from tests.helpers.peers import PY, REPO, subprocess_env

pytestmark = [pytest.mark.timeout(150), pytest.mark.peers]

_NOISE = ("QRhi", "Vulkan", "GBM", "RHI", "bus.cc", "propagateSize", "GPUInfo")


@pytest.mark.skipif(
    not webengine_available(),
    reason="QtWebEngine is not installed (the apps extra: pip install -e '.[apps]')",
)
def test_open_the_basic_app_run_it_and_click_its_button() -> None:
    env = {**os.environ, **subprocess_env(), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [PY, "-m", "tests.ui.mcp_apps.journey_app"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=140,
    )
    if done.returncode == 3:
        pytest.skip(done.stdout.strip())
    tail = "\n".join(
        line for line in done.stderr.splitlines() if not any(n in line for n in _NOISE)
    )[-6000:]
    assert done.returncode == 0, f"the journey failed (rc {done.returncode}):\n{tail}"
