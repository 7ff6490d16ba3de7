// Drawing Watch: the step the player shows, on the board, in the counters, the pseudo-code,
// the narration and the solver's own panels; before a run, the locked queens alone.

import { frameModel, moments, solverState, unitLabel } from "./replay.js";
import { blockedClass, squareName } from "./squares.js";

/** The page's pace, in steps a second. */
export function speedText(rate) {
  return `${rate >= 10 ? Math.round(rate) : rate.toFixed(1)} steps/s`;
}

/** The settings' one-line summary, the challenge table's visibility and the player's controls. */
function renderChrome(panel, state, player, challengeNames) {
  panel.blockedEntry.hidden = state.blocked.length === 0;
  panel.hint.hidden = Boolean(state.recording);
  const square = state.rows === state.cols;
  const lockedName = state.locked.length === 1 ? squareName(state.locked[0], state.n) : null;
  panel.challenge.show(state.n, lockedName, square && challengeNames.has(state.solver.name));
  const queens = panel.mInput.value.trim();
  const shape = square ? `N = ${state.n}` : `${state.rows}×${state.cols}${queens ? `, ${queens} queens` : ""}`;
  const locked = state.locked.length ? `, ${state.locked.length} locked` : "";
  const summary = ` · ${state.solver.name}, ${shape}, seed ${panel.seedInput.value.trim()}${locked}`;
  if (panel.settingsSummary.textContent !== summary) panel.settingsSummary.textContent = summary;
  panel.playButton.textContent = player.playing ? "Pause" : "Play";
  panel.speedOut.textContent = speedText(player.rate);
  panel.timeline.max = String(player.length);
  panel.timeline.value = String(player.position);
}

/** Before a run (or before its first step arrives): the locked queens and empty counters. */
function renderIdle(panel, state) {
  state.board.render({ queens: state.locked.map((q) => ({ ...q, kind: "locked" })), cellClass: blockedClass(state.blocked) });
  const { counters } = panel;
  counters.step.textContent = "0";
  counters.iteration.textContent = "–";
  counters.score.textContent = "–";
  counters.queens.textContent = String(state.locked.length);
  counters.pairs.textContent = "0";
  counters.solutions.textContent = "–";
  counters.state.textContent = "–";
  panel.narration.say(state.recording ? "Starting…" : "Press Start to run the solver; each step is drawn and told here.");
  panel.population.show(null);
  panel.found.show(null);
}

/** Marks the pseudo-code's lines of the step's moments. */
function markCode(code, now) {
  for (const item of code.children) {
    const on = now.has(item.dataset.moment);
    if (on && !item.hasAttribute("aria-current")) item.setAttribute("aria-current", "step");
    else if (!on) item.removeAttribute("aria-current");
  }
}

/** Step `k` of the run: board, narration, code, counters and the solver's own panels. */
function renderStep(panel, state, player) {
  const { recording } = state;
  const k = player.position;
  const model = frameModel(recording, k, state.n);
  panel.neighbourhood.shade(model, state.n);
  state.board.render({ ...model, cellClass: blockedClass(state.blocked, model.cellClass) });
  panel.narration.tell(recording, k, state.n);
  markCode(panel.code, moments(recording, k));
  const c = model.counters;
  const { counters } = panel;
  // Past the first sample the page's steps are fewer than the solver's: said where both are read.
  const sampled = recording.sampledFrom !== null && k >= recording.sampledFrom
    ? `; from step ${recording.sampledFrom.toLocaleString()} each is a sample of many, the ${unitLabel(state.solver)} all counted`
    : "";
  counters.step.textContent = `${c.step.toLocaleString()} of ${c.steps.toLocaleString()}${recording.done ? "" : "…"}${sampled}`;
  counters.iteration.textContent = c.iteration.toLocaleString();
  counters.score.textContent = c.score === null ? "–" : c.score.toLocaleString();
  counters.queens.textContent = String(c.queens);
  counters.pairs.textContent = String(c.pairs);
  // Once a run that counts them has ended, the solutions found so far of all it found; a run
  // stopped before its end gives no "of".
  const all = recording.finished?.status === "stopped" ? null : recording.finished?.solutions;
  counters.solutions.textContent = `${c.solutions.toLocaleString()}${all !== undefined && all !== null ? ` of ${all.toLocaleString()}` : ""}`;
  counters.state.textContent = solverState(recording, k) || "–";
  const marksMean = state.solver.marks || "";
  panel.stateLegend.hidden = !marksMean;
  panel.stateLegend.textContent = marksMean;
  panel.treePanel.show(recording, k, state);
  panel.population.show(recording, k, { rows: state.rows, cols: state.cols });
  // Solutions are told apart by the board's turns and mirrors that keep the problem.
  panel.found.show(recording, k, { rows: state.rows, cols: state.cols, locked: state.locked, blocked: state.blocked });
  panel.chart.draw(recording, state.solver, c.iteration, player.playing);
}

/** Draws Watch as it stands: `state`'s run at the player's step. */
export function renderWatch(panel, state, player, challengeNames) {
  renderChrome(panel, state, player, challengeNames);
  if (!state.recording || !state.recording.start) renderIdle(panel, state);
  else renderStep(panel, state, player);
}
