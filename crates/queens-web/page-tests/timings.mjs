// Click-to-board timings in headless Chromium: in Configure, from a click on an open square to
// the board repainted with the server's analysis; in Watch, from Start to the first whole board.
// Prints the median and the worst of several clicks for each N. Run from crates/queens-web
// after `cargo build --release`, with QUEENS_BIN=../../target/release/queens:
// `node page-tests/timings.mjs 8 64 200`.

import { launchBrowser, openPage, startServer } from "./harness.js";

const sizes = process.argv.slice(2).map(Number);
const CLICKS = 9;
const server = await startServer();
const browser = await launchBrowser();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  for (const n of sizes.length ? sizes : [8, 64, 200]) {
    const page = await openPage(browser, server.url, `#configure?n=${n}`);
    await page.waitForSelector("#cfg-solvable.yes, #cfg-solvable.no, #cfg-solvable.maybe:not(:empty)");
    await page.waitForFunction(() => document.querySelector("#cfg-solvable").textContent !== "analysing…");
    const configure = [];
    for (let i = 0; i < CLICKS; i++) {
      // A click on square (row 0, column 7i mod N) of the empty board, then Undo.
      const ms = await page.evaluate((i) => new Promise((resolve) => {
        const board = document.querySelector("#cfg-board");
        const indicator = document.querySelector("#cfg-solvable");
        const n = Number(new URLSearchParams(location.hash.split("?")[1]).get("n"));
        const col = (7 * i) % n;
        const before = location.hash;
        const started = performance.now();
        const observer = new MutationObserver(() => {
          if (location.hash !== before && indicator.textContent !== "analysing…") {
            observer.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - started));
          }
        });
        observer.observe(indicator, { childList: true, characterData: true, subtree: true });
        const cell = board.querySelector(`.cell[data-row="0"][data-col="${col}"]`);
        if (cell) {
          cell.click();
        } else {
          const canvas = board.querySelector("canvas");
          const r = canvas.getBoundingClientRect();
          canvas.dispatchEvent(new MouseEvent("click", {
            clientX: r.left + ((col + 0.5) / n) * r.width, clientY: r.bottom - (0.5 / n) * r.height, bubbles: true,
          }));
        }
      }), i);
      configure.push(ms);
      await page.click("#cfg-undo");
      await page.waitForFunction(() => !location.hash.includes("q=") && document.querySelector("#cfg-solvable").textContent !== "analysing…");
    }
    const watch = [];
    for (let seed = 1; seed <= 5; seed++) {
      await page.goto(`${server.url}#watch?solver=min-conflicts&n=${n}&seed=${seed}`);
      await page.waitForSelector("body[data-ready=true]");
      const ms = await page.evaluate((n) => new Promise((resolve) => {
        const started = performance.now();
        const check = () => {
          const board = document.querySelector("#w-board");
          const shown = Number(document.querySelector("#w-queens").textContent);
          if (shown === n && board) resolve(performance.now() - started);
          else requestAnimationFrame(check);
        };
        document.querySelector("#w-start").click();
        requestAnimationFrame(check);
      }), n);
      watch.push(ms);
    }
    const f = (xs) => `median ${median(xs).toFixed(1)} ms, worst ${Math.max(...xs).toFixed(1)} ms`;
    console.log(`N = ${n}: configure click → analysed board: ${f(configure)}; watch Start → whole board: ${f(watch)}`);
    if (page.errors.length) console.log(page.errors);
    await page.context().close();
  }
} finally {
  await browser.close();
  await server.stop();
}
