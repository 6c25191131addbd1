"""One bot program as an isolated, untrusted child process: start, send, read with a deadline, stop.

    with BotProcess.start(load_manifest("bots/greedy"), limits=Limits(), sandbox=Sandbox.AUTO,
                          log_path=Path("logs/greedy.log")) as bot:
        bot.send('{"type": "hello"}')
        reply = bot.readline(timeout=10.0)

Nothing the bot does can block the caller beyond the deadline it passes, make it buffer more
than ``Limits.line_bytes``, or leave a process behind after :meth:`BotProcess.stop`.
"""

from __future__ import annotations

import compileall
import contextlib
import errno
import functools
import logging
import math
import os
import py_compile
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from enum import Enum
from pathlib import Path
from types import TracebackType

from arena.process.errors import (
    BotExited,
    BotStartError,
    BotTimeout,
    LineTooLong,
    MalformedOutput,
    quote,
)
from arena.process.limits import ProcessLimits, launcher_argv, runs_in_launcher
from arena.process.manifest import BotManifest, resolve_command
from arena.process.sandbox import bwrap_argv, use_bwrap

__all__ = ["DEFAULT_SEND_TIMEOUT", "START_TIMEOUT", "BotProcess"]

log = logging.getLogger(__name__)

DEFAULT_SEND_TIMEOUT = 10.0
"""Seconds :meth:`BotProcess.send` waits for a bot that does not read its stdin."""
START_TIMEOUT = 30.0
"""Seconds :meth:`BotProcess.start` waits for the bot's program to be executed."""
STDERR_TAIL_BYTES = 16 * 1024
"""How much of the end of a bot's stderr is kept in memory for :meth:`BotProcess.stderr_tail`."""
TRUNCATED_MARKER = b"\n[stderr truncated]\n"

_CHUNK = 64 * 1024
_ARENA_ROOT = str(Path(__file__).resolve().parents[2])
"""The folder holding the ``arena`` package, put on a bot's ``PYTHONPATH``."""
_monotonic = time.monotonic


