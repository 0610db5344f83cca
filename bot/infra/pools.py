"""Pools of worker processes for the work that holds the GIL for long: computer players' search
(:mod:`bot.app.computer`, ``AZUL_AI_WORKERS``) and board pictures (:mod:`bot.app.pictures`, ``AZUL_PICTURE_WORKERS``).

A thread would not help such work: pure Python holds the interpreter's lock, so every other game's interaction
would queue behind it. A pool of processes runs it beside the bot, and its size bounds how much runs at once. The
work and its arguments cross the process boundary by pickling, so callers send plain data (a game's JSON, names,
short notes) and get plain data back (a move's notation, PNG bytes), never bot objects.

A pool of no processes runs the work in a thread of the bot's process instead: for a small bot, one interpreter
fewer in memory. Work whose peak would be the bot's (a whole game's animation) goes to a pool that starts one fresh
process per job instead (``fresh=True``): the process exits when the job is done, and its memory with it.

:class:`FairQueue` orders the work waiting for a worker fairly between its owners (the search pool's games, grouped
by the members who opened them): first in, first out within one owner, round robin across owners and groups, so one
game's queue never holds up another game's turn, nor one member's many games another member's.

:class:`SingleFlight` shares work in progress: every caller asking for the same thing while it is being made waits
for the one job already running instead of starting its own.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import os
import threading
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from bot.infra import metrics

# multiprocessing and the process executor load with a pool's first process, not at start-up (a pool of no processes
# never loads them): the first answer needs neither.
if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

log = logging.getLogger(__name__)

CLOSE_GRACE = 2.0
"""Seconds :meth:`WorkerPool.close` lets work under way finish before it ends the workers: a search may think for
30 s, and a stopping bot has about 10 (Docker's grace) before it is killed; a cut-off turn resumes after the restart."""


def start_worker(warm_up: Callable[[], object] | None) -> None:
    """Every worker's first step: it watches its parent, then warms up. A bot killed with -9 cannot stop its
    workers, and an idle worker waits on a queue whose writing end it holds itself, so it would wait forever."""
    import multiprocessing  # noqa: PLC0415 - in the worker, where the spawn has loaded it already

    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=exit_with, args=(parent.sentinel,), name="exit with the bot", daemon=True).start()
    if warm_up is not None:
        warm_up()


def exit_with(sentinel: int) -> None:
    """Ends this worker as soon as its parent's sentinel is ready: the parent has ended, however it ended."""
    import multiprocessing.connection  # noqa: PLC0415 - in the worker, where the spawn has loaded it already

    multiprocessing.connection.wait([sentinel])
    os._exit(1)


class FairQueue:
    """At most ``slots`` pieces of work at once; the rest wait in one queue per owner (any hashable key), owners in
    groups. A free slot goes to the group at the front of the rotation and, within it, to the owner at the front; both
    then move to the back. So: first in, first out per owner, round robin across a group's owners, and round robin
    across groups. ``on_start`` (if set) is told each owner as its work starts.

    The search pool's owners are games and its groups the members who opened them: a member who opens 25 games with
    computer players takes turns with every other member, not 25 turns to their one."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError("a fair queue needs at least one slot")
        self.slots = slots
        self.on_start: Callable[[Hashable], object] | None = None
        self._groups: OrderedDict[Hashable, OrderedDict[Hashable, deque[asyncio.Future[None]]]] = OrderedDict()
        self._running = 0

    @property
    def waiting(self) -> int:
        return sum(len(queue) for owners in self._groups.values() for queue in owners.values())

    @asynccontextmanager
    async def slot(self, owner: Hashable, group: Hashable = None) -> AsyncIterator[None]:
        """Wait for ``owner``'s turn (in ``group``), hold a slot for the body."""
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._groups.setdefault(group, OrderedDict()).setdefault(owner, deque()).append(ticket)
        self._dispatch()
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():  # given a slot in the same instant: hand it on
                self._release()
            raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        self._running -= 1
        self._dispatch()

    def _dispatch(self) -> None:
        while self._running < self.slots and self._groups:
            group, owners = next(iter(self._groups.items()))
            owner, queue = next(iter(owners.items()))
            ticket = queue.popleft()
            _to_the_back(owners, owner, keep=bool(queue))  # the group's other owners first
            _to_the_back(self._groups, group, keep=bool(owners))  # the other groups first
            if ticket.cancelled():  # its caller gave up while waiting
                continue
            self._running += 1
            if self.on_start is not None:
                self.on_start(owner)
            ticket.set_result(None)


def _to_the_back(rotation: OrderedDict[Any, Any], key: Hashable, *, keep: bool) -> None:
    if keep:
        rotation.move_to_end(key)
    else:
        del rotation[key]


