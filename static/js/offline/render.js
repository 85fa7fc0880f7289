// The HTML the phone draws for itself offline, as plain functions of what the engine and the store
// gave: the game's state and scores, the rounds that need the player, the round form and its
// breakdown, and the offline shell's pages. Every value put in is escaped (html`` below); nothing
// here reads the page, the store or the clock.

// ---- Markup: every value interpolated is escaped, pieces made by html`` are kept as they are.
export class Markup {
  constructor(text) {
    this.text = text;
  }
  toString() {
    return this.text;
  }
}

export function escape(value) {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(escape).join("");
  if (value === null || value === undefined || value === false) return "";
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}

export function html(strings, ...values) {
  return new Markup(strings.reduce((out, part, i) => out + part + (i < values.length ? escape(values[i]) : ""), ""));
}

export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export const gameUrl = (id) => `/g/${encodeURIComponent(id)}/`;

// The engine names a side by its index in the game's sides, or by its name.
export const sideName = (view, side) => (typeof side === "number" ? view.sides[side] : side);

// ---- The game page.
export function stateHtml(view, id, canScore) {
  if (view.finished) {
    const totals = view.totals.map((t) => `${sideName(view, t.side)} ${t.total_text}`).join(", ");
    return html`<section class="result"><h2>${view.tie ? "It's a tie" : `Winner: ${view.winner}`}</h2>
      <p>Final score: ${totals}.</p></section>`;
  }
  const notes = view.to_win || [];
  return html`<section class="next-round">
    <h2>Round ${view.next_round}</h2>
    <p class="dealer"><strong>${view.dealer}</strong> deals.</p>
    <ul class="meld-needs">${view.meld_requirement.map(
      (m) => html`<li><span>${sideName(view, m.side)} needs</span> <strong class="meld">${m.points_text}</strong> <span>to open</span></li>`,
    )}</ul>
    ${notes.length ? html`<ul class="to-win">${notes.map((n) => html`<li>${n}</li>`)}</ul>` : ""}
    ${canScore ? html`<a class="button big" href="${gameUrl(id)}rounds/new/" data-needs-settled>Enter round ${view.next_round}</a>` : ""}
  </section>`;
}

export function scoresHtml(view, id) {
  const row = (round) => {
    const cells = round.scores.map((score, i) => {
      const inner = html`<span class="visually-hidden">Round ${round.number}, ${view.sides[i]}: </span><span class="points">${score.points_text}</span><span class="visually-hidden">, total</span> <span class="running">${score.total_text}</span>`;
      return round.waiting
        ? html`<td><span class="cell">${inner}</span></td>`
        : html`<td><a href="${gameUrl(id)}rounds/${round.number}/">${inner}</a></td>`;
    });
    const head = round.waiting
      ? html`<th scope="row"><span class="cell">${round.number} <span class="waiting-note">saved on this phone, not sent yet</span></span></th>`
      : html`<th scope="row"><a href="${gameUrl(id)}rounds/${round.number}/">${round.number}</a></th>`;
    return html`<tr${round.waiting ? html` class="waiting"` : ""}>${head}${cells}</tr>`;
  };
  return html`<section data-offline-part="scores">
    <h2>Scores</h2>
    <div class="table-wrap"><table class="scoreboard">
      <thead><tr><th scope="col">Round</th>${view.sides.map((s) => html`<th scope="col">${s}</th>`)}</tr></thead>
      <tbody>${view.rounds.length ? view.rounds.map(row) : html`<tr><td colspan="${view.sides.length + 1}" class="empty">No rounds yet.</td></tr>`}</tbody>
      <tfoot><tr><th scope="row">Total</th>${view.totals.map((t) => html`<td class="total">${t.total_text}</td>`)}</tr></tfoot>
    </table></div>
  </section>`;
}

// While the engine starts on a page the server drew: the stale scores are not left unsaid.
export const addingHtml = (count) =>
  html`<p class="muted">Adding the ${plural(count, "round")} kept on this phone to the scores…</p>`;

// Rounds kept here that the engine cannot count (it says why): none is left out unsaid.
export const refusedHtml = (errors) =>
  html`${(errors || []).map((e) => html`<p class="field-error" role="alert">${e.message}</p>`)}`;

export const flashHtml = (text) => html`<ul class="messages"><li class="message success">${text}</li></ul>`;

// ---- Rounds that need the player: a conflict with another phone, or a refusal.
/** One side's lines of a round, marked up as the server's round pages mark up a breakdown
 *  (round_detail.html, round_form.html's preview): the label with its count ("2 × 500") where
 *  the engine gives one, the points, the round's total and the total after it. */
