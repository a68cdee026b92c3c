"""The acting phone's answer first: the table publishes the acting station's view before it
builds the others, and waits (a bounded moment) for the web thread to send the phone its
frame; a seat no phone holds never waits."""

from __future__ import annotations

import asyncio
import threading

from pitboard.table.feed import TableFeed
from pitboard.table.view import StationView
from pitboard.web.hub import Client, Hub


def _feed(handled: int, title: str) -> TableFeed:
    views = (StationView("lobby", 0, title=title), StationView("lobby", 1, title="S2"))
    return TableFeed("lobby", views, handled=(handled, 0))


def test_the_answer_is_waited_for_only_until_it_is_sent() -> None:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        hub = Hub(clock=lambda: 0.0)
        hub.attach(loop)
        hub.publish(_feed(0, "S1"))
        client = Client(address="10.0.0.5", clock=lambda: 0.0)
        client.seat = 0

        def seat() -> None:
            hub.clients.add(client)
            hub.note_input(client, 0, 1)  # the phone tapped: its input 1 is posted

        asyncio.run_coroutine_threadsafe(asyncio.to_thread(seat), loop).result(5)
        hub.publish(_feed(1, "S1 answered"))  # the table handled it
        # the web thread takes the feed and wakes the phone; its frame is not sent yet
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), loop).result(5)
        assert client.wake.is_set() and hub.answers_input(client)
        assert hub.handover(1, timeout=0)  # nobody's phone at station 2: no wait
        assert not hub.handover(0, timeout=0)  # the phone's answer is not sent yet
        loop.call_soon_threadsafe(hub.sent, client)  # the sender sent the frame
        assert hub.handover(0, timeout=60)  # returns once it is sent (not after 60 s)
        assert hub.frame(client) is not None  # (what the sender sends)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def test_a_phone_that_went_away_is_not_waited_for() -> None:
    hub = Hub(clock=lambda: 0.0)
    client = Client(address="10.0.0.5", clock=lambda: 0.0)
    client.seat = 0
    hub.clients.add(client)
    hub.apply(_feed(0, "S1"))
    hub.note_input(client, 0, 1)
    hub.apply(_feed(1, "S1 answered"))
    assert not hub.handover(0, timeout=0)
    hub.clients.discard(client)  # what Seats.disconnected does
    hub.sent(client)
    assert hub.handover(0, timeout=0)
