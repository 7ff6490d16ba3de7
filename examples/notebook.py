# %% [markdown]
# # Local search on N-Queens, reproduced
#
# This notebook reruns the study of local search on N-Queens that the workbench's local-search
# family comes from: the success rate of each algorithm for N = 4 … 32 (1000 runs a cell, as
# the original), the study of the shake probability p and the queens moved q, and one hill
# climbing run played back queen by queen.
#
# `examples/notebook.ipynb` is made from `examples/notebook.py` (`python
# scripts/notebook.py`), and the test suite runs the script, so both stay runnable.

# %%
import os

import matplotlib

matplotlib.use(os.environ.get("MPLBACKEND", "Agg"))
import matplotlib.pyplot as plt
from matplotlib import animation
import pandas as pd

import queens_workbench as qw

OUT = os.environ.get("QUEENS_NOTEBOOK_OUT", ".")
RUNS = int(os.environ.get("QUEENS_NOTEBOOK_RUNS", "1000"))

# %% [markdown]
# ## The comparison: success rate by algorithm and N
#
# Seven algorithms, five sizes, `RUNS` runs each, on all cores. Run i of every cell uses the
# seed derived from (1, i): the same call gives the same table.

# %%
family = [
    "random-search",
    "optimized-random-search",
    "simulated-annealing",
    "hill-climbing",
    "hill-climbing-constant-shake",
    "hill-climbing-decaying-shake",
    "optimized-hill-climbing",
]
sizes = [4, 8, 16, 24, 32]
rows = qw.experiment(family, sizes, RUNS, seed=1, progress=True)
comparison = pd.DataFrame(rows).pivot(index="solver", columns="n", values="success_rate")
comparison = comparison.reindex(family)
print((100 * comparison).round(1))

# %%
fig, ax = plt.subplots(figsize=(8, 4.5))
for solver in family:
    ax.plot(sizes, 100 * comparison.loc[solver], marker="o", label=solver)
ax.set_xlabel("N")
ax.set_ylabel("solved (%)")
ax.set_title(f"Success rate by N ({RUNS} runs a point)")
ax.legend(fontsize="small")
fig.savefig(os.path.join(OUT, "success-rate.png"), dpi=100)

# %% [markdown]
# ## The p × q study
#
# Hill climbing with a constant shake at N = 16: with probability p an iteration moves q random
# queens instead of climbing. The original found q = 2 with p around 0.2 to 0.3 best.

# %%
ps = [0.06, 0.1, 0.14, 0.18, 0.23, 0.28]
qs = [1, 2, 3, 4]
study = qw.experiment(
    "hill-climbing-constant-shake", 16, RUNS, seed=1, sweep={"p": ps, "q": qs}
)
grid = pd.DataFrame(
    [{"p": r["params"]["p"], "q": int(r["params"]["q"]), "solved": r["success_rate"]} for r in study]
).pivot(index="p", columns="q", values="solved")
print((100 * grid).round(1))

fig, ax = plt.subplots(figsize=(5, 4.5))
image = ax.imshow(100 * grid.values, origin="lower", cmap="viridis", aspect="auto")
ax.set_xticks(range(len(qs)), qs)
ax.set_yticks(range(len(ps)), ps)
ax.set_xlabel("q (queens moved by a shake)")
ax.set_ylabel("p (shake probability)")
ax.set_title("Solved (%) at N = 16")
fig.colorbar(image)
fig.savefig(os.path.join(OUT, "p-q-study.png"), dpi=100)

# %% [markdown]
# ## One hill-climbing run, queen by queen
#
# `on_event` receives every event of a run: the start board, then each move. Replaying them
# gives the board at every step.

# %%
events = []
run = qw.solve(8, solver="optimized-hill-climbing", seed=5, on_event=events.append)
print(run)

board = {(q["row"], q["col"]) for q in events[0]["board"]}
frames = [set(board)]
for event in events:
    if event["type"] == "move":
        board.discard((event["from"]["row"], event["from"]["col"]))
        board.add((event["to"]["row"], event["to"]["col"]))
        frames.append(set(board))

fig, ax = plt.subplots(figsize=(4, 4))


def draw(frame):
    ax.clear()
    ax.set_xlim(-0.5, 7.5)
    ax.set_ylim(-0.5, 7.5)
    ax.set_xticks(range(8), list("abcdefgh"))
    ax.set_yticks(range(8), range(1, 9))
    ax.set_title(f"move {frame} of {len(frames) - 1}")
    rows, cols = zip(*frames[frame])
    ax.scatter(cols, rows, s=300, marker="$\u265B$", color="#b5213b")


movie = animation.FuncAnimation(fig, draw, frames=len(frames), interval=300)
movie.save(os.path.join(OUT, "hill-climbing.gif"), writer="pillow")

# %% [markdown]
# ## The same kind of run as a player
#
# `record=True` keeps a run's events, and the run then shows itself as a player: the web page's
# board, a step slider, play and speed, what each step did, and the score chart. It works offline
# and in the HTML the notebook exports. Where did plain hill climbing get stuck? A stopped run
# keeps the board it ended on, and `verify` says what is wrong with it.

# %%
stuck = qw.solve(8, solver="hill-climbing", seed=2, record=True)
print(stuck.status, "after", stuck.iterations, "iterations:", qw.verify(stuck))
with open(os.path.join(OUT, "hill-climbing-replay.html"), "w", encoding="utf-8") as page:
    page.write(stuck.replay())
stuck

# %% [markdown]
# ## A position, analysed
#
# The configurator says which squares can still be completed and why the others cannot;
# blocked squares make it an n-Queens Completion problem.

# %%
analysis = qw.configure(8, "d1,e7", blocked="a3")
print(analysis.summary())
analysis
