// Race's lanes: one per solver, each with its board, narration, counters and chart, drawn at
// the race's step on shared axes; and the finish table once every lane has ended.

import { Board } from "./board.js";
import { chartLeft, lineChart } from "./charts.js";
import { h } from "./dom.js";
import { Recording, frameModel, narrate, thin, unitLabel } from "./replay.js";

/** Lane colours: blue, green, purple, teal — none of the reds and oranges the boards use for attacks. */
export const LANE_COLOURS = ["#1f4e9c", "#1e7b4a", "#7d3c98", "#0e7a86"];

/**
 * The finish table's order: solved lanes first, by the step they solved at, then by their
 * iterations or nodes; then those that proved there is no solution; then the stopped ones.
 * `lanes` are `{ status, steps, count }`; returns them sorted, each with its `place` (1, 2, …
 * for the solved, null for the others).
 */
export function finishOrder(lanes) {
  const rank = { solved: 0, unsolvable: 1 };
  const sorted = [...lanes].sort((a, b) => (rank[a.status] ?? 2) - (rank[b.status] ?? 2)
    || a.steps - b.steps || (a.count ?? Infinity) - (b.count ?? Infinity));
  let place = 0;
  return sorted.map((lane) => ({ ...lane, place: lane.status === "solved" ? (place += 1) : null }));
}

/** The lane of `solver`, the `index`th, on a rows×cols board. */
export function createLane(solver, { rows, cols }, index) {
  const colour = LANE_COLOURS[index % LANE_COLOURS.length];
  const boardBox = h("div", { class: "board small" });
  const status = h("span", { class: "lane-status" }, "running");
  const counts = h("p", { class: "lane-counts" });
  const told = h("p", { class: "lane-narration" });
  const chart = h("div", { class: "chart-box" });
  const element = h("div", { class: "lane", dataset: { solver: solver.name }, style: { borderTopColor: colour } },
    h("h3", { style: { color: colour } }, solver.name, " ", status),
    h("p", { class: "summary" }, solver.summary),
    boardBox, told, counts, chart);
  return {
    solver, element, status, counts, chart, told, colour,
    recording: new Recording(),
    board: new Board(boardBox, { rows, cols, label: `${solver.name} on ${rows}×${cols}` }),
  };
}

/**
 * Draws every lane at step `position` of an n×n (or longer-side n) board. The axes are shared:
 * one x range for every lane (a run ten times longer is drawn ten times wider); one y range for
 * the lanes whose scores mean the same (hill climbing and its variants, backtracking and
 * forward checking), each solver's own otherwise.
 */
export function renderLanes(lanes, position, n) {
  const scores = new Map(lanes.map((l) => [l, thin(l.recording.scores(), 300)]));
  const lastX = Math.max(1, ...[...scores.values()].map((points) => (points.length ? points[points.length - 1][0] : 0)));
  const yRange = (score) => {
    const ys = lanes.filter((l) => l.solver.score === score).flatMap((l) => scores.get(l).map((p) => p[1]));
    return ys.length ? [Math.min(...ys), Math.max(...ys)] : undefined;
  };
  // The lanes share their x axis: their plots start at one edge, whatever their y labels.
  const charted = lanes.filter((l) => l.recording.start);
  const left = charted.length ? chartLeft(charted.map((l) => ({ series: [{ points: scores.get(l) }], yRange: yRange(l.solver.score) }))) : 0;
  for (const l of lanes) {
    if (!l.recording.start) continue;
    const k = Math.min(position, l.recording.length);
    const model = frameModel(l.recording, k, n);
    l.board.render(model);
    l.told.textContent = narrate(l.recording, k, n);
    const c = model.counters;
    const ended = l.recording.done && k >= l.recording.length;
    l.counts.textContent = `step ${c.step.toLocaleString()} of ${c.steps.toLocaleString()} · ${c.iteration.toLocaleString()} ${unitLabel(l.solver)} · ${c.pairs} attacking pair${c.pairs === 1 ? "" : "s"}${ended ? ` · ${l.recording.finished.status}` : ""}`;
    l.chart.replaceChildren(lineChart({
      series: [{ name: l.solver.name, points: scores.get(l), colour: l.colour }],
      xLabel: unitLabel(l.solver),
      yLabel: l.solver.counts === "nodes" ? "depth" : "score",
      xRange: [0, lastX],
      yRange: yRange(l.solver.score),
      cursor: c.iteration,
      // As wide as drawn (a phone's lanes are half its width), so that its text keeps its size.
      width: Math.max(160, Math.min(300, l.chart.clientWidth || 300)),
      height: 150,
      legend: false,
      left,
    }));
  }
}

/** The finish table of lanes that have all ended: who solved, at which step, at what cost. */
export function finishTable(lanes) {
  const rows = finishOrder(lanes.map((l) => {
    const f = l.recording.finished;
    return { lane: l, status: f.status, steps: l.recording.length, count: f.nodes ?? f.iterations, elapsed: f.elapsed_ms };
  }));
  return h("table", { class: "results" },
    h("caption", {}, "Finish order: the solvers that solved, by the step they solved at, then by iterations or nodes"),
    h("thead", {}, h("tr", {}, ["place", "solver", "result", "at step", "iterations or nodes", "time"].map((t) => h("th", {}, t)))),
    h("tbody", {}, rows.map((r) => h("tr", { dataset: { solver: r.lane.solver.name } },
      h("td", { class: "num" }, r.place === null ? "–" : String(r.place)),
      h("th", { scope: "row" }, h("span", { class: "lane-swatch", style: { background: r.lane.colour } }), r.lane.solver.name),
      h("td", { title: r.lane.recording.finished.stop_reason || undefined }, r.status === "unsolvable" ? "no solution" : r.status),
      h("td", { class: "num" }, r.steps.toLocaleString("en-US")),
      h("td", { class: "num" }, r.count === null || r.count === undefined ? "–" : `${r.count.toLocaleString("en-US")} ${unitLabel(r.lane.solver)}`),
      h("td", { class: "num" }, r.elapsed === undefined ? "–" : `${r.elapsed.toLocaleString("en-US", { maximumFractionDigits: 1 })} ms`)))));
}
