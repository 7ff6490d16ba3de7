// A board on the page: squares with coordinates (files along the bottom, ranks up the side),
// queens in four colours (ordinary, locked, attacking, forced), and highlights — a queen's lines,
// the pairs that attack each other, the row a tree search works on and the square it tries, the
// last move. Up to 64×64 it is a grid of elements; beyond, a compact canvas. Both are walked by
// the keyboard (arrows, Home/End, Enter) and take clicks.
//
// One geometry rules everything drawn: the board is rows × columns equal square cells inside a
// 2-pixel frame.
// The grid's rows and columns are fixed fractions, so a queen's glyph cannot stretch its row;
// the rank and file labels are placed at the centres of the same fractions, and only as many as
// fit the board's size on screen (every one, or every 2nd, 5th, 10th …); attack lines are drawn
// in an overlay whose units are squares.

import { h, s } from "./dom.js";
import { fileLabel, key, squareName } from "./squares.js";
import { ZOOM_FROM, zoomable } from "./zoom.js";

/** The largest board drawn square by square; larger ones are a compact canvas. */
export const GRID_MAX = 64;

/**
 * The least width on screen (CSS pixels) a queen is drawn across on a canvas: where squares are
 * smaller (200×200 on a phone: under 2 pixels), each queen is a disc this wide on a light rim,
 * so that a lone queen can be found before zooming.
 */
export const QUEEN_LEAST_PX = 4;

/**
 * The least square (CSS pixels on screen) that shows its own marks: on a grid's smaller squares
 * (64×64 on a desktop, about 10 pixels; 28×28 and up on a phone), where a queen's glyph is a
 * pale speck of thin strokes, each queen is a disc, as on a canvas, and a reason's outlines are
 * rings drawn over the board.
 */
export const SMALL_SQUARE_PX = 12;

/** Label spacings tried in turn, in squares. */
const LABEL_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];

/**
 * The spacing of the labels on a side of `n` squares, each `squarePx` pixels, for labels
 * `labelPx` pixels tall and `widest` characters wide: the smallest that keeps them apart.
 */
export function labelStep(n, squarePx, labelPx, widest) {
  const needed = Math.max(labelPx * 1.2, widest * labelPx * 0.62 + 4);
  return LABEL_STEPS.find((step) => step * squarePx >= needed) ?? n;
}

/** Whether the label of 0-based line `index` is printed at spacing `step`. */
export function labelled(index, step) {
  return step === 1 || (index + 1) % step === 0 || (index === 0 && step >= 5);
}

/** The words for a square's status, as a screen reader says them after the square's name. */
const STATUS_WORDS = {
  open: "open",
  attacked: "attacked",
  dead: "dead: in no completion",
  forced: "forced: in every completion",
  unknown: "not decided",
  blocked: "blocked: no queen may stand here",
  "no-solution": "no solution with a queen locked here",
};

const QUEEN_WORDS = { "": "queen", locked: "locked queen", clash: "queen", forced: "forced queen" };

/** The queens by line, to say which attack a square. */
function lineIndex(queens) {
  const lines = new Map();
  const add = (k, q) => (lines.has(k) ? lines.get(k).push(q) : lines.set(k, [q]));
  for (const q of queens) {
    add(`r${q.row}`, q);
    add(`c${q.col}`, q);
    add(`d${q.row - q.col}`, q);
    add(`a${q.row + q.col}`, q);
  }
  return (row, col) => {
    const out = [];
    for (const k of [`r${row}`, `c${col}`, `d${row - col}`, `a${row + col}`]) {
      for (const q of lines.get(k) || []) if (q.row !== row || q.col !== col) out.push(q);
    }
    return out;
  };
}

/** The marks a reason draws (the square, the queen it names, the chain it places): outlines. */
const OUTLINED = ["hl-self", "hl-source", "hl-chain"];

/** The smallest ring around an outlined square, in pixels, so that it is seen on any board. */
const RING_PX = 7;

