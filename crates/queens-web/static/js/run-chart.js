// Watch's chart of a run: the score at each step, or a population's best, mean and worst
// fitness by generation, with a cursor at the step shown.

import { lineChart } from "./charts.js";
import { h } from "./dom.js";
import { thin, unitLabel } from "./replay.js";

/** While a run plays, the chart is redrawn at most this often (ms). */
const PLAYING_EVERY = 150;

/** The chart's box, and `draw(recording, solver, cursor, playing)`. */
export function createRunChart() {
  const element = h("div", { id: "w-chart", class: "chart-box" });
  let drawnAt = 0;
  return {
    element,
    /** Draws `recording`'s chart for `solver` with its cursor at `cursor`. */
    draw(recording, solver, cursor, playing) {
      const now = performance.now();
      if (now - drawnAt < PLAYING_EVERY && playing) return;
      drawnAt = now;
      const points = thin(recording.scores(), 400);
      if (!points.length) {
        element.replaceChildren();
        return;
      }
      const fitness = recording.fitness();
      if (fitness) {
        // A population's own state: its whole population's fitness, not only the best.
        element.replaceChildren(lineChart({
          series: fitness.map((line) => ({ ...line, points: thin(line.points, 400) })),
          xLabel: "generations",
          yLabel: "fitness (higher is better)",
          title: "Population fitness by generation",
          cursor,
          width: 380,
          height: 220,
        }));
        return;
      }
      // From zero, so that a climb from 22 to 28 reads as the rise it is, not a wall.
      const top = Math.max(1, ...points.map((p) => p[1]));
      const low = Math.min(0, ...points.map((p) => p[1]));
      element.replaceChildren(lineChart({
        series: [{ name: "score", points }],
        yRange: [low, top],
        xLabel: unitLabel(solver),
        yLabel: solver.counts === "nodes" ? "depth (queens placed)" : "score (higher is better)",
        title: "Score at each step",
        cursor,
        width: 380,
        height: 200,
      }));
    },
    /** Empties it. */
    clear() {
      element.replaceChildren();
    },
  };
}
