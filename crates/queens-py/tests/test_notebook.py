"""The example notebook stays runnable: its script runs (with fewer runs) and writes its plots
and animation, and the .ipynb is the one the script makes."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def test_the_notebook_script_runs_and_writes_its_figures(tmp_path):
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    environment = dict(os.environ, QUEENS_NOTEBOOK_OUT=str(tmp_path), QUEENS_NOTEBOOK_RUNS="50",
                       MPLBACKEND="Agg")
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "notebook.py")],
        env=environment, cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "optimized-hill-climbing" in done.stdout
    for name in ["success-rate.png", "p-q-study.png", "hill-climbing.gif"]:
        assert (tmp_path / name).stat().st_size > 1000, name


def test_the_notebook_is_made_from_the_script():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "notebook.py"), "--check"],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
