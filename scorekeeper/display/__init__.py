"""How this phone shows the app: text size, colours, the screen kept awake, totals read aloud."""
