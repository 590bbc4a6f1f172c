"""Reference bots, the policy interface they are written against, and (later) the bot SDK."""