class WorkerPool:
    """``processes`` worker processes (started by :meth:`start`, stopped by :meth:`close`), or a thread when 0.
    With ``warm_up``, every worker runs it as it starts, and they all start with the pool; without, each starts when
    work first needs it (and the pool's machinery with the first work: a bot's start-up starts no process it does
    not need yet, not even multiprocessing's resource tracker).

    A worker that dies (killed, out of memory) breaks its whole executor: the pool is replaced and the work that was
    cut off is tried once more, so one dead worker costs one retry, not every later picture or search.

    With ``fair``, work waits in a :class:`FairQueue` by its ``owner`` instead of in the executor's single queue."""

    def __init__(
        self,
        name: str,
        processes: int,
        *,
        warm_up: Callable[[], object] | None = None,
        fresh: bool = False,
        fair: bool = False,
    ) -> None:
        if processes < 0:
            raise ValueError(f"a pool of {name} workers cannot have {processes} processes")
        self.name = name
        self.processes = processes
        self.warm_up = warm_up
        self.fresh = fresh
        """Each process runs one job and exits (its peak memory goes with it); started when work arrives."""
        self.queue = FairQueue(max(processes, 1)) if fair else None
        self._running = False
        self._executor: ProcessPoolExecutor | None = None
        self._thread: ThreadPoolExecutor | None = None
        """The pool's own thread when it has no processes (started with its first work)."""
        self.generation = 0
        """How many sets of workers this pool has started: 1 after :meth:`start`, one more per replacement."""

    def start(self) -> None:
        self._running = True
        if self.processes and self.warm_up is not None and not self.fresh:
            self._executor = self._new_executor()

    def worker_pids(self) -> frozenset[int]:
        """The process ids of the current workers (none in a thread pool, or before work has started them)."""
        processes = self._executor._processes if self._executor is not None else None
        return frozenset(processes or ())

    @property
    def broken(self) -> bool:
        """Whether the current workers have noticed one of them died: the next run replaces them."""
        return self._executor is not None and bool(self._executor._broken)

    def _new_executor(self) -> ProcessPoolExecutor:
        import multiprocessing  # noqa: PLC0415 - with the first process (see above)
        from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

        self.generation += 1
        # Spawned, not forked: the bot's process has threads (the database's), and a fork copies their locks in
        # whatever state they are.
        executor = ProcessPoolExecutor(
            max_workers=self.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_worker,
            initargs=(self.warm_up,),
            max_tasks_per_child=1 if self.fresh else None,
        )
        if self.warm_up is not None and not self.fresh:
            # A spawned executor starts a worker only when work finds none idle: start them all now, each warming
            # up, so the first work after a start (or a replacement) does not wait for an interpreter to start.
            for _ in range(self.processes):
                executor.submit(int)
        return executor

    async def run(self, work: Callable[..., Any], *args: Any, owner: Hashable = None, group: Hashable = None) -> Any:
        """``work(*args)`` in a worker; ``work`` must be a module-level function (a worker imports it by name).
        In a fair pool it waits its turn among ``owner``'s work, ``owner`` in ``group`` (see :class:`FairQueue`)."""
        if not self._running:
            raise RuntimeError(f"the {self.name} pool is not running")
        with metrics.pool_job(self.name, self.processes):
            if self.queue is None:
                return await self._run(work, *args)
            async with self.queue.slot(owner, group):
                return await self._run(work, *args)

    async def _run(self, work: Callable[..., Any], *args: Any) -> Any:
        if not self.processes:
            return await self._run_in_thread(work, *args)
        from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415 - loaded with the first process

        for attempt in (1, 2):
            if not self._running:
                raise RuntimeError(f"the {self.name} pool is not running")
            if self._executor is None:  # no warm-up: started with its first work
                self._executor = self._new_executor()
            executor = self._executor
            try:
                return await asyncio.get_running_loop().run_in_executor(executor, work, *args)
            except BrokenProcessPool:
                if attempt == 2 or not self._running:
                    raise
                self._replace(executor)
        raise AssertionError("unreachable")

    async def _run_in_thread(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in the pool's one thread, with the caller's context (its log fields), as
        :func:`asyncio.to_thread` would run it in the loop's shared executor: there up to six pictures at once took
        turns holding the interpreter's lock with each other and the event loop, which cost the loop a tenth more
        CPU per move (``python -m bench load``) and drew no picture sooner on two cores."""
        if self._thread is None:
            from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415 - with the first work, as the processes

            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{self.name}-thread")
        call = functools.partial(contextvars.copy_context().run, work, *args)
        return await asyncio.get_running_loop().run_in_executor(self._thread, call)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        # Every run cut off by the same death gets here; only the first replaces the executor, so the others retry
        # on the new one instead of shutting it down under each other.
        if self._executor is broken:
            log.warning("a %s process died; starting a new pool", self.name)
            broken.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()

    async def close(self) -> None:
        """Stop the workers: work not started is dropped, work under way gets :data:`CLOSE_GRACE` seconds to end,
        then its worker is ended (a stop must not wait out a long search)."""
        self._running = False
        thread, self._thread = self._thread, None
        if thread is not None:  # work under way ends in its own time: a thread cannot be ended
            thread.shutdown(wait=False, cancel_futures=True)
        executor, self._executor = self._executor, None
        if executor is None:
            return
        workers = list((executor._processes or {}).values())  # private: Python 3.14 adds terminate_workers
        stopping = asyncio.ensure_future(asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True))
        done, _ = await asyncio.wait({stopping}, timeout=CLOSE_GRACE)
        if not done:
            log.info("ending %d %s workers still at work", sum(w.is_alive() for w in workers), self.name)
            for worker in workers:
                worker.terminate()
            await stopping


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class SingleFlight(Generic[K, V]):
    """Work in progress, shared: the first caller for a key starts the work, and every caller asking for that key
    before it ends awaits the same result (or the same error). A caller that gives up (cancelled) does not cancel
    the work for the others."""

    def __init__(self) -> None:
        self._running: dict[K, asyncio.Future[V]] = {}

    def running(self, key: K) -> bool:
        return key in self._running

    async def run(self, key: K, work: Callable[[], Awaitable[V]]) -> V:
        future = self._running.get(key)
        if future is None:
            future = asyncio.ensure_future(work())
            self._running[key] = future
            future.add_done_callback(lambda _: self._running.pop(key, None))
        return await asyncio.shield(future)


__all__ = ["CLOSE_GRACE", "FairQueue", "SingleFlight", "WorkerPool", "start_worker"]
