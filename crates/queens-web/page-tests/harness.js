// Shared by the browser tests and the scripts: starts `queens serve` on a free port and a
// headless Chromium (Debian's, or CHROMIUM), and opens pages that record console errors.
//
// QUEENS_BIN names the binary (default: the workspace's target/debug/queens).

import { spawn } from "node:child_process";
import { once } from "node:events";
import { after, before } from "node:test";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const workspace = path.resolve(here, "../../..");

/** The `queens` binary the tests run: QUEENS_BIN, or the workspace's debug build. */
export function queensBinary() {
  return process.env.QUEENS_BIN || path.join(workspace, "target/debug/queens");
}

/** `queens serve` on a free port; resolves to `{ url, stop }`. */
export async function startServer() {
  const binary = queensBinary();
  const child = spawn(binary, ["serve", "--addr", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${binary} did not start serving: ${output}`)), 15000);
    child.on("error", (error) => reject(new Error(`cannot start ${binary}: ${error.message}`, { cause: error })));
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const match = /http:\/\/[^\s/]+\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
  });
  return {
    url,
    /** Stops the server: gracefully, or with `signal` (SIGKILL: as if it crashed). */
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        await once(child, "exit");
      }
    },
  };
}

/** A headless Chromium. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
  });
}

/**
 * A page of `url` + `hash`, ready (the solvers loaded), in a context of the given viewport;
 * `page.errors` collects console errors and uncaught exceptions.
 */
export async function openPage(browser, url, hash = "", options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  page.errors = [];
  page.on("console", (message) => {
    if (message.type() === "error") page.errors.push(message.text());
  });
  page.on("pageerror", (error) => page.errors.push(error.message));
  await page.goto(url + hash);
  await page.waitForSelector("body[data-ready=true]");
  return page;
}

/**
 * One server and one browser for a test file, started before its tests and closed after them
 * (node:test hooks). `session.open(hash, options)` opens a page; `session.server.url` is the
 * server's address.
 */
export function pageSession() {
  const session = {
    open: (hash = "", options = {}) => openPage(session.browser, session.server.url, hash, options),
  };
  before(async () => {
    session.server = await startServer();
    session.browser = await launchBrowser();
  });
  after(async () => {
    await session.browser?.close();
    await session.server?.stop();
  });
  return session;
}

/** The squares holding queens on the board in `selector`, sorted. */
export function queensOn(page, selector) {
  return page.$$eval(`${selector} .cell.q`, (cells) => cells.map((c) => c.dataset.square).sort());
}

/**
 * Whether the page is wider than the screen: it scrolls sideways, or, on a phone, the browser
 * widens its layout to the page and shows it zoomed out (then `innerWidth` is the page's width,
 * not the screen's), so the width compared is the viewport's as set.
 */
export function scrollsSideways(page) {
  return page.evaluate((screen) => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth) > screen,
    page.viewportSize().width);
}

/**
 * Where the colour of the CSS variable `colourVar` shows in the element `selector` as the screen
 * shows it (a screenshot, so what is drawn over it counts): the box, in CSS pixels from the
 * element's top left, of the pixels within `tolerance` of it on each channel, and the share of
 * the box they fill (`filled`: about 0.8 for a disc, under 0.5 for a glyph), or null if none.
 */
export async function colourSeen(page, selector, colourVar, tolerance = 48) {
  const png = await page.locator(selector).first().screenshot();
  return page.$eval(selector, async (element, [base64, name, near]) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = Object.assign(document.createElement("canvas"), { width: image.width, height: image.height });
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    const hex = getComputedStyle(element).getPropertyValue(name).trim();
    const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    let [left, top, right, bottom, pixels] = [Infinity, Infinity, -1, -1, 0];
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const i = 4 * (y * image.width + x);
        if (rgb.every((v, k) => Math.abs(data[i + k] - v) <= near)) {
          [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
          pixels++;
        }
      }
    }
    if (right < 0) return null;
    const perCss = element.getBoundingClientRect().width / image.width;
    const filled = pixels / ((right + 1 - left) * (bottom + 1 - top));
    return { left: left * perCss, top: top * perCss, right: (right + 1) * perCss, bottom: (bottom + 1) * perCss, filled };
  }, [png.toString("base64"), colourVar, tolerance]);
}

/**
 * What is wrong with the board in `selector` as drawn on screen (an empty list when nothing):
 * every square's box square and equal to the others within 1 px and where the board's geometry
 * puts it, every rank and file label centred on its row or column and inside the board's frame,
 * labels apart from each other, and every attack line ending on the centres of two queens.
 */
export function boardProblems(page, selector) {
  return page.$eval(selector, (box) => {
    const problems = [];
    // "8" for 8×8, "6x10" for 6 ranks of 10 files.
    const [n, cols = n] = String(box.dataset.n).split("x").map(Number);
    const surface = box.querySelector(".surface");
    const outer = surface.getBoundingClientRect();
    const inner = {
      left: outer.left + surface.clientLeft,
      top: outer.top + surface.clientTop,
      width: surface.clientWidth,
      height: surface.clientHeight,
    };
    const near = (a, b, what) => {
      if (Math.abs(a - b) > 1) problems.push(`${what}: ${a.toFixed(1)} against ${b.toFixed(1)}`);
    };
    near(inner.width / cols, inner.height / n, "a square's width and height");
    const size = inner.width / cols;
    const rowTop = (row) => inner.top + (n - 1 - row) * size;
    const colLeft = (col) => inner.left + col * size;
    const cells = [...surface.querySelectorAll("[data-square]")];
    if (cells.length) {
      if (cells.length !== n * cols) problems.push(`${cells.length} squares for ${n}×${cols}`);
      for (const cell of cells) {
        const r = cell.getBoundingClientRect();
        const { row, col, square } = cell.dataset;
        if (Math.abs(r.width - size) > 1 || Math.abs(r.height - size) > 1) {
          problems.push(`${square} is ${r.width.toFixed(1)}×${r.height.toFixed(1)}, not ${size.toFixed(1)} square`);
        }
        if (Math.abs(r.top - rowTop(Number(row))) > 1 || Math.abs(r.left - colLeft(Number(col))) > 1) {
          problems.push(`${square} is out of its row or column`);
        }
      }
    } else {
      const canvas = surface.querySelector("canvas").getBoundingClientRect();
      near(canvas.width, inner.width, "the canvas's width");
      near(canvas.height, inner.height, "the canvas's height");
    }
    const frame = box.querySelector(".board-frame").getBoundingClientRect();
    const within = (r) => r.left >= frame.left - 1 && r.right <= frame.right + 1 && r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1;
    const ranks = [...box.querySelectorAll(".ranks span")].map((span) => [Number(span.dataset.rank), span.getBoundingClientRect()]);
    const files = [...box.querySelectorAll(".files span")].map((span) => [Number(span.dataset.file), span.getBoundingClientRect()]);
    if (!ranks.length || !files.length) problems.push("no labels");
    for (const [rank, r] of ranks) {
      const centre = (r.top + r.bottom) / 2;
      const top = rowTop(rank - 1);
      if (centre < top || centre > top + size) problems.push(`rank label ${rank} is beside another row`);
      if (!within(r)) problems.push(`rank label ${rank} is outside the board's frame`);
    }
    for (const [file, r] of files) {
      const centre = (r.left + r.right) / 2;
      const left = colLeft(file - 1);
      if (centre < left || centre > left + size) problems.push(`file label ${file} is below another column`);
      if (!within(r)) problems.push(`file label ${file} is outside the board's frame`);
    }
    for (let i = 1; i < ranks.length; i++) {
      if (ranks[i][1].top < ranks[i - 1][1].bottom - 0.5 && ranks[i][1].bottom > ranks[i - 1][1].top + 0.5) problems.push(`rank labels ${ranks[i - 1][0]} and ${ranks[i][0]} overlap`);
    }
    for (let i = 1; i < files.length; i++) {
      if (files[i][1].left < files[i - 1][1].right - 0.5) problems.push(`file labels ${files[i - 1][0]} and ${files[i][0]} overlap`);
    }
    const queenCentres = cells.filter((c) => c.classList.contains("q")).map((c) => {
      const r = c.getBoundingClientRect();
      return [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
    });
    for (const line of surface.querySelectorAll(".overlay line.pair")) {
      for (const [x, y] of [["x1", "y1"], ["x2", "y2"]]) {
        const px = inner.left + Number(line.getAttribute(x)) * size;
        const py = inner.top + Number(line.getAttribute(y)) * size;
        const onQueen = cells.length
          ? queenCentres.some(([qx, qy]) => Math.abs(qx - px) <= 1 && Math.abs(qy - py) <= 1)
          : Number.isInteger(Number(line.getAttribute(x)) - 0.5) && Number.isInteger(Number(line.getAttribute(y)) - 0.5);
        if (!onQueen) problems.push(`an attack line ends at (${px.toFixed(1)}, ${py.toFixed(1)}), on no queen's centre`);
      }
    }
    const overlay = surface.querySelector(".overlay").getBoundingClientRect();
    near(overlay.width, inner.width, "the overlay's width");
    near(overlay.left, inner.left, "the overlay's left edge");
    return { n, cols, problems, labels: ranks.length, lines: surface.querySelectorAll(".overlay line.pair").length };
  });
}

