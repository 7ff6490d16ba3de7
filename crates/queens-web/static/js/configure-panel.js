// Configure's elements: N, undo and redo, blocking, the heat map, "Solve this position", an
// instance to open, the board, and beside it the verdict, the summary, the reason and the
// legend. Building them is this module's one job; configure.js wires them.

import { h } from "./dom.js";

const LEGEND = [
  ["q", "a queen you placed"],
  ["forced", "forced: in every completion, placed for you"],
  ["open", "open: in some completion"],
  ["attacked", "attacked by a queen"],
  ["dead", "dead: in no completion"],
  ["blocked", "blocked: no queen may stand here"],
  ["unknown", "unknown: not decided in time"],
];

/** The marks of a square's reason, when one is explained. */
const REASON_LEGEND = [
  ["hl-self", "the square explained"],
  ["hl-line", "the line its reason is about"],
  ["hl-source", "what makes it so: a queen or a blocked square"],
  ["hl-chain", "the queens its reason places in turn"],
];

/** What a square does when chosen, told the way the device chooses it. */
function firstHint() {
  return matchMedia("(pointer: coarse)").matches
    ? "Tap a square to see what it can still be, tap it again to place a queen; tap a queen to remove it. With Block squares pressed, a tap blocks a square."
    : "Click a square to place a queen, a queen to remove it; Shift-click blocks a square. Point at a square to see what it can still be.";
}

/**
 * The controls above the board: N, undo, redo and reset, then the rest (blocking, the heat map,
 * "Solve this position", an instance), in one row on a wide screen and folded behind "More" on
 * a phone, so that the board and a tapped square's reason fit its first screen.
 */
function controls(panel, actions) {
  const row = h("div", { class: "controls folded" });
  const more = h("button", {
    id: "cfg-more", class: "phone-only", "aria-expanded": "false",
    onclick: () => more.setAttribute("aria-expanded", String(!row.classList.toggle("folded"))),
  }, "More: blocking, heat map, solve");
  row.append(
    h("label", {}, "N ", panel.nInput),
    panel.undo, panel.redo,
    h("button", { id: "cfg-reset", onclick: actions.reset }, "Reset"),
    more,
    ...[
      panel.blockMode,
      h("label", {}, panel.heat, " heat map of completions"),
      h("button", { id: "cfg-solve", class: "primary", onclick: actions.solve, title: "Watch a solver complete this position, the queens locked" }, "Solve this position"),
      h("details", { id: "cfg-instance-box", class: "instance" },
        h("summary", {}, "Open an instance"),
        h("p", { class: "note" }, "An n-Queens Completion instance: CSPLib 079 (excluded diagonals, or queens placed) or 080 (blocked squares), or a JSON problem."),
        h("label", {}, "File ", panel.instanceFile),
        h("label", {}, "first ", panel.diagonals, " diagonals")),
    ].map((control) => {
      control.classList.add("phone-fold");
      return control;
    }));
  return row;
}

/**
 * Configure's elements. `actions` are what its buttons do: `history(direction)`, `reset`,
 * `toggleBlocking`, `solve`.
 */
export function createConfigurePanel({ limits, defaults, actions }) {
  const panel = {
    nInput: h("input", { id: "cfg-n", type: "number", min: 1, max: limits.configure_max_n, value: defaults.side, inputmode: "numeric" }),
    heat: h("input", { id: "cfg-heat", type: "checkbox" }),
    heatNote: h("p", { class: "note", hidden: true }),
    boardBox: h("div", { id: "cfg-board", class: "board" }),
    indicator: h("p", { id: "cfg-solvable", class: "indicator maybe" }, "…"),
    summary: h("p", { id: "cfg-summary" }),
    // To the completions, each drawn, where they are few enough to list.
    listLink: h("a", { id: "cfg-list", hidden: true }),
    reason: h("p", { id: "cfg-reason", class: "reason", "aria-live": "polite" }, firstHint()),
    error: h("p", { id: "cfg-error", class: "error", hidden: true }),
    scale: h("div", { class: "heat-scale", hidden: true }, h("span", {}, "fewer"), h("i"), h("span", {}, "more completions")),
    undo: h("button", { id: "cfg-undo", title: "Undo (Ctrl+Z)", onclick: () => actions.history(-1) }, "Undo"),
    redo: h("button", { id: "cfg-redo", title: "Redo (Ctrl+Y)", onclick: () => actions.history(1) }, "Redo"),
    blockMode: h("button", {
      id: "cfg-block", "aria-pressed": "false", title: "While pressed, a click or tap blocks or unblocks a square (Shift-click does it any time)",
      onclick: actions.toggleBlocking,
    }, "Block squares"),
    instanceFile: h("input", { id: "cfg-instance", type: "file", accept: ".param,.json,.txt,text/plain,application/json" }),
    diagonals: h("input", { id: "cfg-diagonals", type: "number", min: 0, inputmode: "numeric", placeholder: "all" }),
  };
  panel.element = h("section", { id: "configure", class: "view", hidden: true },
    controls(panel, actions),
    // Above the board, so that a sentence about the position or a link is in the first screen.
    panel.error,
    h("div", { class: "layout" },
      panel.boardBox,
      h("aside", {},
        panel.indicator, panel.summary, panel.listLink, panel.reason, panel.heatNote,
        h("ul", { class: "legend" }, LEGEND.map(([cls, text]) => h("li", {}, h("span", { class: `swatch ${cls}` }), text))),
        h("ul", { id: "cfg-reason-legend", class: "legend", "aria-label": "the marks of a reason" },
          REASON_LEGEND.map(([cls, text]) => h("li", {}, h("span", { class: `swatch ${cls}` }), text))),
        panel.scale)));
  return panel;
}
