// static/js/offline/render.js: escaping, and the HTML the phone draws offline, read as the exact
// markup for small pieces and as the exact text a player sees (tags dropped) for whole sections.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  Markup,
  askHtml,
  dealerHtml,
  elsewhereHtml,
  escape,
  flashHtml,
  gameUrl,
  html,
  plural,
  previewHtml,
  problemHtml,
  refusedHtml,
  roundFormHtml,
  scoresHtml,
  shellGameHtml,
  sideLinesHtml,
  sideName,
  stateHtml,
  summaryHtml,
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

test("plural, gameUrl and sideName", () => {
  assert.deepEqual([0, 1, 2].map((n) => plural(n, "round")), ["0 rounds", "1 round", "2 rounds"]);
  assert.equal(gameUrl("abc_-1"), "/g/abc_-1/");
  assert.equal(gameUrl("a/b c"), "/g/a%2Fb%20c/");
  const view = { sides: ["Ann", "Bob"] };
  assert.deepEqual([sideName(view, 1), sideName(view, 0), sideName(view, "Team C")], ["Bob", "Ann", "Team C"]);
});

const VIEW = {
  sides: ["Ann", "Bob & Co"],
  finished: false,
  next_round: 3,
  dealer: "Bob & Co",
  meld_requirement: [
    { side: 0, points_text: "90" },
    { side: 1, points_text: "120" },
  ],
  to_win: ["Ann needs 1,200 more"],
  rounds: [
    { number: 1, waiting: false, scores: [{ points_text: "+50", total_text: "50" }, { points_text: "+40", total_text: "40" }] },
    { number: 2, waiting: true, scores: [{ points_text: "−10", total_text: "40" }, { points_text: "+5", total_text: "45" }] },
  ],
  totals: [
    { side: 0, total_text: "40" },
    { side: 1, total_text: "45" },
  ],
};

test("the state of a game under way: the next round, its dealer, the melds, Enter round for a scorer", () => {
  assert.equal(
    text(stateHtml(VIEW, "g1", true)),
    "Round 3 Bob &amp; Co deals. Ann needs 90 to open Bob &amp; Co needs 120 to open Ann needs 1,200 more Enter round 3",
  );
  // Marked to be hidden while a round kept on the phone waits for the player's choice.
  assert.match(stateHtml(VIEW, "g1", true).text, /<a class="button big" href="\/g\/g1\/rounds\/new\/" data-needs-settled>Enter round 3<\/a>/);
  assert.equal(text(stateHtml({ ...VIEW, to_win: [] }, "g1", false)), "Round 3 Bob &amp; Co deals. Ann needs 90 to open Bob &amp; Co needs 120 to open");
});

test("the state of a finished game: the winner or the tie, and the final score", () => {
  const finished = { ...VIEW, finished: true, winner: "Bob & Co", tie: false };
  assert.equal(text(stateHtml(finished, "g1", true)), "Winner: Bob &amp; Co Final score: Ann 40, Bob &amp; Co 45.");
  assert.equal(text(stateHtml({ ...finished, tie: true }, "g1", true)), "It&#39;s a tie Final score: Ann 40, Bob &amp; Co 45.");
});

test("the scoreboard links stored rounds and marks the waiting ones", () => {
  const out = scoresHtml(VIEW, "g1").text;
  assert.equal(
    text(out),
    "Scores Round Ann Bob &amp; Co " +
      "1 Round 1, Ann: +50 , total 50 Round 1, Bob &amp; Co: +40 , total 40 " +
      "2 saved on this phone, not sent yet Round 2, Ann: −10 , total 40 Round 2, Bob &amp; Co: +5 , total 45 " +
      "Total 40 45",
  );
  assert.match(out, /<th scope="row"><a href="\/g\/g1\/rounds\/1\/">1<\/a><\/th>/);
  assert.match(out, /<tr class="waiting"><th scope="row"><span class="cell">2 /);
  assert.equal((out.match(/<tr class="waiting">/g) || []).length, 1);
});

