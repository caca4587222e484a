"""Strong Domains: each candidate move played out to the end of the game, block by block.

The playouts let both sides follow the normal level's policy — claim where a
cell adds most to the chance of winning a majority, each free cell taken as a
fair coin — in the 1-2-2 order (RULES.md §9), on (mine, theirs, free) counts
per block. Choosing the move whose playouts end best is a step of policy
improvement over that policy: it sees tempo (a block one side can finish in
its pair) that the coin model alone cannot. A playout lets either side claim
in any open block: with the free clues and three tiles, a side can claim in
nearly every open block on nearly every move of a real game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from .blocks import block_chance

if TYPE_CHECKING:
    from .evaluate import Evaluator

WIN = 1e6
BLOCKS_SCALE = 1 / 50  # as the normal level's evaluator weighs expected blocks

Counts = list[list[int]]  # [mine, theirs, free] per block, from the bot's side




@cache
def _chance_table(majority: int, cells: int) -> tuple[float, ...]:
    """block_chance for every (mine, theirs, free), flat, at (mine*side + theirs)*side + free."""
    side = cells + 1
    return tuple(
        block_chance(m, t, f, majority) if m + t + f == cells else 0.0
        for m in range(side)
        for t in range(side)
        for f in range(side)
    )


def winner(counts: Counts, majority: int) -> int:
    """+1 the bot has won, -1 the opponent, 0 not yet (RULES.md §9: the early end)."""
    mine = theirs = 0
    for m, t, _ in counts:
        if m >= majority:
            mine += 1
        elif t >= majority:
            theirs += 1
    undecided = len(counts) - mine - theirs
    if mine > theirs + undecided:
        return 1
    if theirs > mine + undecided:
        return -1
    return 0


def greedy_block(
    counts: Counts,
    mover_is_bot: bool,
    majority: int,
    allowed: Sequence[int],
    rng: random.Random,
) -> int | None:
    """Among ``allowed`` blocks, where one more cell adds most to the mover's chance of a
    majority plus a fiftieth of its expected blocks (the normal level's evaluator):
    the gain in that block times (the chance the block decides the game + 1/50)."""
    n = len(counts)
    side = n + 1
    table = _chance_table(majority, n)
    me, them = (0, 1) if mover_is_bot else (1, 0)
    chances = [table[(c[me] * side + c[them]) * side + c[2]] for c in counts]
    prefix = [[1.0]]
    for p in chances:
        prefix.append(_step(prefix[-1], p))
    suffix = [[1.0]]
    for p in reversed(chances):
        suffix.append(_step(suffix[-1], p))
    suffix.reverse()
    pivot_at = n // 2  # the others hold exactly this many: this block decides
    best, best_worth = None, -1.0
    order = list(allowed)
    rng.shuffle(order)  # ties go either way, as the normal level's do
    for b in order:
        c = counts[b]
        if c[2] == 0 or c[me] >= majority or c[them] >= majority:
            continue
        gain = table[((c[me] + 1) * side + c[them]) * side + c[2] - 1] - chances[b]
        before, after = prefix[b], suffix[b + 1]
        pivot = 0.0
        for k, q in enumerate(before):
            j = pivot_at - k
            if 0 <= j < len(after):
                pivot += q * after[j]
        worth = gain * (pivot + BLOCKS_SCALE)
        if worth > best_worth:
            best, best_worth = b, worth
    return best


def _step(dist: list[float], p: float) -> list[float]:
    q = 1 - p
    nxt = [x * q for x in dist]
    nxt.append(0.0)
    for k, x in enumerate(dist):
        nxt[k + 1] += x * p
    return nxt


def play_out(
    counts: Sequence[Sequence[int]],
    bot_to_move: bool,
    moves_left: int,
    majority: int,
    rng: random.Random,
    bot_blocks: Sequence[int] | None = None,
) -> tuple[int, int]:
    """Both sides play the greedy policy to the end: (winner +1/-1/0, the bot's block margin).

    ``bot_blocks``: where the bot's first move may go (where it holds claims now).
    """
    board = [list(c) for c in counts]
    mover_is_bot = bot_to_move
    everywhere = range(len(board))
    allowed: Sequence[int] = bot_blocks if bot_to_move and bot_blocks is not None else everywhere
    while not winner(board, majority):
        block = greedy_block(board, mover_is_bot, majority, allowed, rng)
        if block is None and allowed is not everywhere:
            block = greedy_block(board, mover_is_bot, majority, everywhere, rng)
        if block is None:
            break  # nothing left to claim
        c = board[block]
        c[0 if mover_is_bot else 1] += 1
        c[2] -= 1
        allowed = everywhere
        moves_left -= 1
        if moves_left == 0:
            mover_is_bot, moves_left = not mover_is_bot, 2
    mine = sum(1 for m, _, _ in board if m >= majority)
    theirs = sum(1 for _, t, _ in board if t >= majority)
    return winner(board, majority), mine - theirs


# Playouts per candidate: enough to rank the moves within the think-time budget.
PLAYOUTS = 3
MARGIN_SCALE = 0.05  # a block more at the end counts a little, a win much more
# Between moves whose playouts end alike, the coin model decides (the normal level's view).
STATIC_SCALE = 0.01


class Playouts:
    """The evaluator of strong Domains: the mean outcome of playouts after each claim.

    Every candidate is played out from the same random draws, so that their
    differences come from the moves and not from luck.
    """

    def __init__(
        self,
        blocks: tuple[int, ...],
        me_mark: str,
        them_mark: str,
        second_move: bool,
        claims: frozenset[int],
        rng: random.Random,
        steady: Evaluator,
    ) -> None:
        self._steady = steady
        self.blocks = blocks
        self.size = max(blocks) + 1
        self.majority = self.size // 2 + 1
        self.mine, self.theirs = me_mark, them_mark
        self.second_move = second_move
        self.claims = claims
        self.seed = rng.getrandbits(32)

    def _counts(self, owners: Sequence[str]) -> Counts:
        table = [[0, 0, 0] for _ in range(self.size)]
        for o, b in zip(owners, self.blocks, strict=True):
            table[b][0 if o == self.mine else 1 if o == self.theirs else 2] += 1
        return table

    def _static(self, counts: Counts) -> float:
        chances = [block_chance(m, t, f, self.majority) for m, t, f in counts]
        dist = [1.0]
        for p in chances:
            dist = _step(dist, p)
        return sum(dist[self.size // 2 + 1 :]) + sum(chances) / 50

    def _mean(
        self, counts: Counts, bot_to_move: bool, moves: int, spare: Sequence[int] | None
    ) -> float:
        total = STATIC_SCALE * self._static(counts) * PLAYOUTS
        for k in range(PLAYOUTS):
            won, margin = play_out(
                counts, bot_to_move, moves, self.majority, random.Random(self.seed + k), spare
            )
            total += won + MARGIN_SCALE * margin
        return total / PLAYOUTS

    def value(self, owners: Sequence[str]) -> float:
        return self._mean(self._counts(owners), False, 2, None)

    def after(self, owners: Sequence[str], cells: Iterable[int], mark: str) -> dict[int, float]:
        counts = self._counts(owners)
        column = 0 if mark == self.mine else 1
        out: dict[int, float] = {}
        memo: dict[tuple[int, tuple[int, ...]], float] = {}
        for cell in cells:
            block = self.blocks[cell]
            spare = tuple(sorted({self.blocks[c] for c in self.claims if c != cell}))
            key = (block, spare)
            if key not in memo:
                after = [list(c) for c in counts]
                after[block][column] += 1
                after[block][2] -= 1
                if winner(after, self.majority):
                    memo[key] = WIN * winner(after, self.majority)
                elif self.second_move and column == 0:
                    memo[key] = self._mean(after, True, 1, spare)
                else:
                    memo[key] = self._mean(after, False, 2, None)
            out[cell] = memo[key]
        return out

    def won(self, owners: Sequence[str]) -> bool:
        return winner(self._counts(owners), self.majority) == 1

    def steady(self) -> Evaluator:
        """Playout outcomes are too coarse to tell a useless claim from a small gain."""
        return self._steady
