// Race: two to four solvers side by side on the same board and seed, each with its board,
// counters and chart, played in step. The local-search family draws its random start from the
// seed the same way, so its members start from the same board: watch optimized hill climbing
// escape where plain hill climbing gets stuck. The lanes' charts share their axes, so that a run
// ten times longer is drawn ten times wider, and a finish table says who solved, at which step,
// in how many iterations or nodes. Boards are N×N or R×C with M queens, for the solvers whose
// shapes allow it. This module runs the race; race-lanes.js builds and draws the lanes.

import * as api from "./api.js";
import { PHONE, checked, h, say, sayWhenWide } from "./dom.js";
import { Player } from "./player.js";
import { createLane, finishTable, renderLanes } from "./race-lanes.js";
import { checkSeed, checkSolvers, checkWhole, parseSize, sizeParams } from "./squares.js";

export { LANE_COLOURS, finishOrder } from "./race-lanes.js";


/**
 * Why `racers` cannot run on `size` with `m` queens (one sentence), or null: a solver made for
 * N×N boards on an R×C board, or one that places a queen per row given another count.
 */
export function shapeProblem(racers, { rows, cols }, m) {
  if (rows !== cols) {
    const square = racers.filter((s) => s.shapes.boards === "square").map((s) => s.name);
    if (square.length) return `${square.join(", ")} ${square.length === 1 ? "runs" : "run"} on N×N boards only; on ${rows}×${cols} race the solvers for R×C boards.`;
  }
  if (m !== undefined) {
    const fixedCount = racers.filter((s) => s.shapes.queens !== "any" && m !== Math.min(rows, cols)).map((s) => s.name);
    if (fixedCount.length) return `${fixedCount.join(", ")} ${fixedCount.length === 1 ? "places" : "place"} ${Math.min(rows, cols)} queens on ${rows}×${cols}, not ${m}.`;
  }
  return null;
}

/** The board's part of a query or link: `n=8`, or `size=6x10` with `m`. */
function boardQuery(size, m) {
  return { ...sizeParams(size), ...(m === undefined ? {} : { m }) };
}

/** Race's settings: the solvers, the board, the queens and the seed. */
class RaceSettings {
  constructor({ limits, solvers, defaults }) {
    this.solvers = solvers;
    this.byName = new Map(solvers.map((s) => [s.name, s]));
    this.minSide = defaults.race_sides[0];
    this.maxSide = Math.min(limits.solve_max_n, defaults.race_sides[1]);
    this.picks = h("fieldset", { class: "picks" }, h("legend", {}, "Solvers (2 to 4)"),
      solvers.filter((s) => s.counts !== "nothing").map((s) => h("label", { title: s.summary },
        h("input", { type: "checkbox", name: "race-solver", value: s.name, checked: defaults.race_solvers.includes(s.name) }), ` ${s.name}`)));
    this.nInput = h("input", { id: "r-n", type: "text", value: String(defaults.side), size: 7, title: `N for an N×N board, or R×C like 6x10 (each side ${this.minSide} to ${this.maxSide})` });
    this.mInput = h("input", { id: "r-m", type: "text", inputmode: "numeric", size: 5, placeholder: "default", title: "Queens to place (default: one a row, or the shorter side)" });
    this.seedInput = h("input", { id: "r-seed", type: "text", value: String(defaults.seed), inputmode: "numeric", size: 6 });
    this.summary = h("span", { class: "settings-summary" });
    // The solvers, N and seed fold away on a phone, so that the lanes come into view.
    this.element = h("details", { id: "r-settings", class: "settings", open: !matchMedia(PHONE).matches },
      h("summary", {}, "Settings", this.summary),
      this.picks,
      h("div", { class: "controls" }, h("label", {}, "Board ", this.nInput), h("label", {}, "Queens ", this.mInput), h("label", {}, "Seed ", this.seedInput)));
    this.element.addEventListener("change", () => this.summarise());
    this.summarise();
  }

