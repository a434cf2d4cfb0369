"""Where kernels come from: the provider seam behind the warm pool.

`LocalKernels` starts ipykernels on this machine (jupyter_client, isolated as
services.kernel_isolation sets up); `GatewayKernels` asks a Jupyter Kernel Gateway or
Enterprise Gateway for them (services.gateway_client), which may run them on a cluster. Both
hand out a `KernelSession`, so execution, timeouts, interrupts, restarts, dead-kernel detection
and the critic's silent requests are one code path.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import uuid
from pathlib import Path
from typing import Protocol

import httpx

from .config import EngineConfig
from .gateway_client import GatewayError, GatewayKernelManager, GatewayOptions
from .kernel_isolation import NOT_DUMPABLE_LINE, KernelLaunch, forget_connection_file
from .kernel_session import KernelSession, KernelStartError

log = logging.getLogger(__name__)


class KernelProvider(Protocol):
    where: str  # for logs and errors: "local" or the gateway's URL
    runtime_dir: Path | None  # local kernels' private dirs live under it

    async def start(self) -> KernelSession: ...

    async def stop(self, session: KernelSession, now: bool = False) -> None: ...

    async def close(self) -> None: ...


def kernel_provider(config: EngineConfig) -> KernelProvider:
    """The gateway when `gateway_url` is set; else kernels on this machine."""
    if config.gateway_url:
        return GatewayKernels(config)
    return LocalKernels(config)


class LocalKernels:
    where = "local"

    def __init__(self, config: EngineConfig):
        self.config = config
        # IPC socket paths must be short, so kernels live under /tmp, not under data_dir;
        # each in its own 0700 dir. Kernels a killed service left behind are cleaned away.
        self.launch = KernelLaunch.from_config(config)
        self.runtime_dir: Path | None = self.launch.root
        if self.launch.identity is None:
            log.warning("kernels run as the service's own user: a cell cannot read the "
                        "service's environment or other kernels' keys, but it can read and "
                        "write the service's files and signal it; set kernel_user (service "
                        "as root) to isolate them (docs/kernel-isolation.md)")

    async def start(self) -> KernelSession:
        private_dir = self.launch.private_dir(uuid.uuid4().hex)
        try:
            session = await KernelSession.start(
                kernel_name=self.config.kernel_name,
                transport=self.config.kernel_transport,
                runtime_dir=private_dir,
                env=self.launch.environment(private_dir),
                timeout=self.config.kernel_start_timeout,
                launch=self.launch.popen_kwargs(private_dir),
                kernel_arguments=(NOT_DUMPABLE_LINE,),
            )
        except KernelStartError:
            shutil.rmtree(private_dir, ignore_errors=True)
            raise
        forget_connection_file(session.km.connection_file)
        return session

    async def stop(self, session: KernelSession, now: bool = False) -> None:
        try:
            await session.shutdown(now=now)
        finally:
            if session.runtime_dir is not None:
                shutil.rmtree(session.runtime_dir, ignore_errors=True)

    async def close(self) -> None:
        shutil.rmtree(self.launch.root, ignore_errors=True)


class GatewayKernels:
    """Kernels on a gateway. Isolation and limits are the gateway's (its kernelspecs and
    provisioners): this service's kernel_user and kernel_*_limit settings do not apply."""

    def __init__(self, config: EngineConfig):
        self.config = config
        self.options = GatewayOptions.from_config(config)
        self.where = self.options.url
        self.runtime_dir: Path | None = None
        self._http: httpx.AsyncClient | None = None  # made inside the running loop
        self._cleanups: set[asyncio.Future[None]] = set()

    async def start(self) -> KernelSession:
        if self._http is None:
            self._http = self.options.http_client()
        km = GatewayKernelManager(self.options, self._http)
        try:
            await self._create(km)
            kc = km.client()
            await kc.start_channels()
        except BaseException as exc:
            if km.kernel_id is not None:
                await self._delete_quietly(km)
            if isinstance(exc, (httpx.HTTPError, GatewayError, OSError, TimeoutError)):
                raise KernelStartError(f"gateway {self.where}: {exc or type(exc).__name__}"
                                       ) from exc
            raise
        return await KernelSession.attach(km, kc, None, self.config.kernel_start_timeout)

    async def stop(self, session: KernelSession, now: bool = False) -> None:
        await session.shutdown(now=now)

    async def close(self) -> None:
        if self._cleanups:
            await asyncio.gather(*self._cleanups, return_exceptions=True)
        if self._http is not None:
            await self._http.aclose()

    async def _create(self, km: GatewayKernelManager) -> None:
        """POST the kernel, shielded: a start cancelled mid-request (the pool closing) still
        learns the kernel's id and deletes it, instead of leaving it running on the gateway."""
        # Enterprise Gateway reads KERNEL_* variables (the launch timeout of a kernel pod)
        env = {"KERNEL_LAUNCH_TIMEOUT": str(int(self.config.kernel_start_timeout))}
        task = asyncio.ensure_future(km.start_kernel(env=env))
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cleanup = asyncio.ensure_future(self._delete_after(task, km))
            self._cleanups.add(cleanup)
            cleanup.add_done_callback(self._cleanups.discard)
            raise

    async def _delete_after(self, task: asyncio.Future[None], km: GatewayKernelManager) -> None:
        with contextlib.suppress(Exception):
            await task
        if km.kernel_id is not None:
            await self._delete_quietly(km)

    async def _delete_quietly(self, km: GatewayKernelManager) -> None:
        try:
            await km.shutdown_kernel(now=True)
        except Exception as exc:
            log.warning("gateway kernel %s not deleted: %s", km.kernel_id, exc)
