"""The Watch factory's material: every number the rulebook's pictures held, in one table.

The rulebook (``../shared/rules/000_7e0fd8057c490dfc.txt``, Daniel Newman's
*Watch*) lost its pictures: the player board's icons and costs, the market
cards, the document cards, the majority tracks' bonus spots, the scoring help
and the solo cards. Each value below is a completion, consistent with every
number the text does give (its worked examples are quoted beside the values
they fix); ``RULES.md`` (*Completions*) lists them again.

Pure data: no I/O, no imports outside the standard library.
"""

from __future__ import annotations

from typing import NamedTuple

# -- the factory board ---------------------------------------------------------------
# "The factory board is divided into 4 sections (loading dock, workshop, warehouse and
# foreman's office), each of these has 2 action spots." Sections clockwise from the watch
# hand at 12 o'clock ("the shell between the Foreman's Office and the Loading Dock at 12
# o'clock"): the loading dock, the workshop, the warehouse, the foreman's office.
SECTIONS = ("loading dock", "workshop", "warehouse", "foreman's office")
DOCK, WORKSHOP, WAREHOUSE, OFFICE = range(4)
# The eight action spots clockwise from 12 o'clock, the risky one of each section first.
# Risky (dark background): the examples catch workers smuggling ("caught at the Loading dock
# smuggling crates"), on OVERTIME and while upgrading ("caught in the Warehouse while
# upgrading"); searching the foreman's files is the fourth. The safe spots are the others.
SPOTS = ("smuggle", "sell gears", "overtime", "produce gears", "upgrade", "scrounge", "search files", "watch")
SMUGGLE, SELL, OVERTIME, PRODUCE, UPGRADE, SCROUNGE, SEARCH, WATCH = range(8)
NUM_SPOTS = len(SPOTS)
RISKY = frozenset({SMUGGLE, OVERTIME, UPGRADE, SEARCH})


def section_of(spot: int) -> int:
    """Return the section of an action spot."""
    return spot // 2


# The watch hand "moves from 12 o'clock, to 3 o'clock to 6 o'clock to 9 o'clock and then back
# again to 12"; at position h it stands just before spot 2h, clockwise.
HAND_NAMES = ("12 o'clock", "3 o'clock", "6 o'clock", "9 o'clock")

# -- crates -----------------------------------------------------------------------------
# "45 crates, 5 of each value" in three colours, three values each ("the 9 stacks"). The
# example's values ("a light brown value 2 crate and a white value 6 crate"; Blue's crates
# 2 + 3 + 5 + 5 + 6 + 6 + 9 = 36) fit light brown 1-3, white 4-6, dark brown 7-9.
CRATE_COLOURS = ("light brown", "white", "dark brown")
LIGHT, WHITE, DARK = range(3)
CRATE_VALUES = ((1, 2, 3), (4, 5, 6), (7, 8, 9))


def crate_colour(value: int) -> int:
    """Return the colour of a crate of ``value`` (1-9)."""
    return (value - 1) // 3


# -- the player board -------------------------------------------------------------------
# "Place the 20 tokens on the upgrade spots of your player board": four rows (one per
# section) of five columns. The money at the top of each column is both the upgrade cost
# ("red has to pay 3 rubles ... the costs on top of the third column") and the bribe ("the
# rightmost empty upgrade spot of all rows is in the fourth column ... Yellow pays 5 rubles";
# "Red pays the bribe of 1 coin"; "the 2 rubles that yellow would have had to pay").
COLUMNS = 5
COLUMN_COST = (1, 2, 3, 5, 7)
#: The bribe of a player who has not removed a token from any row yet (no column is empty).
NO_COLUMN_BRIBE = 0


class Smuggle(NamedTuple):
    """A smuggling icon: gears paid for crates of these colours."""

    gears: int
    crates: tuple[int, ...]


class Yield(NamedTuple):
    """An income icon: gears, rubles, or points (a star: "refer to the third column")."""

    gears: int = 0
    rubles: int = 0
    points: int = 0


class Files(NamedTuple):
    """A search-files icon: cards drawn, cards kept."""

    draw: int
    keep: int


