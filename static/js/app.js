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
    } catch (error) {
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
