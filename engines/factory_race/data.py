"""The factory race's material: every number the rulebook's pictures held, in one table.

The rulebook (``../shared/rules/003_3d9ca5969fc664f5.txt``) lost its pictures: the
tile shapes, the layout cards, the assembly cards, the distribution centre's
prices, the housing costs, the 24 posters and the 16 events. Each value below
is a completion; the comment beside it quotes the sentence it completes, and
``RULES.md`` (*Completions*) lists them again with the reasons.

Pure data: no I/O, no imports outside the standard library.
"""

from __future__ import annotations

from typing import NamedTuple

# -- geometry -------------------------------------------------------------------
# "Производственный цех можно условно разделить тремя горизонтальными линиями": the
# production shop is a grid of 3 rows; "Двух жетонов всегда не хватает" with 7 factory
# tiles per factory (28 = 4 x 7) makes it 3 x 3 cells, two of them empty at the start.
ROWS = COLS = 3
CELLS = ROWS * COLS
# Line ends of a tile, as bits: north, east, south, west.
N, E, S, W = 1, 2, 4, 8
EDGE_NAMES = {N: "N", E: "E", S: "S", W: "W"}
# Tile shapes, drawn in rotation 0: a straight line, a corner, a T and a cross.
STRAIGHT, CORNER, TEE, CROSS = W | E, W | N, W | N | E, N | E | S | W


