// The climbers' neighbourhood on Watch's board: how much every single-queen move changes the
// score, as a heat map with the change written on each square, and the move a climber takes,
// ringed. The scores are the server's (the climbers' own code), asked once a board and drawn
// when they come.

import * as api from "./api.js";
import { h } from "./dom.js";

/** At most this many boards' neighbourhoods are kept. */
const KEPT = 256;

/** The colour of a move's score change, `t` from −1 (the worst loss) to 1 (the best gain): red
 * for worse, a pale neutral for no change, green for better. */
export function gainColour(t) {
  const v = Math.max(-1, Math.min(1, t));
  const neutral = [244, 241, 234];
  const end = v < 0 ? [196, 64, 44] : [26, 122, 56];
  const c = neutral.map((f, i) => Math.round(f + (end[i] - f) * Math.abs(v)));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/** A score change as a square shows it: +2, 0, −1. */
export function gainText(gain) {
  return gain > 0 ? `+${gain}` : gain < 0 ? `−${-gain}` : "0";
}

/**
 * The neighbour-scores switch (on by default) and its scale, shown for solvers whose steps
 * climb. `onReady` is called when a neighbourhood asked for arrives, `onError(message)` when it
 * cannot be had.
 */
export function createNeighbourhood({ maxN, onChange, onReady, onError }) {
  const toggle = h("input", { id: "w-neighbours", type: "checkbox", checked: true, onchange: onChange });
  const element = h("div", { class: "neighbours", hidden: true },
    h("label", {}, toggle, " neighbour scores: how much each single-queen move (the column's queen to that square) changes the board's score"),
    h("div", { class: "heat-scale gain-scale" }, h("span", {}, "worse (−)"), h("i"), h("span", {}, "better (+)"),
      h("span", { class: "swatch chosen", "aria-hidden": "true" }), h("span", {}, "the move a climber takes; none where no move is better")));
  // The neighbourhoods of the boards shown, by their rows (null while asked for).
  const seenBoards = new Map();

  /** The neighbourhood of the board of `model` (n×n), or null while it is asked for. */
  function neighbourhoodOf(model, n) {
    const rows = new Array(n).fill(-1);
    for (const q of model.queens) rows[q.col] = q.row;
    if (rows.includes(-1)) return null;
    const key = rows.join(",");
    if (!seenBoards.has(key)) {
      if (seenBoards.size >= KEPT) seenBoards.clear();
      seenBoards.set(key, null);
      api.neighbourhood(rows).then((seen) => {
        seenBoards.set(key, seen);
        onReady();
      }, (e) => {
        seenBoards.delete(key);
        onError(e.message);
      });
    }
    return seenBoards.get(key);
  }

  return {
    element,
    /** Shows the switch for `solver` if its steps climb. */
    showFor(solver) {
      element.hidden = !solver.neighbourhood;
    },
    /**
     * Shades the frame `model` of an n×n board, when the switch is on and its scores are in:
     * each square by how much moving its column's queen there changes the score, the change
     * written on it, and the move a climber takes ringed. A step without a score of its own
     * (the start) takes the board's.
     */
    shade(model, n) {
      if (!toggle.checked || element.hidden || n > maxN) return;
      const seen = neighbourhoodOf(model, n);
      if (!seen) return;
      if (model.counters && model.counters.score === null) model.counters.score = seen.score;
      const gains = seen.scores.map((score) => (score === null || score === undefined ? null : score - seen.score));
      const most = Math.max(1, ...gains.filter((gain) => gain !== null).map(Math.abs));
      model.heat = (row, col) => {
        const gain = gains[row * n + col];
        return gain === null || gain === undefined ? null : gainColour(gain / most);
      };
      const written = [];
      gains.forEach((gain, index) => {
        if (gain !== null) written.push({ row: Math.floor(index / n), col: index % n, text: gainText(gain) });
      });
      model.numbers = [...(model.numbers || []), ...written];
      model.marks.chosen = seen.best ? [seen.best] : [];
      model.marks["hl-line"] = [];
    },
  };
}
