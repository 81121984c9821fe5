"""Start the documents' commands from a process that has imported env121 already.

Each ``env121 …`` or ``python …`` command of a document is a fresh process
that spends most of a tiny run importing torch, numba, matplotlib and the
package and loading the kernels (1.5 to 3 s of CPU, against well under a
second of play for a tournament of one deal). The documents' tests
(``tests/docs/test_readmes.py``) run about eighty of them, so they start them
the way the arena starts its workers: by forking a process that has done the
imports. :class:`ForkServer` is that process; :func:`write_shims` writes the
``env121`` and ``python`` executables a block calls instead of the virtual
environment's, which hand the command to the server.

What a command does after its imports is unchanged: the forked process takes
the command's standard input, output and error (passed over a Unix socket),
its working directory, environment and arguments, runs the console command's
entry point (``env121``), the module (``python -m``), the script (``python
FILE``) or the code (``python -c``) as ``__main__``, runs the ``atexit``
functions, and its exit status becomes the shim's. A command the server
cannot start faithfully runs as a process of its own, as written: any other
form of ``python``, and any command whose environment differs from the
server's in a variable read at import time (:data:`IMPORT_TIME_PREFIXES`: a
block that sets ``ENV121_KERNELS=host`` gets a fresh interpreter).

This file is both the server (``python tests/docs/forkserver.py serve
SOCKET``) and the shims' client (``… client SOCKET PROGRAM ARGS…``); only
the server imports anything beyond the standard library.
"""

from __future__ import annotations

import array
import contextlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

IMPORT_TIME_PREFIXES = (
    "ENV121_",
    "NUMBA_",
    "OMP_",
    "MKL_",
    "KMP_",
    "TORCH",
    "CUDA",
    "PYTHON",
    "MPL",
    "LD_",
)
"""Environment variables whose value a module may read when it is imported:
a command whose environment differs from the server's in one of them runs in
a fresh interpreter."""
PROGRAMS = ("env121", "python")
"""The executables a shim stands for."""
_EXIT = struct.Struct("!i")
"""The server's answer: the command's exit status, or -1 when it declined it."""
_THIS_FILE = Path(__file__).resolve()
"""This file: the server's program and the shims' client."""
EntryPoint = Callable[[], Any]
"""The console command's ``main``, called as its script calls it."""


def _import_time_environment(environment: dict[str, str]) -> dict[str, str]:
    """The variables of ``environment`` an import may read (:data:`IMPORT_TIME_PREFIXES`)."""
    return {
        key: value for key, value in environment.items() if key.startswith(IMPORT_TIME_PREFIXES)
    }


# --- the client (the shims) -------------------------------------------------------


def _real_command(real_bin: str, program: str, arguments: list[str]) -> list[str]:
    """The command line of the virtual environment's own ``program``."""
    return [os.path.join(real_bin, program), *arguments]


def _runnable(program: str, arguments: list[str]) -> bool:
    """Whether the server starts this command itself: ``env121 …``, or
    ``python`` with ``-m MODULE``, ``-c CODE`` or a script file first."""
    if program == "env121":
        return True
    if not arguments:
        return False
    first = arguments[0]
    return (first in ("-m", "-c") and len(arguments) > 1) or not first.startswith("-")


def client(socket_path: str, real_bin: str, program: str, arguments: list[str]) -> int:
    """Hand the command to the server and wait for its exit status; run it as a
    process of its own where the server cannot start it faithfully."""
    if _runnable(program, arguments) and os.path.exists(socket_path):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.connect(socket_path)
            request = {
                "program": program,
                "arguments": arguments,
                "cwd": os.getcwd(),
                "environment": dict(os.environ),
            }
            payload = json.dumps(request).encode()
            fds = array.array("i", [0, 1, 2])
            connection.sendmsg(
                [struct.pack("!I", len(payload)), payload],
                [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)],
            )
            answer = connection.makefile("rb").read(_EXIT.size)
            if len(answer) == _EXIT.size:
                status: int = _EXIT.unpack(answer)[0]
                if status != -1:  # -1: the server declined (its environment differs)
                    return status
            elif answer:
                raise RuntimeError("the fork server's answer was cut short")
            else:
                raise RuntimeError("the forked command ended without an exit status")
    return subprocess.run(_real_command(real_bin, program, arguments)).returncode


# --- the server -------------------------------------------------------------------


def _receive(connection: socket.socket) -> tuple[dict[str, Any], list[int]]:
    """The request and the three file descriptors sent with it."""
    fds = array.array("i")
    message, ancillary, _flags, _address = connection.recvmsg(
        1 << 20, socket.CMSG_LEN(3 * fds.itemsize)
    )
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - (len(data) % fds.itemsize)])
    (size,) = struct.unpack("!I", message[:4])
    payload = message[4:]
    while len(payload) < size:
        more = connection.recv(size - len(payload))
        if not more:
            raise RuntimeError("the request was cut short")
        payload += more
    return json.loads(payload), list(fds)


def _exit_status(error: BaseException | None) -> int:
    """The exit status a process ending with ``error`` has (as the interpreter gives it)."""
    import traceback

    if error is None:
        return 0
    if isinstance(error, SystemExit):
        code = error.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        print(code, file=sys.stderr)
        return 1
    if isinstance(error, KeyboardInterrupt):
        traceback.print_exception(error)
        return 130
    traceback.print_exception(error)
    return 1


