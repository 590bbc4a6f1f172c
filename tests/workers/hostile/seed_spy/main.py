"""Foresee the deal: replay the referee's chance from every number the referee sends.

The engines are public (``/arena/engines``) and the referee draws chance with
Python's ``random``. If any number a bot is sent (its ``seed``, the game index,
the clock...) were, or led to, the seed of that generator, the bot could draw
the deal itself: the other hands, the hidden timer, the future of a solo deal.

At its first request of each game, for every number it has been sent and
every rule that could make a game's seed from a number and the game index
(the number itself, ``n * 1000 + game``, ``n // 1000 * 1000 + game``...),
this bot draws the game's opening chance outcomes exactly as a referee
seeded so would, and reports them:
``PREDICT <game> <number>:<rule> <json list of action ids>``. The test
compares them with the chance outcomes the referee really drew: a guess
(number and rule) that foresees every game's opening is a broken secret.
"""

import json
import random
import sys

import engines

numbers = set()
start = {}
predicted = set()


def collect(value):
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        numbers.add(value)
    elif isinstance(value, float) and value.is_integer():
        numbers.add(int(value))
    elif isinstance(value, dict):
        for item in value.values():
            collect(item)
    elif isinstance(value, list):
        for item in value:
            collect(item)


RULES = {
    "n": lambda n, g: n,
    "n+g": lambda n, g: n + g,
    "n*1000+g": lambda n, g: n * 1000 + g,
    "n//1000*1000+g": lambda n, g: n // 1000 * 1000 + g,
    "(n-player)//1000*1000+g": lambda n, g: (n - start.get("player", 0)) // 1000 * 1000 + g,
    "n//1000+g": lambda n, g: n // 1000 + g,
}


def guesses(game_index):
    return {f"{n}:{rule}": make(n, game_index) for n in sorted(numbers) for rule, make in RULES.items()}


def opening(candidate):
    game = engines.get(start["game"], start.get("config") or {})
    state = game.new_initial_state(seed=candidate, num_players=start["num_players"])
    rng = random.Random(candidate)
    drawn = []
    while state.current_player() == engines.CHANCE:
        outcomes = state.chance_outcomes()
        action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        drawn.append(action)
        state.apply_action(action)
    return drawn


for line in sys.stdin:
    message = json.loads(line)
    collect(message)
    kind = message.get("type")
    if kind == "start":
        start = message
    elif kind == "request":
        index = message["game_index"]
        if index not in predicted:
            predicted.add(index)
            for guess, seed in guesses(index).items():
                if seed >= 0:
                    sys.stderr.write(f"PREDICT {index} {guess} {json.dumps(opening(seed))}\n")
            sys.stderr.flush()
        sys.stdout.write(json.dumps({"action": message["legal_actions"][0]}) + "\n")
        sys.stdout.flush()
    elif kind == "series_over":
        break
