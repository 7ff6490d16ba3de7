// The Queen's Challenge table on the page: every square of the board locked in turn, the boards
// (or placements) each tree search examines before its first solution, one row per locked
// square filled in as the server's runs finish, and the summary `queens challenge` prints. The
// row of the square locked on the board is highlighted; clicking a row locks its square.

import * as api from "./api.js";
import { Board } from "./board.js";
import { cancellable, cancelledAfter, h, say, sayWhenWide } from "./dom.js";
import { squareName } from "./squares.js";

/**
 * The solvers of the challenge: those the server names (`limits.challenge_solvers`, the tree
 * searches of the Queen's Challenge), or else every tree search that counts what it examines.
 */
export function challengers(solvers, limits) {
  const named = limits && limits.challenge_solvers;
  if (named) return named.map((name) => solvers.find((s) => s.name === name)).filter(Boolean);
  return solvers.filter((s) => s.counts === "nodes" && !s.randomized);
}

/** The table's rows before any run: one per square, rank by rank from a1, file by file. */
export function emptyLocks(n) {
  const rows = [];
  for (let row = 0; row < n; row += 1) for (let col = 0; col < n; col += 1) rows.push(squareName({ row, col }, n));
  return rows;
}

/** A run's cell: its count, and "no solution" when it proved there is none. */
export function lockText(lock) {
  const count = lock.nodes.toLocaleString("en-US");
  if (lock.stopped) return `≥ ${count} (capped)`;
  return lock.solved ? count : `${count}, no solution`;
}

/**
 * The empty table of every lock on an n×n board for the solvers `mine`: its `elements` (the
 * summary, hidden, and the locks), its `cells` by "square solver" and its `rows` by square.
 */
function lockTable(mine, n, onPick) {
  const cells = new Map();
  const rows = new Map();
  const body = h("tbody", {}, emptyLocks(n).map((square) => {
    const tds = mine.map((s) => h("td", { class: "num", dataset: { solver: s.name } }, "…"));
    tds.forEach((cell, i) => cells.set(`${square} ${mine[i].name}`, cell));
    const row = h("tr", { dataset: { square }, tabindex: 0, onclick: () => onPick(square),
      onkeydown: (e) => { if (e.key === "Enter") onPick(square); } }, h("th", { scope: "row" }, square), tds);
    rows.set(square, row);
    return row;
  }));
  const units = mine.map((s) => s.unit.replace(/^an? /, "").split(" ")[0]);
  const head = (first) => h("thead", {}, h("tr", {}, h("th", {}, first), mine.map((s, i) => h("th", {}, s.name, h("small", {}, ` (${units[i]}s)`)))));
  // Both tables lay out their columns alike (a fixed layout, `--columns` wide), so that a
  // solver's summary stands above its column of locks.
  const columns = { "--columns": String(mine.length) };
  const elements = [
    h("table", { id: "ch-summary", class: "results challenge-summary aligned", style: columns, hidden: true }, head("over every lock"), h("tbody")),
    h("div", { class: "challenge-locks" }, h("table", { id: "ch-locks", class: "results challenge aligned", style: columns }, head("locked"), body)),
  ];
  return { elements, cells, rows };
}

/** A count in at most four characters, as a square of the heat map writes it: 950, 1.2k, 16k, 3.4M. */
export function shortCount(v) {
  if (v < 1000) return String(v);
  for (const [unit, size] of [["k", 1e3], ["M", 1e6], ["G", 1e9], ["T", 1e12]]) {
    const x = v / size;
    if (x < 9.95) return `${x.toFixed(1)}${unit}`;
    if (x < 999.5) return `${Math.round(x)}${unit}`;
  }
  return v.toExponential(0);
}

/**
 * The colour of a lock that examined `v` boards, on a log scale from `least` (pale) to `most`
 * (deep blue): the board-shaped view of the table, where a square's shade is its search's cost.
 */