/** A number written in a square, as a share of the square (0.32: 12 px on a 38 px square). */
const NUMBER_SIZE = 0.32;

/** The smallest square, in pixels, whose numbers are written: smaller, they would not read. */
const NUMBER_SQUARE_PX = 12 / NUMBER_SIZE;

/**
 * A move's arrow in square units: from near the old square's centre to near the new one's,
 * with a head, both ends short of the centres so that the queens stay readable.
 */
function arrow(from, to, n) {
  const [x1, y1, x2, y2] = [from.col + 0.5, n - from.row - 0.5, to.col + 0.5, n - to.row - 0.5];
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const gap = Math.min(0.3, length / 4);
  return arrowShape("arrow", x1, y1, x2, y2, gap, 0.3);
}

/**
 * The force on a queen (`{queen, col, row}`) as an arrow from its square's centre along the
 * force, longer for a stronger force: from 0.35 of a square to 0.9.
 */
function forceArrow({ queen, col, row }, n) {
  const strength = Math.hypot(col, row);
  if (!(strength > 0)) return null;
  const length = Math.min(0.9, 0.35 + 0.2 * Math.log2(1 + strength));
  const [x1, y1] = [queen.col + 0.5, n - queen.row - 0.5];
  return arrowShape("force", x1, y1, x1 + (length * col) / strength, y1 - (length * row) / strength, 0, 0.2);
}

/** An arrow of class `cls` from (x1, y1) to (x2, y2), both ends `gap` short, its head `head` long. */
function arrowShape(cls, x1, y1, x2, y2, gap, head) {
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [dx, dy] = [(x2 - x1) / length, (y2 - y1) / length];
  const tip = [x2 - gap * dx, y2 - gap * dy];
  const base = [tip[0] - head * dx, tip[1] - head * dy];
  const side = [-dy * head / 2, dx * head / 2];
  return s("g", { class: cls },
    s("line", { x1: x1 + gap * dx, y1: y1 + gap * dy, x2: base[0], y2: base[1] }),
    s("polygon", { points: [tip, [base[0] + side[0], base[1] + side[1]], [base[0] - side[0], base[1] - side[1]]].map((p) => p.join(",")).join(" ") }));
}

export class Board {
  /**
   * `onActivate(square, pointerType, { shift })` is called for a click, a tap or Enter on a
   * square (`shift`: the Shift key was held); `onInspect(square|null)` when the pointer or the
   * focus rests on a square.
   */
  constructor(container, { n, rows = n, cols = n, onActivate, onInspect, label }) {
    this.rows = rows;
    this.cols = cols;
    this.onActivate = onActivate;
    this.onInspect = onInspect;
    this.container = container;
    const longer = Math.max(rows, cols);
    this.compact = longer > GRID_MAX;
    this.classes = [];
    this.names = [];
    this.focus = { row: rows - 1, col: 0 };
    this.step = 0;
    container.boardObserver?.disconnect();
    container.replaceChildren();
    container.classList.toggle("compact", this.compact);
    container.dataset.n = rows === cols ? rows : `${rows}x${cols}`;
    container.classList.toggle("dense", longer > 32);
    container.style.setProperty("--queen-least", `${QUEEN_LEAST_PX}px`);
    this.ranks = h("div", { class: "ranks", "aria-hidden": "true" });
    this.files = h("div", { class: "files", "aria-hidden": "true" });
    this.ranks.style.width = `${String(rows).length * 0.62 + 0.5}em`;
    this.overlay = s("svg", { class: "overlay", viewBox: `0 0 ${cols} ${rows}`, preserveAspectRatio: "none", "aria-hidden": "true" });
    this.surface = this.compact ? this.makeCanvas(label) : this.makeGrid(label);
    this.surface.append(this.overlay);
    this.announcer = h("p", { class: "visually-hidden", "aria-live": "polite" });
    const frame = h("div", { class: "board-frame" }, this.ranks, this.surface, h("span"), this.files);
    // Room for half of the top rank's label and half of the last file's, centred on the edge squares.
    frame.style.paddingRight = `${Math.max(String(rows).length, fileLabel(cols - 1, cols).length) * 0.31 * 0.75}rem`;
    if (longer >= ZOOM_FROM) {
      // Squares too small to read on a phone: the board zooms and pans (zoom.js).
      const { view, bar } = zoomable(frame, cols, label || "the board");
      container.append(view, bar, this.announcer);
    } else {
      container.append(frame, this.announcer);
    }
    container.style.setProperty("--n", cols);
    container.style.setProperty("--aspect", cols / rows);
    this.surface.style.aspectRatio = `${cols} / ${rows}`;
    // A new size on screen: labels placed again, and the last model drawn again (its rings and
    // numbers depend on the squares' size, and a hidden board has none).
    container.boardObserver = new ResizeObserver(() => {
      this.fitLabels();
      if (this.lastModel) this.render(this.lastModel);
    });
    container.boardObserver.observe(this.surface);
  }

