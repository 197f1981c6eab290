"""Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: the
browser reads commands on fd 3 and writes on fd 4, one JSON message each, ended by a NUL), with
SwiftShader for WebGL2. Waits are promises the page resolves (`evaluate(..., wait=True)`), each
bounded by a deadline, never sleeps."""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile


def binary():
    """Debian's chromium, as scripts/setup.sh installs it."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Chromium:
    def __init__(self, width, height, deadline=60):
        self.deadline = deadline
        self.profile = tempfile.mkdtemp(prefix="pointpaint-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def wire():
            a = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [binary(), "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
             "--remote-debugging-pipe", "--hide-scrollbars", "--no-first-run", "--disable-extensions",
             f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "about:blank"],
            preexec_fn=wire, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.events = []
        self.next_id = 0
        self.session = None
        targets = self.send("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.send("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.send("Page.enable")

    def send(self, method, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.read()
            if "method" in reply:
                self.events.append(reply["method"])
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def read(self):
        while b"\0" not in self.buffer:
            ready, _, _ = select.select([self.from_browser], [], [], self.deadline)
            if not ready:
                raise TimeoutError(f"chromium sent nothing for {self.deadline} s")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def navigate(self, url):
        """Opens `url` and returns once its load event has fired."""
        self.events = []
        self.send("Page.navigate", url=url)
        while "Page.loadEventFired" not in self.events:
            message = self.read()
            if "method" in message:
                self.events.append(message["method"])

    def evaluate(self, expression, wait=False):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=wait)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_until_complete(self, after=0):
        """The page's status once a frame drawn after frame `after` says every node it asked for
        has come and been drawn."""
        return self.evaluate("""new Promise(resolve => {
            const check = () => {
              const line = document.getElementById('status'), s = line.dataset;
              if (s.complete === 'true' && Number(s.frame) > AFTER) resolve(Object.assign({ text: line.textContent }, s));
              else requestAnimationFrame(check);
            };
            check();
          })""".replace("AFTER", str(int(after))), wait=True)

    def click(self, x, y):
        """A left click at (x, y) in CSS pixels, as a mouse gives it."""
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", buttons=1 if kind == "mousePressed" else 0,
                      clickCount=1)

    def key(self, key):
        """One key pressed and released."""
        self.send("Input.dispatchKeyEvent", type="keyDown", key=key, text=key)
        self.send("Input.dispatchKeyEvent", type="keyUp", key=key)

    def touch(self, strokes, steps=5):
        """Fingers put down, moved in `steps` steps and lifted: `strokes` is a list of
        ((x0, y0), (x1, y1)) a finger, in CSS pixels."""
        self.send("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)

        def points(t):
            return [{"x": a[0] + (b[0] - a[0]) * t, "y": a[1] + (b[1] - a[1]) * t, "id": i} for i, (a, b) in enumerate(strokes)]
        self.send("Input.dispatchTouchEvent", type="touchStart", touchPoints=points(0))
        for step in range(1, steps + 1):
            self.send("Input.dispatchTouchEvent", type="touchMove", touchPoints=points(step / steps))
        self.send("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)
