// Charts as SVG: lines with labelled axes, and a heat map. The scales and ticks are pure
// (tested with Node); the drawing builds SVG elements.

import { s } from "./dom.js";

/** About `count` round tick values covering [min, max], at least `least` apart. */
export function niceTicks(min, max, count = 5, least = 0) {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(least, [1, 2, 5, 10].map((m) => m * magnitude).find((v) => v >= raw));
  const ticks = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
    ticks.push(Number(v.toPrecision(12)));
  }
  return ticks;
}

/**
 * A linear axis over [min, max] widened to round ends, with at least four labelled ticks:
 * `{ domain: [lo, hi], ticks }`. An `integer` axis (scores, counts) has whole ticks only, as
 * many as fit, four at most needed.
 */
export function linearAxis(min, max, fixed = false, integer = false) {
  if (!(max > min)) {
    const pad = Math.abs(min) > 0 ? Math.abs(min) * 0.5 : 1;
    [min, max] = [min - pad, max + pad];
  }
  const least = integer ? 1 : 0;
  for (let count = 4; count <= 12; count += 1) {
    const ticks = niceTicks(min, max, count, least);
    const step = ticks.length > 1 ? ticks[1] - ticks[0] : max - min;
    const lo = fixed ? min : Number((Math.floor(min / step + 1e-9) * step).toPrecision(12));
    const hi = fixed ? max : Number((Math.ceil(max / step - 1e-9) * step).toPrecision(12));
    const all = niceTicks(lo, hi, count, least);
    if (all.length >= (integer ? Math.min(4, Math.floor(hi - lo) + 1) : 4)) return { domain: [lo, hi], ticks: all };
  }
  return { domain: [min, max], ticks: [min, max] };
}

/**
 * A log axis over positive [min, max]: whole decades, with 2× and 5× ticks where there are
 * fewer than four decades, so that at least four ticks are labelled.
 */
export function logAxis(min, max) {
  const lo = Math.floor(Math.log10(min));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(max)));
  const ticks = [];
  const multiples = hi - lo >= 4 ? [1] : hi - lo >= 2 ? [1, 3] : [1, 2, 5];
  for (let e = lo; e <= hi; e += 1) {
    for (const m of multiples) {
      const v = Number((m * 10 ** e).toPrecision(12));
      if (v <= 10 ** hi * 1.0000001) ticks.push(v);
    }
  }
  return { domain: [10 ** lo, 10 ** hi], ticks };
}

/** Whether values spread over more than two decades, where a log scale shows them all. */
export function spansDecades(values) {
  const positive = values.filter((v) => v > 0);
  return positive.length === values.length && positive.length > 1 && Math.max(...positive) / Math.min(...positive) >= 100;
}

