import assert from "node:assert/strict";
import { test } from "node:test";

import { explanationText } from "../../static/js/explain.js";

const solver = {
  explanation: "shakes `q` = 2 queens with `p` = 0.23 ({braces})",
  explanation_template: "shakes `q` = {q} queens with `p` = {p} ({{braces}})",
  parameters: [{ name: "p", default: 0.23 }, { name: "q", default: 2 }],
};

test("an explanation quotes the values set, and the defaults for the rest", () => {
  assert.equal(explanationText(solver, { q: "5" }), "shakes `q` = 5 queens with `p` = 0.23 ({braces})");
  assert.equal(explanationText(solver, {}), solver.explanation);
  assert.equal(explanationText(solver, undefined), solver.explanation);
});

test("closing braces are literal before a quoted parameter too, as the workbench reads them", () => {
  const braces = { ...solver, explanation_template: "a set {{x}} of {q}" };
  assert.equal(explanationText(braces, { q: "40" }), "a set {x} of 40");
});

test("a template quoting no parameter falls back on the served explanation", () => {
  const broken = { ...solver, explanation_template: "uses {r}" };
  assert.equal(explanationText(broken, { q: 3 }), solver.explanation);
  assert.equal(explanationText({ ...solver, explanation_template: undefined }, { q: 3 }), solver.explanation);
});
