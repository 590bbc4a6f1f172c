from bots.sdk import run
from bots.watch_race.random_bot import RandomPolicy

run(RandomPolicy)
