"""Shared by the Python tests (run by ctest, tests/CMakeLists.txt): the
twinvmaf CLI built with them, the fixtures, and the demo's sample pair."""

import json
import math
import os
import re
import subprocess
from pathlib import Path

import pytest

CLI = os.environ.get("TWINVMAF_CLI", "twinvmaf")


def fixtures_dir():
    return Path(os.environ.get("TWINVMAF_FIXTURES") or os.environ.get("TWINVMAF_DEFAULT_FIXTURES", ""))


def fixture(name):
    """(folder, fixture.json) of a fixture; skips the test without fixtures."""
    folder = fixtures_dir() / name
    if not (folder / "ref.yuv").exists():
        pytest.skip(f"no fixture {name} under {fixtures_dir()}")
    return folder, json.loads((folder / "fixture.json").read_text())


def geometry(meta):
    return dict(width=meta["width"], height=meta["height"], pixel_format=str(meta["pixel_format"]),
                bitdepth=meta["bitdepth"])


def cli_geometry(meta):
    return ["-w", str(meta["width"]), "-h", str(meta["height"]), "-p", str(meta["pixel_format"]),
            "-b", str(meta["bitdepth"])]


def run_cli(args, **kwargs):
    result = subprocess.run([CLI, *args], capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, result.stderr
    return result


def strip_fps(text):
    return re.sub(r'"fps": [^,\n]*', '"fps"', text)


def load_json(text):
    """A JSON output with every number a float (so "-0" keeps its sign)."""
    return json.loads(text, parse_int=float)


def same_value(cli_value, value):
    """The same double; the CLI's JSON writes null for a non-finite value."""
    if cli_value is None:
        return not math.isfinite(value)
    return float(cli_value).hex() == float(value).hex()


@pytest.fixture(scope="session")
def sample(tmp_path_factory):
    """The demo's sample pair (160x96 4:2:0 8-bit .y4m, 12 frames)."""
    folder = tmp_path_factory.mktemp("sample")
    subprocess.run([os.environ["TWINVMAF_MAKE_SAMPLE"], str(folder)], check=True, capture_output=True)
    return folder