export function costColour(v, least, most) {
  const t = most > least ? (Math.log(v) - Math.log(least)) / (Math.log(most) - Math.log(least)) : 0;
  const [pale, deep] = [[238, 243, 251], [24, 58, 122]];
  const c = pale.map((p, i) => Math.round(p + (deep[i] - p) * Math.max(0, Math.min(1, t))));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/**
 * The heat map beside the table: an n×n board whose every square is shaded by what the chosen
 * solver examined with its queen locked there (log scale), its count written where it reads;
 * a click locks the square, as a row's does.
 */
function costBoard(mine, n, onPick) {
  const choice = h("select", { id: "ch-heat-solver", "aria-label": "the solver the heat map shows" },
    mine.map((s) => h("option", { value: s.name }, s.name)));
  choice.value = mine.some((s) => s.name === "backtracking") ? "backtracking" : mine[0].name;
  const boardBox = h("div", { id: "ch-heat", class: "board small" });
  const scale = h("div", {},
    h("p", { class: "heat-scale cost-scale" }, h("span", {}, "fewer"), h("i"), h("span", {}, "more (log scale)")),
    h("p", { class: "heat-scale" }, "×: no solution with the queen locked there"));
  const element = h("div", { class: "challenge-heat" }, h("label", {}, "Heat map of ", choice), boardBox, scale);
  const board = new Board(boardBox, { n, label: `the cost of each lock on ${n}×${n}`, onActivate: (sq) => onPick(squareName(sq, n)) });
  // What each run examined, by "square solver"; the runs that found no solution.
  const nodes = new Map();
  const unsolved = new Set();
  /** Paints the chosen solver's counts. */
  const paint = () => {
    const mineNow = new Map();
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < n; col++) {
        const v = nodes.get(`${squareName({ row, col }, n)} ${choice.value}`);
        if (v !== undefined) mineNow.set(`${row},${col}`, v);
      }
    }
    const values = [...mineNow.values()].map((v) => Math.max(1, v));
    const [least, most] = [Math.min(...values), Math.max(...values)];
    const numbers = [...mineNow].map(([k, v]) => {
      const [row, col] = k.split(",").map(Number);
      return { row, col, text: shortCount(v) };
    });
    board.render({
      heat: (row, col) => (mineNow.has(`${row},${col}`) ? costColour(Math.max(1, mineNow.get(`${row},${col}`)), least, most) : null),
      cellClass: (row, col) => (unsolved.has(`${squareName({ row, col }, n)} ${choice.value}`) ? "no-solution" : ""),
      numbers,
    });
  };
  choice.addEventListener("change", paint);
  paint();
  return { element, paint, nodes, unsolved };
}

/** The summary rows of a finished table: solved, min, median, mean and max for each solver. */
function summaryRows(mine, table) {
  const byName = new Map(table.rows.map((r) => [r.solver, r]));
  const line = (label, value) => h("tr", {}, h("th", { scope: "row" }, label),
    mine.map((s) => h("td", { class: "num", dataset: { solver: s.name } }, byName.has(s.name) ? value(byName.get(s.name)) : "—")));
  const number = (v) => v.toLocaleString("en-US", { maximumFractionDigits: 1 });
  return [
    line("solved", (r) => `${r.solved}/${r.runs}`),
    line("min", (r) => number(r.min)),
    line("median", (r) => number(r.median)),
    line("mean", (r) => number(r.mean)),
    line("max", (r) => number(r.max)),
  ];
}

/** A finished run (a `lock` event) in its cell of the table and on its square of the heat map. */
function recordLock(state, event) {
  const run = `${event.square} ${event.solver}`;
  const cell = state.cells.get(run);
  if (cell) {
    cell.textContent = lockText(event);
    cell.classList.toggle("unsolved", !event.solved);
  }
  state.heat.nodes.set(run, event.nodes);
  if (!event.solved) state.heat.unsolved.add(run);
  state.heat.paint();
}