def _run_as_main(program: str, arguments: list[str], entry_point: EntryPoint) -> None:
    """Run the command in this process as its own interpreter would."""
    import runpy
    import types

    if program == "env121":
        sys.argv = [program, *arguments]
        sys.exit(entry_point())
    first, rest = arguments[0], arguments[1:]
    if first == "-m":
        sys.argv = ["-m", *rest[1:]]
        sys.path.insert(0, os.getcwd())
        sys.modules.pop(rest[0], None)  # imported by the server: run afresh as __main__
        runpy.run_module(rest[0], run_name="__main__", alter_sys=True)
    elif first == "-c":
        sys.argv = ["-c", *rest[1:]]
        sys.path.insert(0, "")
        main_module = types.ModuleType("__main__")
        sys.modules["__main__"] = main_module
        exec(compile(rest[0], "<string>", "exec"), main_module.__dict__)
    else:
        sys.argv = [first, *rest]
        sys.path.insert(0, os.path.dirname(os.path.abspath(first)))
        runpy.run_path(os.path.abspath(first), run_name="__main__")


def _child(
    connection: socket.socket,
    entry_point: EntryPoint,
    started: dict[str, str],
    imported: dict[str, str],
) -> None:
    """The forked process: become the command, run it, send its exit status.
    ``started`` is the server's environment before its imports, ``imported``
    what they set in it (env121 sets ``NUMBA_CPU_NAME`` for its workers)."""
    import atexit

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    request, fds = _receive(connection)
    if _import_time_environment(request["environment"]) != _import_time_environment(started):
        connection.sendall(_EXIT.pack(-1))
        os._exit(0)
    for target, fd in enumerate(fds[:3]):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["environment"])
    os.environ.update(imported)
    error: BaseException | None = None
    try:
        _run_as_main(request["program"], request["arguments"], entry_point)
    except BaseException as raised:  # every ending has its exit status
        error = raised
    status = _exit_status(error)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed or broken stream
            stream.flush()
    connection.sendall(_EXIT.pack(status))
    os._exit(status)


def _preload() -> EntryPoint:
    """Import what the documents' commands import and load every kernel;
    returns the ``env121`` console command's entry point."""
    import importlib
    import pkgutil
    from importlib.metadata import entry_points

    import matplotlib.pyplot  # noqa: F401 — every tournament draws its results
    import torch  # noqa: F401

    repository = _THIS_FILE.parents[2]
    for package in ("env121", "agents", "arena", "training", "apps"):
        for module in pkgutil.walk_packages([str(repository / package)], f"{package}."):
            name = module.name.rpartition(".")[2]
            if name == "__main__":
                continue  # a command: importing it runs it
            if name.startswith("ray") or "_ray" in name:
                continue  # Ray is an extra whose import starts threads: no fork after it
            importlib.import_module(module.name)
    from agents.warmup import warm_kernels

    warm_kernels()
    (command,) = entry_points(group="console_scripts", name="env121")
    entry_point: EntryPoint = command.load()
    return entry_point


def serve(socket_path: str) -> None:
    """Import everything, then fork a child for every connection to ``socket_path``."""
    started = dict(os.environ)
    del sys.path[0]  # this file's folder: a command's interpreter starts without it
    entry_point = _preload()
    imported = {key: value for key, value in os.environ.items() if started.get(key) != value}
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the children reap themselves
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path + ".tmp")
    listener.listen(64)
    os.replace(socket_path + ".tmp", socket_path)  # it appears ready
    sys.stdout.flush()
    sys.stderr.flush()
    while True:
        connection, _address = listener.accept()
        if os.fork() == 0:
            listener.close()
            _child(connection, entry_point, started, imported)
        connection.close()


# --- for the tests ----------------------------------------------------------------


class ForkServer:
    """A running server (``with ForkServer(folder, environment) as server``) and
    the folder of its shims (:attr:`bin`)."""

    def __init__(self, folder: Path, environment: dict[str, str], real_bin: Path) -> None:
        self.folder = folder
        self.socket = folder / "server.sock"
        self.bin = folder / "bin"
        self.environment = environment
        self.real_bin = real_bin
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> ForkServer:
        self.bin.mkdir(parents=True, exist_ok=True)
        self.socket.unlink(missing_ok=True)
        for program in PROGRAMS:
            shim = self.bin / program
            shim.write_text(
                "#!/bin/sh\n"
                f'exec "{sys.executable}" -I -S "{_THIS_FILE}" client '
                f'"{self.socket}" "{self.real_bin}" {program} "$@"\n',
                encoding="utf-8",
            )
            shim.chmod(0o755)
        self.process = subprocess.Popen(
            [sys.executable, str(_THIS_FILE), "serve", str(self.socket)],
            env=self.environment,
            cwd=self.folder,
            stdin=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        while not self.socket.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the fork server did not start (status {self.process.poll()})")
            time.sleep(0.05)
        return self

    def __exit__(self, *_exception: object) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
        self.socket.unlink(missing_ok=True)


def main(argv: list[str]) -> int:
    if argv[:1] == ["serve"] and len(argv) == 2:
        serve(argv[1])
        return 0
    if argv[:1] == ["client"] and len(argv) >= 4 and argv[3] in PROGRAMS:
        return client(argv[1], argv[2], argv[3], argv[4:])
    print(
        "usage: forkserver.py serve SOCKET | client SOCKET REAL_BIN {env121,python} ARGS…",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
