"""Resource limits of a bot process, and the tiny launcher that applies them before the bot runs.

The launcher (``python -I -S -c LAUNCHER ...``) sets the limits, optionally makes itself a child
subreaper that dies with the arena, then ``exec``s the bot, so the bot keeps the launcher's pid.
If anything fails before the ``exec`` it writes one line to a status pipe, which the arena
turns into :class:`arena.process.BotStartError`. Setting limits in ``preexec_fn`` instead is
unsafe in a threaded referee (the forked child may deadlock before ``exec``).

A bot that is ``python SCRIPT ARGS...`` (the arena's interpreter, a script and no interpreter
options: every Python bot on the SDK) is not ``exec``ed: the launcher, started then as a plain
``python -c`` with the bot's environment, runs the script itself once the limits are set, as
``python SCRIPT`` would (``__main__``, ``sys.argv``, ``sys.path[0]``). That saves starting a
second interpreter, about 10 ms of CPU at each bot start, six times a match. The one visible
difference: a traceback of the bot's starts with one line of the launcher.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Protocol

__all__ = ["LAUNCHER", "ProcessLimits", "launcher_argv", "rlimits"]


class ProcessLimits(Protocol):
    """The resource limits of a bot, as :class:`arena.referee.spec.Limits` holds them.

    ``arena.process`` imports nothing else of ``arena`` (the referee imports it), so it takes
    any object with these fields."""

    @property
    def memory_mb(self) -> int: ...
    @property
    def cpu_seconds(self) -> int: ...
    @property
    def file_size_mb(self) -> int: ...
    @property
    def open_files(self) -> int: ...
    @property
    def line_bytes(self) -> int: ...
    @property
    def stderr_bytes(self) -> int: ...


LAUNCHER = r"""
import os, resource, sys
fd = int(sys.argv[1])
try:
    ppid = int(sys.argv[2])
    if ppid:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans stay in the bot's tree
        libc.prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL: die with the arena
        if os.getppid() != ppid:
            os._exit(1)
    for item in sys.argv[3].split(","):
        name, soft, hard = item.split(":")
        which = getattr(resource, name)
        soft, hard = int(soft), int(hard)
        ceiling = resource.getrlimit(which)[1]
        if ceiling != resource.RLIM_INFINITY and hard > ceiling:
            hard = ceiling
        resource.setrlimit(which, (min(soft, hard), hard))
    argv = sys.argv[7:]
    if sys.argv[4] == "exec":
        os.set_inheritable(fd, False)
        os.execv(argv[0], argv)
    import types
except BaseException as exc:
    message = f"{type(exc).__name__}: {exc}".replace("\n", " ")
    os.write(fd, message.encode("utf-8", "replace")[:1000])
    os._exit(127)
# "run": argv is `python SCRIPT ARGS...`; this interpreter runs the script as that would. The
# bot's folder comes onto the path only now, after the limits: nothing of the bot's could be
# imported before them (by this launcher or by site's start-up).
os.close(fd)
folder = sys.argv[5]
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [folder, os.environ.get("PYTHONPATH")]))
argv = sys.argv = argv[1:]
sys.path[0:1] = [os.path.dirname(os.path.realpath(argv[0])), folder]
main = sys.modules["__main__"] = types.ModuleType("__main__")
main.__file__ = argv[0]
main.__builtins__ = __builtins__
with open(argv[0], "rb") as source:
    code = compile(source.read(), argv[0], "exec", dont_inherit=True)
exec(code, vars(main))
"""
"""Source of the launcher; ``argv``: status fd, arena pid (0: no subreaper), limits, ``exec``
or ``run``, the bot's folder (put on the path in ``run``), ``--``, the bot's argv."""


def rlimits(limits: ProcessLimits) -> list[tuple[str, int, int]]:
    """``(RLIMIT name, soft, hard)`` for a bot under ``limits``.

    Memory is limited with ``RLIMIT_DATA`` (heap and private writable mappings), not
    ``RLIMIT_AS``: V8 reserves far more address space than it uses, and Node.js crashes at
    start under an address-space limit of 512 MB and cannot create WebAssembly memory under
    1024 MB. CPU time gets a soft limit (SIGXCPU) one second before the hard one (SIGKILL).
    """
    memory = limits.memory_mb << 20
    return [
        ("RLIMIT_DATA", memory, memory),
        ("RLIMIT_CPU", limits.cpu_seconds, limits.cpu_seconds + 1),
        ("RLIMIT_FSIZE", limits.file_size_mb << 20, limits.file_size_mb << 20),
        ("RLIMIT_NOFILE", limits.open_files, limits.open_files),
        ("RLIMIT_CORE", 0, 0),
    ]


def launcher_argv(
    argv: Sequence[str],
    *,
    limits: ProcessLimits,
    status_fd: int,
    subreaper_of: int = 0,
    bot_folder: str = "",
) -> list[str]:
    """``argv`` prefixed with the launcher that applies ``limits``.

    ``subreaper_of``: the arena's pid, to make the bot a child subreaper that is killed when
    the arena dies (used without bubblewrap, whose pid namespace does both); 0 for neither.
    ``bot_folder``: put on ``sys.path`` and ``PYTHONPATH`` by a launcher that runs the bot
    itself (see :func:`runs_in_launcher`), once the limits are set; such a launcher must be
    started with a ``PYTHONPATH`` without it."""
    spec = ",".join(f"{name}:{soft}:{hard}" for name, soft, hard in rlimits(limits))
    args = [LAUNCHER, str(status_fd), str(subreaper_of), spec]
    if runs_in_launcher(argv):
        return [sys.executable, "-c", *args, "run", bot_folder, "--", *argv]
    return [sys.executable, "-I", "-S", "-c", *args, "exec", "", "--", *argv]


def runs_in_launcher(argv: Sequence[str]) -> bool:
    """Whether the bot is ``python SCRIPT ARGS...`` with the arena's interpreter and no options:
    the launcher then runs the script itself, after the limits, instead of starting a second
    interpreter (about 10 ms of CPU less at each start)."""
    return (
        len(argv) >= 2
        and argv[0] == sys.executable
        and os.path.isabs(argv[1])
        and os.path.isfile(argv[1])
    )
