// Race: two to four solvers side by side on the same board and seed, each with its board,
// counters and chart, played in step. The local-search family draws its random start from the
// seed the same way, so its members start from the same board: watch optimized hill climbing
// escape where plain hill climbing gets stuck.

import * as api from "./api.js";
import { Board } from "./board.js";
import { colour, lineChart } from "./charts.js";
import { h, say } from "./dom.js";
import { Player } from "./player.js";
import { Recording, frameModel, thin } from "./replay.js";
import { checkSeed, checkWhole } from "./squares.js";
import { unitLabel } from "./watch.js";

const DEFAULT = ["hill-climbing", "optimized-hill-climbing"];

export function createRace({ limits, solvers, pushSettings }) {
  const byName = new Map(solvers.map((s) => [s.name, s]));
  const maxN = Math.min(limits.solve_max_n, 64);
  const picks = h("fieldset", { class: "picks" }, h("legend", {}, "Solvers (2 to 4)"),
    solvers.filter((s) => s.counts !== "nothing").map((s) => h("label", { title: s.summary },
      h("input", { type: "checkbox", name: "race-solver", value: s.name, checked: DEFAULT.includes(s.name) }), ` ${s.name}`)));
  const nInput = h("input", { id: "r-n", type: "number", min: 4, max: maxN, value: 8, inputmode: "numeric" });
  const seedInput = h("input", { id: "r-seed", type: "text", value: "1", inputmode: "numeric", size: 6 });
  const error = h("p", { id: "r-error", class: "error", hidden: true });
  const lanesBox = h("div", { id: "r-lanes", class: "lanes" });
  const timeline = h("input", { id: "r-timeline", type: "range", min: 0, max: 0, value: 0, "aria-label": "race timeline" });
  const playButton = h("button", { id: "r-play", onclick: () => { player.playing = !player.playing; render(); } }, "Play");
  const player = new Player();
  const state = { lanes: [], request: null, n: 8 };

  const element = h("section", { id: "race", class: "view", hidden: true },
    h("p", { class: "lead" }, "Run solvers on the same board with the same seed and watch them side by side, step for step."),
    picks,
    h("div", { class: "controls" },
      h("label", {}, "N ", nInput),
      h("label", {}, "Seed ", seedInput),
      h("button", { id: "r-start", class: "primary", onclick: start }, "Race"),
      playButton,
      h("button", { id: "r-back", onclick: () => { player.step(-1); render(); } }, "◀ Step"),
      h("button", { id: "r-step", onclick: () => { player.step(1); render(); } }, "Step ▶"),
      h("button", { id: "r-end", onclick: () => { player.seek(player.length); render(); } }, "End")),
    h("div", { class: "timeline" }, timeline),
    error, lanesBox);

  timeline.addEventListener("input", () => {
    player.seek(Number(timeline.value));
    render();
  });

  function chosen() {
    return [...picks.querySelectorAll("input:checked")].map((input) => byName.get(input.value));
  }

  async function start() {
    let n;
    let seed;
    const racers = chosen();
    try {
      if (racers.length < 2 || racers.length > 4) throw new Error("Choose two to four solvers to race.");
      n = checkWhole(nInput.value, 4, maxN, "N");
      seed = checkSeed(seedInput.value);
    } catch (e) {
      say(error, e.message);
      return;
    }
    say(error, "");
    state.n = n;
    pushSettings({ solvers: racers.map((s) => s.name).join(","), n, seed }, false);
    if (state.request) state.request.abort();
    const request = new AbortController();
    state.request = request;
    state.lanes = racers.map((solver, i) => lane(solver, n, i));
    lanesBox.replaceChildren(...state.lanes.map((l) => l.element));
    player.seek(0);
    player.length = 0;
    player.playing = true;
    await Promise.all(state.lanes.map(async (l) => {
      try {
        await api.solve({ solver: l.solver.name, n, seed }, (event) => {
          l.recording.push(event);
          player.length = Math.max(...state.lanes.map((x) => x.recording.length));
          if (event.type === "finished") {
            l.status.textContent = event.status;
            render();
          }
        }, request.signal);
      } catch (e) {
        if (e.name !== "AbortError") l.status.textContent = e.message;
      }
    }));
  }

  function lane(solver, n, index) {
    const boardBox = h("div", { class: "board small" });
    const status = h("span", { class: "lane-status" }, "running");
    const counts = h("p", { class: "lane-counts" });
    const chart = h("div", { class: "chart-box" });
    const element = h("div", { class: "lane", dataset: { solver: solver.name } },
      h("h3", { style: { color: colour(index) } }, solver.name, " ", status),
      h("p", { class: "summary" }, solver.summary),
      boardBox, counts, chart);
    return {
      solver, element, status, counts, chart,
      recording: new Recording(),
      board: new Board(boardBox, { n, label: `${solver.name} on ${n}×${n}` }),
    };
  }

  function render() {
    playButton.textContent = player.playing ? "Pause" : "Play";
    timeline.max = String(player.length);
    timeline.value = String(player.position);
    for (const l of state.lanes) {
      if (!l.recording.start) continue;
      const k = Math.min(player.position, l.recording.length);
      const model = frameModel(l.recording, k, state.n);
      l.board.render(model);
      const c = model.counters;
      const ended = l.recording.done && k >= l.recording.length;
      l.counts.textContent = `step ${c.step.toLocaleString()} of ${c.steps.toLocaleString()} · ${c.iteration.toLocaleString()} ${unitLabel(l.solver)} · ${c.pairs} attacking pair${c.pairs === 1 ? "" : "s"}${ended ? ` · ${l.recording.finished.status}` : ""}`;
      const points = thin(l.recording.scores(), 300);
      l.chart.replaceChildren(lineChart({
        series: [{ name: l.solver.name, points }],
        xLabel: unitLabel(l.solver),
        yLabel: "score",
        cursor: c.iteration,
        width: 300,
        height: 150,
        legend: false,
      }));
    }
  }

  let last = performance.now();
  function frame(now) {
    const seconds = Math.min(0.25, (now - last) / 1000);
    last = now;
    if (!element.hidden && player.tick(seconds)) render();
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  return {
    element,
    show(settings) {
      if (settings.solvers) {
        const names = settings.solvers.split(",");
        for (const input of picks.querySelectorAll("input")) input.checked = names.includes(input.value);
      }
      if (settings.n) nInput.value = settings.n;
      if (settings.seed) seedInput.value = settings.seed;
    },
  };
}
