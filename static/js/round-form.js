// The round form's helpers that save taps (static/js/round-form/).
import { watchGoingOut } from "./round-form/going-out.js";

watchGoingOut(document);
