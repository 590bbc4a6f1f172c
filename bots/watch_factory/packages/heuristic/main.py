from bots.sdk import run
from bots.watch_factory.heuristic import HeuristicPolicy

run(HeuristicPolicy)