test("an empty scoreboard says so across every column", () => {
  const out = scoresHtml({ ...VIEW, rounds: [] }, "g1").text;
  assert.match(out, /<tbody><tr><td colspan="3" class="empty">No rounds yet.<\/td><\/tr><\/tbody>/);
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

// phone.py's round_lines for a round: each side's lines, with the engine's counts.
const lineOf = (label, points_text, count_text = "") => ({ label, points_text, count_text });
const MINE = {
  ok: true,
  errors: [],
  sides: [
    {
      name: "Ann",
      total_text: "+835",
      lines: [lineOf("Wicker baskets", "+1,000", "2 × 500"), lineOf("Going out", "+250"), lineOf("Cards left in hand", "−415")],
    },
    { name: "Bob & Co", total_text: "+0", lines: [] },
  ],
  totals_after: [
    { side: "Ann", total_text: "885" },
    { side: "Bob & Co", total_text: "25" },
  ],
};
const THEIRS = {
  ok: true,
  errors: [],
  sides: [
    { name: "Ann", total_text: "+50", lines: [lineOf("Cards melded", "+50")] },
    { name: "Bob & Co", total_text: "+20", lines: [lineOf("Cards melded", "+20")] },
  ],
  totals_after: [
    { side: "Ann", total_text: "100" },
    { side: "Bob & Co", total_text: "45" },
  ],
};

test("one side's lines are marked up as the round pages' breakdown, counts beside their labels", () => {
  assert.equal(
    sideLinesHtml(MINE.sides[0], MINE.totals_after[0]).text,
    `<div class="breakdown">
    <h4>Ann: <span class="round-total">+835</span> <span class="muted">(total 885)</span></h4>
    <table class="lines"><tr><th scope="row">Wicker baskets <span class="muted">2 × 500</span></th><td>+1,000</td></tr>` +
      `<tr><th scope="row">Going out</th><td>+250</td></tr><tr><th scope="row">Cards left in hand</th><td>−415</td></tr></table>
  </div>`,
  );
  // Escaped, and a side with no lines says so as the round page does.
  assert.equal(
    sideLinesHtml({ name: "<b>Bob</b>", total_text: "+0", lines: [] }).text,
    `<div class="breakdown">
    <h4>&lt;b&gt;Bob&lt;/b&gt;: <span class="round-total">+0</span></h4>
    <table class="lines"><tr><td>Nothing scored.</td></tr></table>
  </div>`,
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
      "Bob &amp; Co: +0 (total 25) Nothing scored. " +
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
      "Bob &amp; Co: +0 (total 25) Nothing scored. " +
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

test("the breakdown: a note, the fields to fix, or each side's lines and the totals after", () => {
  assert.equal(
    previewHtml(null, 3, "No <engine>").text,
    '<section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2><p class="muted">No &lt;engine&gt;</p></section>',
  );
  assert.equal(text(previewHtml({ ok: false, errors: [] }, 3)), "Breakdown Fix the fields marked in red to see the breakdown.");
  const result = {
    ok: true,
    sides: [
      { name: "Ann", total_text: "+1,150", lines: [{ label: "Melded", points_text: "+150" }, { label: "Wicker baskets", count_text: "2 × 500", points_text: "+1,000" }] },
      { name: "Bob", total_text: "−20", lines: [{ label: "Hand", points_text: "−20" }] },
    ],
    totals_after: [
      { side: 0, total_text: "1,200" },
      { side: "Bob", total_text: "20" },
    ],
  };
  // The counts as the server's breakdown shows them ("2 × 500").
  assert.equal(
    text(previewHtml(result, 3)),
    "Breakdown Ann: +1,150 Melded +150 Wicker baskets 2 × 500 +1,000 Bob: −20 Hand −20 Totals after round 3: Ann 1,200 , Bob 20",
  );
  assert.match(previewHtml(result, 3).text, /data-offline-preview/);
});

test("the save bar's summary: nothing when ok, the form's own error, else how many fields", () => {
  assert.equal(summaryHtml({ ok: true, errors: [] }, 3), "");
  assert.equal(
    summaryHtml({ ok: false, errors: [{ key: "s0", message: "x" }, { key: "__all__", message: "Who went out?" }] }, 3).text,
    '<p><a href="#err-__all__">Who went out?</a></p>',
  );
  assert.equal(
    summaryHtml({ ok: false, errors: [{ key: "s0", message: "x" }, { key: "s1", message: "y" }] }, 3).text,
    '<p><a href="#main">Round 3 not saved yet: 2 fields to fix, marked in red</a></p>',
  );
});

test("the dealer line with each side's opening meld", () => {
  assert.equal(
    dealerHtml({ sides: ["Ann", "Bob"], dealer: "Ann", meld_requirement: [{ side: 0, points_text: "50" }, { side: 1, points_text: "90" }] }).text,
    "<strong>Ann</strong> deals. Opening meld: Ann <strong>50</strong>, Bob <strong>90</strong>.",
  );
});

test("a round form drawn here has the server's field names and error slots", () => {
  const field = (key, label, extra = {}) => ({ key, label, kind: "count", ...extra });
  const pile = (prefix) => ({
    points: field(`${prefix}_points`, "Points"),
    cards_key: `${prefix}_cards`,
    cards: [{ key: `${prefix}-ace`, label: "Aces", points_text: "20" }],
  });
  const made = {
    number: 3,
    dealer: "Bob",
    stock_value: "stock",
    kinds: [{ kind: "clean", label: "Clean" }],
    sides: [
      {
        key: "s0",
        name: "Ann",
        is_dealer: true,
        went_out_value: "0",
        before: [field("s0-went_out_concealed", "Went out concealed", { kind: "flag" }), field("s0-red_threes", "Red threes")],
        canastas: [field("s0-clean", "Clean canastas", { step: 1, help: "7 cards" })],
        melded: pile("s0-melded"),
        hand: pile("s0-hand"),
        after: [],
        open_books: [{ kind_key: "s0-book0-kind", points_key: "s0-book0-points" }],
      },
    ],
  };
  const out = roundFormHtml("g1", made).text;
  const names = [...out.matchAll(/ name="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(names, [
    "round_number", "went_out", "went_out", "s0-went_out_concealed", "s0-clean", "s0-red_threes",
    "s0-melded_points", "s0-melded-ace", "s0-hand_points", "s0-hand-ace", "s0-book0-kind", "s0-book0-points",
  ]);
  const slots = [...out.matchAll(/ id="err-([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(slots, [
    "__all__", "went_out", "s0", "s0-went_out_concealed", "s0-clean", "s0-canastas", "s0-red_threes",
    "s0-melded_points", "s0-melded_cards", "s0-melded-ace", "s0-hand_points", "s0-hand_cards", "s0-hand-ace",
    "s0-book0-points",
  ]);
  assert.match(out, /<legend>Ann <span class="badge">dealer<\/span><\/legend>/);
  assert.match(out, /<button class="button big" type="submit">Save round 3<\/button>/);
  assert.match(out, /<option value="clean">Clean<\/option>/);
});
