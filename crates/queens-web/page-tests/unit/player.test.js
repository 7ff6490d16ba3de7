import assert from "node:assert/strict";
import { test } from "node:test";

import { PLAY_SECONDS, Player } from "../../static/js/player.js";

function playToEnd(length) {
  const player = new Player();
  player.length = length;
  player.playing = true;
  let seconds = 0;
  while (player.position < player.length && seconds < 1000) {
    player.tick(1 / 60);
    seconds += 1 / 60;
  }
  return seconds;
}

test("a run plays in about fifteen seconds whatever its length", () => {
  for (const length of [20, 300, 20334, 200000]) {
    const seconds = playToEnd(length);
    assert.ok(Math.abs(seconds - PLAY_SECONDS) < 1, `${length} frames took ${seconds.toFixed(2)} s`);
  }
  // Very short runs go at half a frame a second at least, not slower.
  assert.ok(Math.abs(playToEnd(3) - 6) < 0.1);
});

test("stepping and seeking stay within the run and pause it", () => {
  const player = new Player();
  player.length = 10;
  player.playing = true;
  player.step(-1);
  assert.equal(player.position, 0);
  assert.equal(player.playing, false);
  player.step(3);
  assert.equal(player.position, 3);
  player.seek(99);
  assert.equal(player.position, 10);
  assert.equal(player.tick(1), false);
});

test("speed doubles and halves within its bounds", () => {
  const player = new Player();
  player.length = 1500;
  const base = player.rate;
  player.faster(true);
  assert.equal(player.rate, base * 2);
  for (let i = 0; i < 20; i++) player.faster(true);
  assert.equal(player.factor, 64);
  for (let i = 0; i < 40; i++) player.faster(false);
  assert.equal(player.factor, 1 / 16);
});

test("play and pause toggle, and a run played to its end plays again from the start", () => {
  const player = new Player();
  player.length = 10;
  assert.equal(player.toggle(), true);
  assert.equal(player.toggle(), false);
  player.seek(10);
  assert.equal(player.toggle(), true);
  assert.equal(player.position, 0);
});
