// Configure: place queens one by one; after every move the server's configurator says which
// squares can still complete the position, which queens are forced, how many completions pass
// through each square, and why a square that cannot take a queen cannot. A square that cannot is
// explained by the first click; a second click on it places a queen anyway. On a touch screen
// every square works that way: the first tap explains, the second places.
//
// Squares can be blocked for queens (an n-Queens Completion problem): Shift-click, or the Block
// squares mode, blocks and unblocks them, and an instance file (CSPLib 079 or 080, or a JSON
// problem) opens with its queens and blocked squares. Dead squares whose line the blocks help
// to empty name those blocks.

import * as api from "./api.js";
import { Board } from "./board.js";
import { heatColour } from "./charts.js";
import { checked, h, say } from "./dom.js";
import { attackingPairs, checkWhole, key, parseSquares, squareName } from "./squares.js";

/** The squares strictly between two squares on a shared line. */
function between(a, b) {
  const out = [];
  const dr = Math.sign(b.row - a.row);
  const dc = Math.sign(b.col - a.col);
  for (let r = a.row + dr, c = a.col + dc; r !== b.row || c !== b.col; r += dr, c += dc) {
    out.push({ row: r, col: c });
  }
  return out;
}

// The server answers with its compact document: every square's status as one symbol of a
// string, the counts as one list, and the reasons of small boards whole; on a larger board the
// reason of a square is asked for when the square is explained.

/** The cell of square index `index` in a compact analysis: its status, completions and reason. */
export function cellAt(a, index) {
  return {
    status: a.legend[a.statuses[index]],
    completions: a.counts ? a.counts[index] : undefined,
    reason: a.reasons[index],
  };
}

/** How many squares of a compact analysis have `status`. */
export function countStatus(a, status) {
  if (!a.tally) {
    a.tally = {};
    for (const symbol of a.statuses) a.tally[symbol] = (a.tally[symbol] || 0) + 1;
  }
  const symbol = Object.keys(a.legend).find((s) => a.legend[s] === status);
  return (symbol && a.tally[symbol]) || 0;
}

function lineSquares(line, n) {
  return Array.from({ length: n }, (_, i) => (line.row !== undefined ? { row: line.row, col: i } : { row: i, col: line.col }));
}

const LEGEND = [
  ["q", "a queen you placed"],
  ["forced", "forced: in every completion, placed for you"],
  ["open", "open: in some completion"],
  ["attacked", "attacked by a queen"],
  ["dead", "dead: in no completion"],
  ["blocked", "blocked: no queen may stand here"],
  ["unknown", "unknown: not decided in time"],
];

/** `squares` with `square` added, or taken out if it is there. */
function toggled(squares, square) {
  const k = key(square);
  return squares.some((q) => key(q) === k) ? squares.filter((q) => key(q) !== k) : [...squares, square];
}

