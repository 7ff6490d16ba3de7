// The search tree of a tree search (backtracking, forward checking) as a recording tells it:
// the current path from the root, and at each depth every child tried so far under the path's
// node there, pruned (its square attacked, or a look-ahead refuted it), a dead end (searched and
// backtracked out of) or on the path, with the nodes each one's subtree took. Pure: tested
// with Node; `drawTree` turns it into an SVG.

import { key, squareName } from "./squares.js";
import { h, s } from "./dom.js";

/** The most files a drawn tree has room for. */
export const TREE_MAX_N = 16;

/**
 * Follows a recording's frames, one at a time, keeping the tree's frontier. `levels[d]` is the
 * row searched at depth d and its children by column: `{ status, nodes }` with status
 * "pruned", "dead" or "path".
 */
export class SearchTree {
  /** `fixed`: the locked queens, which are no nodes of the tree. */
  constructor(fixed = []) {
    this.fixed = fixed;
    this.sampled = false;
    this.frame = 0;
    this.path = [];
    this.levels = [];
    this.nodes = 0;
    this.pruned = 0;
    this.deadEnds = 0;
  }

  /** Applies one frame (`{ changes, step }`). */
  apply({ changes, step }) {
    let placedCandidate = false;
    for (const change of changes) {
      if (change.type === "board") this.resample(change.queens, step);
      else if (change.type === "remove") this.backtrack(change.square);
      else if (change.type === "place") {
        if (step && step.square && key(step.square) === key(change.square)) placedCandidate = true;
        this.descend(change.square);
      }
    }
    if (step && step.square) {
      // The candidate's depth: the path's end if it was placed, the frontier otherwise.
      const depth = placedCandidate ? this.path.length - 1 : this.path.length;
      const level = this.level(depth, step.square.row);
      if (!placedCandidate) {
        level.children.set(step.square.col, { status: "pruned", nodes: 1 });
        this.pruned += 1;
      }
      for (let d = 0; d < depth; d++) this.levels[d].children.get(this.path[d].col).nodes += 1;
      this.nodes += 1;
    }
    this.frame += 1;
  }

  /**
   * A sampled frame: the steps since the last one were not streamed, so the tree is known only
   * along the path, the board's searched queens (those on rows the tree has reached, or all but
   * the locked ones), and its counts from the step's node number.
   */
  resample(queens, step) {
    const locked = new Set(this.fixed.map(key));
    this.path = queens.filter((q) => !locked.has(key(q))).sort((a, b) => a.row - b.row);
    this.levels = this.path.map((q) => ({ row: q.row, children: new Map([[q.col, { status: "path", nodes: 1 }]]) }));
    this.sampled = true;
    if (step) this.nodes = step.iteration - 1;
  }

  level(depth, row) {
    if (!this.levels[depth]) this.levels[depth] = { row, children: new Map() };
    return this.levels[depth];
  }

  descend(square) {
    const depth = this.path.length;
    this.level(depth, square.row).children.set(square.col, { status: "path", nodes: 1 });
    this.path.push(square);
    this.levels.length = depth + 1;
  }

  backtrack(square) {
    const at = this.path.findIndex((q) => key(q) === key(square));
    if (at < 0) return;
    this.path.length = at;
    this.levels.length = at + 1;
    const child = this.levels[at].children.get(square.col);
    if (child) child.status = "dead";
    this.deadEnds += 1;
  }
}

/**
 * The tree after `k` frames of `recording`, reusing `previous` (a SearchTree of the same
 * recording) when it is not past frame `k`.
 */
export function treeAt(recording, k, previous = null) {
  const tree = previous && previous.frame <= k ? previous : new SearchTree(recording.start ? recording.start.fixed : []);
  while (tree.frame < k && tree.frame < recording.frames.length) tree.apply(recording.frames[tree.frame]);
  return tree;
}

/** The tree in one line: "depth 5 of 8; 34 nodes: 20 pruned, 9 dead ends". */
export function describeTree(tree, depths) {
  const nodes = `depth ${tree.path.length} of ${depths}; ${tree.nodes.toLocaleString()} node${tree.nodes === 1 ? "" : "s"}`;
  if (tree.sampled) return `${nodes}; sampled, so only the path is known`;
  return `${nodes}: ${tree.pruned.toLocaleString()} pruned, ${tree.deadEnds.toLocaleString()} dead end${tree.deadEnds === 1 ? "" : "s"}`;
}

