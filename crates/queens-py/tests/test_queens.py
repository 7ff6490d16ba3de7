"""The queens_workbench module as a notebook user meets it: every function, its errors, reproducibility,
the GIL released during work, Ctrl-C, and a million queens."""

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import queens_workbench as qw
from conftest import rendered_dom

OEIS = {1: (1, 1), 4: (2, 1), 5: (10, 2), 6: (4, 1), 7: (40, 6), 8: (92, 12), 9: (352, 46),
        10: (724, 92), 11: (2680, 341), 12: (14200, 1787)}


def _peaceful(queens):
    """Whether no two of ``queens`` ((row, col) pairs) share a row, column or diagonal."""
    lines = [f(r, c) for r, c in queens for f in (lambda r, c: ("r", r), lambda r, c: ("c", c),
                                                   lambda r, c: ("d", r - c), lambda r, c: ("a", r + c))]
    return len(lines) == len(set(lines))


def test_solutions_lists_every_solution_as_solve_all_does():
    for n, (total, _) in OEIS.items():
        if n > 9:
            continue
        found = qw.solutions(n)
        assert len(found) == total, n
        assert len({tuple(queens) for queens in found}) == total, n
        assert all(len(queens) == n and _peaceful(queens) and queens == sorted(queens)
                   for queens in found), n
    # Queens fixed: the completions, by every exhaustive solver; the first K; rows left empty.
    for solver in ["row-brute-force", "backtracking", "forward-checking"]:
        fixed = qw.solutions(8, fix=["d1"], solver=solver)
        assert len(fixed) == 18 and all((0, 3) in queens for queens in fixed), solver
    assert len(qw.solutions(8, limit=3)) == 3
    assert all(len(queens) == 2 for queens in qw.solutions("3x4", queen_count=2))
    with pytest.raises(ValueError, match="min-conflicts finds one solution"):
        qw.solutions(8, solver="min-conflicts")
    with pytest.raises(ValueError, match="limit"):
        qw.solutions(8, limit=0)
    # A stop keeps what was found, and says so.
    with pytest.warns(RuntimeWarning, match="stopped"):
        some = qw.solutions(8, max_nodes=300)
    assert 0 < len(some) < 92 and all(_peaceful(queens) for queens in some)


def _images(queens, n):
    """The eight turns and mirrors of ``queens`` on an n×n board, each sorted."""
    maps = [lambda r, c: (r, c), lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - r, n - 1 - c),
            lambda r, c: (n - 1 - c, r), lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
            lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r)]
    return [sorted(f(r, c) for r, c in queens) for f in maps]


def test_solutions_unique_lists_each_kind_once_as_solve_all_unique_does():
    for n, (total, unique) in OEIS.items():
        if n > 10:
            continue
        every = qw.solutions(n)
        kinds = qw.solutions(n, unique=True)
        assert len(kinds) == unique, n
        # Each the least of its kind: no turn or mirror of it is smaller, none is another's.
        for queens in kinds:
            assert queens == min(_images(queens, n)), (n, queens)
        # Each kind of every solution once.
        classes = {tuple(min(_images(queens, n))) for queens in every}
        assert sorted(map(tuple, kinds)) == sorted(classes), n
    # As the command line lists them, in its order.
    listed = subprocess.run([sys.executable, "-m", "queens_workbench", "solve", "8", "--all", "--unique",
                             "--format", "perm"], capture_output=True, text=True, check=True).stdout
    assert [sorted((int(row), col) for col, row in enumerate(line.split()))
            for line in listed.splitlines()] == qw.solutions(8, unique=True)
    # Squares blocked keep the mirror that keeps them; a limit is refused.
    assert len(qw.solutions(8, blocked=["a1", "h1"], unique=True)) == 42
    with pytest.raises(ValueError, match="no limit"):
        qw.solutions(8, unique=True, limit=3)


def test_solve_gives_a_verified_solution_with_the_contract_fields():
    solution = qw.solve(8, solver="forward-checking", fix=["d1", (6, 4)])
    assert solution.solved and solution.status == "solved"
    assert (0, 3) in solution.queens and (6, 4) in solution.queens
    assert qw.verify(solution).pairs == ()
    document = solution.to_dict()
    assert list(document)[:10] == [
        "n", "rows", "cols", "solver", "seed", "solved", "queens", "iterations", "nodes",
        "elapsed_ms",
    ]
    assert document["queens"] == [{"row": r, "col": c} for r, c in solution.queens]
    assert "Q" in repr(solution) and "a b c d e f g h" in repr(solution)
    assert solution._repr_html_().startswith("<svg")
    # The labelled diagram reads back, as the command line's does.
    assert qw.verify(solution.diagram())


def test_an_exhaustive_search_finds_every_solution_when_asked():
    every = qw.solve(8, solver="backtracking", params={"solutions": 0})
    assert every.status == "solved" and every.solutions == 92
    assert every.queens == qw.solve(8, solver="backtracking").queens
    assert "92 solutions" in repr(every)
    locked = qw.solve(8, solver="forward-checking", fix=["d1"], params={"solutions": 0})
    assert locked.solutions == qw.count(8, fix=["d1"]).total
    stopped = qw.solve(10, solver="backtracking", params={"solutions": 0}, max_nodes=5_000)
    assert stopped.status == "stopped" and 0 < stopped.solutions < 724
    assert qw.verify(stopped).pairs == ()


def test_rectangular_boards_and_partial_queen_counts():
    solution = qw.solve("6x9", queen_count=5)
    assert solution.solved and len(solution.queens) == 5
    assert solution.perm is None
    assert qw.verify(solution.queens, n="6x9").pairs == ()


def test_numbers_are_whole_or_refused_as_the_command_line_refuses_them():
    for call in [
        lambda: qw.verify([1.9, 3.2, 0.1, 2.7]),
        lambda: qw.verify(np.array([1.0, 3.0, 0.0, 2.0])),
        lambda: qw.count(8, fix=[(0.2, 0.2)]),
        lambda: qw.solve(8, fix=[(0, 1.5)]),
        lambda: qw.configure(8.7),
        lambda: qw.configure(8, queens=[(True, 1)]),
        lambda: qw.count(8.5),
        lambda: qw.solve(8.5),
        lambda: qw.count(8, max_estimate=float("nan")),
    ]:
        with pytest.raises(ValueError):
            call()
    # Whole numbers in any dress are taken.
    assert qw.verify([1.0, 3.0, 0.0, 2.0])
    assert qw.configure(np.int64(6)).n == 6
    assert qw.solve(8.0).solved


def test_squares_are_looked_up_on_the_board_only():
    analysis = qw.configure(8, queens=["d1"])
    for off in ["i1", "a9", (8, 0), (0, 8)]:
        with pytest.raises(ValueError, match="off the 8×8 board"):
            analysis.status(off)
        with pytest.raises(ValueError, match="off the 8×8 board"):
            analysis.reason(off)
    assert analysis.status("d1") == "queen"
    # Past 26 columns squares are named rRcC, and no file letters are drawn under a diagram.
    wide = qw.solve("6x30", queen_count=6).diagram()
    assert wide.splitlines()[-1].lstrip().startswith("1 "), wide
    assert qw.configure(30).diagram().splitlines()[-1].lstrip().startswith("1 ")


