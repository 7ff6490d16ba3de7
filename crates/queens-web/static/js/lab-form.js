// The Lab's form: the solvers, sizes, runs, seed and iteration cap of an experiment, and up to
// two swept parameters; what it says as a link's settings, and as a request body checked
// against the server's limits.

import { fill, h } from "./dom.js";
import { checkParameter, checkSeed, checkWhole, parseList } from "./squares.js";

/** The iteration cap, which a sweep may vary like a parameter (the original's MaxIterations). */
const MAX_ITERS = { name: "max_iters", doc: "the iteration cap of each run", min: 1, max: null, integer: true };

/** A parameter's range in words, its numbers grouped: "1 to 1,000,000,000", "0 to 1". */
function rangeWords({ min, max }) {
  const number = (x) => x.toLocaleString("en-US", { maximumFractionDigits: 6 });
  return `${number(min)} to ${max === null || max === undefined ? "any" : number(max)}`;
}

/** The experiment's form. */
export class LabForm {
  constructor({ limits, solvers, defaults }) {
    this.limits = limits;
    this.defaults = defaults;
    this.byName = new Map(solvers.map((s) => [s.name, s]));
    this.picks = h("fieldset", { id: "x-solvers", class: "picks wide" }, h("legend", {}, "Solvers"),
      solvers.filter((s) => s.counts !== "nothing").map((s) => h("label", { class: "pick" },
        h("input", { type: "checkbox", name: "lab-solver", value: s.name, onchange: () => this.updateChoices() }),
        h("span", {}, h("b", {}, s.name), h("small", {}, s.summary)))));
    this.sizesInput = h("input", { id: "x-sizes", type: "text", size: 14, inputmode: "numeric" });
    this.runsInput = h("input", { id: "x-runs", type: "text", size: 6, inputmode: "numeric" });
    this.seedInput = h("input", { id: "x-seed", type: "text", size: 6, inputmode: "numeric" });
    this.itersInput = h("input", { id: "x-iters", type: "text", size: 8, inputmode: "numeric", placeholder: "default" });
    // Said where it is seen, phones included: the cap does not reach a tree search.
    this.itersHint = h("p", { id: "x-iters-hint", class: "hint", hidden: true });
    this.sweeps = [0, 1].map((i) => ({
      select: h("select", { id: `x-sweep-${i}`, "aria-label": `swept parameter ${i + 1}` }),
      values: h("input", { id: `x-sweep-values-${i}`, type: "text", size: 28, placeholder: "values, e.g. 0.1, 0.2" }),
    }));
    this.elements = [
      this.picks,
      h("div", { class: "controls" },
        h("label", {}, "Sizes ", this.sizesInput),
        h("label", {}, "Runs ", this.runsInput),
        h("label", {}, "Seed ", this.seedInput),
        h("label", {}, "Max iterations ", this.itersInput)),
      this.itersHint,
      h("div", { class: "controls sweep" },
        h("span", {}, "Sweep"),
        this.sweeps.map((sweep) => h("span", { class: "sweep-pair" }, sweep.select, " ", sweep.values))),
    ];
  }

  chosenSolvers() {
    return [...this.picks.querySelectorAll("input:checked")].map((input) => this.byName.get(input.value));
  }

  /** The parameters every chosen solver takes (a sweep sets them on all), and the iteration cap. */
  sharedParameters() {
    const chosen = this.chosenSolvers();
    if (!chosen.length) return [];
    const shared = chosen[0].parameters.filter((p) => chosen.every((s) => s.parameters.some((q) => q.name === p.name)));
    return chosen.every((s) => s.counts === "iterations") ? [...shared, MAX_ITERS] : shared;
  }

  /** What follows from the chosen solvers: the iteration cap's hint and the sweepable parameters. */
  updateChoices() {
    this.updateItersHint();
    this.updateSweepChoices();
  }

  /** Shown only while a tree search is chosen, which counts nodes and is not capped. */
  updateItersHint() {
    const trees = this.chosenSolvers().filter((s) => s.counts === "nodes").map((s) => s.name);
    this.itersHint.hidden = !trees.length;
    this.itersHint.textContent = trees.length
      ? `Max iterations caps the local searches only: ${trees.join(", ")} ${trees.length === 1 ? "counts" : "count"} nodes, which it does not cap.`
      : "";
  }