export function sideLinesHtml(side, totalAfter) {
  return html`<div class="breakdown">
    <h4>${side.name}: <span class="round-total">${side.total_text}</span>${totalAfter ? html` <span class="muted">(total ${totalAfter.total_text})</span>` : ""}</h4>
    <table class="lines">${side.lines.length ? side.lines.map(
      (line) => html`<tr><th scope="row">${line.label}${line.count_text ? html` <span class="muted">${line.count_text}</span>` : ""}</th><td>${line.points_text}</td></tr>`,
    ) : html`<tr><td>Nothing scored.</td></tr>`}</table>
  </div>`;
}

/** One version of a round saved on two phones: its title and each side's lines, as phone.py's
 *  round_lines gives them, or the engine's reasons for not scoring it there. */
export function versionHtml(title, lines) {
  return html`<div class="version"><h3>${title}</h3>${lines.ok
    ? lines.sides.map((side, i) => sideLinesHtml(side, lines.totals_after[i]))
    : lines.errors.map((e) => html`<p class="field-error">${e.message}</p>`)}</div>`;
}

// Beside a choice: the round form and the corrections wait for it (game.js hides them meanwhile).
export const settleFirstHtml = () => html`<p class="settle-first">The next round can be entered once this is settled.</p>`;

// Removing a round is asked once more: `choice` is the button that asked ("theirs", "discard").
export function askHtml(round, choice) {
  const why = choice === "theirs" ? `The other phone's round ${round.number} stays.` : "It cannot be brought back.";
  return html`<div class="choices"><p role="alert">Remove this phone's round ${round.number}? ${why}</p>
    <button type="button" class="button" data-offline-choice="drop" data-key="${round.key}">Yes, remove this phone's round ${round.number}</button>
    <button type="button" class="button secondary" data-offline-choice="back" data-key="${round.key}">No, go back</button></div>`;
}

/** A waiting round the engine does not count. `asked`: the removal being asked about, if any;
 *  `mine` and `theirs`: for a conflict with the other phone's round, each version's lines at
 *  its place in the game (phone.py's round_lines). */
