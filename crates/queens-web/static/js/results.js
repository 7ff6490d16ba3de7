// An experiment's rows (`queens experiment --json`) as the original studies' figures and as
// files: success rate and mean iterations by N (a line per solver and swept setting), the grid
// of a two-parameter sweep, CSV. Pure: tested with Node.

import { wilson } from "./charts.js";

/** The label of a row's swept values: `p = 0.2, q = 3`, or "" without a sweep. */
export function settingLabel(params) {
  return Object.entries(params || {}).map(([k, v]) => `${k} = ${v}`).join(", ");
}

/** The name of a row's line: the solver, and its swept values if any. */
export function lineName(row) {
  const setting = settingLabel(row.params);
  return setting ? `${row.solver} (${setting})` : row.solver;
}

/**
 * One series per line name, of `[n, value(row)]` (or `[n, y, low, high]` when `value` gives an
 * array), skipping rows where `value` is null.
 */
export function seriesByN(rows, value) {
  const lines = new Map();
  for (const row of rows) {
    const name = lineName(row);
    if (!lines.has(name)) lines.set(name, []);
    const v = value(row);
    if (v !== null && v !== undefined) lines.get(name).push([row.n, ...[v].flat()]);
  }
  return [...lines].map(([name, points]) => ({ name, points: points.sort((a, b) => a[0] - b[0]) }));
}

/** A row's success rate in percent with its 95 % Wilson interval: `[rate, low, high]`. */
export function successWithInterval(row) {
  const [low, high] = wilson(row.solved, row.runs);
  return [row.success_rate * 100, low * 100, high * 100];
}

/** Success rate in percent by N, each point with its 95 % interval. */
export const successByN = (rows) => seriesByN(rows, successWithInterval);

/** Mean iterations (or nodes) of the successful runs by N. */
export const iterationsByN = (rows) => seriesByN(rows, (r) => r.mean_iterations);

/**
 * The grids of a two-parameter sweep: one per solver and N, `values[i][j]` the success rate at
 * the i-th value of `rowParam` and the j-th of `colParam` (null where no row exists). Each grid
 * has its own values, so that studies whose sizes sweep different values share no empty rows.
 */
export function sweepGrids(rows, rowParam, colParam) {
  const groups = new Map();
  for (const row of rows) {
    const name = `${row.solver}, N = ${row.n}`;
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(row);
  }
  const values = (group, name) => [...new Set(group.map((r) => r.params[name]).filter((v) => v !== undefined))].sort((a, b) => a - b);
  return [...groups].map(([title, group]) => {
    const rowValues = values(group, rowParam);
    const colValues = values(group, colParam);
    const grid = rowValues.map(() => colValues.map(() => null));
    for (const row of group) {
      const i = rowValues.indexOf(row.params[rowParam]);
      const j = colValues.indexOf(row.params[colParam]);
      if (i >= 0 && j >= 0) grid[i][j] = row.success_rate;
    }
    return { title, rowValues, colValues, values: grid };
  });
}

/** The swept parameters' names, in the rows' order. */
export function sweptParameters(rows) {
  const names = [];
  for (const row of rows) for (const name of Object.keys(row.params || {})) if (!names.includes(name)) names.push(name);
  return names;
}

function csvField(value) {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The rows as CSV, a column per swept parameter, the same columns as the `results.csv` of `queens experiment --out`. */
export function toCsv(rows) {
  const swept = sweptParameters(rows);
  const header = ["solver", "n", ...swept, "runs", "solved", "success_rate", "mean_iterations", "median_ms"];
  const lines = rows.map((r) => [r.solver, r.n, ...swept.map((p) => r.params[p]), r.runs, r.solved, r.success_rate,
    r.mean_iterations, r.median_ms].map(csvField).join(","));
  return `${[header.join(","), ...lines].join("\n")}\n`;
}
