from bots.factory_race.heuristic import HeuristicPolicy
from bots.sdk import run

run(HeuristicPolicy)
