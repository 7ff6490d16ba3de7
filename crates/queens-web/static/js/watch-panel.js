// Watch's elements: the settings, the player's controls, the board with its narration and
// legend, and the counters and panels beside it. Building them is this module's one job; what
// they do is wired in watch.js, and what they show is drawn by watch-render.js.

import { createChallenge } from "./challenge.js";
import { PHONE, h } from "./dom.js";
import { createFoundList } from "./found.js";
import { createNarration } from "./narration.js";
import { createNeighbourhood } from "./neighbourhood.js";
import { createPopulationPanel } from "./population.js";
import { createRunChart } from "./run-chart.js";
import { createTreePanel } from "./tree.js";

const LEGEND = [
  ["q", "a queen"],
  ["q q-locked", "a locked queen (it never moves)"],
  ["q q-clash", "a queen under attack (red lines join the pairs)"],
  ["moved", "the queen the last step moved or placed, its lines shaded"],
  ["candidate", "the square a tree search tried, its row shaded"],
];

/** The run's settings: solver, board, queens, seed, the solver's parameters and the cap. */
function settingInputs(limits, solvers, defaults) {
  const maxN = limits.solve_max_n;
  return {
    solverSelect: h("select", { id: "w-solver" }, solvers.map((s) => h("option", { value: s.name, title: s.summary }, s.name))),
    nInput: h("input", { id: "w-n", type: "text", value: String(defaults.side), size: 7, title: `N for an N×N board, or R×C like 6x10 (each side 1 to ${maxN})` }),
    mInput: h("input", { id: "w-m", type: "text", inputmode: "numeric", size: 5, placeholder: "default", title: "Queens to place, locked ones included (default: one a row, or the shorter side)" }),
    seedInput: h("input", { id: "w-seed", type: "text", value: String(defaults.seed), inputmode: "numeric", size: 6 }),
    itersInput: h("input", { id: "w-iters", type: "text", inputmode: "numeric", placeholder: "default", size: 8 }),
    params: h("span", { id: "w-params", class: "parameters" }),
    settingsSummary: h("span", { class: "settings-summary" }),
  };
}

/** The counters of the step shown, one cell each. */
function counterCells() {
  return {
    step: h("td", { id: "w-step-count" }, "0"),
    iteration: h("td", { id: "w-iteration" }, "–"),
    score: h("td", { id: "w-score" }, "–"),
    queens: h("td", { id: "w-queens" }, "0"),
    pairs: h("td", { id: "w-pairs" }, "0"),
    solutions: h("td", { id: "w-solutions" }, "–"),
    state: h("td", { id: "w-state" }, "–"),
  };
}

/** The panels of the solvers' own state, and the run's chart, narration and explanation. */
function statePanels(limits, actions) {
  return {
    // The climbers' own state: the score of every move they weigh at this step.
    neighbourhood: createNeighbourhood({
      maxN: limits.neighbourhood_max_n,
      onChange: () => actions.render(),
      onReady: () => actions.render(),
      onError: (message) => actions.fail(message),
    }),
    // A tree search's own state: its search tree, the current path and what was pruned.
    treePanel: createTreePanel(),
    narration: createNarration(),
    chart: createRunChart(),
    // A population's own state: its chromosomes, and how a generation was bred.
    population: createPopulationPanel({ open: !matchMedia(PHONE).matches }),
  };
}

/** The settings, folded away on a phone so that the board and its counters fit one screen. */
function settingsBox(panel, actions) {
  return h("details", { id: "w-settings", class: "settings", open: !matchMedia(PHONE).matches },
    h("summary", {}, "Settings", panel.settingsSummary),
    h("div", { class: "controls" },
      h("label", {}, "Solver ", panel.solverSelect),
      h("label", {}, "Board ", panel.nInput),
      h("label", {}, "Queens ", panel.mInput),
      h("label", {}, "Seed ", panel.seedInput),
      panel.params,
      h("label", {}, "Max ", h("span", { class: "unit" }, "iterations"), " ", panel.itersInput),
      h("button", { id: "w-unlock", onclick: actions.unlock }, "Clear locked queens")));
}

