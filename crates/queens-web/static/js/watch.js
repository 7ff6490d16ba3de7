// Watch: one solver's run as a lesson. The whole run is recorded as it streams in; playback
// goes step by step (an iteration of a local search, a node of a tree search), back and forth,
// or along a timeline, at a pace that plays the whole run in about fifteen seconds. Beside the
// board: the counters of the step shown, the score chart, and how the solver works.

import * as api from "./api.js";
import { Board } from "./board.js";
import { challengers, createChallenge } from "./challenge.js";
import { PHONE, checked, fill, h, say } from "./dom.js";
import { explanation } from "./explain.js";
import { createNarration } from "./narration.js";
import { createNeighbourhood } from "./neighbourhood.js";
import { Player } from "./player.js";
import { createPopulationPanel } from "./population.js";
import { Recording, frameModel, moments, solverState, unitLabel } from "./replay.js";
import { createRunChart } from "./run-chart.js";
import { checkParameter, checkSeed, checkSolvers, checkWhole, key, parseSize, parseSquares, sizeParams, sizeText, squareName } from "./squares.js";
import { createTreePanel } from "./tree.js";

const LEGEND = [
  ["q", "a queen"],
  ["q q-locked", "a locked queen (it never moves)"],
  ["q q-clash", "a queen under attack (red lines join the pairs)"],
  ["moved", "the queen the last step moved or placed, its lines shaded"],
  ["candidate", "the square a tree search tried, its row shaded"],
];

