// Without this script the steppers are hidden (the fields are typed) and the correction's
// question stands at the top of the page; with it the steppers show and the question is a dialog.
document.documentElement.classList.add("js");

// Steppers: + and - beside a number field. The server does every sum; this only moves a count.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-step]");
  if (!button) return;
  const input = document.getElementById(button.dataset.for);
  if (!input) return;
  const step = Number(button.dataset.step);
  const current = Number(input.value || 0);
  const next = Math.max(0, (Number.isFinite(current) ? current : 0) + step);
  input.value = String(next);
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
});

// Share links: Copy and the system share sheet, shown only where the browser has them. Without
// JavaScript the address stays on the page as a link and the server has drawn its QR code.
function revealShareButtons(root) {
  root.querySelectorAll("button[data-copy]").forEach((button) => {
    button.hidden = !(navigator.clipboard && navigator.clipboard.writeText);
  });
  root.querySelectorAll("button[data-share]").forEach((button) => {
    button.hidden = typeof navigator.share !== "function";
  });
}
revealShareButtons(document);
// htmx fires this for each piece of page it puts in, so swapped-in share links get theirs too.
document.addEventListener("htmx:load", (event) => revealShareButtons(event.detail.elt));

function shareStatus(key, text) {
  const status = document.getElementById(`${key}-status`);
  if (!status) return;
  // Emptied first, so that a second tap is announced again.
  status.textContent = "";
  window.setTimeout(() => { status.textContent = text; }, 50);
}

document.addEventListener("click", async (event) => {
  const copy = event.target.closest("button[data-copy]");
  const share = event.target.closest("button[data-share]");
  const button = copy || share;
  if (!button) return;
  const key = copy ? copy.dataset.copy : share.dataset.share;
  const link = document.getElementById(key);
  if (!link) return;
  const url = link.getAttribute("href");
  if (copy) {
    try {
      await navigator.clipboard.writeText(url);
      shareStatus(key, "Copied");
    } catch {
      shareStatus(key, "Could not copy: press and hold the address to copy it.");
    }
    return;
  }
  try {
    await navigator.share({ title: share.dataset.shareTitle, url });
  } catch (error) {
    // AbortError: the person closed the share sheet, which needs no word.
    if (error.name !== "AbortError") {
      shareStatus(key, "Could not open the share sheet: copy the address instead.");
    }
  }
});
// Keep editing (or Escape) takes the question away with its Yes button, so that Enter in a
// field cannot confirm totals the player has not seen; Save asks again.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-close-dialog]");
  if (button) button.closest("dialog").remove();
});

// The start form: names this phone used last stand in for "Player 1", "Player 2"...
const NAMES = "scorekeeper-names";
function rememberedNames() {
  try {
    return JSON.parse(localStorage.getItem(NAMES) || "{}");
  } catch {
    return {};
  }
}

document.addEventListener("submit", (event) => {
  const inputs = event.target.querySelectorAll("input[data-default-name]");
  if (!inputs.length) return;
  const names = rememberedNames();
  for (const input of inputs) {
    if (input.value.trim()) names[input.name] = input.value.trim();
  }
  try {
    localStorage.setItem(NAMES, JSON.stringify(names));
  } catch {
    // Private browsing may refuse storage: the defaults still work.
  }
});

// A default name is selected when tapped, so typing replaces it.
document.addEventListener("focusin", (event) => {
  const input = event.target.closest("input[data-default-name]");
  if (input && input.value === input.dataset.defaultName) input.select();
});

function onLoad() {
  const names = rememberedNames();
  for (const input of document.querySelectorAll("input[data-default-name]")) {
    const name = names[input.name];
    if (name && input.value === input.dataset.defaultName) input.value = name;
  }
  // The correction's question, asked in a dialog in front of the form.
  const question = document.querySelector("dialog.confirm-box[open]");
  if (question && question.showModal) {
    question.close();
    question.showModal();
    question.addEventListener("cancel", () => question.remove());
  }
  // A refused Save: the first field with an error, in view and focused (autofocus may have
  // run before the layout settled).
  const first = document.querySelector(".round-form [autofocus]");
  if (first && !question) {
    first.scrollIntoView({ block: "center" });
    first.focus();
  }
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", onLoad);
} else {
  onLoad();
}