# Each row: the icon in "the box to the left" (no token removed yet), then columns 1-5.
# "In the beginning, trade 1 gear for the most valuable light brown crate"; "Red has removed
# 2 tokens from its loading dock row ... so red trades 2 gears for 1 light brown crate and one
# white crate". White is unlocked in column 1, dark brown in column 3.
DOCK_ROW: tuple[Smuggle, ...] = (
    Smuggle(1, (LIGHT,)),
    Smuggle(1, (WHITE,)),
    Smuggle(2, (LIGHT, WHITE)),
    Smuggle(2, (DARK,)),
    Smuggle(3, (WHITE, DARK)),
    Smuggle(4, (LIGHT, WHITE, DARK)),
)
# "Red carries out overtime and thus takes 4 gears due to the workshop upgrade level"; "The
# fourth column on Red's player board is already empty, thus, Red takes 6 gears according to
# the icon in the third column": column 2 gives 4 gears, column 3 gives 6, column 4 shows points.
# Blue's "Player board: 5 + 10 = 15 points" are the stars of columns 4 and 5.
WORKSHOP_ROW: tuple[Yield, ...] = (
    Yield(gears=2),
    Yield(gears=3),
    Yield(gears=4),
    Yield(gears=6),
    Yield(points=5),
    Yield(points=10),
)
# "Red scrounges 1 gear and 2 rubles due to the warehouse upgrade level": column 1.
WAREHOUSE_ROW: tuple[Yield, ...] = (
    Yield(gears=1, rubles=1),
    Yield(gears=1, rubles=2),
    Yield(gears=2, rubles=2),
    Yield(gears=2, rubles=3),
    Yield(points=5),
    Yield(points=10),
)
# "Take, according to the icon, 3 to 6 document cards from the stack ... You may keep 1 to 3";
# "Red ... is allowed to draw 5 document cards and keep 2 of these, according to their office
# row": column 3.
OFFICE_ROW: tuple[Files, ...] = (
    Files(3, 1),
    Files(4, 1),
    Files(4, 2),
    Files(5, 2),
    Files(6, 2),
    Files(6, 3),
)


def board_points(column: int, row: int) -> int:
    """Return the points printed under a column (1-5) of a row (a star), 0 where none."""
    icon = (DOCK_ROW, WORKSHOP_ROW, WAREHOUSE_ROW, OFFICE_ROW)[row][column]
    return icon.points if isinstance(icon, Yield) else 0


# -- market cards -------------------------------------------------------------------------
class Market(NamedTuple):
    """A market card: its observations (eyes), and the three sections' bonuses."""

    eyes: int  # watch cards set by WATCH ("the market card indicates a 2")
    dock_rubles: int  # SELL GEARS ("5 rubles as indicated on the market card, in this case 3")
    workshop_gears: int  # OVERTIME ("2 gears due to the market card")
    warehouse_rubles: int  # SCROUNGE ("plus 1 gear and 1 ruble due to the market card")
    warehouse_gears: int


# "12 market cards": one revealed at setup and one at the end of each of rounds 1-11 ("At this
# point the stack of market cards is empty"). Observations: four 1s, five 2s, three 3s.
MARKETS: tuple[Market, ...] = (
    Market(1, 2, 2, 1, 1),
    Market(1, 3, 1, 2, 0),
    Market(1, 1, 3, 0, 2),
    Market(1, 2, 2, 1, 2),
    Market(2, 3, 2, 1, 1),
    Market(2, 2, 2, 2, 1),
    Market(2, 4, 1, 1, 0),
    Market(2, 1, 4, 0, 1),
    Market(2, 2, 3, 1, 2),
    Market(3, 3, 3, 2, 2),
    Market(3, 4, 2, 1, 1),
    Market(3, 2, 4, 2, 1),
)

# -- document cards ------------------------------------------------------------------------
# "28 document cards" in four colours (the set-collection rule), seven of each. Their actions:
# move a token ("you can move one of your tokens on the majority tracks"), the bank pays a
# bribe ("a 'Bank pays bribe' document card"), and smuggle once more.
DOC_COLOURS = ("red", "green", "blue", "grey")
MOVE_TOKEN, BANK_PAYS, SMUGGLE_MORE = "move token", "bank pays bribe", "smuggle once more"
DOC_KINDS = (MOVE_TOKEN, BANK_PAYS, SMUGGLE_MORE)
# Per colour: 3 smuggle cards, 2 move cards, 2 bank cards.
_COLOUR_DECK = (SMUGGLE_MORE, SMUGGLE_MORE, SMUGGLE_MORE, MOVE_TOKEN, MOVE_TOKEN, BANK_PAYS, BANK_PAYS)
DOCUMENTS: tuple[tuple[int, str], ...] = tuple(
    (colour, kind) for colour in range(len(DOC_COLOURS)) for kind in _COLOUR_DECK
)
# "You can smuggle once more per card using any of the indicated ratios on the cards": every
# smuggling card shows the same three ratios, one crate of a colour for these gears.
DOC_RATIOS = (1, 2, 3)  # light brown, white, dark brown
# "score depending on how many you have: 0 / 5 / 10 / 20 / 30 / 40 / 50 points"; "4 document
# cards in one color score 20 points" and Blue's "5 + 0" (two of one colour, one of another):
# one card scores 0, two 5, ..., seven 50.
SET_POINTS = (0, 0, 5, 10, 20, 30, 40, 50)
ALL_COLOURS_POINTS = 25  # "If you have all four colors you score 25 points (once)."

