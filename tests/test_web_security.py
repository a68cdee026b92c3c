"""A store's network is not trusted: the server serves its own static files and nothing else
(path traversal tried), answers only for its own address (DNS rebinding) and only pages of
its own origin on the WebSocket, listens only where the profile says, and bounds connections,
message sizes and message rates. Every bad message gets one line, never a traceback."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from pathlib import Path

import aiohttp
import pytest

from phonekit import TIMEOUT, Phone, Served, run, served
from pitboard.hwconfig import load_profile, profiles_dir
from pitboard.web.limits import MAX_CONNECTIONS, MAX_REFUSED, MAX_SOCKETS_PER_ADDRESS
from pitboard.web.protocol import MAX_MESSAGE
from pitboard.web.server import static_files


def _http(s: Served, request: bytes) -> tuple[int, bytes, bytes]:
    """One raw HTTP request (exactly these bytes: no client normalises the path) and the
    status, headers and body of the answer."""
    host, port = s.server.address
    with socket.create_connection((host, port), timeout=TIMEOUT) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), head, body


def _get(s: Served, path: str, host: str | None = None, method: str = "GET"
         ) -> tuple[int, bytes, bytes]:
    host = "{}:{}".format(*s.server.address) if host is None else host
    return _http(s, f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
                 .encode())


# ---- files ------------------------------------------------------------------------------------

def test_the_page_and_its_files_with_their_security_headers() -> None:
    with served() as s:
        status, head, body = _get(s, "/")
        assert status == 200 and b"<title>Pitboard</title>" in body
        headers = head.decode().lower()
        for header in ("content-security-policy: default-src 'self'", "x-content-type-options: "
                       "nosniff", "referrer-policy: no-referrer", "x-frame-options: deny"):
            assert header in headers
        assert "set-cookie" not in headers  # no cookie: nothing for a forged request to ride
        assert _get(s, "/app.js")[0] == 200 and _get(s, "/style.css")[0] == 200
        assert _get(s, "/j/0427")[2] == body and _get(s, "/J/0427")[2] == body
        assert _get(s, "/", method="POST")[0] == 405


TRAVERSALS = [
    "/../hw_config/sim.toml", "/..%2fhw_config%2fsim.toml", "/%2e%2e/%2e%2e/etc/passwd",
    "/static/../../server.py", "/..\\server.py", "/%2e%2e%5cserver.py", "/server.py",
    "/__init__.py", "/static/index.html", "//etc/passwd", "/etc/passwd", "/%00index.html",
    "/index.html%00.js", "/app.js/", "/app.js/..", "/./app.js/../../hub.py", "/~root",
    "/.%2e/.%2e/pyproject.toml", "/%252e%252e/server.py", "/j/../server.py", "/ws/../hub.py",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_nothing_outside_the_static_files_is_ever_served(path: str) -> None:
    secrets = [Path(__file__).read_bytes()[:40], (profiles_dir() / "sim.toml").read_bytes()[:40],
               b"root:", b"def ", b"[project]"]
    with served() as s:
        status, _, body = _get(s, path)
        assert status in (400, 404) or body == static_files()["index.html"][0], (path, status)
        assert not any(secret in body for secret in secrets)


def test_the_static_folder_is_what_ships_and_nothing_else() -> None:
    assert sorted(static_files()) == ["app.js", "favicon.svg", "index.html", "style.css"]


# ---- addresses and origins ----------------------------------------------------------------------

@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "pitboard.local.evil.com",
                                  "", "[::1", "a b"])
def test_a_request_for_another_sites_name_is_turned_away(host: str) -> None:
    with served() as s:
        status, _, body = _get(s, "/", host=host)
        assert status in (400, 421) and b"Pitboard" not in body


@pytest.mark.parametrize("origin", [None, "http://evil.example", "null", "https://127.0.0.1"])
def test_a_websocket_from_a_page_of_another_origin_is_refused(origin: str | None) -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            headers = {} if origin is None else {"Origin": origin}
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await session.ws_connect(f"{s.url}/ws", headers=headers,
                                         origin=origin)  # type: ignore[arg-type]
            assert err.value.status == 403

    with served() as s:
        run(scenario(s))


def test_the_server_listens_only_where_the_profile_says() -> None:
    with served() as s:
        host, port = s.server.address
        assert host == "127.0.0.1"
        with pytest.raises(OSError):  # another address of this machine: nobody listens
            socket.create_connection(("127.0.0.2", port), timeout=TIMEOUT).close()


def test_pitboard_run_binds_the_profiles_address(tmp_path: Path) -> None:
    from pitboard.app import App

    with socket.socket() as probe:  # a free port for the profile
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    text = (profiles_dir() / "phones.toml").read_text().replace(
        'bind = "0.0.0.0"', 'bind = "127.0.0.1"').replace("port = 8080", f"port = {port}")
    path = tmp_path / "phones.toml"
    path.write_text(text)
    app = App.build(load_profile(str(path)), journal=tmp_path / "journal", phones=True)
    try:
        app.boot()
        app.start_web()
        assert app.web is not None and app.web.wait(TIMEOUT)
        assert app.web.server is not None and app.web.server.address == ("127.0.0.1", port)
        assert len(app.table.stations) == 6 and app.table.phones is not None
        assert app.table.phones.url == f"http://127.0.0.1:{port}/"
    finally:
        app.close()


def test_a_port_that_is_taken_is_one_line_and_a_wired_table_plays_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from pitboard.app import App, StartupError

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for name, stations in (("sim", 6), ("phones", 0)):
            text = (profiles_dir() / f"{name}.toml").read_text().replace(
                'bind = "0.0.0.0"', 'bind = "127.0.0.1"').replace("port = 8080",
                                                                  f"port = {port}")
            path = tmp_path / f"{name}.toml"
            path.write_text(text)
            config = load_profile(str(path))
            assert len(config.stations) == stations
            app = App.build(config, journal=tmp_path / name, phones=True)
            try:
                app.start_web()
                assert app.web is not None and not app.web.wait(TIMEOUT)
                assert app.web.error.startswith(f"cannot listen on 127.0.0.1 port {port}: ")
                if stations:
                    assert "(the wired stations play on)" in caplog.text
                else:
                    import threading

                    with pytest.raises(StartupError, match=r"^phones: cannot listen"):
                        app.run(threading.Event())
            finally:
                app.close()
    assert "Traceback" not in caplog.text


# ---- bounds --------------------------------------------------------------------------------------

def test_sockets_from_one_address_are_bounded() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phones = [await Phone.open(session, s.url) for _ in range(MAX_SOCKETS_PER_ADDRESS)]
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await Phone.open(session, s.url)
            assert err.value.status == 503
            await phones[0].close()
            for _ in range(100):  # the server lets the first go (a close handshake)
                if len(s.server.sockets) < MAX_SOCKETS_PER_ADDRESS:
                    break
                await asyncio.sleep(0.01)
            await Phone.open(session, s.url)  # room again

    with served() as s:
        run(scenario(s))


def test_connections_are_bounded() -> None:
    with served() as s:
        host, port = s.server.address
        held = [socket.create_connection((host, port), timeout=TIMEOUT)
                for _ in range(MAX_CONNECTIONS)]
        request = f"GET /favicon.svg HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
        for sock in held:  # each one answered: the server holds them all now (keep-alive)
            sock.sendall(request)
            assert sock.recv(12) == b"HTTP/1.1 200"
        try:
            extra = socket.create_connection((host, port), timeout=TIMEOUT)
            assert extra.recv(1) == b""  # closed at once
            extra.close()
        finally:
            for sock in held:
                sock.close()


def test_a_message_too_big_closes_the_socket() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await Phone.open(session, s.url)
            await phone.until("hello")
            await phone.ws.send_str(json.dumps({"t": "go", "pad": "x" * MAX_MESSAGE * 2}))
            msg = await asyncio.wait_for(phone.ws.receive(), TIMEOUT)
            assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            assert phone.ws.close_code == 1009  # message too big

    with served() as s:
        run(scenario(s))


def test_a_flood_is_refused_then_let_go() -> None:
    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await Phone.open(session, s.url)
            await phone.until("hello")
            for _ in range(200):
                await phone.ws.send_str('{"t": "go"}')
            errors = []
            while True:
                msg = await asyncio.wait_for(phone.ws.receive(), TIMEOUT)
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                frame = json.loads(msg.data)
                if frame["t"] == "err":
                    errors.append(frame["msg"])
            assert phone.ws.close_code == 1008  # policy violation: let go
            assert set(errors) <= {"take a seat first", "too many messages: slow down"}
            assert errors.count("too many messages: slow down") <= 1  # said once, not echoed
            assert len(errors) < 200 - MAX_REFUSED  # the refused ones get no answer

    with served() as s:
        run(scenario(s))
        assert s.table.healthy()


def test_bad_messages_each_get_one_line_and_never_a_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)

    async def scenario(s: Served) -> None:
        async with aiohttp.ClientSession() as session:
            phone = await Phone.open(session, s.url)
            await phone.until("hello")
            for bad in ("{", "[]", '{"t": "tap", "slot": "x"}', '{"t": "tap", "slot": 2}',
                        '{"t": "\\u0000"}', "\udcff".encode("utf-8", "surrogatepass").decode(
                            "utf-8", "replace")):
                await phone.ws.send_str(bad)
                frame = await phone.until("err")
                assert "\n" not in frame["msg"]
            await phone.ws.send_bytes(b"\x00\x01")
            assert (await phone.until("err"))["msg"] == "text messages only"

    with served() as s:
        run(scenario(s))
    assert "Traceback" not in caplog.text and "failed" not in caplog.text