export function createConfigure({ limits, defaults, navigate, replaceSettings }) {
  // `linkError` is what was wrong with the link that opened the view; it stays until the user acts.
  // `past` and `future` hold positions: `{queens, blocked}`.
  const state = {
    n: 8, queens: [], blocked: [], blocking: false, past: [], future: [], analysis: null, request: null,
    pinned: null, inspected: null, linkError: "",
  };
  const nInput = h("input", { id: "cfg-n", type: "number", min: 1, max: limits.configure_max_n, value: 8, inputmode: "numeric" });
  const heat = h("input", { id: "cfg-heat", type: "checkbox" });
  const heatNote = h("p", { class: "note", hidden: true });
  const boardBox = h("div", { id: "cfg-board", class: "board" });
  const indicator = h("p", { id: "cfg-solvable", class: "indicator maybe" }, "…");
  const summary = h("p", { id: "cfg-summary" });
  const reason = h("p", { id: "cfg-reason", class: "reason", "aria-live": "polite" },
    matchMedia("(pointer: coarse)").matches
      ? "Tap a square to see what it can still be, tap it again to place a queen; tap a queen to remove it. With Block squares pressed, a tap blocks a square."
      : "Click a square to place a queen, a queen to remove it; Shift-click blocks a square. Point at a square to see what it can still be.");
  const error = h("p", { id: "cfg-error", class: "error", hidden: true });
  const scale = h("div", { class: "heat-scale", hidden: true }, h("span", {}, "fewer"), h("i"), h("span", {}, "more completions"));
  const undo = h("button", { id: "cfg-undo", title: "Undo (Ctrl+Z)", onclick: () => history(-1) }, "Undo");
  const redo = h("button", { id: "cfg-redo", title: "Redo (Ctrl+Y)", onclick: () => history(1) }, "Redo");
  const blockMode = h("button", {
    id: "cfg-block", "aria-pressed": "false", title: "While pressed, a click or tap blocks or unblocks a square (Shift-click does it any time)",
    onclick: () => {
      state.blocking = !state.blocking;
      blockMode.setAttribute("aria-pressed", String(state.blocking));
    },
  }, "Block squares");
  const instanceFile = h("input", { id: "cfg-instance", type: "file", accept: ".param,.json,.txt,text/plain,application/json" });
  const diagonals = h("input", { id: "cfg-diagonals", type: "number", min: 0, inputmode: "numeric", placeholder: "all" });
  let board = null;

  const element = h("section", { id: "configure", class: "view", hidden: true },
    h("div", { class: "controls" },
      h("label", {}, "N ", nInput),
      undo, redo,
      h("button", { id: "cfg-reset", onclick: () => (state.queens.length || state.blocked.length) && commit({ queens: [], blocked: [] }) }, "Reset"),
      blockMode,
      h("label", {}, heat, " heat map of completions"),
      h("button", { id: "cfg-solve", class: "primary", onclick: solveThis, title: "Watch a solver complete this position, the queens locked" }, "Solve this position"),
      h("details", { id: "cfg-instance-box", class: "instance" },
        h("summary", {}, "Open an instance"),
        h("p", { class: "note" }, "An n-Queens Completion instance: CSPLib 079 (excluded diagonals, or queens placed) or 080 (blocked squares), or a JSON problem."),
        h("label", {}, "File ", instanceFile),
        h("label", {}, "first ", diagonals, " diagonals"))),
    h("div", { class: "layout" },
      boardBox,
      h("aside", {},
        indicator, summary, reason, error, heatNote,
        h("ul", { class: "legend" }, LEGEND.map(([cls, text]) => h("li", {}, h("span", { class: `swatch ${cls}` }), text))),
        scale)));

  nInput.addEventListener("change", () => {
    const n = checked(error, () => checkWhole(nInput.value, 1, limits.configure_max_n, "N"));
    if (n === undefined) return;
    state.linkError = "";
    setBoard(n, []);
    analyse();
  });
  heat.addEventListener("change", paint);
  instanceFile.addEventListener("change", openInstance);
  diagonals.addEventListener("change", openInstance);

  /** Reads the chosen instance file through the server and opens its position. */
  async function openInstance() {
    const file = instanceFile.files && instanceFile.files[0];
    if (!file) return;
    try {
      const count = diagonals.value.trim() === "" ? undefined : checkWhole(diagonals.value, 0, 1e6, "The number of diagonals");
      const opened = await api.instance(await file.text(), count);
      if (opened.n > limits.configure_max_n) throw new Error(`The instance is ${opened.n}×${opened.n}; this server configures boards up to ${limits.configure_max_n}.`);
      say(error, "");
      state.linkError = "";
      setBoard(opened.n, opened.queens, opened.blocked);
      analyse();
    } catch (e) {
      say(error, `${file.name}: ${e.message}`);
    }
  }

  function setBoard(n, queens, blocked = []) {
    state.n = n;
    state.queens = queens;
    state.blocked = blocked;
    state.past = [];
    state.future = [];
    state.pinned = null;
    state.analysis = null;
    nInput.value = n;
    board = new Board(boardBox, { n, onActivate: activate, onInspect: inspect, label: `${n}×${n} configurator board` });
  }

  function save() {
    const names = (squares) => squares.map((sq) => squareName(sq, state.n)).join(",");
    replaceSettings({ n: state.n, q: names(state.queens), b: names(state.blocked) });
  }

  /** The position now, as undo keeps it. */
  function position() {
    return { queens: state.queens, blocked: state.blocked };
  }

  function commit(next) {
    state.linkError = "";
    state.past.push(position());
    state.future = [];
    ({ queens: state.queens, blocked: state.blocked } = next);
    state.pinned = null;
    analyse();
  }

  function history(direction) {
    const from = direction < 0 ? state.past : state.future;
    const to = direction < 0 ? state.future : state.past;
    if (!from.length) return;
    to.push(position());
    ({ queens: state.queens, blocked: state.blocked } = from.pop());
    state.pinned = null;
    analyse();
  }

  async function analyse() {
    save();
    if (state.request) state.request.abort();
    const request = new AbortController();
    state.request = request;
    indicator.textContent = "analysing…";
    indicator.className = "indicator maybe";
    try {
      const analysis = await api.configure(state.n, state.queens, state.blocked, request.signal);
      if (request !== state.request) return;
      state.analysis = analysis;
      say(error, state.linkError);
      paint();
    } catch (e) {
      if (e.name === "AbortError") return;
      say(error, e.message);
      state.analysis = null;
      indicator.textContent = "no analysis";
      indicator.className = "indicator no";
      summary.textContent = `${state.queens.length} placed`;
      undo.disabled = state.past.length === 0;
      redo.disabled = state.future.length === 0;
      // The position is drawn as it stands: queens that attack each other in red, joined.
      const pairs = attackingPairs(state.queens);
      const clashing = new Set(pairs.flatMap(([a, b]) => [key(a), key(b)]));
      board.render({
        queens: state.queens.map((q) => ({ ...q, kind: clashing.has(key(q)) ? "clash" : "" })),
        cellClass: blockedClass(),
        pairs: pairs.map(([a, b]) => [a, b]),
      });
    }
  }

  /** Square colours from the position alone: its blocked squares (before an analysis arrives). */
  function blockedClass() {
    const blocked = new Set(state.blocked.map(key));
    return (row, col) => (blocked.has(`${row},${col}`) ? "blocked" : "");
  }

  function statusOf(square) {
    const a = state.analysis;
    return a && a.n === state.n ? cellAt(a, square.row * state.n + square.col).status : "open";
  }

  /** Blocks or unblocks `square`; a square holding a queen is not blocked. */
  function toggleBlock(square) {
    if (state.queens.some((q) => key(q) === key(square))) {
      state.pinned = square;
      reason.textContent = `${squareName(square, state.n)} holds a queen: remove it before blocking the square.`;
      return;
    }
    commit({ queens: state.queens, blocked: toggled(state.blocked, square) });
  }

  function activate(square, pointer, { shift = false } = {}) {
    if (state.blocking || shift) {
      toggleBlock(square);
      return;
    }
    const status = statusOf(square);
    const same = state.pinned && key(state.pinned) === key(square);
    if (status === "queen") {
      commit({ queens: state.queens.filter((q) => key(q) !== key(square)), blocked: state.blocked });
    } else if (status === "blocked") {
      explain(square, true);
    } else if (status === "forced") {
      explain(square, true);
    } else if ((pointer === "touch" || pointer === "pen" || status !== "open") && !same) {
      // First tap (or first click on a blocked square): explain, do not place.
      explain(square, true);
    } else {
      commit({ queens: [...state.queens, square], blocked: state.blocked });
    }
  }

  function inspect(square) {
    state.inspected = square;
    if (square) explain(square, false);
    else if (state.pinned) explain(state.pinned, true);
    else paintMarks(null);
  }

  function explain(square, pin) {
    const a = state.analysis;
    if (!a || a.n !== state.n) return;
    if (pin) state.pinned = square;
    const cell = cellAt(a, square.row * state.n + square.col);
    const name = squareName(square, state.n);
    const plural = (k) => (k === 1 ? "" : "s");
    let text = `${name} is ${cell.status}`;
    if (cell.completions !== undefined && cell.status !== "blocked") text += `, in ${cell.completions.toLocaleString()} completion${plural(cell.completions)}`;
    if (cell.status === "forced") text += ": every completion has a queen here.";
    else if (cell.status === "blocked") text += ": no queen may stand here. Shift-click (or Block squares) unblocks it.";
    else if (cell.reason) text = `${name} is ${cell.status}: ${cell.reason.text}.`;
    else if ((cell.status === "attacked" || cell.status === "dead") && !a.all_reasons) {
      const index = square.row * a.n + square.col;
      const failure = a.failed?.get(index);
      if (failure === undefined) {
        text += " (asking the server why…).";
        askWhy(a, square);
      } else {
        // Told once (the failure is a sentence of its own); the next time the square is
        // explained, it is asked again.
        a.failed.delete(index);
        text += `; the server could not give the reason. ${failure} Choose the square again to ask once more.`;
      }
    } else text += ".";
    if (pin && cell.status !== "queen" && cell.status !== "forced" && cell.status !== "blocked") {
      text += cell.status === "open" ? " Tap again to place a queen." : " Click again to place a queen anyway.";
    }
    reason.textContent = text;
    paintMarks(square, cell.reason);
  }

  /** Asks the server for the reason of `square` in analysis `a`, and shows it (or why the server
   * could not give it) if the square is still the one explained. */
  async function askWhy(a, square) {
    const index = square.row * a.n + square.col;
    a.asked = a.asked || new Set();
    if (a.asked.has(index)) return;
    a.asked.add(index);
    try {
      const more = await api.configure(a.n, a.queens, a.blocked || [], undefined, [square]);
      Object.assign(a.reasons, more.reasons);
    } catch (e) {
      a.asked.delete(index);
      a.failed = a.failed || new Map();
      a.failed.set(index, e.message);
    }
    if (state.analysis !== a) return;
    const pinned = state.pinned && key(state.pinned) === key(square);
    const inspected = state.inspected && key(state.inspected) === key(square);
    if (pinned || (inspected && !state.pinned)) explain(square, pinned);
  }

  function paintMarks(square, why) {
    const marks = { "hl-self": [], "hl-line": [], "hl-source": [], "hl-chain": [] };
    if (square) {
      marks["hl-self"].push(square);
      if (why) {
        switch (why.kind) {
          case "attacked":
            marks["hl-line"].push(...between(why.by, square));
            marks["hl-source"].push(why.by);
            break;
          case "no_free_square":
          case "empties_line":
            marks["hl-line"].push(...lineSquares(why.line, state.n));
            marks["hl-source"].push(...(why.blocked || []));
            break;
          case "forced_chain":
            marks["hl-line"].push(...lineSquares(why.line, state.n));
            marks["hl-chain"].push(...why.chain);
            marks["hl-source"].push(...(why.blocked || []));
            break;
          case "case_split":
            marks["hl-line"].push(...lineSquares(why.line, state.n));
            marks["hl-chain"].push(...why.chain, ...caseSquares(why.cases));
            break;
          case "crowded":
            for (const line of why.lines) marks["hl-line"].push(...lineSquares(line, state.n));
            marks["hl-chain"].push(...why.chain);
            break;
          default:
            marks["hl-source"].push(...(why.queens || []), ...(why.blocked || []));
        }
      }
    }
    draw(marks);
  }

  function draw(marks) {
    const a = state.analysis;
    if (!a || a.n !== state.n) {
      board.render({ queens: state.queens.map((q) => ({ ...q, kind: "" })), cellClass: blockedClass(), marks });
      return;
    }
    const exact = a.completions !== null && a.completions !== undefined;
    const showHeat = heat.checked && exact && a.completions > 0;
    const queens = [...a.queens.map((q) => ({ ...q, kind: "" })), ...a.forced.map((q) => ({ ...q, kind: "forced" }))];
    board.render({
      queens,
      cellClass: (row, col) => {
        const status = cellAt(a, row * state.n + col).status;
        return showHeat && status === "open" ? "open heat" : status;
      },
      heat: showHeat ? (row, col) => {
        const cell = cellAt(a, row * state.n + col);
        return cell.status === "open" ? heatColour(0.1 + (0.9 * cell.completions) / a.completions) : null;
      } : null,
      marks,
    });
  }

  function paint() {
    const a = state.analysis;
    if (!a || a.n !== state.n) return;
    const exact = a.completions !== null && a.completions !== undefined;
    heat.disabled = !exact;
    heatNote.hidden = exact;
    heatNote.textContent = exact ? "" : "The heat map needs exact completion counts; this position has too many completions to count within the server's budget.";
    scale.hidden = !(heat.checked && exact);
    if (a.solvable === true) {
      indicator.textContent = "still solvable";
      indicator.className = "indicator yes";
    } else if (a.solvable === false) {
      indicator.textContent = "no solution left";
      indicator.className = "indicator no";
    } else {
      indicator.textContent = "undecided within the budget";
      indicator.className = "indicator maybe";
    }
    const count = (status) => countStatus(a, status);
    const parts = [];
    if (exact) parts.push(`${a.completions.toLocaleString()} completion${a.completions === 1 ? "" : "s"}`);
    parts.push(`${a.queens.length} placed`, `${a.forced.length} forced`, `${count("open")} open`, `${count("dead")} dead`);
    if (count("blocked")) parts.push(`${count("blocked")} blocked`);
    if (count("unknown")) parts.push(`${count("unknown")} unknown`);
    summary.textContent = parts.join(" · ");
    undo.disabled = state.past.length === 0;
    redo.disabled = state.future.length === 0;
    if (state.pinned) explain(state.pinned, true);
    else if (state.inspected) explain(state.inspected, false);
    else paintMarks(null);
  }

  function solveThis() {
    const names = (squares) => squares.map((q) => squareName(q, state.n)).join(",");
    const fix = names([...state.queens, ...(state.analysis && state.analysis.n === state.n ? state.analysis.forced : [])]);
    // A position is solved by the server's choice for positions (the completion search, which
    // ends solved or proved unsolvable on every board the page configures).
    const position = fix || state.blocked.length;
    const solver = position && limits.position_solver ? limits.position_solver
      : state.n <= defaults.small_board_up_to ? defaults.watch_solver : defaults.large_board_solver;
    navigate("watch", { solver, n: Math.min(state.n, limits.solve_max_n), seed: defaults.seed, fix, block: names(state.blocked) });
  }

  document.addEventListener("keydown", (event) => {
    if (element.hidden || !(event.ctrlKey || event.metaKey)) return;
    if (event.key === "z") history(-1);
    if (event.key === "y") history(1);
  });

  return {
    element,
    /** Shows the view with the settings of its URL (`n`, `q`, `b`). */
    show(settings) {
      let n = 8;
      let queens = [];
      let blocked = [];
      try {
        if (settings.n) n = checkWhole(settings.n, 1, limits.configure_max_n, "N");
        queens = parseSquares(settings.q || "", n);
        blocked = parseSquares(settings.b || "", n);
        state.linkError = "";
      } catch (e) {
        state.linkError = e.message;
      }
      say(error, state.linkError);
      const same = (a, b) => a.map(key).join() === b.map(key).join();
      if (!board || n !== state.n || !same(queens, state.queens) || !same(blocked, state.blocked)) {
        setBoard(n, queens, blocked);
        analyse();
      }
    },
  };
}

/** The squares a case split tries, nested splits' cases included. */
function caseSquares(cases) {
  return cases.flatMap((c) => [c.square, ...(c.then && c.then.cases ? caseSquares(c.then.cases) : [])]);
}
