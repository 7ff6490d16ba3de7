// A board on the page: squares with coordinates (files along the bottom, ranks up the side),
// queens in three colours (ordinary, locked, attacking), and highlights — a queen's lines, the
// pairs that attack each other, the row a tree search works on and the square it tries, the
// last move. Up to 64×64 it is a grid of elements that the keyboard can walk (arrows, Enter);
// beyond, a compact canvas that still takes clicks.

import { h, s } from "./dom.js";
import { fileLabel, key, squareName } from "./squares.js";

/** The largest board drawn square by square; larger ones are a compact canvas. */
export const GRID_MAX = 64;

/** Which labels to print on a side of `n`: every one up to 26, then every 5th or 10th. */
export function labelStep(n) {
  if (n <= 26) return 1;
  if (n <= 64) return 5;
  return n <= 200 ? 10 : 50;
}

export class Board {
  /**
   * `onActivate(square, pointerType)` is called for a click, a tap or Enter on a square;
   * `onInspect(square|null)` when the pointer or the focus rests on a square.
   */
  constructor(container, { n, onActivate, onInspect, label }) {
    this.n = n;
    this.onActivate = onActivate;
    this.onInspect = onInspect;
    this.container = container;
    this.compact = n > GRID_MAX;
    this.classes = [];
    this.focus = { row: n - 1, col: 0 };
    container.replaceChildren();
    container.classList.toggle("compact", this.compact);
    const step = labelStep(n);
    const ranks = h("div", { class: "ranks", "aria-hidden": "true" });
    const files = h("div", { class: "files", "aria-hidden": "true" });
    for (let row = n - 1; row >= 0; row--) {
      ranks.append(h("span", {}, (row + 1) % step === 0 || step === 1 || row === 0 ? row + 1 : ""));
    }
    for (let col = 0; col < n; col++) {
      files.append(h("span", {}, (col + 1) % step === 0 || step === 1 || col === 0 ? fileLabel(col, n) : ""));
    }
    ranks.style.gridTemplateRows = `repeat(${n}, 1fr)`;
    files.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
    this.surface = this.compact ? this.makeCanvas(label) : this.makeGrid(label);
    container.append(h("div", { class: "board-frame" }, ranks, this.surface, h("span"), files));
    container.style.setProperty("--glyph", `${Math.max(0.35, Math.min(1.7, 24 / n))}rem`);
  }

  makeGrid(label) {
    const n = this.n;
    const grid = h("div", { class: "grid", role: "grid", "aria-label": label });
    grid.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
    this.cells = Array.from({ length: n }, () => new Array(n));
    for (let row = n - 1; row >= 0; row--) {
      for (let col = 0; col < n; col++) {
        const name = squareName({ row, col }, n);
        const cell = h("div", {
          class: "cell",
          role: "gridcell",
          tabindex: row === n - 1 && col === 0 ? 0 : -1,
          "aria-label": name,
          dataset: { row, col, square: name },
        });
        this.cells[row][col] = cell;
        grid.append(cell);
      }
    }
    this.overlay = s("svg", { class: "overlay", viewBox: `0 0 ${n} ${n}`, preserveAspectRatio: "none", "aria-hidden": "true" });
    const wrap = h("div", { class: "surface" }, grid, this.overlay);
    const squareOf = (event) => {
      const cell = event.target.closest(".cell");
      return cell ? { row: Number(cell.dataset.row), col: Number(cell.dataset.col) } : null;
    };
    grid.addEventListener("click", (event) => {
      const square = squareOf(event);
      if (square && this.onActivate) this.onActivate(square, event.pointerType || "mouse");
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

  key(event) {
    const moves = { ArrowUp: [1, 0], ArrowDown: [-1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const { row, col } = this.focus;
    if (moves[event.key]) {
      event.preventDefault();
      const [dr, dc] = moves[event.key];
      const next = {
        row: Math.max(0, Math.min(this.n - 1, row + dr)),
        col: Math.max(0, Math.min(this.n - 1, col + dc)),
      };
      this.cells[row][col].tabIndex = -1;
      const cell = this.cells[next.row][next.col];
      cell.tabIndex = 0;
      cell.focus();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (this.onActivate) this.onActivate({ row, col }, "keyboard");
    }
  }

  makeCanvas(label) {
    // Whole pixels per square, at least 800 pixels in all.
    const side = this.n * Math.ceil(800 / this.n);
    const canvas = h("canvas", { class: "grid", role: "img", "aria-label": label, width: side, height: side });
    canvas.addEventListener("click", (event) => {
      const rect = canvas.getBoundingClientRect();
      const col = Math.floor(((event.clientX - rect.left) / rect.width) * this.n);
      const row = this.n - 1 - Math.floor(((event.clientY - rect.top) / rect.height) * this.n);
      if (row >= 0 && col >= 0 && row < this.n && col < this.n && this.onActivate) {
        this.onActivate({ row, col }, event.pointerType || "mouse");
      }
    });
    return h("div", { class: "surface" }, canvas);
  }

  /** The element of a square (grid boards only). */
  cell(square) {
    return this.cells ? this.cells[square.row][square.col] : null;
  }

  /**
   * Draws a model: `queens` ([{row, col, kind}] with kind "", "locked" or "clash"),
   * `cellClass(row, col)` for square colours, and `marks` (class name → squares) and `pairs`
   * ([a, b] to join with a line).
   */
  render({ queens = [], cellClass = () => "", marks = {}, pairs = [], heat = null }) {
    if (this.compact) {
      this.paint({ queens, cellClass, marks, heat });
      return;
    }
    const n = this.n;
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
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < n; col++) {
        const k = `${row},${col}`;
        const cls = `cell ${(row + col) % 2 ? "light" : "dark"} ${cellClass(row, col)}${extra.get(k) || ""}`;
        if (this.classes[row * n + col] !== cls) {
          this.classes[row * n + col] = cls;
          this.cells[row][col].className = cls;
        }
        const background = heat ? heat(row, col) : null;
        if ((this.cells[row][col].style.background || null) !== background) {
          this.cells[row][col].style.background = background || "";
        }
      }
    }
    this.overlay.replaceChildren(...pairs.map(([a, b]) => s("line", {
      x1: a.col + 0.5, y1: n - a.row - 0.5, x2: b.col + 0.5, y2: n - b.row - 0.5, class: "pair",
    })));
  }

  /** The compact view: one canvas, squares as pixels. */
  paint({ queens, cellClass, marks, heat }) {
    const canvas = this.surface.firstChild;
    const n = this.n;
    const size = canvas.width / n;
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
    };
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < n; col++) {
        const status = cellClass(row, col).split(" ").find((c) => palette[c]);
        const warm = heat ? heat(row, col) : null;
        context.fillStyle = warm || (status ? palette[status] : (row + col) % 2 ? palette.light : palette.dark);
        context.fillRect(col * size, (n - 1 - row) * size, size, size);
      }
    }
    const markColour = { "hl-line": "rgba(255,138,0,0.35)", row: "rgba(47,111,219,0.18)", candidate: "rgba(47,111,219,0.6)", from: "rgba(0,0,0,0.25)" };
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
    for (const q of queens) {
      context.fillStyle = queenColour[q.kind || ""];
      const pad = size > 4 ? size * 0.15 : 0;
      context.fillRect(q.col * size + pad, (n - 1 - q.row) * size + pad, size - 2 * pad, size - 2 * pad);
    }
  }
}