def test_python_names_squares_and_draws_files_as_the_command_line_does():
    # The names come from the workbench's one rule, the same as queens configure's text.
    narrow = qw.configure(8, queens=["d1"])
    assert narrow.diagram().splitlines()[-1].split() == list("abcdefgh")
    assert narrow.to_pandas()["square"].iloc[3] == "d1"
    wide = qw.configure(30, queens=["r1c4"]).to_pandas()
    assert list(wide["square"].iloc[[3, 30]]) == ["r1c4", "r2c1"]
    cli = subprocess.run([sys.executable, "-m", "queens_workbench", "configure", "8", "--queens",
                          "d1"], capture_output=True, text=True, check=True).stdout
    assert narrow.diagram().splitlines()[-1].strip() == cli.splitlines()[8].strip()


def test_verify_judges_every_solution_by_its_own_problem():
    # Shape, queen count, fixed and blocked squares all come from the solution's problem.
    for solution in [
        qw.solve(8, queen_count=7),
        qw.solve("4x11"),
        qw.solve("11x4"),
        qw.solve("11x4", queen_count=3),
        qw.solve(6, fix=["a2"], blocked=["b1"]),
    ]:
        verdict = qw.verify(solution)
        assert verdict, (solution, verdict)
        assert (verdict.rows, verdict.cols) == (solution.rows, solution.cols)
    # A queen on its own blocked square is no solution.
    document = qw.solve(6, blocked=["b1"]).to_dict()
    document["blocked"] = [document["queens"][0]]
    assert not qw.verify(json.dumps(document))


def test_parameters_seeds_and_budgets():
    first = qw.solve(16, solver="hill-climbing-constant-shake", seed=7, params={"p": 0.3, "q": 3})
    again = qw.solve(16, solver="hill-climbing-constant-shake", seed=7, params={"p": 0.3, "q": 3})
    assert (first.queens, first.iterations) == (again.queens, again.iterations)
    # Plain hill climbing stops on its first local optimum; random search runs to its cap.
    stuck = qw.solve(8, solver="hill-climbing", seed=1)
    assert stuck.status == "stopped" and stuck.iterations < 1000
    assert stuck.stop_reason.startswith("stuck on a local optimum")
    capped = qw.solve(8, solver="random-search", seed=1)
    assert (capped.status, capped.iterations) == ("stopped", 1000)
    assert capped.stop_reason.startswith("budget exhausted")
    timed = qw.solve(12, solver="brute-force", max_nodes=10**12, time_limit=0.2)
    assert timed.status == "stopped" and timed.stop_reason.startswith("time limit")


def test_bad_input_raises_value_error_with_the_command_lines_words():
    cases = [
        (lambda: qw.solve(0), "N must be at least 1, got 0"),
        (lambda: qw.solve("8x"), "in board size '8x'"),
        (lambda: qw.solve(8, solver="slove"), "unknown solver 'slove'"),
        (lambda: qw.solve(8, fix=["i1"]), "off the 8×8 board"),
        (lambda: qw.solve(8, fix=["a1", "h8"]), "attack each other"),
        (lambda: qw.solve(8, solver="genetic", params={"population": 4294967295}),
         "population must be at most 100000"),
        (lambda: qw.solve(8, solver="hill-climbing-constant-shake", params={"p": 2}),
         "p must be in [0, 1], got 2"),
        (lambda: qw.solve(8, solver="genetic", params={"p": 0.1}),
         "genetic has no parameter 'p'"),
        (lambda: qw.solve(8, solver="construct", fix=["a1"]), "cannot honour fixed queens"),
        (lambda: qw.count(40), "N from 1 to 32"),
        (lambda: qw.count(8, threads=0), "threads= must be at least 1"),
        (lambda: qw.configure(8, ["d1", "d2"]), "attack"),
        (lambda: qw.experiment(["genetic"], [8], 10**9), "at most 10000000 runs"),
        (lambda: qw.verify("hello"), "unrecognised board format"),
        (lambda: qw.verify([2, 4, 1, 3]), "1-based"),
    ]
    for call, words in cases:
        with pytest.raises(ValueError) as error:
            call()
        assert words in str(error.value), (words, str(error.value))


def test_every_whole_number_argument_out_of_its_field_is_refused_by_name():
    # Negative, and past the engine's 32- or 64-bit field: each a ValueError that names the
    # argument (the native conversion's OverflowError named none), zero left to the engine's
    # own sentence, as on the command line.
    arguments = {
        "queen_count": (lambda v: qw.solve(8, queen_count=v), 32),
        "max_iters=": (lambda v: qw.solve(8, solver="min-conflicts", max_iters=v), 64),
        "max_nodes=": (lambda v: qw.configure(8, max_nodes=v), 64),
        "runs=": (lambda v: qw.experiment(["min-conflicts"], [8], runs=v), 64),
        "limit": (lambda v: qw.verify([0] * 8, limit=v), 64),
    }
    for name, (call, bits) in arguments.items():
        for value, words in [(-1, "must not be negative, got -1"),
                             (2**bits, f"must be at most {2**bits - 1}, got {2**bits}")]:
            with pytest.raises(ValueError) as error:
                call(value)
            said = str(error.value)
            assert said.startswith(f"{name} {words}") or f"{name} {words}" in said, (name, said)
    # A board side is refused in the sentence of the computation asked for, however large: past
    # 2³²−1 the command's own limit is named, never the board type's 4294967295.
    for n in (-1, 0):
        for call in (qw.count, qw.configure, qw.challenge, lambda n: qw.count(n, fix=["a1"])):
            with pytest.raises(ValueError, match=f"^N must be at least 1, got {n}$"):
                call(n)

    def shown(n):
        return str(n) if len(str(n)) <= 40 else f"{str(n)[:40]}… ({len(str(n))} characters)"

    for most, call, words in [
        (32, qw.count, "counting supports N from 1 to 32 (the kernel's bit width), got {}"),
        (64, lambda n: qw.count(n, fix=["a1"], engine="backtracking"),
         "completions are counted row by row on boards up to 64×64, got N = {}"),
        (64, qw.challenge,
         "the challenge table runs every square of the board: N = {} is too large (at most 64)"),
        (512, qw.configure, "the configurator works on boards of side 1 to 512, not {}"),
    ]:
        for n in (most + 1, 2**32, 5 * 10**9, 10**60):
            with pytest.raises(ValueError) as error:
                call(n)
            assert str(error.value) == words.format(shown(n)), (n, str(error.value))
    with pytest.raises(ValueError, match="n must be a whole number, got 8.5"):
        qw.count(8.5)
    # An experiment's sizes are read as the command line reads them, in its words.
    for size, words in [(0, "N must be at least 1, got 0"), (-1, "N must be at least 1, got -1"),
                        (2**32, "N must be at most 4294967295, got 4294967296"),
                        ("x", "a size must be a whole number, got 'x'")]:
        with pytest.raises(ValueError) as error:
            qw.experiment(["min-conflicts"], [8, size], runs=2)
        assert str(error.value) == words, (size, str(error.value))
    # A board's size is read as the command line reads it, in its words.
    with pytest.raises(ValueError, match="N must be at least 1, got -1"):
        qw.solve(-1)
    with pytest.raises(ValueError, match="N must be at most 4294967295, got 4294967296"):
        qw.solve(2**32)
    with pytest.raises(ValueError, match="N must be at least 1, got 0"):
        qw.challenge(0)
    with pytest.raises(ValueError, match="threads= must not be negative, got -1"):
        qw.count(8, threads=-1)
    with pytest.raises(ValueError, match=f"threads= must be at most 1024, got {2**64}"):
        qw.count(8, threads=2**64)
    with pytest.raises(ValueError, match="both from 0 to 4294967295"):
        qw.configure(8, queens=[(-1, 0)])


