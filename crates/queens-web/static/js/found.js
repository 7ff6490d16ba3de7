// Watch's solutions found: once a run has found more than one, a small board of each, in the
// order the search found them, to look over and compare; choosing one shows the step that found
// it. On a plain square board each is told against the ones before it: the first of its kind,
// or an earlier one turned or mirrored, so that the unique solutions (OEIS A002562) are seen
// among all of them (A000170).

import { h } from "./dom.js";
import { miniBoard } from "./population.js";

/**
 * The solutions drawn at first, and at each "Draw the next" after: past them the list says how
 * many more there are, and a button draws the next ones.
 */
export const FOUND_DRAWN_MAX = 240;

/** The widest a solution's small board is drawn, in pixels. */
const FOUND_BOARD_PX = 64;

/**
 * The eight symmetries of a square board, as maps of a square (`row` 0 the bottom rank, `col`
 * 0 the a-file) on a board of `rows`×`cols`, each with the words for it: the board turned as
 * seen on the screen, or mirrored. The four marked `square` take a board's rows to its columns,
 * so a board that is not square has the other four alone.
 */
export const SYMMETRIES = [
  { name: "itself", short: "", map: (r, c) => [r, c] },
  { name: "turned a quarter clockwise", short: "↻¼", square: true, map: (r, c, rows) => [rows - 1 - c, r] },
  { name: "turned half a turn", short: "↻½", map: (r, c, rows, cols) => [rows - 1 - r, cols - 1 - c] },
  { name: "turned a quarter anticlockwise", short: "↺¼", square: true, map: (r, c, rows, cols) => [c, cols - 1 - r] },
  { name: "mirrored left to right", short: "↔", map: (r, c, rows, cols) => [r, cols - 1 - c] },
  { name: "mirrored top to bottom", short: "↕", map: (r, c, rows) => [rows - 1 - r, c] },
  { name: "mirrored on the a1–h8 diagonal", short: "⤢", square: true, map: (r, c) => [c, r] },
  { name: "mirrored on the other diagonal", short: "⤡", square: true, map: (r, c, rows) => [rows - 1 - c, rows - 1 - r] },
];

/** A set of queens as one text, the same for the same squares in any order. */
function keyOf(squares) {
  return squares.map(([r, c]) => `${r},${c}`).sort().join(";");
}

/** `squares` ({row, col}) under `symmetry` on a `rows`×`cols` board, as a key. */
function imageKey(squares, symmetry, rows, cols) {
  return keyOf(squares.map((q) => symmetry.map(q.row, q.col, rows, cols)));
}

/**
 * The symmetries that keep a problem what it is, `itself` first: those of a `rows`×`cols`
 * board that take its `locked` queens and its `blocked` squares ({row, col} each) onto
 * themselves. Under them, and only them, a solution's image is a solution too.
 */
export function symmetriesKeeping({ rows, cols, locked = [], blocked = [] }) {
  const fixes = (symmetry, squares) => imageKey(squares, symmetry, rows, cols) === imageKey(squares, SYMMETRIES[0], rows, cols);
  return SYMMETRIES.filter((symmetry) => (rows === cols || !symmetry.square) && fixes(symmetry, locked) && fixes(symmetry, blocked));
}

/**
 * Each solution of a `rows`×`cols` board told against those before it under `symmetries`
 * (`itself` first; all eight by default, for a square board): `{ kind, of, how }`, where `kind`
 * numbers the solutions that are no symmetry of an earlier one (1, 2, …), `of` is the index of
 * the first solution of its kind (its own for the first), and `how` the symmetry that takes that
 * one to this one. A class holds the solutions one symmetry apart: on a plain square board the
 * classes of every solution are the unique solutions.
 */
