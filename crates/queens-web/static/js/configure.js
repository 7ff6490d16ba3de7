// Configure: place queens one by one; after every move the server's configurator says which
// squares can still complete the position, which queens are forced, how many completions pass
// through each square, and why a square that cannot take a queen cannot. A square that cannot is
// explained by the first click; a second click on it places a queen anyway. On a touch screen
// every square works that way: the first tap explains, the second places.
//
// Squares can be blocked for queens (an n-Queens Completion problem): Shift-click, or the Block
// squares mode, blocks and unblocks them, and an instance file (CSPLib 079 or 080, or a JSON
// problem) opens with its queens and blocked squares. Dead squares whose line the blocks help
// to empty name those blocks. This module keeps the position and its history and asks the
// server; configure-panel.js builds the elements, configure-analysis.js reads the answer.

import * as api from "./api.js";
import { Board } from "./board.js";
import { heatColour } from "./charts.js";
import { cellAt, exact, explainSquare, reasonMarks, solvableText, summaryText } from "./configure-analysis.js";
import { createConfigurePanel } from "./configure-panel.js";
import { checked, say } from "./dom.js";
import { FOUND_DRAWN_MAX } from "./found.js";
import { attackingPairs, blockedClass, checkWhole, key, parseSquares, squareName, toggled } from "./squares.js";
import { formatHash } from "./state.js";

/** The board's drawing of analysis `a` with `marks`, the heat map shown when `showHeat`. */
function analysisDrawing(a, marks, showHeat) {
  return {
    queens: [...a.queens.map((q) => ({ ...q, kind: "" })), ...a.forced.map((q) => ({ ...q, kind: "forced" }))],
    cellClass: (row, col) => {
      const status = cellAt(a, row * a.n + col).status;
      return showHeat && status === "open" ? "open heat" : status;
    },
    heat: showHeat ? (row, col) => {
      const cell = cellAt(a, row * a.n + col);
      return cell.status === "open" ? heatColour(0.1 + (0.9 * cell.completions) / a.completions) : null;
    } : null,
    marks,
  };
}

/** The position as it stands, without an analysis: queens that attack each other in red, joined. */
function unanalysedDrawing(queens, blocked) {
  const pairs = attackingPairs(queens);
  const clashing = new Set(pairs.flatMap(([a, b]) => [key(a), key(b)]));
  return {
    queens: queens.map((q) => ({ ...q, kind: clashing.has(key(q)) ? "clash" : "" })),
    cellClass: blockedClass(blocked),
    pairs: pairs.map(([a, b]) => [a, b]),
  };
}

/** The configurator's position, its history and the server's analysis of it. */
class Configure {
  constructor({ limits, defaults, navigate, replaceSettings }) {
    Object.assign(this, { limits, defaults, navigate, replaceSettings, board: null });
    // `linkError` is what was wrong with the link that opened the view; it stays until the user acts.
    // `past` and `future` hold positions: `{queens, blocked}`.
    this.state = {
      n: defaults.side, queens: [], blocked: [], blocking: false, past: [], future: [], analysis: null, request: null,
      pinned: null, inspected: null, shown: null, linkError: "", touch: false,
    };
    this.panel = createConfigurePanel({ limits, defaults, actions: {
      history: (direction) => this.history(direction),
      reset: () => (this.state.queens.length || this.state.blocked.length) && this.commit({ queens: [], blocked: [] }),
      toggleBlocking: () => {
        this.state.blocking = !this.state.blocking;
        this.panel.blockMode.setAttribute("aria-pressed", String(this.state.blocking));
      },
      solve: () => this.solveThis(),
    } });
    this.element = this.panel.element;
    this.listen();
  }

  /** The listeners of N, the heat map, the instance file and the keyboard's undo and redo. */
  listen() {
    const { panel, limits } = this;
    panel.nInput.addEventListener("change", () => {
      const n = checked(panel.error, () => checkWhole(panel.nInput.value, 1, limits.configure_max_n, "N"));
      if (n === undefined) return;
      this.state.linkError = "";
      this.setBoard(n, []);
      this.analyse();
    });
    panel.heat.addEventListener("change", () => this.paint());
    panel.instanceFile.addEventListener("change", () => this.openInstance());
    panel.diagonals.addEventListener("change", () => this.openInstance());
    document.addEventListener("keydown", (event) => {
      if (this.element.hidden || !(event.ctrlKey || event.metaKey)) return;
      if (event.key === "z") this.history(-1);
      if (event.key === "y") this.history(1);
    });
  }