def test_events_replay_to_the_solution():
    events = []
    solution = qw.solve(8, solver="min-conflicts-minton", seed=2, fix=["d1"], on_event=events.append)
    assert events[0]["type"] == "started" and len(events[0]["board"]) == 8
    board = {(q["row"], q["col"]) for q in events[0]["board"]}
    for event in events:
        if event["type"] == "place":
            board.add((event["square"]["row"], event["square"]["col"]))
        elif event["type"] == "remove":
            board.remove((event["square"]["row"], event["square"]["col"]))
        elif event["type"] == "move":
            board.remove((event["from"]["row"], event["from"]["col"]))
            board.add((event["to"]["row"], event["to"]["col"]))
    assert events[-1]["type"] == "finished"
    assert board == set(solution.queens)


def test_an_exception_in_on_event_stops_the_run():
    seen = []

    def stop(event):
        seen.append(event)
        if len(seen) == 5:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        qw.solve(12, solver="brute-force", on_event=stop)
    assert len(seen) == 5


def test_verify_reads_every_board_form():
    assert qw.verify([1, 3, 0, 2]).pairs == ()
    assert qw.verify(np.array([1, 3, 0, 2])).pairs == ()
    assert qw.verify([(0, 0), (1, 1)]).pairs == (((0, 0), (1, 1), "diagonal"),)
    assert qw.verify(". Q . .\n. . . Q\nQ . . .\n. . Q .").pairs == ()
    assert qw.verify("b1,c2").pairs == (((0, 1), (1, 2), "diagonal"),)
    assert qw.verify([0, None, 1], n=3).pairs == ()
    assert qw.verify([0, None, 2]).pairs == (((0, 0), (2, 2), "diagonal"),)
    # A 0/1 matrix, as an array or as lists, is judged as the board it draws, not flattened.
    matrix = [[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0]]
    for board in (matrix, np.array(matrix)):
        checked = qw.verify(board)
        assert checked and (checked.rows, checked.queens) == (4, 4), checked
    assert not qw.verify(np.eye(4, dtype=int))
    assert qw.verify(np.eye(4, dtype=int)).pairs[0][2] == "diagonal"
    # Squares as lists are squares.
    assert qw.verify([[0, 0], [1, 1], [2, 2]]).queens == 3


def test_verify_refuses_what_is_no_board():
    for board, words in [
        (np.zeros((2, 2, 2), dtype=int), "3 dimensions"),
        ([[0, 1, 2], [0, 0, 0], [1, 0, 0]], "0 and 1 only"),
        ([[0, 1, 0], [1, 0]], "rows of one length"),
        ([1, 3, 0, 2**64 - 1], "from 0 to"),
        (np.array([1, 3, 0, 2**64 - 1], dtype=np.uint64), "from 0 to"),
    ]:
        with pytest.raises(ValueError, match=words):
            qw.verify(board)


def test_a_position_count_refuses_every_whole_count_argument():
    for keywords in [{"device": 0}, {"shard": "1/2"}, {"memory": "1G"}]:
        with pytest.raises(ValueError, match="is for whole counts"):
            qw.count(8, fix="d1", **keywords)


def test_whole_numbers_and_seconds_are_read_alike_everywhere():
    """Bools are no numbers anywhere; a whole float is a whole number anywhere; NumPy integers
    of every width are taken as they are."""
    for call in [
        lambda: qw.count(8, threads=True),
        lambda: qw.count(8, device=False),
        lambda: qw.count(8, time_limit=True),
        lambda: qw.solve(8, solver="hill-climbing", seed=True),
        lambda: qw.solve(8, solver="hill-climbing", max_iters=True),
        lambda: qw.solve(8, solver="hill-climbing", time_limit=True),
        lambda: qw.solve(8, solver="backtracking", max_nodes=False),
        lambda: qw.solve(8, solver="hill-climbing", seed=1.5),
        lambda: qw.experiment("hill-climbing", 8, 2, max_iters=True),
        lambda: qw.verify([1, 3, 0, 2], limit=True),
        lambda: qw.verify([1, 3, 0, 2], queen_count=True),
    ]:
        with pytest.raises(ValueError):
            call()
    assert qw.solve(8, solver="hill-climbing", seed=1.0).seed == 1
    assert qw.solve(8, solver="hill-climbing", seed=np.uint64(7)).seed == 7
    assert qw.count(8, threads=np.int8(1)).total == 92
    assert qw.solve(8, solver="backtracking", max_nodes=np.uint64(10**6)).solved


def test_the_module_lists_its_own_names_only():
    assert dir(qw) == sorted(qw.__all__)
    assert "devices" in qw.__all__
    for name in qw.__all__:
        assert getattr(qw, name) is not None


def test_defaults_and_limits_come_from_the_one_table():
    import inspect

    from queens_workbench import _queens

    table = json.loads(_queens.limits())
    defaults, limits = table["defaults"], table["limits"]
    assert inspect.signature(qw.count).parameters["max_estimate"].default == \
        defaults["max_estimate_seconds"]
    assert inspect.signature(qw.experiment).parameters["seed"].default == defaults["seed"]
    # The table says where the engines refuse.
    assert qw.count(8).total == 92
    with pytest.raises(ValueError):
        qw.count(limits["count_max_n"] + 1)
    with pytest.raises(ValueError):
        qw.configure(limits["configure_max_n"] + 1)