export function symmetryClasses(solutions, rows, cols = rows, symmetries = SYMMETRIES) {
  const firstOf = new Map();
  const told = [];
  let kinds = 0;
  solutions.forEach((queens, index) => {
    const keys = symmetries.map((symmetry) => imageKey(queens, symmetry, rows, cols));
    const own = keys[0];
    const first = keys.map((key) => firstOf.get(key)).find((at) => at !== undefined);
    if (first === undefined) {
      kinds += 1;
      firstOf.set(own, { index, kind: kinds, queens });
      told.push({ kind: kinds, of: index, how: symmetries[0] });
      return;
    }
    // The symmetry that takes the first of the kind to this one.
    const how = symmetries.find((symmetry) => imageKey(first.queens, symmetry, rows, cols) === own);
    told.push({ kind: first.kind, of: first.index, how });
  });
  return told;
}

/**
 * What a list's kinds are told up to, for its note: "turning and mirroring the board (the
 * unique solutions)" with all eight symmetries, else the ones that keep the problem, named.
 */
function toldUpTo(symmetries, { rows, cols, locked = [], blocked = [] }) {
  if (symmetries.length === SYMMETRIES.length) return "turning and mirroring the board (the unique solutions)";
  const kept = [
    locked.length ? `the locked ${locked.length === 1 ? "queen" : "queens"}` : null,
    blocked.length ? `the blocked ${blocked.length === 1 ? "square" : "squares"}` : null,
  ].filter(Boolean);
  const board = rows === cols ? "the board" : `a ${rows}×${cols} board`;
  const keeping = kept.length ? ` that keep ${kept.join(" and ")} in place` : "";
  const names = symmetries.slice(1).map((s) => s.name);
  return `the turns and mirrors of ${board}${keeping} (${names.join("; ")})`;
}

/**
 * `problem` as its solutions are drawn and told: the symmetries that keep it, its locked queens
 * drawn as locked and its blocked squares marked on every small board, as the big board does.
 */
function drawnProblem(problem) {
  const locked = new Set((problem.locked ?? []).map((q) => `${q.row},${q.col}`));
  return {
    ...problem,
    symmetries: symmetriesKeeping(problem),
    toneOf: (q) => (locked.has(`${q.row},${q.col}`) ? "locked" : "ok"),
    marks: (problem.blocked ?? []).map((square) => ({ square, class: "blocked" })),
  };
}

/**
 * Watch's list of the solutions found: its `element`, and `show(recording, position, board)`
 * to draw it for the step the player shows. `onPick(k)` shows frame `k`.
 */
