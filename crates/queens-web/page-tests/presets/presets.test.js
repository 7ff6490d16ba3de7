// The original's experiments as Lab presets (served by /api/solvers), each run on the server
// from its one click: the table the page shows equals `queens experiment --json` with the same
// settings, row for row.
// Minutes of work in a debug build: `npm run test:presets` runs it against a release binary
// (QUEENS_BIN=target/release/queens).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";

import { labPresets } from "../../static/js/presets.js";
import { pageSession, queensBinary } from "../harness.js";

const session = pageSession();

/** The CLI's arguments for one preset part (its settings as the Lab's URL writes them). */
function cliArguments(part) {
  const args = ["experiment", part.sizes, "--json", "--solver", part.solvers, "--runs", part.runs, "--seed", part.seed];
  if (part.max_iters) args.push("--max-iters", part.max_iters);
  for (const [key, values] of Object.entries(part)) {
    if (key.startsWith("sweep.")) args.push("--set", `${key.slice(6)}=${values}`);
  }
  return args;
}

/** A row as the page's table writes it: solver, N, setting, runs, solved. */
function rowText(row) {
  const setting = Object.entries(row.params).map(([k, v]) => `${k} = ${v}`).join(", ") || "—";
  return [row.solver, String(row.n), setting, row.runs.toLocaleString("en-US"), row.solved.toLocaleString("en-US")];
}

test("every preset runs on the server and its table equals queens experiment", { timeout: 900_000 }, async () => {
  // The presets as the server serves them, in the Lab's settings.
  const served = await (await fetch(new URL("api/solvers", session.server.url))).json();
  const presets = labPresets(served.presets);
  assert.deepEqual(presets.map((p) => p.id), ["comparison", "p-q", "q-study", "open-question"]);
  for (const preset of presets) {
    const page = await session.open(`#lab?preset=${preset.id}`);
    await page.click(`button[data-preset="${preset.id}"]`);
    await page.waitForFunction(() => / cells?, in [\d.]+ s\.$/.test(document.querySelector("#x-status").textContent)
      || document.querySelector("#x-error").textContent, null, { timeout: 600_000 });
    assert.equal(await page.$eval("#x-error", (e) => e.textContent), "", preset.id);
    const note = await page.$eval("#x-preset", (e) => e.textContent);
    assert.match(note, /original/i);
    // The question the original left open is answered beside it.
    if (preset.answer) assert.ok(note.includes(preset.answer), `${preset.id} gives its answer`);
    const shown = await page.$$eval("#x-table tbody tr", (rows) => rows.map((tr) => [...tr.cells].slice(0, 5).map((td) => td.textContent)));
    const expected = preset.parts.flatMap((part) => JSON.parse(execFileSync(queensBinary(), cliArguments(part), { maxBuffer: 1 << 26 })).rows.map(rowText));
    assert.deepEqual(shown, expected, preset.id);
    assert.ok(await page.$("#x-charts svg"), `${preset.id} draws a chart`);
    assert.deepEqual(page.errors, []);
    console.log(`${preset.id}: ${shown.length} rows equal to the command line's; ${await page.$eval("#x-status", (e) => e.textContent)}`);
    await page.context().close();
  }
});
