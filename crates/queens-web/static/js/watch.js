// Watch: one solver's run as a lesson. The whole run is recorded as it streams in; playback
// goes step by step (an iteration of a local search, a node of a tree search), back and forth,
// or along a timeline, at a pace that plays the whole run in about fifteen seconds. Beside the
// board: the counters of the step shown, the score chart, and how the solver works. This module
// runs and replays; watch-panel.js builds the elements and watch-render.js draws a step.

import * as api from "./api.js";
import { Board } from "./board.js";
import { challengers } from "./challenge.js";
import { checked, fill, h, say } from "./dom.js";
import { explanation } from "./explain.js";
import { Player } from "./player.js";
import { Recording, nextEvent, unitLabel } from "./replay.js";
import { checkParameter, checkSeed, checkSolvers, checkWhole, parseSize, parseSquares, sizeParams, sizeText, squareName, toggled } from "./squares.js";
import { createWatchPanel } from "./watch-panel.js";
import { renderWatch, speedText } from "./watch-render.js";

/**
 * Shows `solver`'s parameters (with `values` where given), its unit, score, code and lesson. A
 * search that can go on past its first solution (its `solutions` parameter) gets "Find all",
 * which runs it with `solutions` at 0 (`findAll`).
 */
function showSolver(panel, solver, values, findAll) {
  panel.params.replaceChildren(...solver.parameters.map((p) => {
    const input = h("input", { type: "number", name: p.name, value: values[p.name] ?? p.default, step: p.integer ? 1 : "any", min: p.min, max: p.max ?? undefined, title: p.doc });
    input.dataset.default = p.default;
    const label = h("label", { title: p.doc }, `${p.name} `, input);
    if (p.name !== "solutions") return label;
    const all = h("button", { id: "w-find-all", type: "button", title: "Run until every solution is found and counted", onclick: () => { input.value = "0"; findAll(); } }, "Find all");
    return h("span", { class: "find-all" }, label, all);
  }));
  panel.solutionsRow.hidden = !solver.parameters.some((p) => p.name === "solutions");
  for (const el of panel.element.querySelectorAll(".unit")) el.textContent = unitLabel(solver);
  panel.unitCell.textContent = unitLabel(solver);
  panel.neighbourhood.showFor(solver);
  panel.scoreDoc.textContent = `Score: ${solver.score}.`;
  panel.code.replaceChildren(...solver.pseudo_code.map((line) => h("li", {
    dataset: { moment: line.moment },
    style: { "--indent": String(line.text.length - line.text.trimStart().length) },
  }, line.text)));
  fill(panel.about, explanation(solver, values));
}

/** The view's settings, as its link keeps them (parameters left at their default omitted). */
function linkSettings(panel, state) {
  const values = {};
  for (const input of panel.params.querySelectorAll("input")) {
    if (input.value !== "" && Number(input.value) !== Number(input.dataset.default)) values[input.name] = input.value;
  }
  return {
    solver: state.solver.name,
    ...sizeParams(state),
    m: panel.mInput.value.trim(),
    seed: panel.seedInput.value.trim(),
    fix: state.locked.map((q) => squareName(q, state.cols)).join(","),
    block: state.blocked.map((q) => squareName(q, state.cols)).join(","),
    max_iters: panel.itersInput.value.trim(),
    ...values,
  };
}

/** The run's query, every field checked against the descriptor and the limits. */
function runQuery(panel, state, maxN) {
  const size = parseSize(panel.nInput.value, maxN);
  const q = { solver: state.solver.name, ...sizeParams(size), seed: checkSeed(panel.seedInput.value) };
  if (panel.mInput.value.trim()) q.m = checkWhole(panel.mInput.value, 1, size.rows * size.cols, "Queens");
  if (state.locked.length) q.fix = state.locked.map((sq) => squareName(sq, size.cols)).join(",");
  if (state.blocked.length) q.block = state.blocked.map((sq) => squareName(sq, size.cols)).join(",");
  if (panel.itersInput.value.trim()) q.max_iters = checkWhole(panel.itersInput.value, 1, Number.MAX_SAFE_INTEGER, `Max ${unitLabel(state.solver)}`);
  for (const input of panel.params.querySelectorAll("input")) {
    const parameter = state.solver.parameters.find((p) => p.name === input.name);
    q[input.name] = checkParameter(parameter, input.value);
  }
  return q;
}

/**
 * The status line of a finished run. A run too long to stream whole was sampled: it says its
 * count, from where it was sampled, and that the counts are exact.
 */
