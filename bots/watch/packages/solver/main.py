from bots.sdk import run
from bots.watch.solver import SolverPolicy

run(SolverPolicy)
