// The projector view's clock and round timer (static/js/projector/clock.js): the page loads this
// module alone, without the site's other scripts.
import { startClock } from "./projector/clock.js";

startClock(document);