/** The 95 % Wilson score interval of `successes` in `trials`, as fractions. */
export function wilson(successes, trials, z = 1.96) {
  if (!trials) return [0, 1];
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
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

/** The width of a legend character, in chart units, at the phone's 13.5-unit text (with room). */
export const LEGEND_CHAR = 8.4;

/**
 * The legend's entries laid out in rows that fit between `left` and `right`: `[{ x, row }]`.
 * Each entry is a swatch and its name.
 */
export function legendLayout(names, left, right) {
  const places = [];
  let x = left;
  let row = 0;
  for (const name of names) {
    const wide = 26 + String(name).length * LEGEND_CHAR;
    if (x > left && x + wide > right) {
      x = left;
      row += 1;
    }
    places.push({ x, row });
    x += wide;
  }
  return places;
}

/** A chart's axes from its series and options: `{ xAxis, yAxis, logY }` (see `lineChart`). */
function chartAxes({ series, xRange, yRange, log = false }) {
  const all = series.flatMap((x) => x.points);
  const xs = all.map((p) => p[0]);
  const ys = all.flatMap((p) => p.slice(1).filter((v) => v !== undefined && v !== null));
  const logY = log === "auto" ? !yRange && spansDecades(ys) : Boolean(log) && ys.every((v) => v > 0) && ys.length > 0;
  let xAxis;
  if (xRange) xAxis = linearAxis(xRange[0], xRange[1], false, wholes(xs));
  else xAxis = xs.length ? linearAxis(Math.min(...xs), Math.max(...xs), true, wholes(xs)) : linearAxis(0, 1, true);
  let yAxis;
  if (logY) yAxis = logAxis(Math.min(...ys), Math.max(...ys));
  else if (yRange) yAxis = linearAxis(yRange[0], yRange[1], true, wholes(ys));
  else yAxis = ys.length ? linearAxis(Math.min(...ys), Math.max(...ys), false, wholes(ys)) : linearAxis(0, 1);
  return { xAxis, yAxis, logY };
}

/**
 * The left margin a chart's y labels need: the axis title (about 26 units from the edge) and
 * the widest tick label, at a phone's text size, never under 52.
 */
function yLabelRoom(yAxis) {
  const widest = Math.max(...yAxis.ticks.map((t) => shortNumber(t).length));
  return Math.max(52, Math.ceil(26 + widest * LEGEND_CHAR));
}

/**
 * The left margin that fits every one of `charts` (each `lineChart`'s options): what charts that
 * share their x axis pass as `left`, so that their plots start at one edge.
 */
export function chartLeft(charts) {
  return Math.max(...charts.map((options) => yLabelRoom(chartAxes(options).yAxis)));
}

/**
 * A line chart: `series` of `{ name, points: [[x, y, low?, high?], ...], colour?, dots? }` (a
 * point's low and high drawn as an error bar; a `dots` series drawn as dots, unjoined), axes labelled `xLabel` and `yLabel`, optional fixed
 * `yRange`, an optional `xRange` (rounded out to nice ticks; charts given the same range share
 * their x axis), `log` for a log y scale ("auto": when the values span two decades or more), a
 * vertical `cursor` at an x value. The legend sits above the plot, in as many rows as its names
 * need.
 */
export function lineChart({ series, xLabel, yLabel, title, xRange, yRange, cursor, log = false, width = 360, height = 240, legend = true, left = 0 }) {
  const lines = titleLines(title, width);
  height += 16 * Math.max(0, lines.length - 1);
  const { xAxis, yAxis, logY } = chartAxes({ series, xRange, yRange, log });
  // Room on the left for the widest y label beside the axis title, or `left` where charts share
  // their x axis and so their plot's left edge (see `chartLeft`).
  const margin = { left: Math.max(left, yLabelRoom(yAxis)), right: 12, top: 16 + 16 * lines.length, bottom: 40 };
  const places = legend && series.length > 1 ? legendLayout(series.map((x) => x.name), margin.left - 40, width - margin.right) : [];
  const legendRows = places.length ? places[places.length - 1].row + 1 : 0;
  // Each legend row is 16 units; 6 more keep the last row clear of the top tick's label.
  const legendHeight = legendRows ? 16 * legendRows + 6 : 0;
  height += legendHeight;
  margin.top += legendHeight;
  // The last x tick's label is centred on the plot's right edge when the axis is rounded out:
  // room for its half.
  margin.right = Math.max(margin.right, (shortNumber(xAxis.ticks[xAxis.ticks.length - 1]).length * LEGEND_CHAR) / 2 + 2);
  const x = scale(xAxis.domain, [margin.left, width - margin.right]);
  const yLinear = scale(logY ? yAxis.domain.map(Math.log10) : yAxis.domain, [height - margin.bottom, margin.top]);
  const y = logY ? (v) => yLinear(Math.log10(v)) : yLinear;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": title || yLabel });
  if (lines.length) svg.append(titleText(lines, width / 2, 15));
  for (const t of yAxis.ticks) {
    svg.append(s("line", { x1: margin.left, x2: width - margin.right, y1: y(t), y2: y(t), class: "grid" }));
    svg.append(s("text", { x: margin.left - 6, y: y(t) + 4, "text-anchor": "end", class: "tick" }, shortNumber(t)));
  }
  // Every tick labelled where the labels fit side by side; every 2nd, 3rd … where they do not
  // (a chart in a phone's half-width lane).
  const xTicks = xAxis.ticks;
  const widest = Math.max(...xTicks.map((t) => shortNumber(t).length)) * LEGEND_CHAR + 6;
  const apart = xTicks.length > 1 ? Math.abs(x(xTicks[1]) - x(xTicks[0])) : Infinity;
  const every = Math.max(1, Math.ceil(widest / apart));
  xTicks.forEach((t, i) => {
    if (i % every) return;
    svg.append(s("text", { x: x(t), y: height - margin.bottom + 15, "text-anchor": "middle", class: "tick" }, shortNumber(t)));
  });
  svg.append(s("line", { x1: margin.left, x2: width - margin.right, y1: height - margin.bottom, y2: height - margin.bottom, class: "axis" }));
  svg.append(s("line", { x1: margin.left, x2: margin.left, y1: margin.top, y2: height - margin.bottom, class: "axis" }));
  svg.append(s("text", { x: (margin.left + width - margin.right) / 2, y: height - 6, "text-anchor": "middle", class: "label" }, xLabel));
  svg.append(s("text", { x: 12, y: (margin.top + height - margin.bottom) / 2, "text-anchor": "middle", class: "label",
    transform: `rotate(-90 12 ${(margin.top + height - margin.bottom) / 2})` }, logY ? `${yLabel} (log)` : yLabel));
  const colourOf = (i) => series[i].colour || colour(i);
  series.forEach((line, i) => {
    if (!line.points.length) return;
    if (line.dots) {
      // Separate events, not a path: one dot each.
      for (const p of line.points) svg.append(s("circle", { cx: x(p[0]).toFixed(1), cy: y(p[1]).toFixed(1), r: 2, fill: colourOf(i), class: "dot" }));
      return;
    }
    const d = line.points.map((p, j) => `${j ? "L" : "M"}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join("");
    svg.append(s("path", { d, class: "series", stroke: colourOf(i), fill: "none" }));
    if (line.points.length > 40) return;
    for (const p of line.points) {
      if (p[2] !== undefined && p[3] !== undefined) {
        svg.append(s("path", { d: `M${x(p[0]) - 3},${y(p[2])}h6M${x(p[0])},${y(p[2])}V${y(p[3])}M${x(p[0]) - 3},${y(p[3])}h6`,
          class: "error-bar", stroke: colourOf(i) }));
      }
      svg.append(s("circle", { cx: x(p[0]), cy: y(p[1]), r: 2.5, fill: colourOf(i) }));
    }
  });
  if (cursor !== undefined && cursor !== null) {
    svg.append(s("line", { x1: x(cursor), x2: x(cursor), y1: margin.top, y2: height - margin.bottom, class: "cursor" }));
  }
  const legendTop = margin.top - legendHeight + 2;
  series.forEach((line, i) => {
    if (!places[i]) return;
    const { x: left, row } = places[i];
    const top = legendTop + 16 * row + 8;
    svg.append(s("rect", { x: left, y: top - 4, width: 14, height: 3, fill: colourOf(i), class: "legend-swatch" }));
    svg.append(s("text", { x: left + 18, y: top, class: "legend-text" }, line.name));
  });
  return svg;
}

/** Whether `values` are all whole numbers (scores, iterations), whose axis has whole ticks. */
const wholes = (values) => values.length > 0 && values.every(Number.isInteger);

/** The colour of a value in [0, 1] on the heat scale (pale to dark green). */
export function heatColour(t) {
  const v = Math.max(0, Math.min(1, t));
  const from = [236, 246, 231];
  const to = [26, 102, 46];
  const c = from.map((f, i) => Math.round(f + (to[i] - f) * v));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/**
 * A heat map of `values[row][col]` in [0, 1] with labels, each cell showing its percentage, and
 * the colour scale below it.
 */
export function heatMap({ values, rowLabels, colLabels, rowTitle, colTitle, title, width = 360 }) {
  const cell = Math.min(56, Math.floor((width - 90) / Math.max(1, colLabels.length)));
  const lines = titleLines(title, width);
  const top = 14 + 16 * lines.length;
  const height = top + 30 + cell * rowLabels.length + 66;
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
  svg.append(s("text", { x: left + (colLabels.length * cell) / 2, y: top + rowLabels.length * cell + 30, "text-anchor": "middle", class: "label" }, colTitle));
  // The colour scale: what a shade means, from 0 % to 100 %.
  const scaleTop = top + rowLabels.length * cell + 42;
  const scaleLeft = left;
  const scaleWidth = Math.max(120, Math.min(colLabels.length * cell, width - left - 12));
  const steps = 10;
  for (let i = 0; i < steps; i += 1) {
    svg.append(s("rect", { x: scaleLeft + (i * scaleWidth) / steps, y: scaleTop, width: scaleWidth / steps + 0.5, height: 8, fill: heatColour((i + 0.5) / steps), class: "scale-step" }));
  }
  [0, 25, 50, 75, 100].forEach((v) => {
    svg.append(s("text", { x: scaleLeft + (v / 100) * scaleWidth, y: scaleTop + 20, "text-anchor": "middle", class: "tick" }, `${v}%`));
  });
  const middle = top + (rowLabels.length * cell) / 2;
  svg.append(s("text", { x: left - 48, y: middle, "text-anchor": "middle", class: "label",
    transform: `rotate(-90 ${left - 48} ${middle})` }, rowTitle));
  return svg;
}
