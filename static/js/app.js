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

// Live pages (scorekeeper/live.py): the element with data-watch asks every 2 s, and as soon as
// the phone shows the page again, whether the game changed since its ETag. A 304 costs one small
// query; on a change the page's #live section fetches itself again ("game-changed"), and a form
// for a round another phone has just saved closes with a notice.
(() => {
  let checking = false;
  async function check() {
    const watched = document.querySelector("[data-watch]");
    if (!watched || checking || document.hidden) return;
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
  // A page brought back with the Back button may be minutes old.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) check();
  });

  document.body.addEventListener("game-changed", (event) => {
    const form = document.querySelector("form[data-round-new]");
    if (!form || event.detail.rounds < Number(form.dataset.roundNew)) return;
    for (const field of form.elements) field.disabled = true;
    const notice = document.getElementById("round-taken");
    notice.hidden = false;
    notice.querySelector("a").focus();
  });
})();

// Undo of a round just saved: the server refuses it after its window; the button goes then too.
for (const form of document.querySelectorAll("form[data-undo-seconds]")) {
  setTimeout(() => form.remove(), Number(form.dataset.undoSeconds) * 1000);
}
