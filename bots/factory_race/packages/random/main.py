from bots.factory_race.random_bot import RandomPolicy
from bots.sdk import run

run(RandomPolicy)
