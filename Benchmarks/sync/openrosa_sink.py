"""An OpenRosa submission endpoint on loopback that costs as little as a
server can: HTTP/1.1 with keep-alive on asyncio, `HEAD` answered 204 with
`X-OpenRosa-Accept-Content-Length`, each `POST` read whole and answered 201
with an `OpenRosaResponse`, without parsing the multipart body beyond the
instance id it carries, which it counts (each id once, as a server keeps
it). So that a delivery's time is the client's, not a web framework's.

`Sink(keep=FOLDER)` also writes each POST's body and content type to
FOLDER, for a peer to send the very same requests."""

import asyncio
import re
import threading
from pathlib import Path

INSTANCE = re.compile(rb"<instanceID>([^<]+)</instanceID>")
ANSWER = (b'<OpenRosaResponse xmlns="http://openrosa.org/http/response" items="0">'
          b'<message nature="submit_success">full submission upload was successful!</message></OpenRosaResponse>')


class Sink:
    def __init__(self, keep: Path = None):
        self.keep = keep
        self.instances = set()
        self.posts = 0
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def serve():
            asyncio.set_event_loop(self.loop)
            self.server = self.loop.run_until_complete(asyncio.start_server(self._client, "127.0.0.1", 0))
            self.port = self.server.sockets[0].getsockname()[1]
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=serve, daemon=True)
        self.thread.start()
        ready.wait()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}/v1/key/bench/projects/1"

    def stop(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)

    async def _client(self, reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method = lines[0].split(" ", 1)[0]
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                if method == "HEAD":
                    writer.write(b"HTTP/1.1 204 No Content\r\nX-OpenRosa-Version: 1.0\r\n"
                                 b"X-OpenRosa-Accept-Content-Length: 104857600\r\nContent-Length: 0\r\n\r\n")
                else:
                    found = INSTANCE.search(body)
                    if found:
                        self.instances.add(found.group(1))
                    if self.keep is not None:
                        (self.keep / f"{self.posts:06d}.body").write_bytes(body)
                        (self.keep / f"{self.posts:06d}.type").write_text(headers.get("content-type", ""))
                    self.posts += 1
                    writer.write(b"HTTP/1.1 201 Created\r\nX-OpenRosa-Version: 1.0\r\nContent-Type: text/xml\r\n"
                                 b"Content-Length: " + str(len(ANSWER)).encode() + b"\r\n\r\n" + ANSWER)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()