  chosen() {
    return [...this.picks.querySelectorAll("input:checked")].map((input) => this.byName.get(input.value));
  }

  summarise() {
    const { nInput, mInput } = this;
    const board = /x|×/i.test(nInput.value) ? `${nInput.value.trim()}${mInput.value.trim() ? `, ${mInput.value.trim()} queens` : ""}` : `N = ${nInput.value.trim()}`;
    this.summary.textContent = ` · ${this.chosen().map((s) => s.name).join(", ")}, ${board}, seed ${this.seedInput.value}`;
  }

  /**
   * The race's settings, checked: its solvers, board, queens and seed, or a sentence saying what
   * is wrong.
   */
  checked() {
    const racers = this.chosen();
    if (racers.length < 2 || racers.length > 4) throw new Error("Choose two to four solvers to race.");
    const size = parseSize(this.nInput.value, this.maxSide, this.minSide);
    const m = this.mInput.value.trim() ? checkWhole(this.mInput.value, 1, size.rows * size.cols, "Queens") : undefined;
    const problem = shapeProblem(racers, size, m);
    if (problem) throw new Error(problem);
    return { racers, size, m, seed: checkSeed(this.seedInput.value) };
  }

  /** Fills the settings from a link's; throws what is wrong with the link. */
  apply(settings) {
    const { solvers } = this;
    if (settings.solvers) {
      const names = checkSolvers(settings.solvers.split(","), solvers, solvers.filter((s) => s.counts !== "nothing"));
      for (const input of this.picks.querySelectorAll("input")) input.checked = names.includes(input.value);
    }
    if (settings.n && settings.size) throw new Error("The link gives both n and size: give one.");
    if (settings.n || settings.size) this.nInput.value = settings.size || settings.n;
    this.mInput.value = settings.m || "";
    if (settings.seed) this.seedInput.value = settings.seed;
    this.summarise();
    this.checked();
  }
}

