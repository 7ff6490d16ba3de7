// Charts as SVG: lines with labelled axes, and a heat map. The scales and ticks are pure
// (tested with Node); the drawing builds SVG elements.

import { s } from "./dom.js";

/** About `count` round tick values covering [min, max]. */
export function niceTicks(min, max, count = 5) {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((v) => v >= raw);
  const ticks = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
    ticks.push(Number(v.toPrecision(12)));
  }
  return ticks;
}

/** A linear map from [d0, d1] to [r0, r1]. */
export function scale([d0, d1], [r0, r1]) {
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/** Compact numbers for axes: 1200 → 1.2k, 3000000 → 3M. */
export function shortNumber(v) {
  const a = Math.abs(v);
  if (a >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
  if (a >= 1e4) return `${Number((v / 1e3).toPrecision(3))}k`;
  return String(Number(v.toPrecision(4)));
}

// Series colours: no red (red is "under attack" on the boards), each at least 4.5:1 on white.
const COLOURS = ["#1f4e9c", "#a35200", "#1e7b4a", "#7d3c98", "#0e7a86", "#a6326f", "#6e4b3a", "#555"];

/** Line colour number `i`. */
export const colour = (i) => COLOURS[i % COLOURS.length];

/** A title broken into lines that fit `width` units (at most 14-unit text, as on a phone). */
export function titleLines(title, width) {
  const most = Math.max(10, Math.floor((width - 8) / 7.8));
  const lines = [];
  for (const word of String(title || "").split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= most) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.filter(Boolean);
}

/** The title's text element, one line per `tspan`, its first baseline at `y`. */
function titleText(lines, x, y) {
  return s("text", { x, y, class: "chart-title", "text-anchor": "middle" },
    lines.map((line, i) => s("tspan", { x, dy: i ? 16 : 0 }, line)));
}

/**
 * A line chart: `series` of `{ name, points: [[x, y], ...] }`, axes labelled `xLabel` and
 * `yLabel`, optional fixed `yRange`, a vertical `cursor` at an x value.
 */
export function lineChart({ series, xLabel, yLabel, title, yRange, cursor, width = 360, height = 240, legend = true }) {
  const lines = titleLines(title, width);
  height += 16 * Math.max(0, lines.length - 1);
  // A legend of several series gets its own row above the plot, clear of the lines.
  const legendRow = legend && series.length > 1 ? 18 : 0;
  height += legendRow;
  const margin = { left: 52, right: 12, top: 10 + 16 * lines.length + legendRow, bottom: 40 };
  const all = series.flatMap((x) => x.points);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const xDomain = xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
  const yDomain = yRange || (ys.length ? [Math.min(...ys), Math.max(...ys)] : [0, 1]);
  if (yDomain[0] === yDomain[1]) yDomain[1] = yDomain[0] + 1;
  if (xDomain[0] === xDomain[1]) xDomain[1] = xDomain[0] + 1;
  const x = scale(xDomain, [margin.left, width - margin.right]);
  const y = scale(yDomain, [height - margin.bottom, margin.top]);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": title || yLabel });
  if (lines.length) svg.append(titleText(lines, width / 2, 15));
  for (const t of niceTicks(yDomain[0], yDomain[1], 4)) {
    svg.append(s("line", { x1: margin.left, x2: width - margin.right, y1: y(t), y2: y(t), class: "grid" }));
    svg.append(s("text", { x: margin.left - 6, y: y(t) + 4, "text-anchor": "end", class: "tick" }, shortNumber(t)));
  }
  for (const t of niceTicks(xDomain[0], xDomain[1], 5)) {
    svg.append(s("text", { x: x(t), y: height - margin.bottom + 15, "text-anchor": "middle", class: "tick" }, shortNumber(t)));
  }
  svg.append(s("line", { x1: margin.left, x2: width - margin.right, y1: height - margin.bottom, y2: height - margin.bottom, class: "axis" }));
  svg.append(s("line", { x1: margin.left, x2: margin.left, y1: margin.top, y2: height - margin.bottom, class: "axis" }));
  svg.append(s("text", { x: (margin.left + width - margin.right) / 2, y: height - 6, "text-anchor": "middle", class: "label" }, xLabel));
  svg.append(s("text", { x: 12, y: (margin.top + height - margin.bottom) / 2, "text-anchor": "middle", class: "label",
    transform: `rotate(-90 12 ${(margin.top + height - margin.bottom) / 2})` }, yLabel));
  series.forEach((line, i) => {
    if (!line.points.length) return;
    const d = line.points.map((p, j) => `${j ? "L" : "M"}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join("");
    svg.append(s("path", { d, class: "series", stroke: colour(i), fill: "none" }));
    if (line.points.length <= 40) {
      for (const p of line.points) svg.append(s("circle", { cx: x(p[0]), cy: y(p[1]), r: 2.5, fill: colour(i) }));
    }
  });
  if (cursor !== undefined && cursor !== null) {
    svg.append(s("line", { x1: x(cursor), x2: x(cursor), y1: margin.top, y2: height - margin.bottom, class: "cursor" }));
  }
  if (legendRow) {
    let left = margin.left;
    const top = margin.top - legendRow + 4;
    series.forEach((line, i) => {
      svg.append(s("rect", { x: left, y: top - 4, width: 10, height: 3, fill: colour(i) }));
      svg.append(s("text", { x: left + 14, y: top, class: "legend-text" }, line.name));
      left += 24 + line.name.length * 6.5;
    });
  }
  return svg;
}

/** The colour of a value in [0, 1] on the heat scale (pale to dark green). */
export function heatColour(t) {
  const v = Math.max(0, Math.min(1, t));
  const from = [236, 246, 231];
  const to = [26, 102, 46];
  const c = from.map((f, i) => Math.round(f + (to[i] - f) * v));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/** A heat map of `values[row][col]` in [0, 1] with labels, each cell showing its percentage. */
export function heatMap({ values, rowLabels, colLabels, rowTitle, colTitle, title, width = 360 }) {
  const cell = Math.min(56, Math.floor((width - 90) / Math.max(1, colLabels.length)));
  const lines = titleLines(title, width);
  const top = 14 + 16 * lines.length;
  const height = top + 30 + cell * rowLabels.length + 30;
  const left = Math.max(70, (width - colLabels.length * cell) / 2 + 10);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart heat", role: "img", "aria-label": title });
  svg.append(titleText(lines, width / 2, 16));
  rowLabels.forEach((label, r) => {
    svg.append(s("text", { x: left - 6, y: top + r * cell + cell / 2 + 4, "text-anchor": "end", class: "tick" }, label));
    colLabels.forEach((_, c) => {
      const v = values[r][c];
      const fill = v === null || v === undefined ? "#eee" : heatColour(v);
      svg.append(s("rect", { x: left + c * cell, y: top + r * cell, width: cell - 1, height: cell - 1, fill }));
      if (v !== null && v !== undefined) {
        svg.append(s("text", { x: left + c * cell + cell / 2, y: top + r * cell + cell / 2 + 4, "text-anchor": "middle",
          class: v > 0.55 ? "cell-text light" : "cell-text" }, `${Math.round(v * 100)}`));
      }
    });
  });
  colLabels.forEach((label, c) => {
    svg.append(s("text", { x: left + c * cell + cell / 2, y: top + rowLabels.length * cell + 14, "text-anchor": "middle", class: "tick" }, label));
  });
  svg.append(s("text", { x: left + (colLabels.length * cell) / 2, y: height - 6, "text-anchor": "middle", class: "label" }, colTitle));
  const middle = top + (rowLabels.length * cell) / 2;
  svg.append(s("text", { x: left - 48, y: middle, "text-anchor": "middle", class: "label",
    transform: `rotate(-90 ${left - 48} ${middle})` }, rowTitle));
  return svg;
}
