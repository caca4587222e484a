"""A player's view kept current from the event frames pushed to it, as a client keeps it.

The view is the ``view`` of the seat's ``state`` frame (``rules.player_view``);
each pushed event, applied in ``v`` order, brings it to that event's version.
After the last event of each transition (a turn's action up to its ``turn`` or
``finished``, or a club event) it is what a ``sync`` would give, except that a
field events cannot keep is left out, never guessed:

- ``abortable`` (it needs the game record) and ``players.SEAT.online``
  (presence is not a game event) are never kept;
- from a turn's action to the ``turn`` that closes it, the fields that ``turn``
  brings (the turn summary: who moves, the deadline, the bag, each player's
  hand size, mistakes and clock) are out: the refill is not public, and nothing
  should be decided on half a turn (:func:`settled`); after ``finished`` the
  clocks stay out too (the end may charge the mover's time);
- ``clock_ms`` is as of ``now_ms``, the time of the latest ``turn``, where a
  sync gives it as of the sync (the player to move has spent the time between).

Within a transition the hand is the latest ``hand`` event's. That is the only
event meant for one seat: a ``hidden`` placeholder is the opponent's hand,
which changes nothing this seat may know (its size comes with the ``turn``).
Whatever cannot be applied — a gap in ``v``, an unknown kind, a frame that
contradicts the view — raises :class:`NeedsSync`: ask for a fresh view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from numbridge.rules.geometry import index_of, on_board, parse_layout
from numbridge.rules.goals import block_table
from numbridge.rules.plain import plain
from numbridge.rules.seats import EMPTY, MARK, NOBODY, SEATS, is_seat

View = dict[str, Any]
Frame = Mapping[str, Any]

# What no game event says: the service's knowledge (presence, rematches: frames without
# a `v`) and what a turn's count cannot tell (whether both players have moved).
NOT_KEPT = ("abortable", "rematch")
NOT_KEPT_PER_PLAYER = ("online",)
NOT_KEPT_OFFERS = ("rematch",)
TURN_SUMMARY = ("turn", "deadline_ms", "now_ms", "bag")
TURN_SUMMARY_PER_PLAYER = ("hand_size", "mistakes", "clock_ms")
# Each variant's own fields of the summary: the pair's step, or the pie rule (whether
# the player to move may swap, and whether the viewer may).
PAIR_FIELD, SWAP_OPEN, SWAP_FIELD = "moves_left_in_pair", "swap_open", "swap_available"


class NeedsSync(ValueError):
    """The frame cannot be applied to the view: ask the server for a fresh one."""


def tracked_view(state: Frame) -> View:
    """The view of a ``state`` frame, less the fields events cannot keep."""
    view = {key: value for key, value in state["view"].items() if key not in NOT_KEPT}
    view["offers"] = {k: v for k, v in view["offers"].items() if k not in NOT_KEPT_OFFERS}
    view["players"] = {
        seat: {k: v for k, v in player.items() if k not in NOT_KEPT_PER_PLAYER}
        for seat, player in view["players"].items()
    }
    view["v"] = state["v"]
    return view


def settled(view: Mapping[str, Any]) -> bool:
    """Whether the view holds the whole turn summary: no turn is half applied."""
    return (
        all(key in view for key in (*TURN_SUMMARY, *_variant_fields(view)))
        and all(key in view["players"][seat] for seat in SEATS
                for key in TURN_SUMMARY_PER_PLAYER)
    )


def apply_event(view: Mapping[str, Any], frame: Frame) -> View:
    """The view after one event frame of its game; an event it already has changes nothing.

    Frames without ``v`` (presence, rematch offers) are not game events and
    change nothing either. Raises :class:`NeedsSync` when the frame cannot be
    applied: ask for a fresh view.
    """
    v = frame.get("v")
    if not isinstance(v, int):
        return dict(view)
    if frame.get("game") != view["game"]:
        raise NeedsSync(f"an event of {frame.get('game')!r}, not of {view['game']!r}")
    if v <= view["v"]:
        return dict(view)
    if v != view["v"] + 1:
        raise NeedsSync(f"event {v} after {view['v']}: the events between are missing")
    step = _STEPS.get(str(frame.get("type")))
    if step is None:
        raise NeedsSync(f"an event this view does not know: {frame.get('type')!r}")
    new = {**view, "v": v, "players": {seat: dict(p) for seat, p in view["players"].items()}}
    try:
        step(new, frame)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise NeedsSync(f"event {v} ({frame.get('type')}) does not fit the view: {exc}") from exc
    return new


# ---------------------------------------------------------------- the steps


def _variant_fields(view: Mapping[str, Any]) -> tuple[str, ...]:
    return (PAIR_FIELD,) if view["variant"] == "domains" else (SWAP_OPEN, SWAP_FIELD)


def _open_turn(view: View, turns: int = 1) -> None:
    """``turns`` turns played: the summary is unknown until the closing ``turn``."""
    for key in (*TURN_SUMMARY, *_variant_fields(view)):
        view.pop(key, None)
    for player in view["players"].values():
        for key in TURN_SUMMARY_PER_PLAYER:
            player.pop(key, None)
    view["moves"] += turns


def _cell(view: View, frame: Frame) -> int:
    r, c = frame["cell"]
    if not (isinstance(r, int) and isinstance(c, int) and on_board(r, c, view["size"])):
        raise ValueError(f"cell {frame['cell']!r} is off the board")
    return index_of(r, c, view["size"])


def _own(view: View, i: int, seat: object) -> None:
    if not is_seat(seat):
        raise ValueError(f"{seat!r} is not a seat")
    owners = view["owners"]
    view["owners"] = owners[:i] + MARK[seat] + owners[i + 1:]
    if view["variant"] == "domains":
        table = block_table(view["owners"], parse_layout(view["blocks"]))
        view["block_table"] = plain(table.counts())
        view["block_owners"] = table.marks()


def _placed(view: View, frame: Frame) -> None:
    i, digit = _cell(view, frame), frame["digit"]
    if view["digits"][i] != EMPTY or not isinstance(digit, int):
        raise ValueError(f"cell {i} is not empty")
    digits = view["digits"]
    view["digits"] = digits[:i] + str(digit) + digits[i + 1:]
    _own(view, i, frame["seat"])
    _open_turn(view)


def _mistake(view: View, frame: Frame) -> None:
    r, c = frame["cell"]
    if not is_seat(frame["seat"]):
        raise ValueError(f"{frame['seat']!r} is not a seat")
    view["last_mistake"] = {"seat": frame["seat"], "cell": [int(r), int(c)],
                            "digit": int(frame["digit"]), "v": frame["v"]}
    _open_turn(view)


def _taken(view: View, frame: Frame) -> None:
    i = _cell(view, frame)
    if view["clues"][i] != "1" or view["owners"][i] != NOBODY:
        raise ValueError(f"cell {i} is not a free clue")
    _own(view, i, frame["seat"])
    _open_turn(view)


def _swapped(view: View, frame: Frame) -> None:
    i = _cell(view, frame)
    if view["owners"][i] != MARK["blue"]:
        raise ValueError(f"cell {i} is not blue's to take over")
    _own(view, i, frame["seat"])
    _open_turn(view)


def _timeouts(view: View, frame: Frame) -> None:
    """A long catch-up folded: every turn it stands for counts as played."""
    _open_turn(view, int(frame["count"]) + int(frame["passes"]))


def _hand(view: View, frame: Frame) -> None:
    view["hand"] = [int(tile) for tile in frame["hand"]]


def _turn(view: View, frame: Frame) -> None:
    for key in TURN_SUMMARY:
        view[key] = frame[key]
    for seat in SEATS:
        player = view["players"][seat]
        player["hand_size"] = frame["hand_sizes"][seat]
        player["mistakes"] = frame["mistakes"][seat]
        player["clock_ms"] = frame["clock_ms"][seat]
    if view["variant"] == "domains":
        view[PAIR_FIELD] = frame[PAIR_FIELD]
    else:
        # The event says whether the player to move may swap (older servers only in
        # swap_available); a view also says whether its own seat may (only red can).
        swap_open = bool(frame.get(SWAP_OPEN, frame[SWAP_FIELD]))
        view[SWAP_OPEN] = swap_open
        view[SWAP_FIELD] = swap_open and view["you"] == "red"


def _offer(kind: str, offered: bool) -> Callable[[View, Frame], None]:
    def step(view: View, frame: Frame) -> None:
        view["offers"] = {**view["offers"], kind: frame["seat"] if offered else None}
    return step


def _stop_play(view: View) -> None:
    view["turn"] = None
    view["deadline_ms"] = None
    view["resume_requested"] = []
    if view["variant"] != "domains":
        view[SWAP_OPEN] = view[SWAP_FIELD] = False


def _adjourned(view: View, frame: Frame) -> None:
    view["status"] = "adjourned"
    view["offers"] = {**view["offers"], "adjourn": None}
    _stop_play(view)
    for seat in SEATS:
        view["players"][seat]["clock_ms"] = frame["clock_ms"][seat]


def _resume_requested(view: View, frame: Frame) -> None:
    asked = {*view["resume_requested"], frame["seat"]}
    view["resume_requested"] = [seat for seat in SEATS if seat in asked]


def _resumed(view: View, frame: Frame) -> None:
    """Play goes on: a ``turn`` follows with the summary."""
    view["status"] = "playing"
    view["resume_requested"] = []
    for key in (*TURN_SUMMARY, *_variant_fields(view)):
        view.pop(key, None)


def _finished(view: View, frame: Frame) -> None:
    view["status"] = "finished"
    view["result"] = dict(frame["result"])
    view["offers"] = {**view["offers"], "draw": None, "adjourn": None}
    _stop_play(view)
    view.pop("now_ms", None)
    for player in view["players"].values():
        player.pop("clock_ms", None)


def _nothing(view: View, frame: Frame) -> None:
    """``hidden``: the opponent's hand."""


def _turn_lost(view: View, frame: Frame) -> None:
    """``exchanged``, ``timeout``, ``passed``: a turn played with no change on the board."""
    _open_turn(view)


_STEPS: dict[str, Callable[[View, Frame], None]] = {
    "placed": _placed,
    "mistake": _mistake,
    "taken": _taken,
    "exchanged": _turn_lost,
    "swapped": _swapped,
    "timeout": _turn_lost,
    "passed": _turn_lost,
    "timeouts": _timeouts,
    "hand": _hand,
    "hidden": _nothing,
    "turn": _turn,
    "draw_offered": _offer("draw", True),
    "draw_declined": _offer("draw", False),
    "draw_lapsed": _offer("draw", False),
    "adjourn_offered": _offer("adjourn", True),
    "adjourn_lapsed": _offer("adjourn", False),
    "adjourned": _adjourned,
    "resume_requested": _resume_requested,
    "resumed": _resumed,
    "finished": _finished,
}
