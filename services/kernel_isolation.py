"""How a kernel process is started apart from the service and from other kernels.

- A private runtime dir (0700) per kernel, holding its connection file and IPC sockets; the
  connection file (the HMAC key) is removed once the kernel is ready, so no key of a running
  kernel lies on disk. The runtime root is cleaned at start (kernels of a killed service).
- The environment is an allowlist (`services.kernel_env`).
- Resource limits (`services.kernel_limits`) are set in the child before it runs Python.
- Optionally its own unprivileged identity (`kernel_user`, when the service runs as root):
  the kernel then cannot read the service's files, environment or memory, nor signal it.
- The service process makes itself non-dumpable, so a kernel under the service's own user
  cannot read `/proc/<service>/environ` or its memory; each kernel does the same at start, so
  another kernel cannot read its key from memory either.
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import pwd
import secrets
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .kernel_env import kernel_environment
from .kernel_limits import KernelLimits

log = logging.getLogger(__name__)

PR_SET_DUMPABLE = 4
# Run by the kernel at start: a statement, so it leaves no name, output or history behind.
NOT_DUMPABLE_LINE = ("--IPKernelApp.exec_lines=["
                     "'if __import__(\"ctypes\").CDLL(None).prctl(4, 0, 0, 0, 0): pass']")


class KernelIsolationError(RuntimeError):
    """A kernel isolation setting that cannot work here (a configuration error)."""


@dataclass(frozen=True)
class KernelIdentity:
    user: str
    uid: int
    gid: int

    @classmethod
    def resolve(cls, user: str | None) -> KernelIdentity | None:
        if not user:
            return None
        try:
            entry = pwd.getpwnam(user)
        except KeyError:
            raise KernelIsolationError(f"kernel_user {user!r}: no such user") from None
        if entry.pw_uid == 0:
            raise KernelIsolationError("kernel_user must be an unprivileged user, not root")
        if os.geteuid() != 0:
            raise KernelIsolationError(
                f"kernel_user {user!r} needs the service to run as root (it starts kernels "
                "as that user); unset it to run kernels as the service's own user")
        return cls(user, entry.pw_uid, entry.pw_gid)

    def can_execute(self, path: Path) -> bool:
        """Whether this user may run `path`: every directory on the way searchable, the file
        executable (by the owner, group or other bits that apply to this user)."""
        target = path.resolve()
        return all(self._may(p, 0o1) for p in target.parents) and self._may(target, 0o1)

    def _may(self, path: Path, bit: int) -> bool:
        info = path.stat()
        if info.st_uid == self.uid:
            return bool(info.st_mode & (bit << 6))
        if info.st_gid == self.gid:
            return bool(info.st_mode & (bit << 3))
        return bool(info.st_mode & bit)


def protect_service_process() -> bool:
    """Make this process non-dumpable: its /proc files (environ, mem) become root's and
    ptrace by the same user is refused. Linux only; False where it is not available."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def runtime_root(data_dir: Path, shared: bool) -> Path:
    """A short directory under the temp dir for this process's kernels of this data dir:
    `nbcritic-<uid>-<data dir hash>/<pid>-<random>/`. The dirs of processes that are gone (a
    killed service) are removed first; a live service on the same data dir (`nbcritic run`
    next to `nbcritic serve`) keeps its own. `shared`: other users may traverse the dirs
    (0711) to reach their own 0700 kernel dir, never list them."""
    digest = hashlib.sha256(str(data_dir.resolve()).encode()).hexdigest()[:10]
    base = Path(tempfile.gettempdir()) / f"nbcritic-{os.geteuid()}-{digest}"
    mode = 0o711 if shared else 0o700
    try:
        base.mkdir(mode=0o700)
    except FileExistsError:
        info = base.lstat()
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
            return Path(tempfile.mkdtemp(prefix="nbcritic-"))  # not ours: never trust it
        for stale in base.iterdir():
            if not _owner_alive(stale.name):
                log.info("removing the runtime files of kernels that did not stop: %s", stale)
                _remove(stale)
    base.chmod(mode)
    root = base / f"{os.getpid()}-{secrets.token_hex(3)}"
    root.mkdir(mode=0o700)
    root.chmod(mode)
    return root


