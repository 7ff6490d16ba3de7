// Lab: the original experiments on the page. Pick solvers, sizes and runs, optionally sweep one
// or two parameters, and get the original study's figures: success rate by N, mean iterations
// by N, the p × q heat map of a two-parameter sweep and a score-per-iteration sample of one
// run, with the table and CSV and JSON downloads. Below it, exact counting with its progress.
// This module runs experiments and presets; lab-form.js keeps the form, lab-figures.js draws
// the results and counter.js counts.

import * as api from "./api.js";
import { createCounter } from "./counter.js";
import { cancellable, cancelledAfter, checked, h, say, sayWhenWide } from "./dom.js";
import { drawSample, experimentFigures, resultTable } from "./lab-figures.js";
import { LabForm } from "./lab-form.js";
import { labPresets, partSettings } from "./presets.js";
import { toCsv } from "./results.js";
import { checkSolvers } from "./squares.js";

/** Downloads `text` as a file named `name`. */
function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A preset part in a few words. */
function partSummary(part) {
  const capped = part["sweep.max_iters"] ? `, MaxIterations ${part["sweep.max_iters"].replaceAll(",", ", ")}` : "";
  return `N = ${part.sizes}, ${Number(part.runs).toLocaleString()} runs${capped}`;
}

/** The status line of a finished study. */
function doneText(requests, rows, stops, seconds) {
  if (stops.length) return `Stopped early (${stops[0]}): the table holds the runs that finished.`;
  const perCell = [...new Set(requests.map((r) => r.runs))].map((r) => r.toLocaleString()).join(" or ");
  const plural = requests.every((r) => r.runs === 1) ? "run" : "runs";
  return `${perCell} ${plural} per cell, ${rows.length} ${rows.length === 1 ? "cell" : "cells"}, in ${seconds} s.`;
}

/** The Lab's experiments, its presets and its counter. */
class Lab {
  constructor({ limits, solvers, defaults, presets, pushSettings }) {
    Object.assign(this, { limits, solvers, pushSettings });
    // The first experiment and the original's, as the server describes them.
    this.firstExperiment = partSettings(defaults.lab);
    this.presets = labPresets(presets);
    this.byName = new Map(solvers.map((s) => [s.name, s]));
    this.form = new LabForm({ limits, solvers, defaults });
    this.state = { rows: [], request: null, sweep: [], ran: false, countN: null, preset: null };
    this.count = createCounter(limits, (n) => {
      this.state.countN = n;
      pushSettings(this.settings(), true);
    });
    this.element = this.build();
    // Editing the form leaves the preset: what runs is then what the form says.
    for (const kind of ["input", "change"]) {
      this.element.addEventListener(kind, (event) => {
        if (!event.target.closest(".counter")) this.choosePreset(null);
      });
    }
    this.form.apply(this.firstExperiment);
  }

  build() {
    const state = this.state;
    this.runButton = h("button", { id: "x-run", class: "primary", onclick: () => this.run() }, "Run");
    this.cancelButton = h("button", { id: "x-cancel", hidden: true, onclick: () => state.request && state.request.abort() }, "Cancel");
    this.progress = h("progress", { id: "x-progress", value: 0, max: 1, hidden: true });
    this.status = h("p", { id: "x-status", "aria-live": "polite" });
    this.error = h("p", { id: "x-error", class: "error", hidden: true });
    this.charts = h("div", { id: "x-charts", class: "charts" });
    this.table = h("div", { id: "x-table", class: "table-box", tabindex: 0, role: "region", "aria-label": "results table" });
    this.downloads = h("p", { id: "x-downloads", class: "downloads", hidden: true },
      h("button", { id: "x-csv", onclick: () => download("experiment.csv", "text/csv", toCsv(state.rows)) }, "Download CSV"),
      h("button", { id: "x-json", onclick: () => download("experiment.json", "application/json", `${JSON.stringify({ rows: state.rows }, null, 2)}\n`) }, "Download JSON"));
    this.presetNote = h("p", { id: "x-preset", class: "note preset-note", hidden: true });
    return h("section", { id: "lab", class: "view", hidden: true },
      h("h2", {}, "Experiments"),
      h("p", { class: "lead" }, "Run each solver many times on each board size, each run with its own seed drawn from the master seed, and compare how often they succeed and how long they take."),
      h("p", { class: "presets" }, "The original's experiments: ", this.presets.map((preset, i) => [i ? ", " : "",
        h("button", { class: "link", dataset: { preset: preset.id }, title: preset.title, onclick: () => { this.choosePreset(preset); this.run(); } }, preset.name)]), "."),
      this.presetNote,
      ...this.form.elements,
      h("div", { class: "controls" }, this.runButton, this.cancelButton, this.progress),
      this.status, this.error, this.charts, this.downloads, this.table,
      this.count.element);
  }

