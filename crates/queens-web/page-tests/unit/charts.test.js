import assert from "node:assert/strict";
import { test } from "node:test";

import { LEGEND_CHAR, heatColour, legendLayout, linearAxis, logAxis, niceTicks, scale, shortNumber, spansDecades, wilson } from "../../static/js/charts.js";

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

test("a linear axis has round ends and at least four labelled ticks", () => {
  for (const [min, max] of [[5.2, 5.9], [130, 131], [0, 1], [3, 2017], [42, 42], [0.001, 0.004], [-3, 7]]) {
    const { domain, ticks } = linearAxis(min, max);
    assert.ok(ticks.length >= 4, `${min}..${max}: ${ticks}`);
    assert.ok(domain[0] <= Math.min(min, max) && domain[1] >= Math.max(min, max), `${min}..${max}: ${domain}`);
    assert.ok(ticks.every((t) => t >= domain[0] - 1e-9 && t <= domain[1] + 1e-9));
  }
  // A fixed range keeps its ends.
  assert.deepEqual(linearAxis(0, 100, true).domain, [0, 100]);
});

test("a log axis covers the values with at least four ticks", () => {
  for (const [min, max] of [[7, 1221], [35, 433354409], [1, 10], [2.5, 3.5]]) {
    const { domain, ticks } = logAxis(min, max);
    assert.ok(ticks.length >= 4, `${min}..${max}: ${ticks}`);
    assert.ok(domain[0] <= min && domain[1] >= max, `${min}..${max}: ${domain}`);
  }
  assert.ok(spansDecades([7, 38, 356, 430893]));
  assert.ok(!spansDecades([20, 40, 60]));
  assert.ok(!spansDecades([0, 40, 6000]), "a zero has no place on a log scale");
});

test("Wilson intervals hold the rate, narrow with more runs and stay in [0, 1]", () => {
  const [low, high] = wilson(944, 1000);
  assert.ok(low < 0.944 && 0.944 < high);
  assert.ok(Math.abs(low - 0.928) < 0.002 && Math.abs(high - 0.957) < 0.002, `${low} ${high}`);
  const [low10, high10] = wilson(9, 10);
  assert.ok(high10 - low10 > high - low);
  assert.deepEqual(wilson(0, 0), [0, 1]);
  const [zeroLow, zeroHigh] = wilson(0, 50);
  assert.equal(zeroLow, 0);
  assert.ok(zeroHigh > 0 && zeroHigh < 0.1);
  assert.equal(wilson(50, 50)[1], 1);
});

test("legend entries wrap into rows that fit", () => {
  const names = ["random-search", "optimized-random-search", "simulated-annealing", "hill-climbing", "hill-climbing-constant-shake"];
  const places = legendLayout(names, 10, 350);
  assert.equal(places[0].x, 10);
  assert.ok(places[places.length - 1].row >= 2);
  places.forEach((place, i) => {
    const end = place.x + 26 + names[i].length * LEGEND_CHAR;
    assert.ok(place.x === 10 || end <= 350, `${names[i]} ends at ${end}`);
  });
});

test("an axis of whole numbers (scores, iterations) has whole ticks only", () => {
  for (const [min, max] of [[26, 28], [26, 27], [0, 3], [25, 31], [-4, 0], [0, 1000]]) {
    const { domain, ticks } = linearAxis(min, max, false, true);
    assert.ok(ticks.every(Number.isInteger), `${min}..${max}: ${ticks}`);
    assert.ok(domain[0] <= min && domain[1] >= max, `${min}..${max} within ${domain}`);
    assert.ok(ticks.length >= Math.min(4, max - min + 1), `${min}..${max}: ${ticks}`);
  }
  assert.ok(linearAxis(26, 28).ticks.some((t) => !Number.isInteger(t)), "a real axis may tick between");
});
