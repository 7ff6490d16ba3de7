"""The example notebook stays runnable: its script runs (with fewer runs) and writes its plots
and animation, and the .ipynb is the one the script makes."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import rendered_dom

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
    for name in ["success-rate.png", "p-q-study.png", "hill-climbing.gif", "hill-climbing-replay.html"]:
        assert (tmp_path / name).stat().st_size > 1000, name


def test_the_notebook_is_made_from_the_script():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "notebook.py"), "--check"],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr


def test_the_notebook_runs_in_jupyter_and_its_export_plays_offline(tmp_path):
    """The .ipynb runs top to bottom in a Jupyter kernel (nbconvert --execute), and the HTML it
    exports holds the run's player, which a browser mounts with no server and no network."""
    pytest.importorskip("nbconvert")
    pytest.importorskip("ipykernel")
    environment = dict(os.environ, QUEENS_NOTEBOOK_OUT=str(tmp_path), QUEENS_NOTEBOOK_RUNS="50",
                       MPLBACKEND="Agg")
    done = subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--execute",
         str(ROOT / "examples" / "notebook.ipynb"), "--output-dir", str(tmp_path)],
        env=environment, cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    exported = tmp_path / "notebook.html"
    assert "queens-replay" in exported.read_text(encoding="utf-8")
    shown = rendered_dom(exported, tmp_path, budget_ms=10000)
    assert re.search(r'"queens-replay[^>]*data-frames="[1-9]', shown)