/** The race: its lanes, played in step. */
class Race {
  constructor({ limits, solvers, defaults, pushSettings }) {
    this.pushSettings = pushSettings;
    this.form = new RaceSettings({ limits, solvers, defaults });
    this.player = new Player();
    this.state = { lanes: [], request: null, size: { rows: defaults.side, cols: defaults.side }, m: undefined, seed: String(defaults.seed), openAt: null };
    const { player } = this;
    this.error = h("p", { id: "r-error", class: "error", hidden: true });
    this.lanesBox = h("div", { id: "r-lanes", class: "lanes" });
    // Shown on a phone only (style.css), where two lanes fit across.
    this.lanesHint = h("p", { id: "r-lanes-hint", class: "lanes-hint", hidden: true });
    this.finishBox = h("div", { id: "r-finish", class: "table-box finish", hidden: true, tabindex: 0, role: "region", "aria-label": "the finish table" });
    this.timeline = h("input", { id: "r-timeline", type: "range", min: 0, max: 0, value: 0, "aria-label": "race timeline" });
    this.playButton = h("button", { id: "r-play", onclick: () => this.togglePlay() }, "Play");
    this.element = h("section", { id: "race", class: "view", hidden: true },
      h("p", { class: "lead" }, "Run solvers on the same board with the same seed and watch them side by side, step for step."),
      this.form.element,
      h("div", { class: "controls" },
        h("button", { id: "r-start", class: "primary", onclick: () => this.start() }, "Race"),
        this.playButton,
        h("button", { id: "r-back", onclick: () => { player.step(-1); this.paused(); } }, "◀ Step"),
        h("button", { id: "r-step", onclick: () => { player.step(1); this.paused(); } }, "Step ▶"),
        h("button", { id: "r-end", onclick: () => { player.seek(player.length); this.paused(); } }, "End")),
      h("div", { class: "timeline" }, this.timeline),
      this.error, this.lanesHint, this.lanesBox, this.finishBox);
    this.timeline.addEventListener("input", () => {
      player.seek(Number(this.timeline.value));
      this.paused();
    });
    let last = performance.now();
    const frame = (now) => {
      const seconds = Math.min(0.25, (now - last) / 1000);
      last = now;
      if (!this.element.hidden && player.tick(seconds)) this.render();
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  togglePlay() {
    if (!this.state.lanes.length) this.start();
    else if (this.player.toggle()) this.render();
    else this.paused();
  }

  /** The race's link at `extra` (its run and step). */
  link(extra) {
    const { state } = this;
    return { solvers: state.lanes.map((l) => l.solver.name).join(","), ...boardQuery(state.size, state.m), seed: state.seed, ...extra };
  }

  /** Draws a paused race and names its step in the URL, so that a link opens the race there. */
  paused() {
    this.render();
    if (this.state.lanes.length) this.pushSettings(this.link({ run: 1, step: this.player.position }), true);
  }

  /**
   * Starts the race. One started from a link replaces the link's history entry and, when the
   * link names a step (`state.openAt`), stops there; one started by the user is a new entry.
   */
  async start({ fromLink = false } = {}) {
    const settings = checked(this.error, () => this.form.checked());
    if (settings === undefined) return;
    const { state, player } = this;
    const { racers, size, m, seed } = settings;
    Object.assign(state, { size, m, seed });
    if (!fromLink) state.openAt = null;
    if (state.request) state.request.abort();
    const request = new AbortController();
    state.request = request;
    const lanes = racers.map((solver, i) => createLane(solver, size, i));
    state.lanes = lanes;
    this.pushSettings(this.link({ run: 1, step: state.openAt ?? undefined }), fromLink);
    this.lanesBox.replaceChildren(...lanes.map((l) => l.element));
    this.lanesHint.hidden = lanes.length <= 2;
    this.lanesHint.textContent = `Swipe the lanes sideways to see all ${lanes.length}: two fit across a phone.`;
    this.finishBox.hidden = true;
    player.seek(0);
    player.length = 0;
    player.playing = state.openAt === null;
    await Promise.all(lanes.map(async (l) => {
      try {
        await api.solve({ solver: l.solver.name, ...boardQuery(size, m), seed }, (event) => this.receive(lanes, l, event), request.signal);
      } catch (e) {
        if (e.name !== "AbortError") l.status.textContent = e instanceof api.Lost ? "stopped: the server stopped answering" : e.message;
      }
    }));
    if (lanes === state.lanes && lanes.every((l) => l.recording.finished)) {
      this.finishBox.replaceChildren(finishTable(lanes));
      this.finishBox.hidden = false;
      sayWhenWide(this.finishBox);
    }
  }

  /** One event of lane `l` of the race of `lanes`. */
  receive(lanes, l, event) {
    const { state, player } = this;
    l.recording.push(event);
    player.length = Math.max(...lanes.map((x) => x.recording.length));
    const waiting = state.openAt !== null && lanes === state.lanes;
    if (waiting && (player.length >= state.openAt || lanes.every((x) => x.recording.finished))) {
      player.seek(state.openAt);
      state.openAt = null;
      this.render();
    }
    if (event.type === "finished") {
      l.status.textContent = event.status;
      this.render();
    }
  }

  render() {
    const { player, state } = this;
    this.playButton.textContent = player.playing ? "Pause" : "Play";
    this.timeline.max = String(player.length);
    this.timeline.value = String(player.position);
    renderLanes(state.lanes, player.position, Math.max(state.size.rows, state.size.cols));
  }

  /** Shows the view with the settings of its URL. */
  show(settings) {
    let openAt = null;
    try {
      this.form.apply(settings);
      if (settings.step !== undefined) openAt = checkWhole(settings.step, 0, Number.MAX_SAFE_INTEGER, "The step");
      say(this.error, "");
    } catch (e) {
      say(this.error, e.message);
      return;
    }
    if (settings.run === "1" || openAt !== null) {
      this.state.openAt = openAt;
      this.start({ fromLink: true });
    }
  }
}

/** Race: its `element` and `show(settings)` of a link. */
export function createRace(options) {
  return new Race(options);
}
