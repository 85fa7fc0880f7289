// The totals read aloud (the Display page's "Read the totals aloud after each save", off unless
// the player turned it on): the sentence the server wrote on the game page ([data-spoken]), said
// by the browser's own speech synthesis on the game page opened right after a round was saved on
// this phone (online, or kept on the phone offline), and whenever the "Read the totals aloud"
// button is tapped. A browser without speech synthesis shows no button.

// Set in the tab's sessionStorage as a round form is sent; read (and cleared) by the next page.
export const JUST_SAVED = "display.just-saved";

/** The sentence to say, or null when there is none or the setting is off. */
export function spokenText(doc) {
  if (doc.documentElement.dataset.speak !== "on") return null;
  const sentence = doc.querySelector("[data-spoken]");
  const text = sentence ? sentence.textContent.trim() : "";
  return text || null;
}

/** Say `text` with `speech` (window.speechSynthesis), cutting short whatever it was saying. */
export function say(speech, Utterance, text) {
  speech.cancel();
  speech.speak(new Utterance(text));
}

/** Remember, for the next page of this tab, that a round form was sent from this one. */
export function noteSaves(doc, storage) {
  const form = doc.querySelector("form.round-form");
  if (form) form.addEventListener("submit", () => storage.setItem(JUST_SAVED, "1"));
}

/** Wire the page: the button shown where it can work, and the totals said when this page
 *  follows a save. Returns whether they were said at once. */
export function readAloud(doc, speech, Utterance, storage) {
  // Any page clears the mark: a refused Save's form, or the game page that says the totals.
  const justSaved = storage.getItem(JUST_SAVED) === "1";
  storage.removeItem(JUST_SAVED);
  const text = spokenText(doc);
  const button = doc.querySelector("button[data-read-aloud]");
  if (!text || !speech || !Utterance) {
    if (button) button.hidden = true;
    return false;
  }
  if (button) {
    button.hidden = false;
    button.addEventListener("click", () => say(speech, Utterance, spokenText(doc) || text));
  }
  if (!justSaved) return false;
  say(speech, Utterance, text);
  return true;
}
