"""django-odk (PyPI `django-odk` 1.1.9, GPL-3, on Django 5.2), a real
OpenRosa server, run on 127.0.0.1 for the tests that need one: a form list,
XForm downloads, and multipart submissions stored by instance id. It has no
logins and keeps every submission; the project's Central-like test server
covers what it lacks.

Its environment comes from build-aux/openrosa-server-env; the Django project it
runs in is written here, in a folder of the test's own, with the two
templates its wheel does not ship written from the OpenRosa specification.
"""

import sqlite3
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SETTINGS = '''
from pathlib import Path
BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "survey-form-tests"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
USE_HTTPS = False
# The admin is what django-odk's own modules register with, and it needs the rest.
INSTALLED_APPS = [
    "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
    "django.contrib.sessions", "django.contrib.messages", "odk", "odkdata",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]
ROOT_URLCONF = "config.urls"
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates",
              "DIRS": [BASE_DIR / "templates"], "APP_DIRS": True,
              "OPTIONS": {"context_processors": [
                  "django.template.context_processors.request",
                  "django.contrib.auth.context_processors.auth",
                  "django.contrib.messages.context_processors.messages"]}}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}
USE_TZ = True
STATIC_URL = "static/"
MEDIA_ROOT = str(BASE_DIR / "media")
MEDIA_URL = "media/"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
'''

URLS = '''
from django.urls import include, path
urlpatterns = [path("odk/", include("odk.urls"))]
'''

MANAGE = '''
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from django.core.management import execute_from_command_line
execute_from_command_line(sys.argv)
'''

# The OpenRosa form list (xformsList) and submission answer (OpenRosaResponse).
FORM_LIST = '''<?xml version="1.0" encoding="UTF-8"?>
<xforms xmlns="http://openrosa.org/xforms/xformsList">{% for xform in object_list %}
<xform><formID>{{ xform.form_id }}</formID><name>{{ xform.title }}</name><version>{{ xform.version }}</version>
<hash>{{ xform.hash }}</hash><downloadUrl>{{ host }}/odk/form/{{ xform.form_id }}/</downloadUrl></xform>{% endfor %}
</xforms>
'''

SUBMISSION = '''<OpenRosaResponse xmlns="http://openrosa.org/http/response"><message>{{ message }}</message></OpenRosaResponse>
'''

LOAD_FORM = '''
import sys
from odk.models import XForm
form = XForm(xml_content=open(sys.argv[1], encoding="utf-8").read())
form.set_xml_fields = lambda: None
form._set_form_id(); form._set_version(); form._set_title()
form.save()
'''

# Django's own threaded server, on a port the system picks, saying which once
# it listens: the test waits for that line, not for time to pass.
SERVE = '''
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler, get_internal_wsgi_application
server = ThreadedWSGIServer(("127.0.0.1", 0), WSGIRequestHandler)
server.set_app(get_internal_wsgi_application())
print(server.server_port, flush=True)
server.serve_forever()
'''


class DjangoODK:
    """Starts django-odk in `folder` with the XForms given; `base` is the
    address a data collector is given."""

    def __init__(self, folder: Path, forms):
        self.folder = folder
        python = subprocess.run([str(REPO / "build-aux/openrosa-server-env"), "django-odk"], check=True, capture_output=True,
                                text=True).stdout.strip()
        (folder / "config").mkdir(parents=True)
        (folder / "templates").mkdir()
        (folder / "config" / "__init__.py").write_text("")
        (folder / "config" / "settings.py").write_text(SETTINGS)
        (folder / "config" / "urls.py").write_text(URLS)
        (folder / "manage.py").write_text(MANAGE)
        (folder / "templates" / "xformsList.xml").write_text(FORM_LIST)
        (folder / "templates" / "submission.xml").write_text(SUBMISSION)
        (folder / "load_form.py").write_text(LOAD_FORM)

        def manage(*arguments):
            result = subprocess.run([python, "manage.py", *arguments], cwd=folder, capture_output=True, text=True,
                                    timeout=300)
            assert result.returncode == 0, f"django-odk's manage.py {arguments[0]}: {result.stderr[-3000:]}"

        manage("migrate", "-v0")
        for form in forms:
            manage("shell", "-v0", "-c", f"import sys; sys.argv = ['', {str(form)!r}]; exec(open('load_form.py').read())")
        (folder / "serve.py").write_text(SERVE)
        self.log = open(folder / "server.log", "wb")
        self.process = subprocess.Popen([python, "serve.py"], cwd=folder, stdout=subprocess.PIPE, stderr=self.log)
        listening = self.process.stdout.readline()
        if not listening.strip().isdigit():
            self.process.wait(timeout=30)
            raise AssertionError(f"django-odk did not start: {(folder / 'server.log').read_text()}")
        self.port = int(listening)

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}/odk"

    def submissions(self):
        """(form id, instance id, stored XML) of every submission it keeps."""
        with sqlite3.connect(self.folder / "db.sqlite3") as db:
            rows = db.execute("SELECT form_id, instanceid, xml_file FROM odk_xformsubmit ORDER BY id").fetchall()
        return [(form_id, instance_id, (self.folder / "media" / path).read_bytes()) for form_id, instance_id, path in rows]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.process.stdout.close()
        self.log.close()