function finishText(event, solver) {
  const why = event.stop_reason ? `: ${event.stop_reason}` : "";
  // A search that went on past its first solution, or stopped while it did, says how many it found.
  const found = event.solutions ?? 0;
  const solutions = found > 1 || (found && event.status === "stopped") ? `; ${found.toLocaleString()} solution${found === 1 ? "" : "s"} found` : "";
  const total = event.nodes ?? event.iterations ?? 0;
  const sampled = event.sampled
    ? ` after ${total.toLocaleString()} ${unitLabel(solver)}; every step up to ${event.sampled.from.toLocaleString()} was streamed, then samples (at the end one in ${event.sampled.every.toLocaleString()}), the counts exact`
    : "";
  return `${event.status}${why}${solutions}${sampled}`;
}

/** The board a link asks for (`size` if it names none); throws what is wrong with the link. */
function linkSize(settings, solvers, maxN, size) {
  if (settings.solver) checkSolvers([settings.solver], solvers);
  if (settings.n && settings.size) throw new Error("The link gives both n and size: give one.");
  return settings.n || settings.size ? parseSize(settings.size || settings.n, maxN) : size;
}

/** Watch's run, its playback and its link. */
class Watch {
  constructor({ limits, solvers, defaults, pushSettings }) {
    this.solvers = solvers;
    this.byName = new Map(solvers.map((s) => [s.name, s]));
    this.maxN = limits.solve_max_n;
    this.pushSettings = pushSettings;
    // `blocked`: squares no queen may take (from Configure's "Solve this position", `block=` in the URL).
    const side = defaults.side;
    this.state = { n: side, rows: side, cols: side, locked: [], blocked: [], recording: null, request: null, solver: this.byName.get(defaults.watch_solver) || solvers[0], openAt: null, board: null };
    this.player = new Player();
    this.challengeNames = new Set(challengers(solvers, limits).map((s) => s.name));
    this.panel = createWatchPanel({ limits, solvers, defaults, actions: this.actions() });
    this.element = this.panel.element;
    this.listen();
    let last = performance.now();
    const frame = (now) => {
      this.tick(Math.min(0.25, (now - last) / 1000));
      last = now;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  /** What the panel's buttons do. */
  actions() {
    const { state, player } = this;
    return {
      start: () => this.start(),
      togglePlay: () => (state.recording ? (player.toggle() ? this.render() : this.paused()) : this.start()),
      move: (delta) => { player.step(delta); this.paused(); },
      showFrame: (k) => { player.seek(k); this.paused(); },
      end: () => { player.seek(player.length); this.paused(); },
      nextEvent: () => {
        if (!state.recording) return;
        player.seek(nextEvent(state.recording, player.position) ?? player.length);
        this.paused();
      },
      faster: (up) => { player.faster(up); this.panel.speedOut.textContent = speedText(player.rate); },
      unlock: () => { state.locked = []; this.render(); this.saveFix(); },
      render: () => this.render(),
      fail: (message) => say(this.panel.error, message),
      pick: (name) => {
        state.locked = [];
        this.lock(parseSquares(name, state.rows, state.cols)[0]);
        this.panel.boardBox.scrollIntoView({ block: "nearest" });
      },
    };
  }

  /** The settings' listeners: the solver, the board and the timeline. */
  listen() {
    const { panel, state, player } = this;
    panel.solverSelect.addEventListener("change", () => {
      state.solver = this.byName.get(panel.solverSelect.value);
      showSolver(panel, state.solver, {}, () => this.start());
      this.render();
    });
    panel.nInput.addEventListener("change", () => {
      const size = checked(panel.error, () => parseSize(panel.nInput.value, this.maxN));
      if (size !== undefined) this.setBoard(size);
    });
    panel.timeline.addEventListener("input", () => {
      player.seek(Number(panel.timeline.value));
      this.paused();
    });
  }

  /** One animation frame, `seconds` after the last: plays on, and stops at a finished run's end. */
  tick(seconds) {
    const { player, state } = this;
    if (!this.element.hidden && player.tick(seconds)) this.render();
    if (player.playing && player.position >= player.length && state.recording && state.recording.done) {
      player.playing = false;
      this.render();
    }
  }

  render() {
    renderWatch(this.panel, this.state, this.player, this.challengeNames);
  }

  saveFix() {
    this.pushSettings(linkSettings(this.panel, this.state), true);
  }

  /** Draws a paused run and names its step in the URL, so that a link opens the run there. */
  paused() {
    this.render();
    if (this.state.recording) this.pushSettings({ ...linkSettings(this.panel, this.state), run: 1, step: this.player.position }, true);
  }

  /** Drops the run recorded. */
  forget() {
    this.state.recording = null;
    this.player.length = 0;
    this.player.seek(0);
  }

  /** A new empty board of `size` (`{ rows, cols }`). */
  setBoard({ rows, cols }) {
    const { state, panel } = this;
    // `n`, the longer side: what the step's narration and marks range over.
    Object.assign(state, { rows, cols, n: Math.max(rows, cols) });
    panel.nInput.value = sizeText({ rows, cols });
    state.locked = state.locked.filter((q) => q.row < rows && q.col < cols);
    this.forget();
    state.board = new Board(panel.boardBox, { rows, cols, onActivate: (square) => this.lock(square), label: `${rows}×${cols} board of the watched solver` });
    this.render();
  }

  /** Locks a queen on `square`, or unlocks the one there. */
  lock(square) {
    if (this.state.recording) {
      say(this.panel.error, "Locked queens are set before a run: press Start again to run with new ones.");
      this.forget();
    }
    this.state.locked = toggled(this.state.locked, square);
    this.saveFix();
    this.render();
  }

  /**
   * Runs the solver. A run started from a link replaces the link's history entry and, when the
   * link names a step (`state.openAt`), stops there; one started by the user is a new entry.
   */
  async start({ fromLink = false } = {}) {
    const { panel, state, player } = this;
    const q = checked(panel.error, () => runQuery(panel, state, this.maxN));
    if (q === undefined) return;
    const asked = parseSize(panel.nInput.value, this.maxN);
    if (asked.rows !== state.rows || asked.cols !== state.cols) this.setBoard(asked);
    if (!fromLink) state.openAt = null;
    this.pushSettings({ ...linkSettings(panel, state), run: 1, step: state.openAt ?? undefined }, fromLink);
    if (state.request) state.request.abort();
    const request = new AbortController();
    const recording = new Recording();
    Object.assign(state, { request, recording });
    player.seek(0);
    player.length = 0;
    player.playing = state.openAt === null;
    panel.status.textContent = "running";
    try {
      await api.solve(q, (event) => this.receive(recording, event), request.signal);
    } catch (e) {
      if (e.name === "AbortError") return;
      say(panel.error, e.message);
      if (e instanceof api.Lost) {
        // The steps that arrived stay, to replay.
        panel.status.textContent = `stopped after ${recording.length.toLocaleString()} steps: the server stopped answering`;
        player.playing = false;
        this.render();
      } else {
        panel.status.textContent = "refused";
      }
    }
  }

  /** One event of `recording`'s run, unless a newer run replaced it. */
  receive(recording, event) {
    const { state, player, panel } = this;
    if (state.recording !== recording) return;
    recording.push(event);
    player.length = recording.length;
    if (state.openAt !== null && (recording.length >= state.openAt || event.type === "finished")) {
      player.seek(state.openAt);
      state.openAt = null;
      this.render();
    }
    if (event.type !== "finished") return;
    if (event.status === "error") say(panel.error, api.sentence(event.stop_reason));
    panel.status.textContent = finishText(event, state.solver);
    this.render();
  }

  /** Shows the view with the settings of its URL. */
  show(settings) {
    const { panel, state } = this;
    const solver = this.byName.get(settings.solver) || state.solver;
    state.solver = solver;
    panel.solverSelect.value = solver.name;
    if (settings.seed) panel.seedInput.value = settings.seed;
    panel.itersInput.value = settings.max_iters || "";
    panel.mInput.value = settings.m || "";
    showSolver(panel, solver, Object.fromEntries(solver.parameters.filter((p) => settings[p.name] !== undefined).map((p) => [p.name, settings[p.name]])), () => this.start());
    let size = { rows: state.rows, cols: state.cols };
    let openAt = null;
    try {
      size = linkSize(settings, this.solvers, this.maxN, size);
      state.locked = parseSquares(settings.fix || "", size.rows, size.cols);
      state.blocked = parseSquares(settings.block || "", size.rows, size.cols);
      this.setBoard(size);
      runQuery(panel, state, this.maxN);
      if (settings.step !== undefined) openAt = checkWhole(settings.step, 0, Number.MAX_SAFE_INTEGER, "The step");
      say(panel.error, "");
    } catch (e) {
      if (state.rows !== size.rows || state.cols !== size.cols || !state.board) this.setBoard(size);
      say(panel.error, e.message);
      return;
    }
    if (settings.run === "1" || openAt !== null) {
      state.openAt = openAt;
      this.start({ fromLink: true });
    }
  }

  /** The board element (for tests and screenshots). */
  get board() {
    return this.state.board;
  }
}

/** Watch: its `element`, `show(settings)` of a link, and its `board`. */
export function createWatch(options) {
  return new Watch(options);
}
