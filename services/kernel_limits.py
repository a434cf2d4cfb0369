"""Per-kernel resource limits (memory, processes, file size, CPU time), applied in the kernel
process before it runs Python, and the typed reason when a kernel ends on one.

The limits are rlimits: set in the child between fork and exec (hard = soft, so user code
cannot raise them back), inherited by anything the kernel starts. What a hit looks like:
- memory (address space): an allocation fails; Python raises MemoryError in the cell and the
  kernel lives (status `error`, reason `memory_limit`); a C library that cannot recover kills
  the kernel (status `dead_kernel`, reason `memory_limit`).
- CPU seconds (the kernel's whole life, not per cell): SIGXCPU ends the kernel (`cpu_limit`).
- file size: a write past it fails with OSError EFBIG ("File too large") in the cell.
- processes: a fork or thread past it fails in the cell (counted per user id by the OS, so the
  limit is only meaningful when kernels run under their own identity).
"""

from __future__ import annotations

import resource
import signal
from dataclasses import dataclass
from typing import Any

MIB = 1024 * 1024
CPU_GRACE = 2  # seconds between SIGXCPU and SIGKILL


@dataclass(frozen=True)
class KernelLimits:
    memory_mb: int = 0  # address space; 0: no limit
    processes: int = 0
    file_mb: int = 0
    cpu_seconds: int = 0

    @classmethod
    def from_config(cls, config: Any) -> KernelLimits:
        return cls(memory_mb=config.kernel_memory_limit_mb,
                   processes=config.kernel_max_processes,
                   file_mb=config.kernel_max_file_mb,
                   cpu_seconds=config.kernel_cpu_limit_seconds)

    def rlimits(self) -> list[tuple[int, int]]:
        """(resource, value) pairs for the limits that are set."""
        pairs = [(resource.RLIMIT_AS, self.memory_mb * MIB),
                 (resource.RLIMIT_NPROC, self.processes),
                 (resource.RLIMIT_FSIZE, self.file_mb * MIB),
                 (resource.RLIMIT_CPU, self.cpu_seconds)]
        return [(which, value) for which, value in pairs if value > 0]

    def apply(self) -> None:
        """In the kernel process (a preexec function): lower soft and hard limits. The CPU
        hard limit is a little later than the soft one, so the kernel ends on SIGXCPU (a
        reason one can tell) rather than SIGKILL."""
        for which, value in self.rlimits():
            _, hard = resource.getrlimit(which)
            top = value + CPU_GRACE if which == resource.RLIMIT_CPU else value
            if hard != resource.RLIM_INFINITY:
                value, top = min(value, hard), min(top, hard)
            resource.setrlimit(which, (value, top))

    def describe(self, reason: str) -> str:
        return {
            "memory_limit": f"its memory limit ({self.memory_mb} MiB of address space)",
            "cpu_limit": f"its CPU time limit ({self.cpu_seconds} s for the kernel's life)",
            "file_size_limit": f"its file size limit ({self.file_mb} MiB)",
        }.get(reason, reason)


_SIGNAL_REASONS: dict[int, str] = {signal.SIGXCPU: "cpu_limit", signal.SIGXFSZ: "file_size_limit"}
# How a process dies when an allocation fails below C code that cannot report it.
_ALLOCATION_DEATHS: set[int] = {signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS}


def death_reason(returncode: int | None, limits: KernelLimits) -> str | None:
    """Why a kernel that died ended, when a limit explains it (None: unknown)."""
    if returncode is None or returncode >= 0:
        return None
    sig = -returncode
    if sig in _SIGNAL_REASONS:
        return _SIGNAL_REASONS[sig]
    if limits.memory_mb and sig in _ALLOCATION_DEATHS:
        return "memory_limit"
    return None


def error_reason(ename: str, limits: KernelLimits) -> str | None:
    """The limit behind an error a cell raised, when a limit explains it."""
    if ename == "MemoryError" and limits.memory_mb:
        return "memory_limit"
    return None


async def exit_code(km: Any) -> int | None:
    """The exit code of a kernel process that ended (None: running, or not known)."""
    provisioner = getattr(km, "provisioner", None)
    if provisioner is None:
        return None
    try:
        return await provisioner.poll()
    except Exception:
        return None


def with_limit_reason(error: dict[str, Any] | None, returncode: int | None,
                      limits: KernelLimits) -> dict[str, Any] | None:
    """The error with `reason` (memory_limit, cpu_limit, ...) when a limit explains it; a
    copy, so an nbformat error output it came from keeps its shape."""
    if error is None:
        return None
    if error.get("ename") == "DeadKernelError":
        reason = death_reason(returncode, limits)
        if reason is None:
            return error
        return {**error, "reason": reason, "evalue": (
            f"the kernel ended on {limits.describe(reason)}; the notebook gets a fresh "
            "kernel on the next execution")}
    reason = error_reason(str(error.get("ename", "")), limits)
    return error if reason is None else {**error, "reason": reason}
