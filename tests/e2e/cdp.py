"""A DevTools protocol connection to the browser a Selenium driver runs (its debuggerAddress),
for what ``driver.execute_cdp_cmd`` cannot do: read events (a service worker's registration
id) and send commands to another target's session (the service worker's own network)."""

from __future__ import annotations

import itertools
import json
import time
import urllib.request

from websockets.sync.client import connect


class Cdp:
    def __init__(self, driver):
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=5) as response:
            url = json.load(response)["webSocketDebuggerUrl"]
        self.socket = connect(url, max_size=None, open_timeout=10)
        self.ids = itertools.count(1)
        self.events: list[dict] = []

    def _receive(self, deadline: float) -> dict:
        return json.loads(self.socket.recv(timeout=max(0.1, deadline - time.monotonic())))

    def send(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 10) -> dict:
        number = next(self.ids)
        message: dict = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == number:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, predicate, timeout: float = 10) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if predicate(event):
                    return event
            self.events.append(self._receive(deadline))

    def attach(self, target_type: str, url_part: str) -> str:
        """A session on the first target of that type whose URL contains ``url_part``."""
        for target in self.send("Target.getTargets")["targetInfos"]:
            if target["type"] == target_type and url_part in target["url"]:
                return self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})[
                    "sessionId"
                ]
        raise LookupError(f"no {target_type} target at {url_part}")

    def close(self) -> None:
        self.socket.close()