export function createFoundList({ onPick }) {
  const heading = h("h3", {}, "Solutions found");
  const note = h("p", { id: "w-found-note", class: "note" });
  const list = h("ol", { id: "w-found-list", class: "found-list" });
  const more = h("button", { id: "w-found-more", type: "button", hidden: true, onclick: () => drawNext() });
  // The first of each kind alone: on a plain square board, the unique solutions.
  const firstsBox = h("input", { id: "w-found-firsts", type: "checkbox", onchange: () => list.classList.toggle("firsts-only", firstsBox.checked) });
  const firstsText = h("span");
  const firsts = h("label", { class: "found-firsts", hidden: true }, firstsBox, firstsText);
  const element = h("section", { id: "w-found", class: "found", hidden: true, "aria-label": "the solutions found" }, heading, note, firsts, list, more);
  // What is drawn: the run, how many of its solutions (of at most `limit`), the one marked,
  // each one's kind, and how many were found, and whether the run had ended, when the note was
  // written; the step shown.
  const fresh = (recording) => ({ recording, drawn: 0, limit: FOUND_DRAWN_MAX, current: null, told: [], solutions: [], toldOf: 0, done: false, position: 0 });
  let shown = fresh(null);
  // The problem the run solved, with the symmetries that keep it (fixed with the run).
  let board = null;

  const drawMore = (recording) => {
    const upTo = Math.min(recording.found.length, shown.limit);
    for (let i = shown.drawn; i < upTo; i++) shown.solutions.push(recording.boardAt(recording.found[i]));
    shown.told = board.symmetries.length > 1 ? symmetryClasses(shown.solutions, board.rows, board.cols, board.symmetries) : [];
    for (let i = shown.drawn; i < upTo; i++) {
      const k = recording.found[i];
      const told = shown.told[i];
      const caption = !told ? "" : told.of === i ? `kind ${told.kind}` : `#${told.of + 1} ${told.how.short}`;
      const words = !told ? "" : told.of === i ? `, the first of kind ${told.kind}` : `: solution ${told.of + 1} ${told.how.name}`;
      const drawing = miniBoard(board, shown.solutions[i], { tone: board.toneOf, marks: board.marks, width: FOUND_BOARD_PX });
      drawing.removeAttribute("role");
      drawing.setAttribute("aria-hidden", "true");
      // Read aloud: the number shown, then the caption's symbols in words.
      list.append(h("li", { class: told && told.of !== i ? "repeat" : null },
        h("button", { type: "button", class: "found-item", dataset: { frame: String(k) }, title: `solution ${i + 1}${words}; found at step ${k.toLocaleString()}`, onclick: () => onPick(k) },
          drawing,
          h("span", { class: "found-number" }, `#${i + 1}`),
          caption ? h("span", { class: "found-kind", "aria-hidden": "true" }, caption) : null,
          h("span", { class: "visually-hidden" }, `${words}, found at step ${k.toLocaleString()}`))));
    }
    shown.drawn = upTo;
  };

  const describe = (recording) => {
    const found = recording.found.length;
    const kinds = shown.told.reduce((most, t) => Math.max(most, t.kind), 0);
    const all = found > shown.drawn ? ` The first ${shown.drawn.toLocaleString()} are drawn.` : "";
    more.hidden = found <= shown.drawn;
    firsts.hidden = kinds === 0;
    firstsText.textContent = `Only the first of each kind (${kinds.toLocaleString()} of ${shown.drawn.toLocaleString()} drawn)`;
    more.textContent = `Draw the next ${Math.min(FOUND_DRAWN_MAX, found - shown.drawn).toLocaleString()}`;
    const distinct = kinds && found <= shown.drawn
      ? ` ${kinds.toLocaleString()} of them ${kinds === 1 ? "is" : "are"} distinct up to ${toldUpTo(board.symmetries, board)}; each other is one of those turned or mirrored, as its caption says.`
      : "";
    note.textContent = `${found.toLocaleString()} solutions found${recording.done ? "" : " so far"}, in the order the search found them.${distinct}${all} Choose one to see the step that found it.`;
  };

  /** Marks the latest solution found up to frame `position`. */
  const markCurrent = (recording, position) => {
    const index = recording.solutionsAt(position) - 1;
    const current = index >= 0 && index < shown.drawn ? list.children[index].firstChild : null;
    if (current === shown.current) return;
    shown.current?.removeAttribute("aria-current");
    current?.setAttribute("aria-current", "true");
    shown.current = current;
  };

  /**
   * Draws the list for `recording` at `position`; `problem` is `{ rows, cols, locked, blocked }`,
   * what the run solved (read when the run is first shown).
   */
  const show = (recording, position, problem) => {
    if (!recording || recording !== shown.recording) {
      list.replaceChildren();
      shown = fresh(recording);
      if (recording) board = drawnProblem(problem);
    }
    shown.position = position;
    element.hidden = !recording || recording.found.length < 2;
    if (element.hidden) return;
    const drawing = Math.min(recording.found.length, shown.limit) > shown.drawn;
    if (drawing) drawMore(recording);
    // Told again as more are found (past those drawn too), as more are drawn, and when the run
    // ends.
    if (drawing || recording.found.length !== shown.toldOf || recording.done !== shown.done) {
      describe(recording);
      Object.assign(shown, { toldOf: recording.found.length, done: recording.done });
    }
    markCurrent(recording, position);
  };

  /** Draws the next solutions past those drawn, keeping the focus on the list's end. */
  const drawNext = () => {
    const first = shown.drawn;
    shown.limit = shown.drawn + FOUND_DRAWN_MAX;
    show(shown.recording, shown.position, board);
    list.children[first]?.querySelector("button")?.focus();
  };

  return { element, show };
}
