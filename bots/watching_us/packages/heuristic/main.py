from bots.sdk import run
from bots.watching_us.heuristic import HeuristicPolicy

run(HeuristicPolicy)
