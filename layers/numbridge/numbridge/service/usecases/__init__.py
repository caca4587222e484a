"""The use cases: one function per request or timer, each deciding an ``Outcome``
(``numbridge.service.outcome``) that ``commit.settle`` makes durable."""
