from bots.sdk import run
from bots.watch.random_bot import RandomPolicy

run(RandomPolicy)
