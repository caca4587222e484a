"""The Lambda entry points, one module per kind, so that each function imports
only what it runs: ``functions/<name>/app.py`` re-exports one ``handler``.

- :mod:`.connect`, :mod:`.disconnect`: ``$connect`` / ``$disconnect``
  (tokens and connections; no protocol, no rules);
- :mod:`.message`: every client frame (the lobby, deal and move functions);
- :mod:`.timeout`: per-turn timers from SQS and the one-minute sweep;
- :mod:`.bot`: bot seats' turns from the bot queue (SQS);
- :mod:`.fanout`: the lobby's changes from the lobby queue (SQS), pushed to its
  subscribers;
- :mod:`.tournament`: tournaments' steps from the tournament queue (SQS), and a sweep
  of the overdue ones;
- :mod:`.signup`: Cognito's pre-sign-up check of a new username.
"""