def _owner_alive(name: str) -> bool:
    """Whether the process that made the dir `<pid>-<random>` still runs."""
    pid = name.split("-", 1)[0]
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


class KernelLaunch:
    """How the kernels of one pool start: dirs, environment, identity and limits."""

    def __init__(self, root: Path, limits: KernelLimits, identity: KernelIdentity | None,
                 allow: list[str], deny: list[str]) -> None:
        self.root = root
        self.limits = limits
        self.identity = identity
        self.allow = allow
        self.deny = deny

    @classmethod
    def from_config(cls, config: Any) -> KernelLaunch:
        identity = KernelIdentity.resolve(config.kernel_user)
        if identity is not None:
            _check_kernel_executable(config.kernel_name, identity)
        root = runtime_root(config.data_dir, shared=identity is not None)
        return cls(root, KernelLimits.from_config(config), identity,
                   list(config.kernel_env_allow), list(config.kernel_env_denylist))

    def private_dir(self, kernel_id: str) -> Path:
        path = self.root / f"k-{kernel_id[:12]}"
        path.mkdir(mode=0o700)
        if self.identity is not None:
            os.chown(path, self.identity.uid, self.identity.gid)
        return path

    def environment(self, private_dir: Path) -> dict[str, str]:
        env = kernel_environment(self.allow, self.deny)
        if self.identity is not None:  # the service's home is not the kernel's
            env.update(HOME=str(private_dir), USER=self.identity.user,
                       LOGNAME=self.identity.user)
        return env

    def popen_kwargs(self, private_dir: Path) -> dict[str, Any]:
        """Keyword arguments for Popen (through jupyter_client's start_kernel)."""
        kwargs: dict[str, Any] = {
            "preexec_fn": _enter_kernel(self.limits, self.identity, private_dir)}
        if self.identity is not None:
            kwargs["cwd"] = str(private_dir)  # the service's cwd may be closed to the kernel
        return kwargs


def _check_kernel_executable(kernel_name: str, identity: KernelIdentity) -> None:
    """Refuse at start a kernel_user that could not run the kernel (say, a Python under
    /root), rather than failing every kernel start later."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        argv0 = KernelSpecManager().get_kernel_spec(kernel_name).argv[0]
    except NoSuchKernel:
        return  # the kernel start reports it
    if argv0 in ("python", "python3", f"python{sys.version_info[0]}.{sys.version_info[1]}"):
        argv0 = sys.executable  # what jupyter_client runs for these
    found = shutil.which(argv0)
    if found and not identity.can_execute(Path(found)):
        raise KernelIsolationError(
            f"kernel_user {identity.user!r} cannot run the kernel's program "
            f"{Path(found).resolve()} (a "
            "directory on its path is closed to that user); install the kernel's Python "
            "where the user can reach it")


def _enter_kernel(limits: KernelLimits, identity: KernelIdentity | None,
                  private_dir: Path) -> Callable[[], None]:
    """The preexec function: only system calls, in the child between fork and exec. The
    connection file (the one file in the private dir then) is handed to the kernel's user."""

    def enter() -> None:
        if identity is not None:
            for name in os.listdir(private_dir):
                os.chown(private_dir / name, identity.uid, identity.gid)
            os.setgroups([])
            os.setgid(identity.gid)
            os.setuid(identity.uid)
        limits.apply()

    return enter


def forget_connection_file(path: str | os.PathLike[str]) -> None:
    """The kernel has read its key; the client keeps it in memory. A restart rewrites it."""
    Path(path).unlink(missing_ok=True)
