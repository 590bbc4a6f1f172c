"""The To Hit notation of *Watching Us* (rulebook 002, "TO-HIT DICE CLARIFICATIONS"), parsed.

``parse(text)`` returns a frozen :class:`ToHit`; ``ToHit.damage(rolls, proxy)``
is the damage a Ritual's roll deals a Monster with that To Hit:

- ``#+`` that number or higher; ``#-`` that number or lower; ``#`` exactly it;
- ``a, b`` (commas) any of the terms;
- ``KxV`` K dice showing the *same* face V (``2x1`` two ones); ``KxV+`` / ``KxV-`` K dice of
  one same face at or above / at or below V (``2x5+``: 2x5 or 2x6);
- ``Any`` any face; ``2xAny`` any doubles; ``N/A`` cannot be damaged by ordinary means.

Proxies take one damage per matching roll, "it counts every instance of that number
- four 1s counts as two 2x1s, and thus 2 damage": for each face, the dice showing
it make ``count // K`` hits with the smallest K of a term that accepts that face
(a die is used once). An Adversary "can only take 1 damage per Ritual": at most 1.
Rolls are the values after "roll as N higher" modifiers, so they may leave 1..6
(a 6 rolled as 2 higher is an 8: it meets ``5+`` and no exact ``6``).

Pure: no I/O.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from engines.base import EngineError

__all__ = ["Term", "ToHit", "ToHitError", "parse"]


class ToHitError(EngineError):
    """A To Hit value that is not the rulebook's notation (the message names what is wrong)."""


@dataclass(frozen=True)
class Term:
    """``count`` dice of one same face within ``low..high`` (None: unbounded on that side)."""

    count: int
    low: int | None
    high: int | None

    def accepts(self, face: int) -> bool:
        return (self.low is None or face >= self.low) and (self.high is None or face <= self.high)

    def text(self) -> str:
        if self.low is None and self.high is None:
            value = "Any"
        elif self.low == self.high:
            value = str(self.low)
        elif self.high is None:
            value = f"{self.low}+"
        else:
            value = f"{self.high}-"
        return value if self.count == 1 else f"{self.count}x{value}"


@dataclass(frozen=True)
class ToHit:
    """A parsed To Hit: its terms (any of them hits); no terms is ``N/A``."""

    terms: tuple[Term, ...]

    @property
    def immune(self) -> bool:
        """``N/A``: "this Monster cannot be damaged by ordinary means"."""
        return not self.terms

    def hits(self, rolls: Iterable[int]) -> int:
        """Return the number of hits in ``rolls``, every instance counted (the Proxy count)."""
        if not self.terms:
            return 0
        total = 0
        for face, number in Counter(rolls).items():
            sizes = [term.count for term in self.terms if term.accepts(face)]
            if sizes:
                total += number // min(sizes)
        return total

    def damage(self, rolls: Iterable[int], proxy: bool) -> int:
        """Return the damage of a roll: every hit for a Proxy, at most 1 for an Adversary."""
        hits = self.hits(rolls)
        return hits if proxy else min(hits, 1)

    def doubled(self) -> ToHit:
        """ "Double or Nothing!": each term needs twice as many dice (2x1 becomes 4x1; 5+ becomes 2x5+)."""
        return ToHit(tuple(Term(term.count * 2, term.low, term.high) for term in self.terms))

    def text(self) -> str:
        return ", ".join(term.text() for term in self.terms) if self.terms else "N/A"

    def __str__(self) -> str:
        return self.text()


_TERM = re.compile(r"^(?:(\d+)\s*[xX×]\s*)?(any|\d+)\s*([+-])?$", re.IGNORECASE)


def parse(text: object) -> ToHit:
    """Return the To Hit that ``text`` writes, or raise :class:`ToHitError` naming the problem."""
    if not isinstance(text, str):
        raise ToHitError(f"a To Hit value is a string such as '5+', not {type(text).__name__} {text!r}")
    raw = text.strip()
    if not raw:
        raise ToHitError("a To Hit value is empty: write for example '5+', '3, 4', '2x1', 'Any' or 'N/A'")
    if raw.upper() == "N/A":
        return ToHit(())
    terms = []
    for part in raw.split(","):
        piece = part.strip()
        if not piece:
            raise ToHitError(f"To Hit {raw!r} has an empty term between commas")
        match = _TERM.match(piece)
        if match is None:
            raise ToHitError(
                f"To Hit {raw!r}: {piece!r} is not a term ('#', '#+', '#-', '#x#', '#x#+', '#x#-', 'Any', '2xAny')"
            )
        count_text, value, sign = match.groups()
        count = int(count_text) if count_text is not None else 1
        if count < 1:
            raise ToHitError(f"To Hit {raw!r}: {piece!r} asks for {count} dice; the count is at least 1")
        if value.lower() == "any":
            if sign:
                raise ToHitError(f"To Hit {raw!r}: {piece!r}: 'Any' takes no '+' or '-'")
            terms.append(Term(count, None, None))
            continue
        face = int(value)
        if not 1 <= face <= 6:
            raise ToHitError(f"To Hit {raw!r}: {piece!r} names face {face}; Ritual Dice are D6 (1 to 6)")
        if sign == "+":
            terms.append(Term(count, face, None))
        elif sign == "-":
            terms.append(Term(count, None, face))
        else:
            terms.append(Term(count, face, face))
    return ToHit(tuple(terms))