export function createChallenge({ limits, solvers, side, onPick }) {
  const mine = challengers(solvers, limits);
  const runButton = h("button", { id: "ch-run", class: "primary", onclick: () => run() }, "Tabulate every lock");
  const cancelButton = h("button", { id: "ch-cancel", hidden: true, onclick: () => state.request && state.request.abort() }, "Cancel");
  const progress = h("progress", { id: "ch-progress", value: 0, max: 1, hidden: true });
  const status = h("p", { id: "ch-status", "aria-live": "polite" });
  const error = h("p", { id: "ch-error", class: "error", hidden: true });
  const tableBox = h("div", { id: "ch-table", class: "table-box challenge-table", tabindex: 0, role: "region", "aria-label": "the Queen's Challenge table" });
  const heatBox = h("div", { class: "challenge-heat-box" });
  const state = { n: side, locked: null, request: null, cells: new Map(), rows: new Map(), summary: null, heat: null };
  const element = h("details", { id: "w-challenge", class: "challenge" },
    h("summary", {}, "The Queen's Challenge table: every square locked in turn"),
    h("p", { class: "note" }, "For every square as the locked queen, what each search examines until its first solution, as ",
      h("code", {}, "queens challenge"), " counts it; the summary rows are its table. Brute force on 8×8 examines about 8.5 billion boards in all: minutes on the server's cores. Click a row to lock its square."),
    h("div", { class: "controls" }, runButton, cancelButton, progress),
    // The table's box in a wrapper of its own, which also takes its "scrolls sideways" line.
    status, error, h("div", { class: "challenge-views" }, heatBox, h("div", { class: "challenge-table-side" }, tableBox)));

  /** Builds the empty table for `n`. */
  function build(n) {
    state.n = n;
    state.summary = null;
    const table = lockTable(mine, n, onPick);
    state.cells = table.cells;
    state.rows = table.rows;
    tableBox.replaceChildren(...table.elements);
    state.heat = costBoard(mine, n, onPick);
    heatBox.replaceChildren(state.heat.element);
    sayWhenWide(tableBox);
    highlight();
  }

  /** Marks the locked square's row. */
  function highlight() {
    for (const [square, row] of state.rows) {
      if (square === state.locked) row.setAttribute("aria-current", "true");
      else row.removeAttribute("aria-current");
    }
  }

  /** The summary rows, from the finished table (the document of `queens challenge --json`). */
  function summarize(table) {
    state.summary = table;
    const summary = tableBox.querySelector("#ch-summary");
    summary.hidden = false;
    summary.tBodies[0].replaceChildren(...summaryRows(mine, table));
  }

  async function run() {
    if (state.n > limits.challenge_max_n) {
      say(error, `This server tabulates boards up to ${limits.challenge_max_n}×${limits.challenge_max_n}; the command line (queens challenge) takes any up to 64.`);
      return;
    }
    say(error, "");
    build(state.n);
    const planned = state.n * state.n * mine.length;
    let done = 0;
    progress.max = planned;
    const begun = performance.now();
    const cancelled = (word) => cancelledAfter(done, planned, "searches", begun, "The table keeps the ones that finished.", word);
    const controls = { button: runButton, cancel: cancelButton, progress, status, error, cancelled };
    await cancellable(state, controls, async (signal) => {
      status.textContent = `Running ${planned.toLocaleString("en-US")} searches…`;
      const started = performance.now();
      await api.challenge(state.n, (event) => {
        if (event.type === "lock") {
          done += 1;
          progress.value = done;
          recordLock(state, event);
          status.textContent = `${done.toLocaleString("en-US")} of ${planned.toLocaleString("en-US")} searches finished…`;
        } else if (event.type === "finished") {
          summarize(event.table);
          const seconds = ((performance.now() - started) / 1000).toFixed(1);
          status.textContent = event.complete
            ? `All ${planned.toLocaleString("en-US")} searches finished in ${seconds} s.`
            : `Partial: ${event.table.finished.toLocaleString("en-US")} of ${planned.toLocaleString("en-US")} searches finished (${event.table.stopped || "a run reached the node cap"}); the summary covers those.`;
        } else if (event.type === "error") {
          say(error, api.sentence(event.error));
        }
      }, signal);
    });
  }

  build(side);
  return {
    element,
    /** Shows the table for an n×n board with `locked` (a square's name, or null) highlighted. */
    show(n, locked, visible) {
      element.hidden = !visible;
      if (n !== state.n) {
        if (state.request) state.request.abort();
        build(n);
        status.textContent = "";
      }
      state.locked = locked;
      highlight();
    },
  };
}
