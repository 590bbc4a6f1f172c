"""The cards of *Watching Us* (rulebook 002), in one table.

The rulebook (``shared/rules/002_7b8987be9c2d5788.txt``) describes the four decks but prints
only the few cards its examples quote: the Monsters "Police Detective" (Humanoid, 2 HP, To
Hit 5+), "Boo" (Spiritual and Medical), "Charlie" (Humanoid) and "Road Squid" (43/60,
Eldritch); the Rituals 2/30 and 3/30 ("RITUAL 6"), the Earth Ritual of the culvert and the
match-lighting Fire Rituals; the Characters the Arsonist, the Teacher, the Pastor and the
Detective and the Items the Detective's Camera, the Pastor's Cross, the Artist's Camera and
the Hiker's Flashlight; the Location words Grimy, Bloodied, Burning, Lake, Alleyway and
Apartment. Every other card is a **completion** (``quoted`` is empty on it), sized as the
card numbers suggest: 60 Monsters ("43/60"), 30 Rituals ("3/30"), 30 Character/Item cards
(three are dealt to each of up to five players) and 20 Location cards. RULES.md,
*Completions*, lists them again.

Effects are data in a small closed vocabulary the engine implements (``KINDS``), written
``"<trigger>: <kind> <amount> [<target>] [<argument>]"`` and joined by ``;``:

- immediate kinds: ``damage``, ``heal``, ``gain_dice``, ``lose_dice`` (Ritual Dice),
  ``travel`` (the Character Travels that many times), ``peek`` (look at the top cards of the
  Monster deck), ``advance_time``, ``draw_item``, ``monster_heal`` (the Adversary and every
  Proxy), ``lose_unless`` (a real-world condition at a Monster's death, drawn as chance);
- passive kinds (trigger ``passive``): ``roll_bonus`` (Ritual Dice "roll as N higher"),
  ``roll_limit`` (at most N dice a roll), ``extra_damage`` (a damaging Ritual deals N more),
  ``ritual_bonus`` (N more Ritual Dice on a Ritual success, ``any`` element or one),
  ``immune`` (no damage from attacks of Monsters of that type), ``armor`` (attack damage
  less N), ``max_hp`` (N more HP), ``peek_start`` (look at the Monster deck's top card at the
  start of one's action);
- triggers: ``now`` (when the card acts), ``passive``, ``turn`` (every turn after the flip),
  ``night`` / ``morning`` (when the Time Tracker enters that stage), ``death`` (when the
  Monster dies);
- targets: ``active`` (the active Character), ``self`` (whoever acts: the same),
  ``all`` (every living Character), ``location`` (every living Character at the active
  Character's Location), ``gm`` (one living Character of the DM's choice: a GM decision),
  ``holder`` (a passive on the card's holder), ``here`` (a passive on everyone at the
  Location, or at the holder's Location).

Pure data: no I/O.
"""

from __future__ import annotations

from typing import NamedTuple

TIMES = ("Morning", "Afternoon", "Evening", "Night")  # "Mañana -> Mediodía -> Tarde -> Noche -> Mañana"
ELEMENTS = ("fire", "water", "earth", "wind", "none")
TYPES = ("Humanoid", "Eldritch", "Spiritual", "Medical", "Religious", "Animal", "Aquatic", "Digital")
BASELINE_HP = 3  # "the "baseline" is 3" (Monsters); Characters' HP follow the same baseline (completion)
MAX_DICE_ROLLED = 12  # completion: at most 12 Ritual Dice in one roll (bounds a decision's choices)
MAX_ITEMS = 8  # completion: an Investigation that would give a ninth Item gives none (bounds the lists)
#: A Ritual's success, when the referee draws it: the difficulty's probability (completion; the book's
#: Rituals are real-world tasks the DM judges).
DIFFICULTY = {"easy": 0.8, "medium": 0.6, "hard": 0.4}
#: Road Squid's adversary condition ("a living cephalopod/gastropod ... must be at the table") and any
#: other ``lose_unless``: the chance that the table has it, drawn when the Monster dies (completion).
TABLE_CHECK = 0.5

TRIGGERS = ("now", "passive", "turn", "night", "morning", "death")
KINDS = {
    "damage": ("active", "self", "all", "location", "gm"),
    "heal": ("active", "self", "all", "location", "gm"),
    "gain_dice": ("active", "self", "all", "location", "gm"),
    "lose_dice": ("active", "self", "all", "location", "gm"),
    "travel": ("active", "self"),
    "peek": ("active", "self"),
    "advance_time": ("active", "self"),
    "draw_item": ("active", "self", "gm"),
    "monster_heal": ("monsters",),
    "lose_unless": ("players",),
    "roll_bonus": ("holder", "here", "all"),
    "roll_limit": ("holder", "here", "all"),
    "extra_damage": ("holder", "here", "all"),
    "ritual_bonus": ("holder", "here", "all"),
    "immune": ("holder", "here", "all"),
    "armor": ("holder", "here", "all"),
    "max_hp": ("holder", "here", "all"),
    "peek_start": ("holder",),
}
PASSIVE_KINDS = frozenset(
    ("roll_bonus", "roll_limit", "extra_damage", "ritual_bonus", "immune", "armor", "max_hp", "peek_start")
)


class Effect(NamedTuple):
    trigger: str
    kind: str
    amount: int
    target: str
    arg: str  # an element for ritual_bonus, a Monster type for immune, else ""


