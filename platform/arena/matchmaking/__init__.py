"""Matchmaking: who plays whom next (pairing.py, pure) and turning that into queued series (scheduling.py)."""
