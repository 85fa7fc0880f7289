// What this phone keeps for offline play, in IndexedDB (plain, no library):
//   games   - {id, snapshot, local, preset, form, error}: a game as GET /g/<id>/offline.json gave
//             it; `local` while a game started on this phone is not yet on the server.
//   waiting - {key, game, number, ended_by, entry, place, version, state, error, theirs, saved}:
//             rounds saved on this phone and not yet stored by the server. state is "waiting",
//             "conflict" (another phone saved that number) or "refused" (the server said no).
//   meta    - {name, value}: "last_synced" (ms since the epoch).
// A service-worker update never touches this database: only this module opens it.

const NAME = "scorekeeper-offline";
const VERSION = 1;

let opened = null;

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function database() {
  opened ||= new Promise((resolve, reject) => {
    const req = indexedDB.open(NAME, VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      db.createObjectStore("games", { keyPath: "id" });
      const waiting = db.createObjectStore("waiting", { keyPath: "key" });
      waiting.createIndex("game", "game");
      db.createObjectStore("meta", { keyPath: "name" });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    // Another tab holding an older version open: it is told to close (below), so this waits.
    req.onblocked = () => {};
  }).then((db) => {
    db.onversionchange = () => db.close();
    return db;
  });
  return opened;
}

async function read(store, fn) {
  const db = await database();
  return request(fn(db.transaction(store).objectStore(store)));
}

// Resolves once the transaction is committed, so a page may navigate away right after.
async function write(store, fn) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(store, "readwrite");
    fn(tx.objectStore(store));
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("The phone's storage refused the change."));
  });
}

/** A stored game by id, or undefined. */
export const gameGet = (id) => read("games", (s) => s.get(id));
/** Every game kept on this phone. */
export const gamesAll = () => read("games", (s) => s.getAll());
/** Store or replace a game record. */
export const gamePut = (record) => write("games", (s) => s.put(record));

/** Every waiting round of one game (or of every game), in round order. */
export async function waitingFor(gameId) {
  const rows = await read("waiting", (s) =>
    gameId === undefined ? s.getAll() : s.index("game").getAll(gameId),
  );
  return rows.sort((a, b) => a.number - b.number || a.saved - b.saved);
}
/** Store or replace a waiting round. */
export const waitingPut = (round) => write("waiting", (s) => s.put(round));
/** Store several waiting rounds in one transaction (all or none). */
export const waitingPutAll = (rounds) => write("waiting", (s) => rounds.forEach((r) => s.put(r)));
/** Remove a waiting round once the server has it, or the player chose to drop it. */
export const waitingDelete = (key) => write("waiting", (s) => s.delete(key));

/** A meta value, or undefined. */
export async function metaGet(name) {
  const row = await read("meta", (s) => s.get(name));
  return row ? row.value : undefined;
}
/** Set a meta value. */
export const metaPut = (name, value) => write("meta", (s) => s.put({ name, value }));