/** Start, play, step back and forth, on to the next event, the end, and the pace. */
function playerControls(panel, actions) {
  return h("div", { class: "controls" },
    h("button", { id: "w-start", class: "primary", onclick: () => actions.start() }, "Start"),
    panel.playButton,
    // On a phone the step buttons are their arrows alone, so that the row holds "Next event".
    h("button", { id: "w-back", title: "One step back", "aria-label": "Step back", onclick: () => actions.move(-1) }, "◀", h("span", { class: "wide-only" }, " Step")),
    h("button", { id: "w-step", title: "One step forward", "aria-label": "Step forward", onclick: () => actions.move(1) }, h("span", { class: "wide-only" }, "Step "), "▶"),
    h("button", { id: "w-next-event", title: "On to the next backtrack, solution, stall, shake or restart", onclick: actions.nextEvent }, "Next event"),
    h("button", { id: "w-end", title: "To the end", onclick: actions.end }, "End"),
    h("span", { class: "speed" },
      h("button", { id: "w-slower", title: "Half as fast", onclick: () => actions.faster(false) }, "−"),
      panel.speedOut,
      h("button", { id: "w-faster", title: "Twice as fast", onclick: () => actions.faster(true) }, "+")));
}

/** Beside the board: the counters, what the score and marks mean, the panels, the code. */
function aside(panel) {
  const { counters } = panel;
  return h("aside", {},
    panel.hint,
    h("table", { class: "counters" },
      h("tr", {}, h("th", {}, "status"), h("td", {}, panel.status)),
      h("tr", {}, h("th", {}, "step"), counters.step),
      h("tr", {}, panel.unitCell, counters.iteration),
      h("tr", {}, h("th", {}, "score"), counters.score),
      h("tr", {}, h("th", {}, "queens"), counters.queens),
      h("tr", {}, h("th", {}, "attacking pairs"), counters.pairs),
      panel.solutionsRow,
      h("tr", {}, h("th", {}, "solver's state"), counters.state)),
    panel.scoreDoc,
    panel.stateLegend,
    panel.treePanel.element,
    panel.neighbourhood.element,
    panel.code,
    panel.narration.log,
    panel.chart.element, panel.about);
}

/**
 * Watch's elements. `actions` are what its buttons do: `start`, `togglePlay`, `move(delta)`,
 * `end`, `faster(up)`, `unlock`, `render`, `fail(message)`, `pick(square)` (a row of the
 * challenge table chosen) and `showFrame(k)` (a solution found chosen).
 */
export function createWatchPanel({ limits, solvers, defaults, actions }) {
  // The legend, with the blocked squares' entry shown while the position has some.
  const blockedEntry = h("li", { hidden: true }, h("span", { class: "swatch blocked" }), "a blocked square (no queen may stand there)");
  const panel = {
    ...settingInputs(limits, solvers, defaults),
    ...statePanels(limits, actions),
    counters: counterCells(),
    error: h("p", { id: "w-error", class: "error", hidden: true }),
    status: h("span", { id: "w-status" }, "idle"),
    timeline: h("input", { id: "w-timeline", type: "range", min: 0, max: 0, value: 0, "aria-label": "timeline" }),
    speedOut: h("output", { id: "w-speed-out" }),
    playButton: h("button", { id: "w-play", onclick: actions.togglePlay }, "Play"),
    unitCell: h("th", {}, "iterations"),
    scoreDoc: h("p", { id: "w-score-doc", class: "note score-doc" }),
    // What the solver's own marks on the board mean, for the solvers that draw them.
    stateLegend: h("p", { id: "w-state-legend", class: "note", hidden: true }),
    blockedEntry,
    // What to do before a run; gone once a run is recorded.
    hint: h("p", { id: "w-hint", class: "hint" }, "Before you start, click squares to lock queens there."),
    legend: h("ul", { class: "legend compact-legend" },
      LEGEND.map(([cls, text]) => h("li", {}, h("span", { class: `swatch ${cls}` }), text)), blockedEntry),
    code: h("ol", { id: "w-code", class: "pseudo-code", "aria-label": "the solver's pseudo-code, the lines of the step shown marked" }),
    about: h("div", { id: "w-about", class: "about" }),
    boardBox: h("div", { id: "w-board", class: "board" }),
    // The Queen's Challenge table, under the board when a tree search is chosen.
    challenge: createChallenge({ limits, solvers, side: defaults.side, onPick: actions.pick }),
    // The solutions a run found, once it found more than one.
    found: createFoundList({ onPick: actions.showFrame }),
  };
  // Solutions found so far, for the searches that can go on past their first.
  panel.solutionsRow = h("tr", { hidden: true }, h("th", {}, "solutions found"), panel.counters.solutions);
  panel.element = h("section", { id: "watch", class: "view", hidden: true },
    settingsBox(panel, actions),
    playerControls(panel, actions),
    h("div", { class: "timeline" }, panel.timeline),
    // Above the board, so that a sentence about the settings or a link is in the first screen.
    panel.error,
    h("div", { class: "layout reorder" },
      h("div", { class: "board-column" }, panel.boardBox, panel.narration.narration, panel.legend),
      aside(panel)),
    panel.found.element,
    panel.population.element,
    panel.challenge.element);
  return panel;
}