export function createWatch({ limits, solvers, defaults, pushSettings }) {
  const byName = new Map(solvers.map((s) => [s.name, s]));
  const maxN = limits.solve_max_n;
  const solverSelect = h("select", { id: "w-solver" }, solvers.map((s) => h("option", { value: s.name, title: s.summary }, s.name)));
  const nInput = h("input", { id: "w-n", type: "text", value: "8", size: 7, title: `N for an N×N board, or R×C like 6x10 (each side 1 to ${maxN})` });
  const mInput = h("input", { id: "w-m", type: "text", inputmode: "numeric", size: 5, placeholder: "default", title: "Queens to place, locked ones included (default: one a row, or the shorter side)" });
  const seedInput = h("input", { id: "w-seed", type: "text", value: String(defaults.seed), inputmode: "numeric", size: 6 });
  const itersInput = h("input", { id: "w-iters", type: "text", inputmode: "numeric", placeholder: "default", size: 8 });
  const params = h("span", { id: "w-params", class: "parameters" });
  const error = h("p", { id: "w-error", class: "error", hidden: true });
  const status = h("span", { id: "w-status" }, "idle");
  const timeline = h("input", { id: "w-timeline", type: "range", min: 0, max: 0, value: 0, "aria-label": "timeline" });
  const speedOut = h("output", { id: "w-speed-out" });
  const playButton = h("button", { id: "w-play", onclick: togglePlay }, "Play");
  const counters = {
    step: h("td", { id: "w-step-count" }, "0"),
    iteration: h("td", { id: "w-iteration" }, "–"),
    score: h("td", { id: "w-score" }, "–"),
    queens: h("td", { id: "w-queens" }, "0"),
    pairs: h("td", { id: "w-pairs" }, "0"),
    state: h("td", { id: "w-state" }, "–"),
  };
  const unitCell = h("th", {}, "iterations");
  const scoreDoc = h("p", { id: "w-score-doc", class: "note score-doc" });
  // The climbers' own state: the score of every move they weigh at this step.
  const neighbourhood = createNeighbourhood({
    maxN: limits.neighbourhood_max_n,
    onChange: () => render(),
    onReady: () => render(),
    onError: (message) => say(error, message),
  });
  // A tree search's own state: its search tree, the current path and what was pruned.
  const treePanel = createTreePanel();
  const narration = createNarration();
  // What the solver's own marks on the board mean, for the solvers that draw them.
  const stateLegend = h("p", { id: "w-state-legend", class: "note", hidden: true });
  // The legend, with the blocked squares' entry shown while the position has some.
  const blockedEntry = h("li", { hidden: true }, h("span", { class: "swatch blocked" }), "a blocked square (no queen may stand there)");
  const legend = h("ul", { class: "legend compact-legend" },
    LEGEND.map(([cls, text]) => h("li", {}, h("span", { class: `swatch ${cls}` }), text)), blockedEntry);
  const code = h("ol", { id: "w-code", class: "pseudo-code", "aria-label": "the solver's pseudo-code, the lines of the step shown marked" });
  const chart = createRunChart();
  const about = h("div", { id: "w-about", class: "about" });
  const boardBox = h("div", { id: "w-board", class: "board" });
  // A population's own state: its chromosomes, and how a generation was bred.
  const population = createPopulationPanel({ open: !matchMedia(PHONE).matches });
  // `blocked`: squares no queen may take (from Configure's "Solve this position", `block=` in the URL).
  const state = { n: 8, rows: 8, cols: 8, locked: [], blocked: [], recording: null, request: null, solver: byName.get(defaults.watch_solver) || solvers[0], openAt: null };
  const player = new Player();
  let board = null;
  // The Queen's Challenge table, under the board when a tree search is chosen.
  const challengeNames = new Set(challengers(solvers, limits).map((s) => s.name));
  const challenge = createChallenge({
    limits,
    solvers,
    onPick: (name) => {
      const [square] = parseSquares(name, state.rows, state.cols);
      state.locked = [];
      lock(square);
      boardBox.scrollIntoView({ block: "nearest" });
    },
  });

  const settingsSummary = h("span", { class: "settings-summary" });
  // The run's settings fold away on a phone, so that the board and its counters fit one screen.
  const settingsBox = h("details", { id: "w-settings", class: "settings", open: !matchMedia(PHONE).matches },
    h("summary", {}, "Settings", settingsSummary),
    h("div", { class: "controls" },
      h("label", {}, "Solver ", solverSelect),
      h("label", {}, "Board ", nInput),
      h("label", {}, "Queens ", mInput),
      h("label", {}, "Seed ", seedInput),
      params,
      h("label", {}, "Max ", unitLabelSpan(), " ", itersInput),
      h("button", { id: "w-unlock", onclick: () => { state.locked = []; render(); saveFix(); } }, "Clear locked queens")));

  const element = h("section", { id: "watch", class: "view", hidden: true },
    settingsBox,
    h("div", { class: "controls" },
      h("button", { id: "w-start", class: "primary", onclick: () => start() }, "Start"),
      playButton,
      h("button", { id: "w-back", title: "One step back", onclick: () => move(-1) }, "◀ Step"),
      h("button", { id: "w-step", title: "One step forward", onclick: () => move(1) }, "Step ▶"),
      h("button", { id: "w-end", title: "To the end", onclick: () => { player.seek(player.length); paused(); } }, "End"),
      h("span", { class: "speed" },
        h("button", { id: "w-slower", title: "Half as fast", onclick: () => { player.faster(false); showSpeed(); } }, "−"),
        speedOut,
        h("button", { id: "w-faster", title: "Twice as fast", onclick: () => { player.faster(true); showSpeed(); } }, "+"))),
    h("div", { class: "timeline" }, timeline),
    h("div", { class: "layout reorder" },
      h("div", { class: "board-column" },
        boardBox,
        narration.narration,
        legend),
      h("aside", {},
        h("p", { class: "hint" }, "Before you start, click squares to lock queens there."),
        h("table", { class: "counters" },
          h("tr", {}, h("th", {}, "status"), h("td", {}, status)),
          h("tr", {}, h("th", {}, "step"), counters.step),
          h("tr", {}, unitCell, counters.iteration),
          h("tr", {}, h("th", {}, "score"), counters.score),
          h("tr", {}, h("th", {}, "queens"), counters.queens),
          h("tr", {}, h("th", {}, "attacking pairs"), counters.pairs),
          h("tr", {}, h("th", {}, "solver's state"), counters.state)),
        scoreDoc,
        stateLegend,
        treePanel.element,
        neighbourhood.element,
        code,
        narration.log,
        chart.element, error, about)),
    population.element,
    challenge.element);

  function unitLabelSpan() {
    return h("span", { class: "unit" }, "iterations");
  }

  solverSelect.addEventListener("change", () => {
    state.solver = byName.get(solverSelect.value);
    buildParams({});
    render();
  });
  nInput.addEventListener("change", () => {
    try {
      const size = parseSize(nInput.value, maxN);
      say(error, "");
      setBoard(size);
    } catch (e) {
      say(error, e.message);
    }
  });
  timeline.addEventListener("input", () => {
    player.seek(Number(timeline.value));
    paused();
  });

  function buildParams(values) {
    const solver = state.solver;
    params.replaceChildren(...solver.parameters.map((p) => {
      const input = h("input", { type: "number", name: p.name, value: values[p.name] ?? p.default, step: p.integer ? 1 : "any", min: p.min, max: p.max ?? undefined, title: p.doc });
      input.dataset.default = p.default;
      return h("label", { title: p.doc }, `${p.name} `, input);
    }));
    for (const el of element.querySelectorAll(".unit")) el.textContent = unitLabel(solver);
    unitCell.textContent = unitLabel(solver);
    neighbourhood.showFor(solver);
    scoreDoc.textContent = `Score: ${solver.score}.`;
    code.replaceChildren(...solver.pseudo_code.map((line) => h("li", { dataset: { moment: line.moment } }, line.text)));
    fill(about, explanation(solver, values));
  }

  /** A new empty board of `size` (`{ rows, cols }`). */
  function setBoard({ rows, cols }) {
    const n = Math.max(rows, cols);
    state.rows = rows;
    state.cols = cols;
    // The longer side: what the step's narration and marks range over.
    state.n = n;
    nInput.value = sizeText({ rows, cols });
    state.locked = state.locked.filter((q) => q.row < rows && q.col < cols);
    state.recording = null;
    player.seek(0);
    player.length = 0;
    board = new Board(boardBox, { rows, cols, onActivate: lock, label: `${rows}×${cols} board of the watched solver` });
    render();
  }

  function lock(square) {
    if (state.recording) {
      say(error, "Locked queens are set before a run: press Start again to run with new ones.");
      state.recording = null;
      player.length = 0;
      player.seek(0);
    }
    const k = key(square);
    state.locked = state.locked.some((q) => key(q) === k)
      ? state.locked.filter((q) => key(q) !== k)
      : [...state.locked, square];
    saveFix();
    render();
  }

  function saveFix() {
    pushSettings(settings(), true);
  }

  function settings() {
    const values = {};
    for (const input of params.querySelectorAll("input")) {
      if (input.value !== "" && Number(input.value) !== Number(input.dataset.default)) values[input.name] = input.value;
    }
    return {
      solver: state.solver.name,
      ...sizeParams(state),
      m: mInput.value.trim(),
      seed: seedInput.value.trim(),
      fix: state.locked.map((q) => squareName(q, state.cols)).join(","),
      block: state.blocked.map((q) => squareName(q, state.cols)).join(","),
      max_iters: itersInput.value.trim(),
      ...values,
    };
  }

  /** The run's query, every field checked against the descriptor and the limits. */
  function query() {
    const size = parseSize(nInput.value, maxN);
    const q = { solver: state.solver.name, ...sizeParams(size), seed: checkSeed(seedInput.value) };
    if (mInput.value.trim()) q.m = checkWhole(mInput.value, 1, size.rows * size.cols, "Queens");
    if (state.locked.length) q.fix = state.locked.map((sq) => squareName(sq, size.cols)).join(",");
    if (state.blocked.length) q.block = state.blocked.map((sq) => squareName(sq, size.cols)).join(",");
    if (itersInput.value.trim()) q.max_iters = checkWhole(itersInput.value, 1, Number.MAX_SAFE_INTEGER, `Max ${unitLabel(state.solver)}`);
    for (const input of params.querySelectorAll("input")) {
      const parameter = state.solver.parameters.find((p) => p.name === input.name);
      q[input.name] = checkParameter(parameter, input.value);
    }
    return q;
  }

  /**
   * Runs the solver. A run started from a link replaces the link's history entry and, when the
   * link names a step (`state.openAt`), stops there; one started by the user is a new entry.
   */
  async function start({ fromLink = false } = {}) {
    const q = checked(error, query);
    if (q === undefined) return;
    const asked = parseSize(nInput.value, maxN);
    if (asked.rows !== state.rows || asked.cols !== state.cols) setBoard(asked);
    if (!fromLink) state.openAt = null;
    pushSettings({ ...settings(), run: 1, step: state.openAt ?? undefined }, fromLink);
    if (state.request) state.request.abort();
    const request = new AbortController();
    state.request = request;
    const recording = new Recording();
    state.recording = recording;
    player.seek(0);
    player.length = 0;
    player.playing = state.openAt === null;
    status.textContent = "running";
    try {
      await api.solve(q, (event) => {
        if (state.recording !== recording) return;
        recording.push(event);
        player.length = recording.length;
        if (state.openAt !== null && (recording.length >= state.openAt || event.type === "finished")) {
          player.seek(state.openAt);
          state.openAt = null;
          render();
        }
        if (event.type === "finished") finish(event);
      }, request.signal);
    } catch (e) {
      if (e.name !== "AbortError") {
        say(error, e.message);
        status.textContent = "refused";
      }
    }
  }

  function finish(event) {
    if (event.status === "error") say(error, api.sentence(event.stop_reason));
    const why = event.stop_reason ? `: ${event.stop_reason}` : "";
    // A run too long to stream whole was sampled: say its count, from where it was sampled, and
    // that the counts are exact.
    const total = event.nodes ?? event.iterations ?? 0;
    const sampled = event.sampled
      ? ` after ${total.toLocaleString()} ${unitLabel(state.solver)}; every step up to ${event.sampled.from.toLocaleString()} was streamed, then samples (at the end one in ${event.sampled.every.toLocaleString()}), the counts exact`
      : "";
    status.textContent = `${event.status}${why}${sampled}`;
    render();
  }

  function togglePlay() {
    if (!state.recording) {
      start();
      return;
    }
    if (player.toggle()) render();
    else paused();
  }

  function move(delta) {
    player.step(delta);
    paused();
  }

  /** Draws a paused run and names its step in the URL, so that a link opens the run there. */
  function paused() {
    render();
    if (state.recording) pushSettings({ ...settings(), run: 1, step: player.position }, true);
  }

  function showSpeed() {
    speedOut.textContent = `${player.rate >= 10 ? Math.round(player.rate) : player.rate.toFixed(1)} steps/s`;
  }

  /** Square colours: the blocked squares, over `base`'s. */
  function blockedClass(base = () => "") {
    const blocked = new Set(state.blocked.map(key));
    return (row, col) => (blocked.has(`${row},${col}`) ? `${base(row, col)} blocked` : base(row, col));
  }

  function render() {
    blockedEntry.hidden = state.blocked.length === 0;
    const square = state.rows === state.cols;
    challenge.show(state.n, state.locked.length === 1 ? squareName(state.locked[0], state.n) : null, square && challengeNames.has(state.solver.name));
    const shape = square ? `N = ${state.n}` : `${state.rows}×${state.cols}${mInput.value.trim() ? `, ${mInput.value.trim()} queens` : ""}`;
    const summary = ` · ${state.solver.name}, ${shape}, seed ${seedInput.value.trim()}${state.locked.length ? `, ${state.locked.length} locked` : ""}`;
    if (settingsSummary.textContent !== summary) settingsSummary.textContent = summary;
    const recording = state.recording;
    playButton.textContent = player.playing ? "Pause" : "Play";
    showSpeed();
    timeline.max = String(player.length);
    timeline.value = String(player.position);
    if (!recording || !recording.start) {
      board.render({ queens: state.locked.map((q) => ({ ...q, kind: "locked" })), cellClass: blockedClass() });
      counters.step.textContent = "0";
      counters.iteration.textContent = "–";
      counters.score.textContent = "–";
      counters.queens.textContent = String(state.locked.length);
      counters.pairs.textContent = "0";
      counters.state.textContent = "–";
      narration.say(recording ? "Starting…" : "Press Start to run the solver; each step is drawn and told here.");
      population.show(null);
      return;
    }
    const k = player.position;
    const model = frameModel(recording, k, state.n);
    neighbourhood.shade(model, state.n);
    board.render({ ...model, cellClass: blockedClass(model.cellClass) });
    narration.tell(recording, k, state.n);
    const now = moments(recording, k);
    for (const item of code.children) {
      const on = now.has(item.dataset.moment);
      if (on && !item.hasAttribute("aria-current")) item.setAttribute("aria-current", "step");
      else if (!on) item.removeAttribute("aria-current");
    }
    const c = model.counters;
    counters.step.textContent = `${c.step.toLocaleString()} of ${c.steps.toLocaleString()}${recording.done ? "" : "…"}`;
    counters.iteration.textContent = c.iteration.toLocaleString();
    counters.score.textContent = c.score === null ? "–" : c.score.toLocaleString();
    counters.queens.textContent = String(c.queens);
    counters.pairs.textContent = String(c.pairs);
    counters.state.textContent = solverState(recording, k) || "–";
    const marksMean = state.solver.marks || "";
    stateLegend.hidden = !marksMean;
    stateLegend.textContent = marksMean;
    treePanel.show(recording, k, state);
    population.show(recording, k, { rows: state.rows, cols: state.cols });
    chart.draw(recording, state.solver, c.iteration, player.playing);
  }

  let last = performance.now();
  function frame(now) {
    const seconds = Math.min(0.25, (now - last) / 1000);
    last = now;
    if (!element.hidden && player.tick(seconds)) render();
    if (player.playing && player.position >= player.length && state.recording && state.recording.done) {
      player.playing = false;
      render();
    }
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  return {
    element,
    /** Shows the view with the settings of its URL. */
    show(settings) {
      const solver = byName.get(settings.solver) || state.solver;
      state.solver = solver;
      solverSelect.value = solver.name;
      if (settings.seed) seedInput.value = settings.seed;
      itersInput.value = settings.max_iters || "";
      const values = {};
      for (const p of solver.parameters) if (settings[p.name] !== undefined) values[p.name] = settings[p.name];
      buildParams(values);
      let size = { rows: state.rows, cols: state.cols };
      let openAt = null;
      mInput.value = settings.m || "";
      try {
        if (settings.solver) checkSolvers([settings.solver], solvers);
        if (settings.n && settings.size) throw new Error("The link gives both n and size: give one.");
        if (settings.n || settings.size) size = parseSize(settings.size || settings.n, maxN);
        state.locked = parseSquares(settings.fix || "", size.rows, size.cols);
        state.blocked = parseSquares(settings.block || "", size.rows, size.cols);
        setBoard(size);
        query();
        if (settings.step !== undefined) openAt = checkWhole(settings.step, 0, Number.MAX_SAFE_INTEGER, "The step");
        say(error, "");
      } catch (e) {
        if (state.rows !== size.rows || state.cols !== size.cols || !board) setBoard(size);
        say(error, e.message);
        return;
      }
      if (settings.run === "1" || openAt !== null) {
        state.openAt = openAt;
        start({ fromLink: true });
      }
    },
    /** The board element (for tests and screenshots). */
    get board() {
      return board;
    },
  };
}
