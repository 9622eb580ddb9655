"""An experiment: a grid of factors x repetitions, and the configurations it expands to."""

from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, Integer, String, UniqueConstraint, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column, relationship

from backend.domain.grid import in_order
from backend.domain.imported import EXPERIMENT_DESIGNED
from backend.domain.templates import Template
from backend.models.base import Base, TimestampMixin
from backend.models.enums import template_enum


class Experiment(TimestampMixin, Base):
    __tablename__ = "experiments"
    __table_args__ = (CheckConstraint("kind IN ('designed', 'imported')", name="kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    description: Mapped[str] = mapped_column(String(10_000), default="")
    template: Mapped[Template] = mapped_column(template_enum, index=True)
    # factor name -> ordered list of levels, in `factor_order` (JSONB reorders object keys,
    # so the user's order is stored beside them); read and write both through `factors`.
    factor_levels: Mapped[dict[str, list[Any]]] = mapped_column("factors", JSONB)
    factor_order: Mapped[list[str]] = mapped_column(
        JSONB, default=list, server_default=text("'[]'::jsonb")
    )
    # fixed: parameter name -> value.
    fixed: Mapped[dict[str, Any]] = mapped_column(JSONB)
    repetitions: Mapped[int] = mapped_column(Integer)
    run_time_s: Mapped[int] = mapped_column(Integer)
    warmup_s: Mapped[int] = mapped_column(Integer)
    cooldown_s: Mapped[int] = mapped_column(Integer)
    testbed_id: Mapped[int | None] = mapped_column(
        ForeignKey("testbeds.id", ondelete="RESTRICT"), index=True
    )
    # The repetition rule (backend.schemas.repetition_rule), None for fixed repetitions; set
    # with the design, so it cannot change once runs exist.
    repetition_rule: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    # A 2^(k-p) fraction as designed ({"generators": [...]} or {"resolution": n}); None: the
    # full grid. The generators it resolves to are derived (backend.domain.fraction.resolve).
    fraction: Mapped[dict[str, Any] | None] = mapped_column(JSONB, nullable=True)
    # A latency-SLO search (backend.schemas.slo.SloSearchSpec as JSON), None for a grid: its
    # configurations are the rates probed, added one at a time by the search task.
    slo_search: Mapped[dict[str, Any] | None] = mapped_column(JSONB, nullable=True)
    # "designed" (its runs are started here) or "imported" (its runs were brought in from
    # earlier tool outputs, worker/imports; migration 0029): an imported one never starts.
    kind: Mapped[str] = mapped_column(
        String(20), default=EXPERIMENT_DESIGNED, server_default=EXPERIMENT_DESIGNED
    )
    # An imported experiment's origin: {"source": upload or folder name, "imported_at": ISO
    # time, "files": count}; None for a designed one.
    provenance: Mapped[dict[str, Any] | None] = mapped_column(JSONB, nullable=True)

    @property
    def factors(self) -> dict[str, list[Any]]:
        """Factor -> levels in the user's order (the first factor is the default x axis)."""
        return in_order(self.factor_levels or {}, self.factor_order or [])

    @factors.setter
    def factors(self, value: dict[str, list[Any]]) -> None:
        self.factor_levels = dict(value)
        self.factor_order = list(value)

    configurations: Mapped[list["Configuration"]] = relationship(
        back_populates="experiment",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="Configuration.index",
    )


class Configuration(Base):
    """One point of the grid: the factor values (fixed values live on the experiment)."""

    __tablename__ = "configurations"
    __table_args__ = (
        UniqueConstraint("experiment_id", "index"),
        UniqueConstraint("experiment_id", "values"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    experiment_id: Mapped[int] = mapped_column(
        ForeignKey("experiments.id", ondelete="CASCADE"), index=True
    )
    index: Mapped[int] = mapped_column(Integer)
    values: Mapped[dict[str, Any]] = mapped_column(JSONB)

    experiment: Mapped[Experiment] = relationship(back_populates="configurations")
