// Race: two to four solvers side by side on the same board and seed, each with its board,
// counters and chart, played in step. The local-search family draws its random start from the
// seed the same way, so its members start from the same board: watch optimized hill climbing
// escape where plain hill climbing gets stuck. The lanes' charts share their axes, so that a run
// ten times longer is drawn ten times wider, and a finish table says who solved, at which step,
// in how many iterations or nodes. Boards are N×N or R×C with M queens, for the solvers whose
// shapes allow it.

import * as api from "./api.js";
import { Board } from "./board.js";
import { lineChart } from "./charts.js";
import { PHONE, checked, h, say } from "./dom.js";
import { Player } from "./player.js";
import { Recording, frameModel, narrate, thin, unitLabel } from "./replay.js";
import { checkSeed, checkSolvers, checkWhole, parseSize, sizeParams } from "./squares.js";


/** Lane colours: blue, green, purple, teal — none of the reds and oranges the boards use for attacks. */
export const LANE_COLOURS = ["#1f4e9c", "#1e7b4a", "#7d3c98", "#0e7a86"];

/**
 * The finish table's order: solved lanes first, by the step they solved at, then by their
 * iterations or nodes; then those that proved there is no solution; then the stopped ones.
 * `lanes` are `{ status, steps, count }`; returns them sorted, each with its `place` (1, 2, …
 * for the solved, null for the others).
 */
export function finishOrder(lanes) {
  const rank = { solved: 0, unsolvable: 1 };
  const sorted = [...lanes].sort((a, b) => (rank[a.status] ?? 2) - (rank[b.status] ?? 2)
    || a.steps - b.steps || (a.count ?? Infinity) - (b.count ?? Infinity));
  let place = 0;
  return sorted.map((lane) => ({ ...lane, place: lane.status === "solved" ? (place += 1) : null }));
}

/**
 * Why `racers` cannot run on `size` with `m` queens (one sentence), or null: a solver made for
 * N×N boards on an R×C board, or one that places a queen per row given another count.
 */
export function shapeProblem(racers, { rows, cols }, m) {
  if (rows !== cols) {
    const square = racers.filter((s) => s.shapes.boards === "square").map((s) => s.name);
    if (square.length) return `${square.join(", ")} ${square.length === 1 ? "runs" : "run"} on N×N boards only; on ${rows}×${cols} race the solvers for R×C boards.`;
  }
  if (m !== undefined) {
    const fixedCount = racers.filter((s) => s.shapes.queens !== "any" && m !== Math.min(rows, cols)).map((s) => s.name);
    if (fixedCount.length) return `${fixedCount.join(", ")} ${fixedCount.length === 1 ? "places" : "place"} ${Math.min(rows, cols)} queens on ${rows}×${cols}, not ${m}.`;
  }
  return null;
}

