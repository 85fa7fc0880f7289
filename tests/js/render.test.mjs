// static/js/offline/render.js: escaping, and the HTML the phone draws offline, read as the exact
// markup for small pieces and as the exact text a player sees (tags dropped) for whole sections.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  Markup,
  askHtml,
  elsewhereHtml,
  escape,
  flashHtml,
  gameUrl,
  html,
  plural,
  problemHtml,
  refusedHtml,
  roundFormHtml,
  shellGameHtml,
  versionHtml,
} from "../../static/js/offline/render.js";

// What a player reads: the markup without its tags, its white space collapsed.
const text = (markup) => String(markup).replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();

test("escape turns the five HTML characters into entities and leaves the rest", () => {
  assert.equal(escape(`<a href="x">Tom & Jerry's</a>`), "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
  assert.equal(escape("Zoë → 50"), "Zoë → 50");
});

test("escape writes nothing for null, undefined and false, and numbers as they are", () => {
  assert.deepEqual([null, undefined, false, 0, 12, true, ""].map(escape), ["", "", "", "0", "12", "true", ""]);
});

test("escape keeps Markup as it is and joins arrays, escaping each item", () => {
  assert.equal(escape(new Markup("<b>ok</b>")), "<b>ok</b>");
  assert.equal(escape(["<", new Markup("<i>"), null, 3]), "&lt;<i>3");
});

test("html escapes every value but nested html, and gives Markup", () => {
  const name = "<script>alert(1)</script>";
  const out = html`<p title="${'"q"'}">${name} ${html`<em>${"&"}</em>`} ${[html`<br>`, "<br>"]}</p>`;

  assert.ok(out instanceof Markup);
  assert.equal(
    out.text,
    '<p title="&quot;q&quot;">&lt;script&gt;alert(1)&lt;/script&gt; <em>&amp;</em> <br>&lt;br&gt;</p>',
  );
  assert.equal(`${out}`, out.text);
  assert.equal(html`plain`.text, "plain");
});

test("plural and gameUrl", () => {
  assert.deepEqual([0, 1, 2].map((n) => plural(n, "round")), ["0 rounds", "1 round", "2 rounds"]);
  assert.equal(gameUrl("abc_-1"), "/g/abc_-1/");
  assert.equal(gameUrl("a/b c"), "/g/a%2Fb%20c/");
});

test("the engine's refusals of kept rounds, each an alert", () => {
  assert.equal(
    refusedHtml([{ message: "Round 4 <bad>" }, { message: "two" }]).text,
    '<p class="field-error" role="alert">Round 4 &lt;bad&gt;</p><p class="field-error" role="alert">two</p>',
  );
  assert.equal(refusedHtml(undefined).text, "");
});

const WAITING = { key: "k1", game: "g 1", number: 4, state: "waiting" };

test("a round behind another that needs a choice waits its turn", () => {
  assert.equal(
    problemHtml(WAITING).text,
    '<p class="offline-behind">Round 4, saved on this phone, is sent once the round before it is settled.</p>',
  );
});

test("a refused round: its reason, Edit and Discard, or the question once Discard was tapped", () => {
  const refused = { ...WAITING, state: "refused", error: "The game is over: nothing was added." };
  const out = problemHtml(refused).text;
  assert.equal(
    text(out),
    "Round 4 was not stored The game is over: nothing was added. It is still kept on this phone. Edit round 4 Discard round 4 " +
      "The next round can be entered once this is settled.",
  );
  assert.match(out, /href="\/g\/g%201\/rounds\/new\/\?edit=k1">Edit round 4<\/a>/);
  assert.match(out, /data-offline-choice="discard" data-key="k1">Discard round 4</);
  assert.equal(
    text(problemHtml(refused, { asked: "discard" })),
    "Round 4 was not stored The game is over: nothing was added. It is still kept on this phone. " +
      "Remove this phone's round 4? It cannot be brought back. Yes, remove this phone's round 4 No, go back " +
      "The next round can be entered once this is settled.",
  );
});

test("a conflict with nothing stored at its number can only go on, or go", () => {
  const conflict = { ...WAITING, state: "conflict", theirs: null, error: "" };
  assert.equal(
    text(problemHtml(conflict)),
    "Round 4 could not be stored at its number The game on the server no longer has the rounds before round 4. " +
      "Add it as the next round Discard round 4 The next round can be entered once this is settled.",
  );
  assert.equal(
    text(problemHtml({ ...conflict, error: "Gone." })),
    "Round 4 could not be stored at its number Gone. Add it as the next round Discard round 4 " +
      "The next round can be entered once this is settled.",
  );
});

// phone.py's round_lines for a round: each side's lines as the round pages draw them
// (scorekeeper/portable/fragments.py; these are its output for the lines below).
const MINE = {
  ok: true,
  errors: [],
  // Ann: Wicker baskets 2 × 500, Going out, Cards left in hand; Bob & Co: nothing.
  sides_html: [
    "<div class=\"breakdown\"><h4>Ann: <span class=\"round-total\">+835</span> <span class=\"muted\">(total 885)</span></h4><table class=\"lines\"><tr><th scope=\"row\">Wicker baskets <span class=\"muted\">2 × 500</span></th><td>+1,000</td></tr><tr><th scope=\"row\">Going out</th><td>+250</td></tr><tr><th scope=\"row\">Cards left in hand</th><td>−415</td></tr></table></div>",
    "<div class=\"breakdown\"><h4>Bob &amp; Co: <span class=\"round-total\">0</span> <span class=\"muted\">(total 25)</span></h4><table class=\"lines\"><tr><td>Nothing scored.</td></tr></table></div>",
  ],
};
const THEIRS = {
  ok: true,
  errors: [],
  sides_html: [
    "<div class=\"breakdown\"><h4>Ann: <span class=\"round-total\">+50</span> <span class=\"muted\">(total 100)</span></h4><table class=\"lines\"><tr><th scope=\"row\">Cards melded</th><td>+50</td></tr></table></div>",
    "<div class=\"breakdown\"><h4>Bob &amp; Co: <span class=\"round-total\">+20</span> <span class=\"muted\">(total 45)</span></h4><table class=\"lines\"><tr><th scope=\"row\">Cards melded</th><td>+20</td></tr></table></div>",
  ],
};

test("a version shows each side's lines as the engine drew them, under its own title", () => {
  assert.equal(
    versionHtml("This phone's round 4", MINE).text,
    `<div class="version"><h3>This phone&#39;s round 4</h3>${MINE.sides_html.join("")}</div>`,
  );
});

test("a version the engine does not score at its place gives the engine's reasons", () => {
  const refused = { ok: false, errors: [{ key: "__all__", message: "Ann's melded points <7>." }], sides: [], totals_after: [] };
  assert.equal(
    versionHtml("The other phone's round 4", refused).text,
    `<div class="version"><h3>The other phone&#39;s round 4</h3><p class="field-error">Ann&#39;s melded points &lt;7&gt;.</p></div>`,
  );
});

test("a round saved on two phones shows both versions' lines and the three choices", () => {
  const conflict = {
    ...WAITING,
    state: "conflict",
    theirs: { number: 4, version: "v2", scores: [{ side: 0, points_text: "+50" }, { side: 1, points_text: "+20" }] },
  };
  const out = problemHtml(conflict, { mine: MINE, theirs: THEIRS }).text;
  assert.equal(
    text(out),
    "Round 4 was saved on two phones Another phone stored round 4 while this one was offline. Which is right? " +
      "This phone&#39;s round 4 " +
      "Ann: +835 (total 885) Wicker baskets 2 × 500 +1,000 Going out +250 Cards left in hand −415 " +
      "Bob &amp; Co: 0 (total 25) Nothing scored. " +
      "The other phone&#39;s round 4 " +
      "Ann: +50 (total 100) Cards melded +50 Bob &amp; Co: +20 (total 45) Cards melded +20 " +
      "Keep this phone's round Keep the other phone's round Keep both " +
      "Keep both when the table really played both rounds: this phone's becomes round 5. " +
      "The next round can be entered once this is settled.",
  );
  // Both versions side by side (stacked on a phone), each side's lines in a breakdown.
  assert.match(out, /<div class="versions">\s*<div class="version"><h3>This phone&#39;s round 4<\/h3><div class="breakdown">/);
  assert.equal((out.match(/<div class="breakdown">/g) || []).length, 4);
  assert.match(out, /<p class="settle-first">The next round can be entered once this is settled.<\/p>\s*<\/section>$/);
  assert.equal(
    text(problemHtml(conflict, { mine: MINE, theirs: THEIRS, asked: "theirs" })),
    "Round 4 was saved on two phones Another phone stored round 4 while this one was offline. Which is right? " +
      "This phone&#39;s round 4 " +
      "Ann: +835 (total 885) Wicker baskets 2 × 500 +1,000 Going out +250 Cards left in hand −415 " +
      "Bob &amp; Co: 0 (total 25) Nothing scored. " +
      "The other phone&#39;s round 4 " +
      "Ann: +50 (total 100) Cards melded +50 Bob &amp; Co: +20 (total 45) Cards melded +20 " +
      "Remove this phone's round 4? The other phone&#39;s round 4 stays. Yes, remove this phone's round 4 No, go back " +
      "The next round can be entered once this is settled.",
  );
});

test("a round behind a choice says nothing of the next round: only the choice does", () => {
  assert.doesNotMatch(problemHtml(WAITING).text, /settle-first/);
});

test("the question before a round is removed names its buttons' choices", () => {
  assert.equal(
    askHtml(WAITING, "discard").text,
    `<div class="choices"><p role="alert">Remove this phone's round 4? It cannot be brought back.</p>
    <button type="button" class="button" data-offline-choice="drop" data-key="k1">Yes, remove this phone's round 4</button>
    <button type="button" class="button secondary" data-offline-choice="back" data-key="k1">No, go back</button></div>`,
  );
});

test("the message a saved round leaves for the next page", () => {
  assert.equal(flashHtml("Round 2 <saved>").text, '<ul class="messages"><li class="message success">Round 2 &lt;saved&gt;</li></ul>');
});

test("the offline shell's game page: the sides, a local game's note, a refusal, the parts to fill", () => {
  const game = { snapshot: { sides: ["Ann", "Bob"] }, local: true, error: "taken" };
  const out = shellGameHtml("g1", game, html`<p>wait</p>`).text;
  assert.equal(
    text(out),
    "Ann vs Bob Started on this phone while offline: it is created on the server when the connection returns. " +
      "Not created on the server: taken wait",
  );
  assert.match(out, /<div data-offline-game="g1" data-can-score="1">/);
  assert.equal(text(shellGameHtml("g1", { snapshot: { sides: ["A", "B", "C"] } }, "")), "A vs B vs C");
});

test("the offline shell elsewhere lists the games kept, by title or by sides", () => {
  const games = [
    { id: "g1", snapshot: { title: "Friday", sides: ["Ann", "Bob"] } },
    { id: "g2", snapshot: { sides: ["Cy", "Di"] } },
  ];
  assert.equal(
    text(elsewhereHtml(games)),
    "Offline This page is not kept on this phone, and there is no connection to load it. Games you can score here Friday Cy vs Di",
  );
  assert.match(elsewhereHtml(games).text, /<li><a href="\/g\/g2\/">Cy vs Di<\/a><\/li>/);
  assert.equal(text(elsewhereHtml([])), "Offline This page is not kept on this phone, and there is no connection to load it.");
});

test("a round form drawn here wraps the engine's fields, dealer line and breakdown in the form", () => {
  const made = {
    number: 3,
    dealer_html: "<strong>Bob</strong> deals.",
    fields_html: '<div id="err-__all__" class="errors"></div><div class="side-blocks"></div>',
    preview_html: '<section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2></section>',
  };
  const out = roundFormHtml("g 1", made).text;
  assert.equal(
    text(out),
    "Round 3 ← Back to the game Bob deals. Breakdown Save round 3",
  );
  // The engine's pieces go in as they are, inside the form, in the server's order.
  const at = (piece) => out.indexOf(piece);
  assert.ok(at('<form method="post" class="round-form" novalidate data-offline-game="g 1">') > at(made.dealer_html));
  assert.ok(at('<input type="hidden" name="round_number" value="3">') < at(made.fields_html));
  assert.ok(at(made.fields_html) < at(made.preview_html));
  assert.ok(at(made.preview_html) < at('<button class="button big" type="submit">Save round 3</button>'));
  assert.match(out, /<a class="back" href="\/g\/g%201\/">/);
});
