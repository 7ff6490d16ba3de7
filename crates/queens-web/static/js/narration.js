// Watch's narration: the step shown told in words, and the log of the steps before it.

import { h } from "./dom.js";
import { narrate } from "./replay.js";

/** The steps the log keeps, the one shown last. */
const LOGGED = 40;

/** The narration line and the log, and `tell(recording, k, n)` to show step `k`. */
export function createNarration() {
  const narration = h("p", { id: "w-narration", class: "narration", "aria-live": "polite" });
  const log = h("ol", { id: "w-log", class: "step-log", tabindex: 0, "aria-label": "the steps up to the one shown" });
  return {
    narration,
    log,
    /** Says `text` in place of a step (before a run, or while it starts). */
    say(text) {
      narration.textContent = text;
      log.replaceChildren();
      delete log.dataset.step;
    },
    /** Tells step `k` of `recording` on an n-file board, and the steps before it. */
    tell(recording, k, n) {
      const text = `Step ${k.toLocaleString()}: ${narrate(recording, k, n)}`;
      if (narration.textContent !== text) narration.textContent = text;
      if (log.dataset.step === String(k) && log.dataset.length === String(recording.length)) return;
      log.dataset.step = String(k);
      log.dataset.length = String(recording.length);
      const first = Math.max(0, k - (LOGGED - 1));
      log.replaceChildren(...Array.from({ length: k - first + 1 }, (_, i) => {
        const at = first + i;
        // The number is drawn by the stylesheet (`data-step`), as wide as it needs, never cut.
        return h("li", { dataset: { step: at.toLocaleString() }, "aria-current": at === k ? "step" : undefined }, narrate(recording, at, n));
      }));
      log.scrollTop = log.scrollHeight;
    },
  };
}
