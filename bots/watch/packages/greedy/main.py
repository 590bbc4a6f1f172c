from bots.sdk import run
from bots.watch.greedy import GreedyPolicy

run(GreedyPolicy)
