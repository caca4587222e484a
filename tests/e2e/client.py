"""A scripted client for e2e games: it keeps its own copy of the game from the
frames it receives (checking that ``v`` never skips), solves the sudoku from
the board it was shown (as a strong player would — it never sees the
solution), and plays correct tiles.
"""

from __future__ import annotations

from typing import Any

from e2e_server import Player

Frame = dict[str, Any]


def solve(digits: str, blocks: str, size: int) -> str:
    """The unique solution of a board (plain backtracking, most constrained cell first)."""
    full = (1 << size) - 1
    units = [[i // size for i in range(size * size)],
             [i % size for i in range(size * size)],
             [int(b) for b in blocks]]
    used = [[0] * size for _ in units]
    grid = [0] * (size * size)
    for i, ch in enumerate(digits):
        if ch != ".":
            grid[i] = int(ch)
            for u, unit in enumerate(units):
                used[u][unit[i]] |= 1 << (int(ch) - 1)

    def free(i: int) -> int:
        taken = 0
        for u, unit in enumerate(units):
            taken |= used[u][unit[i]]
        return full & ~taken

    def search() -> bool:
        best, best_mask, best_count = -1, 0, size + 1
        for i in range(size * size):
            if grid[i] == 0:
                mask = free(i)
                count = bin(mask).count("1")
                if count < best_count:
                    best, best_mask, best_count = i, mask, count
                    if count <= 1:
                        break
        if best < 0:
            return True
        mask = best_mask
        while mask:
            bit = mask & -mask
            mask ^= bit
            grid[best] = bit.bit_length()
            for u, unit in enumerate(units):
                used[u][unit[best]] |= bit
            if search():
                return True
            for u, unit in enumerate(units):
                used[u][unit[best]] &= ~bit
        grid[best] = 0
        return False

    assert search(), "the dealt board has no solution"
    return "".join(map(str, grid))


class Seat:
    """One player's side of one game, as that player's frames describe it."""

    def __init__(self, player: Player, state: Frame) -> None:
        self.player = player
        self.game = str(state["game"])
        self.load(state)
        self.solution = solve("".join(self.digits), self.blocks, self.size)

    def load(self, state: Frame) -> None:
        view = state["view"]
        assert view["v"] == state["v"]
        self.v = int(state["v"])
        self.size = int(view["size"])
        self.blocks = str(view["blocks"])
        self.you = str(view["you"])
        self.hand = list(view["hand"])
        self.digits = list(view["digits"])
        self.owners = list(view["owners"])
        self.clues = str(view["clues"])
        self.turn = view["turn"]
        self.bag = int(view["bag"])
        self.status = str(view["status"])
        self.result = view["result"]

    def absorb(self, frame: Frame) -> None:
        assert frame["v"] == self.v + 1, f"{self.player.name}: v jumped {self.v} → {frame}"
        self.v = int(frame["v"])
        kind = frame["type"]
        if kind in {"placed", "taken", "swapped"}:
            r, c = frame["cell"]
            index = r * self.size + c
            self.owners[index] = frame["seat"][0]
            if kind == "placed":
                self.digits[index] = str(frame["digit"])
        elif kind == "hand":
            self.hand = list(frame["hand"])
        elif kind == "turn":
            self.turn, self.bag = frame["turn"], int(frame["bag"])
        elif kind == "finished":
            self.status, self.result = "finished", frame["result"]

    def catch_up(self, until_v: int | None = None, timeout: float = 30.0) -> None:
        """Apply this game's events in ``v`` order until a turn closes (or ``v``
        reaches ``until_v``). After a reconnect a live push can arrive before the
        answer to ``sync``: events are taken strictly by ``v`` (the next one, when
        it comes), so a copy of one already applied is never applied twice."""
        while True:
            frame = self.player.expect(lambda f: f.get("game") == self.game
                                       and f.get("type") != "state"
                                       and f.get("v") == self.v + 1, timeout)
            self.absorb(frame)
            if until_v is not None:
                if self.v >= until_v:
                    return
            elif frame["type"] in {"turn", "finished"}:
                return

    def choose(self) -> tuple[str, dict[str, Any]]:
        empty = [i for i, d in enumerate(self.digits) if d == "."]
        if self.hand:
            digit = self.hand[0]
            index = next(i for i in empty if int(self.solution[i]) == digit)
            return "place", {"cell": list(divmod(index, self.size)), "digit": digit}
        free = [i for i, (k, o) in enumerate(zip(self.clues, self.owners, strict=True))
                if k == "1" and o == "."]
        if free:
            return "take", {"cell": list(divmod(free[0], self.size))}
        return "exchange", {}


def play_turn(seats: dict[str, Seat]) -> None:
    """The player to move plays; both players then take in that turn's frames."""
    mover = next(s for s in seats.values() if s.you == s.turn)
    action, fields = mover.choose()
    answer = mover.player.request(action, game=mover.game, **fields)
    assert answer["type"] == "ack", answer
    mover.catch_up()
    for seat in seats.values():
        if seat is not mover:
            seat.catch_up(until_v=mover.v)
    assert len({s.v for s in seats.values()}) == 1
    assert len({"".join(s.digits) for s in seats.values()}) == 1


def play_to_the_end(seats: dict[str, Seat], max_turns: int = 300) -> Seat:
    for _ in range(max_turns):
        seat = next(iter(seats.values()))
        if seat.status == "finished":
            return seat
        play_turn(seats)
    raise AssertionError("the game did not finish")


def deal(ana: Player, bob: Player, room: str, **choices: Any) -> dict[str, Seat]:
    """Ana proposes (blue), Bob accepts; each gets a Seat built from its state frame."""
    proposed = ana.request("propose", room=room, colour="blue", **choices)
    assert proposed["type"] == "proposal", proposed
    accepted = bob.request("accept", proposal=proposed["proposal"]["id"], timeout=60)
    assert accepted["type"] == "ack", accepted
    seats = {}
    for player in (ana, bob):
        state = player.expect(lambda f: f["type"] == "state", timeout=60)
        seats[player.name] = Seat(player, state)
    return seats
