// static/js/round-form/going-out.js: choosing who went out fills in the canastas going out needs,
// on stand-in inputs that record the events they were sent.
import { test } from "node:test";
import assert from "node:assert/strict";

import { fillLeast, leastOf } from "../../static/js/round-form/going-out.js";

function input(id, value = "") {
  const sent = [];
  return { id, value, dataset: {}, sent, dispatchEvent: (event) => sent.push(event.type) };
}

/** A round form of two sides with natural and mixed canastas, and its document. */
function roundForm(values = {}) {
  const inputs = {};
  for (const side of ["s0", "s1"]) {
    for (const kind of ["natural", "mixed"]) {
      const id = `${side}-canastas-${kind}`;
      inputs[id] = input(id, values[id] ?? "");
    }
  }
  const form = {
    querySelectorAll: (selector) => {
      assert.equal(selector, "input[data-filled]");
      return Object.values(inputs).filter((each) => "filled" in each.dataset);
    },
  };
  const doc = { getElementById: (id) => inputs[id] ?? null };
  return { inputs, form, doc };
}

const radio = (least) => ({ dataset: least === undefined ? {} : { least } });
const ANN = radio("s0-canastas-natural:2 s0-canastas-mixed:3");
const BOB = radio("s1-canastas-natural:2 s1-canastas-mixed:3");
const STOCK = radio();

const values = (inputs) => Object.fromEntries(Object.entries(inputs).map(([id, each]) => [id, each.value]));

test("a choice's counts are read from its data-least, and nonsense in it is left out", () => {
  assert.deepEqual(leastOf(ANN), [["s0-canastas-natural", 2], ["s0-canastas-mixed", 3]]);
  assert.deepEqual(leastOf(STOCK), []);
  assert.deepEqual(leastOf(radio("s0-a:0 s0-b:x :2 s0-c:1.5 s0-d:4")), [["s0-d", 4]]);
});

test("choosing a side fills its empty canastas with the least going out needs, and says so", () => {
  const { inputs, form, doc } = roundForm();
  fillLeast(form, ANN, doc);
  assert.deepEqual(values(inputs), {
    "s0-canastas-natural": "2",
    "s0-canastas-mixed": "3",
    "s1-canastas-natural": "",
    "s1-canastas-mixed": "",
  });
  assert.deepEqual(inputs["s0-canastas-mixed"].sent, ["input", "change"]);
  assert.deepEqual(inputs["s1-canastas-mixed"].sent, []);
});

test("a count already typed is kept, and a zero is filled", () => {
  const { inputs, form, doc } = roundForm({ "s0-canastas-natural": "4", "s0-canastas-mixed": "0" });
  fillLeast(form, ANN, doc);
  assert.equal(inputs["s0-canastas-natural"].value, "4");
  assert.deepEqual(inputs["s0-canastas-natural"].sent, []);
  assert.equal(inputs["s0-canastas-mixed"].value, "3");
});

test("a change of mind takes back the untouched counts and fills the other side's", () => {
  const { inputs, form, doc } = roundForm();
  fillLeast(form, ANN, doc);
  inputs["s0-canastas-mixed"].value = "4"; // the player stepped it on
  fillLeast(form, BOB, doc);
  assert.deepEqual(values(inputs), {
    "s0-canastas-natural": "",
    "s0-canastas-mixed": "4",
    "s1-canastas-natural": "2",
    "s1-canastas-mixed": "3",
  });
  fillLeast(form, STOCK, doc);
  assert.deepEqual(values(inputs), {
    "s0-canastas-natural": "",
    "s0-canastas-mixed": "4",
    "s1-canastas-natural": "",
    "s1-canastas-mixed": "",
  });
  assert.deepEqual(Object.values(inputs).filter((each) => "filled" in each.dataset), []);
});

test("a choice naming a field the form lacks fills what it has", () => {
  const { inputs, form, doc } = roundForm();
  fillLeast(form, radio("s0-canastas-wild:1 s0-canastas-natural:2"), doc);
  assert.equal(inputs["s0-canastas-natural"].value, "2");
});