export function createRace({ limits, solvers, defaults, pushSettings }) {
  const DEFAULT = defaults.race_solvers;
  const byName = new Map(solvers.map((s) => [s.name, s]));
  const maxN = Math.min(limits.solve_max_n, 64);
  const picks = h("fieldset", { class: "picks" }, h("legend", {}, "Solvers (2 to 4)"),
    solvers.filter((s) => s.counts !== "nothing").map((s) => h("label", { title: s.summary },
      h("input", { type: "checkbox", name: "race-solver", value: s.name, checked: DEFAULT.includes(s.name) }), ` ${s.name}`)));
  const nInput = h("input", { id: "r-n", type: "text", value: "8", size: 7, title: `N for an N×N board, or R×C like 6x10 (each side 4 to ${maxN})` });
  const mInput = h("input", { id: "r-m", type: "text", inputmode: "numeric", size: 5, placeholder: "default", title: "Queens to place (default: one a row, or the shorter side)" });
  const seedInput = h("input", { id: "r-seed", type: "text", value: String(defaults.seed), inputmode: "numeric", size: 6 });
  const error = h("p", { id: "r-error", class: "error", hidden: true });
  const lanesBox = h("div", { id: "r-lanes", class: "lanes" });
  const finishBox = h("div", { id: "r-finish", class: "table-box finish", hidden: true, tabindex: 0, role: "region", "aria-label": "the finish table" });
  const timeline = h("input", { id: "r-timeline", type: "range", min: 0, max: 0, value: 0, "aria-label": "race timeline" });
  const playButton = h("button", { id: "r-play", onclick: togglePlay }, "Play");
  const player = new Player();
  const state = { lanes: [], request: null, size: { rows: 8, cols: 8 }, m: undefined, seed: String(defaults.seed), openAt: null };

  const settingsSummary = h("span", { class: "settings-summary" });
  // The solvers, N and seed fold away on a phone, so that the lanes come into view.
  const settingsBox = h("details", { id: "r-settings", class: "settings", open: !matchMedia(PHONE).matches },
    h("summary", {}, "Settings", settingsSummary),
    picks,
    h("div", { class: "controls" }, h("label", {}, "Board ", nInput), h("label", {}, "Queens ", mInput), h("label", {}, "Seed ", seedInput)));
  const summarise = () => {
    const board = /x|×/i.test(nInput.value) ? `${nInput.value.trim()}${mInput.value.trim() ? `, ${mInput.value.trim()} queens` : ""}` : `N = ${nInput.value.trim()}`;
    settingsSummary.textContent = ` · ${chosen().map((s) => s.name).join(", ")}, ${board}, seed ${seedInput.value}`;
  };
  settingsBox.addEventListener("change", summarise);
  summarise();

  const element = h("section", { id: "race", class: "view", hidden: true },
    h("p", { class: "lead" }, "Run solvers on the same board with the same seed and watch them side by side, step for step."),
    settingsBox,
    h("div", { class: "controls" },
      h("button", { id: "r-start", class: "primary", onclick: () => start() }, "Race"),
      playButton,
      h("button", { id: "r-back", onclick: () => { player.step(-1); paused(); } }, "◀ Step"),
      h("button", { id: "r-step", onclick: () => { player.step(1); paused(); } }, "Step ▶"),
      h("button", { id: "r-end", onclick: () => { player.seek(player.length); paused(); } }, "End")),
    h("div", { class: "timeline" }, timeline),
    error, lanesBox, finishBox);

  timeline.addEventListener("input", () => {
    player.seek(Number(timeline.value));
    paused();
  });

  function chosen() {
    return [...picks.querySelectorAll("input:checked")].map((input) => byName.get(input.value));
  }

  /**
   * The race's settings, checked: its solvers, board, queens and seed, or a sentence saying what
   * is wrong.
   */
  function checkedSettings() {
    const racers = chosen();
    if (racers.length < 2 || racers.length > 4) throw new Error("Choose two to four solvers to race.");
    const size = parseSize(nInput.value, maxN, 4);
    const m = mInput.value.trim() ? checkWhole(mInput.value, 1, size.rows * size.cols, "Queens") : undefined;
    const problem = shapeProblem(racers, size, m);
    if (problem) throw new Error(problem);
    return { racers, size, m, seed: checkSeed(seedInput.value) };
  }

  /** The board's part of a query or link: `n=8`, or `size=6x10` with `m`. */
  function boardQuery(size, m) {
    return { ...sizeParams(size), ...(m === undefined ? {} : { m }) };
  }

  function togglePlay() {
    if (!state.lanes.length) {
      start();
      return;
    }
    if (player.toggle()) render();
    else paused();
  }

  /** Draws a paused race and names its step in the URL, so that a link opens the race there. */
  function paused() {
    render();
    if (state.lanes.length) {
      pushSettings({ solvers: state.lanes.map((l) => l.solver.name).join(","), ...boardQuery(state.size, state.m), seed: state.seed, run: 1, step: player.position }, true);
    }
  }

  /**
   * Starts the race. One started from a link replaces the link's history entry and, when the
   * link names a step (`state.openAt`), stops there; one started by the user is a new entry.
   */
  async function start({ fromLink = false } = {}) {
    const settings = checked(error, checkedSettings);
    if (settings === undefined) return;
    const { racers, size, m, seed } = settings;
    state.size = size;
    state.m = m;
    state.seed = seed;
    if (!fromLink) state.openAt = null;
    const board = boardQuery(size, m);
    pushSettings({ solvers: racers.map((s) => s.name).join(","), ...board, seed, run: 1, step: state.openAt ?? undefined }, fromLink);
    if (state.request) state.request.abort();
    const request = new AbortController();
    state.request = request;
    state.lanes = racers.map((solver, i) => lane(solver, size, i));
    lanesBox.replaceChildren(...state.lanes.map((l) => l.element));
    finishBox.hidden = true;
    player.seek(0);
    player.length = 0;
    player.playing = state.openAt === null;
    const lanes = state.lanes;
    await Promise.all(lanes.map(async (l) => {
      try {
        await api.solve({ solver: l.solver.name, ...board, seed }, (event) => {
          l.recording.push(event);
          player.length = Math.max(...lanes.map((x) => x.recording.length));
          const waiting = state.openAt !== null && lanes === state.lanes;
          if (waiting && (player.length >= state.openAt || lanes.every((x) => x.recording.finished))) {
            player.seek(state.openAt);
            state.openAt = null;
            render();
          }
          if (event.type === "finished") {
            l.status.textContent = event.status;
            render();
          }
        }, request.signal);
      } catch (e) {
        if (e.name !== "AbortError") l.status.textContent = e.message;
      }
    }));
    if (lanes === state.lanes) showFinish();
  }

  /** The finish table, once every lane has ended: who solved, at which step, at what cost. */
  function showFinish() {
    const done = state.lanes.filter((l) => l.recording.finished);
    if (done.length !== state.lanes.length) return;
    const rows = finishOrder(done.map((l) => {
      const f = l.recording.finished;
      return { lane: l, status: f.status, steps: l.recording.length, count: f.nodes ?? f.iterations, elapsed: f.elapsed_ms };
    }));
    finishBox.replaceChildren(h("table", { class: "results" },
      h("caption", {}, "Finish order: the solved by the step they solved at, then by iterations or nodes"),
      h("thead", {}, h("tr", {}, ["place", "solver", "result", "at step", "iterations or nodes", "time"].map((t) => h("th", {}, t)))),
      h("tbody", {}, rows.map((r) => h("tr", { dataset: { solver: r.lane.solver.name } },
        h("td", { class: "num" }, r.place === null ? "–" : String(r.place)),
        h("th", { scope: "row" }, h("span", { class: "lane-swatch", style: { background: r.lane.colour } }), r.lane.solver.name),
        h("td", { title: r.lane.recording.finished.stop_reason || undefined }, r.status === "unsolvable" ? "no solution" : r.status),
        h("td", { class: "num" }, r.steps.toLocaleString("en-US")),
        h("td", { class: "num" }, r.count === null || r.count === undefined ? "–" : `${r.count.toLocaleString("en-US")} ${unitLabel(r.lane.solver)}`),
        h("td", { class: "num" }, r.elapsed === undefined ? "–" : `${r.elapsed.toLocaleString("en-US", { maximumFractionDigits: 1 })} ms`))))));
    finishBox.hidden = false;
  }

  function lane(solver, { rows, cols }, index) {
    const colour = LANE_COLOURS[index % LANE_COLOURS.length];
    const boardBox = h("div", { class: "board small" });
    const status = h("span", { class: "lane-status" }, "running");
    const counts = h("p", { class: "lane-counts" });
    const told = h("p", { class: "lane-narration" });
    const chart = h("div", { class: "chart-box" });
    const element = h("div", { class: "lane", dataset: { solver: solver.name }, style: { borderTopColor: colour } },
      h("h3", { style: { color: colour } }, solver.name, " ", status),
      h("p", { class: "summary" }, solver.summary),
      boardBox, told, counts, chart);
    return {
      solver, element, status, counts, chart, told, colour,
      recording: new Recording(),
      board: new Board(boardBox, { rows, cols, label: `${solver.name} on ${rows}×${cols}` }),
    };
  }

  function render() {
    playButton.textContent = player.playing ? "Pause" : "Play";
    timeline.max = String(player.length);
    timeline.value = String(player.position);
    const n = Math.max(state.size.rows, state.size.cols);
    const scores = new Map(state.lanes.map((l) => [l, thin(l.recording.scores(), 300)]));
    // Shared axes: one x range for every lane (a run ten times longer is drawn ten times
    // wider); one y range for the lanes whose scores mean the same (hill climbing and its
    // variants, backtracking and forward checking), each solver's own otherwise.
    const lastX = Math.max(1, ...[...scores.values()].map((points) => (points.length ? points[points.length - 1][0] : 0)));
    const yRange = (score) => {
      const ys = state.lanes.filter((l) => l.solver.score === score).flatMap((l) => scores.get(l).map((p) => p[1]));
      return ys.length ? [Math.min(...ys), Math.max(...ys)] : undefined;
    };
    for (const l of state.lanes) {
      if (!l.recording.start) continue;
      const k = Math.min(player.position, l.recording.length);
      const model = frameModel(l.recording, k, n);
      l.board.render(model);
      l.told.textContent = narrate(l.recording, k, n);
      const c = model.counters;
      const ended = l.recording.done && k >= l.recording.length;
      l.counts.textContent = `step ${c.step.toLocaleString()} of ${c.steps.toLocaleString()} · ${c.iteration.toLocaleString()} ${unitLabel(l.solver)} · ${c.pairs} attacking pair${c.pairs === 1 ? "" : "s"}${ended ? ` · ${l.recording.finished.status}` : ""}`;
      l.chart.replaceChildren(lineChart({
        series: [{ name: l.solver.name, points: scores.get(l), colour: l.colour }],
        xLabel: unitLabel(l.solver),
        yLabel: l.solver.counts === "nodes" ? "depth" : "score",
        xRange: [0, lastX],
        yRange: yRange(l.solver.score),
        cursor: c.iteration,
        width: 300,
        height: 150,
        legend: false,
      }));
    }
  }

  let last = performance.now();
  function frame(now) {
    const seconds = Math.min(0.25, (now - last) / 1000);
    last = now;
    if (!element.hidden && player.tick(seconds)) render();
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  return {
    element,
    show(settings) {
      let openAt = null;
      try {
        if (settings.solvers) {
          const names = checkSolvers(settings.solvers.split(","), solvers, solvers.filter((s) => s.counts !== "nothing"));
          for (const input of picks.querySelectorAll("input")) input.checked = names.includes(input.value);
        }
        if (settings.n && settings.size) throw new Error("The link gives both n and size: give one.");
        if (settings.n || settings.size) nInput.value = settings.size || settings.n;
        mInput.value = settings.m || "";
        if (settings.seed) seedInput.value = settings.seed;
        summarise();
        checkedSettings();
        if (settings.step !== undefined) openAt = checkWhole(settings.step, 0, Number.MAX_SAFE_INTEGER, "The step");
        say(error, "");
      } catch (e) {
        say(error, e.message);
        return;
      }
      if (settings.run === "1" || openAt !== null) {
        state.openAt = openAt;
        start({ fromLink: true });
      }
    },
  };
}
