// Who went out: going out needs canastas of some kinds (the rules' least, drawn on each "went
// out" choice as data-least="s0-canastas-natural:2 s0-canastas-mixed:3"), so choosing the side
// fills those counts in where nothing is typed yet. A change of mind takes back what was filled
// and not touched since. The server still checks every count; this only saves the taps.

/** The counts a choice asks for, as [field id, count] pairs. */
export function leastOf(radio) {
  const text = (radio && radio.dataset && radio.dataset.least) || "";
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => {
      const at = pair.lastIndexOf(":");
      return [pair.slice(0, at), Number(pair.slice(at + 1))];
    })
    .filter(([key, count]) => key && Number.isInteger(count) && count > 0);
}

function changed(input) {
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

/** Take back the last choice's untouched counts, then fill this one's empty ones. */
export function fillLeast(form, radio, doc = document) {
  for (const input of form.querySelectorAll("input[data-filled]")) {
    if (input.value === input.dataset.filled) {
      input.value = "";
      changed(input);
    }
    delete input.dataset.filled;
  }
  for (const [key, count] of leastOf(radio)) {
    const input = doc.getElementById(key);
    if (!input || !["", "0"].includes(input.value.trim())) continue;
    input.value = String(count);
    input.dataset.filled = input.value;
    changed(input);
  }
}

/** Listen on the page for a change of who went out on a round form. */
export function watchGoingOut(doc = document) {
  doc.addEventListener("change", (event) => {
    const radio = event.target;
    if (radio.name !== "went_out" || !radio.checked || !radio.form) return;
    if (!radio.form.classList.contains("round-form")) return;
    fillLeast(radio.form, radio, doc);
  });
}
