"""numbridge.fairplay — ``numbridge fairplay report``: the host's look at fair play,
from the coach's reviews in the archive (numbridge.coach.fairplay)."""
