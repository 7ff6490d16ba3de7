// A solver's explanation for a learner: its template with the values in force, as paragraphs
// with its summary and parameters.

import { h, prose } from "./dom.js";

/**
 * A solver's explanation with the values in force: its template quotes each parameter as
 * `{name}`, filled from `values` or the default (the served explanation has the defaults).
 */
export function explanationText(solver, values) {
  const template = solver.explanation_template;
  if (!template) return solver.explanation;
  const inForce = (name) => {
    const parameter = solver.parameters.find((p) => p.name === name);
    if (!parameter) return null;
    return values && values[name] !== undefined && values[name] !== "" ? String(values[name]) : String(parameter.default);
  };
  let unknown = false;
  const text = template.replace(/\{\{|\}\}|\{([a-z_]+)\}/g, (match, name) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    const value = inForce(name);
    unknown ||= value === null;
    return value ?? match;
  });
  return unknown ? solver.explanation : text;
}

/** A solver's explanation and parameters as elements. */
export function explanation(solver, values) {
  if (!solver) return [];
  return [
    h("h3", {}, solver.name),
    h("p", { class: "summary" }, solver.summary),
    ...explanationText(solver, values).split("\n\n").map((paragraph) => h("p", {}, prose(paragraph))),
    h("p", { class: "note" }, `One step is ${solver.unit}. ${solver.randomized ? "The seed fixes the run." : "It does not depend on the seed."}`),
    solver.parameters.length
      ? h("dl", { class: "parameters-doc" }, solver.parameters.flatMap((p) => [
        h("dt", {}, `${p.name} = ${values && values[p.name] !== undefined ? values[p.name] : p.default}`),
        h("dd", {}, `${p.doc} (${p.integer ? "whole, " : ""}${p.min} to ${p.max ?? "any"}, default ${p.default})`),
      ]))
      : null,
  ];
}