class BotProcess:
    """A running bot. Create with :meth:`start`; always :meth:`stop` it (or use ``with``).

    Not thread-safe: one thread talks to a bot (``stop`` from ``finally`` of that thread).
    ``start`` and ``stop`` a bot in the same long-lived thread: the bot is killed when the
    thread that started it ends (bubblewrap's ``--die-with-parent``, or ``PR_SET_PDEATHSIG``)."""

    def __init__(
        self,
        manifest: BotManifest,
        proc: subprocess.Popen[bytes],
        *,
        limits: ProcessLimits,
        sandboxed: bool,
        workdir: Path,
        log_file,
    ) -> None:
        self.manifest = manifest
        """The bot's manifest."""
        self.limits = limits
        self.sandboxed = sandboxed
        """Whether it runs under bubblewrap."""
        self.workdir = workdir
        """Its private working directory (also ``HOME``), removed by :meth:`stop`."""
        self._proc = proc
        self._label = f"{manifest.name}[{proc.pid}]"
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self._in_fd = proc.stdin.fileno()
        self._out_fd = proc.stdout.fileno()
        os.set_blocking(self._in_fd, False)
        os.set_blocking(self._out_fd, False)
        self._line_bytes = limits.line_bytes
        self._buf = bytearray()
        self._scan = 0
        """Bytes at the start of ``_buf`` known to hold no newline."""
        self._skipping = False
        """Discarding the rest of a line that was too long."""
        self._closed = False
        self._gone: tuple[str, int | None] | None = None
        """Once the bot is known to be gone: the message and status for BotExited."""
        self._poller = select.poll()
        self._poller.register(self._out_fd, select.POLLIN)
        self._pidfd = -1
        with contextlib.suppress(AttributeError, OSError):
            self._pidfd = os.pidfd_open(proc.pid)
            self._poller.register(self._pidfd, select.POLLIN)
        self._out_poller: select.poll | None = None
        self._tail = bytearray()
        self._tail_lock = threading.Lock()
        self._tail_final = False
        self._log_file = log_file
        self._stderr_thread = threading.Thread(
            target=self._drain_stderr,
            args=(proc.stderr.fileno(),),
            name=f"stderr-{self._label}",
            daemon=True,
        )
        self._stderr_thread.start()

    # -- starting

    @classmethod
    def start(
        cls,
        manifest: BotManifest,
        *,
        limits: ProcessLimits,
        sandbox: Enum | str,
        log_path: Path | None = None,
    ) -> BotProcess:
        """Start the bot's program; raise :class:`BotStartError` if it cannot be started.

        ``limits``: an ``arena.referee.spec.Limits``; ``sandbox``: an
        ``arena.referee.spec.Sandbox`` (or its value, ``"auto"``, ``"bwrap"``, ``"none"``).

        ``log_path``: file that receives the bot's stderr (appended, at most
        ``limits.stderr_bytes``); its folder is created when missing."""
        sandboxed = use_bwrap(sandbox)
        argv = resolve_command(manifest)
        _compile_arena()
        try:
            workdir = Path(tempfile.mkdtemp(prefix="arena-bot-")).resolve()
        except OSError as exc:
            raise BotStartError(
                f"bot {manifest.name!r}: cannot create its working directory: {exc}"
            ) from exc
        status_r = status_w = -1
        log_file = None
        proc: subprocess.Popen[bytes] | None = None
        try:
            tmpdir = workdir / "tmp"
            tmpdir.mkdir()
            if log_path is not None:
                try:
                    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
                    log_file = open(log_path, "ab", buffering=0)  # noqa: SIM115 (kept open)
                except OSError as exc:
                    raise BotStartError(
                        f"bot {manifest.name!r}: cannot open its log {str(log_path)!r}: {exc}"
                    ) from exc
            status_r, status_w = os.pipe()
            folder = str(manifest.folder)
            if sandboxed:
                full = bwrap_argv(
                    launcher_argv(argv, limits=limits, status_fd=status_w, bot_folder=folder),
                    bot_folder=manifest.folder,
                    workdir=workdir,
                    visible=_visible_paths(argv[0]),
                    tmp_size_mb=4 * limits.file_size_mb,
                )
            else:
                full = launcher_argv(
                    argv,
                    limits=limits,
                    status_fd=status_w,
                    subreaper_of=os.getpid(),
                    bot_folder=folder,
                )
            env = {
                "PATH": os.environ.get("PATH", os.defpath),
                "HOME": str(workdir),
                "PWD": str(workdir),
                "TMPDIR": str(tmpdir),
                "LANG": "C.UTF-8",
                "PYTHONUNBUFFERED": "1",
                "PYTHONDONTWRITEBYTECODE": "1",
                # A launcher that runs the bot itself adds the bot's folder after the limits.
                "PYTHONPATH": _ARENA_ROOT
                if runs_in_launcher(argv)
                else os.pathsep.join((folder, _ARENA_ROOT)),
            }
            log.debug("starting bot %r: %s", manifest.name, full)
            try:
                proc = subprocess.Popen(
                    full,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    bufsize=0,
                    cwd=workdir,
                    env=env,
                    pass_fds=(status_w,),
                    start_new_session=True,
                )
            except OSError as exc:
                raise BotStartError(
                    f"bot {manifest.name!r}: cannot start {argv[0]!r}: {exc}"
                ) from exc
            os.close(status_w)
            status_w = -1
            problem = _read_status(status_r, START_TIMEOUT)
            if problem is not None:
                raise BotStartError(f"bot {manifest.name!r}: cannot start {argv[0]!r}: {problem}")
            bot = cls(
                manifest,
                proc,
                limits=limits,
                sandboxed=sandboxed,
                workdir=workdir,
                log_file=log_file,
            )
        except BaseException:
            if proc is not None:
                _kill_group(proc)
                proc.wait()
                for pipe in (proc.stdin, proc.stdout, proc.stderr):
                    if pipe is not None:
                        pipe.close()
            if log_file is not None:
                log_file.close()
            shutil.rmtree(workdir, ignore_errors=True)
            raise
        finally:
            for fd in (status_r, status_w):
                if fd >= 0:
                    os.close(fd)
        log.debug("%s started (%s)", bot._label, "bwrap" if sandboxed else "no sandbox")
        return bot

    # -- state

    @property
    def pid(self) -> int:
        """The pid of the child (under bubblewrap: of the ``bwrap`` process)."""
        return self._proc.pid

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    @property
    def returncode(self) -> int | None:
        """The exit status once it has ended (negative: killed by that signal), else ``None``."""
        return self._proc.poll()

    # -- talking

    def send(self, line: str, timeout: float = DEFAULT_SEND_TIMEOUT) -> None:
        """Write ``line`` and a newline to the bot's stdin.

        Raises :class:`BotExited` when the bot is gone, :class:`BotTimeout` when it has not
        taken the line within ``timeout`` seconds (it does not read its stdin)."""
        if "\n" in line:
            raise ValueError(f"a line to send must not contain a newline: {quote(line)}")
        if self._gone is not None:
            raise BotExited(*self._gone)
        log.debug("%s < %s", self._label, line)
        data = (line + "\n").encode("utf-8")
        try:
            written = os.write(self._in_fd, data)
        except BlockingIOError:
            written = 0
        except (BrokenPipeError, ConnectionResetError):
            raise self._exited("closed its stdin", _monotonic()) from None
        if written < len(data):
            self._send_rest(memoryview(data)[written:], _monotonic() + timeout, timeout)

    def _send_rest(self, rest: memoryview, deadline: float, timeout: float) -> None:
        if self._out_poller is None:
            self._out_poller = select.poll()
            self._out_poller.register(self._in_fd, select.POLLOUT)
        while rest:
            remaining = deadline - _monotonic()
            if remaining <= 0:
                raise BotTimeout(
                    f"bot {self._label} did not read its input within {timeout:g} s "
                    f"({len(rest)} bytes not taken)"
                )
            self._out_poller.poll(math.ceil(remaining * 1000))
            try:
                rest = rest[os.write(self._in_fd, rest) :]
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise self._exited("closed its stdin", deadline) from None

    def readline(self, timeout: float) -> str:
        """The bot's next stdout line, without its newline, within ``timeout`` seconds.

        Raises :class:`BotTimeout`, :class:`BotExited`, :class:`MalformedOutput` (not UTF-8;
        the line is dropped) or :class:`LineTooLong` (raised as soon as ``limits.line_bytes``
        bytes arrive without a newline; the rest of that line is dropped)."""
        if self._gone is not None:
            raise BotExited(*self._gone)
        buf = self._buf
        deadline = 0.0
        while True:
            nl = buf.find(b"\n", self._scan)
            if nl >= 0:
                self._scan = 0
                if self._skipping:
                    del buf[: nl + 1]
                    self._skipping = False
                    continue
                if nl > self._line_bytes:
                    del buf[: nl + 1]
                    raise self._too_long()
                raw = buf[:nl]
                del buf[: nl + 1]
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raw = bytes(raw)
                    log.debug("%s > (not UTF-8) %r", self._label, raw[:200])
                    raise MalformedOutput(
                        f"bot {self._label} wrote a line that is not UTF-8 ({exc.reason} at byte "
                        f"{exc.start}): {quote(raw)}",
                        raw[:200],
                    ) from None
                log.debug("%s > %s", self._label, line)
                return line
            if self._skipping:
                buf.clear()
                self._scan = 0
            elif len(buf) > self._line_bytes:
                prefix = bytes(buf[:200])
                buf.clear()
                self._scan = 0
                self._skipping = True
                raise self._too_long(prefix)
            else:
                self._scan = len(buf)
            if not deadline:
                deadline = _monotonic() + timeout
            self._read_some(deadline, timeout)

    def _too_long(self, prefix: bytes | None = None) -> LineTooLong:
        start = f": {quote(prefix)}" if prefix else ""
        return LineTooLong(
            f"bot {self._label} wrote a line longer than {self._line_bytes} bytes{start}"
        )

    def _read_some(self, deadline: float, timeout: float) -> None:
        """Append at least one byte from stdout to the buffer before ``deadline``, or raise."""
        while True:
            remaining = deadline - _monotonic()
            events = self._poller.poll(math.ceil(remaining * 1000) if remaining > 0 else 0)
            if events:
                try:
                    chunk = os.read(self._out_fd, _CHUNK)
                except BlockingIOError:
                    chunk = None
                if chunk:
                    self._buf += chunk
                    return
                if chunk == b"":
                    raise self._exited("closed its stdout", deadline)
                # Only the pidfd is ready: the process ended and its output is all read.
                raise self._exited("exited", deadline)
            if _monotonic() >= deadline:
                if self._pidfd < 0 and self._proc.poll() is not None:
                    raise self._exited("exited", deadline)
                pending = f"; partial line: {quote(bytes(self._buf[:201]))}" if self._buf else ""
                raise BotTimeout(
                    f"bot {self._label} sent no complete line within {timeout:g} s{pending}"
                )

    def _exited(self, what: str, deadline: float) -> BotExited:
        try:
            code = self._proc.wait(timeout=min(0.25, max(0.0, deadline - _monotonic())))
        except subprocess.TimeoutExpired:
            code = None
        status = "" if code is None else f" (exit status {code})"
        log.debug("%s %s%s", self._label, what, status)
        # Sticky: under bwrap the sandbox may still hold stdin for a moment after the exit,
        # and a bot that closed its stdout is of no more use either.
        self._gone = (f"bot {self._label} {what}{status}", code)
        return BotExited(*self._gone)

    # -- stderr

    def _drain_stderr(self, fd: int) -> None:
        cap = self.limits.stderr_bytes
        written = 0
        log_file = self._log_file
        try:
            while True:
                try:
                    chunk = os.read(fd, _CHUNK)
                except OSError:
                    break
                if not chunk:
                    break
                with self._tail_lock:
                    self._tail += chunk
                    if len(self._tail) > STDERR_TAIL_BYTES:
                        del self._tail[: len(self._tail) - STDERR_TAIL_BYTES]
                if log_file is None or written > cap:
                    continue
                room = cap - written
                try:
                    log_file.write(chunk[:room])
                    if len(chunk) > room:
                        log_file.write(TRUNCATED_MARKER)
                        written = cap + 1
                    else:
                        written += len(chunk)
                except (OSError, ValueError) as exc:
                    log.warning("%s: cannot write its stderr log: %s", self._label, exc)
                    written = cap + 1
        finally:
            if log_file is not None:
                with contextlib.suppress(OSError):
                    log_file.close()

    def stderr_tail(self, max_chars: int = 2000) -> str:
        """The last ``max_chars`` characters the bot wrote to stderr (also beyond the log cap).

        When the bot has ended, waits briefly for its last stderr bytes to be drained."""
        if not self._tail_final and self._proc.poll() is not None:
            self._stderr_thread.join(timeout=0.5)
            self._tail_final = True  # wait once: a leftover child may hold stderr open
        with self._tail_lock:
            data = bytes(self._tail[-4 * max_chars :])
        text = data.decode("utf-8", "replace")
        return text[-max_chars:] if max_chars > 0 else ""

    # -- stopping

    def stop(self, grace: float = 1.0) -> int | None:
        """End the bot and everything it started; return its exit status.

        Closes stdin and waits ``grace`` seconds, then SIGTERM to its process group and
        another ``grace``, then SIGKILL. Every descendant (also one that left the group with
        ``setsid``) is then killed, and ``stop`` returns once none is left. Without bubblewrap
        the descendants are frozen (SIGSTOP) first, before the bot is asked to exit.
        Idempotent."""
        if self._closed:
            return self._proc.returncode
        self._closed = True
        proc = self._proc
        if self._gone is None:
            self._gone = (f"bot {self._label} was stopped", None)
        try:
            if proc.poll() is not None:
                tree: dict[int, int] = {}
            elif self.sandboxed:
                # The sandbox's init re-parents every orphan inside it, so all the bot's
                # processes are descendants of bwrap: noted to wait for the pid namespace to
                # be torn down. Not frozen: a frozen init could not report the bot's exit.
                tree = _descendants({proc.pid})
            else:
                # No pid namespace: freeze the bot's descendants while it lives (orphans are
                # re-parented to it, a subreaper), so none can fork away while it exits.
                tree = _freeze_tree(proc.pid)
            with contextlib.suppress(OSError):
                proc.stdin.close()  # type: ignore[union-attr]
            if not self._wait_exit(grace):
                log.debug("%s did not exit on closed stdin; SIGTERM", self._label)
                _signal_group(proc, signal.SIGTERM)
                if not self._wait_exit(grace):
                    log.debug("%s did not exit on SIGTERM; SIGKILL", self._label)
                    _signal_group(proc, signal.SIGKILL)
                    self._wait_exit(5.0)
            # The group leader is a zombie at most (not reaped): the group id is still ours.
            _signal_group(proc, signal.SIGKILL)
            tree.update(_descendants({proc.pid}))
            proc.wait()
            _kill_tree(tree)
        finally:
            self._release()
        if self._gone[1] is None:
            self._gone = (self._gone[0], proc.returncode)
        log.debug("%s stopped (exit status %s)", self._label, proc.returncode)
        return proc.returncode

    def _wait_exit(self, timeout: float) -> bool:
        """Wait until the child has ended, without reaping it when a pidfd is at hand."""
        if self._pidfd >= 0:
            ready, _, _ = select.select([self._pidfd], [], [], max(0.0, timeout))
            return bool(ready)
        try:
            self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def _release(self) -> None:
        proc = self._proc
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        if self._pidfd >= 0:
            os.close(self._pidfd)
            self._pidfd = -1
        self._stderr_thread.join(timeout=2.0)
        if self._stderr_thread.is_alive():
            log.warning("%s: its stderr is still open after stop", self._label)
        elif proc.stderr is not None:
            proc.stderr.close()
        _remove_tree(self.workdir)
        self._buf.clear()

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.alive else f"ended({self._proc.returncode})"
        return f"<BotProcess {self._label} {state}>"


