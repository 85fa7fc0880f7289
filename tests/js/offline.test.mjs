// static/js/offline.js, the page's entry: its modules link (every name imported exists, which a
// browser checks only when a page loads them) and import only by relative address, so that they
// load beside whatever name the entry was served by, hashed or not, and from the service
// worker's precache offline. Without IndexedDB (node) it boots nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const JS = new URL("../../static/js/", import.meta.url);

test("the entry and its modules link and, with no IndexedDB, leave the page alone", async () => {
  assert.equal(globalThis.indexedDB, undefined);
  const entry = await import("../../static/js/offline.js");
  assert.deepEqual(Object.keys(entry), []);
});

test("every module of offline play imports by relative address, within static/js/", async () => {
  const files = ["offline.js", ...(await readdir(new URL("offline/", JS))).map((name) => `offline/${name}`)];
  const imports = {};
  for (const file of files.sort()) {
    const source = await readFile(new URL(file, JS), "utf8");
    imports[file] = [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]);
  }
  assert.deepEqual(imports, {
    "offline.js": [
      "./offline/store.js",
      "./offline/status.js",
      "./offline/page.js",
      "./offline/sync.js",
      "./offline/game.js",
      "./offline/confirm.js",
      "./offline/entry.js",
      "./offline/start.js",
      "./offline/swap.js",
    ],
    "offline/confirm.js": ["./store.js"],
    "offline/entry.js": ["./store.js", "./render.js", "./page.js", "./game.js", "./kept.js", "./swap.js"],
    "offline/game.js": ["./store.js", "./render.js", "./status.js", "./page.js", "./sync.js", "./kept.js", "./swap.js"],
    "offline/kept.js": [],
    "offline/page.js": ["./status.js", "../engine.js"],
    "offline/render.js": [],
    "offline/start.js": ["./store.js", "./render.js", "./page.js", "./game.js", "./entry.js", "./swap.js"],
    "offline/status.js": ["./store.js", "./render.js"],
    "offline/store.js": [],
    "offline/swap.js": [],
    "offline/sync.js": ["./store.js", "./render.js", "./status.js", "./page.js", "./kept.js"],
  });
  for (const [file, names] of Object.entries(imports)) {
    for (const name of names) {
      const target = fileURLToPath(new URL(name, new URL(file, JS)));
      assert.ok(target.startsWith(fileURLToPath(JS)), `${file} imports ${name}, outside static/js/`);
    }
  }
});
