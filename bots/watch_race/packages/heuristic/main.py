from bots.sdk import run
from bots.watch_race.heuristic import HeuristicPolicy

run(HeuristicPolicy)