export function problemHtml(round, { asked, mine, theirs: other } = {}) {
  if (round.state === "refused") {
    return html`<section class="offline-problem" data-key="${round.key}">
      <h2>Round ${round.number} was not stored</h2>
      <p class="field-error" role="alert">${round.error}</p>
      <p>It is still kept on this phone.</p>
      ${asked ? askHtml(round, asked) : html`<div class="choices">
        <a class="button secondary" href="${gameUrl(round.game)}rounds/new/?edit=${round.key}">Edit round ${round.number}</a>
        <button type="button" class="button secondary" data-offline-choice="discard" data-key="${round.key}">Discard round ${round.number}</button>
      </div>`}
      ${settleFirstHtml()}
    </section>`;
  }
  if (round.state !== "conflict") {
    return html`<p class="offline-behind">Round ${round.number}, saved on this phone, is sent once the round before it is settled.</p>`;
  }
  if (!round.theirs) {
    // Nothing stored at that number (a round was deleted on another phone): it can only go on.
    return html`<section class="offline-problem conflict" data-key="${round.key}">
      <h2>Round ${round.number} could not be stored at its number</h2>
      <p>${round.error || `The game on the server no longer has the rounds before round ${round.number}.`}</p>
      ${asked ? askHtml(round, asked) : html`<div class="choices">
        <button type="button" class="button" data-offline-choice="both" data-key="${round.key}">Add it as the next round</button>
        <button type="button" class="button secondary" data-offline-choice="discard" data-key="${round.key}">Discard round ${round.number}</button>
      </div>`}
      ${settleFirstHtml()}
    </section>`;
  }
  const theirs = round.theirs;
  return html`<section class="offline-problem conflict" data-key="${round.key}">
    <h2>Round ${round.number} was saved on two phones</h2>
    <p>Another phone stored round ${round.number} while this one was offline. Which is right?</p>
    <div class="versions">
      ${versionHtml(`This phone's round ${round.number}`, mine)}
      ${versionHtml(`The other phone's round ${theirs.number ?? round.number}`, other)}
    </div>
    ${asked ? askHtml(round, asked) : html`<div class="choices">
      <button type="button" class="button" data-offline-choice="mine" data-key="${round.key}">Keep this phone's round</button>
      <button type="button" class="button secondary" data-offline-choice="theirs" data-key="${round.key}">Keep the other phone's round</button>
      <button type="button" class="button secondary" data-offline-choice="both" data-key="${round.key}">Keep both</button>
    </div>
    <p class="hint">Keep both when the table really played both rounds: this phone's becomes round ${round.number + 1}.</p>`}
    ${settleFirstHtml()}
  </section>`;
}

// ---- The offline shell's pages.
export function shellGameHtml(id, game, state) {
  const names = game.snapshot.sides;
  return html`<h1>${names.map((n, i) => html`${i ? html` <span class="muted">vs</span> ` : ""}${n}`)}</h1>
      ${game.local ? html`<p class="muted">Started on this phone while offline: it is created on the server when the connection returns.</p>` : ""}
      ${game.error ? html`<p class="field-error" role="alert">Not created on the server: ${game.error}</p>` : ""}
      <div data-offline-game="${id}" data-can-score="1">
        <div data-offline-part="problems"></div>
        <div data-offline-part="state">${state}</div>
        <section data-offline-part="scores"></section>
      </div>`;
}

export const workingHtml = () => html`<p class="muted">Working out the scores on this phone…</p>`;

export const unknownGameHtml = () => html`<h1>Offline</h1>
        <p>This game was never opened on this phone, so it cannot be shown without a connection.
        Open it once while online and it is kept here for offline scoring.</p>
        <p><a href="/">Back to the start page</a></p>`;

export function elsewhereHtml(games) {
  return html`<h1>Offline</h1>
    <p>This page is not kept on this phone, and there is no connection to load it.</p>
    ${games.length ? html`<h2>Games you can score here</h2><ul class="plain">${games.map(
      (g) => html`<li><a href="${gameUrl(g.id)}">${g.snapshot.title || g.snapshot.sides.join(" vs ")}</a></li>`,
    )}</ul>` : ""}`;
}

// ---- The round form: its breakdown, and the whole form where the server's is not on the phone.
export function previewHtml(result, number, note) {
  if (note) return html`<section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2><p class="muted">${note}</p></section>`;
  if (!result.ok) {
    return html`<section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2><p class="muted">Fix the fields marked in red to see the breakdown.</p></section>`;
  }
  return html`<section id="preview" class="preview" aria-live="polite" data-offline-preview>
    <h2>Breakdown</h2>
    ${result.sides.map(
      (side) => html`<div class="breakdown"><h3>${side.name}: <span class="round-total">${side.total_text}</span></h3>
        <table class="lines">${side.lines.map((line) => html`<tr><th scope="row">${line.label}${line.count_text ? html` <span class="muted">${line.count_text}</span>` : ""}</th><td>${line.points_text}</td></tr>`)}</table></div>`,
    )}
    <p class="new-totals">Totals after round ${number}: ${result.totals_after.map(
      (t, i) => html`${i ? ", " : ""}${sideName({ sides: result.sides.map((s) => s.name) }, t.side)} <strong>${t.total_text}</strong>`,
    )}</p>
  </section>`;
}

export function summaryHtml(result, number) {
  if (result.ok) return "";
  const general = result.errors.find((e) => e.key === "__all__");
  if (general) return html`<p><a href="#err-__all__">${general.message}</a></p>`;
  const count = result.errors.length;
  return html`<p><a href="#main">Round ${number} not saved yet: ${plural(count, "field")} to fix, marked in red</a></p>`;
}

export function dealerHtml(view) {
  return html`<strong>${view.dealer}</strong> deals. Opening meld: ${view.meld_requirement.map(
    (m, i) => html`${i ? ", " : ""}${sideName(view, m.side)} <strong>${m.points_text}</strong>`,
  )}.`;
}

export const errorHtml = (message) => html`<p class="field-error" role="alert">${message}</p>`;

// A round form drawn here, for a game with no server page on this phone (started offline, or
// its form never opened online): the same field names, error slots and breakdown as the server's.
export function stepperHtml(field) {
  if (field.kind === "flag") {
    return html`<div class="field flag"><label class="choice" for="${field.key}"><input type="checkbox" id="${field.key}" name="${field.key}" value="1" class="big-check"> ${field.label}</label>
      ${field.help ? html`<p class="hint">${field.help}</p>` : ""}<div id="err-${field.key}" class="errors"></div></div>`;
  }
  const step = field.step || 1;
  return html`<div class="field">
    <div class="field-name"><label for="${field.key}">${field.label}</label>${field.help ? html`<span class="hint">${field.help}</span>` : ""}</div>
    <div class="stepper">
      <button type="button" class="step" data-for="${field.key}" data-step="-${step}" aria-label="${field.label}: less">−</button>
      <input type="number" id="${field.key}" name="${field.key}" min="0" step="${step}" inputmode="numeric" pattern="[0-9]*" placeholder="0">
      <button type="button" class="step" data-for="${field.key}" data-step="${step}" aria-label="${field.label}: more">+</button>
    </div>
    <div id="err-${field.key}" class="errors"></div>
  </div>`;
}

function pileHtml(pile) {
  return html`${stepperHtml(pile.points)}
    <details class="count-cards"><summary>Count cards</summary>
      <p class="hint">Counted cards replace the points typed above.</p>
      <div id="err-${pile.cards_key}" class="errors"></div>
      <div class="rank-grid">${pile.cards.map(
        (card) => html`<div class="rank"><label for="${card.key}">${card.label} <span class="muted">(${card.points_text})</span></label>
          <div class="stepper small">
            <button type="button" class="step" data-for="${card.key}" data-step="-1" aria-label="${card.label}: one less">−</button>
            <input type="number" id="${card.key}" name="${card.key}" min="0" inputmode="numeric" pattern="[0-9]*" placeholder="0">
            <button type="button" class="step" data-for="${card.key}" data-step="1" aria-label="${card.label}: one more">+</button>
          </div><div id="err-${card.key}" class="errors"></div></div>`,
      )}</div>
    </details>`;
}

function sideBlockHtml(side, kinds) {
  const flags = side.before.filter((f) => f.kind === "flag");
  const counts = side.before.filter((f) => f.kind !== "flag");
  return html`<fieldset class="side-block" id="${side.key}">
    <legend>${side.name}${side.is_dealer ? html` <span class="badge">dealer</span>` : ""}</legend>
    <div id="err-${side.key}" class="errors"></div>
    ${flags.map(stepperHtml)}
    <div class="canastas">${side.canastas.map(stepperHtml)}<div id="err-${side.key}-canastas" class="errors"></div></div>
    ${counts.map(stepperHtml)}
    ${pileHtml(side.melded)}${pileHtml(side.hand)}
    ${side.after.map(stepperHtml)}
    ${side.open_books.length ? html`<fieldset class="open-books"><legend>Open books of seven or more left on the table</legend>${side.open_books.map(
      (book, i) => html`<div class="open-book">
        <label for="${book.kind_key}">Book ${i + 1} kind</label>
        <select id="${book.kind_key}" name="${book.kind_key}"><option value="">none</option>${kinds.map((k) => html`<option value="${k.kind}">${k.label}</option>`)}</select>
        <label for="${book.points_key}">Book ${i + 1} points</label>
        <input type="number" id="${book.points_key}" name="${book.points_key}" min="0" step="5" inputmode="numeric">
        <div id="err-${book.points_key}" class="errors"></div></div>`,
    )}</fieldset>` : ""}
  </fieldset>`;
}

export function roundFormHtml(id, made) {
  return html`<div class="round-top">
      <h1 data-offline-part="heading">Round ${made.number}</h1>
      <a class="back" href="${gameUrl(id)}">← Back to the game</a>
    </div>
    <p class="dealer" data-offline-part="dealer"><strong>${made.dealer}</strong> deals.</p>
    <form method="post" class="round-form" novalidate data-offline-game="${id}">
      <input type="hidden" name="round_number" value="${made.number}">
      <div id="err-__all__" class="errors"></div>
      <fieldset class="went-out choices-row"><legend>Who went out?</legend>
        ${made.sides.map((side) => html`<label class="choice"><input type="radio" id="went_out-${side.went_out_value}" name="went_out" value="${side.went_out_value}"> ${side.name}<span class="visually-hidden"> went out</span></label>`)}
        <label class="choice"><input type="radio" name="went_out" value="${made.stock_value}"> The stock ran out</label>
        <div id="err-went_out" class="errors"></div>
      </fieldset>
      <div class="side-blocks">${made.sides.map((side) => sideBlockHtml(side, made.kinds))}</div>
      <section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2><p class="muted">The breakdown shows here as you type.</p></section>
      <div class="save-bar"><div id="save-summary" class="save-summary"></div>
        <button class="button big" type="submit">Save round ${made.number}</button></div>
    </form>`;
}

export const formWaitHtml = (next) => html`<h1>Round ${next}</h1><p class="muted">Drawing the form on this phone…</p>`;

export const gameOverHtml = (id) => html`<h1>The game is over</h1><p><a href="${gameUrl(id)}">Back to the game</a></p>`;

/** The game page while the engine cannot answer: the rounds kept here, which are not in the
 *  scores yet, and why. */
export function notReadyHtml(rounds) {
  const kept = rounds.filter((r) => r.state === "waiting").map((r) => r.number);
  const which = kept.length
    ? `${kept.length === 1 ? "Round" : "Rounds"} ${kept.join(", ")} ${kept.length === 1 ? "is" : "are"} kept on this phone and sent when the connection returns, but not added to the scores below yet: `
    : "";
  return html`<p class="offline-behind" role="status">${which}this phone's scorer has not loaded (it needs the connection once).</p>`;
}

/** The next round while the engine cannot answer: its number, counting the rounds kept here, and
 *  the way to enter it; the dealer and opening melds come with the engine. */
export function nextWithoutEngineHtml(id, next, canScore) {
  return html`<section class="next-round">
    <h2>Round ${next}</h2>
    <p class="muted">Who deals and the opening melds show once this phone's scorer has loaded.</p>
    ${canScore ? html`<a class="button big" href="${gameUrl(id)}rounds/new/">Enter round ${next}</a>` : ""}
  </section>`;
}
