"""Engine configuration: the knobs the services read.

`app.settings.Settings` extends this model with the HTTP-facing settings and the env/TOML
sources, so there is one Settings object while `services` never imports `app`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, SecretStr, field_validator


class EngineConfig(BaseModel):
    data_dir: Path = Field(Path("nbcritic-data"), description="Notebooks and the SQLite journal.")
    kernel_name: str = Field("python3", description="Jupyter kernelspec for new kernels.")
    kernel_transport: Literal["ipc", "tcp"] = Field(
        "ipc",
        description="ipc avoids the TCP port race of kernels started together.",
    )
    pool_size: int = Field(2, ge=0, le=64, description="Warm kernels kept pre-started.")
    kernel_start_timeout: float = Field(60.0, gt=0)
    cell_timeout: float = Field(120.0, gt=0, description="Seconds before a cell is interrupted.")
    interrupt_grace: float = Field(
        5.0, gt=0, description="Seconds to wait after an interrupt before restarting the kernel."
    )
    idle_kernel_timeout: float = Field(
        3600.0, ge=0, description="Idle seconds before a notebook kernel is shut (0: never)."
    )
    output_budget_bytes: int = Field(
        1_000_000, ge=1024, description="Per-cell output kept; beyond it head and tail are kept."
    )
    fsync_writes: bool = Field(True, description="fsync notebook files before the atomic rename.")
    kernel_env_allow: list[str] = Field(
        default_factory=list,
        description="Environment variable names (or `PREFIX*` patterns) passed to kernels "
        "besides what a kernel needs (PATH, HOME, LANG, LC_*, Python/Jupyter paths); nothing "
        "else of the service's environment reaches a kernel.",
    )
    kernel_env_denylist: list[str] = Field(
        default_factory=list,
        description="Environment variable names never passed to kernels, even when allowed.",
    )
    kernel_memory_limit_mb: int = Field(
        8192, ge=0, description="Address space of one kernel process in MiB (0: no limit); "
        "past it allocations fail (MemoryError in the cell). Address space, not resident "
        "memory: libraries that reserve much of it (many threads, GPU runtimes) need more.",
    )
    kernel_max_processes: int = Field(
        0, ge=0, description="Processes and threads a kernel may start (RLIMIT_NPROC, counted "
        "per user id: use it with kernel_user; 0: no limit).",
    )
    kernel_max_file_mb: int = Field(
        4096, ge=0, description="Largest file a kernel may write, in MiB (0: no limit).",
    )
    kernel_cpu_limit_seconds: int = Field(
        0, ge=0, description="CPU seconds one kernel process may use in its life (0: no "
        "limit); past it the kernel ends (dead_kernel, reason cpu_limit).",
    )
    kernel_user: str | None = Field(
        None, description="Run kernels as this unprivileged user (the service must run as "
        "root); unset: kernels run as the service's user (see docs/security.md).",
    )
    journal_keep_executions: int = Field(
        20, ge=0, description="Per notebook, the newest executions whose output events and "
        "result outputs the journal keeps in full; older ones keep statuses, errors, critiques "
        "and attempts, not outputs (0: keep everything). The notebook holds current outputs."
    )
    # -- the critic ---------------------------------------------------------------------
    critic_enabled: bool = Field(True, description="Review every successful cell.")
    critic_min_confidence: float = Field(
        0.8, ge=0, le=1, description="A critical finding blocks only at or above this confidence."
    )
    critic_disabled_rules: list[str] = Field(
        default_factory=list,
        description="Rule ids, families or id prefixes (`leakage.*`) never run; `claude` turns "
        "the Claude critic off.",
    )
    critic_llm: bool = Field(
        True, description="Use the Claude critic too when an Anthropic API key is configured."
    )
    critic_trace: bool = Field(
        True, description="Record the analysis trace in the kernel while a reviewed cell runs "
        "(library operations with row lineage; services/trace_catalogue.json lists them)."
    )
    critic_workers: int = Field(
        2, ge=1, le=32, description="Worker threads for the critic's parsing and rules (off "
        "the event loop); more reviews at once wait their turn."
    )
    introspection_budget_ms: float = Field(
        25.0, gt=0, description="CPU time the kernel may spend reading facts for the critic "
        "(counted in CPU time so a loaded machine does not cut them short; wall clock capped "
        "at 8x)."
    )
    introspection_timeout: float = Field(
        5.0, gt=0, description="Seconds before an introspection request is abandoned."
    )
    # -- the retry loop -------------------------------------------------------------------
    auto_fix: bool = Field(
        True, description="Rewrite failing or blocked cells with the code generator (when one "
        "is configured)."
    )
    max_error_retries: int = Field(
        3, ge=0, le=20, description="Rewrites allowed after runtime errors, per cell run."
    )
    max_critique_retries: int = Field(
        2, ge=0, le=20, description="Rewrites allowed after ScientificValidityErrors, per cell run."
    )
    cell_token_budget: int = Field(
        60_000, ge=0,
        description="Generator tokens (in + out) one cell run may spend (0: no limit).",
    )
    replay_before_retry: bool = Field(
        False, description="Before a retry, start a fresh kernel and re-run the earlier cells "
        "(for attempts that leave the namespace dirty)."
    )
    feedback_max_chars: int = Field(
        4000, ge=200, description="Longest feedback text sent to the generator for one retry."
    )
    context_max_chars: int = Field(
        12_000, ge=500, description="Budget for earlier cells, variables and lessons in prompts."
    )
    # -- learning across runs (lessons, self-checks, plans, reflection) ------------------
    learning_db: Path | None = Field(
        None, description="SQLite file of lessons and improvement requests (default: "
        "DATA_DIR/learning.sqlite3)."
    )
    lessons_enabled: bool = Field(
        True, description="Write lessons from fixed and escalated cells, and give the relevant "
        "ones to the code generator."
    )
    lessons_in_prompt: int = Field(
        5, ge=0, le=50, description="Most lessons put into one generator prompt."
    )
    lessons_max_chars: int = Field(
        1500, ge=100, description="Character budget of the lessons in one generator prompt."
    )
    lessons_min_relevance: float = Field(
        1.0, ge=0, le=100, description="Floor of a lesson's relevance score (services/"
        "lesson_relevance.py): below it a lesson is not sent at all. 1.0: a rule of the same "
        "family, the same exception, or a third of the cell's words in common; sharing a "
        "library alone never reaches it."
    )
    lessons_max_per_category: int = Field(
        20, ge=1, le=10_000, description="Lessons kept per category; beyond it the store is "
        "pruned (by Claude when configured, else oldest and least encountered first)."
    )
    planning: bool = Field(
        False, description="Before generating a prompt cell's code, have the model write a "
        "plan (off by default for speed; `nbcritic.planning` in cell metadata turns it on)."
    )
    reflection_auto: bool = Field(
        True, description="Reflect on the journal after every run-all and `nbcritic run`."
    )
    slow_cell_seconds: float = Field(
        30.0, gt=0, description="A cell slower than this is reported by the reflection."
    )
    improvements_enabled: bool = Field(
        True, description="Turn reflections worth acting on into improvement requests (off: "
        "no requests, no sinks)."
    )
    improvement_cooldown: float = Field(
        3600.0, ge=0, description="Seconds during which one pattern yields one request "
        "(per notebook, or across notebooks: `improvement_cooldown_scope`)."
    )
    improvement_cooldown_scope: Literal["notebook", "pattern"] = Field(
        "notebook", description="What one cooldown window covers: `notebook` - a pattern in "
        "one notebook (another notebook with the same pattern gets its own request); "
        "`pattern` - a pattern in any notebook (one request for all of them)."
    )
    improvement_webhook_url: str | None = Field(
        None, description="POST each improvement request as JSON to this URL."
    )
    improvement_webhook_attempts: int = Field(
        3, ge=1, le=10, description="Attempts per webhook delivery: a refused connection, a "
        "timeout, 408, 429 or 5xx is retried after 0.5 s, 1 s, 2 s, ... (a Retry-After up to "
        "30 s is honoured); other answers are final."
    )
    github_repo: str | None = Field(
        None, description="owner/name: open each improvement request as a GitHub issue "
        "(needs NBCRITIC_GITHUB_TOKEN)."
    )
    github_api_url: str = Field("https://api.github.com", description="GitHub REST API root.")
    # -- scale-out: kernels through a gateway (docs/scale-out.md) --------------------------
    gateway_url: str | None = Field(
        None, description="http(s) URL of a Jupyter Kernel Gateway or Enterprise Gateway: "
        "kernels run there instead of on this machine (unset: local kernels).",
        pattern=r"^https?://",
    )
    gateway_token: SecretStr | None = Field(
        None, description="The gateway's auth token (sent as `Authorization: token ...`)."
    )
    gateway_kernel_name: str | None = Field(
        None, description="Kernelspec the gateway starts (default: kernel_name)."
    )
    gateway_connect_timeout: float = Field(
        20.0, gt=0, description="Seconds to open a connection (REST or a kernel's WebSocket)."
    )
    gateway_request_timeout: float = Field(
        120.0, gt=0, description="Seconds one gateway REST call may take (starting a kernel "
        "on a cluster can take long)."
    )
    database_url: SecretStr | None = Field(
        None, description="postgresql://user:password@host:port/database: the execution "
        "journal lives in this PostgreSQL database, which replicas share (schema migrated "
        "with Alembic at start); unset: SQLite in the data dir."
    )
    gateway_reconnect_attempts: int = Field(
        3, ge=0, le=20, description="Times a kernel's dropped WebSocket is reopened (backoff "
        "0.5 s, 1 s, 2 s, ...) before the kernel counts as dead."
    )

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(
                ("postgresql://", "postgres://")):
            raise ValueError("database_url must be a postgresql:// URL (unset: SQLite)")
        return value

    @property
    def database_url_text(self) -> str | None:
        return self.database_url.get_secret_value() if self.database_url else None

    @property
    def learning_path(self) -> Path:
        return self.learning_db or self.data_dir / "learning.sqlite3"
