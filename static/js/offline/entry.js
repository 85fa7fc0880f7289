// Round entry with no server to answer: the server's round form (from the phone's cache) or one
// drawn here from the engine, its breakdown worked out by the engine as the player types, its
// errors placed as the server places them, and the round saved on the phone to be sent later.

import { db } from "./store.js";
import { errorHtml, formWaitHtml, gameOverHtml, gameUrl, html, roundFormHtml } from "./render.js";
import { afterRedraw, compute, engine, isLoaded, readyWithin, warmWhenIdle } from "./page.js";
import { FLASH, gameState, keepForOffline, nextNumber, shellGame } from "./game.js";
import { unscoredRound } from "./kept.js";
import { goTo, pageSignal } from "./swap.js";

// How long Save waits for the engine before keeping the round as typed, to be scored later.
const READY_MS = 1500;
const NOT_LOADED =
  "This phone's scorer has not loaded yet (it needs the connection once): Save keeps the round as typed, and its breakdown shows once the scorer has loaded.";

/** The breakdown's place with a note instead, as scorekeeper/portable/fragments.py's
 *  preview_html draws it: drawn here because the engine, which draws the breakdown, is not
 *  there to answer (or the game is not). */
export const noteHtml = (note) =>
  html`<section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2><p class="muted">${note}</p></section>`;

/** A form's fields as the engine takes them, from its (name, value) pairs (a FormData): text
 *  values only, without the CSRF token, with the round's number. */
export function fieldsOf(pairs, number) {
  const fields = {};
  for (const [name, value] of pairs) {
    if (name !== "csrfmiddlewaretoken" && typeof value === "string") fields[name] = value;
  }
  fields.round_number = String(number);
  return fields;
}

export const formFields = (form, number) => fieldsOf(new FormData(form), number);

/** Put fields kept by formFields back into the form's elements, as they were typed. */
export function fillForm(form, fields) {
  for (const element of form.elements) {
    if (!element.name || ["csrfmiddlewaretoken", "round_number"].includes(element.name)) continue;
    const value = fields[element.name];
    if (element.type === "radio") element.checked = value === element.value;
    else if (element.type === "checkbox") element.checked = value !== undefined;
    else if (element.tagName !== "BUTTON") element.value = value ?? "";
  }
}

/** Where the error of field `key` goes, as the server places them: the most specific slot there
 *  is (s0-melded-3, else s0-melded, else s0), else the form's own. `has(key)` says whether the
 *  form has a slot err-<key>. Answers the field it settled on, whose input is marked, and the
 *  slot's key, null when the form has no slot for it at all. */
export function errorSlot(key, has) {
  let field = key || "__all__";
  while (!has(field) && field.includes("-")) field = field.slice(0, field.lastIndexOf("-"));
  const slot = has(field) ? field : has("__all__") ? "__all__" : null;
  return { field, slot };
}

function clearErrors(root) {
  root.querySelectorAll(".errors[id^='err-']").forEach((slot) => (slot.innerHTML = ""));
  root.querySelectorAll("[aria-invalid='true']").forEach((input) => input.removeAttribute("aria-invalid"));
}

/** Each error beside its field, as the server places them. */
export function placeErrors(root, errors) {
  clearErrors(root);
  const slotOf = (k) => root.querySelector(`#err-${CSS.escape(k)}`);
  for (const error of errors) {
    const { field, slot } = errorSlot(error.key, (k) => Boolean(slotOf(k)));
    if (!slot) continue;
    slotOf(slot).insertAdjacentHTML("beforeend", errorHtml(error.message).text);
    const input = root.querySelector(`#${CSS.escape(field)}`);
    if (input && input.tagName === "INPUT") input.setAttribute("aria-invalid", "true");
  }
}

/** `draw` for each change, started at once (no timer to wait for) and one at a time: the changes
 *  made while it runs (a held key, a stepper tapped fast) make one more run right after it,
 *  none when `fields()` answers what that run had (a radio's input and change events). Answers
 *  the change handler; its cancel() drops the run asked for meanwhile. */
export function inTurn(draw, fields) {
  let running = false;
  let again = false;
  const changed = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      let drawn;
      do {
        again = false;
        const now = fields();
        if (now !== drawn) {
          drawn = now;
          await draw();
        }
      } while (again);
    } finally {
      running = false;
    }
  };
  changed.cancel = () => {
    again = false;
  };
  return changed;
}

