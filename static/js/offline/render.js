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

// ---- The game page (its next round and scores come from the engine: phone.game_view).
// While the engine starts on a page the server drew: the stale scores are not left unsaid.
export const addingHtml = (count) =>
  html`<p class="muted">Adding the ${plural(count, "round")} kept on this phone to the scores…</p>`;

// Rounds kept here that the engine cannot count (it says why): none is left out unsaid.
export const refusedHtml = (errors) =>
  html`${(errors || []).map((e) => html`<p class="field-error" role="alert">${e.message}</p>`)}`;

export const flashHtml = (text) => html`<ul class="messages"><li class="message success">${text}</li></ul>`;

// ---- Rounds that need the player: a conflict with another phone, or a refusal.
/** One version of a round saved on two phones: its title and each side's lines as phone.py's
 *  round_lines draws them (the round pages' own renderer), or the engine's reasons for not
 *  scoring it there. */
export function versionHtml(title, lines) {
  return html`<div class="version"><h3>${title}</h3>${lines.ok
    ? lines.sides_html.map((piece) => new Markup(piece))
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

// ---- The round form where the server's is not on the phone: its fields, dealer line and empty
// breakdown are drawn by the engine's renderer (phone.round_form), as the server draws them.
export const errorHtml = (message) => html`<p class="field-error" role="alert">${message}</p>`;

export function roundFormHtml(id, made) {
  return html`<div class="round-top">
      <h1 data-offline-part="heading">Round ${made.number}</h1>
      <a class="back" href="${gameUrl(id)}">← Back to the game</a>
    </div>
    <p class="dealer" data-offline-part="dealer">${new Markup(made.dealer_html)}</p>
    <form method="post" class="round-form" novalidate data-offline-game="${id}">
      <input type="hidden" name="round_number" value="${made.number}">
      ${new Markup(made.fields_html)}
      ${new Markup(made.preview_html)}
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
