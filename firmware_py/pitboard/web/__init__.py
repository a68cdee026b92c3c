"""Phones as stations: a web server inside the device's process (``[web]`` in the profile).

A phone opens the address the lobby shows, types the join code and a name, and is a station:
the hand as cards, the gear lever, GO, every screen an OLED station shows -- drawn from the
same :class:`~pitboard.table.view.StationView` the table builds for its OLEDs, turned into
JSON beside it (:mod:`pitboard.table.view_json`). A tap means what the tray button under that
spot of an OLED means; it is posted to the table as the same
:class:`~pitboard.hw.events.StationEvent` a wired station posts.

Like the serial console, the server is a client beside the table, never a part of it (the
split of Moonraker beside Klipper): it reads the views the table hands its view observers
(:class:`~pitboard.table.feed.TableFeed`, on the game thread, stored in one slot) and posts
events; it never reads the table or the race and never runs code on the game thread.

The package, one concern per file (imports flow down this list; none imports the table)::

    protocol.py  the phone's messages, checked at the edge (no I/O: fuzzed)
    keys.py      seat tokens
    limits.py    connection, rate and guessing bounds
    hub.py       the table's views -> each phone's latest frame
    session.py   what each message does (join, resume, inputs, staff)
    server.py    aiohttp: the thread, the routes, the static files, the WebSocket
    wiring.py    a profile's [web] -> the table's phone seats and the running server
    static/      the page: index.html, app.js, style.css (hand-written, no build step)

Only :mod:`.wiring` is imported by ``pitboard run``; aiohttp loads when a server starts.

The next page on this server (a TV's track view, read-only) is one more route in
:mod:`.server` and one more observer of the same feed: ``TableFeed.race_control`` is there
for it, as JSON by :func:`~pitboard.table.view_json.race_control_dict`.
"""
