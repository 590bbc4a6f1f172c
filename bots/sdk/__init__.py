"""The Python bot SDK: turn a policy into a bot process that speaks the Arena protocol.

A bot's ``main.py`` is two lines::

    from bots.sdk import run
    run(MyPolicy)

``run`` accepts

* a policy class (see :mod:`bots.policy`): instantiated once per series as
  ``MyPolicy(seed=start["seed"])``; its ``choose(observation, legal_actions)``
  answers every request, and the optional hooks ``on_start(msg)``,
  ``on_game_start(msg)``, ``on_request(msg)`` (just before ``choose``, with
  the clock), ``on_game_over(msg)`` and ``on_series_over(msg)`` are called
  when the class defines them;
* an object that already has a ``choose`` method (hooks as above);
* a plain function ``f(observation, legal_actions) -> action``.

An answer is an action id from ``legal_actions`` or a move in the game's
notation (a str such as ``"b3-c3"``). The SDK reads one JSON line at a time,
writes one line per request and flushes it, ignores message types it does not
know, and returns at ``series_over`` or end of input. An exception in the
policy prints its traceback to stderr and exits with status 1; the referee
records that as a crash. While the policy runs, ``print`` goes to stderr (the
bot's log), so a stray print cannot corrupt the protocol on stdout.

Only the standard library and ``engines`` are needed: this runs on the
sandbox's system Python. docs/protocol.md specifies the protocol itself.
"""

from __future__ import annotations

import io
import sys

from bots.sdk.protocol import (
    GAME_OVER,
    GAME_START,
    PROTOCOL_VERSION,
    REQUEST,
    SERIES_OVER,
    START,
    ProtocolError,
    encode_action,
    loads,
)

# Kept out of a bot's start-up (typing and traceback cost about 5 ms to import): types for
# the checker only, and traceback imported when a policy actually fails.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO, Any

__all__ = ["PROTOCOL_VERSION", "ProtocolError", "run"]

#: Exit status when the policy raised (the referee forfeits the bot as a crash).
POLICY_FAILED = 1
#: Exit status when the referee's input could not be understood.
BAD_INPUT = 2

HOOKS = {
    START: "on_start",
    GAME_START: "on_game_start",
    GAME_OVER: "on_game_over",
    SERIES_OVER: "on_series_over",
}


class _Bot:
    """The policy behind a running bot: its ``choose`` and whichever hooks it defines."""

    def __init__(self, policy: Any) -> None:
        self.factory = policy if isinstance(policy, type) else None
        self.instance = None if self.factory else policy
        self.choose: Callable[[Any, Any], Any] | None = None
        self.on_request: Callable[[dict[str, Any]], Any] | None = None
        self.hooks: dict[str, Callable[[dict[str, Any]], Any]] = {}
        if self.instance is not None:
            self._bind(self.instance)

    def start(self, seed: int | None) -> None:
        if self.factory is not None:
            self.instance = self.factory(seed=seed)
            self._bind(self.instance)

    def _bind(self, instance: Any) -> None:
        choose = getattr(instance, "choose", None)
        if choose is None:
            if not callable(instance):
                raise TypeError(f"run() needs a policy class, an object with choose(), or a function; got {instance!r}")
            self.choose = instance
            return
        self.choose = choose
        self.on_request = getattr(instance, "on_request", None)
        self.hooks = {kind: hook for kind, name in HOOKS.items() if (hook := getattr(instance, name, None))}


def run(
    policy: Any,
    *,
    stdin: IO[Any] | None = None,
    stdout: IO[Any] | None = None,
    stderr: IO[str] | None = None,
) -> None:
    """Serve one series on stdin/stdout with ``policy``; return at ``series_over`` or end of input.

    ``stdin`` and ``stdout`` may be text or binary streams (tests pass
    ``io.StringIO``); by default the process's own binary streams are used.
    Exits with status 1 (after printing the traceback to ``stderr``) when the
    policy raises, and with status 2 when a line from the referee is not JSON.
    """
    log = sys.stderr if stderr is None else stderr
    real_stdout = sys.stdout
    if stdout is None:
        out = sys.stdout.buffer
        # From here print() writes to the log: stdout belongs to the protocol.
        sys.stdout = log
    else:
        out = stdout
    source = sys.stdin.buffer if stdin is None else stdin
    try:
        _serve(_Bot(policy), source, out, log)
    finally:
        if stdout is None:
            sys.stdout = real_stdout


def _serve(bot: _Bot, source: IO[Any], out: IO[Any], log: IO[str]) -> None:
    write_text = isinstance(out, io.TextIOBase)
    write = out.write
    flush = out.flush
    readline = source.readline
    decode = loads
    started = bot.instance is not None
    while True:
        line = readline()
        if not line:
            return  # end of input: the referee is gone or the series was stopped
        try:
            message = decode(line)
            kind = message["type"]
        except (ValueError, TypeError, KeyError) as exc:
            if not line.strip():
                continue
            _fail(log, BAD_INPUT, f"bot SDK: cannot read the referee's line {_preview(line)}: {exc}")
        try:
            if kind == REQUEST:
                if not started:  # no start message: play anyway, unseeded
                    bot.start(None)
                    started = True
                if bot.on_request is not None:
                    bot.on_request(message)
                reply = encode_action(bot.choose(message["observation"], message["legal_actions"]))  # type: ignore[misc]
                write(reply.decode() if write_text else reply)
                flush()
                continue
            if kind == START:
                if message.get("protocol", PROTOCOL_VERSION) != PROTOCOL_VERSION:
                    print(
                        f"bot SDK: the referee speaks protocol {message.get('protocol')!r}, "
                        f"this SDK protocol {PROTOCOL_VERSION}; carrying on",
                        file=log,
                    )
                if not started:
                    bot.start(message.get("seed"))
                    started = True
            hook = bot.hooks.get(kind)
            if hook is not None:
                hook(message)
            if kind == SERIES_OVER:
                return
        except BrokenPipeError:
            return  # the referee closed our stdout: nothing left to answer
        except ProtocolError as exc:
            _fail(log, POLICY_FAILED, f"bot SDK: {exc}")
        except Exception:
            import traceback

            traceback.print_exc(file=log)
            _fail(log, POLICY_FAILED, f"bot SDK: the policy raised while handling a {kind!r} message; exiting")


def _fail(log: IO[str], status: int, message: str) -> None:
    print(message, file=log)
    log.flush()
    raise SystemExit(status)


def _preview(line: str | bytes, limit: int = 200) -> str:
    text = line if isinstance(line, str) else line.decode("utf-8", "replace")
    text = text.rstrip("\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")
