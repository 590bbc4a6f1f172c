"""Never reads stdin: the referee's messages pile up unread."""

import time

while True:
    time.sleep(3600)
