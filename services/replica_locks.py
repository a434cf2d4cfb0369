"""Coordination of service replicas that share one PostgreSQL database, through advisory locks.

Each replica holds, on a connection of its own:

- an **execution lock** for every execution it queued, from creation until it finished: while
  it is held, the replica that owns the execution is alive. When a replica dies, PostgreSQL
  ends its connection and the locks go with it, so a lock another replica *can* take marks an
  unfinished execution as orphaned (the lease that expires with the replica);
- a **notebook lock** while it runs an execution of that notebook: one execution per notebook
  across replicas (within a replica the in-process lock already queues them).

Keys are (namespace, 32-bit hash of the id) pairs, `pg_try_advisory_lock(int, int)`; a hash
collision only serializes two notebooks or delays a recovery, never interleaves a notebook.
With SQLite (one process) every method is a no-op and every unfinished execution is orphaned
at start, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Protocol

from .postgres_store import Connection

NOTEBOOK, EXECUTION = 2301, 2302  # advisory lock namespaces
LOCK_POLL = 0.1  # seconds between tries for a notebook another replica runs
SWEEP_INTERVAL = 2.0  # seconds between looks for executions of replicas that died
STREAM_POLL = 0.25  # an event stream re-reads a shared journal this often (another replica
# may be the one writing the execution's events)


class ReplicaLocks(Protocol):
    shared: bool

    def claim(self, execution_id: str) -> None: ...

    def release(self, execution_id: str) -> None: ...

    def notebook(self, notebook_id: str) -> contextlib.AbstractAsyncContextManager[None]: ...

    def adopt(self, execution_id: str) -> contextlib.AbstractContextManager[bool]: ...

    def close(self) -> None: ...


def replica_locks(database_url: str | None) -> ReplicaLocks:
    return PostgresLocks(database_url) if database_url else SingleProcess()


class SingleProcess:
    shared = False

    def claim(self, execution_id: str) -> None:
        pass

    def release(self, execution_id: str) -> None:
        pass

    @contextlib.asynccontextmanager
    async def notebook(self, notebook_id: str) -> AsyncIterator[None]:
        yield

    @contextlib.contextmanager
    def adopt(self, execution_id: str) -> Iterator[bool]:
        yield True  # at start, whatever is unfinished was cut off

    def close(self) -> None:
        pass


def key(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "big",
                          signed=True)


class PostgresLocks:
    shared = True

    def __init__(self, url: str):
        self._holder = Connection(url)  # holds this replica's locks for its life
        self._prober = Connection(url)  # asks about others' (a session re-enters its own)
        self._lock = threading.Lock()

    def claim(self, execution_id: str) -> None:
        self._try(self._holder, EXECUTION, execution_id)

    def release(self, execution_id: str) -> None:
        self._unlock(self._holder, EXECUTION, execution_id)

    @contextlib.asynccontextmanager
    async def notebook(self, notebook_id: str) -> AsyncIterator[None]:
        while not self._try(self._holder, NOTEBOOK, notebook_id):
            await asyncio.sleep(LOCK_POLL)
        try:
            yield
        finally:
            self._unlock(self._holder, NOTEBOOK, notebook_id)

    @contextlib.contextmanager
    def adopt(self, execution_id: str) -> Iterator[bool]:
        """True when the execution's replica is gone (its execution lock was free); the lock
        is then held until the block ends, so one replica alone ends the execution."""
        taken = self._try(self._prober, EXECUTION, execution_id)
        try:
            yield taken
        finally:
            if taken:
                self._unlock(self._prober, EXECUTION, execution_id)

    def close(self) -> None:
        for conn in (self._holder, self._prober):
            with contextlib.suppress(Exception):
                conn.close()

    def _try(self, conn: Connection, namespace: int, name: str) -> bool:
        with self._lock:
            row = conn.execute("SELECT pg_try_advisory_lock(?, ?)",
                               (namespace, key(name))).fetchone()
        return bool(row[0])

    def _unlock(self, conn: Connection, namespace: int, name: str) -> None:
        with self._lock:
            conn.execute("SELECT pg_advisory_unlock(?, ?)", (namespace, key(name)))