# -- helpers


@functools.cache
def _compile_arena() -> None:
    """Write the bytecode of the ``arena`` package once per process, where it is missing or stale.

    Bots run with ``PYTHONDONTWRITEBYTECODE`` (their view of the system is read-only), so a
    Python bot would otherwise compile ``arena.sdk``, ``arena.protocol`` and ``arena.engine``
    from source at every start. These are the arena's own files, in the ``__pycache__``
    folders Python itself would write on import; a read-only install is left as it is."""
    try:
        compileall.compile_dir(
            os.path.join(_ARENA_ROOT, "arena"),
            quiet=2,
            optimize=0,
            invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP,
        )
    except OSError as exc:
        log.debug("cannot write the bytecode of the arena package: %s", exc)


def _visible_paths(program: str) -> list[Path]:
    return [
        Path(program).parent,
        Path(sys.executable).parent,
        Path(sys.prefix),
        Path(sys.base_prefix),
        Path(_ARENA_ROOT),
    ]


def _read_status(fd: int, timeout: float) -> str | None:
    """The launcher's error message, or ``None`` once the bot's program has been executed."""
    deadline = _monotonic() + timeout
    message = b""
    while True:
        remaining = deadline - _monotonic()
        if remaining <= 0:
            return f"its program was not executed within {timeout:g} s"
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        chunk = os.read(fd, 4096)
        if not chunk:
            return message.decode("utf-8", "replace") if message else None
        message += chunk


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    _signal_group(proc, signal.SIGKILL)


