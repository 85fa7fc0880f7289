// On a game page and the round form: load the offline engine once the page is idle, so that
// scoring can go on if the connection drops. Pages a phone opens first never load it.
import { warm } from "./engine.js";

if ("Worker" in window) warm();