  /** The swept-parameter lists: the parameters every chosen solver shares, a choice kept if still offered. */
  updateSweepChoices() {
    const shared = this.sharedParameters();
    for (const sweep of this.sweeps) {
      const current = sweep.select.value;
      fill(sweep.select, h("option", { value: "" }, "no parameter"),
        shared.map((p) => h("option", { value: p.name, title: p.doc }, `${p.name} (${rangeWords(p)})`)));
      sweep.select.value = shared.some((p) => p.name === current) ? current : "";
      sweep.select.disabled = !shared.length;
    }
  }

  /** Fills the form from a link's (or a preset part's) settings. */
  apply(settings) {
    const names = (settings.solvers || "").split(",");
    for (const input of this.picks.querySelectorAll("input")) input.checked = names.includes(input.value);
    this.sizesInput.value = settings.sizes || String(this.defaults.side);
    this.runsInput.value = settings.runs || String(this.defaults.runs);
    this.seedInput.value = settings.seed || String(this.defaults.seed);
    this.itersInput.value = settings.max_iters || "";
    this.updateChoices();
    const swept = Object.keys(settings).filter((k) => k.startsWith("sweep.")).slice(0, 2);
    this.sweeps.forEach((sweep, i) => {
      const name = swept[i] ? swept[i].slice(6) : "";
      sweep.select.value = [...sweep.select.options].some((o) => o.value === name) ? name : "";
      sweep.values.value = name ? settings[swept[i]] : "";
    });
  }

  /** The form as a link's settings. */
  settings() {
    const out = {
      solvers: this.chosenSolvers().map((s) => s.name).join(","),
      sizes: this.sizesInput.value.replace(/\s+/g, ""),
      runs: this.runsInput.value.trim(),
      seed: this.seedInput.value.trim(),
      max_iters: this.itersInput.value.trim(),
    };
    for (const sweep of this.sweeps) if (sweep.select.value) out[`sweep.${sweep.select.value}`] = sweep.values.value.replace(/\s+/g, "");
    return out;
  }

  /** The swept parameters' values, each parameter swept once. */
  sweep() {
    const sweep = {};
    for (const { select, values } of this.sweeps) {
      if (!select.value) continue;
      if (sweep[select.value]) throw new Error(`${select.value} is swept twice: choose two different parameters.`);
      const parameter = this.sharedParameters().find((p) => p.name === select.value);
      sweep[select.value] = parseList(values.value, (t) => checkParameter(parameter, t), `The values of ${select.value}`);
    }
    return sweep;
  }

  /** The request body of the form, every field checked against the server's limits. */
  body() {
    const { limits } = this;
    const chosen = this.chosenSolvers();
    if (!chosen.length) throw new Error("Choose at least one solver.");
    const sizes = parseList(this.sizesInput.value, (t) => checkWhole(t, 1, limits.experiment_max_n, "Each size"), "Sizes");
    const runs = checkWhole(this.runsInput.value, 1, limits.experiment_max_runs, "Runs");
    const request = { solvers: chosen.map((s) => s.name), sizes, runs, seed: Number(checkSeed(this.seedInput.value)) };
    if (!Number.isSafeInteger(request.seed)) throw new Error(`The Lab takes seeds up to ${Number.MAX_SAFE_INTEGER}.`);
    if (this.itersInput.value.trim()) request.max_iters = checkWhole(this.itersInput.value, 1, Number.MAX_SAFE_INTEGER, "Max iterations");
    const sweep = this.sweep();
    if (sweep.max_iters && request.max_iters) throw new Error("The iteration cap is swept: leave Max iterations empty.");
    if (Object.keys(sweep).length) request.sweep = sweep;
    const cells = chosen.length * sizes.length * Object.values(sweep).reduce((a, v) => a * v.length, 1);
    if (cells * runs > limits.experiment_max_runs) {
      throw new Error(`That is ${(cells * runs).toLocaleString()} runs in all; an experiment makes at most ${limits.experiment_max_runs.toLocaleString()}.`);
    }
    return request;
  }
}
