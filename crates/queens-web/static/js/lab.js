// Lab: the original experiments on the page. Pick solvers, sizes and runs, optionally sweep one
// or two parameters, and get the original study's figures: success rate by N, mean iterations
// by N, the p × q heat map of a two-parameter sweep and a score-per-iteration sample of one
// run, with the table and CSV and JSON downloads. Below it, exact counting with its progress.

import * as api from "./api.js";
import { heatMap, lineChart } from "./charts.js";
import { cancellable, checked, fill, h, say } from "./dom.js";
import { labPresets, partSettings } from "./presets.js";
import { Recording, thin } from "./replay.js";
import { iterationsByN, lineName, settingLabel, successByN, successWithInterval, sweepGrids, toCsv } from "./results.js";
import { checkParameter, checkSeed, checkSolvers, checkWhole, parseList } from "./squares.js";

/** The iteration cap, which a sweep may vary like a parameter (the original's MaxIterations). */
const MAX_ITERS = { name: "max_iters", doc: "the iteration cap of each run", min: 1, max: null, integer: true };


/** Downloads `text` as a file named `name`. */
function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function createLab({ limits, solvers, defaults, presets, pushSettings }) {
  // The first experiment and the original's, as the server describes them.
  const DEFAULT = partSettings(defaults.lab);
  const PRESETS = labPresets(presets);
  const byName = new Map(solvers.map((s) => [s.name, s]));
  const runnable = solvers.filter((s) => s.counts !== "nothing");
  const picks = h("fieldset", { id: "x-solvers", class: "picks wide" }, h("legend", {}, "Solvers"),
    runnable.map((s) => h("label", { class: "pick" },
      h("input", { type: "checkbox", name: "lab-solver", value: s.name, onchange: updateSweepChoices }),
      h("span", {}, h("b", {}, s.name), h("small", {}, s.summary)))));
  const sizesInput = h("input", { id: "x-sizes", type: "text", size: 14, inputmode: "numeric" });
  const runsInput = h("input", { id: "x-runs", type: "text", size: 6, inputmode: "numeric" });
  const seedInput = h("input", { id: "x-seed", type: "text", size: 6, inputmode: "numeric" });
  const itersInput = h("input", { id: "x-iters", type: "text", size: 8, inputmode: "numeric", placeholder: "default" });
  const sweeps = [0, 1].map((i) => ({
    select: h("select", { id: `x-sweep-${i}`, "aria-label": `swept parameter ${i + 1}` }),
    values: h("input", { id: `x-sweep-values-${i}`, type: "text", size: 16, placeholder: "values, e.g. 0.1, 0.2" }),
  }));
  const runButton = h("button", { id: "x-run", class: "primary", onclick: run }, "Run");
  const cancelButton = h("button", { id: "x-cancel", hidden: true, onclick: () => state.request && state.request.abort() }, "Cancel");
  const progress = h("progress", { id: "x-progress", value: 0, max: 1, hidden: true });
  const status = h("p", { id: "x-status", "aria-live": "polite" });
  const error = h("p", { id: "x-error", class: "error", hidden: true });
  const charts = h("div", { id: "x-charts", class: "charts" });
  const table = h("div", { id: "x-table", class: "table-box", tabindex: 0, role: "region", "aria-label": "results table" });
  const downloads = h("p", { id: "x-downloads", class: "downloads", hidden: true },
    h("button", { id: "x-csv", onclick: () => download("experiment.csv", "text/csv", toCsv(state.rows)) }, "Download CSV"),
    h("button", { id: "x-json", onclick: () => download("experiment.json", "application/json", `${JSON.stringify({ rows: state.rows }, null, 2)}\n`) }, "Download JSON"));
  const count = createCounter(limits, (n) => {
    state.countN = n;
    pushSettings(settings(), true);
  });
  const state = { rows: [], request: null, sweep: [], ran: false, countN: null, preset: null };
  const presetNote = h("p", { id: "x-preset", class: "note preset-note", hidden: true });

  const element = h("section", { id: "lab", class: "view", hidden: true },
    h("h2", {}, "Experiments"),
    h("p", { class: "lead" }, "Run each solver many times on each board size, each run with its own seed drawn from the master seed, and compare how often they succeed and how long they take."),
    h("p", { class: "presets" }, "The original's experiments: ", PRESETS.map((preset, i) => [i ? ", " : "",
      h("button", { class: "link", dataset: { preset: preset.id }, title: preset.title, onclick: () => { choosePreset(preset); run(); } }, preset.name)]), "."),
    presetNote,
    picks,
    h("div", { class: "controls" },
      h("label", {}, "Sizes ", sizesInput),
      h("label", {}, "Runs ", runsInput),
      h("label", {}, "Seed ", seedInput),
      h("label", {}, "Max iterations ", itersInput)),
    h("div", { class: "controls sweep" },
      h("span", {}, "Sweep"),
      sweeps.map((sweep) => h("span", { class: "sweep-pair" }, sweep.select, " ", sweep.values))),
    h("div", { class: "controls" }, runButton, cancelButton, progress),
    status, error, charts, downloads, table,
    count.element);

  // Editing the form leaves the preset: what runs is then what the form says.
  for (const kind of ["input", "change"]) {
    element.addEventListener(kind, (event) => {
      if (event.target.closest(".counter")) return;
      choosePreset(null);
    });
  }

  /** The parameters every chosen solver takes (a sweep sets them on all), and the iteration cap. */
  function sharedParameters() {
    const chosen = chosenSolvers();
    if (!chosen.length) return [];
    const shared = chosen[0].parameters.filter((p) => chosen.every((s) => s.parameters.some((q) => q.name === p.name)));
    return chosen.every((s) => s.counts === "iterations") ? [...shared, MAX_ITERS] : shared;
  }

  /** Shows `preset` (or none): its first part in the form, what the original found beside. */
  function choosePreset(preset) {
    if (preset === state.preset) return;
    state.preset = preset;
    presetNote.hidden = !preset;
    if (!preset) return;
    apply(preset.parts[0]);
    const parts = preset.parts.length > 1
      ? ` It runs ${preset.parts.length} experiments, one after another: ${preset.parts.map(partSummary).join("; ")}.`
      : "";
    presetNote.textContent = `${preset.title}.${parts} ${preset.original}${preset.answer ? ` ${preset.answer}` : ""}`;
  }

  function chosenSolvers() {
    return [...picks.querySelectorAll("input:checked")].map((input) => byName.get(input.value));
  }

  function updateSweepChoices() {
    const shared = sharedParameters();
    for (const sweep of sweeps) {
      const current = sweep.select.value;
      fill(sweep.select, h("option", { value: "" }, "no parameter"),
        shared.map((p) => h("option", { value: p.name, title: p.doc }, `${p.name} (${p.min} to ${p.max ?? "any"})`)));
      sweep.select.value = shared.some((p) => p.name === current) ? current : "";
      sweep.select.disabled = !shared.length;
    }
  }

  function apply(settings) {
    const names = (settings.solvers || "").split(",");
    for (const input of picks.querySelectorAll("input")) input.checked = names.includes(input.value);
    sizesInput.value = settings.sizes || "8";
    runsInput.value = settings.runs || "100";
    seedInput.value = settings.seed || "1";
    itersInput.value = settings.max_iters || "";
    updateSweepChoices();
    const swept = Object.keys(settings).filter((k) => k.startsWith("sweep.")).slice(0, 2);
    sweeps.forEach((sweep, i) => {
      const name = swept[i] ? swept[i].slice(6) : "";
      sweep.select.value = [...sweep.select.options].some((o) => o.value === name) ? name : "";
      sweep.values.value = name ? settings[swept[i]] : "";
    });
  }

  function settings() {
    if (state.preset) {
      const out = { preset: state.preset.id };
      if (state.ran) out.run = 1;
      if (state.countN !== null) out.count = state.countN;
      return out;
    }
    const out = {
      solvers: chosenSolvers().map((s) => s.name).join(","),
      sizes: sizesInput.value.replace(/\s+/g, ""),
      runs: runsInput.value.trim(),
      seed: seedInput.value.trim(),
      max_iters: itersInput.value.trim(),
    };
    for (const sweep of sweeps) if (sweep.select.value) out[`sweep.${sweep.select.value}`] = sweep.values.value.replace(/\s+/g, "");
    if (state.ran) out.run = 1;
    if (state.countN !== null) out.count = state.countN;
    return out;
  }

  /** The request body of the form, every field checked against the server's limits. */
  function body() {
    const chosen = chosenSolvers();
    if (!chosen.length) throw new Error("Choose at least one solver.");
    const sizes = parseList(sizesInput.value, (t) => checkWhole(t, 1, limits.experiment_max_n, "Each size"));
    const runs = checkWhole(runsInput.value, 1, limits.experiment_max_runs, "Runs");
    const request = { solvers: chosen.map((s) => s.name), sizes, runs, seed: Number(checkSeed(seedInput.value)) };
    if (!Number.isSafeInteger(request.seed)) throw new Error(`The Lab takes seeds up to ${Number.MAX_SAFE_INTEGER}.`);
    if (itersInput.value.trim()) request.max_iters = checkWhole(itersInput.value, 1, Number.MAX_SAFE_INTEGER, "Max iterations");
    const sweep = {};
    for (const { select, values } of sweeps) {
      if (!select.value) continue;
      if (sweep[select.value]) throw new Error(`${select.value} is swept twice: choose two different parameters.`);
      const parameter = sharedParameters().find((p) => p.name === select.value);
      sweep[select.value] = parseList(values.value, (t) => checkParameter(parameter, t));
    }
    if (sweep.max_iters && request.max_iters) throw new Error("The iteration cap is swept: leave Max iterations empty.");
    if (Object.keys(sweep).length) request.sweep = sweep;
    const cells = chosen.length * sizes.length * Object.values(sweep).reduce((a, v) => a * v.length, 1);
    if (cells * runs > limits.experiment_max_runs) {
      throw new Error(`That is ${(cells * runs).toLocaleString()} runs in all; an experiment makes at most ${limits.experiment_max_runs.toLocaleString()}.`);
    }
    return request;
  }

  /** The request bodies to run: the preset's parts, or the form's one experiment. */
  function bodies() {
    if (!state.preset) return [body()];
    const preset = state.preset;
    const requests = preset.parts.map((part) => {
      apply(part);
      return body();
    });
    apply(preset.parts[0]);
    return requests;
  }

  /** Runs the study (a preset's parts one after another); one started from a link replaces the link's history entry. */
  async function run({ fromLink = false } = {}) {
    const requests = checked(error, bodies);
    if (requests === undefined) return;
    state.ran = true;
    pushSettings(settings(), fromLink);
    state.sweep = [...new Set(requests.flatMap((request) => Object.keys(request.sweep || {})))];
    const controls = { button: runButton, cancel: cancelButton, progress, status, error };
    await cancellable(state, controls, async (signal) => {
      status.textContent = "Starting…";
      const started = performance.now();
      const rows = [];
      const stops = [];
      for (const [i, request] of requests.entries()) {
        const part = requests.length > 1 ? `Experiment ${i + 1} of ${requests.length}: ` : "";
        await api.experiment(request, (event) => {
          if (event.type === "progress") {
            progress.max = Math.max(1, event.of);
            progress.value = event.done;
            status.textContent = `${part}${event.done.toLocaleString()} of ${event.of.toLocaleString()} runs finished…`;
          } else if (event.type === "finished") {
            rows.push(...event.rows);
            if (!event.complete) stops.push(event.stop_reason);
          } else if (event.type === "error") {
            throw new Error(api.sentence(event.error));
          }
        }, signal);
        if (stops.length) break;
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const perCell = [...new Set(requests.map((r) => r.runs))].map((r) => r.toLocaleString()).join(" or ");
      const plural = requests.every((r) => r.runs === 1) ? "run" : "runs";
      status.textContent = stops.length
        ? `Stopped early (${stops[0]}): the table holds the runs that finished.`
        : `${perCell} ${plural} per cell, ${rows.length} ${rows.length === 1 ? "cell" : "cells"}, in ${seconds} s.`;
      show(rows, requests);
    });
  }

  /** A preset part in a few words. */
  function partSummary(part) {
    const capped = part["sweep.max_iters"] ? `, MaxIterations ${part["sweep.max_iters"].replaceAll(",", ", ")}` : "";
    return `N = ${part.sizes}, ${Number(part.runs).toLocaleString()} runs${capped}`;
  }

  function show(rows, requests) {
    const request = requests[0];
    state.rows = rows;
    downloads.hidden = !rows.length;
    const figures = [];
    const sizes = new Set(rows.map((r) => r.n));
    const unit = unitOf(rows.map((r) => r.solver));
    if (state.sweep.length === 2) {
      for (const grid of sweepGrids(rows, state.sweep[0], state.sweep[1])) {
        figures.push(heatMap({
          values: grid.values,
          rowLabels: grid.rowValues.map(String),
          colLabels: grid.colValues.map(String),
          rowTitle: state.sweep[0],
          colTitle: state.sweep[1],
          title: `Success rate (%): ${grid.title}`,
          width: 360,
        }));
      }
    }
    if (state.sweep.length === 1 && sizes.size === 1) {
      const name = state.sweep[0];
      const lines = new Map();
      for (const r of rows) {
        if (!lines.has(r.solver)) lines.set(r.solver, []);
        lines.get(r.solver).push([r.params[name], ...successWithInterval(r)]);
      }
      figures.push(lineChart({
        series: [...lines].map(([solver, points]) => ({ name: solver, points: points.sort((a, b) => a[0] - b[0]) })),
        xLabel: name, yLabel: "success rate (%)", title: `Success rate by ${name}, N = ${rows[0].n}, with 95 % intervals`, yRange: [0, 100],
      }));
    }
    if (state.sweep.length === 0 || (state.sweep.length === 1 && sizes.size > 1)) {
      figures.push(lineChart({ series: successByN(rows), xLabel: "N", yLabel: "success rate (%)", title: "Success rate by N, with 95 % intervals", yRange: [0, 100] }));
      figures.push(lineChart({ series: iterationsByN(rows), xLabel: "N", yLabel: `mean ${unit}`, title: `Mean ${unit} of the solved runs by N`, log: "auto" }));
    }
    const sample = h("div", { class: "chart-box sample" }, h("p", { class: "note" }, "Drawing one run's scores…"));
    figures.push(sample);
    charts.replaceChildren(...figures.map((f) => h("figure", {}, f)));
    table.replaceChildren(resultTable(rows));
    drawSample(sample, request);
  }

  /** What the solvers named count: "nodes", "iterations", or both. */
  function unitOf(names) {
    const units = new Set(names.map((name) => (byName.get(name).counts === "nodes" ? "nodes" : "iterations")));
    return units.size === 1 ? [...units][0] : "iterations or nodes";
  }

  /** The score of one run at every iteration: the first solver, the first size, the seed. */
  async function drawSample(box, request) {
    const solver = byName.get(request.solvers[0]);
    const n = Math.min(request.sizes[0], limits.solve_max_n);
    const query = { solver: solver.name, n, seed: request.seed };
    if (request.max_iters) query.max_iters = request.max_iters;
    for (const [name, values] of Object.entries(request.sweep || {})) query[name] = values[0];
    const recording = new Recording();
    try {
      await api.solve(query, (event) => recording.push(event), state.request ? state.request.signal : undefined);
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

  function resultTable(rows) {
    const percent = (v) => `${(v * 100).toFixed(1)}%`;
    const unit = unitOf(rows.map((r) => r.solver));
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

  apply(DEFAULT);

  return {
    element,
    /** Shows the view with the settings of its URL. */
    show(settings) {
      state.ran = false;
      state.countN = settings.count === undefined ? null : count.setN(settings.count);
      const preset = settings.preset === undefined ? null : PRESETS.find((p) => p.id === settings.preset);
      if (settings.preset !== undefined && !preset) {
        choosePreset(null);
        say(error, `There is no preset '${settings.preset}': the presets are ${PRESETS.map((p) => p.id).join(", ")}.`);
        return;
      }
      choosePreset(preset);
      if (!preset) apply(Object.keys(settings).length ? { ...DEFAULT, ...settings } : DEFAULT);
      const valid = checked(error, () => {
        if (!preset) checkSolvers((settings.solvers || "").split(",").filter(Boolean), solvers, runnable);
        return bodies();
      });
      if (valid === undefined) return;
      if (settings.run === "1") run({ fromLink: true });
    },
  };
}

/** Exact counting: all and unique solutions of one N, with the server's progress. */
function createCounter(limits, onCount) {
  const nInput = h("input", { id: "c-n", type: "text", size: 4, value: "12", inputmode: "numeric" });
  const button = h("button", { id: "c-run", class: "primary", onclick: start }, "Count");
  const cancel = h("button", { id: "c-cancel", hidden: true, onclick: () => state.request && state.request.abort() }, "Cancel");
  const progress = h("progress", { id: "c-progress", value: 0, max: 1, hidden: true });
  const result = h("p", { id: "c-result", "aria-live": "polite" });
  const error = h("p", { id: "c-error", class: "error", hidden: true });
  const state = { request: null };
  const element = h("div", { class: "counter" },
    h("h2", {}, "Count every solution"),
    h("p", { class: "lead" }, `Exact counts of all solutions and of unique ones (up to rotation and reflection), split into subproblems that run on every core of the server. This server counts up to N = ${limits.count_max_n}; the command line counts further.`),
    h("div", { class: "controls" }, h("label", {}, "N ", nInput), button, cancel, progress),
    error, result);

  async function start() {
    const n = checked(error, () => checkWhole(nInput.value, 1, limits.count_max_n, "N"));
    if (n === undefined) return;
    onCount(n);
    let updates = 0;
    const controls = { button, cancel, progress, status: result, error };
    await cancellable(state, controls, async (signal) => {
      result.textContent = `Counting N = ${n}…`;
      await api.count(n, (event) => {
        if (event.type === "progress") {
          updates += 1;
          progress.max = Math.max(1, event.of);
          progress.value = event.done;
          result.textContent = `Counting N = ${n}: ${event.done.toLocaleString()} of ${event.of.toLocaleString()} subproblems done…`;
        } else if (event.type === "finished") {
          const seconds = event.elapsed_ms / 1000;
          const time = seconds < 0.01 ? `${event.elapsed_ms.toFixed(2)} ms` : `${seconds.toFixed(2)} s`;
          result.textContent = `N = ${n}: ${event.total.toLocaleString()} solutions, ${event.unique.toLocaleString()} unique, counted in ${time}.`
            + (updates > 1 ? "" : " It finished too fast to show its progress.");
        } else if (event.type === "stopped") {
          result.textContent = `Stopped (${event.stop_reason}) after ${event.finished.toLocaleString()} of ${event.parts.toLocaleString()} subproblems: at least ${event.total.toLocaleString()} solutions.`;
        } else if (event.type === "error") {
          result.textContent = `The count failed: ${event.error}`;
        }
      }, signal);
    });
  }

  return {
    element,
    /** Puts a link's N in the box; returns it, checked, or null with the sentence shown. */
    setN(text) {
      nInput.value = text;
      return checked(error, () => checkWhole(text, 1, limits.count_max_n, "N")) ?? null;
    },
  };
}
