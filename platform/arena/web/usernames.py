"""User names that cannot pass for one another: normalised, case-folded, look-alikes refused.

A name is compared by its *skeleton*: NFKC (full-width "ａ" is "a"), case-folded
("Alice" is "alice"), invisible format characters dropped, and the letters
and digits that look like Latin ones mapped to them, after Unicode TR39's
confusables (Cyrillic "а", Greek "ο", digit "0" for "o"). Sign-up refuses a
name whose skeleton is an existing user's, and a name that mixes Latin with
Cyrillic or Greek letters.
"""

from __future__ import annotations

import unicodedata

#: Characters that look like Latin letters, from TR39's confusables, after case folding.
CONFUSABLES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ј": "j", "к": "k", "м": "m",
        "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d",
        "ӏ": "l", "ԛ": "q", "ԝ": "w", "ɡ": "g", "ո": "n",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c",
        "0": "o", "1": "l", "|": "l", "ı": "i",
    }
)  # fmt: skip


def skeleton(name: str) -> str:
    """Return what ``name`` looks like: two names with one skeleton are one name to a reader."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(char for char in text if unicodedata.category(char) != "Cf")
    return text.translate(CONFUSABLES)


def scripts(name: str) -> set[str]:
    """Return the alphabets of ``name``'s letters (the first word of each letter's Unicode name)."""
    found = set()
    for char in unicodedata.normalize("NFKC", name):
        if char.isalpha():
            found.add(unicodedata.name(char, "UNKNOWN").split()[0])
    return found


def problem(name: str, existing: list[str]) -> str | None:
    """Return why ``name`` may not be taken given the ``existing`` names, or None if it may."""
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in name):
        return "A user name cannot hold invisible or control characters."
    mixed = scripts(name)
    if "LATIN" in mixed and mixed & {"CYRILLIC", "GREEK"}:
        return "A user name cannot mix Latin letters with Cyrillic or Greek ones: they look alike."
    wanted = skeleton(name)
    for other in existing:
        if skeleton(other) == wanted:
            return f"That name is taken, or looks like one that is (“{other}”). Pick another."
    return None