def test_counts_match_oeis():
    for n, (total, unique) in OEIS.items():
        counted = qw.count(n)
        assert (counted.total, counted.unique) == (total, unique), n
    parts = [qw.count(11, shard=(i, 3)) for i in range(3)]
    assert sum(p.total for p in parts) == 2680
    assert parts[0].to_dict()["shards"] == 3
    # Where the shard was counted, as the command line's reports say it.
    place = parts[0].to_dict()["counted_on"]
    assert re.search(r"\d+ threads? \(backtracking engine\)$", place), place
    # A whole count says it too.
    place = qw.count(9, threads=1).to_dict()["counted_on"]
    assert place.endswith("1 thread (backtracking engine)"), place
    assert parts[0].unique is None
    assert parts[0].engine == "backtracking", "as its report's counted_on says"
    assert qw.count(12, threads=1).to_dict()["threads"] == 1
    assert qw.count(14).to_dict()["engine"] == "join"
    assert qw.count(9).to_dict()["engine"] == "backtracking"
    assert qw.count(14, engine="backtracking").total == 365596
    assert qw.count(14, memory="2M").engine == "backtracking", "the join does not fit in 2 MiB"


def test_shards_merge_into_the_whole_count_as_the_command_merges_them(tmp_path):
    parts = [qw.count(12, shard=(i, 3), threads=1) for i in range(3)]
    merged = qw.merge(parts)
    assert merged.complete and (merged.total, merged.unique) == (14200, 1787)
    assert merged.engine == "merged" and "merged from 3 shards" in repr(merged)
    assert "merged from" in merged._repr_html_()
    document = merged.to_dict()
    assert document["shards"] == 3 and document["nodes"] > 0
    assert document["counted_on"][0]["shards"] == 3, "one place counted all three"
    # The command's reports, its documents as dicts and Counts mix; recounts are checked.
    script = Path(sys.executable).with_name("queens")
    if script.exists():
        done = subprocess.run([str(script), "count", "12", "--shard", "1/3", "--dir",
                               str(tmp_path)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        mixed = qw.merge([parts[0], tmp_path / "shard-1-of-3.json", parts[2].to_dict()],
                         recount=[str(tmp_path / "shard-1-of-3.json"), parts[0]])
        assert mixed.to_dict() | {"counted_on": None} == document | {"counted_on": None}
    # A file named twice, by its name or through a link, is read once, as `queens merge`
    # reads it; the same shard in two files is still refused, naming both.
    files = []
    for index, part in enumerate(parts):
        files.append(tmp_path / f"part-{index}.json")
        files[-1].write_text(json.dumps(part.to_dict()))
    os.link(files[2], tmp_path / "hard.json")
    os.symlink(files[1].name, tmp_path / "soft.json")
    named_twice = qw.merge([files[0], files[1], str(files[1]), tmp_path / "soft.json",
                            files[2], tmp_path / "hard.json"])
    assert (named_twice.total, named_twice.unique) == (14200, 1787)
    # A name with a `*` that is no file is the files it matches, as the command reads it.
    by_pattern = qw.merge([tmp_path / "part-*.json", files[0]])
    assert (by_pattern.total, by_pattern.unique) == (14200, 1787)
    with pytest.raises(ValueError, match="no file matches .*nothing-\\*.json"):
        qw.merge([tmp_path / "nothing-*.json"])
    copy = tmp_path / "copy.json"
    copy.write_bytes(files[1].read_bytes())
    with pytest.raises(ValueError, match="appears twice: .*part-1.json and .*copy.json"):
        qw.merge([*files, copy])
    # What cannot make one exact count is refused by name, never summed.
    stopped = qw.count(17, shard=(0, 2), threads=1, time_limit=0.2)
    assert not stopped.complete
    forged = parts[1].to_dict() | {"total": parts[1].total + 1}
    other = qw.count(11, shard=(1, 3), threads=1)
    for call, said in [
        (lambda: qw.merge(parts[:2]), r"missing .*2"),
        (lambda: qw.merge([parts[0], parts[1], parts[1]]), r"shards\[2\]"),
        (lambda: qw.merge([parts[0], forged, parts[2]]), r"shards\[1\]"),
        (lambda: qw.merge([parts[0], other, parts[2]]), r"shards\[1\] does not belong"),
        (lambda: qw.merge([stopped]), r"shards\[0\] is a shard that stopped before its end"),
        (lambda: qw.merge([qw.count(8)]), r"shards\[0\] is not a shard report"),
        (lambda: qw.merge([tmp_path / "none.json"]), "none.json"),
        (lambda: qw.merge([]), "no shard"),
        (lambda: qw.merge(parts[0]), "must be a list of shards"),
        (lambda: qw.merge([12]), r"shards\[0\] must be a Count"),
        (lambda: qw.merge(parts, recount=[forged]), r"recount\[0\]"),
    ]:
        with pytest.raises(ValueError, match=said):
            call()


def test_count_on_a_gpu_or_says_what_is_missing(tmp_path):
    found = qw.devices()
    hardware = [d for d in found if d["type"] in ("discrete", "integrated", "virtual")]
    # A GPU is named by its index or its PCI address; anything else is refused as it is read.
    with pytest.raises(ValueError, match="device must be an index .* or a PCI address"):
        qw.count(10, engine="gpu", device="gpu0")
    with pytest.raises(ValueError, match="'0000:3b:00' is not a PCI address"):
        qw.count(10, engine="gpu", device="0000:3b:00")
    missing = "there is no GPU at PCI address 0000:ff:1f.7" if found else "no GPU to count on"
    with pytest.raises(ValueError, match=missing):
        qw.count(10, engine="gpu", device="FF:1F.7")
    if not found:
        with pytest.raises(ValueError, match="no GPU to count on"):
            qw.count(10, engine="gpu")
        return
    if not hardware:
        with pytest.raises(ValueError, match="no hardware GPU found"):
            qw.count(10, engine="gpu")
    counted = qw.count(12, engine="gpu", device=found[0]["index"])
    assert (counted.total, counted.unique) == (14200, 1787)
    assert counted.to_dict()["engine"] == "gpu"
    assert counted.to_dict()["device"] == found[0]["name"]
    with pytest.raises(ValueError, match="there is no device"):
        qw.count(10, engine="gpu", device=len(found))
    # A checkpoint moves between the GPU and the CPU: stopped on the GPU, finished on a thread.
    saved = tmp_path / "c15.json"
    first = qw.count(15, engine="gpu", device=found[0]["index"], time_limit=0.3, checkpoint=saved)
    then = qw.count(15, engine="backtracking", threads=1, checkpoint=saved)
    assert (then.total, then.unique) == (2279184, 285053)
    if not first.complete and first.to_dict()["finished"] > 0:
        assert "(gpu engine); then " in then.to_dict()["counted_on"], then.to_dict()


def test_count_refuses_what_would_take_months_and_stops_at_its_time_limit():
    with pytest.raises(ValueError, match=r"counting N = 24 would take about .*max_estimate="):
        qw.count(24)
    with pytest.raises(ValueError, match="memory must be a size like 8G"):
        qw.count(12, memory="lots")
    with pytest.raises(ValueError, match="unknown counting engine"):
        qw.count(12, engine="gpu-please")
    stopped = qw.count(17, threads=1, time_limit=0.3)
    assert not stopped.complete and stopped.status == "stopped"
    assert "time limit" in stopped.stop_reason
    assert 0 < stopped.total < 95815104, "a lower bound"
    assert stopped.unique is None, "no unique count without every part"
    document = stopped.to_dict()
    assert document["complete"] is False and 0 < document["finished"] < document["parts"]
    assert "at least" in repr(stopped)
    seen = []
    whole = qw.count(13, progress=lambda done, of: seen.append((done, of)))
    assert whole.complete and whole.total == 73712
    assert seen and seen[-1][0] == seen[-1][1]


def test_a_count_with_a_checkpoint_resumes_where_it_stopped(tmp_path):
    saved = tmp_path / "c16.json"
    stopped = qw.count(16, threads=1, engine="backtracking", time_limit=0.3, checkpoint=saved)
    assert not stopped.complete and saved.is_file(), "a stop saves what was counted"
    kept = stopped.to_dict()["finished"]
    assert 0 < kept < stopped.to_dict()["parts"]
    # The same call resumes: the parts saved are not counted again, and the sum is exact.
    resumed = qw.count(16, threads=1, engine="backtracking", checkpoint=str(saved))
    assert resumed.complete and (resumed.total, resumed.unique) == (14772512, 1846955)
    assert resumed.to_dict()["counted_on"].endswith("1 thread (backtracking engine)")
    # The file is the command line's: `queens count --checkpoint` reads it as its own (and
    # finds nothing left to count); a count of another board is refused, not mixed in.
    script = Path(sys.executable).with_name("queens")
    if script.exists():
        done = subprocess.run(
            [str(script), "count", "16", "--engine", "backtracking", "--checkpoint", str(saved),
             "--json"], capture_output=True, text=True, timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["total"] == 14772512
    with pytest.raises(ValueError, match="belongs to another count"):
        qw.count(12, engine="backtracking", checkpoint=saved)
    # Every checkpoint argument that cannot be taken is refused by name, none dropped.
    for call, said in [
        (lambda: qw.count(10, checkpoint_every=5), "checkpoint_every= goes with a checkpoint"),
        (lambda: qw.count(10, checkpoint=saved, checkpoint_every=0),
         "checkpoint_every= must be a positive number of seconds"),
        (lambda: qw.count(10, checkpoint=saved, checkpoint_every="5"),
         "checkpoint_every must be a number of seconds"),
        (lambda: qw.count(10, checkpoint=5), "checkpoint must be a file path"),
        (lambda: qw.count(10, checkpoint=""), "checkpoint must be a file path"),
        (lambda: qw.count(8, fix="b4", checkpoint=saved), "checkpoint is for whole counts"),
    ]:
        with pytest.raises(ValueError, match=said):
            call()


def test_a_checkpoint_keeps_a_count_stopped_by_ctrl_c_and_says_when_it_cannot_be_saved(tmp_path):
    saved = tmp_path / "c17.json"
    code, out, _ = interrupted(
        f'qw.count(17, threads=1, engine="backtracking", checkpoint={str(saved)!r})', after=1.5
    )
    assert code == 3 and "interrupted" in out, (code, out)
    # What it counted before Ctrl-C is in the file, and a second run counts only the rest.
    first = qw.count(17, engine="backtracking", time_limit=1e-9, checkpoint=saved)
    assert not first.complete and first.to_dict()["finished"] > 0
    assert first.total > 0, "the parts saved at Ctrl-C, read back"
    # A disk that takes no checkpoint: a RuntimeWarning, and the count goes on to its answer.
    full_disk = textwrap.dedent(
        """
        import resource, signal, warnings
        import queens_workbench as qw
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            counted = qw.count(14, threads=1, engine="backtracking", checkpoint="c.json")
        print(counted.total)
        for warning in caught:
            print(warning.category.__name__, warning.message)
        """
    )
    done = subprocess.run([sys.executable, "-B", "-c", full_disk], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "365596", done.stdout
    assert any(line.startswith("RuntimeWarning") and "cannot write c.json" in line
               and "the count is complete, but its last save failed" in line
               for line in lines[1:]), done.stdout


def test_an_address_space_limit_gives_an_exception_or_an_answer():
    """Under any address-space limit a call raises a ValueError or MemoryError that says what
    is short, or answers: never a crash, and never a panic of a worker thread that could not
    start (or that started without room for its signal stack)."""
    script = textwrap.dedent(
        """
        import resource, sys
        import numpy
        import queens_workbench as qw
        qw.count(4)
        size = next(int(line.split()[1]) for line in open("/proc/self/status")
                    if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS,
                           ((size + int(sys.argv[1])) * 1024, resource.RLIM_INFINITY))
        for call in (lambda: qw.count(10, engine="backtracking", threads=1).total,
                     lambda: qw.verify([1, 3, 0, 2]).valid,
                     lambda: qw.solve(8).status):
            try:
                print(call())
            except (ValueError, MemoryError) as error:
                print(type(error).__name__, error)
        """
    )
    answered = set()
    heard = []
    # The C allocator reserves 64 MiB of address space for the arena of each thread that first
    # allocates, so whether a limit 64 MiB above the process's size leaves room for a call's data
    # depends on which threads had allocated before; 512 MiB above it leaves room for every call.
    for extra_kib in (0, 1024, 2048, 3072, 4096, 8192, 65536, 131072, 524288):
        done = subprocess.run([sys.executable, "-B", "-c", script, str(extra_kib)],
                              capture_output=True, text=True, timeout=120)
        said = f"+{extra_kib} KiB: {done.returncode} {done.stdout} {done.stderr}"
        heard.append(said)
        assert done.returncode == 0, said
        lines = done.stdout.splitlines()
        assert len(lines) == 3, said
        for line, answer in zip(lines, ("724", "True", "solved")):
            if line == answer:
                answered.add(answer)
            else:
                assert re.match(r"(ValueError|MemoryError) .*(memory is available|ulimit -v)",
                                line), said
    assert answered == {"724", "True", "solved"}, "every call answers under some limit:\n" + \
        "\n".join(heard)


def test_the_worker_threads_variable_is_read_within_the_threads_limits():
    """``RAYON_NUM_THREADS`` sizes the worker threads as it does for the command: within
    ``threads=``'s limits, a value that says no number of threads refused by the first call that
    would start them (the import goes through, and ``queens`` from the wheel says so as the
    command does), where ``99999999`` held the first count for minutes starting threads."""
    script = "import queens_workbench as qw; print(qw.count(9).to_dict()['threads'])"

    def run(given, *arguments):
        environment = {name: value for name, value in os.environ.items()
                       if name != "RAYON_NUM_THREADS"}
        if given is not None:
            environment["RAYON_NUM_THREADS"] = given
        arguments = arguments or ("-c", script)
        return subprocess.run([sys.executable, "-B", *arguments], env=environment,
                              capture_output=True, text=True, timeout=60)

    for given in ("abc", "1025", "99999999"):
        refusal = (f'RAYON_NUM_THREADS="{given}" is not a number of worker threads: give a whole '
                   "number from 1 to 1024 (0 for one a core), or unset it")
        done = run(given)
        assert done.returncode == 1, done.stderr
        assert done.stderr.strip().endswith(f"ValueError: {refusal}"), done.stderr
        assert ", in count\n" in done.stderr, "raised by the call, not the import"
        done = run(given, "-m", "queens_workbench", "count", "9")
        assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {refusal}\n")
    one_a_core = run(None).stdout.strip()
    for given, threads in (("3", "3"), ("0", one_a_core), ("", one_a_core)):
        done = run(given)
        assert done.returncode == 0 and done.stdout.strip() == threads, done.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="fork is Linux's default start method")
def test_a_forked_process_counts_and_keeps_its_time_limits():
    """``multiprocessing`` forks on Linux (Python before 3.14), and a fork keeps none of its
    parent's threads: a child of a process that had counted and had set a time limit waited for
    ever on the parent's worker threads, and its time limits would never have come. It counts on
    threads of its own, and a count with a time limit stops there as in the parent."""
    script = textwrap.dedent("""
        import multiprocessing, time
        import queens_workbench as qw

        def work(n):
            started = time.monotonic()
            stopped = qw.count(20, time_limit=0.3)
            return qw.count(n).total, stopped.complete, time.monotonic() - started

        if __name__ == "__main__":
            qw.count(12)
            qw.count(20, time_limit=0.3)
            with multiprocessing.get_context("fork").Pool(2) as pool:
                for answer in pool.map_async(work, [8, 10]).get(timeout=60):
                    print(*answer)
    """)
    done = subprocess.run([sys.executable, "-B", "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    answers = [line.split() for line in done.stdout.splitlines()]
    assert [(total, complete) for total, complete, _ in answers] == [
        ("92", "False"), ("724", "False")], done.stdout
    # N = 20 takes minutes on all cores: each stopped at its time limit.
    assert all(float(took) < 20 for _, _, took in answers), done.stdout


def test_completions_of_a_position_are_counted():
    nauck = qw.count(8, fix="b4,d5")
    assert nauck.total == 2 and nauck.unique is None and nauck.fixed == [(3, 1), (4, 3)]
    assert qw.count(8, fix="b4,d5", engine="backtracking").total == 2
    assert qw.count(8, blocked="a1,h1,a8,h8").total == qw.count(8, blocked="a1,h1,a8,h8", engine="backtracking").total
    assert "2 completions" in repr(nauck) and "<table>" in nauck._repr_html_()
    # The front door's sentences, as the command line gives them.
    for engine in ("join", "gpu"):
        with pytest.raises(ValueError, match=f"the {engine} engine counts whole boards"):
            qw.count(8, fix="b4", engine=engine)
    with pytest.raises(ValueError, match="threads= must be at least 1"):
        qw.count(8, fix="b4", threads=0)


def test_configure_analyses_a_position():
    analysis = qw.configure(8, ["d1", "e7"])
    assert analysis.solvable and analysis.completions == 3
    assert analysis.status("d5") == "attacked"
    assert analysis.to_dict()["cells"][3]["status"] == "queen"
    assert qw.configure(6, "a1").solvable is False


def test_objects_are_short_in_a_notebook():
    analysis = qw.configure(8, ["d1", "e7"])
    text = repr(analysis)
    assert text.splitlines()[0] == (
        "Analysis(8×8, solvable, 3 completions, 2 queens, 14 open, 39 attacked, 9 dead)"
    )
    assert len(text) < 400, "a summary and a diagram, not every cell"
    html = analysis._repr_html_()
    assert "#6f4235" in html and "dead: in no completion" in html
    assert analysis.reason("a2").startswith("a queen here forces")
    table = analysis.to_pandas()
    assert len(table) == 64 and set(table["status"]) >= {"queen", "open", "dead", "attacked"}
    big = repr(qw.configure(100, []))
    assert big.startswith("Analysis(100×100") and len(big) < 300
    rows = qw.experiment("optimized-hill-climbing", 8, 5, sweep={"q": [1, 2]})
    assert [row["params"]["q"] for row in rows] == [1, 2]
    assert all(isinstance(row["params"]["q"], int) for row in rows), "an integer parameter"
    frame = rows.to_pandas()
    assert list(frame["q"]) == [1, 2] and "success_rate" in frame
    assert "<table" in rows._repr_html_()
    assert repr(qw.count(10)).startswith("Count(N = 10: 724 solutions, 92 unique")


def test_configure_keeps_queens_off_blocked_squares():
    # Nauck's b4 and d5 have two completions; blocking c1 (in one of them) leaves the other.
    assert qw.configure(8, "b4,d5").completions == 2
    analysis = qw.configure(8, "b4,d5", blocked="c1")
    assert analysis.completions == 1
    assert analysis.blocked == [(0, 2)]
    assert analysis.status("c1") == "blocked"
    assert len(analysis.forced) == 6
    with pytest.raises(ValueError, match="c1 is blocked"):
        qw.configure(8, "c1", blocked="c1")


def test_experiments_are_rows_and_reproducible():
    rows = qw.experiment(["hill-climbing", "optimized-hill-climbing"], [6, 8], 40, seed=3)
    again = qw.experiment(["hill-climbing", "optimized-hill-climbing"], [6, 8], 40, seed=3)
    strip = lambda rs: [{k: v for k, v in r.items() if k != "median_ms"} for r in rs]
    assert strip(rows) == strip(again)
    assert [(r["solver"], r["n"], r["runs"]) for r in rows] == [
        ("hill-climbing", 6, 40), ("hill-climbing", 8, 40),
        ("optimized-hill-climbing", 6, 40), ("optimized-hill-climbing", 8, 40),
    ]
    sweep = qw.experiment("hill-climbing-constant-shake", 8, 10, sweep={"p": [0.1, 0.3], "q": [1, 2]})
    assert sorted((r["params"]["p"], r["params"]["q"]) for r in sweep) == [
        (0.1, 1.0), (0.1, 2.0), (0.3, 1.0), (0.3, 2.0)
    ]
    shown = qw.experiment("optimized-hill-climbing", 8, 20, progress=True)
    assert shown[0]["runs"] == 20


def test_solvers_are_described():
    descriptors = {d["name"]: d for d in qw.solvers()}
    assert len(descriptors) == 17
    genetic = descriptors["genetic"]
    assert len(genetic["explanation"]) > 200
    assert genetic["score"].startswith("the best fitness in the population")
    assert [p["name"] for p in genetic["parameters"]][:2] == ["population", "tournament"]
    assert genetic["shapes"] == {
        "boards": "rectangular",
        "queens": "any",
        "fixed": False,
        "blocked": False,
    }


def test_the_gil_is_released_while_a_count_works():
    ticks = [0]
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    started = time.perf_counter()
    counted = qw.count(14)
    took = time.perf_counter() - started
    done.set()
    ticker.join()
    assert counted.total == 365596
    # The other thread ran during the count (about once a millisecond of it).
    assert ticks[0] > 0.2 * took * 1000, (ticks[0], took)


@pytest.mark.parametrize(
    "call",
    [
        "qw.count(22, max_estimate=10**6)",
        # Solves without on_event: nothing calls back into Python, yet Ctrl-C must reach them.
        'qw.solve(4096, solver="genetic", seed=1, max_iters=10**9)',
        'qw.solve(12, solver="brute-force", max_nodes=10**12)',
        'qw.solve(3000, solver="hill-climbing", seed=1, max_iters=10**9)',
        'qw.solve(100_000, solver="optimized-hill-climbing", seed=1, max_iters=10**9)',
        # Every other call: a count of completions, a big board to check (60 million queens on
        # one rank, about 3 s), an analysis of 512×512 (about 5 s), a long experiment.
        'qw.count(27, blocked="a1", max_estimate=10**9)',
        'qw.verify("Q" * 60_000_000)',
        'qw.configure(512, ["a1", "c2", "e3"])',
        'qw.experiment("hill-climbing", 200, 10_000)',
    ],
)
def test_ctrl_c_raises_keyboard_interrupt_within_a_second(call):
    code, out, took = interrupted(call, after=1.0)
    assert code == 3 and "interrupted" in out, (call, code, out)
    assert took < 1.0, (call, took)


def test_an_interrupted_listing_keeps_what_it_found_on_the_interrupt():
    code, out, took = interrupted(
        "qw.solutions(16)",
        after=1.0,
        then="kept = sys.exc_info()[1].solutions; "
        "print(len(kept), all(qw.verify(s, n=16) for s in kept[:200]), flush=True)",
    )
    assert code == 3 and took < 1.0, (code, out, took)
    count, valid = out.split()[-2:]
    # N = 16 has 14,772,512 solutions: a second of searching finds some, not all.
    assert 0 < int(count) < 14_772_512 and valid == "True", out


def interrupted(call: str, after: float, then: str = "") -> tuple[int, str, float]:
    """Runs ``call`` in a fresh Python that takes Ctrl-C as an interactive one does, and sends
    it SIGINT ``after`` seconds after it is ready: its exit code (3 where ``call`` raised
    ``KeyboardInterrupt``, after running ``then``), its output, and the seconds from the signal
    to its end."""
    script = textwrap.dedent(
        f"""
        import signal, sys, time
        import queens_workbench as qw
        # Ctrl-C as an interactive Python takes it, even where the runner's SIGINT is ignored
        # (a job started in the background inherits it so).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("ready", flush=True)
        try:
            {call}
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            {then}
            sys.exit(3)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(after)
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=10)
        took = time.perf_counter() - sent
    finally:
        # A child that did not stop is not left running after the test.
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, out, took


def test_a_million_queens_as_a_numpy_array():
    solution = qw.solve(1_000_000, solver="min-conflicts", seed=1)
    assert solution.solved
    perm = solution.perm
    assert perm.shape == (1_000_000,) and perm.dtype == np.dtype("<u4")
    assert not perm.flags.writeable
    assert len(np.unique(perm)) == 1_000_000
    # No two queens on a diagonal.
    columns = np.arange(1_000_000, dtype=np.int64)
    assert len(np.unique(perm.astype(np.int64) - columns)) == 1_000_000
    assert len(np.unique(perm.astype(np.int64) + columns)) == 1_000_000
    # The array goes back to verify as it came, 4 bytes a queen.
    assert qw.verify(perm) and qw.verify(solution)
    crowded = perm.copy()
    crowded[1] = crowded[0]
    found = qw.verify(crowded)
    assert not found and found.pair_count >= 1
    assert any(
        pair[0] == (int(perm[0]), 0) and pair[1] == (int(perm[0]), 1) for pair in found.pairs
    )
    assert found.to_dict() == qw.verify(crowded.astype(np.int64)).to_dict()


def test_the_stubs_and_marker_are_installed():
    package = Path(qw.__file__).parent
    assert (package / "py.typed").exists()
    assert (package / "_queens.pyi").exists()


def test_verify_is_true_only_for_a_solution_and_bounds_its_pairs():
    unfinished = qw.verify(["d1", "e7"], n=8)
    assert unfinished.pairs == () and not unfinished
    assert (unfinished.missing, unfinished.pair_count, unfinished.expected) == (6, 0, 8)
    assert qw.verify(qw.solve(8))
    crowded = qw.verify("Q" * 3000)
    assert len(crowded.pairs) == 1000 and crowded.truncated
    assert crowded.pair_count == 3000 * 2999 // 2
    assert len(qw.verify("Q" * 30, limit=5).pairs) == 5
    assert qw.verify("b1,d2", n=4, queen_count=2)
    assert not qw.verify("b1,d2", n=4)
    with pytest.raises(ValueError, match="queen count must be between 1 and 4"):
        qw.verify("b1", n=4, queen_count=7)
    with pytest.raises(ValueError):
        qw.verify("b1", n=4, queen_count=-1)
    with pytest.raises(ValueError, match="limit"):
        qw.verify("b1", limit=-1)


def test_a_verification_is_not_a_list_and_counts_collisions_one_way():
    found = qw.verify([0, 1, 0])
    assert not isinstance(found, list) and not hasattr(found, "append")
    # Its row, falling and rising diagonals each hold two queens: three collisions, the same
    # number the command line and a streamed check give.
    assert (found.collisions, found.pair_count, len(found.pairs)) == (3, 3, 3)
    assert found == qw.verify(np.array([0, 1, 0])) and found != qw.verify([1, 3, 0, 2])
    with pytest.raises(AttributeError):
        found.pairs.append(1)  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        found.note = "no stray attributes"  # type: ignore[attr-defined]


def test_verify_reads_the_command_lines_document():
    documents = Path(__file__).resolve().parents[2] / "queens-api" / "tests" / "documents"
    for board, options, name in [
        ("d1,e7,a1", {"n": 8}, "verify-three-queens.json"),
        ("QQQQ", {}, "verify-one-rank.json"),
    ]:
        shared = json.loads((documents / name).read_text())
        assert qw.verify(board, **options).to_dict() == shared, name


def test_solve_count_and_configure_give_the_command_lines_documents():
    documents = Path(__file__).resolve().parents[2] / "queens-api" / "tests" / "documents"
    for call, name in [
        (lambda: qw.solve(8, solver="backtracking"), "solve-8-backtracking.json"),
        (lambda: qw.count(8, engine="backtracking", threads=1), "count-8.json"),
        (lambda: qw.count(8, shard="0/2", threads=1), "count-8-shard-0-of-2.json"),
        (lambda: qw.count(8, fix="b4", threads=1), "completions-8-b4.json"),
        (lambda: qw.configure(5, ["b1"]), "configure-5-b1.json"),
    ]:
        document = call().to_dict()
        document.pop("elapsed_ms", None)
        document.pop("counted_on", None)
        assert document == json.loads((documents / name).read_text()), name


def test_configure_takes_an_engine_a_node_cap_and_a_time_limit():
    assert qw.configure(5, ["b1"]).to_dict()["engine"] == "bdd"
    assert qw.configure(5, ["b1"], engine="search").to_dict()["engine"] == "search"
    capped = qw.configure(40, engine="search", max_nodes=1)
    assert any(cell["status"] == "unknown" for cell in capped.cells)
    assert qw.configure(8, ["d1"], time_limit=30).to_dict()["solvable"] is True
    for call, words in [
        (lambda: qw.configure(8, engine="magic"), "unknown engine"),
        (lambda: qw.configure(8, max_nodes=0), "max_nodes= must be at least 1, got 0"),
        (lambda: qw.configure(8, time_limit=-1), "time_limit= must be a positive number"),
    ]:
        with pytest.raises(ValueError, match=words):
            call()


def test_to_pandas_without_pandas_says_how_to_install_it(monkeypatch):
    rows = qw.experiment("backtracking", 6, 1)
    monkeypatch.setitem(sys.modules, "pandas", None)
    for table in (rows, qw.configure(5)):
        with pytest.raises(ImportError, match=r"queens-workbench\[notebook\]"):
            table.to_pandas()
    assert "<table>" in rows._repr_html_()


def test_solve_keeps_off_blocked_squares():
    rank = [(0, col) for col in range(7)]
    solution = qw.solve(8, blocked=rank)
    assert solution.solved and (0, 7) in solution.queens
    assert solution.to_dict()["blocked"] == [{"row": 0, "col": col} for col in range(7)]
    assert not qw.solve(8, blocked="a1,b1,c1,d1,e1,f1,g1,h1").solved
    with pytest.raises(ValueError, match="blocked squares"):
        qw.solve(8, solver="min-conflicts", blocked=["a1"])


def test_a_recorded_run_plays_in_the_notebook(tmp_path):
    run = qw.solve(8, solver="hill-climbing", seed=2, record=True)
    assert run.events[0]["type"] == "started" and run.events[-1]["type"] == "finished"
    steps = sum(1 for event in run.events if event["type"] == "step")
    html = run._repr_html_()
    assert '<script type="module">' in html and "mountReplay" in html
    assert "fetch(" not in html, "the player asks no server for anything"
    assert "</script>" not in html.split('<script type="module">')[1][:-len("</script>")]
    with pytest.raises(ValueError, match="record=True"):
        qw.solve(8, seed=2).replay()
    # In a real browser, where one is installed: the modules load and the player mounts with a
    # frame for every step of the run.
    page = tmp_path / "replay.html"
    page.write_text(f"<!doctype html><html><body>{html}</body></html>", encoding="utf-8")
    assert f'data-frames="{steps}"' in rendered_dom(page, tmp_path)


def test_a_stopped_local_search_keeps_the_board_it_ended_on():
    stuck = qw.solve(32, solver="hill-climbing", seed=1, max_iters=5)
    assert stuck.status == "stopped" and not stuck.solved
    assert len(stuck.queens) == 32 and stuck.perm is not None
    checked = qw.verify(stuck)
    assert not checked and checked.pair_count > 0, "a board with its attacking pairs to show"
    assert stuck.to_dict()["queens"] is not None
    assert "\n" in repr(stuck), "the diagram of where it stopped"
    for solver in ["min-conflicts", "min-conflicts-minton", "genetic", "simulated-annealing",
                   "electric-force", "optimized-hill-climbing"]:
        stopped = qw.solve(64, solver=solver, seed=1, max_iters=2)
        assert stopped.status == "stopped" and stopped.queens, solver
        assert stopped.iterations == 2, f"{solver}: a cap of K reports K"
    # An exhaustive search that stops keeps no board: its queens are none.
    assert qw.solve(12, solver="brute-force", max_nodes=10).queens == []


def test_board_sizes_are_refused_in_the_shared_sentences():
    # The sentences the command line, the server and the page give too; Python takes any side
    # up to 2³²−1, so the refusals of the shared file's smaller limit are left to the others.
    documents = Path(__file__).resolve().parents[2] / "queens-api" / "tests" / "documents"
    shared = json.loads((documents / "refusals.json").read_text())
    checked = 0
    for case in shared["sizes"]["refused"]:
        if "at most" in case["sentence"]:
            continue
        with pytest.raises(ValueError) as refused:
            qw.solve(case["size"])
        assert str(refused.value) == case["sentence"], case["size"]
        checked += 1
    assert checked >= 5


def test_seeds_are_refused_in_the_shared_sentences():
    # Python's seeds are numbers, so the shared refusals of numbers are checked here; the text
    # the others read ('abc', '1.5') is refused by type, naming the seed.
    documents = Path(__file__).resolve().parents[2] / "queens-api" / "tests" / "documents"
    shared = json.loads((documents / "refusals.json").read_text())
    checked = 0
    for case in shared["seeds"]["refused"]:
        try:
            seed = int(case["seed"])
        except ValueError:
            with pytest.raises(ValueError, match="seed must be a whole number"):
                qw.solve(8, solver="min-conflicts", seed=case["seed"])
            continue
        for call in (
            lambda: qw.solve(8, solver="min-conflicts", seed=seed),
            lambda: qw.experiment(["min-conflicts"], [8], runs=1, seed=seed),
        ):
            with pytest.raises(ValueError) as refused:
                call()
            assert str(refused.value) == case["sentence"], case["seed"]
        checked += 1
    assert checked >= 3
    for seed in shared["seeds"]["taken"]:
        assert qw.solve(8, solver="min-conflicts", seed=int(seed)).solved


def test_the_challenge_table_is_the_command_lines():
    table = qw.challenge(5, ["backtracking", "row-brute-force"])
    assert table["n"] == 5 and table["planned"] == 2 * 25 and table["finished"] == 50
    by_solver = {row["solver"]: row for row in table["rows"]}
    assert by_solver["backtracking"]["runs"] == 25
    # Backtracking never examines more placements than the row brute force boards.
    assert by_solver["backtracking"]["max"] <= by_solver["row-brute-force"]["max"]
    command = subprocess.run(
        [sys.executable, "-m", "queens_workbench", "challenge", "5", "--solver",
         "backtracking,row-brute-force", "--json"],
        capture_output=True, text=True, check=True,
    )
    assert json.loads(command.stdout) == table
    capped = qw.challenge(5, "backtracking", max_nodes=3)
    assert capped["rows"][0]["stopped"] > 0
    with pytest.raises(ValueError, match="max_nodes= must be at least 1, got 0"):
        qw.challenge(5, max_nodes=0)
    with pytest.raises(ValueError, match="too large"):
        qw.challenge(65)
    assert "challenge" in dir(qw)
