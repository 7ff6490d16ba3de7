"""The ``queens`` command that the wheel installs: the whole command line, ``queens serve`` and
its page included, run from the package with no Rust toolchain, as a newcomer runs it."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

# The console script pip writes beside the interpreter of the environment it installs into.
SCRIPT = Path(sys.executable).with_name("queens.exe" if os.name == "nt" else "queens")


def queens(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """Runs the installed ``queens`` script."""
    if not SCRIPT.exists():
        pytest.skip(f"no queens script beside {sys.executable} (the module is not installed)")
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout)


def test_the_script_counts_and_prints_the_published_figures():
    done = queens("count", "10")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("N = 10: 724 solutions, 92 unique")


def test_python_dash_m_runs_the_same_command():
    done = subprocess.run(
        [sys.executable, "-m", "queens_workbench", "count", "8", "--json"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert (document["total"], document["unique"]) == (92, 12)


def test_exit_codes_and_messages_are_the_commands():
    assert queens("solve", "3").returncode == 1
    refused = queens("solve", "0")
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: ")
    unknown = queens("bogus")
    assert unknown.returncode == 2 and "unrecognized subcommand" in unknown.stderr
    assert queens("--version").stdout.strip() == f"queens {__import__('queens_workbench').__version__}"


def test_a_closed_standard_output_is_refused_as_the_binary_refuses_it():
    """The answer is never printed nowhere: the script and ``python -m`` say so and exit 1."""
    if not SCRIPT.exists():
        pytest.skip("the module is not installed")
    for command in ([str(SCRIPT)], [sys.executable, "-m", "queens_workbench"]):
        done = subprocess.run(
            ["sh", "-c", 'exec "$@" >&-', "sh", *command, "count", "8"],
            capture_output=True, text=True, timeout=60,
        )
        assert done.returncode == 1, (command, done.stderr)
        assert "standard output is closed" in done.stderr, done.stderr


def test_help_names_the_program_queens():
    done = queens("solve", "-h")
    assert done.returncode == 0
    assert "Usage: queens solve" in done.stdout


def test_a_count_is_one_document_in_the_command_and_in_python():
    import queens_workbench as qw

    for args, keywords in [
        (["8"], {}),
        (["17", "--time-limit", "0.05", "--threads", "1"], {"time_limit": 0.05, "threads": 1}),
    ]:
        done = queens("count", *args, "--json")
        printed = json.loads(done.stdout)
        counted = qw.count(int(args[0]), **keywords).to_dict()
        assert printed["complete"] == counted["complete"] == (done.returncode == 0)
        assert sorted(printed) == sorted(counted), (printed, counted)


def test_a_solution_written_by_the_script_is_verified_by_it(tmp_path):
    board = tmp_path / "board.txt"
    assert queens("solve", "1000", "--solver", "min-conflicts", "-o", str(board)).returncode == 0
    verified = queens("verify", str(board))
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_serve_answers_the_page_and_the_api_then_stops_on_ctrl_c():
    if not SCRIPT.exists():
        pytest.skip("the module is not installed")
    server = subprocess.Popen(
        [str(SCRIPT), "serve", "--addr", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = server.stdout.readline()
        assert "serving http://" in line, line + server.stderr.read()
        url = line[line.index("http://"):].split()[0]
        with urllib.request.urlopen(url, timeout=10) as page:
            assert page.status == 200
            assert "<!doctype html>" in page.read().decode().lower()
        with urllib.request.urlopen(url + "api/solvers", timeout=10) as answer:
            solvers = json.load(answer)["solvers"]
        assert "min-conflicts" in [solver["name"] for solver in solvers]
        with urllib.request.urlopen(url + "js/board.js", timeout=10) as script:
            assert script.status == 200
        started = time.monotonic()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=5)
        assert time.monotonic() - started < 2
        # Quietly, as the binary stops: no KeyboardInterrupt traceback.
        assert server.returncode == 0, server.stderr.read()
        assert "Traceback" not in server.stderr.read()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        server.stdout.close()
        server.stderr.close()


def test_the_package_imports_without_numpy_until_the_api_is_used():
    # The `queens` script imports the package; NumPy alone takes a third of a second to import.
    probe = (
        "import sys, queens_workbench as qw\n"
        "light = 'numpy' not in sys.modules\n"
        "names = [getattr(qw, name) for name in qw.__all__]\n"
        "print(light, 'numpy' in sys.modules, qw.__version__)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    light, loaded, version = done.stdout.split()
    assert (light, loaded) == ("True", "True")
    assert version == __import__("queens_workbench").__version__


def test_a_missing_name_is_an_attribute_error():
    import queens_workbench as qw

    with pytest.raises(AttributeError, match="no attribute 'solvee'"):
        qw.solvee  # noqa: B018