# -- majority tracks -----------------------------------------------------------------------
# "6 majority tracks": two for gears, two for coins, two for crates ("the top two", "the
# middle two", "the bottom two"). Eight spots each; "The two rightmost spots of each majority
# track are only used in a 4-player game" makes ten.
TRACKS = ("gears I", "gears II", "coins I", "coins II", "crates I", "crates II")
TRACK_SPOTS = 10
SPOTS_BELOW_FOUR = 8


class Bonus(NamedTuple):
    """A bonus spot: rubles, gears, or smuggling one crate of a colour for gears."""

    kind: str  # "rubles", "gears" or "crate"
    amount: int  # rubles, gears, or the gears the crate costs
    colour: int = -1


def _r(n: int) -> Bonus:
    return Bonus("rubles", n)


def _g(n: int) -> Bonus:
    return Bonus("gears", n)


def _c(colour: int, gears: int) -> Bonus:
    return Bonus("crate", gears, colour)


# "Red ... places it on the fourth majority track ... takes 2 gears from the supply, as this is
# the immediate bonus of this spot" (its second spot); "moves the token in the first spot of the
# lower crates majority track to spot 4 that grants 3 gears".
TRACK_BONUSES: tuple[tuple[Bonus | None, ...], ...] = (
    (None, _r(1), None, _g(2), None, _c(LIGHT, 1), None, _r(2), None, _g(3)),
    (_g(1), None, _r(2), None, _c(WHITE, 2), None, _g(2), None, _r(3), None),
    (None, _g(2), None, _r(2), None, _c(LIGHT, 1), None, _g(3), None, _r(2)),
    (_r(1), _g(2), None, _c(WHITE, 2), None, _r(2), None, _g(2), None, _r(3)),
    (None, _c(LIGHT, 1), None, _r(2), None, _g(2), _c(DARK, 3), None, _r(3), None),
    (_g(1), None, _c(LIGHT, 1), _g(3), None, _r(2), None, _c(WHITE, 2), None, _g(2)),
)
# Points for 1st and 2nd place, per gear / coin / crate, as (numerator, denominator): Blue is
# second on the top track at "1 point per gear", first on the second at "1 point per gear",
# second on the third at "1 point per coin", and tied first on the fifth at "4 points per crate"
# and on the last at "3 points per crate". Second place on the second of a pair: 1 per 2.
PLACE_POINTS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((2, 1), (1, 1)),
    ((1, 1), (1, 2)),
    ((2, 1), (1, 1)),
    ((1, 1), (1, 2)),
    ((4, 1), (2, 1)),
    ((3, 1), (1, 1)),
)
GEARS_CAP = COINS_CAP = 60  # "(maximum 60 points)"

# -- money ---------------------------------------------------------------------------------
DEBT_RUBLES = 5  # "take 1 debt marker and 5 rubles from the supply"
REPAY = 8  # "pay 8 rubles to return 1 debt marker"
REPAY_WATCH = 5  # "You may pay 5 rubles to the bank to return 1 debt marker"
DEBT_POINTS = -10  # "Each debt marker scores -10 points"
START_RUBLES, START_GEARS = 3, 2  # "Take 3 rubles and 2 gears"
ROUNDS = 12  # "You play 12 rounds."

# -- solo ------------------------------------------------------------------------------------
SOLO_TOKEN_RUBLES = 3  # "pay 3 rubles for each token you are short"
SOLO_WATCHES = 3  # "Place the 3 watches in the Foreman's office row"
SOLO_CRATES = 2  # "Take only 2 crates of each value"


class SoloCard(NamedTuple):
    """A solo scoring card: points per gears, per rubles and per token (each as points, per)."""

    gears: tuple[int, int]
    rubles: tuple[int, int]
    tokens: tuple[int, int]


# "Shuffle the 6 solo cards for scoring, draw 1"; "The solo card determines how many points you
# score for each component that you own of gears, rubles and tokens."
SOLO_CARDS: tuple[SoloCard, ...] = (
    SoloCard((1, 1), (1, 2), (3, 1)),
    SoloCard((1, 2), (1, 1), (3, 1)),
    SoloCard((1, 1), (1, 1), (2, 1)),
    SoloCard((2, 3), (1, 2), (4, 1)),
    SoloCard((1, 2), (2, 3), (4, 1)),
    SoloCard((1, 1), (0, 1), (4, 1)),
)
# "You can compare your high score with these benchmarks".
SOLO_TITLES: tuple[tuple[int, str], ...] = (
    (75, "barely keeps the job"),
    (100, "the new foreman"),
    (125, "runs the entire factory"),
    (160, "a true hero of Soviet labour"),
)
