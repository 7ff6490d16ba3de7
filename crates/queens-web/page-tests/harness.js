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

/** `queens serve` on a free port; resolves to `{ url, stop }`. */
export async function startServer() {
  const binary = process.env.QUEENS_BIN || path.join(workspace, "target/debug/queens");
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
    async stop() {
      child.kill("SIGTERM");
      await once(child, "exit");
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

/** Whether the page scrolls sideways. */
export function scrollsSideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth
    || document.body.scrollWidth > window.innerWidth);
}
