import assert from "node:assert/strict";
import { test } from "node:test";

import { formatHash, parseHash, sameSettings } from "../../static/js/state.js";

test("a view and its settings survive the URL", () => {
  const cases = [
    ["configure", { n: "8", q: "d1,e7" }],
    ["watch", { solver: "min-conflicts", n: "64", seed: "7", fix: "r1c4,r9c9" }],
    ["race", { solvers: "hill-climbing,optimized-hill-climbing", n: "8", seed: "1" }],
    ["lab", { solvers: "hill-climbing-constant-shake", sizes: "16", "sweep.p": "0.1,0.2", "sweep.q": "1,2" }],
  ];
  for (const [view, settings] of cases) {
    const hash = formatHash(view, settings);
    assert.deepEqual(parseHash(hash), { view, settings });
  }
  assert.equal(formatHash("configure", { n: 8, q: "d1,e7" }), "#configure?n=8&q=d1,e7");
  assert.equal(formatHash("watch", { n: 8, fix: "", seed: undefined }), "#watch?n=8");
  assert.equal(formatHash("lab", { "sweep.p": "0.1,0.2" }), "#lab?sweep.p=0.1,0.2");
});

test("unknown views fall back to Configure", () => {
  assert.deepEqual(parseHash(""), { view: "configure", settings: {} });
  assert.deepEqual(parseHash("#nowhere?n=3"), { view: "configure", settings: { n: "3" } });
});

test("a run's place is not a setting: run and step stand aside when settings are compared", () => {
  assert.equal(sameSettings("#watch?solver=genetic&n=8", "#watch?solver=genetic&n=8&run=1&step=4"), true);
  assert.equal(sameSettings("#watch?solver=genetic&n=8&step=2", "#watch?solver=genetic&n=9&step=2"), false);
  assert.equal(sameSettings("#race?n=8", "#watch?n=8"), false);
});
