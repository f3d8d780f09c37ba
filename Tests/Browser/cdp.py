"""A small client of Chromium's DevTools protocol over `--remote-debugging-pipe` (file
descriptors 3 and 4, messages separated by NUL bytes): what Puppeteer speaks, with no
WebSocket, no chromedriver and nothing from PyPI, so the report's browser tests need only
Debian's `chromium`."""
import json
import os
import shutil
import subprocess
import tempfile
import time


class Browser:
    def __init__(self, executable="chromium", width=1200, height=900):
        # A profile of its own, removed on close: nothing of a run is left in /tmp.
        self._profile = tempfile.mkdtemp(prefix="dossier-cdp-")
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()

        def give_pipes():
            # The child's fd 3 is what it reads commands from, fd 4 where it writes replies.
            os.dup2(commands_read, 3)
            os.dup2(replies_write, 4)

        self._process = subprocess.Popen(
            [executable, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check", "--allow-file-access-from-files",
             f"--window-size={width},{height}", f"--user-data-dir={self._profile}",
             "about:blank"],
            pass_fds=(3, 4), preexec_fn=give_pipes, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self._buffer = b""
        self._next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(f"{domain}.enable", session=self.session)

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        shutil.rmtree(self._profile, ignore_errors=True)

    def _read(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            import select
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("Chromium said nothing in time")
            ready, _, _ = select.select([self._replies], [], [], left)
            if ready:
                chunk = os.read(self._replies, 1 << 16)
                if not chunk:
                    raise RuntimeError("Chromium closed its pipe")
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=30):
        """Sends one command and returns its result; events that come meanwhile are kept."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read(timeout)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def page(self, method, params=None, timeout=30):
        return self.call(method, params, session=self.session, timeout=timeout)

    def wait_for_event(self, name, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            for index, event in enumerate(self.events):
                if event["method"] == name:
                    return self.events.pop(index)
            self.events.append(self._read(max(0.01, deadline - time.monotonic())))

    def evaluate(self, expression, timeout=30):
        """The value of a JavaScript expression on the page (awaited when it is a promise)."""
        result = self.page("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}...: {result['exceptionDetails']}")
        return result["result"].get("value")
