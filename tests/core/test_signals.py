"""signals_held: Ctrl-C and SIGTERM wait for the end of the step, then reach their handler once each."""

from __future__ import annotations

import signal
import threading

import pytest

from gamesim.core.signals import signals_held


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_in_the_step_reaches_its_handler_after_it(sig):
    seen: list[tuple[int, bool]] = []
    inside = [False]
    previous = signal.signal(sig, lambda signum, frame: seen.append((signum, inside[0])))
    try:
        with signals_held():
            inside[0] = True
            signal.raise_signal(sig)
            signal.raise_signal(sig)  # twice: delivered once
            assert seen == []
            inside[0] = False
        assert seen == [(sig, False)]
        assert signal.getsignal(sig) is not None and seen == [(sig, False)]
    finally:
        signal.signal(sig, previous)


def test_the_handlers_are_restored_and_other_threads_run_the_step_as_is():
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    with signals_held():
        assert signal.getsignal(signal.SIGTERM) is not before[signal.SIGTERM]
    assert {s: signal.getsignal(s) for s in before} == before
    ran: list[bool] = []

    def step() -> None:
        with signals_held():
            ran.append(True)

    t = threading.Thread(target=step)
    t.start()
    t.join()
    assert ran == [True]
