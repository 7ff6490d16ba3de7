// Watch's chart of a run: the score at each step, or a population's best, mean and worst
// fitness by generation, with a cursor at the step shown.

import { chartLeft, lineChart } from "./charts.js";
import { h } from "./dom.js";
import { thin, unitLabel } from "./replay.js";

/** While a run plays, the chart is redrawn at most this often (ms). */
const PLAYING_EVERY = 150;

/**
 * For a run whose steps are proposals (annealing), the options of two charts: the temperature at
 * each step, and the chance each worse proposal had of being taken, with the ones taken and
 * refused apart, over the score chart's `xRange`. None otherwise.
 */
function annealing(recording, solver, cursor, xRange) {
  const temperature = thin(recording.noteSeries((note) => (note.kind === "proposal" && note.temperature > 0 ? note.temperature : null)), 400);
  if (!temperature.length) return [];
  const chance = (taken) => thin(recording.noteSeries((note) => (note.kind === "proposal" && note.loss > 0 && note.taken === taken ? note.probability : null)), 400);
  return [
    {
      series: [{ name: "temperature T", points: temperature }],
      xRange,
      xLabel: unitLabel(solver),
      yLabel: "temperature T",
      title: "Temperature at each step",
      log: true,
      cursor,
      width: 380,
      height: 180,
    },
    {
      series: [{ name: "taken", points: chance(true), dots: true }, { name: "refused", points: chance(false), dots: true }],
      xRange,
      yRange: [0, 1],
      xLabel: unitLabel(solver),
      yLabel: "e^(−loss/T)",
      title: "Chance of each worse move proposed",
      cursor,
      width: 380,
      height: 200,
    },
  ];
}

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
      if (solver.unit === "a board examined") {
        // A search of whole boards: its depth is always all the queens; what it finds on each
        // board is the number of attacking pairs, and a solution is the one board with none.
        const pairs = thin(recording.attackSeries(), 400);
        element.replaceChildren(lineChart({
          series: [{ name: "attacking pairs", points: pairs }],
          yRange: [0, Math.max(1, ...pairs.map((p) => p[1]))],
          xLabel: unitLabel(solver),
          yLabel: "attacking pairs (0: a solution)",
          title: "Attacking pairs on each board examined",
          cursor,
          width: 380,
          height: 200,
        }));
        return;
      }
      // From zero, so that a climb from 22 to 28 reads as the rise it is, not a wall.
      const top = Math.max(1, ...points.map((p) => p[1]));
      const low = Math.min(0, ...points.map((p) => p[1]));
      // A search finding every solution marks each one where it was found.
      const found = recording.found.map((k) => [recording.frames[k - 1].step.iteration, recording.frames[k - 1].step.score]);
      const series = [{ name: solver.counts === "nodes" ? "depth" : "score", points }];
      if (found.length) series.push({ name: "a solution found", points: thin(found, 400), dots: true, colour: "#1e7b4a" });
      const charts = [...annealing(recording, solver, cursor, [0, points[points.length - 1][0]]), {
        series,
        yRange: [low, top],
        xLabel: unitLabel(solver),
        yLabel: solver.counts === "nodes" ? "depth (queens placed)" : "score (higher is better)",
        title: "Score at each step",
        cursor,
        width: 380,
        height: 200,
      }];
      // Charts of one run share their x axis: their plots start at one edge.
      const left = chartLeft(charts);
      element.replaceChildren(...charts.map((options) => lineChart({ ...options, left })));
    },
    /** Empties it. */
    clear() {
      element.replaceChildren();
    },
  };
}