// Live pages (scorekeeper/games/live.py): the element with data-watch asks every 2 s, and as soon as
// the phone shows the page again, whether the game changed since its ETag. A 304 costs one small
// query; on a change the page's #live section fetches itself again ("game-changed"), and a form
// for a round another phone has just saved closes with a notice.
(() => {
  let checking = false;
  async function check() {
    const watched = document.querySelector("[data-watch]");
    // Offline there is nobody to ask: the check waits for the connection ("online" below).
    if (!watched || checking || document.hidden || !navigator.onLine) return;
    checking = true;
    try {
      const response = await fetch(watched.dataset.watch, {
        headers: { "If-None-Match": watched.dataset.etag },
        cache: "no-store",
        credentials: "same-origin",
      });
      if (response.status !== 200) return;
      const state = await response.json();
      watched.dataset.etag = response.headers.get("ETag") || "";
      document.body.dispatchEvent(new CustomEvent("game-changed", { detail: state }));
    } catch {
      // Offline or the server restarting: the next check tries again.
    } finally {
      checking = false;
    }
  }
  setInterval(check, 2000);
  document.addEventListener("visibilitychange", check);
  window.addEventListener("online", check);
  // A page brought back with the Back button may be minutes old.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) check();
  });

  // Another phone saved the round this form is for: what was typed stays, and Save now saves it
  // as the next round, which the notice says (the table may really have played another round);
  // the game over, the form closes.
  // This phone's own Save: between the server storing the round and the next page showing, a
  // check may already see it stored, which is no other phone's doing. A Save kept offline is
  // prevented before this listener hears it, and a page brought back by Back is typing again.
  document.addEventListener("submit", (event) => {
    if (!event.defaultPrevented && event.target.matches("form[data-round-new]")) {
      event.target.dataset.sending = "1";
    }
  });
  window.addEventListener("pageshow", () => {
    for (const form of document.querySelectorAll("form[data-sending]")) delete form.dataset.sending;
  });
  document.body.addEventListener("game-changed", (event) => {
    const form = document.querySelector("form[data-round-new]");
    if (!form || form.dataset.sending || event.detail.rounds < Number(form.dataset.roundNew)) {
      return;
    }
    const notice = document.getElementById("round-taken");
    const next = event.detail.rounds + 1;
    if (event.detail.finished) {
      for (const field of form.elements) field.disabled = true;
    } else {
      form.dataset.roundNew = String(next);
      form.querySelector("input[name='round_number']").value = String(next);
      const heading = document.querySelector("[data-offline-part='heading']");
      if (heading) heading.textContent = `Round ${next}`;
      const save = form.querySelector(".save-bar button[type='submit']");
      if (save) save.textContent = `Save as round ${next}`;
      notice.querySelector("[data-round-next]").textContent = String(next);
      // Who deals and the opening melds were round N's: not said for the next one, rather than
      // said wrong (the game page says them).
      for (const stale of document.querySelectorAll("[data-offline-part='dealer'], form[data-round-new] .badge")) {
        stale.hidden = true;
      }
      // The breakdown again, for the round it would now be.
      if (window.htmx) window.htmx.trigger(form, "change");
    }
    notice.hidden = false;
    notice.querySelector("a").focus();
  });
})();

// Undo of a round just saved: the server refuses it after its window; the button goes then too.
for (const form of document.querySelectorAll("form[data-undo-seconds]")) {
  setTimeout(() => form.remove(), Number(form.dataset.undoSeconds) * 1000);
}

// Wide tables (the standings): the hint above a table says there are more columns, shown only
// while the table is wider than its box. The shadow at the box's edge says so without this.
function showScrollHints() {
  document.querySelectorAll(".scroll-hint").forEach((hint) => {
    const box = hint.parentElement.querySelector(".standings-scroll");
    if (box) hint.hidden = box.scrollWidth <= box.clientWidth + 1;
  });
}
showScrollHints();
document.addEventListener("htmx:load", showScrollHints);
window.addEventListener("resize", showScrollHints);
