"""One bottleneck statement per group (backend/modelfit/bottlenecks.py)."""

from backend.modelfit.bottlenecks import WHY_THEY_DIFFER, ModelBottleneck, component, statement


def _m(model: str, resource: str, basis: str) -> ModelBottleneck:
    return ModelBottleneck(model, resource, component(resource), basis, "")


def test_every_model_names_its_resources_in_one_vocabulary() -> None:
    assert component("net_thread_0") == component("workers_0") == "middleware 0"
    assert component("middleware middleware:0") == "middleware 0"
    assert component("memcached_1") == component("memcached server:1") == "memcached server 1"
    assert component("CPU of local") == "host local"
    assert component("network of client (2 x 940 Mbit/s)") == "network of the clients"


def test_models_that_agree_give_one_name() -> None:
    text, agree = statement(
        [
            _m("MVA", "memcached_0", "fitted service demands"),
            _m("demand model", "memcached server:0", "measured CPU"),
        ]
    )
    assert agree and text == "memcached server 0 (MVA and demand model agree)"


def test_models_that_differ_each_say_their_basis_and_why() -> None:
    text, agree = statement(
        [
            _m("MVA", "net_thread_0", "fitted service demands"),
            _m("demand model", "CPU of local", "measured CPU"),
        ]
    )
    assert not agree
    assert "MVA: net_thread_0 from fitted service demands" in text
    assert "demand model: CPU of local from measured CPU" in text
    assert text.endswith(WHY_THEY_DIFFER)
