"""Tournaments: the kinds' pairing and scoring (pure), and the club's schedule."""
