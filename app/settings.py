"""The one Settings object: env vars `NBCRITIC_*`, an optional TOML file, and defaults.

It extends the engine's `EngineConfig` with what only the faces need (bind address, token,
CORS, body limit, LLM credentials), so services receive it without importing `app`.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from services.cell_plan import Planner
from services.cell_review import CellReviewer
from services.code_generator import CodeGenerator
from services.config import EngineConfig
from services.improvement_sinks import GitHubIssueSink, Sink, SinkConfigError, WebhookSink
from services.learning import Learning
from services.lesson_pruning import LessonPruner

CONFIG_ENV = "NBCRITIC_CONFIG"  # path of an optional TOML file


class Settings(EngineConfig, BaseSettings):
    model_config = SettingsConfigDict(env_prefix="NBCRITIC_", extra="ignore")

    host: str = Field("127.0.0.1", description="Bind address; loopback unless asked otherwise.")
    port: int = Field(8765, ge=0, le=65535)
    token: SecretStr | None = Field(None, description="Bearer token; generated when unset.")
    cors_origins: list[str] = Field(default_factory=list, description="CORS off when empty.")
    max_body_bytes: int = Field(25 * 1024 * 1024, ge=1024,
                                description="Largest request body or upload accepted (413).")
    header_timeout: float = Field(
        10.0, gt=0, le=600, description="Seconds a new connection has to send its request "
        "headers; then it is closed (slow-header connections are not held).")
    shutdown_timeout: float = Field(
        5.0, gt=0, le=600, description="Seconds `nbcritic serve` waits for open connections "
        "after SIGTERM, once running executions are ended `aborted`; then it closes them and "
        "stops the kernels.")
    anthropic_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("ANTHROPIC_API_KEY", "NBCRITIC_ANTHROPIC_API_KEY"))
    anthropic_base_url: str | None = Field(
        None, validation_alias=AliasChoices("ANTHROPIC_BASE_URL", "NBCRITIC_ANTHROPIC_BASE_URL"))
    model: str = Field("claude-sonnet-5-5", description="Claude model for generation and critique.")
    llm_timeout: float = Field(30.0, gt=0, description="Seconds per Anthropic API attempt.")
    llm_max_retries: int = Field(2, ge=0, le=10,
                                 description="Retries after a 429/5xx/timeout (bounded backoff).")

    generator_max_tokens: int = Field(4096, ge=256, le=64_000,
                                      description="Largest reply of the code generator.")
    generator_temperature: float | None = Field(
        None, ge=0, le=1, description="Sampling temperature of the generator; unset: the "
        "model's default (some recent models refuse the parameter).")

    critic_temperature: float | None = Field(
        0.0, ge=0, le=1, description="Sampling temperature of the Claude critic (0: the same "
        "cell gets the same review); unset: not sent, for models that refuse it.")
    critic_llm_deadline: float = Field(
        15.0, gt=0, le=600, description="Seconds the Claude critic may take to review one cell, "
        "its API retries and waits included; after it the rules' critique stands and "
        "`critique.errors` says the LLM timed out.")
    critic_llm_blocks_alone: bool = Field(
        False, description="Let a Claude finding block a cell on the model's word alone. Off: "
        "it blocks only when a rule or kernel fact corroborates it, else it is at most high.")

    github_token: SecretStr | None = Field(
        None, description="Token for opening improvement requests as GitHub issues.")

    def sink_problem(self) -> str | None:
        """What keeps a configured improvement sink from working, naming the setting (None:
        nothing). Only what delivers requests refuses to start over it (`build_sinks`):
        reading or editing lessons needs no sink."""
        if self.github_repo and self.github_token is None:
            return ("github_repo is set but github_token (NBCRITIC_GITHUB_TOKEN) is not: "
                    "GitHub issues need a token")
        try:
            self._sinks()
        except SinkConfigError as exc:
            setting = {"url": "improvement_webhook_url", "repo": "github_repo",
                       "api_url": "github_api_url", "token": "github_token"}
            field, _, problem = str(exc).partition(": ")
            return f"{setting.get(field, field)}: {problem}"
        return None

    def _client(self) -> Any:
        from services.anthropic_client import make_async_client

        assert self.anthropic_api_key is not None
        return make_async_client(self.anthropic_api_key.get_secret_value(),
                                 base_url=self.anthropic_base_url, timeout=self.llm_timeout,
                                 max_retries=self.llm_max_retries)

    def build_generator(self) -> CodeGenerator | None:
        """Claude writes and fixes code when an API key is set; None otherwise (prompt
        cells get 409, failing cells keep their error)."""
        if self.anthropic_api_key is None:
            return None
        from services.claude_generator import ClaudeCodeGenerator

        return ClaudeCodeGenerator(self._client(), model=self.model,
                                   max_tokens=self.generator_max_tokens,
                                   temperature=self.generator_temperature)

    def build_planner(self) -> Planner | None:
        """Claude writes pre-run plans when a key is set (used only where planning is on)."""
        if self.anthropic_api_key is None:
            return None
        from services.cell_plan import ClaudePlanner

        return ClaudePlanner(self._client(), model=self.model,
                             temperature=self.generator_temperature)

    def build_pruner(self) -> LessonPruner | None:
        """Claude chooses which lessons to drop when a category is full; without a key the
        oldest, least encountered go first."""
        if self.anthropic_api_key is None:
            return None
        from services.lesson_pruning import ClaudeLessonPruner

        return ClaudeLessonPruner(self._client(), model=self.model)

    def build_sinks(self) -> list[Sink]:
        """Where improvement requests go besides the local queue; a sink that cannot work
        is a `SinkConfigError` naming the setting (a silent no-op would lose requests)."""
        problem = self.sink_problem()
        if problem:
            raise SinkConfigError(problem)
        return self._sinks()

    def _sinks(self) -> list[Sink]:
        sinks: list[Sink] = []
        if self.improvement_webhook_url:
            sinks.append(WebhookSink(self.improvement_webhook_url,
                                     attempts=self.improvement_webhook_attempts))
        if self.github_repo and self.github_token is not None:
            sinks.append(GitHubIssueSink(self.github_repo, self.github_token.get_secret_value(),
                                         api_url=self.github_api_url))
        return sinks

    def build_learning(self, *, deliver: bool = True) -> Learning:
        """`deliver=False`: no sinks (the lessons and queue commands deliver nothing, so a
        misconfigured sink does not stop them)."""
        return Learning(self, pruner=self.build_pruner(),
                        sinks=self.build_sinks() if deliver else [])

    def build_reviewer(self) -> CellReviewer:
        """The critic step, with the Claude critic when a key is set and `critic_llm` is on."""
        llm = None
        if self.critic_llm and self.anthropic_api_key is not None:
            from critics.claude_critic import ClaudeCritic

            llm = ClaudeCritic(self._client(), model=self.model,
                               temperature=self.critic_temperature,
                               blocks_alone=self.critic_llm_blocks_alone,
                               deadline=self.critic_llm_deadline)
        return CellReviewer(self, llm=llm)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        toml_path = os.environ.get(CONFIG_ENV)
        if toml_path:
            if not Path(toml_path).is_file():
                raise FileNotFoundError(f"{CONFIG_ENV}={toml_path}: no such file")
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml_path))
        return tuple(sources)

    def ensure_token(self) -> str:
        """The configured token, or a fresh one (the CLI prints it)."""
        if self.token is None or not self.token.get_secret_value():
            self.token = SecretStr(secrets.token_urlsafe(24))
        return self.token.get_secret_value()
