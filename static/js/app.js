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
