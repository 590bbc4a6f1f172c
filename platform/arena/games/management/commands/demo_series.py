"""``manage.py demo_series``: play a local Watch series between two reference bots and print it."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

import engines
from bots.policy import UnknownPolicyError, load_policy, reference_policies
from engines.watch import format_points, name_players
from workers.local import play_series


def replay_board(actions: list[str]) -> str:
    """Return the text board after replaying a game's notation."""
    state = engines.get("watch").new_initial_state()
    for notation in actions:
        state.apply_notation(notation)
    return state.render()


class Command(BaseCommand):
    help = "Play a local Watch series between two reference bots and print every game and the series score."

    def add_arguments(self, parser: CommandParser) -> None:
        bots = ", ".join(sorted(reference_policies("watch")))
        parser.add_argument(
            "--bots", nargs=2, default=["solver", "greedy"], metavar=("FIRST", "SECOND"), help=f"two of: {bots}"
        )
        parser.add_argument("--games", type=int, default=4, help="games in the series (even; default 4)")
        parser.add_argument("--seed", type=int, default=2001, help="series seed (default 2001)")
        parser.add_argument("--json", action="store_true", help="print the result document as JSON instead")

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["games"]
        if games <= 0 or games % 2:
            raise CommandError(f"--games must be a positive even number (each bot plays White in half), not {games}")
        seed = options["seed"]
        try:
            policies = [load_policy("watch", name, seed=seed * 2 + i) for i, name in enumerate(options["bots"])]
        except UnknownPolicyError as exc:
            raise CommandError(str(exc)) from None
        names = [
            f"{name} ({i + 1})" if options["bots"][0] == options["bots"][1] else name
            for i, name in enumerate(options["bots"])
        ]
        result = play_series(policies, games=games, seed=seed)
        if options["json"]:
            self.stdout.write(json.dumps(result, indent=2))
            return
        self.print_series(result, names)

    def print_series(self, result: dict[str, Any], names: list[str]) -> None:
        write = self.stdout.write
        write(f"Watch series: {names[0]} v {names[1]}, {len(result['games'])} games, seed {result['seed']}\n")
        for game in result["games"]:
            white, black = names[game["white"]], names[1 - game["white"]]
            actions = game["actions"]
            write(f"Game {game['index'] + 1}: {white} has White (player A), {black} has Black")
            write("  dressing: " + " ".join(actions[:25]))
            if len(actions) > 25:
                write("  pawns:    " + " ".join(actions[25:27]))
            write("  moves:    " + (" ".join(actions[27:]) or "none"))
            if game["forfeit"]:
                forfeit = game["forfeit"]
                write(f"  forfeit:  {names[forfeit['player']]}: {forfeit['reason']}: {forfeit['detail']}")
            write(
                f"  result:   {names[game['winner']]} wins ({game['reason']}); moves as White {white} "
                f"{game['moves'][game['white']]}, as Black {black} {game['moves'][1 - game['white']]}"
            )
            write(replay_board(actions) + "\n")
        score = result["score"]
        write("Series score (Watch scheme):")
        for player in (0, 1):
            write(
                f"  {names[player]:>12}: White total {score['white_totals'][player]:>2}, "
                f"Black total {score['black_totals'][player]:>2}, game wins {score['game_wins'][player]}"
            )
        for step in score["steps"]:
            write(f"  - {name_players(step, names)}")
        points = score["points"]
        write(f"  {names[0]} {format_points(points[0])} – {format_points(points[1])} {names[1]}")
