"""djangoxform (PyPI `djangoxform` 0.12.0, MIT, on Django 2.2), a real
OpenRosa server made of onadata's code, the lineage KoboToolbox's and Ona's
servers grew from: a form list behind HTTP Basic with a 401 challenge,
XForm downloads with a media manifest, multipart submissions with their
attachments, a resubmission answered 202, run on 127.0.0.1 for the tests
that need one.

Its environment comes from build-aux/openrosa-server-env; the Django
project it runs in is written here, in a folder of the test's own. What it
needs to run outside PostgreSQL and on Python 3.11 is said beside each
setting. Forms are published as CSV XLSForms through its own
`publish_xls_form`, as its upload page does, with their media files.
"""

import sqlite3
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# djangoxform imports django.contrib.postgres's JSONField unless "mysql"
# occurs in the database ENGINE, and then uses the `jsonfield` package that
# works on any database: this alias of Django's SpatiaLite backend only
# carries that name.
BACKEND = '''
from django.contrib.gis.db.backends.spatialite.base import *  # noqa: F401,F403
from django.contrib.gis.db.backends.spatialite.base import DatabaseWrapper  # noqa: F401
'''

SETTINGS = '''
from pathlib import Path
BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "survey-form-tests"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
INSTALLED_APPS = [
    "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
    "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles",
    "django.contrib.gis", "rest_framework", "xform",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]
ROOT_URLCONF = "config.urls"
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates",
              "DIRS": [str(BASE_DIR / "templates")], "APP_DIRS": True,
              "OPTIONS": {"context_processors": [
                  "django.template.context_processors.request",
                  "django.contrib.auth.context_processors.auth",
                  "django.contrib.messages.context_processors.messages"]}}]
DATABASES = {"default": {"ENGINE": "spatialite_as_mysql", "NAME": str(BASE_DIR / "db.sqlite3")}}
SPATIALITE_LIBRARY_PATH = "mod_spatialite"
USE_TZ = True
TIME_ZONE = "UTC"
STATIC_URL = "/static/"
MEDIA_ROOT = str(BASE_DIR / "media")
MEDIA_URL = "/media/"
# Without it a serializer assertion of DRF 3.9 fails; with it the form list
# gives each form a new random hash at every request.
XFORM_RANDOM_HASH = True
XFORM_DYNAMIC_CHOICES = {}
XFORM_SUPPORTED_MEDIA_UPLOAD_TYPES = ["image/jpeg", "image/png", "text/csv", "audio/mpeg", "video/mp4"]
# The submission's answer as an OpenRosaResponse (from the template below),
# not DRF's JSON.
REST_FRAMEWORK = {"DEFAULT_RENDERER_CLASSES": [
    "xform.renderers.TemplateXMLRenderer", "rest_framework.renderers.JSONRenderer"]}
'''

URLS = '''
from django.urls import include, path
urlpatterns = [path("", include("xform.urls"))]
'''

MANAGE = '''
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from django.core.management import execute_from_command_line
execute_from_command_line(sys.argv)
'''

# The package ships no template for the submission's answer; this one is
# written from the OpenRosa submission specification.
SUBMISSION = '''<?xml version="1.0" encoding="UTF-8"?>
<OpenRosaResponse xmlns="http://openrosa.org/http/response"><message nature="submit_success">{{ message }}</message></OpenRosaResponse>
'''

PUBLISH = '''
import sys
from pathlib import Path
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from xform.forms import publish_xls_form
from xform.models import MetaData, XForm
user, password, form, *media = sys.argv[1:]
owner, _ = User.objects.get_or_create(username=user)
owner.set_password(password)
owner.save()
published = publish_xls_form(SimpleUploadedFile(Path(form).name, Path(form).read_bytes()), owner)
for path in media:
    MetaData.media_upload(XForm.objects.get(pk=published.pk),
                          SimpleUploadedFile(Path(path).name, Path(path).read_bytes(), content_type="text/csv"))
'''

# Django's own threaded server, on a port the system picks, saying which once
# it listens: the test waits for that line, not for time to pass.
SERVE = '''
import os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler, get_internal_wsgi_application
server = ThreadedWSGIServer(("127.0.0.1", 0), WSGIRequestHandler)
server.set_app(get_internal_wsgi_application())
print(server.server_port, flush=True)
server.serve_forever()
'''


class DjangoXForm:
    """Starts djangoxform in `folder`, publishes each CSV XLSForm of `forms`
    (a path, and the paths of its media files) as `user`; `base` is the
    address a data collector is given."""

    def __init__(self, folder: Path, forms, user: str, password: str):
        self.folder = folder
        python = subprocess.run([str(REPO / "build-aux/openrosa-server-env"), "djangoxform"], check=True,
                                capture_output=True, text=True).stdout.strip()
        for package in ("config", "spatialite_as_mysql", "templates/xform"):
            (folder / package).mkdir(parents=True)
        (folder / "config" / "__init__.py").write_text("")
        (folder / "config" / "settings.py").write_text(SETTINGS)
        (folder / "config" / "urls.py").write_text(URLS)
        (folder / "spatialite_as_mysql" / "__init__.py").write_text("")
        (folder / "spatialite_as_mysql" / "base.py").write_text(BACKEND)
        (folder / "templates" / "xform" / "submission.xml").write_text(SUBMISSION)
        (folder / "manage.py").write_text(MANAGE)
        (folder / "publish.py").write_text(PUBLISH)

        def manage(*arguments):
            result = subprocess.run([python, "manage.py", *arguments], cwd=folder, capture_output=True, text=True,
                                    timeout=300)
            assert result.returncode == 0, f"djangoxform's manage.py {arguments[0]}: {result.stderr[-3000:]}"

        manage("migrate", "-v0")
        for form, media in forms:
            arguments = [user, password, str(Path(form).resolve()), *(str(Path(path).resolve()) for path in media)]
            manage("shell", "-v0", "-c", f"import sys; sys.argv = ['', *{arguments!r}]; exec(open('publish.py').read())")
        (folder / "serve.py").write_text(SERVE)
        self.log = open(folder / "server.log", "wb")
        self.process = subprocess.Popen([python, "serve.py"], cwd=folder, stdout=subprocess.PIPE, stderr=self.log)
        listening = self.process.stdout.readline()
        if not listening.strip().isdigit():
            self.process.wait(timeout=30)
            raise AssertionError(f"djangoxform did not start: {(folder / 'server.log').read_text()}")
        self.port = int(listening)

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def submissions(self):
        """(instance uuid, stored XML, {attachment name: bytes}) of every
        submission it keeps."""
        with sqlite3.connect(self.folder / "db.sqlite3") as db:
            rows = db.execute("SELECT id, uuid, xml FROM xform_instance ORDER BY id").fetchall()
            files = db.execute("SELECT instance_id, name, media_file FROM xform_attachment").fetchall()
        return [(uuid, xml, {name: (self.folder / "media" / path).read_bytes()
                             for instance, name, path in files if instance == row})
                for row, uuid, xml in rows]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.process.stdout.close()
        self.log.close()
