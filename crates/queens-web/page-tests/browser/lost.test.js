// A server that stops answering in the middle of a stream (killed, as a crash would): the page
// says so in a sentence, the status says how far the job got, and what arrived stays.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { launchBrowser, openPage, startServer } from "../harness.js";

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const text = (page, selector) => page.$eval(selector, (e) => e.textContent);

test("Watch keeps the steps that arrived and says the server stopped answering", async () => {
  const server = await startServer();
  try {
    const page = await openPage(browser, server.url, "#watch?solver=brute-force&n=9&run=1");
    await page.waitForFunction(() => Number(document.querySelector("#w-timeline").max) > 50);
    await server.stop("SIGKILL");
    await page.waitForFunction(() => /^stopped after [\d,]+ steps: the server stopped answering$/.test(document.querySelector("#w-status").textContent));
    assert.match(await text(page, "#w-error"), /^The server stopped answering before the end: is queens serve still running\?/);
    assert.ok(Number(await page.$eval("#w-timeline", (e) => e.max)) > 50, "the steps that arrived are kept");
    await page.click("#w-back");
    assert.match(await text(page, "#w-narration"), /^Step [\d,]+: /, "and replay");
  } finally {
    await server.stop();
  }
});

test("the Lab says how far an experiment got when the server stops answering", async () => {
  const server = await startServer();
  try {
    // Long enough to be cut, within the server's 600 CPU seconds: plain hill climbing stops on
    // its first local optimum, so each run takes a few climbs of 3,540 moves.
    const page = await openPage(browser, server.url, "#lab?solvers=hill-climbing&sizes=60&runs=70000&seed=1&run=1");
    await page.waitForFunction(() => / runs finished…$/.test(document.querySelector("#x-status").textContent));
    await server.stop("SIGKILL");
    await page.waitForFunction(() => /^Stopped after [\d,]+ of 70,000 runs \(\d+\.\d s\)\./.test(document.querySelector("#x-status").textContent));
    assert.match(await text(page, "#x-error"), /^The server stopped answering before the end/);
    assert.equal(await page.isVisible("#x-cancel"), false, "nothing is left running");
  } finally {
    await server.stop();
  }
});
