// What this phone keeps for offline play, in IndexedDB (plain, no library):
//   games   - {id, snapshot, local, preset, form, error}: a game as GET /g/<id>/offline.json gave
//             it; `local` while a game started on this phone is not yet on the server.
//   waiting - {key, game, number, ended_by, entry, place, version, state, error, theirs, saved,
//             fields}: rounds saved on this phone and not yet stored by the server. state is
//             "waiting", "conflict" (another phone saved that number) or "refused" (the server
//             said no).
//   meta    - {name, value}: "last_synced" (ms since the epoch).
// A service-worker update never touches this database. The worker deletes it, with the pages it
// kept, when their owner changes (sw.js, checkOwner): the connection then closes and the next use
// opens a new, empty one.

export const NAME = "scorekeeper-offline";
const VERSION = 1;

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Waiting rounds in round order; two saved at one number (a conflict kept), the older first. */
export function inRoundOrder(rows) {
  return rows.sort((a, b) => a.number - b.number || a.saved - b.saved);
}

/** The phone's store on an IndexedDB factory (the browser's own unless one is given: tests give
 *  their own), opened on first use. */
export function openStore(factory) {
  let opened = null;

  function database() {
    opened ||= new Promise((resolve, reject) => {
      const req = (factory || globalThis.indexedDB).open(NAME, VERSION);
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
      // Another tab upgrades the database, or the service worker deletes it: let go of it, and
      // open it again (made anew) at the next use instead of failing on a closed connection.
      const forget = () => {
        db.close();
        opened = null;
      };
      db.onversionchange = forget;
      db.onclose = forget;
      return db;
    });
    // A failed open is tried again at the next use.
    opened.catch(() => {
      opened = null;
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
      try {
        fn(tx.objectStore(store));
      } catch (error) {
        // All or none: what was put before the refused one goes too.
        tx.abort();
        reject(error);
        return;
      }
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error || new Error("The phone's storage refused the change."));
    });
  }

  return {
    /** A stored game by id, or undefined. */
    gameGet: (id) => read("games", (s) => s.get(id)),
    /** Every game kept on this phone. */
    gamesAll: () => read("games", (s) => s.getAll()),
    /** Store or replace a game record. */
    gamePut: (record) => write("games", (s) => s.put(record)),
    /** Every waiting round of one game (or of every game), in round order. */
    async waitingFor(gameId) {
      const rows = await read("waiting", (s) =>
        gameId === undefined ? s.getAll() : s.index("game").getAll(gameId),
      );
      return inRoundOrder(rows);
    },
    /** Store or replace a waiting round. */
    waitingPut: (round) => write("waiting", (s) => s.put(round)),
    /** Store several waiting rounds in one transaction (all or none). */
    waitingPutAll: (rounds) => write("waiting", (s) => rounds.forEach((r) => s.put(r))),
    /** Remove a waiting round once the server has it, or the player chose to drop it. */
    waitingDelete: (key) => write("waiting", (s) => s.delete(key)),
    /** A meta value, or undefined. */
    async metaGet(name) {
      const row = await read("meta", (s) => s.get(name));
      return row ? row.value : undefined;
    },
    /** Set a meta value. */
    metaPut: (name, value) => write("meta", (s) => s.put({ name, value })),
  };
}

// The meta value where the rounds confirmed while offline wait to be sent: a list of
// {game, number, version, handedOver} (confirm.js adds, sync.js sends).
export const CONFIRMS = "confirms";

/** The page's store: every module shares this one connection. */
export const db = openStore();
