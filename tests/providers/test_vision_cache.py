"""The vision cache in a store: a page image is described once per model and prompt; failures are asked again."""

from __future__ import annotations

from pathlib import Path

from index_store.cache import StoreVisionCache
from index_store.store import Store
from providers.usage import Usage
from providers.vision import vision_callable
from tests.providers.helpers import provider
from tests.support.openai_server import FakeOpenAI, Fault


def test_a_page_is_described_once_and_a_failure_is_not_kept(openai_server: FakeOpenAI, tmp_path: Path) -> None:
    openai_server.reply_fn = lambda rec: "A pump with the seal SK-220."
    store = Store(str(tmp_path / "index"))
    describe = vision_callable(provider(openai_server, vision_model="gpt-4o", max_retries=0), Usage(),
                               cache=StoreVisionCache(store))
    assert describe(b"page one") == "A pump with the seal SK-220." and openai_server.calls == 1
    again = vision_callable(provider(openai_server, vision_model="gpt-4o", max_retries=0), Usage(),
                            cache=StoreVisionCache(store))  # another document, another run: same store
    assert again(b"page one") == "A pump with the seal SK-220." and openai_server.calls == 1
    assert again.hits == 1 and again.keys == describe.keys

    openai_server.fail_all(Fault.server_error(500))
    assert again(b"page two") is None  # the model failed: nothing stored
    openai_server.fail_all(None)
    assert again(b"page two") == "A pump with the seal SK-220." and openai_server.calls == 3
    assert len(list(store.backend.list_keys("cache/vision/"))) == 2

    other_model = vision_callable(provider(openai_server, vision_model="gpt-4o-mini", max_retries=0), Usage(),
                                  cache=StoreVisionCache(store))
    other_model(b"page one")  # another model: another key
    assert openai_server.calls == 4
