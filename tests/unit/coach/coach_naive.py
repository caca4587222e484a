"""The readings, written again the slow and obvious way: candidate *sets* per cell,
each rule a loop over every unit straight from RULES.md §2 (testkit's units, not the
bot's grid), no bitmasks, no queues. The coach's labels are checked against these."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from testkit.sudoku import units

Cands = list[set[int]]
RUNGS = ("naked_single", "hidden_single", "locked_candidates", "pairs")


class Contradiction(Exception):
    pass


def start(size: int, blocks: str, digits: str, wrong: Iterable[tuple[int, int]]) -> Cands:
    """Every empty cell: the digits its row, column and block do not show, less the
    digits the mistakes put there."""
    cands: Cands = []
    for i, ch in enumerate(digits):
        if ch != ".":
            cands.append({int(ch)})
            continue
        seen = {int(digits[j]) for u in units(size, blocks) if i in u for j in u
                if digits[j] != "."}
        cands.append(set(range(1, size + 1)) - seen)
    for i, d in wrong:
        if digits[i] == ".":
            cands[i].discard(d)
    if any(not c for c in cands):
        raise Contradiction
    return cands


def naked(size: int, blocks: str, cands: Cands) -> bool:
    """A cell down to one digit: that digit leaves every other cell of its units."""
    changed = False
    for u in units(size, blocks):
        for i in u:
            if len(cands[i]) == 1:
                (d,) = cands[i]
                for j in u:
                    if j != i and d in cands[j]:
                        cands[j].discard(d)
                        changed = True
                        if not cands[j]:
                            raise Contradiction
    return changed


def hidden(size: int, blocks: str, cands: Cands) -> bool:
    """A digit with one place left in a unit goes there."""
    changed = False
    for u in units(size, blocks):
        for d in range(1, size + 1):
            places = [i for i in u if d in cands[i]]
            if not places:
                raise Contradiction
            if len(places) == 1 and cands[places[0]] != {d}:
                cands[places[0]] = {d}
                changed = True
    return changed


def locked(size: int, blocks: str, cands: Cands) -> bool:
    """A digit of unit A found only where A meets unit B leaves the rest of B."""
    changed = False
    all_units = units(size, blocks)
    for a in all_units:
        for b in all_units:
            meet = set(a) & set(b)
            if a == b or not meet:
                continue
            for d in range(1, size + 1):
                places = {i for i in a if d in cands[i]}
                if places and places <= meet:
                    for j in b:
                        if j not in meet and d in cands[j]:
                            cands[j].discard(d)
                            changed = True
                            if not cands[j]:
                                raise Contradiction
    return changed


def pairs(size: int, blocks: str, cands: Cands) -> bool:
    """Two cells of a unit with the same two digits: those digits leave the rest of it."""
    changed = False
    for u in units(size, blocks):
        for i in u:
            for j in u:
                if i < j and len(cands[i]) == 2 and cands[i] == cands[j]:
                    for k in u:
                        if k not in (i, j) and cands[k] & cands[i]:
                            cands[k] -= cands[i]
                            changed = True
                            if not cands[k]:
                                raise Contradiction
    return changed


RULES: dict[str, Callable[[int, str, Cands], bool]] = {
    "naked_single": naked, "hidden_single": hidden, "locked_candidates": locked,
    "pairs": pairs,
}


def fixpoint(size: int, blocks: str, cands: Cands, rung: str) -> Cands:
    """The candidates once the rung's rules and those below stop changing anything
    (Contradiction if they run into one)."""
    cands = [set(c) for c in cands]
    rules = [RULES[r] for r in RUNGS[: RUNGS.index(rung) + 1]]
    while any([rule(size, blocks, cands) for rule in rules]):
        pass
    return cands


def proves(size: int, blocks: str, cands: Cands, rung: str, cell: int, digit: int) -> bool:
    return fixpoint(size, blocks, cands, rung)[cell] == {digit}


def survivors(size: int, blocks: str, cands: Cands, cell: int) -> set[int]:
    """The digits of the cell a trial (assume it on top of every rung, then apply the
    singles) does not refute."""
    base = fixpoint(size, blocks, cands, "pairs")
    alive = set()
    for d in base[cell]:
        trial = [set(c) for c in base]
        trial[cell] = {d}
        try:
            fixpoint(size, blocks, trial, "hidden_single")
        except Contradiction:
            continue
        alive.add(d)
    return alive


def solved_by_trials(size: int, blocks: str, cands: Cands) -> bool:
    """Strike every digit a trial refutes, apply every rung again, until the board is
    solved (True) or a pass strikes nothing (False)."""
    cands = fixpoint(size, blocks, cands, "pairs")
    while any(len(c) > 1 for c in cands):
        struck = False
        for cell in range(size * size):
            for d in sorted(cands[cell]):
                if len(cands[cell]) == 1:
                    break
                trial = [set(c) for c in cands]
                trial[cell] = {d}
                try:
                    fixpoint(size, blocks, trial, "hidden_single")
                except Contradiction:
                    cands[cell].discard(d)
                    cands = fixpoint(size, blocks, cands, "pairs")
                    struck = True
        if not struck:
            return False
    return True
