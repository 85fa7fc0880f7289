// static/js/offline/swap.js: which clicks swap a page in place (offline, to a game page or its
// round form, on this site) and which are left to the browser.
import { test } from "node:test";
import assert from "node:assert/strict";

import { PAGE_HEADER, plainClick, swappable } from "../../static/js/offline/swap.js";

const here = new URL("https://scores.example/g/Abc_-1/");
const to = (path, origin = here.origin) => new URL(path, origin);

test("offline, a game page and its round form are swapped in place", () => {
  assert.equal(swappable(to("/g/Abc_-1/rounds/new/"), here, false), true);
  assert.equal(swappable(to("/g/Xyz/"), here, false), true);
});

test("online, or to any other page or site, the browser navigates as usual", () => {
  assert.equal(swappable(to("/g/Abc_-1/rounds/new/"), here, true), false);
  for (const path of ["/", "/games/new/baskets/", "/g/Abc_-1/history/", "/g/Abc_-1/rounds/2/", "/leagues/"]) {
    assert.equal(swappable(to(path), here, false), false, path);
  }
  assert.equal(swappable(to("/g/Abc_-1/", "https://elsewhere.example"), here, false), false);
});

test("only a plain click is taken over: not a new tab, a new window or one already handled", () => {
  const click = { defaultPrevented: false, button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false };
  assert.equal(plainClick(click), true);
  for (const change of [{ defaultPrevented: true }, { button: 1 }, { metaKey: true }, { ctrlKey: true }, { shiftKey: true }, { altKey: true }]) {
    assert.equal(plainClick({ ...click, ...change }), false, JSON.stringify(change));
  }
});

test("the page asked for carries the header that tells the service worker it stands for a navigation", () => {
  assert.equal(PAGE_HEADER, "X-Offline-Page");
});
