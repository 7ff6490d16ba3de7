// A recorded run as a notebook shows it: the page's own board, its replay of the events into
// frames, its player's pace, its narration of each step and its score chart, in one element
// that needs no server. Python's `solve(..., record=True)` embeds this module and the ones it
// imports in the run's HTML, so that the notebook and the page stay one implementation.

import { Board } from "./board.js";
import { lineChart } from "./charts.js";
import { h } from "./dom.js";
import { Player } from "./player.js";
import { Recording, frameModel, narrate, thin, unitLabel } from "./replay.js";

/**
 * Mounts a player of `events` (the run's event stream, `started` first) in `container`;
 * `solver` is the solver's descriptor, for the chart's axis. Returns the player's controls,
 * for tests: `{ seek(k), player, recording }`.
 */
export function mountReplay(container, events, solver = null) {
  const recording = new Recording();
  for (const event of events) recording.push(event);
  if (!recording.start) {
    container.replaceChildren(h("p", {}, "This run recorded no events."));
    return null;
  }
  const { rows, cols } = recording.start;
  // The longer side, as Watch takes it: what square names and the narration range over (the
  // rows alone named a 6×30 board's columns past z "{" and "|").
  const n = Math.max(rows, cols);
  const player = new Player();
  player.length = recording.frames.length;
  const boardBox = h("div", { class: "board" });
  const slider = h("input", { type: "range", min: 0, max: player.length, value: 0, step: 1, "aria-label": "step" });
  const play = h("button", { class: "primary", onclick: () => { player.toggle(); render(); } }, "Play");
  const back = h("button", { title: "One step back", onclick: () => { player.step(-1); render(); } }, "◀");
  const forward = h("button", { title: "One step on", onclick: () => { player.step(1); render(); } }, "▶");
  const slower = h("button", { title: "Slower", onclick: () => { player.faster(false); render(); } }, "−");
  const faster = h("button", { title: "Faster", onclick: () => { player.faster(true); render(); } }, "+");
  const speed = h("span", { class: "note" });
  const counter = h("span", { class: "note" });
  const narration = h("p", { class: "reason", "aria-live": "polite" });
  const chartBox = h("div", { class: "chart" });
  container.replaceChildren(
    h("div", { class: "controls" }, back, play, forward, slider, slower, speed, faster, counter),
    h("div", { class: "layout" }, boardBox, h("aside", {}, narration, chartBox)),
  );
  const board = new Board(boardBox, { n, rows, cols, label: `${rows}×${cols} board of the recorded run` });
  slider.addEventListener("input", () => {
    player.seek(Number(slider.value));
    render();
  });
  const points = thin(recording.scores(), 400);

  function render() {
    const k = player.position;
    board.render(frameModel(recording, k, n));
    slider.value = String(k);
    play.textContent = player.playing ? "Pause" : "Play";
    speed.textContent = `×${player.factor >= 1 ? player.factor : `1/${1 / player.factor}`}`;
    counter.textContent = `step ${k.toLocaleString()} of ${player.length.toLocaleString()}`;
    narration.textContent = narrate(recording, k, n);
    chartBox.replaceChildren(points.length
      ? lineChart({
        series: [{ name: "score", points }],
        xLabel: unitLabel(solver),
        yLabel: solver && solver.counts === "nodes" ? "depth (queens placed)" : "score (higher is better)",
        title: "Score at each step",
        cursor: recording.stepAt(k)?.iteration,
        width: 380,
        height: 220,
        legend: false,
      })
      : h("span"));
  }

  let last = null;
  function frame(now) {
    if (!container.isConnected) return;
    if (last !== null && player.tick((now - last) / 1000)) render();
    else if (player.playing && player.position >= player.length) {
      player.playing = false;
      render();
    }
    last = now;
    requestAnimationFrame(frame);
  }
  render();
  requestAnimationFrame(frame);
  return {
    player,
    recording,
    seek(k) {
      player.seek(k);
      render();
    },
  };
}
