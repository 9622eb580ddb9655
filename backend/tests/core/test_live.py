"""Live event channels are named per database, so instances sharing one Redis stay apart."""

from sqlalchemy.engine import make_url

from backend.core.config import settings
from backend.core.live import experiment_channel


def test_experiment_channel_differs_per_database() -> None:
    a = "postgresql+psycopg://postgres@127.0.0.1:5432/mcscope_e2e_1"
    b = "postgresql+psycopg://postgres@127.0.0.1:5432/mcscope_e2e_2"
    assert experiment_channel(1, a) == "mcscope:mcscope_e2e_1:experiment:1"
    assert experiment_channel(1, b) == "mcscope:mcscope_e2e_2:experiment:1"
    assert experiment_channel(1, a) != experiment_channel(2, a)


def test_experiment_channel_defaults_to_this_instance_database() -> None:
    database = make_url(settings.DATABASE_URL).database
    assert experiment_channel(5) == f"mcscope:{database}:experiment:5"
