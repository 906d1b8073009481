"""A small Central-like test server: the OpenRosa endpoints as ODK Central
serves them to an App User (`/v1/key/TOKEN/projects/ID/formList`,
`forms/ID.xml`, `forms/ID/manifest`, `forms/ID/attachments/NAME`,
`HEAD`/`POST submission`), written
for these tests from Central's API reference. It is not Central: it serves
forms from a folder, checks what Central checks of a client
(`X-OpenRosa-Version: 1.0`, else 400; the key in the path), and can be
told to misbehave as servers and the links to them do: a page of HTML, a
redirect to another host, a login asked for, a file cut off mid-way or not
the one its hash promises, a submission failed, refused as a conflict, or
stored with the answer lost on the way back.

Submissions follow Central's rules: a new instance id is stored (201); the
same id with the same XML again is 201, its attachments added to those
stored (so that files may follow in later requests); the same id with other
XML is 409. An edit (`meta/deprecatedID`) of an unknown submission is 404,
and of a version that another edit replaced already 409.

Entities follow Central's rules too (its 2024.1 entities specification): a
stored submission's `meta/entity` creates the entity (`create` 1 or true)
with its label and the properties its form's `entities:saveto` binds name,
unless an entity with that id exists already, which is an error kept in
`entity_errors` (but for an edit of the submission that created it: the
same entity, not created again); or updates it (`update`), a new version, an update
made from an older version than the current one marked as a conflict.

A form may encrypt its responses (`encrypt`): its XForm names a public
key, the server keeps the private one, and `decrypted` opens a stored
submission as Central opens one for export (ODK's encryption
specification: the key by RSA-OAEP with SHA-256, each file by AES-256-CFB
under its own IV, the signature checked).

Every request is recorded (method, path, headers) so that tests can check
what the client sent and did not send."""

import base64
import email.parser
import email.policy
import hashlib
import re
import ssl
import subprocess
import threading
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from xml.sax.saxutils import escape

TOKEN = "Wj7b9hzUjG2bKq6oVqMTf1Zc4w2KtV1xTnXQz0Vx8CkPp3cLqP"
PROJECT = 7


@dataclass
class Form:
    form_id: str
    name: str
    version: str
    xml: bytes
    media: dict = field(default_factory=dict)  # file name -> bytes
    private_key: object = None  # for a form that encrypts its responses

    @property
    def md5(self):
        return hashlib.md5(self.xml).hexdigest()


@dataclass
class Request:
    method: str
    path: str
    headers: dict


