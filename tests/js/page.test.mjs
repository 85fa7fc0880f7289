// static/js/offline/page.js: the redraw hook the game page and the round form share, and the
// engine found beside this folder (../engine.js, one module for every page).
import { test } from "node:test";
import assert from "node:assert/strict";

import { afterRedraw, drawWith, engine, redraw } from "../../static/js/offline/page.js";
import * as engineModule from "../../static/js/engine.js";

test("a page redraws with what it set, then with what runs after each redraw, in order", async () => {
  const calls = [];
  await redraw();

  drawWith(async () => calls.push("game"));
  await redraw();
  afterRedraw(async () => calls.push("count"));
  afterRedraw(async () => calls.push("more"));
  await redraw();

  assert.deepEqual(calls, ["game", "game", "count", "more"]);
});

test("a page drawn again from scratch drops what ran after the old drawing", async () => {
  const calls = [];
  drawWith(async () => calls.push("old"));
  afterRedraw(async () => calls.push("after"));
  drawWith(async () => calls.push("new"));

  await redraw();

  assert.deepEqual(calls, ["new"]);
});

test("the engine is static/js/engine.js, loaded once", async () => {
  const first = await engine();
  assert.equal(first, engineModule);
  assert.equal(await engine(), first);
  assert.deepEqual([typeof first.call, typeof first.warm], ["function", "function"]);
});
