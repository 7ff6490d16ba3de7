// The climbers' neighbourhood on Watch's board: the score of every single-queen move, as a heat
// map, and the move a climber takes, ringed. The scores are the server's (the climbers' own
// code), asked once a board and drawn when they come.

import * as api from "./api.js";
import { heatColour } from "./charts.js";
import { h } from "./dom.js";

/** At most this many boards' neighbourhoods are kept. */
const KEPT = 256;

/**
 * The neighbour-scores switch and its scale, shown for solvers whose steps climb. `onReady` is
 * called when a neighbourhood asked for arrives, `onError(message)` when it cannot be had.
 */
export function createNeighbourhood({ maxN, onChange, onReady, onError }) {
  const toggle = h("input", { id: "w-neighbours", type: "checkbox", onchange: onChange });
  const element = h("div", { class: "neighbours", hidden: true },
    h("label", {}, toggle, " neighbour scores: the board's score after moving each column's queen to each square"),
    h("div", { class: "heat-scale" }, h("span", {}, "worse"), h("i"), h("span", {}, "better; the ring is the move a climber takes")));
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
    /** Shades the frame `model` of an n×n board, when the switch is on and its scores are in. */
    shade(model, n) {
      if (!toggle.checked || element.hidden || n > maxN) return;
      const seen = neighbourhoodOf(model, n);
      if (!seen) return;
      const values = seen.scores.filter((score) => score !== null);
      const [low, high] = [Math.min(...values), Math.max(...values)];
      model.heat = (row, col) => {
        const score = seen.scores[row * n + col];
        return score === null || score === undefined ? null : heatColour(high > low ? (score - low) / (high - low) : 0.5);
      };
      model.marks.candidate = seen.best ? [seen.best] : [];
      model.marks["hl-line"] = [];
    },
  };
}