/** Take over a round form while the server cannot answer it: offline, with rounds waiting on the
 *  phone (the server's preview would be for the wrong round), or editing a round kept here. */
export function roundEntry(form, id) {
  let number = Number(form.querySelector("input[name='round_number']").value);
  let serverBroken = false;
  let asked = 0;
  const editKey = new URLSearchParams(location.search).get("edit");
  const offline = async () => !navigator.onLine || serverBroken || (await db.waitingFor(id)).length > 0 || editKey;

  // What the breakdown is worked out from besides the fields: the game and its waiting rounds as
  // the phone keeps them, read at each change (a round saved or sent meanwhile, here or in
  // another tab, changes them) but the same at nearly every one. So the round's number, the
  // dealer line and the engine's copy of them (engine.keep) are made once, and again only when
  // what was read differs from `known.key`.
  let known = null;

  const patch = async () => {
    const { game, counted, rounds } = await gameState(id);
    if (!game) {
      known = null;
      form.querySelector("#preview").outerHTML = noteHtml("This game is not kept on this phone: open its page once with a connection to score it offline.").text;
      return null;
    }
    const key = JSON.stringify([game.snapshot, rounds]);
    if (known && known.key === key) return known.state;
    known = null;
    const editing = editKey && rounds.find((r) => r.key === editKey);
    const shown = (n) => {
      number = editing ? editing.number : n;
      form.querySelector("input[name='round_number']").value = String(number);
      const heading = document.querySelector("[data-offline-part='heading']");
      if (heading) heading.textContent = `Round ${number}`;
      const save = form.querySelector(".save-bar button[type='submit']");
      if (save) save.textContent = `Save round ${number}`;
    };
    // The number at once, from what the phone keeps; the engine's answer (which knows whether
    // the game is over) may take a few seconds while its runtime starts.
    shown(nextNumber(game.snapshot, counted, rounds));
    const view = await compute("game_view", game.snapshot, counted.filter((r) => r.key !== editKey));
    if (view.finished && !editing) {
      // A round kept on this phone ended the game: there is no next round to enter.
      for (const field of form.elements) field.disabled = true;
      form.querySelector("#preview").outerHTML = noteHtml("The game is over with the rounds kept on this phone: go back to the game to see who won.").text;
      return null;
    }
    shown(view.next_round);
    const dealer = document.querySelector("[data-offline-part='dealer']");
    if (dealer) dealer.innerHTML = view.dealer_html;
    const others = counted.filter((r) => r.key !== editKey);
    const state = { run: (await engine()).keep(game.snapshot, others) };
    known = { key, state };
    return state;
  };

  // The breakdown and the note beside Save come drawn by the engine, as the server draws them.
  const draw = (result) => {
    form.querySelector("#preview").outerHTML = result.preview_html;
    placeErrors(form, result.errors);
    const summary = form.querySelector("#save-summary");
    if (summary) summary.innerHTML = result.summary_html;
  };

  // `saving`: Save's own preview, which no later change may overtake (a tap on Save blurs the
  // field typed last, whose change starts a preview of its own).
  const preview = async ({ saving = false } = {}) => {
    const ask = ++asked;
    const held = known && known.state;
    if (held && !saving) {
      // Drawn at once from the game the engine already holds, and only then is the game read
      // again from the phone's store (a read takes 1 to 5 ms, and competes with the engine for
      // a busy phone's time): nearly always the same game. A round saved or sent meanwhile (here
      // or in another tab) draws the breakdown again from the game as it is now.
      const result = await held.run("round_preview", formFields(form, number));
      // A later change answered first: this answer is out of date.
      if (ask !== asked) return null;
      draw(result);
      patch().then(
        (state) => state !== held && ask === asked && previewSafely(),
        (error) => ask === asked && failed(error),
      );
      return result;
    }
    const state = await patch();
    if (!state) return null;
    const result = await state.run("round_preview", formFields(form, number));
    if (!saving && ask !== asked) return null;
    draw(result);
    return result;
  };
  const failed = async (error) => {
    // The engine could not load (offline before it was kept): say what Save does instead.
    const note = (await isLoaded()) ? `The scorer on this phone failed: ${error.message || error}` : NOT_LOADED;
    form.querySelector("#preview").outerHTML = noteHtml(note).text;
  };
  const previewSafely = () => preview().catch(failed);

  // Save with the engine not loaded: the round as typed, scored once the engine answers.
  const keepAsTyped = async () => {
    const { game, counted, rounds } = await gameState(id);
    if (!game) return false;
    const old = editKey && rounds.find((r) => r.key === editKey);
    const at = old ? old.number : nextNumber(game.snapshot, counted, rounds);
    await db.waitingPut(
      unscoredRound({
        key: old ? old.key : crypto.randomUUID(),
        game: id,
        number: at,
        fields: formFields(form, at),
        saved: old ? old.saved : Date.now(),
      }),
    );
    sessionStorage.setItem(FLASH, `Round ${at} saved on this phone as typed, not sent yet: it is added to the scores once this phone's scorer has loaded.`);
    await goTo(gameUrl(id));
    return true;
  };

  const previewInTurn = inTurn(previewSafely, () => JSON.stringify(formFields(form, number)));
  const onChange = async () => {
    if (await offline()) previewInTurn();
  };
  form.addEventListener("input", onChange);
  form.addEventListener("change", onChange);

  // Offline the server's preview cannot come: the phone's engine answers instead.
  const signal = pageSignal();
  document.body.addEventListener("htmx:beforeRequest", (event) => {
    if (!form.contains(event.detail.elt)) return;
    // With rounds waiting on the phone the server's preview would be for the wrong round.
    if (offlineNow()) event.preventDefault();
  }, { signal });
  document.body.addEventListener("htmx:sendError", (event) => {
    if (!form.contains(event.detail.elt)) return;
    serverBroken = true;
    previewSafely();
  }, { signal });

  form.addEventListener("submit", async (event) => {
    // Decided before any await: the browser sends the form as soon as this handler yields.
    if (!offlineNow()) return;
    event.preventDefault();
    previewInTurn.cancel();
    const button = form.querySelector("button[type='submit']");
    button.disabled = true;
    try {
      if (!(await readyWithin(READY_MS)) && (await keepAsTyped())) return;
      const result = await preview({ saving: true });
      if (!result || !result.ok) return;
      const old = editKey && (await db.waitingFor(id)).find((r) => r.key === editKey);
      await db.waitingPut({
        key: old ? old.key : crypto.randomUUID(),
        game: id,
        number: result.number ?? number,
        ended_by: result.ended_by,
        entry: result.entry,
        place: old ? old.place || "exact" : "exact",
        version: old ? old.version : null,
        state: "waiting",
        error: "",
        theirs: null,
        saved: old ? old.saved : Date.now(),
        // As typed, so that Edit opens the form as it was.
        fields: formFields(form, number),
      });
      sessionStorage.setItem(FLASH, `Round ${result.number ?? number} saved on this phone, not sent yet.`);
      await goTo(gameUrl(id));
    } catch (error) {
      form.querySelector("#preview").outerHTML = noteHtml(`Not saved: ${error.message || error}`).text;
    } finally {
      button.disabled = false;
    }
  });
  // The submit handler must decide before the browser sends the form, so it cannot wait for
  // IndexedDB: what it needs is read now and kept up to date.
  let waitingHere = 0;
  const offlineNow = () => !navigator.onLine || serverBroken || waitingHere > 0 || Boolean(editKey);
  const count = async () => {
    waitingHere = (await db.waitingFor(id)).length;
  };
  count();
  afterRedraw(count);

  if (navigator.onLine && form.hasAttribute("data-watch")) keepForOffline(id);
  else warmWhenIdle();
  if (editKey) {
    db.waitingFor(id).then((rounds) => {
      const old = rounds.find((r) => r.key === editKey);
      if (old && old.fields) fillForm(form, old.fields);
      previewSafely();
    });
  } else {
    offline().then((yes) => yes && previewSafely());
  }
  window.addEventListener("offline", previewSafely, { signal });
}

/** The offline shell's round form of a game kept on this phone, drawn from the engine. */
export async function shellRoundForm(main, id) {
  const { game, counted } = await gameState(id);
  if (!game) return shellGame(main, id);
  main.innerHTML = formWaitHtml(nextNumber(game.snapshot, counted)).text;
  const made = await compute("round_form", game.snapshot, counted);
  if (made.finished) {
    main.innerHTML = gameOverHtml(id).text;
    return;
  }
  main.innerHTML = roundFormHtml(id, made).text;
  roundEntry(main.querySelector("form.round-form"), id);
}
