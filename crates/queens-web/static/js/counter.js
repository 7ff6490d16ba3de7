// The exact counter on the page: all and unique solutions of one N, counted by the server on
// every core, with its progress, a Cancel button and the partial count of a stopped run.

import * as api from "./api.js";
import { cancellable, cancelledAfter, checked, h } from "./dom.js";
import { checkWhole } from "./squares.js";

/** Exact counting: all and unique solutions of one N, with the server's progress. */
export function createCounter(limits, onCount) {
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
    const started = performance.now();
    const done = { parts: 0, of: null };
    const cancelled = (word) => cancelledAfter(done.parts, done.of, "subproblems", started,
      `A count gives its totals once every subproblem is counted; the command line's queens count ${n} --checkpoint FILE keeps the subproblems done and resumes.`, word);
    const controls = { button, cancel, progress, status: result, error, cancelled };
    await cancellable(state, controls, async (signal) => {
      result.textContent = `Counting N = ${n}…`;
      await api.count(n, (event) => {
        if (event.type === "progress") {
          updates += 1;
          Object.assign(done, { parts: event.done, of: event.of });
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
