// Race: two to four solvers side by side on the same board and seed, each with its board,
// counters and chart, played in step. The local-search family draws its random start from the
// seed the same way, so its members start from the same board: watch optimized hill climbing
// escape where plain hill climbing gets stuck.

import * as api from "./api.js";
import { Board } from "./board.js";
import { colour, lineChart } from "./charts.js";
import { PHONE, h, say } from "./dom.js";
import { Player } from "./player.js";
import { Recording, frameModel, narrate, thin } from "./replay.js";
import { checkSeed, checkSolvers, checkWhole } from "./squares.js";
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
  const playButton = h("button", { id: "r-play", onclick: togglePlay }, "Play");
  const player = new Player();
  const state = { lanes: [], request: null, n: 8, seed: "1", openAt: null };

  const settingsSummary = h("span", { class: "settings-summary" });
  // The solvers, N and seed fold away on a phone, so that the lanes come into view.
  const settingsBox = h("details", { id: "r-settings", class: "settings", open: !matchMedia(PHONE).matches },
    h("summary", {}, "Settings", settingsSummary),
    picks,
    h("div", { class: "controls" }, h("label", {}, "N ", nInput), h("label", {}, "Seed ", seedInput)));
  const summarise = () => {
    settingsSummary.textContent = ` · ${chosen().map((s) => s.name).join(", ")}, N = ${nInput.value}, seed ${seedInput.value}`;
  };
  settingsBox.addEventListener("change", summarise);
  summarise();

  const element = h("section", { id: "race", class: "view", hidden: true },
    h("p", { class: "lead" }, "Run solvers on the same board with the same seed and watch them side by side, step for step."),
    settingsBox,
    h("div", { class: "controls" },
      h("button", { id: "r-start", class: "primary", onclick: () => start() }, "Race"),
      playButton,
      h("button", { id: "r-back", onclick: () => { player.step(-1); paused(); } }, "◀ Step"),
      h("button", { id: "r-step", onclick: () => { player.step(1); paused(); } }, "Step ▶"),
      h("button", { id: "r-end", onclick: () => { player.seek(player.length); paused(); } }, "End")),
    h("div", { class: "timeline" }, timeline),
    error, lanesBox);

  timeline.addEventListener("input", () => {
    player.seek(Number(timeline.value));
    paused();
  });

  function chosen() {
    return [...picks.querySelectorAll("input:checked")].map((input) => byName.get(input.value));
  }

  /** The race's settings, checked: its solvers, N and seed, or a sentence saying what is wrong. */
  function checked() {
    const racers = chosen();
    if (racers.length < 2 || racers.length > 4) throw new Error("Choose two to four solvers to race.");
    return { racers, n: checkWhole(nInput.value, 4, maxN, "N"), seed: checkSeed(seedInput.value) };
  }

  function togglePlay() {
    if (!state.lanes.length) {
      start();
      return;
    }
    if (player.toggle()) render();
    else paused();
  }

  /** Draws a paused race and names its step in the URL, so that a link opens the race there. */
  function paused() {
    render();
    if (state.lanes.length) {
      pushSettings({ solvers: state.lanes.map((l) => l.solver.name).join(","), n: state.n, seed: state.seed, run: 1, step: player.position }, true);
    }
  }

  /**
   * Starts the race. One started from a link replaces the link's history entry and, when the
   * link names a step (`state.openAt`), stops there; one started by the user is a new entry.
   */
  async function start({ fromLink = false } = {}) {
    let racers;
    let n;
    let seed;
    try {
      ({ racers, n, seed } = checked());
    } catch (e) {
      say(error, e.message);
      return;
    }
    say(error, "");
    state.n = n;
    state.seed = seed;
    if (!fromLink) state.openAt = null;
    pushSettings({ solvers: racers.map((s) => s.name).join(","), n, seed, run: 1, step: state.openAt ?? undefined }, fromLink);
    if (state.request) state.request.abort();
    const request = new AbortController();
    state.request = request;
    state.lanes = racers.map((solver, i) => lane(solver, n, i));
    lanesBox.replaceChildren(...state.lanes.map((l) => l.element));
    player.seek(0);
    player.length = 0;
    player.playing = state.openAt === null;
    const lanes = state.lanes;
    await Promise.all(lanes.map(async (l) => {
      try {
        await api.solve({ solver: l.solver.name, n, seed }, (event) => {
          l.recording.push(event);
          player.length = Math.max(...lanes.map((x) => x.recording.length));
          const waiting = state.openAt !== null && lanes === state.lanes;
          if (waiting && (player.length >= state.openAt || lanes.every((x) => x.recording.finished))) {
            player.seek(state.openAt);
            state.openAt = null;
            render();
          }
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
    const told = h("p", { class: "lane-narration" });
    const chart = h("div", { class: "chart-box" });
    const element = h("div", { class: "lane", dataset: { solver: solver.name } },
      h("h3", { style: { color: colour(index) } }, solver.name, " ", status),
      h("p", { class: "summary" }, solver.summary),
      boardBox, told, counts, chart);
    return {
      solver, element, status, counts, chart, told,
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
      l.told.textContent = narrate(l.recording, k, state.n);
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
      let openAt = null;
      try {
        if (settings.solvers) {
          const names = checkSolvers(settings.solvers.split(","), solvers, solvers.filter((s) => s.counts !== "nothing"));
          for (const input of picks.querySelectorAll("input")) input.checked = names.includes(input.value);
        }
        if (settings.n) nInput.value = settings.n;
        if (settings.seed) seedInput.value = settings.seed;
        summarise();
        checked();
        if (settings.step !== undefined) openAt = checkWhole(settings.step, 0, Number.MAX_SAFE_INTEGER, "The step");
        say(error, "");
      } catch (e) {
        say(error, e.message);
        return;
      }
      if (settings.run === "1" || openAt !== null) {
        state.openAt = openAt;
        start({ fromLink: true });
      }
    },
  };
}