def effects(text: str, default_trigger: str = "now") -> tuple[Effect, ...]:
    """Return the effects ``text`` writes; a ValueError names a bad one (checked at import)."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        trigger, sep, rest = part.partition(":")
        if not sep:
            trigger, rest = default_trigger, part
        words = rest.split()
        trigger = trigger.strip()
        if trigger not in TRIGGERS or not words or words[0] not in KINDS or len(words) < 2:
            raise ValueError(f"bad effect {part!r}")
        kind, amount = words[0], int(words[1])
        target = words[2] if len(words) > 2 else KINDS[kind][0]
        if target not in KINDS[kind] or (kind in PASSIVE_KINDS) != (trigger == "passive"):
            raise ValueError(f"bad effect {part!r}")
        arg = words[3] if len(words) > 3 else ""
        if kind == "ritual_bonus" and arg not in (*ELEMENTS, "any", ""):
            raise ValueError(f"bad element in {part!r}")
        if kind == "immune" and arg not in TYPES:
            raise ValueError(f"bad type in {part!r}")
        out.append(Effect(trigger, kind, amount, target, arg))
    return tuple(out)


class Monster(NamedTuple):
    number: int  # "The CARD # is the card number" (n/60)
    name: str
    types: tuple[str, ...]
    hp: int
    to_hit: str  # the To Hit notation (to_hit.py)
    adversary: tuple[Effect, ...]
    proxy: tuple[Effect, ...]
    attack: tuple[Effect, ...]
    text: str  # the three boxes in words
    quoted: str  # the rulebook's words this card keeps; "" for a completion


def _m(number, name, types, hp, to_hit, adversary, proxy, attack, text, quoted=""):
    return Monster(
        number,
        name,
        tuple(types.split("/")),
        hp,
        to_hit,
        effects(adversary, "turn"),
        effects(proxy, "turn"),
        effects(attack),
        text,
        quoted,
    )


# fmt: off
MONSTERS: tuple[Monster, ...] = (
    _m(1, "Boo", "Spiritual/Medical", 2, "4+", "turn: lose_dice 1 active", "night: lose_dice 1 all",
       "lose_dice 1 all",
       "Adversary: each turn the active Character loses a Ritual Die. Proxy: at Night everyone loses one. "
       "Attack: everyone who flinches loses a Ritual Die (the engine: everyone).",
       "Boo isn't a Humanoid (he's Spiritual and Medical), his Attack (the bottom-most box) triggers, and since "
       "Alice and Bob both flinched, they both lose a Ritual Dice."),
    _m(2, "Charlie", "Humanoid", 3, "4+", "night: damage 1 gm", "night: damage 1 location", "damage 1 active",
       "Adversary: at Night a Character of the DM's choice takes 1 damage. Proxy: at Late Night everyone at "
       "the active Location takes 1 damage. Attack: 1 damage.",
       "Because Charlie and the \"Police Detective\" are both Humanoids, instead of attacking, Charlie becomes "
       "a Proxy. It's not Late Night, so his effect doesn't activate yet"),
    _m(3, "Police Detective", "Humanoid", 2, "5+", "night: damage 1 gm", "turn: lose_dice 1 active",
       "lose_dice 2 active",
       "Adversary: at Night a Character of the DM's choice takes 1 damage. Proxy: each turn the active "
       "Character loses a Ritual Die. Attack: the active Character loses 2 Ritual Dice.",
       "In this case, the \"Police Detective\" is Humanoid. The \"Police Detective\" has 2 HP ... A To Hit of "
       "\"5+\" means your Ritual Dice (which are D6) need to roll a 5 or higher"),
    _m(4, "The Botfly", "Animal/Medical", 2, "3+", "turn: damage 1 gm", "night: damage 1 active",
       "damage 1 active", "Adversary: each turn 1 damage to a Character of the DM's choice. Proxy: at Night 1 "
       "damage to the active Character. Attack: 1 damage."),
    _m(5, "The Hound", "Animal/Spiritual", 3, "4+", "night: damage 1 all", "turn: damage 1 active",
       "damage 1 active", "Adversary: at Night every Character takes 1 damage. Proxy: each turn 1 damage to the "
       "active Character. Attack: 1 damage."),
    _m(6, "Local 58", "Digital", 3, "5+", "passive: roll_bonus -1 all", "night: lose_dice 2 all",
       "lose_dice 2 active", "Adversary: every Ritual Die rolls as 1 lower. Proxy: at Night everyone loses 2 "
       "Ritual Dice. Attack: the active Character loses 2 Ritual Dice."),
    _m(7, "The Meat God", "Eldritch/Religious", 5, "2x4+", "morning: monster_heal 1 monsters",
       "night: damage 1 all", "damage 2 active", "Adversary: each Morning the Adversary and every Proxy heal 1. "
       "Proxy: at Night every Character takes 1 damage. Attack: 2 damage."),
    _m(8, "Maddie Middleton", "Humanoid/Spiritual", 3, "3, 6", "turn: lose_dice 1 gm", "night: damage 1 gm",
       "travel 1 active", "Adversary: each turn a Character of the DM's choice loses a Ritual Die. Proxy: at "
       "Night 1 damage to a Character of the DM's choice. Attack: the active Character Travels once."),
    _m(9, "The Night Nurse", "Humanoid/Medical", 3, "4+", "night: heal 1 all", "turn: monster_heal 1 monsters",
       "lose_dice 1 active", "Adversary: at Night every Character heals 1 (she keeps them alive for later). "
       "Proxy: each turn the Monsters heal 1. Attack: lose a Ritual Die."),
    _m(10, "The Choir", "Religious/Spiritual", 4, "5+", "passive: roll_limit 3 all", "night: lose_dice 1 all",
       "damage 1 location", "Adversary: no one rolls more than 3 Ritual Dice at once. Proxy: at Night everyone "
       "loses a Ritual Die. Attack: 1 damage to everyone at the Location."),
    _m(11, "Drowned Man", "Humanoid/Aquatic", 3, "4-", "turn: lose_dice 1 active", "night: damage 1 active",
       "damage 1 active", "Adversary: each turn the active Character loses a Ritual Die. Proxy: at Night 1 "
       "damage. Attack: 1 damage."),
    _m(12, "The Static", "Digital/Spiritual", 2, "Any", "passive: roll_limit 2 all", "turn: lose_dice 1 active",
       "lose_dice 1 all", "Adversary: no one rolls more than 2 Ritual Dice at once. Proxy: each turn the active "
       "Character loses a Ritual Die. Attack: everyone loses a Ritual Die."),
    _m(13, "Lake Thing", "Aquatic/Eldritch", 4, "5+", "night: damage 1 location", "night: damage 1 active",
       "damage 1 active", "Adversary: at Night everyone at the active Location takes 1 damage. Proxy: at Night "
       "1 damage. Attack: 1 damage."),
    _m(14, "The Surgeon", "Humanoid/Medical", 3, "6", "turn: damage 1 gm", "night: damage 1 gm",
       "damage 2 active", "Adversary: each turn 1 damage to a Character of the DM's choice. Proxy: at Night the "
       "same. Attack: 2 damage."),
    _m(15, "Crow Swarm", "Animal", 2, "2x1, 2x2, 2x3", "turn: lose_dice 1 gm", "turn: lose_dice 1 active",
       "lose_dice 1 location", "Adversary: each turn a Character of the DM's choice loses a Ritual Die. Proxy: "
       "the active Character loses one. Attack: everyone at the Location loses one."),
    _m(16, "The Preacher", "Humanoid/Religious", 3, "5+", "morning: damage 1 all", "night: lose_dice 1 all",
       "lose_dice 1 active", "Adversary: each Morning every Character takes 1 damage. Proxy: at Night everyone "
       "loses a Ritual Die. Attack: lose a Ritual Die."),
    _m(17, "Bad Signal", "Digital", 2, "1, 2", "passive: roll_bonus -1 all", "turn: lose_dice 1 active",
       "peek 1 active", "Adversary: Ritual Dice roll as 1 lower. Proxy: each turn lose a Ritual Die. Attack: "
       "the active Character looks at the top Monster (a harmless glitch)."),
    _m(18, "The Tall Man", "Spiritual/Humanoid", 4, "5+", "night: damage 1 gm", "night: damage 1 active",
       "travel 2 active", "Adversary: at Night 1 damage to a Character of the DM's choice. Proxy: at Night 1 "
       "damage. Attack: the active Character Travels twice."),
    _m(19, "Pale Deer", "Animal/Spiritual", 3, "3+", "turn: lose_dice 1 active", "night: damage 1 location",
       "travel 1 active", "Adversary: each turn lose a Ritual Die. Proxy: at Night 1 damage at the Location. "
       "Attack: Travel once."),
    _m(20, "The Tithe", "Religious", 3, "2xAny", "morning: lose_dice 2 all", "morning: lose_dice 1 all",
       "lose_dice 2 active", "Adversary: each Morning everyone loses 2 Ritual Dice. Proxy: each Morning one. "
       "Attack: lose 2 Ritual Dice."),
    _m(21, "Sewer Mouth", "Eldritch/Aquatic", 4, "4+", "turn: damage 1 gm", "night: damage 1 all",
       "damage 1 location", "Adversary: each turn 1 damage to a Character of the DM's choice. Proxy: at Night "
       "1 damage to everyone. Attack: 1 damage at the Location."),
    _m(22, "The Patient", "Humanoid/Medical", 2, "3+", "night: damage 1 active", "turn: lose_dice 1 active",
       "damage 1 active", "Adversary: at Night 1 damage to the active Character. Proxy: each turn lose a Ritual "
       "Die. Attack: 1 damage."),
    _m(23, "Grandmother's Portrait", "Spiritual", 3, "6", "passive: roll_bonus -1 all", "night: damage 1 gm",
       "lose_dice 1 all", "Adversary: Ritual Dice roll as 1 lower. Proxy: at Night 1 damage to a Character of "
       "the DM's choice. Attack: everyone loses a Ritual Die."),
    _m(24, "The Feed", "Digital/Eldritch", 3, "5+, 1", "turn: lose_dice 1 active", "turn: lose_dice 1 active",
       "advance_time 1 active", "Adversary and Proxy: each turn lose a Ritual Die. Attack: the Time Tracker "
       "advances one step."),
    _m(25, "Rat King", "Animal", 4, "2x2-, 2x5+", "night: damage 1 location", "turn: damage 1 active",
       "damage 1 active", "Adversary: at Night 1 damage at the Location. Proxy: each turn 1 damage. Attack: 1 "
       "damage."),
    _m(26, "The Deacon", "Religious/Humanoid", 3, "4+", "night: damage 1 gm", "night: damage 1 active",
       "lose_dice 1 active", "Adversary: at Night 1 damage to a Character of the DM's choice. Proxy: at Night 1 "
       "damage. Attack: lose a Ritual Die."),
    _m(27, "Tide Pool Eye", "Aquatic", 2, "5+", "turn: lose_dice 1 active", "night: lose_dice 1 all",
       "peek 1 active", "Adversary: each turn lose a Ritual Die. Proxy: at Night everyone loses one. Attack: "
       "look at the top Monster."),
    _m(28, "The Coroner", "Medical/Humanoid", 3, "5+", "death: heal 1 all", "night: damage 1 active",
       "damage 1 active", "Adversary: when it dies every Character heals 1. Proxy: at Night 1 damage. Attack: "
       "1 damage."),
    _m(29, "Hollow Child", "Spiritual/Humanoid", 2, "4+", "night: damage 1 gm", "turn: lose_dice 1 active",
       "lose_dice 1 active", "Adversary: at Night 1 damage to a Character of the DM's choice. Proxy: each turn "
       "lose a Ritual Die. Attack: lose a Ritual Die."),
    _m(30, "The Algorithm", "Digital", 4, "3, 4", "passive: roll_limit 4 all", "night: lose_dice 1 all",
       "lose_dice 1 all", "Adversary: no one rolls more than 4 Ritual Dice. Proxy: at Night everyone loses a "
       "Ritual Die. Attack: everyone loses one."),
    _m(31, "Wendigo", "Eldritch/Animal", 5, "5+", "night: damage 1 all", "night: damage 1 location",
       "damage 2 active", "Adversary: at Night 1 damage to everyone. Proxy: at Night 1 damage at the Location. "
       "Attack: 2 damage."),
    _m(32, "The Baptist", "Religious/Aquatic", 3, "4+", "morning: lose_dice 1 all", "night: damage 1 active",
       "travel 1 active", "Adversary: each Morning everyone loses a Ritual Die. Proxy: at Night 1 damage. "
       "Attack: Travel once."),
    _m(33, "Plague Doctor", "Medical/Humanoid", 3, "5+", "turn: damage 1 gm", "night: damage 1 gm",
       "damage 1 location", "Adversary: each turn 1 damage to a Character of the DM's choice. Proxy: at Night "
       "the same. Attack: 1 damage at the Location."),
    _m(34, "Moth Saint", "Religious/Animal", 2, "Any", "night: lose_dice 2 all", "night: lose_dice 1 active",
       "lose_dice 1 active", "Adversary: at Night everyone loses 2 Ritual Dice. Proxy: at Night lose one. "
       "Attack: lose a Ritual Die."),
    _m(35, "The Understudy", "Humanoid", 3, "2x3+", "turn: lose_dice 1 active", "night: damage 1 active",
       "damage 1 active", "Adversary: each turn lose a Ritual Die. Proxy: at Night 1 damage. Attack: 1 damage."),
    _m(36, "Deep One", "Aquatic/Eldritch", 4, "6", "night: damage 1 all", "turn: damage 1 active",
       "damage 1 active", "Adversary: at Night every Character takes 1 damage. Proxy: each turn 1 damage. "
       "Attack: 1 damage."),
    _m(37, "The Screen", "Digital/Spiritual", 3, "5+", "passive: roll_bonus -1 all", "turn: lose_dice 1 active",
       "lose_dice 1 active", "Adversary: Ritual Dice roll as 1 lower. Proxy: each turn lose a Ritual Die. "
       "Attack: lose a Ritual Die."),
    _m(38, "Mother of Flies", "Animal/Religious", 4, "2x1, 6", "night: damage 1 gm", "night: lose_dice 1 all",
       "damage 1 active", "Adversary: at Night 1 damage to a Character of the DM's choice. Proxy: at Night "
       "everyone loses a Ritual Die. Attack: 1 damage."),
    _m(39, "The Orderly", "Humanoid/Medical", 3, "4+", "turn: lose_dice 1 gm", "night: damage 1 active",
       "damage 1 active", "Adversary: each turn a Character of the DM's choice loses a Ritual Die. Proxy: at "
       "Night 1 damage. Attack: 1 damage."),
    _m(40, "Whisper", "Spiritual", 2, "5-", "turn: lose_dice 1 active", "night: lose_dice 1 all",
       "lose_dice 1 all", "Adversary: each turn lose a Ritual Die. Proxy: at Night everyone loses one. Attack: "
       "everyone loses one."),
    _m(41, "The Abbot", "Religious/Humanoid", 4, "5+", "morning: monster_heal 1 monsters",
       "night: damage 1 gm", "damage 1 active", "Adversary: each Morning the Monsters heal 1. Proxy: at Night 1 "
       "damage to a Character of the DM's choice. Attack: 1 damage."),
    _m(42, "Bog Hand", "Aquatic/Animal", 3, "3-", "turn: lose_dice 1 active", "night: damage 1 location",
       "travel 1 active", "Adversary: each turn lose a Ritual Die. Proxy: at Night 1 damage at the Location. "
       "Attack: Travel once."),
    _m(43, "Road Squid", "Eldritch", 3, "4+", "death: lose_unless 1 players", "night: damage 1 active",
       "travel 2 active",
       "Adversary: if the players do not have a living cephalopod/gastropod before Road Squid dies, they lose "
       "(the engine: a chance check when it dies). Proxy: at Night 1 damage (completion). Attack: the active "
       "Character immediately Travels twice.",
       "43/60 Road Squid Eldritch ... If the players do not have a living cephalopod/gastropod before Road "
       "Squid dies, they lose. It must be at the table. ... The active Character immediately Travels twice."),
    _m(44, "Mirror Twin", "Spiritual/Humanoid", 3, "2xAny", "turn: lose_dice 1 gm", "night: damage 1 active",
       "lose_dice 1 active", "Adversary: each turn a Character of the DM's choice loses a Ritual Die. Proxy: at "
       "Night 1 damage. Attack: lose a Ritual Die."),
    _m(45, "The Congregation", "Religious", 5, "4+", "night: damage 1 all", "turn: lose_dice 1 active",
       "damage 1 location", "Adversary: at Night 1 damage to everyone. Proxy: each turn lose a Ritual Die. "
       "Attack: 1 damage at the Location."),
    _m(46, "Lantern Fish", "Aquatic/Eldritch", 2, "5+", "passive: roll_bonus -1 all", "night: damage 1 active",
       "peek 1 active", "Adversary: Ritual Dice roll as 1 lower. Proxy: at Night 1 damage. Attack: look at the "
       "top Monster."),
    _m(47, "The Intern", "Humanoid/Digital", 2, "3+", "turn: lose_dice 1 active", "turn: lose_dice 1 active",
       "lose_dice 1 active", "Each turn (Adversary, Proxy) or now (Attack): lose a Ritual Die."),
    _m(48, "Fever Dream", "Medical/Spiritual", 3, "1, 6", "night: damage 1 gm", "night: damage 1 location",
       "damage 1 active", "Adversary: at Night 1 damage to a Character of the DM's choice. Proxy: at Night 1 "
       "damage at the Location. Attack: 1 damage."),
    _m(49, "The Stray", "Animal", 2, "4+", "turn: damage 1 gm", "night: damage 1 active", "damage 1 active",
       "Adversary: each turn 1 damage to a Character of the DM's choice. Proxy: at Night 1 damage. Attack: 1 "
       "damage."),
    _m(50, "Dial Tone", "Digital", 3, "2x6, 1", "turn: lose_dice 1 active", "night: lose_dice 1 all",
       "advance_time 1 active", "Adversary: each turn lose a Ritual Die. Proxy: at Night everyone loses one. "
       "Attack: the Time Tracker advances."),
    _m(51, "The Vicar", "Religious/Humanoid", 3, "5+", "night: damage 1 gm", "night: lose_dice 1 active",
       "lose_dice 1 active", "Adversary: at Night 1 damage to a Character of the DM's choice. Proxy: at Night "
       "lose a Ritual Die. Attack: lose a Ritual Die."),
    _m(52, "Thing in the Pipes", "Eldritch/Aquatic", 4, "4+", "turn: lose_dice 1 active",
       "night: damage 1 location", "damage 1 active", "Adversary: each turn lose a Ritual Die. Proxy: at Night 1 "
       "damage at the Location. Attack: 1 damage."),
    _m(53, "The Anaesthetist", "Medical", 3, "5+", "passive: roll_limit 3 all", "turn: lose_dice 1 active",
       "lose_dice 2 active", "Adversary: no one rolls more than 3 Ritual Dice. Proxy: each turn lose a Ritual "
       "Die. Attack: lose 2 Ritual Dice."),
    _m(54, "Goat Man", "Animal/Humanoid", 4, "4+", "night: damage 1 all", "night: damage 1 active",
       "damage 1 active", "Adversary: at Night 1 damage to everyone. Proxy: at Night 1 damage. Attack: 1 "
       "damage."),
    _m(55, "The Veil", "Spiritual", 3, "6", "turn: lose_dice 1 active", "night: lose_dice 1 all",
       "lose_dice 1 all", "Adversary: each turn lose a Ritual Die. Proxy: at Night everyone loses one. Attack: "
       "everyone loses one. (To Hit: only a 6.)"),
    _m(56, "The Archivist", "Digital/Religious", 3, "3+", "morning: lose_dice 1 all", "night: damage 1 active",
       "peek 2 active", "Adversary: each Morning everyone loses a Ritual Die. Proxy: at Night 1 damage. "
       "Attack: look at the top two Monsters."),
    _m(57, "Leech Bride", "Aquatic/Humanoid", 3, "2x4-", "turn: damage 1 gm", "night: damage 1 active",
       "damage 1 active", "Adversary: each turn 1 damage to a Character of the DM's choice. Proxy: at Night 1 "
       "damage. Attack: 1 damage."),
    _m(58, "The Shape", "Eldritch", 6, "N/A", "night: damage 1 all", "night: damage 1 gm", "damage 1 active",
       "Cannot be damaged by ordinary means (To Hit N/A). Adversary: at Night 1 damage to everyone. Proxy: at "
       "Night 1 damage to a Character of the DM's choice. Attack: 1 damage."),
    _m(59, "Paramedic", "Medical/Humanoid", 2, "4+", "night: heal 1 all", "turn: monster_heal 1 monsters",
       "heal 1 active", "Adversary: at Night everyone heals 1. Proxy: each turn the Monsters heal 1. Attack: "
       "the active Character heals 1 (an odd mercy)."),
    _m(60, "The Host", "Religious/Spiritual", 4, "5+", "night: damage 1 gm", "night: damage 1 all",
       "damage 1 active", "Adversary: at Night 1 damage to a Character of the DM's choice. Proxy: at Night 1 "
       "damage to everyone. Attack: 1 damage."),
)
# fmt: on


class Ritual(NamedTuple):
    number: int  # n/30
    element: str
    instructions: str
    difficulty: str  # DIFFICULTY's key: the chance the referee draws for success
    judge: str  # "chance" (the referee draws it) or "next" (the next player seat decides)
    success_dice: int
    success: tuple[Effect, ...]
    failure_dice: int
    failure: tuple[Effect, ...]
    quoted: str


def _r(
    number,
    element,
    instructions,
    difficulty,
    success_dice,
    failure_dice,
    failure="",
    success="",
    quoted="",
    judge="chance",
):
    return Ritual(
        number,
        element,
        instructions,
        difficulty,
        judge,
        success_dice,
        effects(success),
        failure_dice,
        effects(failure),
        quoted,
    )


# fmt: off
RITUALS: tuple[Ritual, ...] = (
    _r(1, "fire", "Draw a portrait of the person to your left and give it to someone; they must rip it up.",
       "medium", 3, 1, "damage 1 self", judge="next",
       quoted="if the person you give the portrait to doesn't rip it up, the Ritual fails."),
    _r(2, "fire", "Light a match on the first try.", "easy", 1, 1, "damage 1 self",
       quoted="All she needs to do is light a match on the first try. ... She flunks the Ritual - it takes her "
       "three tries to light the match - and so her Character takes 1 damage. But ... she still gets a Ritual "
       "Dice from it (2/30; SUCCESS +1 Ritual Dice)"),
    _r(3, "fire", "Take a spicy piece of food, and then consume it. If you can swallow it, the Ritual succeeds.",
       "medium", 2, 1, "damage 1 self",
       quoted="RITUAL 6 ... piece of food, and then consume it. If you can swallow it, the Ritual succeeds. "
       "SUCCESS +2 Ritual Dice FAILURE +1 Ritual Dice and [1 damage] for your Character 3/30"),
    _r(4, "fire", "Light a match and hold it until it burns out, without dropping it.", "hard", 3, 1,
       "damage 1 self", quoted="She ends up drawing two Fire Rituals, both of which involve lighting a match."),
    _r(5, "earth", "Go alone into the woods, or somewhere similarly imposing, with your phone, for 5 minutes.",
       "medium", 4, 1, quoted="Charlie gives his DM assent, and sets a 5 minute timer ... Because Bob doesn't go "
       "with her ... she succeeds at her Ritual, acquiring the bounty of four new Ritual Dice."),
    _r(6, "water", "Drink a full glass of water without stopping.", "easy", 2, 1,
       quoted="a Earth Ritual and a Water Ritual ... the Water Ritual gets put in the discard pile"),
    _r(7, "fire", "Burn a written secret and say it aloud as it burns.", "medium", 3, 1, "damage 1 self"),
    _r(8, "fire", "Blow out a candle from across the room.", "hard", 4, 0, "damage 1 self"),
    _r(9, "fire", "Warm your hands over a flame for one minute.", "easy", 2, 0, "damage 1 self"),
    _r(10, "fire", "Toast a marshmallow without burning it.", "medium", 3, 1, "damage 1 self"),
    _r(11, "water", "Hold your breath for forty-five seconds.", "medium", 3, 1, "lose_dice 1 self"),
    _r(12, "water", "Wash your face with ice water and keep your eyes open.", "hard", 3, 1, "", "heal 1 self"),
    _r(13, "water", "Fill a cup to the brim and carry it around the table without spilling.", "medium", 2, 1,
       success="heal 1 self"),
    _r(14, "water", "Whisper a name into a glass of water, then pour it out.", "easy", 2, 0),
    _r(15, "water", "Balance a spoon of water on your nose for ten seconds.", "hard", 4, 1),
    _r(16, "earth", "Bury a coin outside and leave it there.", "easy", 2, 1),
    _r(17, "earth", "Stand barefoot on the ground outside for two minutes.", "medium", 3, 1, "damage 1 self"),
    _r(18, "earth", "Build a cairn of five stones that stands for a minute.", "hard", 5, 1),
    _r(19, "earth", "Find something living that is older than you.", "medium", 3, 1, success="heal 1 self"),
    _r(20, "earth", "Eat a pinch of salt without water.", "easy", 2, 1),
    _r(21, "wind", "Open every window in the room and call out the Adversary's name.", "medium", 3, 1,
       "travel 1 self"),
    _r(22, "wind", "Whistle a tune the whole table recognises.", "hard", 4, 1),
    _r(23, "wind", "Blow a feather across the table without touching it.", "medium", 3, 1),
    _r(24, "wind", "Ring a bell three times at the front door.", "easy", 2, 0, "travel 1 self"),
    _r(25, "wind", "Sing a full verse without laughing.", "hard", 4, 1, "lose_dice 1 self"),
    _r(26, "wind", "Throw a paper airplane across the room.", "easy", 2, 1, success="peek 1 self"),
    _r(27, "none", "Say the Adversary's name into a mirror three times.", "hard", 4, 1, "damage 1 self"),
    _r(28, "none", "Tell a true secret to the DM.", "medium", 3, 1, success="peek 1 self", judge="next"),
    _r(29, "earth", "Plant a seed in a cup of soil.", "easy", 2, 1, success="draw_item 1 self"),
    _r(30, "water", "Cry real tears, or convince the table you have.", "hard", 5, 1, judge="next"),
)
# fmt: on


class CharacterCard(NamedTuple):
    number: int  # n/30: the Character and its Item share the card and the number
    character: str
    hp: int
    character_effect: tuple[Effect, ...]  # "the Character's always-on passive effect"
    item: str
    item_passive: tuple[Effect, ...]  # "active as long as you have that Item in your possession"
    item_active: tuple[Effect, ...]  # "you need to discard the item during your turn"
    text: str
    quoted: str


def _c(number, character, hp, ceffect, item, passive, active, text, quoted=""):
    return CharacterCard(
        number,
        character,
        hp,
        effects(ceffect, "passive"),
        item,
        effects(passive, "passive"),
        effects(active),
        text,
        quoted,
    )


# fmt: off
CHARACTERS: tuple[CharacterCard, ...] = (
    _c(1, "Detective", 3, "peek_start 0 holder", "Detective's Camera", "", "peek 2 self",
       "Detective: sees the top Monster at the start of each action. Camera: discard to look at the top two "
       "Monsters.", quoted="In this case, the \"Detective\". ... This is the \"Detective's Camera\"."),
    _c(2, "Pastor", 3, "immune 0 holder Religious", "Pastor's Cross", "peek_start 0 holder", "heal 2 self",
       "Pastor: can't be damaged by attacks from Religious Monsters. Cross (passive): look at the top card of "
       "the Monster deck at the start of your action. Cross (active): heal 2.",
       quoted="the Pastor, who can't be damaged by attacks from Religious Monsters. ... her Pastor's Cross lets "
       "her look at the top card of the Monster deck"),
    _c(3, "Arsonist", 3, "ritual_bonus 1 holder fire", "Arsonist's Lighter", "ritual_bonus 1 holder fire",
       "gain_dice 1 self", "Arsonist: +1 Ritual Die on a Fire Ritual success. Lighter: the same; discard for a "
       "Ritual Die.", quoted="Being the Arsonist, she wants to take advantage of Fire Rituals"),
    _c(4, "Teacher", 3, "max_hp 1 holder", "Teacher's Red Pen", "", "heal 1 all",
       "Teacher: 1 more HP. Red Pen: discard to heal every Character 1.", quoted="Bob picks the Teacher"),
    _c(5, "Artist", 3, "roll_bonus 1 holder", "Artist's Camera", "", "gain_dice 2 self",
       "Artist: Ritual Dice roll as 1 higher. Camera: discard for two Ritual Dice, pain-free.",
       quoted="He uses his Artist's Camera to give himself two Ritual Dice pain-free"),
    _c(6, "Hiker", 3, "armor 1 holder", "Hiker's Flashlight", "ritual_bonus 1 here earth", "travel 1 self",
       "Hiker: takes 1 less damage from attacks. Flashlight: a Character succeeding at an Earth Ritual at its "
       "holder's Location gains 1 more Ritual Die; discard to Travel.",
       quoted="because Bob has the Hiker's Flashlight, she gets *another* Ritual Dice, for a total of 5!"),
    _c(7, "Nurse", 3, "max_hp 1 holder", "Nurse's Kit", "", "heal 2 self", "Nurse: 1 more HP. Kit: heal 2."),
    _c(8, "Priest", 3, "immune 0 holder Spiritual", "Priest's Rosary", "armor 1 holder", "heal 1 location",
       "Priest: no damage from Spiritual attacks. Rosary: 1 less attack damage; discard: heal everyone here 1."),
    _c(9, "Mechanic", 4, "", "Mechanic's Wrench", "extra_damage 1 holder", "gain_dice 1 self",
       "Mechanic: 4 HP. Wrench: a damaging Ritual deals 1 more; discard for a Ritual Die."),
    _c(10, "Streamer", 2, "ritual_bonus 1 holder any", "Streamer's Ring Light", "roll_bonus 1 holder",
       "peek 1 self", "Streamer: +1 Ritual Die on any success. Ring Light: roll as 1 higher; discard to peek."),
    _c(11, "Librarian", 3, "peek_start 0 holder", "Librarian's Tome", "", "gain_dice 3 self",
       "Librarian: peeks at the top Monster each action. Tome: discard for three Ritual Dice."),
    _c(12, "Sailor", 3, "ritual_bonus 1 holder water", "Sailor's Compass", "", "travel 2 self",
       "Sailor: +1 Ritual Die on a Water success. Compass: discard to Travel twice."),
    _c(13, "Gardener", 3, "ritual_bonus 1 holder earth", "Gardener's Trowel", "", "heal 1 self",
       "Gardener: +1 Ritual Die on an Earth success. Trowel: heal 1."),
    _c(14, "Pilot", 3, "ritual_bonus 1 holder wind", "Pilot's Goggles", "roll_bonus 1 holder", "travel 1 self",
       "Pilot: +1 Ritual Die on a Wind success. Goggles: roll as 1 higher; discard to Travel."),
    _c(15, "Butcher", 4, "extra_damage 1 holder", "Butcher's Cleaver", "", "gain_dice 2 self",
       "Butcher: 4 HP, damaging Rituals deal 1 more. Cleaver: two Ritual Dice."),
    _c(16, "Skeptic", 3, "armor 1 holder", "Skeptic's Notebook", "", "peek 1 self",
       "Skeptic: 1 less attack damage. Notebook: peek."),
    _c(17, "Medium", 2, "roll_bonus 1 holder", "Medium's Candle", "ritual_bonus 1 holder fire", "gain_dice 2 self",
       "Medium: roll as 1 higher. Candle: +1 die on Fire successes; discard for two dice."),
    _c(18, "Janitor", 3, "immune 0 holder Medical", "Janitor's Keys", "", "travel 1 self",
       "Janitor: no damage from Medical attacks. Keys: Travel."),
    _c(19, "Student", 3, "", "Student's Energy Drink", "", "gain_dice 2 self",
       "Student: no effect. Energy Drink: two Ritual Dice."),
    _c(20, "Firefighter", 4, "immune 0 holder Eldritch", "Firefighter's Axe", "extra_damage 1 holder",
       "heal 1 self", "Firefighter: 4 HP, no damage from Eldritch attacks. Axe: +1 damage; discard: heal 1."),
    _c(21, "Hunter", 3, "roll_bonus 1 holder", "Hunter's Rifle", "", "gain_dice 2 self",
       "Hunter: roll as 1 higher. Rifle: two Ritual Dice."),
    _c(22, "Programmer", 3, "immune 0 holder Digital", "Programmer's Laptop", "", "peek 3 self",
       "Programmer: no damage from Digital attacks. Laptop: look at the top three Monsters."),
    _c(23, "Fisher", 3, "immune 0 holder Aquatic", "Fisher's Net", "armor 1 holder", "gain_dice 1 self",
       "Fisher: no damage from Aquatic attacks. Net: 1 less attack damage; a Ritual Die."),
    _c(24, "Vet", 3, "immune 0 holder Animal", "Vet's Stethoscope", "", "heal 2 self",
       "Vet: no damage from Animal attacks. Stethoscope: heal 2."),
    _c(25, "Cop", 4, "", "Cop's Flashlight", "ritual_bonus 1 here any", "travel 1 self",
       "Cop: 4 HP. Flashlight: +1 die on any success at the holder's Location; Travel."),
    _c(26, "Chef", 3, "max_hp 1 holder", "Chef's Knife", "extra_damage 1 holder", "heal 1 location",
       "Chef: 1 more HP. Knife: +1 damage; discard: heal everyone here 1."),
    _c(27, "Nun", 3, "immune 0 holder Religious", "Nun's Bell", "", "gain_dice 2 location",
       "Nun: no damage from Religious attacks. Bell: two Ritual Dice to everyone here."),
    _c(28, "Drifter", 3, "armor 1 holder", "Drifter's Map", "", "travel 2 self",
       "Drifter: 1 less attack damage. Map: Travel twice."),
    _c(29, "Clown", 2, "roll_bonus 2 holder", "Clown's Horn", "", "gain_dice 1 location",
       "Clown: roll as 2 higher. Horn: discard: everyone here gains a Ritual Die."),
    _c(30, "Twin", 3, "", "Twin's Locket", "max_hp 1 holder", "draw_item 1 self",
       "Twin: no effect. Locket: 1 more HP; discard to draw an Item."),
)
# fmt: on


class LocationCard(NamedTuple):
    number: int  # n/20
    adjective: str
    adjective_effect: tuple[Effect, ...]  # passive, "usually ... to Characters only in that Location"
    place: str
    place_effect: tuple[Effect, ...]
    text: str
    quoted: str


def _l(number, adjective, aeffect, place, peffect, text, quoted=""):
    return LocationCard(
        number, adjective, effects(aeffect, "passive"), place, effects(peffect, "passive"), text, quoted
    )


# fmt: off
LOCATIONS: tuple[LocationCard, ...] = (
    _l(1, "Grimy", "", "Alleyway", "roll_limit 3 here",
       "Grimy: no effect of its own (the example's Lake is Grimy and the Lake does the work). Alleyway: roll "
       "at most 3 Ritual Dice here.",
       quoted="The ADJECTIVE is the descriptive adjective of that Location Card, such as \"Bloodied\" or "
       "\"Grimy\". ... The PLACE is the descriptive noun of that Location Card, such as \"Alleyway\" or "
       "\"Apartment\"."),
    _l(2, "Bloodied", "", "Apartment", "armor 1 here",
       "Bloodied: no effect of its own. Apartment: 1 less attack damage here.",
       quoted="for example, a \"Bloodied Alleyway\" ... she switches the Adjective twice - from Grimy to "
       "Bloodied, and then from Bloodied to Burning."),
    _l(3, "Burning", "extra_damage 1 here; roll_bonus -1 here", "Church", "immune 0 here Religious",
       "Burning: a damaging Ritual deals 1 more, but Ritual Dice roll as 1 lower. Church: no damage from "
       "Religious attacks here.",
       quoted="Burning isn't actually great for her here - if she can hit the \"Police Detective\" at all, he "
       "dies, so the extra damage is a waste, and the penalty to her dice rolls means she needs to roll a 4 or "
       "higher now instead of a 3."),
    _l(4, "Haunted", "roll_bonus -1 here", "Lake", "roll_limit 4 here; roll_bonus 2 here",
       "Haunted: Ritual Dice roll as 1 lower. Lake: roll at most 4 Ritual Dice here; they roll as 2 higher.",
       quoted="She can only roll 4 Ritual Dice at the Lake, but they \"roll as 2 higher\", meaning that she "
       "only needs to roll a 3 or better"),
    _l(5, "Flooded", "roll_limit 5 here", "Basement", "armor 1 here", "Flooded: at most 5 dice. Basement: armor 1."),
    _l(6, "Quiet", "armor 1 here", "Library", "ritual_bonus 1 here any", "Quiet: armor 1. Library: +1 die on success."),
    _l(7, "Abandoned", "roll_bonus 1 here", "Hospital", "max_hp 1 here",
       "Abandoned: roll as 1 higher. Hospital: +1 HP."),
    _l(8, "Foggy", "roll_bonus -1 here", "Forest", "ritual_bonus 1 here earth",
       "Foggy: roll as 1 lower. Forest: +1 die on Earth successes."),
    _l(9, "Flickering", "roll_limit 4 here", "Gas Station", "ritual_bonus 1 here fire",
       "Flickering: at most 4 dice. Gas Station: +1 die on Fire successes."),
    _l(10, "Frozen", "armor 1 here", "Pier", "ritual_bonus 1 here water", "Frozen: armor 1. Pier: +1 die on Water."),
    _l(11, "Windy", "roll_bonus 1 here", "Rooftop", "ritual_bonus 1 here wind",
       "Windy: +1 to rolls. Rooftop: +1 die on Wind."),
    _l(12, "Silent", "immune 0 here Digital", "Motel", "armor 1 here", "Silent: no Digital damage. Motel: armor 1."),
    _l(13, "Sunken", "roll_bonus -1 here", "Cemetery", "extra_damage 1 here",
       "Sunken: roll as 1 lower. Cemetery: damaging Rituals deal 1 more."),
    _l(14, "Holy", "immune 0 here Spiritual", "Chapel", "roll_bonus 1 here", "Holy: no Spiritual damage. Chapel: +1."),
    _l(15, "Rotting", "max_hp -1 here", "Farm", "roll_bonus 1 here", "Rotting: 1 less HP. Farm: roll as 1 higher."),
    _l(16, "Neon", "roll_bonus 1 here", "Arcade", "immune 0 here Digital", "Neon: +1. Arcade: no Digital damage."),
    _l(17, "Crowded", "armor 1 here", "Mall", "roll_limit 5 here", "Crowded: armor 1. Mall: at most 5 dice."),
    _l(18, "Sterile", "immune 0 here Medical", "Clinic", "max_hp 1 here", "Sterile: no Medical damage. Clinic: +1 HP."),
    _l(19, "Overgrown", "ritual_bonus 1 here earth", "Park", "armor 1 here",
       "Overgrown: +1 die on Earth. Park: armor 1."),
    _l(20, "Dripping", "roll_bonus -1 here", "Tunnel", "extra_damage 1 here",
       "Dripping: roll as 1 lower. Tunnel: damaging Rituals deal 1 more."),
)
# fmt: on

MONSTER_BY_NAME = {m.name: i for i, m in enumerate(MONSTERS)}
