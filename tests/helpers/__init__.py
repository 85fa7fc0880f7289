"""What tests share: builders of games and leagues, page and PDF readers, app servers. Test
modules import from here (and fixtures come from the conftest files); no test module imports
another, nor a conftest (tests/test_test_layout.py checks).

- paths: where the repository's folders are.
- games: a game's sides, the start page's form, a round's form and the scores it adds up to.
- engine_rounds: rounds as the engine takes them, for its plain-Python tests, and a scored
  side's lines; round_inputs: rounds changed a field at a time, and the errors refusing them.
- leagues: accounts, players, a league with its season, members, club night games, play.
- accounts: a user with a password, signing in, and who is signed in.
- permissions: the permission tests' world of two leagues, a game and a browser per role.
- kept_standings: the reference the kept standings are checked against.
- backups: row counts, a league dropped, a backup document as a file holds it.
- pages: a page's visible text, its tables, a form field with its errors, a CSV's rows.
- pdfs: a PDF download, its file name and its text; qrcodes: QR codes read back.
- races: threads released together, phones and their answers, locks held.
- offline_games: games as a phone keeps them offline; offline_sync: the sync API as a phone
  calls it; phone_runtime: the phone's engine run in Pyodide under node, beside CPython's.
- app_servers: gunicorn processes on a database of their own.
- imports: what a module imports, read with ast.
- journeys, browser, offline_browser: the browser tests' screenshots and axe-core checks,
  the app driven in Chromium, and a browser context cut off from the network.
"""
