// Times in the phone's own zone: the server writes each moment in its zone, labelled
// ("27 Nov 2026 17:35 UTC"), in a <time datetime data-local> (the `moment` template tag); this
// writes it again as the phone's clock reads it ("27 Nov 2026 11:35" in Chicago).

const MONTHS = [
  "January", "February", "March", "April", "May", "June",
  "July", "August", "September", "October", "November", "December",
];

const two = (n) => String(n).padStart(2, "0");

/** The moment as the server's formats write it ("short" or "long"), in this phone's zone. */
export function localText(date, style) {
  const day = date.getDate();
  const month = MONTHS[date.getMonth()];
  const clock = `${two(date.getHours())}:${two(date.getMinutes())}`;
  if (style === "long") return `${day} ${month} ${date.getFullYear()} at ${clock}`;
  return `${day} ${month.slice(0, 3)} ${date.getFullYear()} ${clock}`;
}

/** Rewrite every <time data-local> under `root`; returns how many. */
export function localiseTimes(root) {
  let done = 0;
  for (const time of root.querySelectorAll("time[data-local]")) {
    const date = new Date(time.getAttribute("datetime"));
    if (Number.isNaN(date.getTime())) continue;
    time.textContent = localText(date, time.dataset.local);
    done += 1;
  }
  return done;
}