/**
 * What is too small to read or to tap on the page as shown: text under 12 px on screen (SVG text
 * included, at its drawn size) and controls under 44 × 44 px (a checkbox counts with its label;
 * board squares are as large as the board allows and are not counted).
 */
export function smallThings(page) {
  return page.evaluate(() => {
    const text = new Set();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      const element = node.parentElement;
      if (!node.textContent.trim() || element.closest("[hidden], .visually-hidden, option, details:not([open]) > :not(summary)")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      if (!range.getBoundingClientRect().width) continue;
      let size = parseFloat(getComputedStyle(element).fontSize);
      if (element.closest("svg")) {
        const m = element.getScreenCTM();
        size *= m ? Math.hypot(m.a, m.b) : 1;
      }
      if (size < 11.95) text.add(`${size.toFixed(1)} px "${node.textContent.trim().slice(0, 24)}"`);
    }
    const targets = new Set();
    for (const control of document.querySelectorAll("button, select, input, summary, a[href]")) {
      if (control.closest("[hidden]")) continue;
      const target = control.matches("input[type=checkbox], input[type=radio]") && control.closest("label") || control;
      const r = target.getBoundingClientRect();
      if (!r.width) continue;
      if (r.height < 43.5 || r.width < 43.5) targets.add(`${control.tagName.toLowerCase()} ${control.id || control.textContent.trim().slice(0, 16)} ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
    }
    return { text: [...text], targets: [...targets] };
  });
}

/** Resolves once the Watch run has started and is no longer running. */
export function watchSettled(page) {
  return page.waitForFunction(() => !document.querySelector("#w-status").textContent.startsWith("running")
    && document.querySelector("#w-status").textContent !== "idle");
}

/** Starts the Watch run and resolves once it has ended (solved, stopped, unsolvable or failed). */
export async function runToEnd(page) {
  await page.click("#w-start");
  await page.waitForFunction(() => /^(solved|stopped|unsolvable|error)/.test(document.querySelector("#w-status").textContent),
    null, { timeout: 60000 });
}

/** Moves Watch's timeline to step `k`, as a user dragging it does. */
export async function seek(page, k) {
  await page.$eval("#w-timeline", (input, value) => {
    input.value = String(value);
    input.dispatchEvent(new Event("input"));
  }, k);
}

/** A small p × q sweep in the Lab, run when opened: 25 cells of 40 runs, a second in a debug build. */
export const SMALL_SWEEP = "#lab?solvers=hill-climbing-constant-shake&sizes=16&runs=40&seed=1&max_iters=300&sweep.p=0.05,0.1,0.2,0.3,0.5&sweep.q=1,2,3,4,6&run=1";