  /** Chooses the label spacing for the board's size on screen and places the labels. */
  fitLabels() {
    const inner = this.surface.clientWidth;
    if (!inner) return;
    const labelPx = parseFloat(getComputedStyle(this.ranks).fontSize) || 12;
    const { rows, cols } = this;
    const widest = Math.max(String(rows).length, fileLabel(cols - 1, cols).length);
    const step = labelStep(Math.max(rows, cols), inner / cols, labelPx, widest);
    if (step === this.step) return;
    this.step = step;
    const at = (i, count) => `calc(var(--edge) + (100% - 2 * var(--edge)) * ${(i + 0.5) / count})`;
    const ranks = [];
    const files = [];
    for (let i = 0; i < rows; i++) {
      if (labelled(i, step)) ranks.push(h("span", { style: { top: at(rows - 1 - i, rows) }, dataset: { rank: i + 1 } }, i + 1));
    }
    for (let i = 0; i < cols; i++) {
      if (labelled(i, step)) files.push(h("span", { style: { left: at(i, cols) }, dataset: { file: i + 1 } }, fileLabel(i, cols)));
    }
    this.ranks.replaceChildren(...ranks);
    this.files.replaceChildren(...files);
  }

  makeGrid(label) {
    const { rows, cols } = this;
    const grid = h("div", { class: "grid", role: "grid", "aria-label": label });
    grid.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 1fr))`;
    grid.style.gridTemplateRows = `repeat(${rows}, minmax(0, 1fr))`;
    this.cells = Array.from({ length: rows }, () => new Array(cols));
    for (let row = rows - 1; row >= 0; row--) {
      const line = h("div", { class: "rank", role: "row" });
      for (let col = 0; col < cols; col++) {
        const name = squareName({ row, col }, cols);
        const cell = h("div", {
          class: "cell",
          role: "gridcell",
          tabindex: row === rows - 1 && col === 0 ? 0 : -1,
          "aria-label": name,
          dataset: { row, col, square: name },
        });
        this.cells[row][col] = cell;
        line.append(cell);
      }
      grid.append(line);
    }
    const wrap = h("div", { class: "surface" }, grid);
    const squareOf = (event) => {
      const cell = event.target.closest(".cell");
      return cell ? { row: Number(cell.dataset.row), col: Number(cell.dataset.col) } : null;
    };
    grid.addEventListener("click", (event) => {
      const square = squareOf(event);
      if (square && this.onActivate) this.onActivate(square, event.pointerType || "mouse", { shift: event.shiftKey });
    });
    grid.addEventListener("mouseover", (event) => {
      const square = squareOf(event);
      if (square && this.onInspect) this.onInspect(square);
    });
    grid.addEventListener("mouseleave", () => this.onInspect && this.onInspect(null));
    grid.addEventListener("focusin", (event) => {
      const square = squareOf(event);
      if (square) {
        this.focus = square;
        if (this.onInspect) this.onInspect(square);
      }
    });
    grid.addEventListener("keydown", (event) => this.key(event));
    return wrap;
  }

  makeCanvas(label) {
    // Whole pixels per square, at least 800 pixels along the longer side.
    const square = Math.ceil(800 / Math.max(this.rows, this.cols));
    const canvas = h("canvas", {
      class: "grid",
      role: "application",
      "aria-roledescription": "board",
      "aria-label": `${label}: arrow keys move between squares, Enter chooses one`,
      tabindex: 0,
      width: this.cols * square,
      height: this.rows * square,
    });
    this.canvas = canvas;
    this.ring = s("rect", { class: "focus-ring", width: 1, height: 1 });
    canvas.addEventListener("click", (event) => {
      const rect = canvas.getBoundingClientRect();
      const col = Math.floor(((event.clientX - rect.left) / rect.width) * this.cols);
      const row = this.rows - 1 - Math.floor(((event.clientY - rect.top) / rect.height) * this.rows);
      if (row >= 0 && col >= 0 && row < this.rows && col < this.cols) {
        this.moveFocus({ row, col });
        if (this.onActivate) this.onActivate({ row, col }, event.pointerType || "mouse", { shift: event.shiftKey });
      }
    });
    canvas.addEventListener("focus", () => this.moveFocus(this.focus));
    canvas.addEventListener("keydown", (event) => this.key(event));
    return h("div", { class: "surface" }, canvas);
  }

  key(event) {
    const { row, col } = this.focus;
    const page = Math.max(1, Math.round(Math.max(this.rows, this.cols) / 8));
    const targets = {
      ArrowUp: [row + 1, col],
      ArrowDown: [row - 1, col],
      ArrowLeft: [row, col - 1],
      ArrowRight: [row, col + 1],
      PageUp: [row + page, col],
      PageDown: [row - page, col],
      Home: [row, 0],
      End: [row, this.cols - 1],
    };
    if (targets[event.key]) {
      event.preventDefault();
      const [r, c] = targets[event.key];
      this.moveFocus({ row: Math.max(0, Math.min(this.rows - 1, r)), col: Math.max(0, Math.min(this.cols - 1, c)) });
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (this.onActivate) this.onActivate(this.focus, "keyboard", { shift: event.shiftKey });
    }
  }

  /** Puts the keyboard's focus on `square`: the cell itself, or the ring on a canvas. */
  moveFocus(square) {
    if (this.cells) {
      this.cells[this.focus.row][this.focus.col].tabIndex = -1;
      const cell = this.cells[square.row][square.col];
      cell.tabIndex = 0;
      cell.focus();
      return;
    }
    this.focus = square;
    this.ring.setAttribute("x", square.col);
    this.ring.setAttribute("y", this.rows - 1 - square.row);
    if (!this.ring.isConnected) this.overlay.append(this.ring);
    this.announcer.textContent = this.nameOf ? this.nameOf(square.row, square.col) : squareName(square, this.cols);
    if (this.onInspect) this.onInspect(square);
  }

  /** The element of a square (grid boards only). */
  cell(square) {
    return this.cells ? this.cells[square.row][square.col] : null;
  }

  /**
   * Draws a model: `queens` ([{row, col, kind}] with kind "", "locked", "clash" or "forced"),
   * `cellClass(row, col)` for square colours, and `marks` (class name → squares), `pairs`
   * ([a, b] to join with a line), `arrows` ([from, to] of the moves to draw), `forces`
   * ([{queen, col, row}] pushes to draw from their queens' squares), `numbers`
   * ([{row, col, text}] written in a square's corner) and `tries` ([queen, square] of a
   * rejected try and a queen that attacks it, joined by a dashed line).
   */
  render(model) {
    this.lastModel = model;
    const { queens = [], cellClass = () => "", marks = {}, pairs = [], tries = [], arrows = [], forces = [], numbers = [], heat = null } = model;
    this.describe(queens, cellClass);
    if (this.compact) this.paint({ queens, cellClass, marks, heat });
    else this.paintCells({ queens, cellClass, marks, heat });
    const n = this.rows;
    const squarePx = this.surface.clientWidth / this.cols;
    const small = squarePx > 0 && squarePx < SMALL_SQUARE_PX;
    this.container.classList.toggle("specks", !this.compact && small);
    // Where a square is too small for its outline (a canvas, or a phone's 64×64), a reason's
    // marks are rings at least RING_PX across, drawn over the board.
    const rings = this.compact || small || squarePx === 0
      ? OUTLINED.flatMap((cls) => (marks[cls] || []).map((sq) => s("circle", {
        // A board not laid out yet (a hidden view) has no size on screen: a ring of its square.
        class: `ring ${cls}`, cx: sq.col + 0.5, cy: n - sq.row - 0.5, r: squarePx > 0 ? Math.max(0.6, RING_PX / squarePx) : 0.6,
      })))
      : [];
    const line = ([a, b], kind) => s("line", { x1: a.col + 0.5, y1: n - a.row - 0.5, x2: b.col + 0.5, y2: n - b.row - 0.5, class: kind });
    // The forces over the moves they caused, which run along them and would hide them.
    this.overlay.replaceChildren(...pairs.map((pair) => line(pair, "pair")), ...tries.map((pair) => line(pair, "try")), ...arrows.map(([from, to]) => arrow(from, to, n)), ...forces.map((force) => forceArrow(force, n)).filter(Boolean),
    ...rings,
    ...(squarePx >= NUMBER_SQUARE_PX ? numbers : [])
      .map(({ row, col, text }) => s("text", { class: "number", x: col + 0.93, y: n - row - 0.1, "font-size": NUMBER_SIZE }, text)));
    if (this.compact && document.activeElement === this.canvas) this.overlay.append(this.ring);
  }

  /**
   * Each square's spoken name: "d1, queen, attacked by e2", "c3, open". A grid board names every
   * cell (changed only where it differs); a canvas names the square the keyboard is on.
   */
  describe(queens, cellClass) {
    const { rows, cols } = this;
    const attackers = lineIndex(queens);
    const queenAt = new Map(queens.map((q) => [key(q), q]));
    const listed = (squares) => squares.map((q) => squareName(q, cols)).join(", ");
    this.nameOf = (row, col) => {
      const parts = [squareName({ row, col }, cols)];
      const queen = queenAt.get(`${row},${col}`);
      const status = cellClass(row, col).split(" ").find((c) => STATUS_WORDS[c]);
      if (queen) {
        parts.push(QUEEN_WORDS[queen.kind || ""] || "queen");
        const by = attackers(row, col);
        if (by.length) parts.push(`attacked by ${listed(by)}`);
      } else if (status === "attacked") {
        parts.push(`attacked by ${listed(attackers(row, col))}`);
      } else if (status) {
        parts.push(STATUS_WORDS[status]);
      }
      return parts.join(", ");
    };
    if (!this.cells) return;
    for (let row = 0; row < rows; row++) {
      for (let col = 0; col < cols; col++) {
        const name = this.nameOf(row, col);
        const index = row * cols + col;
        if (this.names[index] !== name) {
          this.names[index] = name;
          this.cells[row][col].setAttribute("aria-label", name);
        }
      }
    }
  }

  /** The grid view: one class list and background per square, changed only where they differ. */
  paintCells({ queens, cellClass, marks, heat }) {
    const { rows, cols } = this;
    const extra = new Map();
    for (const [cls, squares] of Object.entries(marks)) {
      for (const sq of squares) {
        const k = key(sq);
        extra.set(k, `${extra.get(k) || ""} ${cls}`);
      }
    }
    for (const q of queens) {
      const k = key(q);
      extra.set(k, `${extra.get(k) || ""} q${q.kind ? ` q-${q.kind}` : ""}`);
    }
    for (let row = 0; row < rows; row++) {
      for (let col = 0; col < cols; col++) {
        const k = `${row},${col}`;
        const cls = `cell ${(row + col) % 2 ? "light" : "dark"} ${cellClass(row, col)}${extra.get(k) || ""}`;
        if (this.classes[row * cols + col] !== cls) {
          this.classes[row * cols + col] = cls;
          this.cells[row][col].className = cls;
        }
        const background = heat ? heat(row, col) : null;
        if ((this.cells[row][col].style.background || null) !== background) {
          this.cells[row][col].style.background = background || "";
        }
      }
    }
  }

  /** The compact view: one canvas, squares as pixels. */
  paint({ queens, cellClass, marks, heat }) {
    const canvas = this.canvas;
    const { rows, cols } = this;
    const n = rows;
    const size = canvas.width / cols;
    const context = canvas.getContext("2d");
    const style = getComputedStyle(document.documentElement);
    const colour = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    const palette = {
      light: colour("--light", "#f4efe6"),
      dark: colour("--dark", "#d9cdb8"),
      open: colour("--open", "#cfe9d2"),
      attacked: colour("--attacked", "#b8c0cc"),
      dead: colour("--dead", "#7c4a3a"),
      forced: colour("--forced", "#f2c94c"),
      unknown: colour("--unknown", "#f6e58d"),
      blocked: colour("--blocked", "#30343b"),
    };
    for (let row = 0; row < rows; row++) {
      for (let col = 0; col < cols; col++) {
        const status = cellClass(row, col).split(" ").find((c) => palette[c]);
        const warm = heat ? heat(row, col) : null;
        context.fillStyle = warm || (status ? palette[status] : (row + col) % 2 ? palette.light : palette.dark);
        context.fillRect(col * size, (n - 1 - row) * size, size, size);
        if (status === "attacked" && size >= 6) {
          // The hatch that tells an attacked square from an open one without its hue.
          context.strokeStyle = "rgba(27, 34, 48, 0.35)";
          context.beginPath();
          context.moveTo(col * size, (n - row) * size);
          context.lineTo((col + 1) * size, (n - 1 - row) * size);
          context.stroke();
        }
      }
    }
    const markColour = { "hl-line": "rgba(255,138,0,0.35)", row: "rgba(47,111,219,0.18)", candidate: "rgba(47,111,219,0.6)", from: "rgba(0,0,0,0.25)", chosen: "rgba(17,17,17,0.55)" };
    for (const [cls, squares] of Object.entries(marks)) {
      if (!markColour[cls]) continue;
      context.fillStyle = markColour[cls];
      for (const sq of squares) context.fillRect(sq.col * size, (n - 1 - sq.row) * size, size, size);
    }
    const queenColour = {
      "": colour("--queen", "#1f4e9c"),
      locked: colour("--locked", "#111"),
      clash: colour("--clash", "#d1361e"),
      forced: colour("--forced-queen", "#8a6100"),
    };
    // Canvas pixels a CSS pixel on screen (0 while the board is hidden).
    const shown = canvas.getBoundingClientRect().width;
    const perCssPx = shown > 0 ? canvas.width / shown : 0;
    const least = QUEEN_LEAST_PX * perCssPx;
    if (least > size * 0.7) {
      // Squares too small to show a queen: discs on a rim, the rims first, so that no rim
      // covers a queen beside it; a disc on an edge square is moved in to show whole.
      const inside = (at, most) => Math.min(Math.max(at, least / 2), most - least / 2);
      const centre = (q) => [inside((q.col + 0.5) * size, canvas.width), inside((n - 0.5 - q.row) * size, canvas.height)];
      const disc = (q, radius) => {
        context.beginPath();
        context.arc(...centre(q), radius, 0, 2 * Math.PI);
        context.fill();
      };
      context.fillStyle = palette.light;
      for (const q of queens) disc(q, least / 2 + perCssPx);
      for (const q of queens) {
        context.fillStyle = queenColour[q.kind || ""];
        disc(q, least / 2);
      }
      return;
    }
    for (const q of queens) {
      context.fillStyle = queenColour[q.kind || ""];
      const pad = size > 4 ? size * 0.15 : 0;
      context.fillRect(q.col * size + pad, (n - 1 - q.row) * size + pad, size - 2 * pad, size - 2 * pad);
    }
  }
}
