"""The bubblewrap sandbox around a bot: whether it works here, and the argv that wraps a command.

Under bubblewrap a bot gets no network, its own pid namespace (it dies with the arena), a
read-only view of the whole system, a private ``/tmp``, its folder read-only and one writable
working directory. See ``docs/sandbox.md``.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from enum import Enum
from pathlib import Path

from arena.process.errors import SandboxUnavailable

__all__ = ["SANDBOX_MODES", "bwrap_argv", "bwrap_works", "sandbox_mode", "use_bwrap"]

SANDBOX_MODES = ("auto", "bwrap", "none")
"""The values of :class:`arena.referee.spec.Sandbox`, which ``arena.process`` does not import
(the referee imports this package): a setting is that enum or one of these strings."""

log = logging.getLogger(__name__)

_ISOLATION = (
    "--unshare-net",
    "--unshare-pid",
    "--unshare-ipc",
    "--die-with-parent",
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
)


@functools.cache
def _bwrap_path() -> str | None:
    return shutil.which("bwrap")


@functools.cache
def bwrap_works() -> bool:
    """Whether ``bwrap`` is on PATH and can run ``true`` with our isolation flags (cached)."""
    path = _bwrap_path()
    if path is None:
        log.info("bwrap not found on PATH: bots run without a sandbox")
        return False
    try:
        done = subprocess.run(
            [path, *_ISOLATION, "--tmpfs", "/tmp", "true"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.warning("bwrap does not work here (%s): bots run without a sandbox", exc)
        return False
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        log.warning(
            "bwrap does not work here (%s): bots run without a sandbox",
            reason[-1] if reason else f"exit status {done.returncode}",
        )
        return False
    return True


@functools.cache
def _supports_size() -> bool:
    path = _bwrap_path()
    if path is None:
        return False
    try:
        done = subprocess.run([path, "--help"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return b"--size" in done.stdout + done.stderr


def sandbox_mode(sandbox: Enum | str) -> str:
    """``"auto"``, ``"bwrap"`` or ``"none"`` for a ``Sandbox`` member or one of those strings."""
    mode = sandbox.value if isinstance(sandbox, Enum) else sandbox
    if mode not in SANDBOX_MODES:
        raise ValueError(
            f"unknown sandbox setting {sandbox!r}; use one of {', '.join(SANDBOX_MODES)}"
        )
    return mode


def use_bwrap(sandbox: Enum | str) -> bool:
    """Whether a bot started with ``sandbox`` (an ``arena.referee.spec.Sandbox``) runs under
    bubblewrap.

    ``AUTO``: when :func:`bwrap_works`; ``NONE``: never; ``BWRAP``: always, and raises
    :class:`SandboxUnavailable` when bubblewrap does not work here."""
    mode = sandbox_mode(sandbox)
    if mode == "none":
        return False
    if mode == "auto":
        return bwrap_works()
    if not bwrap_works():
        where = _bwrap_path()
        problem = "is not installed" if where is None else f"at {where!r} does not work here"
        raise SandboxUnavailable(
            f"sandbox 'bwrap' was asked for but bubblewrap {problem}; install bubblewrap "
            "(and allow unprivileged user namespaces) or use sandbox 'auto' or 'none'"
        )
    return True


def _under(path: Path, parent: Path) -> bool:
    return path == parent or parent in path.parents


def bwrap_argv(
    argv: Sequence[str],
    *,
    bot_folder: Path,
    workdir: Path,
    visible: Iterable[Path] = (),
    tmp_size_mb: int | None = None,
) -> list[str]:
    """``argv`` wrapped in bubblewrap.

    ``bot_folder`` is mounted read-only and ``workdir`` read-write, both at their own paths;
    ``workdir`` is the working directory. ``/tmp`` is a fresh tmpfs (at most ``tmp_size_mb``
    when bwrap supports ``--size``); paths in ``visible`` (the interpreter, the arena package)
    that lie under ``/tmp`` are mounted again read-only so the sandbox still sees them.
    """
    path = _bwrap_path()
    if path is None:
        raise SandboxUnavailable("bubblewrap is not installed; install it or use sandbox 'none'")
    tmp = Path("/tmp")
    args = [path, *_ISOLATION]
    if tmp_size_mb is not None and _supports_size():
        args += ["--size", str(tmp_size_mb << 20)]
    args += ["--tmpfs", "/tmp"]
    mounted: set[Path] = set()
    for extra in visible:
        real = Path(os.path.realpath(extra))
        if _under(real, tmp) and real not in mounted and real.exists():
            args += ["--ro-bind", str(real), str(real)]
            mounted.add(real)
    folder, work = str(bot_folder), str(workdir)
    args += ["--ro-bind", folder, folder, "--bind", work, work, "--chdir", work, "--", *argv]
    return args