  /** Shows `preset` (or none): its first part in the form, what the original found beside. */
  choosePreset(preset) {
    if (preset === this.state.preset) return;
    this.state.preset = preset;
    this.presetNote.hidden = !preset;
    if (!preset) return;
    this.form.apply(preset.parts[0]);
    const parts = preset.parts.length > 1
      ? ` It runs ${preset.parts.length} experiments, one after another: ${preset.parts.map(partSummary).join("; ")}.`
      : "";
    this.presetNote.textContent = `${preset.title}.${parts} ${preset.original}${preset.answer ? ` ${preset.answer}` : ""}`;
  }

  /** The view's settings, as its link keeps them: the preset, or the form. */
  settings() {
    const { state } = this;
    const out = state.preset ? { preset: state.preset.id } : this.form.settings();
    if (state.ran) out.run = 1;
    if (state.countN !== null) out.count = state.countN;
    return out;
  }

  /** The request bodies to run: the preset's parts, or the form's one experiment. */
  bodies() {
    const { preset } = this.state;
    if (!preset) return [this.form.body()];
    const requests = preset.parts.map((part) => {
      this.form.apply(part);
      return this.form.body();
    });
    this.form.apply(preset.parts[0]);
    return requests;
  }

  /** Runs the study (a preset's parts one after another); one started from a link replaces the link's history entry. */
  async run({ fromLink = false } = {}) {
    const requests = checked(this.error, () => this.bodies());
    if (requests === undefined) return;
    const { state, status } = this;
    state.ran = true;
    this.pushSettings(this.settings(), fromLink);
    state.sweep = [...new Set(requests.flatMap((request) => Object.keys(request.sweep || {})))];
    const begun = performance.now();
    const seen = { done: 0, of: null };
    this.seen = seen;
    const cancelled = (word) => cancelledAfter(seen.done, seen.of, "runs", begun,
      "An experiment's table and figures come when its runs have all finished.", word);
    const controls = { button: this.runButton, cancel: this.cancelButton, progress: this.progress, status, error: this.error, cancelled };
    await cancellable(state, controls, async (signal) => {
      status.textContent = "Starting…";
      const started = performance.now();
      const rows = [];
      const stops = [];
      for (const [i, request] of requests.entries()) {
        const part = requests.length > 1 ? `Experiment ${i + 1} of ${requests.length}: ` : "";
        await api.experiment(request, (event) => this.receive(event, part, rows, stops), signal);
        if (stops.length) break;
      }
      status.textContent = doneText(requests, rows, stops, ((performance.now() - started) / 1000).toFixed(1));
      this.show(rows, requests[0], signal);
    });
  }

  /** One event of an experiment's stream: progress, its rows, or its error. */
  receive(event, part, rows, stops) {
    if (event.type === "progress") {
      Object.assign(this.seen, { done: event.done, of: event.of });
      this.progress.max = Math.max(1, event.of);
      this.progress.value = event.done;
      this.status.textContent = `${part}${event.done.toLocaleString()} of ${event.of.toLocaleString()} runs finished…`;
    } else if (event.type === "finished") {
      rows.push(...event.rows);
      if (!event.complete) stops.push(event.stop_reason);
    } else if (event.type === "error") {
      throw new Error(api.sentence(event.error));
    }
  }

  /** The results: figures, downloads, the table and one run's scores. */
  show(rows, request, signal) {
    this.state.rows = rows;
    this.downloads.hidden = !rows.length;
    const figures = experimentFigures(rows, this.state.sweep, this.byName);
    const sample = h("div", { class: "chart-box sample" }, h("p", { class: "note" }, "Drawing one run's scores…"));
    figures.push(sample);
    this.charts.replaceChildren(...figures.map((f) => h("figure", {}, f)));
    this.table.replaceChildren(resultTable(rows, this.byName));
    sayWhenWide(this.table);
    drawSample(sample, request, this.byName, this.limits.solve_max_n, signal);
  }

  /** Shows the view with the settings of its URL. */
  open(settings) {
    const { state } = this;
    state.ran = false;
    state.countN = settings.count === undefined ? null : this.count.setN(settings.count);
    const preset = settings.preset === undefined ? null : this.presets.find((p) => p.id === settings.preset);
    if (settings.preset !== undefined && !preset) {
      this.choosePreset(null);
      say(this.error, `There is no preset '${settings.preset}': the presets are ${this.presets.map((p) => p.id).join(", ")}.`);
      return;
    }
    this.choosePreset(preset);
    if (!preset) this.form.apply(Object.keys(settings).length ? { ...this.firstExperiment, ...settings } : this.firstExperiment);
    const runnable = this.solvers.filter((s) => s.counts !== "nothing");
    const valid = checked(this.error, () => {
      if (!preset) checkSolvers((settings.solvers || "").split(",").filter(Boolean), this.solvers, runnable);
      return this.bodies();
    });
    if (valid === undefined) return;
    if (settings.run === "1") this.run({ fromLink: true });
  }
}

/** The Lab: its `element` and `show(settings)` of a link. */
export function createLab(options) {
  const lab = new Lab(options);
  return { element: lab.element, show: (settings) => lab.open(settings) };
}
