// The Lab's results: the original study's figures (success rate by N, mean iterations by N,
// the p × q heat map of a two-parameter sweep, the success rate along one swept parameter),
// the table of every cell, and the score-per-iteration sample of one run.

import * as api from "./api.js";
import { heatMap, lineChart } from "./charts.js";
import { h } from "./dom.js";
import { Recording, thin } from "./replay.js";
import { iterationsByN, lineName, settingLabel, successByN, successWithInterval, sweepGrids } from "./results.js";

/** What the solvers named count: "nodes", "iterations", or both. */
function unitOf(byName, names) {
  const units = new Set(names.map((name) => (byName.get(name).counts === "nodes" ? "nodes" : "iterations")));
  return units.size === 1 ? [...units][0] : "iterations or nodes";
}

/** The heat maps of a two-parameter sweep: one per solver and size. */
function sweepHeatMaps(rows, [rowName, colName]) {
  return sweepGrids(rows, rowName, colName).map((grid) => heatMap({
    values: grid.values,
    rowLabels: grid.rowValues.map(String),
    colLabels: grid.colValues.map(String),
    rowTitle: rowName,
    colTitle: colName,
    title: `Success rate (%): ${grid.title}`,
    width: 360,
  }));
}

/** The success rate along one swept parameter, a line per solver, on one size. */
function sweepLine(rows, name) {
  const lines = new Map();
  for (const r of rows) {
    if (!lines.has(r.solver)) lines.set(r.solver, []);
    lines.get(r.solver).push([r.params[name], ...successWithInterval(r)]);
  }
  return lineChart({
    series: [...lines].map(([solver, points]) => ({ name: solver, points: points.sort((a, b) => a[0] - b[0]) })),
    xLabel: name, yLabel: "success rate (%)", title: `Success rate by ${name}, N = ${rows[0].n}, with 95 % intervals`, yRange: [0, 100],
  });
}

/** The figures of an experiment's `rows`, `swept` naming the parameters it swept. */
export function experimentFigures(rows, swept, byName) {
  const sizes = new Set(rows.map((r) => r.n));
  const unit = unitOf(byName, rows.map((r) => r.solver));
  const figures = [];
  if (swept.length === 2) figures.push(...sweepHeatMaps(rows, swept));
  if (swept.length === 1 && sizes.size === 1) figures.push(sweepLine(rows, swept[0]));
  if (swept.length === 0 || (swept.length === 1 && sizes.size > 1)) {
    figures.push(lineChart({ series: successByN(rows), xLabel: "N", yLabel: "success rate (%)", title: "Success rate by N, with 95 % intervals", yRange: [0, 100] }));
    // A solver that solved no run has no point to draw: its legend says so, not a missing line.
    const work = iterationsByN(rows).map((line) => (line.points.length ? line : { ...line, name: `${line.name} (no run solved)` }));
    figures.push(lineChart({ series: work, xLabel: "N", yLabel: `mean ${unit}`, title: `Mean ${unit} of the solved runs by N`, log: "auto" }));
  }
  return figures;
}

/** The table of every cell: success with its interval, mean work, median time. */
export function resultTable(rows, byName) {
  const percent = (v) => `${(v * 100).toFixed(1)}%`;
  const unit = unitOf(byName, rows.map((r) => r.solver));
  const mixed = unit === "iterations or nodes";
  const work = (r) => {
    if (r.mean_iterations === null) return "—";
    const own = byName.get(r.solver).counts === "nodes" ? " nodes" : " iterations";
    return `${r.mean_iterations.toFixed(1)}${mixed ? own : ""}`;
  };
  return h("table", { class: "results" },
    h("thead", {}, h("tr", {}, ["solver", "N", "setting", "runs", "solved", "success (95 % interval)", `mean ${unit} (solved runs)`, "median ms a run"].map((t) => h("th", {}, t)))),
    h("tbody", {}, rows.map((r) => {
      const [, low, high] = successWithInterval(r);
      return h("tr", { dataset: { line: lineName(r) } },
        h("td", {}, r.solver), h("td", { class: "num" }, r.n), h("td", {}, settingLabel(r.params) || "—"),
        h("td", { class: "num" }, r.runs.toLocaleString()), h("td", { class: "num" }, r.solved.toLocaleString()),
        h("td", { class: "num" }, percent(r.success_rate), h("small", {}, ` (${low.toFixed(1)}–${high.toFixed(1)})`)),
        h("td", { class: "num" }, work(r)),
        h("td", { class: "num" }, r.median_ms.toFixed(3)));
    })));
}

/**
 * Draws into `box` the score of one run of `request` at every iteration: the first solver, the
 * first size (at most `maxN`), the seed, the first value of each swept parameter.
 */
export async function drawSample(box, request, byName, maxN, signal) {
  const solver = byName.get(request.solvers[0]);
  const n = Math.min(request.sizes[0], maxN);
  const query = { solver: solver.name, n, seed: request.seed };
  if (request.max_iters) query.max_iters = request.max_iters;
  for (const [name, values] of Object.entries(request.sweep || {})) query[name] = values[0];
  const recording = new Recording();
  try {
    await api.solve(query, (event) => recording.push(event), signal);
  } catch (e) {
    if (e.name !== "AbortError") box.replaceChildren(h("p", { class: "note" }, e.message));
    return;
  }
  const points = thin(recording.scores(), 500);
  const setting = settingLabel(Object.fromEntries(Object.entries(query).filter(([k]) => solver.parameters.some((p) => p.name === k))));
  const outcome = recording.finished ? recording.finished.status : "stopped";
  box.replaceChildren(h("p", { class: "note" }, `Seed ${request.seed}${setting ? `, ${setting}` : ""}: the score after every iteration.`), lineChart({
    series: [{ name: solver.name, points }],
    xLabel: solver.counts === "nodes" ? "nodes" : "iterations",
    yLabel: solver.counts === "nodes" ? "queens placed" : "score (higher is better)",
    title: `One run of ${solver.name}, N = ${n}: ${outcome}`,
  }));
}
