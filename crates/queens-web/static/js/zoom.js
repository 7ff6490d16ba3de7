// Zoom and pan for large boards (from 32 squares a side): the bar's buttons, Ctrl + wheel (a
// trackpad's pinch), and two fingers on a touch screen zoom about a point; the box then scrolls
// to pan (one finger, the wheel, the scroll bars), and the rank and file labels stay on its
// edges. Zoom stops where a square is big enough to read on any screen.

import { h } from "./dom.js";

/** Boards with a side this long or longer can be zoomed. */
export const ZOOM_FROM = 32;

/** The zoom stops where a square is this many pixels wide. */
const LARGEST_SQUARE_PX = 48;

/** A drag longer than this (pixels) pans, and the tap it began is not a click on a square. */
const DRAG_PX = 8;

/** The zoom a button press steps by. */
const STEP = 2;

/** The most a board `cols` squares wide, shown `width` pixels wide at ×1, zooms. */
export function mostZoom(cols, width) {
  return Math.max(1, (LARGEST_SQUARE_PX * cols) / Math.max(1, width));
}

/** `zoom` stepped in or out by a button: ×1, ×2, ×4, … up to `most` (and back to ×1). */
export function steppedZoom(zoom, up, most) {
  const next = up ? zoom * STEP : zoom / STEP;
  return Math.max(1, Math.min(most, next < 1.01 ? 1 : next));
}

/**
 * Makes `frame` (a board's labels and surface, `cols` squares wide) zoomable: returns
 * `{ view, bar }`, the scrolling box that holds the frame and the bar of buttons, for the caller
 * to place.
 */
export function zoomable(frame, cols, label) {
  const view = h("div", { class: "zoom-view" }, frame);
  const readout = h("output", { class: "zoom-level", "aria-live": "polite" }, "×1");
  const out = h("button", { type: "button", class: "zoom-out", title: "Zoom out", "aria-label": `zoom out of ${label}`, disabled: true }, "−");
  const into = h("button", { type: "button", class: "zoom-in", title: "Zoom in (or Ctrl + wheel, or pinch)", "aria-label": `zoom into ${label}` }, "+");
  const fit = h("button", { type: "button", class: "zoom-fit", title: "The whole board", disabled: true }, "Fit");
  const bar = h("div", { class: "zoom-bar" }, h("span", {}, "Zoom"), out, readout, into, fit);
  const surface = frame.querySelector(".surface");
  let zoom = 1;
  let baseHeight = 0;
  // The frame's width beside the squares (the rank labels, the border): it does not zoom.
  let beside = 0;

  /** Zooms to `next`, keeping the point at `around` (view coordinates; its centre by default) still. */
  function set(next, around) {
    const box = view.getBoundingClientRect();
    if (zoom === 1) {
      baseHeight = box.height;
      beside = frame.getBoundingClientRect().width - surface.clientWidth;
    }
    const most = mostZoom(cols, (frame.getBoundingClientRect().width - beside) / zoom);
    next = Math.max(1, Math.min(most, next));
    if (next === zoom) return;
    const at = around || { x: box.width / 2, y: box.height / 2 };
    // The point of the squares under `at`, as shares of the squares' width and height.
    const before = surface.getBoundingClientRect();
    const u = (at.x - (before.left - box.left)) / before.width;
    const v = (at.y - (before.top - box.top)) / before.height;
    zoom = next;
    frame.style.width = zoom === 1 ? "" : `calc(${zoom} * (100% - ${beside}px) + ${beside}px)`;
    view.style.height = zoom === 1 ? "" : `${baseHeight}px`;
    view.classList.toggle("zoomed", zoom > 1);
    // Scrolled so that the same point is under `at` again.
    const after = surface.getBoundingClientRect();
    view.scrollLeft += after.left - box.left + u * after.width - at.x;
    view.scrollTop += after.top - box.top + v * after.height - at.y;
    readout.textContent = `×${zoom < 10 ? Math.round(zoom * 10) / 10 : Math.round(zoom)}`;
    out.disabled = zoom === 1;
    fit.disabled = zoom === 1;
    into.disabled = zoom >= most - 1e-9;
  }

  const pointIn = (x, y) => {
    const box = view.getBoundingClientRect();
    return { x: x - box.left, y: y - box.top };
  };
  out.addEventListener("click", () => set(steppedZoom(zoom, false, Infinity)));
  into.addEventListener("click", () => set(steppedZoom(zoom, true, Infinity)));
  fit.addEventListener("click", () => set(1));
  view.addEventListener("wheel", (event) => {
    if (!event.ctrlKey && !event.metaKey) return;
    event.preventDefault();
    set(zoom * Math.exp(-event.deltaY * 0.01), pointIn(event.clientX, event.clientY));
  }, { passive: false });
  touchGestures(view, () => zoom, set, pointIn);
  return { view, bar, zoomTo: set };
}

/**
 * Two fingers pinch (about their midpoint); at a zoom above ×1 one finger pans the box, and a
 * drag is not a tap on a square.
 */
function touchGestures(view, zoomNow, set, pointIn) {
  const touches = new Map();
  let pinch = null;
  let dragged = false;
  const spread = () => {
    const [a, b] = [...touches.values()];
    return { distance: Math.hypot(a.x - b.x, a.y - b.y), middle: pointIn((a.x + b.x) / 2, (a.y + b.y) / 2) };
  };
  view.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch") return;
    touches.set(event.pointerId, { x: event.clientX, y: event.clientY, startX: event.clientX, startY: event.clientY });
    if (touches.size === 1) dragged = false;
    if (touches.size === 2) pinch = { ...spread(), zoom: zoomNow() };
  });
  view.addEventListener("pointermove", (event) => {
    const touch = touches.get(event.pointerId);
    if (!touch) return;
    const [dx, dy] = [event.clientX - touch.x, event.clientY - touch.y];
    Object.assign(touch, { x: event.clientX, y: event.clientY });
    if (Math.hypot(event.clientX - touch.startX, event.clientY - touch.startY) > DRAG_PX) dragged = true;
    if (pinch && touches.size === 2) {
      const now = spread();
      set(pinch.zoom * (now.distance / Math.max(1, pinch.distance)), now.middle);
    } else if (touches.size === 1 && zoomNow() > 1) {
      view.scrollLeft -= dx;
      view.scrollTop -= dy;
    }
  });
  const lift = (event) => {
    touches.delete(event.pointerId);
    if (touches.size < 2) pinch = null;
  };
  view.addEventListener("pointerup", lift);
  view.addEventListener("pointercancel", lift);
  // A pan or a pinch is not a tap: the click it ends with does not reach the squares.
  view.addEventListener("click", (event) => {
    if (dragged) {
      event.stopPropagation();
      dragged = false;
    }
  }, true);
}
