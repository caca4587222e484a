"""Strong Domains: each candidate move played out to the end of the game, block by block.

The playouts let both sides follow the normal level's policy — claim where a
cell adds most to the chance of winning a majority, each free cell taken as a
fair coin — in the 1-2-2 order (RULES.md §9), on (mine, theirs, free) counts
per block. Choosing the move whose playout ends best is a step of policy
improvement over that policy: it sees tempo (a block one side can finish in
its pair) that the coin model alone cannot. The coin model still weighs in,
to rank the moves whose playouts end alike.

A playout lets either side claim in any open block. With the free clues and
three tiles that holds on nearly every move of a real game (in self-play, 97 %
of the moves could claim in a block with three or more free cells); only a
block's last one or two cells are often out of reach. Drawing that at random
made the playouts too noisy to rank the moves within the think-time budget,
and weakened the bot; without it, the playouts are deterministic (but for
ties) and one per move suffices.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from .blocks import block_chance
from .worth import BLOCKS_SCALE, WIN

if TYPE_CHECKING:
    from .evaluate import Evaluator

MARGIN_SCALE = 0.05  # a block more at the end of a playout counts a little, a win much more
STATIC_SCALE = 0.1  # the coin model's say (a chance, 0..1) beside the playout's outcome

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


def _step(dist: list[float], p: float) -> list[float]:
    """The distribution of a count of wins after one more block won with chance ``p``."""
    q = 1 - p
    nxt = [x * q for x in dist]
    nxt.append(0.0)
    for k, x in enumerate(dist):
        nxt[k + 1] += x * p
    return nxt


def greedy_block(
    counts: Counts,
    mover_is_bot: bool,
    majority: int,
    allowed: Iterable[int],
    rng: random.Random,
) -> int | None:
    """The normal level's choice among ``allowed`` blocks, on counts alone.

    Normal maximises the chance of a majority of blocks plus a fiftieth of its
    expected blocks; one more cell in block b changes that by the gain in b's
    chance times (the chance that the other blocks leave b deciding + 1/50).
    """
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


def play_out(
    counts: Counts,
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
    allowed: Iterable[int] = bot_blocks if bot_to_move and bot_blocks is not None else everywhere
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


class Playouts:
    """The evaluator of strong Domains: a playout after each claim, and the coin model."""

    def __init__(
        self,
        blocks: tuple[int, ...],
        marks: tuple[str, str],
        second_move: bool,
        claims: frozenset[int],
        rng: random.Random,
        steady: Evaluator,
    ) -> None:
        self.blocks = blocks
        self.size = max(blocks) + 1
        self.majority = self.size // 2 + 1
        self.mine, self.theirs = marks
        self.second_move = second_move  # the bot's pair goes on after this move
        self.claims = claims  # where the bot can claim this turn
        self.seed = rng.getrandbits(32)
        self._steady = steady

    def _counts(self, owners: Sequence[str]) -> Counts:
        table = [[0, 0, 0] for _ in range(self.size)]
        for o, b in zip(owners, self.blocks, strict=True):
            table[b][0 if o == self.mine else 1 if o == self.theirs else 2] += 1
        return table

    def _outcome(self, counts: Counts, spare: Sequence[int] | None) -> float:
        # the same draws for every candidate: differences come from the moves
        rng = random.Random(self.seed)
        if spare is None:
            won, margin = play_out(counts, False, 2, self.majority, rng)
        else:
            won, margin = play_out(counts, True, 1, self.majority, rng, spare)
        return won + MARGIN_SCALE * margin

    def value(self, owners: Sequence[str]) -> float:
        return self._outcome(self._counts(owners), None) + STATIC_SCALE * self._steady.value(
            owners
        )

    def after(self, owners: Sequence[str], cells: Iterable[int], mark: str) -> dict[int, float]:
        cells = list(cells)
        counts = self._counts(owners)
        column = 0 if mark == self.mine else 1
        static = self._steady.after(owners, cells, mark)
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
                result = winner(after, self.majority)
                if result:
                    memo[key] = WIN * result
                else:
                    second = self.second_move and column == 0
                    memo[key] = self._outcome(after, spare if second else None)
            out[cell] = memo[key] + STATIC_SCALE * static[cell]
        return out

    def won(self, owners: Sequence[str]) -> bool:
        return winner(self._counts(owners), self.majority) == 1

    def steady(self) -> Evaluator:
        """A playout's outcome is too coarse to tell a useless claim from a small gain."""
        return self._steady