  /** Reads the chosen instance file through the server and opens its position. */
  async openInstance() {
    const { panel, limits } = this;
    const file = panel.instanceFile.files && panel.instanceFile.files[0];
    if (!file) return;
    try {
      const count = panel.diagonals.value.trim() === "" ? undefined : checkWhole(panel.diagonals.value, 0, 1e6, "The number of diagonals");
      const opened = await api.instance(await file.text(), count);
      if (opened.n > limits.configure_max_n) throw new Error(`The instance is ${opened.n}×${opened.n}; this server configures boards up to ${limits.configure_max_n}.`);
      say(panel.error, "");
      this.state.linkError = "";
      this.setBoard(opened.n, opened.queens, opened.blocked);
      this.analyse();
    } catch (e) {
      say(panel.error, `${file.name}: ${e.message}`);
    }
  }

  setBoard(n, queens, blocked = []) {
    Object.assign(this.state, { n, queens, blocked, past: [], future: [], pinned: null, analysis: null });
    this.panel.nInput.value = n;
    this.board = new Board(this.panel.boardBox, {
      n, label: `${n}×${n} configurator board`,
      onActivate: (square, pointer, keys) => this.activate(square, pointer, keys),
      onInspect: (square) => this.inspect(square),
    });
  }

  /** The position now, as undo keeps it. */
  position() {
    return { queens: this.state.queens, blocked: this.state.blocked };
  }

  commit(next) {
    const { state } = this;
    state.linkError = "";
    state.past.push(this.position());
    state.future = [];
    ({ queens: state.queens, blocked: state.blocked } = next);
    state.pinned = null;
    this.analyse();
  }

  history(direction) {
    const { state } = this;
    const from = direction < 0 ? state.past : state.future;
    const to = direction < 0 ? state.future : state.past;
    if (!from.length) return;
    to.push(this.position());
    ({ queens: state.queens, blocked: state.blocked } = from.pop());
    state.pinned = null;
    this.analyse();
  }

  /** The current analysis, if it is of the board shown. */
  analysis() {
    const a = this.state.analysis;
    return a && a.n === this.state.n ? a : null;
  }

  async analyse() {
    const { state, panel } = this;
    const names = (squares) => squares.map((sq) => squareName(sq, state.n)).join(",");
    this.replaceSettings({ n: state.n, q: names(state.queens), b: names(state.blocked) });
    if (state.request) state.request.abort();
    const request = new AbortController();
    state.request = request;
    panel.indicator.textContent = "analysing…";
    panel.indicator.className = "indicator maybe";
    // The completions linked to are the analysed position's: none until it is analysed.
    panel.listLink.hidden = true;
    try {
      const analysis = await api.configure(state.n, state.queens, state.blocked, request.signal);
      if (request !== state.request) return;
      state.analysis = analysis;
      say(panel.error, state.linkError);
      this.paint();
    } catch (e) {
      if (e.name === "AbortError") return;
      say(panel.error, e.message);
      state.analysis = null;
      panel.indicator.textContent = "no analysis";
      panel.indicator.className = "indicator no";
      panel.summary.textContent = `${state.queens.length} placed`;
      this.showHistory();
      this.board.render(unanalysedDrawing(state.queens, state.blocked));
    }
  }

  showHistory() {
    this.panel.undo.disabled = this.state.past.length === 0;
    this.panel.redo.disabled = this.state.future.length === 0;
  }

  /** Blocks or unblocks `square`; a square holding a queen is not blocked. */
  toggleBlock(square) {
    const { state } = this;
    if (state.queens.some((q) => key(q) === key(square))) {
      state.pinned = square;
      this.panel.reason.textContent = `${squareName(square, state.n)} holds a queen: remove it before blocking the square.`;
      return;
    }
    this.commit({ queens: state.queens, blocked: toggled(state.blocked, square) });
  }

  activate(square, pointer, { shift = false } = {}) {
    const { state } = this;
    state.touch = pointer === "touch" || pointer === "pen";
    if (state.blocking || shift) {
      this.toggleBlock(square);
      return;
    }
    const a = this.analysis();
    const status = a ? cellAt(a, square.row * state.n + square.col).status : "open";
    const same = state.pinned && key(state.pinned) === key(square);
    if (status === "queen") {
      this.commit({ queens: state.queens.filter((q) => key(q) !== key(square)), blocked: state.blocked });
    } else if (status === "blocked" || status === "forced") {
      this.explain(square, true);
    } else if ((state.touch || status !== "open") && !same) {
      // First tap (or first click on a blocked square): explain, do not place.
      this.explain(square, true);
    } else {
      this.commit({ queens: [...state.queens, square], blocked: state.blocked });
    }
  }

  inspect(square) {
    this.state.inspected = square;
    if (square) this.explain(square, false);
    else if (this.state.pinned) this.explain(this.state.pinned, true);
    else this.draw(reasonMarks(null));
  }

  explain(square, pin) {
    const a = this.analysis();
    if (!a) return;
    if (pin) this.state.pinned = square;
    // The square whose sentence the reason line shows, whether pinned or pointed at: an answer
    // from the server is shown if its square is still this one.
    this.state.shown = { square, pin };
    const told = explainSquare(a, square, squareName(square, this.state.n), pin, this.state.touch);
    if (told.ask) this.askWhy(a, square);
    this.panel.reason.textContent = told.text;
    this.draw(reasonMarks(square, told.reason, this.state.n));
  }

