"""Write every message the referee sends, minus the observation and legal actions, to stderr.

``MESSAGE <json>``: what a seat is told besides ``observation(seat)`` and its
legal actions, so the test can check it is told nothing more. Plays the first
legal action.
"""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    shown = {key: value for key, value in message.items() if key not in ("observation", "legal_actions")}
    for key in ("observation", "legal_actions"):
        if key in message:
            shown[key] = "..."
    sys.stderr.write("MESSAGE " + json.dumps(shown, sort_keys=True) + "\n")
    sys.stderr.flush()
    if message.get("type") == "request":
        sys.stdout.write(json.dumps({"action": message["legal_actions"][0]}) + "\n")
        sys.stdout.flush()
    elif message.get("type") == "series_over":
        break
