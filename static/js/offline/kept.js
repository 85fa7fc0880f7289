// Which rounds kept on this phone count, and the rounds saved before the engine was ready: a phone
// that went offline in the first seconds of a game, before its scorer (the Python engine in
// Pyodide) had loaded, still saves the round, as typed. Such a round is "unscored": it holds the
// form's fields and no entry, holds back the rounds after it, and is scored, in order, by the
// engine as soon as it answers (on the next page drawn with the engine ready, or before sending,
// when the engine loads from the server). Scored, it is a waiting round like any other; refused
// by the engine, it waits for the player to edit it, with the engine's reasons.

/** The waiting rounds the engine counts: those following the stored rounds without a gap, not
 *  waiting for a choice and already scored; the rest are shown beside, in the problems panel. */
export function countedWaiting(snapshot, rounds) {
  const counted = [];
  let next = snapshot.rounds.length + 1;
  for (const round of rounds) {
    if (round.state !== "waiting") continue;
    // Not scored yet: the rounds after it wait for it.
    if (round.unscored) break;
    // "Keep this phone's round": shown in the place of the stored one until the server has it.
    if (round.place === "replace" && round.number <= snapshot.rounds.length) {
      counted.push({ key: round.key, number: round.number, ended_by: round.ended_by, entry: round.entry });
      continue;
    }
    if (round.number !== next) break;
    counted.push({ key: round.key, number: round.number, ended_by: round.ended_by, entry: round.entry });
    next += 1;
  }
  return counted;
}

/** The number of the round to enter next, before the engine has said (it knows whether the game
 *  is over): the stored rounds, the counted ones after them, and the first round not scored yet
 *  with every waiting round after it. */
export function nextNumber(snapshot, counted, rounds = []) {
  const stored = snapshot.rounds.length;
  const first = rounds.find((r) => r.unscored && r.state === "waiting");
  const held = first ? rounds.filter((r) => r.state === "waiting" && r.number >= first.number).length : 0;
  return stored + counted.filter((r) => r.number > stored).length + held + 1;
}

/** A round saved before the engine answered: the fields as typed, to be scored later. */
export function unscoredRound({ key, game, number, fields, saved }) {
  return {
    key,
    game,
    number,
    ended_by: null,
    entry: null,
    place: "exact",
    version: null,
    state: "waiting",
    error: "",
    theirs: null,
    saved,
    fields,
    unscored: true,
  };
}

/** The round once the engine has scored its fields (`preview`, phone.round_preview's answer):
 *  waiting to be sent, or refused with the engine's reasons, kept for the player to edit. */
export function scoredRound(round, preview) {
  if (preview.ok) {
    return { ...round, ended_by: preview.ended_by, entry: preview.entry, unscored: false, error: "" };
  }
  const why = preview.errors.map((e) => e.message).join(" ");
  return { ...round, unscored: false, state: "refused", error: `Saved before this phone's scorer was ready, and it says: ${why}` };
}

/** Score every unscored round of the phone's games, in order, with `run` (the engine's call);
 *  answers how many were scored. A game's first unscored round is scored after the rounds
 *  counted before it; one refused holds back the rest, as any refused round does. */
export async function scoreKept({ store, run }) {
  let scored = 0;
  for (const game of await store.gamesAll()) {
    for (;;) {
      const rounds = await store.waitingFor(game.id);
      const round = rounds.find((r) => r.unscored && r.state === "waiting");
      if (!round) break;
      const counted = countedWaiting(game.snapshot, rounds);
      const preview = await run("round_preview", game.snapshot, counted, { ...round.fields, round_number: String(round.number) });
      const next = scoredRound(round, preview);
      await store.waitingPut(next);
      scored += 1;
      if (next.state !== "waiting") break;
    }
  }
  return scored;
}
