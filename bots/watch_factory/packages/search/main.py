from bots.sdk import run
from bots.watch_factory.search import SearchPolicy

run(SearchPolicy)
