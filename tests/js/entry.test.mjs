// static/js/offline/entry.js: a form's fields as the engine takes them, the fields put back for
// Edit, which error slot each error goes to, and the breakdowns drawn one at a time.
import { test } from "node:test";
import assert from "node:assert/strict";

import { errorSlot, fieldsOf, fillForm, inTurn, noteHtml } from "../../static/js/offline/entry.js";

test("a form's fields: text values by name, without the CSRF token, with the round's number", () => {
  const pairs = [
    ["csrfmiddlewaretoken", "secret"],
    ["round_number", "7"],
    ["went_out", "0"],
    ["s0-melded_points", "120"],
    ["s0-went_out_concealed", "1"],
    ["s1-melded_points", ""],
    ["photo", new Blob(["x"])],
  ];
  assert.deepEqual(fieldsOf(pairs, 3), {
    went_out: "0",
    "s0-melded_points": "120",
    "s0-went_out_concealed": "1",
    "s1-melded_points": "",
    round_number: "3",
  });
});

test("a name given twice keeps its last value; any iterable of pairs will do", () => {
  const pairs = new Map([["a", "1"]]).entries();
  assert.deepEqual(fieldsOf(pairs, 0), { a: "1", round_number: "0" });
  assert.deepEqual(fieldsOf([["a", "1"], ["a", "2"]], 1), { a: "2", round_number: "1" });
  assert.deepEqual(fieldsOf(new URLSearchParams("x=1&csrfmiddlewaretoken=t"), 2), { x: "1", round_number: "2" });
});

test("fields kept for Edit go back into the form as they were typed", () => {
  const element = (name, type, extra = {}) => ({ name, type, tagName: "INPUT", value: "", checked: false, ...extra });
  const form = {
    elements: [
      element("csrfmiddlewaretoken", "hidden", { value: "token" }),
      element("round_number", "hidden", { value: "9" }),
      element("went_out", "radio", { value: "0" }),
      element("went_out", "radio", { value: "stock" }),
      element("s0-concealed", "checkbox", { value: "1" }),
      element("s1-concealed", "checkbox", { value: "1", checked: true }),
      element("s0-melded_points", "number", { value: "5" }),
      element("s1-melded_points", "number", { value: "5" }),
      element("s0-book0-kind", "select-one", { tagName: "SELECT" }),
      element("", "button", { tagName: "BUTTON", value: "untouched" }),
      element("step", "button", { tagName: "BUTTON", value: "untouched" }),
    ],
  };

  fillForm(form, {
    went_out: "stock",
    "s0-concealed": "1",
    "s0-melded_points": "120",
    "s0-book0-kind": "clean",
    round_number: "2",
    csrfmiddlewaretoken: "old",
  });

  assert.deepEqual(
    form.elements.map((e) => [e.name, e.value, e.checked]),
    [
      ["csrfmiddlewaretoken", "token", false],
      ["round_number", "9", false],
      ["went_out", "0", false],
      ["went_out", "stock", true],
      ["s0-concealed", "1", true],
      ["s1-concealed", "1", false],
      ["s0-melded_points", "120", false],
      ["s1-melded_points", "", false],
      ["s0-book0-kind", "clean", false],
      ["", "untouched", false],
      ["step", "untouched", false],
    ],
  );
});

test("an error goes to its field's own slot when the form has one", () => {
  const has = (key) => ["__all__", "s0-melded_points", "s0"].includes(key);
  assert.deepEqual(errorSlot("s0-melded_points", has), { field: "s0-melded_points", slot: "s0-melded_points" });
  assert.deepEqual(errorSlot("__all__", has), { field: "__all__", slot: "__all__" });
});

test("else to the most specific slot its key starts with, dash by dash", () => {
  const has = (key) => ["__all__", "s0", "s0-book0"].includes(key);
  assert.deepEqual(errorSlot("s0-book0-points", has), { field: "s0-book0", slot: "s0-book0" });
  assert.deepEqual(errorSlot("s0-canastas-clean", has), { field: "s0", slot: "s0" });
});

test("else to the form's own slot, the field still named for its input to be marked", () => {
  const has = (key) => key === "__all__";
  assert.deepEqual(errorSlot("went_out", has), { field: "went_out", slot: "__all__" });
  assert.deepEqual(errorSlot("s2-hand-ace", has), { field: "s2", slot: "__all__" });
  assert.deepEqual(errorSlot("", has), { field: "__all__", slot: "__all__" });
  assert.deepEqual(errorSlot(undefined, has), { field: "__all__", slot: "__all__" });
});

test("nowhere when the form has no slot for it at all", () => {
  assert.deepEqual(errorSlot("s0-name", () => false), { field: "s0", slot: null });
});

// A breakdown that takes until `finish()` is called, recording the fields it was drawn for.
function slowDraw(fields) {
  const drawn = [];
  let finish = () => {};
  const draw = () => {
    drawn.push(fields.now);
    return new Promise((resolve) => {
      finish = resolve;
    });
  };
  return { drawn, draw, finish: () => finish() };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("a change is drawn at once, with no timer to wait for", () => {
  const fields = { now: "a" };
  const { drawn, draw } = slowDraw(fields);
  inTurn(draw, () => fields.now)();
  assert.deepEqual(drawn, ["a"]);
});

test("changes made while one is drawn make one more breakdown, of the fields as they are last", async () => {
  const fields = { now: "a" };
  const slow = slowDraw(fields);
  const changed = inTurn(slow.draw, () => fields.now);
  const first = changed();
  for (const now of ["b", "c", "d"]) {
    fields.now = now;
    changed();
  }
  assert.deepEqual(slow.drawn, ["a"]);
  slow.finish();
  await settle();
  assert.deepEqual(slow.drawn, ["a", "d"]);
  slow.finish();
  await first;
  assert.deepEqual(slow.drawn, ["a", "d"]);
});

test("a second event of the same change (a radio's input and change) draws nothing more", async () => {
  const fields = { now: "a" };
  const slow = slowDraw(fields);
  const changed = inTurn(slow.draw, () => fields.now);
  const first = changed();
  changed();
  slow.finish();
  await first;
  assert.deepEqual(slow.drawn, ["a"]);
  // A later change on its own is drawn, even with the same fields (a breakdown drawn anew).
  const later = changed();
  slow.finish();
  await later;
  assert.deepEqual(slow.drawn, ["a", "a"]);
});

test("cancel drops the breakdown asked for meanwhile (Save draws its own)", async () => {
  const fields = { now: "a" };
  const slow = slowDraw(fields);
  const changed = inTurn(slow.draw, () => fields.now);
  const first = changed();
  fields.now = "b";
  changed();
  changed.cancel();
  slow.finish();
  await first;
  assert.deepEqual(slow.drawn, ["a"]);
});

test("a breakdown that fails does not stop the next change's", async () => {
  const fields = { now: "a" };
  let calls = 0;
  const changed = inTurn(async () => {
    calls += 1;
    if (calls === 1) throw new Error("no engine");
  }, () => fields.now);
  await assert.rejects(changed(), /no engine/);
  fields.now = "b";
  await changed();
  assert.equal(calls, 2);
});

test("with no engine to draw the breakdown, its place holds a note, as the server's renderer draws it", () => {
  // tests/scorekeeper/portable/test_fragments.py holds fragments.preview_html to the same text.
  assert.equal(
    noteHtml("No <engine>").text,
    '<section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2><p class="muted">No &lt;engine&gt;</p></section>',
  );
});