  /** Asks the server for the reason of `square` in analysis `a`, and shows it (or why the server
   * could not give it) if the reason line still shows the square, pinned or pointed at. */
  async askWhy(a, square) {
    const index = square.row * a.n + square.col;
    a.asked = a.asked || new Set();
    if (a.asked.has(index)) return;
    a.asked.add(index);
    const failed = (sentence) => {
      a.asked.delete(index);
      a.failed = a.failed || new Map();
      a.failed.set(index, sentence);
    };
    try {
      const more = await api.configure(a.n, a.queens, a.blocked || [], undefined, [square]);
      Object.assign(a.reasons, more.reasons);
      if (!a.reasons[index]) failed("Its answer named no reason for this square.");
    } catch (e) {
      failed(e.message);
    }
    const { state } = this;
    if (state.analysis !== a || !state.shown || key(state.shown.square) !== key(square)) return;
    this.explain(square, state.shown.pin);
  }

  draw(marks) {
    const a = this.analysis();
    if (!a) {
      const { queens, blocked } = this.state;
      this.board.render({ queens: queens.map((q) => ({ ...q, kind: "" })), cellClass: blockedClass(blocked), marks });
      return;
    }
    this.board.render(analysisDrawing(a, marks, this.panel.heat.checked && exact(a) && a.completions > 0));
  }

  paint() {
    const a = this.analysis();
    if (!a) return;
    const { panel, state } = this;
    const counted = exact(a);
    panel.heat.disabled = !counted;
    panel.heatNote.hidden = counted;
    panel.heatNote.textContent = counted ? "" : "The heat map needs exact completion counts; this position has too many completions to count within the server's budget.";
    panel.scale.hidden = !(panel.heat.checked && counted);
    const [words, verdict] = solvableText(a);
    panel.indicator.textContent = words;
    panel.indicator.className = `indicator ${verdict}`;
    panel.summary.textContent = summaryText(a);
    this.showListLink(a);
    this.showHistory();
    if (state.pinned) this.explain(state.pinned, true);
    else if (state.inspected) this.explain(state.inspected, false);
    else this.draw(reasonMarks(null));
  }

  /**
   * The link to Watch's search for every completion of the position, its queens locked, where
   * they are counted and few enough for Watch to draw each (its "Solutions found").
   */
  showListLink(a) {
    const { panel, state, limits } = this;
    const few = exact(a) && a.completions >= 2 && a.completions <= FOUND_DRAWN_MAX;
    panel.listLink.hidden = !(few && limits.list_solver && state.n <= limits.solve_max_n);
    if (panel.listLink.hidden) return;
    const names = (squares) => squares.map((q) => squareName(q, state.n)).join(",");
    panel.listLink.href = formatHash("watch", {
      solver: limits.list_solver, n: state.n, fix: names(state.queens), block: names(state.blocked), solutions: 0, run: 1,
    });
    panel.listLink.textContent = `See the ${a.completions.toLocaleString()} completions, each drawn`;
  }

  solveThis() {
    const { state, limits, defaults } = this;
    const names = (squares) => squares.map((q) => squareName(q, state.n)).join(",");
    const a = this.analysis();
    const fix = names([...state.queens, ...(a ? a.forced : [])]);
    // A position is solved by the server's choice for positions (the completion search, which
    // ends solved or proved unsolvable on every board the page configures).
    const position = fix || state.blocked.length;
    const solver = position && limits.position_solver ? limits.position_solver
      : state.n <= defaults.small_board_up_to ? defaults.watch_solver : defaults.large_board_solver;
    this.navigate("watch", { solver, n: Math.min(state.n, limits.solve_max_n), seed: defaults.seed, fix, block: names(state.blocked) });
  }

  /** Shows the view with the settings of its URL (`n`, `q`, `b`). */
  show(settings) {
    const { state } = this;
    let n = this.defaults.side;
    let queens = [];
    let blocked = [];
    try {
      if (settings.n) n = checkWhole(settings.n, 1, this.limits.configure_max_n, "N");
      queens = parseSquares(settings.q || "", n);
      blocked = parseSquares(settings.b || "", n);
      state.linkError = "";
    } catch (e) {
      state.linkError = e.message;
    }
    say(this.panel.error, state.linkError);
    const same = (a, b) => a.map(key).join() === b.map(key).join();
    if (!this.board || n !== state.n || !same(queens, state.queens) || !same(blocked, state.blocked)) {
      this.setBoard(n, queens, blocked);
      this.analyse();
    }
  }
}

/** Configure: its `element` and `show(settings)` of a link. */
export function createConfigure(options) {
  return new Configure(options);
}
