from bots.factory_race.search import SearchPolicy
from bots.sdk import run

run(SearchPolicy)