/**
 * The tree as an SVG `width` wide: the root on top, then one band per depth with a slot for each
 * column of its row, joined to the path's node above; the path's nodes filled, dead ends
 * hollow with their subtree's node count, pruned ones crossed, the untried ones dotted.
 */
export function drawTree(tree, n, width = 360) {
  const band = 30;
  const depths = tree.levels.length;
  const height = 24 + band * Math.max(1, depths);
  const slot = (width - 40) / n;
  const x = (col) => 34 + slot * (col + 0.5);
  const y = (depth) => 16 + band * (depth + 1) - 8;
  const r = Math.min(7, slot * 0.38);
  const svg = s("svg", {
    class: "search-tree", viewBox: `0 0 ${width} ${height}`, width, role: "img",
    "aria-label": `search tree: ${tree.path.map((q) => squareName(q, n)).join(", ") || "the root"} on the path`,
  });
  svg.append(s("circle", { cx: width / 2, cy: 10, r: 4, class: "node path" }));
  // The dead ends' counts go on top, after every edge, so that no edge of the band below runs
  // over them.
  const counts = s("g", { class: "tree-counts" });
  tree.levels.forEach((level, depth) => {
    const parent = depth === 0 ? [width / 2, 10] : [x(tree.path[depth - 1].col), y(depth - 1)];
    svg.append(s("text", { x: 2, y: y(depth) + 4, class: "tree-row" }, `r${level.row + 1}`));
    for (let col = 0; col < n; col++) {
      const child = level.children.get(col);
      const status = child ? child.status : "untried";
      if (status !== "untried") {
        svg.append(s("line", { x1: parent[0], y1: parent[1] + 4, x2: x(col), y2: y(depth) - r, class: `edge ${status}` }));
      }
      if (status === "pruned") {
        const d = r * 0.7;
        svg.append(s("path", { d: `M${x(col) - d},${y(depth) - d}L${x(col) + d},${y(depth) + d}M${x(col) + d},${y(depth) - d}L${x(col) - d},${y(depth) + d}`, class: "node pruned" }));
      } else {
        svg.append(s("circle", { cx: x(col), cy: y(depth), r: status === "untried" ? r * 0.5 : r, class: `node ${status}` }));
      }
      if (status === "dead" && child.nodes > 1 && slot >= 18) {
        counts.append(s("text", { x: x(col), y: y(depth) + r + 9, class: "tree-count" }, compact(child.nodes)));
      }
    }
  });
  svg.append(counts);
  return svg;
}

/** 7, 42, 1.2k, 35k, 1.4M. */
function compact(count) {
  if (count < 1000) return String(count);
  if (count < 1e6) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1e6).toFixed(1)}M`;
}

/**
 * Watch's tree panel: a tree search's tree at the frame shown, its counts always and its
 * drawing on N×N boards up to [`TREE_MAX_N`] files. Hidden for runs that are no tree search.
 */
export function createTreePanel() {
  const summary = h("span", { class: "tree-summary" });
  const drawing = h("div", { class: "tree-drawing" });
  const treeKey = h("p", { class: "note tree-key" }, "Filled: the current path; hollow: dead ends, with the nodes their subtrees took; crossed: pruned, the square attacked; dots: not tried yet.");
  const element = h("figure", { id: "w-tree", class: "tree-box", hidden: true },
    h("figcaption", {}, "Search tree: ", summary), drawing, treeKey);
  // The tree last built, carried forward while the same recording plays on.
  let last = null;
  return {
    element,
    /** Shows the tree of `recording` at frame `k` on a board of `rows`×`cols` (`n` files). */
    show(recording, k, { n, rows, cols }) {
      const first = recording.frames[0];
      element.hidden = !(first && first.step && first.step.square);
      if (element.hidden) return;
      if (last && last.recording !== recording) last = null;
      const tree = treeAt(recording, k, last && last.tree);
      last = { recording, tree };
      summary.textContent = describeTree(tree, n - recording.start.fixed.length);
      // The key explains a drawing: none above TREE_MAX_N.
      const drawn = n <= TREE_MAX_N && rows === cols;
      treeKey.hidden = !drawn;
      if (!drawn) {
        if (!drawing.dataset.note) drawing.replaceChildren(h("p", { class: "note" }, `The tree is drawn on N×N boards up to ${TREE_MAX_N}; its counts are above.`));
        drawing.dataset.note = "1";
        return;
      }
      delete drawing.dataset.note;
      drawing.replaceChildren(drawTree(tree, n, 380));
    },
  };
}
