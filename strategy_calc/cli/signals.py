"""Ctrl-C and SIGTERM stop a command at once, and its worker processes with it.

Python runs a signal handler only when the main thread is between two bytecodes, so a
command inside a long engine call (a fully optimal split, a whole-game pass) would not
see Ctrl-C until that call returned, and a process pool's ``with`` block would then wait
for its workers to finish their tasks. Instead, the script blocks SIGINT and SIGTERM in
every thread and waits for them in a thread of its own (``signal.sigwait``), which the
kernel wakes whatever the main thread is doing. That thread ends the command's worker
processes (forked with the signals blocked, so a terminal's Ctrl-C, sent to the whole
process group, does not make each of them print a traceback), prints one line and ends
the process: nothing more is written, so no partial result looks complete.

The interactive commands (``shell``, ``drill``) keep Ctrl-C for themselves, and ``serve``
stops its server and workers on its own; :func:`stop_on_signals` is for the others, in
the script only (``cli.run`` in-process keeps Python's handling).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a command."""

INTERACTIVE = frozenset({"shell", "drill", "serve"})
"""Commands that handle Ctrl-C themselves."""

STOPPING = threading.Event()
"""Set once a stop signal is received: the signal thread owns the process's end."""


def stop_on_signals(command: str) -> bool:
    """From now on, SIGINT or SIGTERM ends this process within milliseconds: its
    ``multiprocessing`` children killed, one ``error:`` line naming ``command`` and the
    signal, exit status 128 + the signal's number. False (nothing done) off the main
    thread or for an interactive command.

    >>> stop_on_signals("shell")  # it keeps Ctrl-C for its prompt
    False
    """
    if command in INTERACTIVE or threading.current_thread() is not threading.main_thread():
        return False
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    thread = threading.Thread(target=_wait_and_stop, args=(command,), daemon=True,
                              name="strategy-calc-signals")
    thread.start()
    return True


def keep_ctrl_c() -> None:
    """For an interactive command at a terminal: Ctrl-C reaches it (as KeyboardInterrupt,
    which its prompt turns into the report) whatever it inherited: a signal mask blocking
    SIGINT and an ignored SIGINT both pass from a parent to its child across exec, and
    then the key would do nothing at all. Main thread only (elsewhere, nothing done).

    >>> keep_ctrl_c()
    >>> signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # (not blocked)
    False
    """
    if threading.current_thread() is not threading.main_thread():
        return
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
    if signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, signal.SIG_DFL, None):
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _wait_and_stop(command: str) -> None:
    received = signal.sigwait(STOP_SIGNALS)
    STOPPING.set()
    # From here the main thread writes nowhere: a pool whose workers die under it would
    # otherwise print its traceback, and a result half-written must not go out.
    err = os.dup(2)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    workers = _kill_workers()
    name = signal.Signals(received).name
    ended = f"; its {workers} worker processes ended" if workers else ""
    tty = os.isatty(err)
    message = (f"{chr(10) if tty else ''}error: {command} stopped by {name}{ended};"
               " nothing more was written\n")
    with contextlib.suppress(OSError):
        os.write(err, message.encode())
    os._exit(128 + received)


def _kill_workers() -> int:
    """SIGKILL every live child process started by ``multiprocessing`` (a process pool's
    workers); the number killed. SIGKILL, because the workers block SIGTERM (the mask
    forked with them), and reaped."""
    import multiprocessing

    children = multiprocessing.active_children()
    for child in children:
        with contextlib.suppress(OSError):  # already gone
            child.kill()
    for child in children:  # reaped here: not every init reaps orphans
        child.join(timeout=1.0)
    return len(children)


def hold_if_stopping(seconds: float = 10.0) -> None:
    """Where the main thread would end the process (its command returned or raised): if a
    stop signal came, wait for the signal thread to end it instead, with its own status.
    Killing the workers breaks the main thread's pool at once, and without this wait its
    error path could exit first, with status 1 (seen in CI under load).

    >>> hold_if_stopping()  # no signal: returns at once
    """
    if STOPPING.is_set():
        threading.Event().wait(seconds)  # (the signal thread calls os._exit meanwhile)

