package replay

import "time"

// Python: PEP 668 and venvs, NumPy's ABI, poetry and uv lock files,
// pytest collection and fixtures, Django settings, mypy stubs, ruff in
// pre-commit, pydantic 2, psycopg2 builds, PowerShell's execution policy.
func unseen5Py(h *hand) {
	h.note(Note{ID: "pep668-debian", Project: "nimbus-etl", Scope: "global", OS: "linux", Lang: "python", At: day(2023, time.June, 19),
		Title:   "Debian 12 system python refuses pip install",
		What:    "`pip install -r requirements.txt` on the new bookworm box: `error: externally-managed-environment` … \"To install Python packages system-wide, try apt install python3-xyz\"",
		Why:     "PEP 668: Debian marks the system interpreter as externally managed.",
		Learned: "Don't use --break-system-packages. Make a venv per project. On Debian/Ubuntu the venv module is a separate package: without python3-venv, python3 -m venv dies with 'ensurepip is not available'. So: sudo apt install python3-venv, then python3 -m venv .venv.",
		Fix:     "sudo apt install -y python3-venv && python3 -m venv .venv && . .venv/bin/activate && pip install -r requirements.txt"})
	h.note(Note{ID: "pep668-brew", Project: "quillmate", Scope: "global", OS: "darwin", Lang: "python", At: day(2024, time.January, 12),
		Title:   "Homebrew python: externally-managed-environment",
		What:    "pip3 install pre-commit → error: externally-managed-environment (the hint says brew install xyz)",
		Why:     "Homebrew's python3.12 is marked externally managed since 2023.",
		Learned: "CLI tools go in with pipx (brew install pipx; pipx install pre-commit) or brew itself; project deps in a venv (uv venv or python3 -m venv). Nothing extra to install on the mac side, venv ships with brew's python.",
		Fix:     "brew install pipx && pipx ensurepath && pipx install pre-commit"})
	h.ask("pep668-debian/1", "harborview", "linux", "pip install --user httpie", `\e[31merror\e[0m: \e[1mexternally-managed-environment\e[0m

\e[31m×\e[0m This environment is externally managed
\e[31m╰─>\e[0m To install Python packages system-wide, try apt install
\e[31m   \e[0m python3-xyz, where xyz is the package you are trying to
\e[31m   \e[0m install.
\e[31m   \e[0m 
\e[31m   \e[0m If you wish to install a non-Debian-packaged Python package,
\e[31m   \e[0m create a virtual environment using python3 -m venv path/to/venv.
\e[31m   \e[0m Then use path/to/venv/bin/python and path/to/venv/bin/pip. Make
\e[31m   \e[0m sure you have python3-full installed.

\e[35mnote\e[0m: If you believe this is a mistake, please contact your Python installation or OS distribution provider. You can override this, at the risk of breaking your Python installation or OS, by passing --break-system-packages.
\e[1;36mhint\e[0m: See PEP 668 for the detailed specification.`, "pep668-debian", u5Twin)
	h.ask("pep668-brew/1", "fernweh-app", "darwin", "pip3 install ruff", `error: externally-managed-environment

× This environment is externally managed
╰─> To install Python packages system-wide, try brew install
    xyz, where xyz is the package you are trying to
    install.
    
    If you wish to install a Python library that isn't in Homebrew,
    use a virtual environment:
    
    python3 -m venv path/to/venv
    source path/to/venv/bin/activate
    python3 -m pip install xyz
    
    If you wish to install a Python application that isn't in Homebrew,
    it may be easiest to use 'pipx install xyz', which will manage a
    virtual environment for you. You can install pipx with
    
    brew install pipx

note: If you believe this is a mistake, please contact your Python installation or OS distribution provider. You can override this, at the risk of breaking your Python installation or OS, by passing --break-system-packages.
hint: See PEP 668 for the detailed specification.`, "pep668-brew", u5Twin)
	h.ask("pep668-debian/2", "gridwatch", "linux", "python3 -m venv .venv", `The virtual environment was not created successfully because ensurepip is not
available.  On Debian/Ubuntu systems, you need to install the python3-venv
package using the following command.

    apt install python3.11-venv

You may need to use sudo with that command.  After installing the python3-venv
package, recreate your virtual environment.

Failing command: /home/ci/gridwatch/.venv/bin/python3`, "pep668-debian", u5Global)

	h.note(Note{ID: "numpy-pin", Project: "nimbus-etl", OS: "linux", Lang: "python", At: day(2024, time.June, 18),
		Title:   "numpy 2.0 broke pandas import",
		What:    "Every job crashed at import after a fresh install picked up numpy 2.0.0:\n\nA module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may crash.\n\n(from pyarrow, via pandas)",
		Why:     "pyarrow/pandas wheels we had were built against numpy 1.x; numpy 2 changed the ABI.",
		Learned: "Pinned numpy<2 in requirements.txt until upstream ships numpy-2 wheels.",
		Where:   "requirements.txt",
		Fix:     `pip install "numpy<2"`})
	h.note(Note{ID: "numpy-rebuild", Project: "nimbus-etl", OS: "linux", Lang: "python", At: day(2025, time.February, 24), ProseOver: "numpy-pin",
		Title:   "Took the numpy<2 pin out; rebuild our own extension instead",
		What:    "Same 'compiled using NumPy 1.x cannot be run in NumPy 2.x' crash, this time from importing nimbus_fast (our Cython module), not from pyarrow.",
		Why:     "nimbus_fast's wheel in our index was built against numpy 1.26. The resolver now pulls numpy 2.1 because scipy 1.15 needs it, so the pin we added last summer can't be satisfied any more together with scipy.",
		Learned: "The numpy<2 pin was only a stopgap for the months pandas and pyarrow had no numpy-2 wheels; they have them now and the pin does more harm than good. Removed it. Our extension gets built against numpy>=2 in [build-system] requires — a wheel built on 2.x also runs on 1.x, the other way round is what crashes. Rebuilt and republished nimbus_fast 0.8.1.",
		Where:   "pyproject.toml (nimbus_fast), requirements.txt",
		Fix:     "pip install --force-reinstall --no-binary nimbus_fast nimbus_fast"})
	h.ask("numpy-rebuild/1", "nimbus-etl", "linux", "python -m nimbus.jobs.daily --date 2025-03-02", `
A module that was compiled using NumPy 1.x cannot be run in
NumPy 2.1.3 as it may crash. To support both 1.x and 2.x
versions of NumPy, modules must be compiled with NumPy 2.0.
Some module may need to rebuild instead e.g. with 'pybind11>=2.12'.

If you are a user of the module, the easiest solution will be to
downgrade to 'numpy<2' or try to upgrade the affected module.
We expect that some modules will need time to support NumPy 2.

Traceback (most recent call last):  File "<frozen runpy>", line 198, in _run_module_as_main
  File "/srv/nimbus-etl/nimbus/jobs/daily.py", line 9, in <module>
    from nimbus_fast import rollup
  File "/srv/nimbus-etl/.venv/lib/python3.12/site-packages/nimbus_fast/__init__.py", line 1, in <module>
    from ._rollup import rollup
AttributeError: _ARRAY_API not found
ImportError: numpy.core.multiarray failed to import`, "numpy-rebuild", u5Prose, "numpy-pin")
	h.ask("numpy-rebuild/2", "nimbus-etl", "linux", "pytest tests/test_rollup.py", `==================================== ERRORS ====================================
____________________ ERROR collecting tests/test_rollup.py _____________________
tests/test_rollup.py:3: in <module>
    from nimbus_fast import rollup
.venv/lib/python3.12/site-packages/nimbus_fast/__init__.py:1: in <module>
    from ._rollup import rollup
nimbus_fast/_rollup.pyx:1: in init nimbus_fast._rollup
    ???
E   ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject
=========================== short test summary info ============================
ERROR tests/test_rollup.py - ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
1 error in 0.61s`, "numpy-rebuild", u5Prose, "numpy-pin")
	h.ask("numpy-alias", "nimbus-etl", "linux", "python -m nimbus.jobs.backfill", `Traceback (most recent call last):
  File "/srv/nimbus-etl/nimbus/jobs/backfill.py", line 41, in <module>
    weights = np.array(raw, dtype=np.float)
  File "/srv/nimbus-etl/.venv/lib/python3.12/site-packages/numpy/__init__.py", line 414, in __getattr__
    raise AttributeError(__former_attrs__[attr], name=None)
AttributeError: module 'numpy' has no attribute 'float'.
§np.float§ was a deprecated alias for the builtin §float§. To avoid this error in existing code, use §float§ by itself. Doing this will not modify any behavior and is safe. If you specifically wanted the numpy scalar type, use §np.float64§ here.
The aliases was originally deprecated in NumPy 1.20; for more details and guidance see the original release note at:
    https://numpy.org/devdocs/release/1.20.0-notes.html#deprecations`, "", u5NeverObj)

	h.note(Note{ID: "poetry-nodev", Project: "quillmate", OS: "linux", Lang: "python", At: day(2022, time.October, 4),
		Title:   "prod image had pytest and black in it",
		What:    "Image was 1.2 GB; `poetry install` in the Dockerfile installs the dev group too.",
		Why:     "poetry installs all groups by default.",
		Learned: "Dockerfile now runs poetry install --no-dev --no-root; image down to 410 MB.",
		Where:   "Dockerfile"})
	h.note(Note{ID: "poetry-without", Project: "quillmate", OS: "linux", Lang: "python", At: day(2025, time.January, 16), Supersedes: "poetry-nodev",
		Title:   "poetry 2 dropped --no-dev",
		What:    "docker build fails at the poetry step:\n\n    The option \"--no-dev\" does not exist\n",
		Why:     "--no-dev was deprecated in 1.2 and removed in poetry 2.0, which the image now gets from pip install poetry.",
		Learned: "Use poetry install --without dev --no-root (or --only main). Also pin poetry in the Dockerfile (pip install poetry==2.0.1) so the next major doesn't surprise us in the middle of a release.",
		Where:   "Dockerfile",
		Fix:     "poetry install --without dev --no-root"})
	h.ask("poetry-without/1", "quillmate", "linux", "docker build -t quillmate-api .", `#9 [deps 4/5] RUN pip install --no-cache-dir poetry && poetry config virtualenvs.create false
#9 7.902 Successfully installed poetry-2.1.1 poetry-core-2.1.1 ...
#9 DONE 9.4s
#10 [deps 5/5] RUN poetry install --no-dev --no-root --no-interaction
#10 0.811 
#10 0.811 The option "--no-dev" does not exist
#10 ERROR: process "/bin/sh -c poetry install --no-dev --no-root --no-interaction" did not complete successfully: exit code: 1`, "poetry-without", u5Declared, "poetry-nodev")

	h.note(Note{ID: "poetry-lock", Project: "quillmate", OS: "darwin", Lang: "python", At: day(2023, time.May, 30),
		Title:   "poetry lock out of sync after merge",
		What:    "§pyproject.toml changed significantly since poetry.lock was last generated. Run §poetry lock [--no-update]§ to fix the lock file.§",
		Why:     "Merged main with a new dependency while my branch had bumped another; git merged pyproject.toml cleanly but the lock's content-hash no longer matches.",
		Learned: "Never hand-merge poetry.lock; take either side, then poetry lock --no-update to re-resolve without upgrading everything.",
		Fix:     "poetry lock --no-update"})
	h.ask("poetry-lock/1", "quillmate", "darwin", "poetry install", `Installing dependencies from lock file

pyproject.toml changed significantly since poetry.lock was last generated. Run §poetry lock [--no-update]§ to fix the lock file.`, "poetry-lock", u5Stored)

	h.note(Note{ID: "uv-locked", Project: "quillmate", OS: "linux", Lang: "python", At: day(2025, time.June, 3),
		Title:   "CI: uv sync --locked rejects stale uv.lock",
		What:    "`error: The lockfile at §uv.lock§ needs to be updated, but §--locked§ was provided.`",
		Why:     "Someone bumped httpx in pyproject.toml and pushed without re-locking.",
		Learned: "uv lock, commit uv.lock. Added the uv-lock pre-commit hook so it can't happen again.",
		Where:   "pyproject.toml, uv.lock, .pre-commit-config.yaml",
		Fix:     "uv lock"})
	h.ask("uv-locked/1", "quillmate", "linux", "uv sync --locked --all-extras", `Using CPython 3.12.8 interpreter at: /opt/hostedtoolcache/Python/3.12.8/x64/bin/python3
Creating virtual environment at: .venv
Resolved 61 packages in 412ms
error: The lockfile at §uv.lock§ needs to be updated, but §--locked§ was provided. To update the lockfile, run §uv lock§.
Error: Process completed with exit code 2.`, "uv-locked", u5Stored)
	h.ask("uv-unsat", "quillmate", "linux", "uv lock", `  \e[31m×\e[0m No solution found when resolving dependencies:
  ╰─▶ Because only fastapi<=0.115.6 is available and quillmate depends on fastapi>=0.116, we can conclude that your requirements are unsatisfiable.`, "", u5Tool)

	h.note(Note{ID: "pytest-basename", Project: "harborview", OS: "linux", Lang: "python", At: day(2023, time.March, 3),
		Title:   "two test_models.py files break collection",
		What:    "pytest: import file mismatch: imported module 'test_models' has this __file__ attribute ... which is not the same as the test file we want to collect",
		Why:     "bookings/tests and billing/tests had no __init__.py, so both test_models.py are the top-level module test_models (rootdir-relative, prepend import mode).",
		Learned: "Either add __init__.py to every tests/ dir or set addopts = --import-mode=importlib in pytest.ini. Went with importlib.",
		Where:   "pytest.ini"})
	h.ask("pytest-basename/1", "harborview", "linux", "pytest -q", `==================================== ERRORS ====================================
________________ ERROR collecting rooms/tests/test_views.py ________________
import file mismatch:
imported module 'test_views' has this __file__ attribute:
  /home/runner/work/harborview/harborview/bookings/tests/test_views.py
which is not the same as the test file we want to collect:
  /home/runner/work/harborview/harborview/rooms/tests/test_views.py
HINT: remove __pycache__ / .pyc files and/or use a unique basename for your test file modules
=========================== short test summary info ============================
ERROR rooms/tests/test_views.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
1 error in 2.14s`, "pytest-basename", u5Stored)

	h.note(Note{ID: "django-settings-pytest", Project: "harborview", OS: "windows", Lang: "python", At: day(2022, time.August, 23),
		Title:   "pytest can't find Django settings",
		What:    "ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured. You must either define the environment variable DJANGO_SETTINGS_MODULE or call settings.configure() before accessing settings.",
		Why:     "running plain pytest; pytest-django was installed but had no settings module configured, and I had only set the variable in my other (bash) shell.",
		Learned: "Put DJANGO_SETTINGS_MODULE = harborview.settings.test under [pytest] in pytest.ini so it doesn't depend on the shell. In PowerShell the env var would be $env:DJANGO_SETTINGS_MODULE, not export.",
		Where:   "pytest.ini"})
	h.note(Note{ID: "django-settings-celery", Project: "harborview", OS: "linux", Lang: "python", At: day(2024, time.November, 5),
		Title:   "celery worker crashes at boot: settings not configured",
		What:    "celery -A harborview worker → django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured.",
		Why:     "harborview/celery.py imported harborview.billing.tasks at the top, before os.environ.setdefault('DJANGO_SETTINGS_MODULE', ...) ran; tasks.py imports models.",
		Learned: "In celery.py: setdefault the settings module first, create the app, app.config_from_object('django.conf:settings', namespace='CELERY'), then app.autodiscover_tasks() — no task imports at module top.",
		Where:   "harborview/celery.py"})
	h.ask("django-settings-pytest/1", "harborview", "windows", "pytest bookings", u5crlf(`ImportError while loading conftest 'C:\src\harborview\bookings\conftest.py'.
bookings\conftest.py:3: in <module>
    from bookings.models import Booking
bookings\models.py:4: in <module>
    class Booking(models.Model):
.venv\Lib\site-packages\django\db\models\base.py:129: in __new__
    app_config = apps.get_containing_app_config(module)
.venv\Lib\site-packages\django\apps\registry.py:260: in get_containing_app_config
    self.check_apps_ready()
.venv\Lib\site-packages\django\apps\registry.py:137: in check_apps_ready
    settings.INSTALLED_APPS
.venv\Lib\site-packages\django\conf\__init__.py:81: in __getattr__
    self._setup(name)
.venv\Lib\site-packages\django\conf\__init__.py:61: in _setup
    raise ImproperlyConfigured(
E   django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured. You must either define the environment variable DJANGO_SETTINGS_MODULE or call settings.configure() before accessing settings.`), "django-settings-pytest", u5Cause)
	h.ask("django-settings-celery/1", "harborview", "linux", "celery -A harborview worker -l info", `Traceback (most recent call last):
  File "/app/.venv/bin/celery", line 8, in <module>
    sys.exit(main())
  File "/app/.venv/lib/python3.12/site-packages/celery/__main__.py", line 15, in main
    sys.exit(_main())
  File "/app/.venv/lib/python3.12/site-packages/celery/bin/celery.py", line 236, in main
    return celery(auto_envvar_prefix="CELERY")
  ...
  File "/app/.venv/lib/python3.12/site-packages/celery/app/utils.py", line 383, in find_app
    sym = symbol_by_name(app, imp=imp)
  File "/app/harborview/__init__.py", line 1, in <module>
    from .celery import app as celery_app
  File "/app/harborview/celery.py", line 4, in <module>
    from harborview.invoicing import tasks  # noqa
  File "/app/harborview/invoicing/tasks.py", line 6, in <module>
    from .models import Invoice
  File "/app/.venv/lib/python3.12/site-packages/django/conf/__init__.py", line 81, in __getattr__
    self._setup(name)
django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured. You must either define the environment variable DJANGO_SETTINGS_MODULE or call settings.configure() before accessing settings.`, "django-settings-celery", u5Cause)

	h.note(Note{ID: "mypy-stubs", Project: "quillmate", OS: "linux", Lang: "python", At: day(2024, time.March, 26),
		Title:   "mypy strict vs boto3",
		What:    "`error: Skipping analyzing \"boto3\": module is installed, but missing library stubs or py.typed marker  [import-untyped]`",
		Why:     "boto3 ships no types.",
		Learned: "add boto3-stubs[s3,sqs] to the dev group. Don't set ignore_missing_imports globally — it hid a real typo in an import last time.",
		Fix:     `uv add --dev "boto3-stubs[s3,sqs]"`})
	h.ask("mypy-stubs/1", "quillmate", "linux", "mypy quillmate", `quillmate/storage/s3.py:3: \e[1m\e[31merror:\e[0m Skipping analyzing \e[1m"botocore.exceptions"\e[0m: module is installed, but missing library stubs or py.typed marker  \e[33m[import-untyped]\e[0m
quillmate/storage/s3.py:3: \e[34mnote:\e[0m See \e[4mhttps://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports\e[0m
\e[1m\e[31mFound 1 error in 1 file (checked 48 source files)\e[0m`, "mypy-stubs", u5Stored)
	h.ask("mypy-assign", "quillmate", "linux", "mypy quillmate", `quillmate/api/users.py:57: error: Incompatible types in assignment (expression has type "None", variable has type "str")  [assignment]
Found 1 error in 1 file (checked 48 source files)`, "", u5Tool)
	h.ask("mypy-requests", "harborview", "linux", "mypy .", `harborview/integrations/channel_manager.py:2: error: Library stubs not installed for "requests"  [import-untyped]
harborview/integrations/channel_manager.py:2: note: Hint: "python3 -m pip install types-requests"
harborview/integrations/channel_manager.py:2: note: (or run "mypy --install-types" to install all missing stub packages)
Found 1 error in 1 file (checked 212 source files)`, "", u5Other)

	h.note(Note{ID: "ruff-old-rev", Project: "quillmate", OS: "darwin", Lang: "python", At: day(2024, time.August, 19),
		Title:   "ruff formatter hook needs a newer ruff-pre-commit rev",
		What:    "Switched black → ruff format. The hook run said error: unrecognized subcommand 'format'",
		Why:     ".pre-commit-config.yaml still had ruff-pre-commit rev v0.0.287; ruff format only exists from 0.1.2.",
		Learned: "bump the rev (pre-commit autoupdate does it), hook ids are ruff and ruff-format. Keep the ruff in the dev group at the same version or CI and the hook disagree on formatting.",
		Where:   ".pre-commit-config.yaml",
		Fix:     "pre-commit autoupdate --repo https://github.com/astral-sh/ruff-pre-commit"})
	h.ask("ruff-old-rev/1", "quillmate", "darwin", "pre-commit run --all-files", `[INFO] Initializing environment for https://github.com/astral-sh/ruff-pre-commit.
[ERROR] §ruff-format§ is not present in repository https://github.com/astral-sh/ruff-pre-commit.  Typo? Perhaps it is introduced in a newer version?  Often §pre-commit autoupdate§ fixes this.`, "ruff-old-rev", u5Stored)
	h.ask("ruff-old-rev/2", "quillmate", "linux", "ruff format --check .", `error: unrecognized subcommand 'format'

Usage: ruff [OPTIONS] <COMMAND>

For more information, try '--help'.`, "ruff-old-rev", u5Stored)

	h.note(Note{ID: "pydantic-settings", Project: "quillmate", OS: "linux", Lang: "python", At: day(2023, time.September, 12),
		Title:   "pydantic 2: BaseSettings moved out",
		What:    "uvicorn wouldn't start after the pydantic 2 upgrade — PydanticImportError: BaseSettings has been moved to the pydantic-settings package",
		Why:     "pydantic 2 split settings into a separate distribution.",
		Learned: "pip install pydantic-settings, from pydantic_settings import BaseSettings, SettingsConfigDict; class Config → model_config = SettingsConfigDict(env_prefix='QM_').",
		Where:   "quillmate/config.py"})
	h.ask("pydantic-settings/1", "quillmate", "linux", "uvicorn quillmate.main:app --reload", `INFO:     Will watch for changes in these directories: ['/home/dev/quillmate']
INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)
INFO:     Started reloader process [48211] using WatchFiles
Process SpawnProcess-1:
Traceback (most recent call last):
  File "/usr/lib/python3.12/multiprocessing/process.py", line 314, in _bootstrap
    self.run()
  ...
  File "/home/dev/quillmate/quillmate/main.py", line 5, in <module>
    from quillmate.config import settings
  File "/home/dev/quillmate/quillmate/config.py", line 1, in <module>
    from pydantic import BaseSettings
  File "/home/dev/quillmate/.venv/lib/python3.12/site-packages/pydantic/__init__.py", line 402, in __getattr__
    return _getattr_migration(attr_name)
  File "/home/dev/quillmate/.venv/lib/python3.12/site-packages/pydantic/_migration.py", line 296, in wrapper
    raise PydanticImportError(
pydantic.errors.PydanticImportError: §BaseSettings§ has been moved to the §pydantic-settings§ package. See https://docs.pydantic.dev/2.5/migration/#basesettings-has-moved-to-pydantic-settings for more details.

For further information visit https://errors.pydantic.dev/2.5/u/import-error`, "pydantic-settings", u5Stored)
	h.ask("pydantic-settings-etl", "nimbus-etl", "linux", "python -m nimbus.cli sync", `Traceback (most recent call last):
  File "/srv/nimbus-etl/nimbus/cli.py", line 7, in <module>
    from pydantic import BaseSettings, Field
  File "/srv/nimbus-etl/.venv/lib/python3.11/site-packages/pydantic/__init__.py", line 386, in __getattr__
    return _getattr_migration(attr_name)
pydantic.errors.PydanticImportError: §BaseSettings§ has been moved to the §pydantic-settings§ package. See https://docs.pydantic.dev/2.7/migration/#basesettings-has-moved-to-pydantic-settings for more details.`, "", u5Other)

	h.note(Note{ID: "pgconfig-mac", Project: "harborview", OS: "darwin", Lang: "python", At: day(2022, time.May, 17),
		Title:   "psycopg2 won't build on the M1",
		What:    "pip install psycopg2==2.9.3 → Error: pg_config executable not found.",
		Why:     "no wheel for that version on arm64 mac, so it builds from source and needs libpq's pg_config.",
		Learned: "brew install libpq and put /opt/homebrew/opt/libpq/bin on PATH (libpq is keg-only, brew won't link it). Or psycopg2-binary for local dev only.",
		Fix:     `brew install libpq && export PATH="/opt/homebrew/opt/libpq/bin:$PATH"`})
	h.note(Note{ID: "pgconfig-slim", Project: "harborview", OS: "linux", Lang: "python", At: day(2023, time.July, 7),
		Title:   "psycopg2 build in python:3.11-slim",
		What:    "Docker build, pip step: pg_config executable not found",
		Why:     "slim image has neither libpq headers nor a compiler",
		Learned: "apt-get install -y --no-install-recommends libpq-dev gcc in the build stage, copy only the wheel into the runtime stage and apt install libpq5 there.",
		Where:   "Dockerfile"})
	const pgconfig = `  error: subprocess-exited-with-error
  
  × python setup.py egg_info did not run successfully.
  │ exit code: 1
  ╰─> [23 lines of output]
      running egg_info
      creating /tmp/pip-pip-egg-info-k2v1q8/psycopg2.egg-info
      writing /tmp/pip-pip-egg-info-k2v1q8/psycopg2.egg-info/PKG-INFO
      
      Error: pg_config executable not found.
      
      pg_config is required to build psycopg2 from source.  Please add the directory
      containing pg_config to the $PATH or specify the full executable path with the
      option:
      
          python setup.py build_ext --pg-config /path/to/pg_config build ...
      
      or with the pg_config option in 'setup.cfg'.
      
      If you prefer to avoid building psycopg2 from source, please install the PyPI
      'psycopg2-binary' package instead.
      [end of output]
  
  note: This error originates from a subprocess, and is likely not a problem with pip.
error: metadata-generation-failed`
	h.ask("pgconfig-mac/1", "harborview", "darwin", "pip install -r requirements.txt", `Collecting psycopg2==2.9.9 (from -r requirements.txt (line 7))
  Downloading psycopg2-2.9.9.tar.gz (384 kB)
     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 384.9/384.9 kB 6.1 MB/s eta 0:00:00
  Preparing metadata (setup.py) ... error
`+pgconfig, "pgconfig-mac", u5Twin)
	h.ask("pgconfig-slim/1", "harborview", "linux", "docker build -t harborview-web .", `#8 [build 4/6] RUN pip install --no-cache-dir -r requirements.txt
#8 3.104 Collecting psycopg2==2.9.9 (from -r requirements.txt (line 7))
#8 3.201   Downloading psycopg2-2.9.9.tar.gz (384 kB)
#8 3.388   Preparing metadata (setup.py): started
#8 3.912   Preparing metadata (setup.py): finished with status 'error'
#8 3.918 `+pgconfig+`
#8 ERROR: process "/bin/sh -c pip install --no-cache-dir -r requirements.txt" did not complete successfully: exit code: 1`, "pgconfig-slim", u5Twin)

	h.note(Note{ID: "ps-execpolicy", Project: "harborview", Scope: "global", OS: "windows", Lang: "powershell", At: day(2023, time.January, 30),
		Title:   "PowerShell won't run Activate.ps1",
		What:    `.venv\Scripts\Activate.ps1 cannot be loaded because running scripts is disabled on this system.`,
		Why:     "Default execution policy on Windows client is Restricted.",
		Learned: "Set-ExecutionPolicy -Scope CurrentUser RemoteSigned (no admin needed). Same cause for npm.ps1/npx.ps1 and any other .ps1 shim.",
		Fix:     "Set-ExecutionPolicy -Scope CurrentUser -ExecutionPolicy RemoteSigned"})
	h.ask("ps-execpolicy/1", "fernweh-app", "windows", "npm run dev", u5crlf(`npm : File C:\Program Files\nodejs\npm.ps1 cannot be loaded because running scripts is disabled on this system. For more 
information, see about_Execution_Policies at https:/go.microsoft.com/fwlink/?LinkID=135170.
At line:1 char:1
+ npm run dev
+ ~~~
    + CategoryInfo          : SecurityError: (:) [], PSSecurityException
    + FullyQualifiedErrorId : UnauthorizedAccess`), "ps-execpolicy", u5Global)
	h.ask("ps-execpolicy/2", "harborview", "windows", `.\.venv\Scripts\Activate.ps1`, u5crlf(`.\.venv\Scripts\Activate.ps1 : File C:\src\harborview\.venv\Scripts\Activate.ps1 cannot be loaded because running scripts is
disabled on this system. For more information, see about_Execution_Policies at https:/go.microsoft.com/fwlink/?LinkID=135170.
At line:1 char:1
+ .\.venv\Scripts\Activate.ps1
+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    + CategoryInfo          : SecurityError: (:) [], PSSecurityException
    + FullyQualifiedErrorId : UnauthorizedAccess`), "ps-execpolicy", u5Stored)

	h.note(Note{ID: "mocker", Project: "nimbus-etl", OS: "linux", Lang: "python", At: day(2024, time.January, 22),
		Title:   "CI missing pytest-mock",
		What:    "fixture 'mocker' not found — only in CI",
		Why:     "pytest-mock was in my venv but not in requirements-dev.txt.",
		Learned: "pip freeze lies about what the project needs; requirements-dev.txt is what CI installs. Added pytest-mock==3.12.0.",
		Where:   "requirements-dev.txt"})
	h.ask("mocker/1", "nimbus-etl", "linux", "pytest -x tests/", `============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/runner/work/nimbus-etl/nimbus-etl
collected 87 items

tests/test_extract.py ........                                           [  9%]
tests/test_load.py E

==================================== ERRORS ====================================
___________________ ERROR at setup of test_load_retries_s3 ____________________
file /home/runner/work/nimbus-etl/nimbus-etl/tests/test_load.py, line 31
  def test_load_retries_s3(mocker, tmp_path):
E       fixture 'mocker' not found
>       available fixtures: cache, capfd, capfdbinary, caplog, capsys, capsysbinary, doctest_namespace, monkeypatch, pytestconfig, record_property, record_testsuite_property, record_xml_attribute, recwarn, tmp_path, tmp_path_factory, tmpdir, tmpdir_factory
>       use 'pytest --fixtures [testpath]' for help on them.`, "mocker", u5Stored)
	h.ask("fixture-frame", "nimbus-etl", "linux", "pytest tests/transform/test_pivot.py", `___________________ ERROR at setup of test_pivot_fills_gaps ____________________
file /home/dev/nimbus-etl/tests/transform/test_pivot.py, line 12
  def test_pivot_fills_gaps(sample_frame):
E       fixture 'sample_frame' not found
>       available fixtures: cache, capfd, capfdbinary, caplog, capsys, capsysbinary, doctest_namespace, mocker, module_mocker, monkeypatch, package_mocker, pytestconfig, record_property, record_testsuite_property, record_xml_attribute, recwarn, session_mocker, tmp_path, tmp_path_factory, tmpdir, tmpdir_factory
>       use 'pytest --fixtures [testpath]' for help on them.

/home/dev/nimbus-etl/tests/transform/test_pivot.py:12
=========================== short test summary info ============================
ERROR tests/transform/test_pivot.py::test_pivot_fills_gaps
1 error in 0.23s`, "", u5NeverObj)

	h.note(Note{ID: "src-layout", Project: "quillmate", OS: "darwin", Lang: "python", At: day(2022, time.December, 1),
		Title:   "tests can't import quillmate after the move to src/",
		What:    "ModuleNotFoundError: No module named 'quillmate' from every test file",
		Why:     "src layout: the package isn't on sys.path unless installed",
		Learned: "pip install -e . in the venv (or pythonpath = src in [tool.pytest.ini_options]). We do both so a bare pytest works in a fresh clone.",
		Where:   "pyproject.toml",
		Fix:     "pip install -e ."})
	h.ask("src-layout/1", "quillmate", "linux", "python -m pytest", `ImportError while importing test module '/home/runner/work/quillmate/quillmate/tests/api/test_health.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
/opt/hostedtoolcache/Python/3.12.3/x64/lib/python3.12/importlib/__init__.py:90: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/api/test_health.py:3: in <module>
    from quillmate.main import app
E   ModuleNotFoundError: No module named 'quillmate'`, "src-layout", u5Stored)

	h.note(Note{ID: "editable-ci", Project: "nimbus-etl", OS: "linux", Lang: "python", At: day(2026, time.January, 14),
		Title:   "requirements.txt -e ../nimbus-common breaks in CI",
		What:    "ERROR: ../nimbus-common is not a valid editable requirement. It should either be a path to a local project or a VCS URL (beginning with bzr+http, bzr+https, bzr+ssh, ...)",
		Why:     "the sibling checkout only exists on dev machines.",
		Learned: "requirements.txt references nimbus-common by version from our index; the editable sibling goes in requirements-local.txt which only devs use.",
		Where:   "requirements.txt, requirements-local.txt"})
	h.ask("editable-ci/1", "nimbus-etl", "linux", "pip install -r requirements.txt", `ERROR: ../nimbus-common is not a valid editable requirement. It should either be a path to a local project or a VCS URL (beginning with bzr+http, bzr+https, bzr+ssh, bzr+sftp, bzr+ftp, bzr+lp, bzr+file, git+http, git+https, git+ssh, git+git, git+file, hg+file, hg+http, hg+https, hg+ssh, hg+static-http, svn+ssh, svn+http, svn+https, svn+svn, svn+file).`, "editable-ci", u5Stored)
	h.ask("req-version", "harborview", "linux", "pip install -r requirements.txt", `Collecting Django==5.3.1 (from -r requirements.txt (line 1))
ERROR: Could not find a version that satisfies the requirement Django==5.3.1 (from versions: 1.1.3, 1.1.4, ..., 5.1.4, 5.2, 5.2.1)
ERROR: No matching distribution found for Django==5.3.1`, "", u5Generic)
	h.ask("multipart", "quillmate", "darwin", "uvicorn quillmate.main:app", `  File "/Users/kai/quillmate/.venv/lib/python3.12/site-packages/fastapi/dependencies/utils.py", line 97, in ensure_multipart_is_installed
    raise RuntimeError(multipart_not_installed_error) from None
RuntimeError: Form data requires "python-multipart" to be installed. 
You can install "python-multipart" with: 

pip install python-multipart
`, "", u5NeverFail)
}
