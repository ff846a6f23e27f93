"""A headless Chromium driven over the DevTools protocol, for the page tests.

Chromium is started with `--remote-debugging-pipe`: the protocol's JSON messages go
through two pipes (its file descriptors 3 and 4), NUL-terminated, so no client library
and no network port is needed. `Browser.open(path)` loads a page and collects what its
console and uncaught exceptions report; `evaluate` runs a script in it; `screenshot`
returns a PNG.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

# Debian's package installs /usr/bin/chromium; other systems name it otherwise.
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
TIMEOUT = 120.0


def find_chromium() -> str | None:
    """The path of a Chromium on PATH (or `$CHROMIUM`), or None."""
    named = os.environ.get("CHROMIUM")
    if named:
        return named
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _as_fds_3_and_4(read: int, write: int) -> None:
    """In the child: `read` becomes fd 3, `write` fd 4 (through fds above both, so
    that neither is overwritten before it is copied)."""
    read, write = os.dup(read), os.dup(write)
    while min(read, write) <= 4:
        read, write = os.dup(read), os.dup(write)
    os.dup2(read, 3)
    os.dup2(write, 4)


class BrowserError(RuntimeError):
    """The browser reported an error for a command, or did not answer in time."""


class Browser:
    """One headless Chromium and one page (a tab) in it; use as a context manager."""

    def __init__(self, executable: str, width: int = 1400, height: int = 900) -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="outline-splitter-chromium-")
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()
        self.process = subprocess.Popen(
            [
                executable,
                "--headless",
                "--remote-debugging-pipe",
                "--no-sandbox",  # CI runs as root, where the sandbox refuses to start
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--hide-scrollbars",
                "--font-render-hinting=none",
                f"--window-size={width},{height}",
                f"--user-data-dir={self._profile.name}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            # fds 3 and 4 are what --remote-debugging-pipe reads and writes
            preexec_fn=lambda: _as_fds_3_and_4(to_browser_read, from_browser_write),
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session = ""
        self.frames: list[str] = []  # sessions of the frames attached to, in order
        self.width, self.height = width, height

    def __enter__(self) -> Browser:
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t["targetId"] for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page, flatten=True)["sessionId"]
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            self.call(domain, session=True)
        # frames of their own process (a sandboxed iframe) are targets of their own: attach
        # to each as it appears, so that its errors are reported too
        self.call("Target.setAutoAttach", session=True, autoAttach=True, waitForDebuggerOnStart=False, flatten=True)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=self.width,
            height=self.height,
            deviceScaleFactor=1,
            mobile=False,
        )
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(BrowserError, OSError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        self._profile.cleanup()

    # -- the protocol ----------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._to_browser, data) :]

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise BrowserError("the browser did not answer in time")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise BrowserError("the browser closed its pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        decoded: dict[str, Any] = json.loads(message)
        if decoded.get("method") == "Target.attachedToTarget" and decoded["params"]["targetInfo"]["type"] == "iframe":
            frame = decoded["params"]["sessionId"]
            self.frames.append(frame)
            for domain in ("Runtime.enable", "Log.enable"):  # (their answers are not awaited)
                self._next_id += 1
                self._send({"id": self._next_id, "method": domain, "params": {}, "sessionId": frame})
        return decoded

    def call(self, method: str, session: bool | str = False, **params: Any) -> dict[str, Any]:
        """Send one command (to the page's session if `session` is True, to the session
        named if it is a string) and return its result; events that arrive meanwhile are
        kept in `events`."""
        self._next_id += 1
        number = self._next_id
        message: dict[str, Any] = {"id": number, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session if session is True else session
        self._send(message)
        deadline = time.monotonic() + TIMEOUT
        while True:
            answer = self._receive(deadline)
            if answer.get("id") == number:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer.get("result", {})
                return result
            if "method" in answer:
                self.events.append(answer)

    def wait_for(self, event: str) -> dict[str, Any]:
        """The next `event` of the page (one that arrived already counts)."""
        for index, seen in enumerate(self.events):
            if seen.get("method") == event:
                return self.events.pop(index)
        deadline = time.monotonic() + TIMEOUT
        while True:
            answer = self._receive(deadline)
            if answer.get("method") == event:
                return answer
            if "method" in answer:
                self.events.append(answer)

    # -- what the tests ask ----------------------------------------------------------

    def open(self, path: Path) -> float:
        """Load the file at `path` and wait for its load event; returns the seconds it
        took (navigation to load event)."""
        started = time.perf_counter()
        self.call("Page.navigate", session=True, url=path.resolve().as_uri())
        self.wait_for("Page.loadEventFired")
        return time.perf_counter() - started

    def evaluate(self, expression: str, frame: str | None = None) -> Any:
        """The value of a JavaScript expression in the page, or in the frame of session
        `frame` (one of `frames`); a promise is awaited."""
        result = self.call(
            "Runtime.evaluate", session=frame or True, expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def errors(self) -> list[str]:
        """What the page reported as errors so far: console errors and warnings,
        uncaught exceptions, failed loads (log entries of level error)."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(f"exception: {params['exceptionDetails']}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert", "warning"):
                found.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Log.entryAdded" and params["entry"].get("level") in ("error", "warning"):
                found.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}")
        return found

    def screenshot(self) -> bytes:
        """A PNG of the viewport."""
        return base64.b64decode(self.call("Page.captureScreenshot", session=True, format="png")["data"])


def main() -> None:
    """`python -m tests.browser PAGE OUT.png [CHUNK]`: a 1280x720 screenshot of a page,
    with chunk CHUNK selected. docs/view.png is `outline-splitter view
    outline_splitter/samples/sample.md --chunk-size 96 --chunk-overlap 16`'s page with
    chunk 2 selected (quantized to 96 colours)."""
    import sys

    page, out = Path(sys.argv[1]), Path(sys.argv[2])
    executable = find_chromium()
    if executable is None:
        raise SystemExit("no chromium on PATH")
    with Browser(executable, 1280, 720) as browser:
        browser.open(page)
        if len(sys.argv) > 3:
            browser.evaluate(f"document.getElementById('c{int(sys.argv[3])}').click()")
        out.write_bytes(browser.screenshot())
        if browser.errors():
            raise SystemExit(f"the page reported errors: {browser.errors()}")


if __name__ == "__main__":
    main()
