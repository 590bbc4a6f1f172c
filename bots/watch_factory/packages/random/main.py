from bots.sdk import run
from bots.watch_factory.random_bot import RandomPolicy

run(RandomPolicy)