class CentralLike:
    """Starts on 127.0.0.1 at a free port; `base` is the address a data
    collector is given (with the App User's key). With `tls_folder`, it
    speaks HTTPS with a certificate for 127.0.0.1 signed by a throwaway
    authority written there (`ca_file`), which no system trusts."""

    def __init__(self, tls_folder: Path = None):
        self.forms = {}
        self.requests = []
        self.lock = threading.Lock()
        # Misbehaviour, each off by default.
        self.html_form_list = False
        self.redirect_form_list_to = None
        self.login = None  # (user, password): Basic, challenged as djangoxform does
        self.digest_login = None  # (user, password): Digest (RFC 7616, MD5, qop=auth), as ODK Aggregate asked
        self.nonces = set()
        self.cut_after = {}  # path suffix -> bytes sent before the link breaks (once)
        self.wrong_hash = set()  # media file names whose listed hash is not their bytes'
        self.ignore_ranges = False
        self.accept_length = 100 * 1024 * 1024  # Central's limit
        self.fail_posts = 0  # answer this many POSTs 500
        self.conflict_posts = 0  # answer this many POSTs 409
        self.drop_answers = 0  # store this many POSTs, then close without answering
        self.submissions = {}  # instance id -> {"xml": bytes, "files": {name: bytes}}
        self.posts = []  # each POST's parts: {name: bytes}
        self.entities = {}  # dataset -> {id: {"label", "properties", "version", "conflict", "submissions"}}
        self.entity_errors = []  # (instance id, message)
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                outer._handle(self)

            def do_HEAD(self):
                outer._handle(self)

            def do_POST(self):
                outer._handle(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.scheme = "http"
        self.ca_file = None
        if tls_folder is not None:
            self.ca_file = self._make_certificates(tls_folder)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(tls_folder / "server.pem", tls_folder / "server.key")
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
            self.scheme = "https"
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def root(self):
        return f"{self.scheme}://127.0.0.1:{self.port}"

    @staticmethod
    def _make_certificates(folder: Path):
        def openssl(*arguments):
            subprocess.run(["openssl", *map(str, arguments)], check=True, capture_output=True, cwd=folder)
        (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
                "-days", "2", "-subj", "/CN=Survey Form test authority")
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
        openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "2", "-extfile", "san.ext")
        return folder / "ca.pem"

    @property
    def base(self):
        return f"{self.root}/v1/key/{TOKEN}/projects/{PROJECT}"

    def add_form(self, xml_path: Path, media_folder: Path = None, form_id=None, version="1"):
        xml = xml_path.read_bytes()
        form_id = form_id or xml_path.stem
        media = {}
        if media_folder and media_folder.is_dir():
            media = {path.name: path.read_bytes() for path in sorted(media_folder.iterdir())}
        self.forms[form_id] = Form(form_id, form_id.replace("-", " ").title(), version, xml, media)
        return self.forms[form_id]

    def encrypt(self, form_id):
        """Makes the form encrypt its responses: a key pair, the public key
        in the XForm's submission element as Central writes it."""
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa
        form = self.forms[form_id]
        form.private_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        der = form.private_key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        form.xml = form.xml.replace(
            b"</model>", b'<submission method="post" base64RsaPublicKey="%s"/></model>' % base64.b64encode(der), 1)

    def decrypted(self, instance_id):
        """The instance XML and the files (by name) of the stored encrypted
        submission `instance_id`, its signature checked."""
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        stored = self.submissions[instance_id]
        ns = "{http://www.opendatakit.org/xforms/encrypted}"
        manifest = ElementTree.fromstring(stored["xml"])
        assert manifest.tag == ns + "data" and manifest.get("encrypted") == "yes", stored["xml"]
        form = next(f for f in self.forms.values() if manifest.get("id") in (f.form_id, f.form_id.replace("-", "_")))
        oaep = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
        encrypted_key = manifest.findtext(ns + "base64EncryptedKey")
        key = form.private_key.decrypt(base64.b64decode(encrypted_key), oaep)
        names = [media.findtext(ns + "file") for media in manifest.findall(ns + "media")]
        names.append(manifest.findtext(ns + "encryptedXmlFile"))
        seed = bytearray(hashlib.md5(instance_id.encode() + key).digest())
        plain = {}
        for index, name in enumerate(names):
            seed[index % 16] = (seed[index % 16] + 1) % 256
            decryptor = Cipher(algorithms.AES(key), modes.CFB(bytes(seed))).decryptor()
            padded = decryptor.update(stored["files"][name]) + decryptor.finalize()
            assert 1 <= padded[-1] <= 16 and padded.endswith(bytes([padded[-1]]) * padded[-1]), name
            plain[name[:-len(".enc")]] = padded[:-padded[-1]]
        lines = [manifest.get("id")] + ([manifest.get("version")] if manifest.get("version") else [])
        lines += [encrypted_key, instance_id] + [f"{name}::{hashlib.md5(data).hexdigest()}" for name, data in plain.items()]
        signature = form.private_key.decrypt(base64.b64decode(manifest.findtext(ns + "base64EncryptedElementSignature")), oaep)
        assert signature == hashlib.md5(("\n".join(lines) + "\n").encode()).digest(), "the signature holds"
        xml = plain.pop("submission.xml")
        return xml, plain

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def seen(self, method=None, suffix=""):
        with self.lock:
            return [r for r in self.requests if (method is None or r.method == method) and r.path.endswith(suffix)]

    # -- serving

    def _handle(self, handler):
        path = handler.path
        with self.lock:
            self.requests.append(Request(handler.command, path, {k.lower(): v for k, v in handler.headers.items()}))
        if handler.headers.get("X-OpenRosa-Version") != "1.0":
            return self._send(handler, 400, b'{"message":"X-OpenRosa-Version header missing"}', "application/json")
        prefix = f"/v1/key/{TOKEN}/projects/{PROJECT}/"
        if not path.startswith(prefix):
            return self._send(handler, 403, b'{"message":"The authentication you provided does not grant access."}',
                              "application/json")
        if self.login and not self._logged_in(handler):
            return self._send(handler, 401, b"", "text/plain", {"WWW-Authenticate": 'Basic realm="OpenRosa"'})
        if self.digest_login and not self._digest_logged_in(handler):
            nonce = hashlib.md5(str(len(self.requests)).encode() + TOKEN.encode()).hexdigest()
            with self.lock:
                self.nonces.add(nonce)
            return self._send(handler, 401, b"", "text/plain", {
                "WWW-Authenticate": f'Digest realm="OpenRosa, test", qop="auth", nonce="{nonce}", opaque="c3ab", algorithm=MD5'})
        rest = path[len(prefix):]
        if rest == "submission":
            return self._submission(handler)
        if rest == "formList":
            if self.redirect_form_list_to:
                return self._send(handler, 302, b"", "text/plain", {"Location": self.redirect_form_list_to})
            if self.html_form_list:
                return self._send(handler, 200, b"<!DOCTYPE html><html><body>Sign in</body></html>", "text/html")
            return self._send(handler, 200, self._form_list(), "text/xml; charset=utf-8")
        parts = rest.split("/")
        if len(parts) == 2 and parts[0] == "forms" and parts[1].endswith(".xml"):
            form = self.forms.get(parts[1][:-4])
            if form:
                return self._send_file(handler, form.xml, "application/xml", rest)
        if len(parts) == 3 and parts[0] == "forms" and parts[2] == "manifest" and parts[1] in self.forms:
            return self._send(handler, 200, self._manifest(self.forms[parts[1]]), "text/xml; charset=utf-8")
        if len(parts) == 4 and parts[0] == "forms" and parts[2] == "attachments" and parts[1] in self.forms:
            data = self.forms[parts[1]].media.get(parts[3])
            if data is not None:
                return self._send_file(handler, data, "application/octet-stream", rest)
        return self._send(handler, 404, b'{"message":"Could not find the resource you were looking for."}',
                          "application/json")

    def _submission(self, handler):
        if handler.command == "HEAD":
            return self._send(handler, 204, b"", "text/plain",
                              {"X-OpenRosa-Accept-Content-Length": str(self.accept_length)})
        if handler.command != "POST":
            return self._send(handler, 405, b"", "text/plain")
        length = int(handler.headers.get("Content-Length", "0"))
        body = handler.rfile.read(length)
        if length > self.accept_length:
            return self._send(handler, 413, b"", "text/plain")
        content_type = handler.headers.get("Content-Type", "")
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)
        parts = {}
        for part in message.iter_parts():
            parts[part.get_param("name", header="content-disposition")] = part.get_payload(decode=True)
        with self.lock:
            self.posts.append(parts)
        xml = parts.get("xml_submission_file")
        if xml is None:
            return self._openrosa(handler, 400, "No xml_submission_file part.")
        found = re.search(rb"<(?:orx:)?instanceID>([^<]+)</(?:orx:)?instanceID>", xml)
        if not found:
            return self._openrosa(handler, 400, "The submission has no instanceID.")
        form_id = re.search(rb'^<\?xml[^>]*>\s*<[\w.:-]+ [^>]*id="([^"]+)"', xml)
        if not form_id or form_id.group(1).decode() not in {f.form_id.replace("-", "_") for f in self.forms.values()} | set(self.forms):
            return self._openrosa(handler, 404, "Could not find the form you were looking for.")
        if self.fail_posts:
            self.fail_posts -= 1
            return self._openrosa(handler, 500, "Internal Server Error")
        if self.conflict_posts:
            self.conflict_posts -= 1
            return self._openrosa(handler, 409, "A resource already exists with instanceID value(s) of %s." % found.group(1).decode())
        instance_id = found.group(1).decode()
        files = {name: data for name, data in parts.items() if name not in ("xml_submission_file", "*isIncomplete*")}
        deprecated = re.search(rb"<deprecatedID>([^<]+)</deprecatedID>", xml)
        deprecated = deprecated.group(1).decode() if deprecated else None
        with self.lock:
            stored = self.submissions.get(instance_id)
            replaced = self.submissions.get(deprecated) if deprecated else None
            if stored and stored["xml"] != xml:
                conflict = "A submission already exists with this ID, but with different XML."
            elif not stored and deprecated and replaced is None:
                return self._openrosa(handler, 404, "Could not find the resource you were looking for.")
            elif not stored and replaced is not None and replaced.get("replaced_by"):
                # An edit replaces the current version only.
                conflict = f"The deprecatedID {deprecated} is not the current version of this submission."
            else:
                conflict = None
                if not stored:
                    stored = self.submissions[instance_id] = {"xml": xml, "files": {}}
                    if replaced is not None:
                        replaced["replaced_by"] = instance_id
                    self._process_entity(form_id.group(1).decode(), instance_id, xml, deprecated)
                stored["files"].update(files)
        if conflict:
            return self._openrosa(handler, 409, conflict)
        if self.drop_answers:
            self.drop_answers -= 1
            handler.close_connection = True
            handler.connection.shutdown(2)
            return
        return self._openrosa(handler, 201, "full submission upload was successful!")

    def _process_entity(self, form_id, instance_id, xml, deprecated):
        """Creates or updates each entity a stored submission declares (its
        own, or one per repeat instance), as Central does when it processes
        the submission."""
        root = ElementTree.fromstring(xml)
        form = next(f for f in self.forms.values() if form_id in (f.form_id, f.form_id.replace("-", "_")))
        saveto = "{http://www.opendatakit.org/xforms/entities}saveto"
        binds = [(bind.get(saveto), bind.get("nodeset").strip("/").split("/")[1:])
                 for bind in ElementTree.fromstring(form.xml).iter("{http://www.w3.org/2002/xforms}bind") if bind.get(saveto)]
        # Each element holding an entity's meta: the root, or a repeat instance,
        # whose properties are the save_to questions below it.
        for holder in root.iter():
            entity = holder.find("meta/entity")
            if entity is None:
                continue
            properties = {}
            for name, steps in binds:
                below = steps if holder is root else steps[steps.index(holder.tag) + 1:] if holder.tag in steps else None
                node = holder.find("/".join(below)) if below else None
                if node is not None:
                    properties[name] = node.text or ""
            self._process_one_entity(entity, properties, instance_id, deprecated)

    def _process_one_entity(self, entity, properties, instance_id, deprecated):
        dataset = self.entities.setdefault(entity.get("dataset"), {})
        uuid, label = entity.get("id"), entity.findtext("label")
        if entity.get("update") in ("1", "true") and uuid in dataset:
            current = dataset[uuid]
            current["conflict"] = current["conflict"] or entity.get("baseVersion") != str(current["version"])
            current["version"] += 1
            current["label"] = label or current["label"]
            current["properties"].update(properties)
            current["submissions"].append(instance_id)
        elif entity.get("create") in ("1", "true"):
            if uuid in dataset and deprecated in dataset[uuid]["submissions"]:
                # An edit of the response that created it: the same entity.
                dataset[uuid]["submissions"].append(instance_id)
            elif uuid in dataset:
                self.entity_errors.append((instance_id, f"An entity with the id {uuid} already exists."))
            else:
                dataset[uuid] = {"label": label, "properties": properties, "version": 1, "conflict": False,
                                 "submissions": [instance_id]}

    def _openrosa(self, handler, status, message):
        body = ('<OpenRosaResponse xmlns="http://openrosa.org/http/response" items="0">'
                f'<message nature="">{escape(message)}</message></OpenRosaResponse>').encode()
        return self._send(handler, status, body, "text/xml; charset=utf-8")

    def _digest_logged_in(self, handler):
        header = handler.headers.get("Authorization", "")
        if not header.startswith("Digest "):
            return False
        fields = dict((key.strip(), value.strip().strip('"'))
                      for key, _, value in (part.partition("=") for part in re.split(r',\s*(?=\w+=)', header[7:])))
        user, password = self.digest_login
        if fields.get("username") != user or fields.get("nonce") not in self.nonces or fields.get("uri") != handler.path:
            return False
        ha1 = hashlib.md5(f"{user}:OpenRosa, test:{password}".encode()).hexdigest()
        ha2 = hashlib.md5(f"{handler.command}:{fields['uri']}".encode()).hexdigest()
        expected = hashlib.md5(f"{ha1}:{fields['nonce']}:{fields.get('nc')}:{fields.get('cnonce')}:auth:{ha2}".encode()).hexdigest()
        return fields.get("response") == expected and fields.get("qop") == "auth" and fields.get("opaque") == "c3ab"

    def _logged_in(self, handler):
        header = handler.headers.get("Authorization", "")
        if not header.startswith("Basic "):
            return False
        user, _, password = base64.b64decode(header[6:]).decode().partition(":")
        return (user, password) == self.login

    def _form_list(self):
        entries = []
        for form in self.forms.values():
            manifest = ""
            if form.media:
                manifest = f"<manifestUrl>{self.base}/forms/{form.form_id}/manifest</manifestUrl>"
            entries.append(
                f"<xform><formID>{escape(form.form_id)}</formID><name>{escape(form.name)}</name>"
                f"<version>{escape(form.version)}</version><hash>md5:{form.md5}</hash>"
                f"<downloadUrl>{self.base}/forms/{form.form_id}.xml</downloadUrl>{manifest}</xform>"
            )
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<xforms xmlns="http://openrosa.org/xforms/xformsList">'
                + "".join(entries) + "</xforms>").encode()

    def _manifest(self, form):
        files = []
        for name, data in form.media.items():
            digest = hashlib.md5(data).hexdigest()
            if name in self.wrong_hash:
                digest = hashlib.md5(data + b"x").hexdigest()
            files.append(f"<mediaFile><filename>{escape(name)}</filename><hash>md5:{digest}</hash>"
                         f"<downloadUrl>{self.base}/forms/{form.form_id}/attachments/{escape(name)}</downloadUrl></mediaFile>")
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest xmlns="http://openrosa.org/xforms/xformsManifest">'
                + "".join(files) + "</manifest>").encode()

    def _send_file(self, handler, data, content_type, rest):
        start = 0
        status = 200
        extra = {}
        requested = handler.headers.get("Range", "")
        if requested.startswith("bytes=") and not self.ignore_ranges:
            start = int(requested[6:].split("-")[0])
            if start >= len(data):
                return self._send(handler, 416, b"", "text/plain", {"Content-Range": f"bytes */{len(data)}"})
            status = 206
            extra["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
        body = data[start:]
        cut = None
        with self.lock:
            for suffix, count in list(self.cut_after.items()):
                if rest.endswith(suffix):
                    cut = count
                    del self.cut_after[suffix]
        if cut is None:
            return self._send(handler, status, body, content_type, extra)
        # The headers promise the whole file; the link breaks after `cut` bytes.
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        for name, value in extra.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(body[:cut])
        handler.wfile.flush()
        handler.close_connection = True
        handler.connection.shutdown(2)

    def _send(self, handler, status, body, content_type, headers=None):
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        handler.send_header("X-OpenRosa-Version", "1.0")
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        if handler.command != "HEAD":
            handler.wfile.write(body)