def _proc_table() -> dict[int, tuple[int, int, str]]:
    """pid -> (parent pid, start time, state) of every process, from ``/proc``."""
    table: dict[int, tuple[int, int, str]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        table[int(name)] = (int(fields[1]), int(fields[19]), fields[0].decode())
    return table


def _descendants(roots: set[int], table: dict | None = None) -> dict[int, int]:
    """pid -> start time of every live descendant of ``roots`` (excluding the roots)."""
    table = _proc_table() if table is None else table
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: dict[int, int] = {}
    todo = list(roots)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found and child not in roots:
                found[child] = table[child][1]
                todo.append(child)
    return found


def _freeze_tree(root: int) -> dict[int, int]:
    """SIGSTOP every descendant of ``root`` until no new one appears; pid -> start time."""
    frozen: dict[int, int] = {}
    for _ in range(100):
        table = _proc_table()
        new = {p: s for p, s in _descendants({root}, table).items() if p not in frozen}
        if not new:
            break
        for pid in new:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGSTOP)
        frozen.update(new)
    return frozen


def _kill_tree(known: dict[int, int]) -> None:
    """Freeze (SIGSTOP) ``known`` processes and their descendants until no new one appears,
    then SIGKILL them all. Start times guard against signalling a reused pid."""
    if not known:
        return
    family = dict(known)
    for _ in range(100):
        table = _proc_table()
        live = {
            pid: start
            for pid, start in family.items()
            if pid in table and table[pid][1] == start and table[pid][2] != "Z"
        }
        new = {p: s for p, s in _descendants(set(live), table).items() if p not in family}
        if not live and not new:
            return
        family.update(new)
        for pid in (*live, *new):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGSTOP)
        if new:
            continue  # look again for children forked before the freeze
        for pid in live:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)
    log.warning("could not kill all descendants of a bot: %s", sorted(family))


def _remove_tree(path: Path) -> None:
    def retry(func, name, _exc_info) -> None:
        # A bot may leave read-only folders behind; make them writable and try again.
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(name), 0o700)
            if os.path.isdir(name) and not os.path.islink(name):
                os.chmod(name, 0o700)
                shutil.rmtree(name, ignore_errors=True)
            else:
                func(name)

    try:
        shutil.rmtree(path, onerror=retry)
    except OSError as exc:
        if exc.errno != errno.ENOENT:
            log.warning("cannot remove a bot's working directory %r: %s", str(path), exc)
