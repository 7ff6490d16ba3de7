// Building the page from elements: `h("button", { class: "primary", onclick }, "Start")`.
// Attributes starting with "on" are listeners; `class`, `text`, `style` and `dataset` are
// handled; everything else is an attribute. Children are nodes, strings, or arrays of them.

const SVG = "http://www.w3.org/2000/svg";

/** The media query of a phone's screen, where views fold their settings and stack. */
export const PHONE = "(max-width: 600px)";

function build(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "text") element.textContent = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "style" && typeof value === "object") {
      // Custom properties (`--indent`) are set by name; the others as the style's fields.
      for (const [key, setting] of Object.entries(value)) {
        if (key.startsWith("--")) element.style.setProperty(key, setting);
        else element.style[key] = setting;
      }
    }
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(typeof child === "object" ? child : String(child));
  }
}

/** An HTML element. */
export function h(tag, attributes, ...children) {
  return build(document.createElement(tag), attributes, children);
}

/** An SVG element. */
export function s(tag, attributes, ...children) {
  return build(document.createElementNS(SVG, tag), attributes, children);
}

/** The element with `id`. */
export const byId = (id) => document.getElementById(id);

/** Replaces the children of `element`. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** Shows `message` (one sentence) in `element`, or hides it when empty. */
export function say(element, message) {
  element.textContent = message || "";
  element.hidden = !message;
  // A sentence no one sees tells nothing: one shown off the screen is scrolled into it.
  if (message && element.isConnected && !element.closest("[hidden]")) {
    const box = element.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) element.scrollIntoView({ block: "nearest" });
  }
}

/**
 * Runs `check()`, a check of what the user typed: its answer, with `error` cleared, or
 * `undefined`, with the check's sentence shown in `error`.
 */
export function checked(error, check) {
  try {
    const answer = check();
    say(error, "");
    return answer;
  } catch (e) {
    say(error, e.message);
    return undefined;
  }
}

/**
 * Runs `work(signal)` as the one job of a view (`state.request` its controller): a new job
 * aborts the one before; while it runs, `button` is disabled and `cancel` and `progress` are
 * shown; an abort, or a server that stopped answering, says in `status` what the job had done
 * (`cancelled(word)`, a sentence starting "Cancelled" or "Stopped") or else "Cancelled.", and
 * any failure but an abort its sentence in `error`.
 */
export async function cancellable(state, { button, cancel, progress, status, error, cancelled }, work) {
  if (state.request) state.request.abort();
  const controller = new AbortController();
  state.request = controller;
  button.disabled = true;
  cancel.hidden = false;
  progress.hidden = false;
  progress.value = 0;
  try {
    await work(controller.signal);
  } catch (e) {
    if (e.name === "AbortError") {
      status.textContent = cancelled ? cancelled("Cancelled") : "Cancelled.";
    } else {
      // A server that stopped answering: the status says how far the job got, not "running";
      // a job refused or failed says nothing there ("Starting…" would claim it runs), its
      // sentence being the error's.
      status.textContent = e.name === "Lost" && cancelled ? cancelled("Stopped") : "";
      say(error, e.message);
    }
  } finally {
    if (state.request === controller) {
      button.disabled = false;
      cancel.hidden = true;
      progress.hidden = true;
    }
  }
}

/**
 * What a cancelled (or stopped, `word`) job had done, for `cancellable`'s `cancelled`:
 * "Cancelled after 5 of 64 searches (2.1 s)." (`of` null: none had finished), then `kept`,
 * what stays on screen.
 */
export function cancelledAfter(done, of, what, started, kept = "", word = "Cancelled") {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const after = of === null ? `before the first of its ${what} finished` : `after ${done.toLocaleString("en-US")} of ${of.toLocaleString("en-US")} ${what}`;
  return `${word} ${after} (${seconds} s).${kept ? ` ${kept}` : ""}`;
}

/**
 * Says under `box` (a table's scrolling box) that it scrolls sideways, for as long as what it
 * holds is wider than it is (a phone hides a table's last columns otherwise without a word).
 */
export function sayWhenWide(box) {
  let hint = box.nextElementSibling;
  if (!hint || !hint.classList.contains("scroll-hint")) {
    hint = h("p", { class: "scroll-hint note", hidden: true }, "The table is wider than the screen: scroll it sideways for its other columns →");
    box.after(hint);
  }
  const update = () => {
    hint.hidden = box.hidden || box.scrollWidth <= box.clientWidth + 1;
  };
  update();
  if (!box.dataset.widthWatched) {
    box.dataset.widthWatched = "true";
    new ResizeObserver(update).observe(box);
  }
}

/** Prose with `code` in backticks, as text and <code> elements. */
export function prose(text) {
  return String(text).split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part));
}