def rotate(mask: int, quarters: int) -> int:
    """Return the line ends of a tile turned ``quarters`` x 90 degrees clockwise."""
    for _ in range(quarters % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


# -- resources ------------------------------------------------------------------
# "Кубики ресурсов: 20 шт. 21 шт. 15 шт." in three colours, one warehouse each ("Каждый
# склад имеет свой цвет квадратов"). The warehouses sit left of the three rows, top to
# bottom; a row's warehouse feeds the west end of that row.
COLOURS = ("red", "yellow", "blue")
COLOUR_LETTERS = ("R", "Y", "B")
CUBES_IN_BOX = (20, 21, 15)

# -- the factories ----------------------------------------------------------------
# "Планшеты заводов — 4 шт." Their products, from "производили боевую технику и снаряды,
# авиацию и грузовики снабжения".
FACTORY_NAMES = ("tanks", "shells", "aircraft", "trucks")


class Tile(NamedTuple):
    """A square tile: its line ends in rotation 0, whether it holds a machine, and its factory icon."""

    shape: int
    machine: bool
    #: The factory whose icon it carries (its machine serves only that factory), or None.
    factory: int | None
    #: Where it comes from: "factory" (a layout card), "start" (grey icon), "neutral" or "icon".
    kind: str


def _cell(code: str, factory: int) -> Tile | None:
    # "." empty; first letter M machine / L line; second the shape (I straight, C corner, T tee, X cross).
    if code == ".":
        return None
    shape = {"I": STRAIGHT, "C": CORNER, "T": TEE, "X": CROSS}[code[1]]
    return Tile(shape, code[0] == "M", factory, "factory")


# "карточка-памятка с расположением жетонов": each factory's layout card, rows top to
# bottom, every tile in rotation 0 unless a digit after it gives quarter turns clockwise.
LAYOUT_CODES = (
    # tanks: the top row runs through; yellow and blue need a tile each.
    ("MI LI MI", "MI . MI", ". MI LI"),
    # shells: the middle row runs through.
    ("MI MI .", "LI MI MI", "MI . MI"),
    # aircraft: the middle row runs through.
    (". MI MI", "MI LI MI", "MI MI ."),
    # trucks: the bottom row runs through.
    ("MI . LI", "MI MI .", "LI MI MI"),
)


def layout(factory: int) -> list[tuple[Tile, int] | None]:
    """Return the starting production shop of ``factory``: 9 cells of (tile, quarter turns) or None."""
    cells: list[tuple[Tile, int] | None] = []
    for row in LAYOUT_CODES[factory]:
        for code in row.split():
            tile = _cell(code[:2] if code != "." else ".", factory)
            cells.append(None if tile is None else (tile, int(code[2:] or 0)))
    return cells


# "Жетоны распределительного центра — 39 шт.": 5 start tiles with grey icons ("жетонами с
# серыми пиктограммами ... Это стартовая раскладка"), 14 line tiles without machines, and
# 5 machine tiles with each factory's icon ("Для удобства жетоны имеют пиктограмму своего
# завода"), 5 + 14 + 20 = 39.
_START = (
    Tile(STRAIGHT, True, None, "start"),
    Tile(STRAIGHT, False, None, "start"),
    Tile(CORNER, False, None, "start"),
    Tile(TEE, True, None, "start"),
    Tile(CROSS, False, None, "start"),
)
_NEUTRAL = (
    *(Tile(STRAIGHT, False, None, "neutral") for _ in range(5)),
    *(Tile(CORNER, False, None, "neutral") for _ in range(5)),
    *(Tile(TEE, False, None, "neutral") for _ in range(3)),
    Tile(CROSS, False, None, "neutral"),
)
_ICON = tuple(
    tile
    for factory in range(4)
    for tile in (
        Tile(STRAIGHT, True, factory, "icon"),
        Tile(STRAIGHT, True, factory, "icon"),
        Tile(CORNER, True, factory, "icon"),
        Tile(CORNER, True, factory, "icon"),
        Tile(TEE, True, factory, "icon"),
    )
)
#: Every distribution-centre tile by id: 0-4 the start line (left to right), then the stack.
TILES: tuple[Tile, ...] = (*_START, *_NEUTRAL, *_ICON)
START_LINE = (0, 1, 2, 3, 4)
#: "один из пяти открытых жетонов" / "«Стоимость» в чертежах отличается в зависимости от
#: выбранной ячейки": the price of each open cell, left (next to the stack) to right.
#: "один из двух жетонов за пять чертежей": two cells cost 5; the rulebook's example has
#: the rightmost tile cost 2 ("тратит два чертежа ... крайний правый жетон").
TILE_COSTS = (5, 5, 4, 3, 2)
OPEN_TILES = len(TILE_COSTS)

# -- the design bureau, housing, workers ------------------------------------------
# "шайбу-маркер на крайний левый квадрат конструкторского бюро с цифрой 0": the track
# runs 0 to 15; blueprints past 15 are lost.
MAX_BLUEPRINTS = 15
# "Фигурки рабочих 4 цветов — 32 шт. (по 8 каждого цвета)": one on each of three
# housing cells, five beside the board.
WORKERS = 8
START_WORKERS = 5
# "поместить указанное на нём количество рабочих": the housing cells' prices, left to right.
HOUSING_COSTS = (2, 3, 4)
# "сколько рабочих разместили в конструкторском бюро": the bureau shows 3 worker icons.
BUREAU_SPACES = 3
# Worker icons on a production machine ("ровно столько фигурок рабочих, сколько их
# пиктограмм"): one on every production machine.
MACHINE_WORKERS = 1
# "На неё всегда размещается два рабочих": the poster cell.
POSTER_WORKERS = 2


# -- assembly cards -----------------------------------------------------------------
class AssemblyMachine(NamedTuple):
    """A machine of the assembly shop: its worker icons and the colours of its cube squares."""

    workers: int
    squares: tuple[int, ...]


def _machines(*specs: tuple[int, str]) -> tuple[AssemblyMachine, ...]:
    return tuple(AssemblyMachine(workers, tuple("RYB".index(c) for c in colours)) for workers, colours in specs)


# "Карточки сборочных цехов базовой техники — 4 шт." and "Карточки новой техники — 12 шт."
# (one, two and three stars for each factory). A card is a chain of machines: the first
# takes cubes from the production shop's east edge, each later one from the one before.
# Per factory at most 5 red, 5 yellow and 3 blue cubes, so four factories never need more
# than the box's 20, 21 and 15.
ASSEMBLY_CARDS: dict[int, tuple[tuple[AssemblyMachine, ...], ...]] = {
    # stars: 0 is the base technology.
    0: (
        _machines((1, "RR"), (1, "YB"), (2, "RYB")),
        _machines((1, "YY"), (1, "RB"), (2, "RYB")),
        _machines((1, "RB"), (1, "YY"), (2, "RRB")),
        _machines((1, "BB"), (1, "RY"), (2, "RYY")),
    ),
    1: (
        _machines((1, "RR"), (1, "YB"), (2, "RY"), (2, "YB")),
        _machines((1, "YY"), (1, "RB"), (2, "RY"), (2, "RB")),
        _machines((1, "RB"), (1, "YY"), (2, "RR"), (2, "YB")),
        _machines((1, "BB"), (1, "RY"), (2, "RY"), (2, "RY")),
    ),
    2: (
        _machines((1, "RR"), (1, "YB"), (2, "RY"), (2, "RYB")),
        _machines((1, "YY"), (1, "RB"), (2, "RY"), (2, "RYB")),
        _machines((1, "RB"), (1, "YY"), (2, "RR"), (2, "RYB")),
        _machines((1, "BB"), (1, "RY"), (2, "RY"), (2, "RYY")),
    ),
    3: (
        _machines((1, "RR"), (1, "YBY"), (2, "RY"), (2, "RYB")),
        _machines((1, "YY"), (1, "RBR"), (2, "RY"), (2, "YYB")),
        _machines((1, "RB"), (1, "YYR"), (2, "RR"), (2, "YYB")),
        _machines((1, "BB"), (1, "RYR"), (2, "RY"), (2, "YYB")),
    ),
}


def cubes_needed(stars: int, factory: int) -> tuple[int, int, int]:
    """Return the red, yellow and blue cubes an assembly card needs (the warehouses' ticks)."""
    counts = [0, 0, 0]
    for machine in ASSEMBLY_CARDS[stars][factory]:
        for colour in machine.squares:
            counts[colour] += 1
    return counts[0], counts[1], counts[2]


# -- "Вызов": posters and events ------------------------------------------------------
# "Плакаты делятся на несколько типов согласно их эффекту": instant / until used /
# permanent; "на четыре вида по характеру взаимодействия": owner / all but the owner /
# all / the owner and one chosen player.
INSTANT, UNTIL_USED, PERMANENT = "instant", "until_used", "permanent"
OWNER, OTHERS, ALL, OWNER_AND_CHOSEN = "owner", "others", "all", "owner_and_chosen"


class Poster(NamedTuple):
    """A poster card: when it acts, on whom, and what it does (``effect`` with ``amount``)."""

    title: str
    timing: str
    target: str
    #: "blueprints" (gain or lose), "worker" (the next housing worker comes home free),
    #: "discount" (tiles cost less), "bureau" (the bureau pays one more), "immunity".
    effect: str
    amount: int = 0


# "Карточки плакатов — 24 шт.": twelve posters, two copies each.
_POSTER_KINDS = (
    Poster("Чертежи — фронту! (Blueprints for the front!)", INSTANT, OWNER, "blueprints", 2),
    Poster("Новые кадры (New hands)", INSTANT, OWNER, "worker", 1),
    Poster("Болтун — находка для шпиона (A chatterbox is a spy's find)", INSTANT, OTHERS, "blueprints", -1),
    Poster("Все силы — на победу! (All strength for victory!)", INSTANT, ALL, "blueprints", 1),
    Poster("Социалистическое соревнование (Socialist emulation)", INSTANT, OWNER_AND_CHOSEN, "blueprints", 2),
    Poster("Рационализаторы (Rationalisers)", UNTIL_USED, OWNER, "blueprints", 3),
    Poster("Бдительность (Vigilance)", UNTIL_USED, OWNER, "immunity", 0),
    Poster("Не болтай! (Don't chatter!)", UNTIL_USED, OTHERS, "blueprints", -2),
    Poster("Шефская помощь (Patronage)", UNTIL_USED, OWNER_AND_CHOSEN, "worker", 1),
    Poster("Экономия (Thrift)", PERMANENT, OWNER, "discount", 1),
    Poster("Знания — сила (Knowledge is strength)", PERMANENT, OWNER, "bureau", 1),
    Poster("Учиться, учиться и учиться (Learn, learn and learn)", PERMANENT, ALL, "bureau", 1),
)
POSTERS: tuple[Poster, ...] = tuple(kind for kind in _POSTER_KINDS for _ in range(2))
# "на каждую ячейку справа от этой стопки ... по одной карточке": three open posters
# ("забирает любой из открытых плакатов"; "один из трёх открытых плакатов").
OPEN_POSTERS = 3


class Event(NamedTuple):
    """An event card: its effect on the players for the round it is drawn."""

    title: str
    #: "heads_down" (no poster is used this round), "blueprints" (gain or lose), "closed"
    #: (a board space is shut this round), "cost" (tiles cost more or less this round),
    #: "refresh_tiles", "refresh_posters", "worker", "bureau", "rest", "front".
    effect: str
    #: Whom it touches: "all", "most" (most blueprints), "fewest", "first" (the first player).
    target: str = "all"
    amount: int = 0
    #: For "closed": "bureau" or "housing".
    space: str = ""


# "Карточки событий — 16 шт." The rulebook names one: «Не поднимая глаз», which
# outranks the posters.
EVENTS: tuple[Event, ...] = (
    Event("Не поднимая глаз (Heads down)", "heads_down"),
    Event("Налёт (Air raid)", "blueprints", "all", -2),
    Event("Бюро на совещании (The bureau is in a meeting)", "closed", space="bureau"),
    Event("Затемнение (Blackout in the barracks)", "closed", space="housing"),
    Event("Перебои в снабжении (Supply failure)", "cost", amount=1),
    Event("Ленд-лиз (Lend-lease)", "cost", amount=-1),
    Event("Премия (A bonus)", "blueprints", "all", 1),
    Event("Стахановцы (Stakhanovites)", "blueprints", "all", 2),
    Event("Проверка (Inspection)", "blueprints", "most", -2),
    Event("Взаимовыручка (Mutual aid)", "blueprints", "fewest", 2),
    Event("Новые поставки (New deliveries)", "refresh_tiles"),
    Event("Мобилизация (Mobilisation)", "worker", amount=1),
    Event("Субботник (Subbotnik)", "bureau", amount=1),
    Event("Агитбригада (Agitation brigade)", "refresh_posters"),
    Event("Выходной (A day off)", "rest", amount=1),
    Event("Всё для фронта! (All for the front!)", "blueprints", "first", 3),
)
#: Events that take something from a player: a Vigilance poster (immunity) may shield its owner.
HARMFUL_EVENTS = frozenset(
    index
    for index, event in enumerate(EVENTS)
    if (event.effect == "blueprints" and event.amount < 0)
    or event.effect in ("closed", "rest")
    or (event.effect == "cost" and event.amount > 0)
)
