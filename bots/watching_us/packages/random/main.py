from bots.sdk import run
from bots.watching_us.random_bot import RandomPolicy

run(RandomPolicy)
