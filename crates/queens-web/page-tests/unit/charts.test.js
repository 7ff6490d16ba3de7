import assert from "node:assert/strict";
import { test } from "node:test";

import { heatColour, niceTicks, scale, shortNumber } from "../../static/js/charts.js";

test("ticks are round and cover the range", () => {
  assert.deepEqual(niceTicks(0, 100, 5), [0, 20, 40, 60, 80, 100]);
  assert.deepEqual(niceTicks(0, 1, 4), [0, 0.5, 1]);
  const ticks = niceTicks(3, 2017, 5);
  assert.ok(ticks.length >= 3 && ticks.length <= 8);
  assert.ok(ticks.every((t) => t >= 3 && t <= 2017 && t % 500 === 0), String(ticks));
  assert.deepEqual(niceTicks(5, 5), [5]);
});

test("scales map the domain onto the range, reversed or not", () => {
  const y = scale([0, 10], [200, 0]);
  assert.equal(y(0), 200);
  assert.equal(y(10), 0);
  assert.equal(y(5), 100);
  assert.equal(scale([3, 3], [0, 1])(3), 0);
});

test("numbers on axes are short", () => {
  assert.equal(shortNumber(1200), "1200");
  assert.equal(shortNumber(12000), "12k");
  assert.equal(shortNumber(3000000), "3M");
  assert.equal(shortNumber(0.25), "0.25");
});

test("the heat scale runs from pale to dark and clamps", () => {
  assert.equal(heatColour(-1), heatColour(0));
  assert.equal(heatColour(2), heatColour(1));
  const lightness = (c) => c.match(/\d+/g).map(Number).reduce((a, b) => a + b);
  assert.ok(lightness(heatColour(0)) > lightness(heatColour(0.5)));
  assert.ok(lightness(heatColour(0.5)) > lightness(heatColour(1)));
});
