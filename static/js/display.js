// How this phone shows the app (scorekeeper/display): the screen kept on during a game, the totals
// read aloud, and times in the phone's own zone.
import { keepAwake } from "./display/awake.js";
import { noteSaves, readAloud } from "./display/speak.js";
import { localiseTimes } from "./display/times.js";

keepAwake(document, navigator);
readAloud(document, window.speechSynthesis, window.SpeechSynthesisUtterance, sessionStorage);
noteSaves(document, sessionStorage);
localiseTimes(document);
// Pieces htmx puts in (a live section drawn again) bring their own times.
document.addEventListener("htmx:load", (event) => localiseTimes(event.detail.elt));
