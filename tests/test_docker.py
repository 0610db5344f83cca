"""The Docker image cannot be built here (no engine runs in CI), so check what it is made of: two stages, the locked
dependencies with hashes, the files it copies, a user without root, and a health check the bot can answer."""

from __future__ import annotations

import fnmatch
import itertools
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.bot.bot_process import IMAGE_ENV

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text()
LOCK = (ROOT / "requirements.lock").read_text()


def instructions() -> list[tuple[str, str]]:
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    lines = [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def final_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last_from = max(index for index, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last_from:]


def locked() -> dict[str, str]:
    return {
        match[1].lower().replace("_", "-"): match[2]
        for match in re.finditer(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", LOCK, re.MULTILINE)
    }


def canonical(requirement: str) -> tuple[str, str]:
    name, _, pinned = requirement.partition("==")
    return name.strip().lower().replace("_", "-").replace(".", "-"), pinned.strip()


def test_two_stages_and_the_final_one_runs_without_root() -> None:
    assert [word for word, _ in instructions()].count("FROM") == 2
    users = [argument for word, argument in final_stage() if word == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert ("VOLUME", '["/data"]') in final_stage()
    assert any(word == "ENV" and "AZUL_DB=/data/azul.sqlite3" in argument for word, argument in final_stage())


def test_dependencies_come_from_the_lock_with_hashes() -> None:
    runs = " ".join(argument for word, argument in instructions() if word == "RUN")
    assert "--require-hashes -r requirements.lock" in runs
    assert "install --no-deps --no-build-isolation ." in runs  # the bot adds nothing the lock did not pin
    entries = [entry for entry in re.split(r"^(?=[A-Za-z0-9])", LOCK, flags=re.MULTILINE) if "==" in entry[:80]]
    assert len(entries) == len(locked()) > 10
    for entry in entries:
        assert "--hash=sha256:" in entry, entry.splitlines()[0]
    lines = LOCK.splitlines()
    for previous, line in itertools.pairwise(lines):
        if line.lstrip().startswith("--hash"):  # pip reads a hash only as a continuation of its requirement
            assert previous.rstrip().endswith("\\"), previous


def test_the_lock_pins_exactly_what_pyproject_asks_and_the_tests_run_on() -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = locked()
    for requirement in dependencies:
        name, pinned = canonical(requirement)
        assert pinned, f"{requirement} is not pinned exactly (==)"
        assert pins.get(name) == pinned, f"requirements.lock has {name} {pins.get(name)}, pyproject.toml {pinned}"
        assert version(name) == pinned, f"the tests run on {name} {version(name)}, the image gets {pinned}"


def test_every_copied_file_exists_and_reaches_the_build() -> None:
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip()]
    copied = [
        source
        for word, argument in instructions()
        if word == "COPY" and not argument.startswith("--from")
        for source in shlex.split(argument)[:-1]
    ]
    assert {"requirements.lock", "pyproject.toml", "bot", "data"} <= set(copied)
    for source in copied:
        assert (ROOT / source).exists(), source
        assert not any(fnmatch.fnmatch(source, pattern.rstrip("/")) for pattern in ignored), source


def test_the_health_check_runs_the_bots_own_check() -> None:
    (check,) = [argument for word, argument in final_stage() if word == "HEALTHCHECK"]
    assert check.endswith('CMD ["python", "-m", "bot", "health"]')
    assert "--start-period=" in check and "--interval=30s" in check  # the bot beats every 30 s


def test_the_base_is_pinned_by_digest_and_the_runtime_has_no_installer() -> None:
    bases = [argument.split()[0] for word, argument in instructions() if word == "FROM"]
    assert len(set(bases)) == 1 and re.fullmatch(r"python:3\.11\.\d+-slim-bookworm@sha256:[0-9a-f]{64}", bases[0])
    runs = " ".join(argument for word, argument in final_stage() if word == "RUN")
    assert "pip uninstall --yes pip setuptools wheel" in runs, "the base's own pip and setuptools go"
    build_runs = " ".join(argument for word, argument in instructions()[: len(instructions()) - len(final_stage())])
    assert "pip uninstall --yes pip setuptools" in build_runs, "and so do the virtual environment's"
    (user,) = [argument for word, argument in final_stage() if word == "USER"]
    assert re.fullmatch(r"[1-9][0-9]*:[1-9][0-9]*", user), "a numeric user and group (Kubernetes' runAsNonRoot)"
    assert "sqlite3" in runs, "the tool README's salvage steps use"


def test_the_build_backend_is_pinned_and_hashed_and_every_install_uses_it() -> None:
    """pip would fetch ``[build-system] requires`` unpinned and unchecked; pinned there and hashed in both locks, the
    installs build the bot with --no-build-isolation from the checked copy."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (backend,) = project["build-system"]["requires"]
    assert project["dependency-groups"]["build"] == [backend] and "==" in backend
    name, pinned = canonical(backend)
    for lock in ("requirements.lock", "requirements-test.lock"):
        text = (ROOT / lock).read_text()
        entry = re.search(rf"^{name}=={re.escape(pinned)} \\\n((?:\s+--hash=sha256:[0-9a-f]{{64}}.*\n)+)", text, re.M)
        assert entry is not None, f"{lock} holds {backend} with its hashes"
    readme = (ROOT / "README.md").read_text().split("```sh\n", 1)[1].splitlines()
    bot, tests = readme[0], readme[1]
    assert "--require-hashes -r requirements.lock" in bot and "--no-deps --no-build-isolation -e ." in bot
    assert "--require-hashes -r requirements-test.lock" in tests and "--no-deps --no-build-isolation -e ." in tests
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert tests in ci, ".ci/run runs exactly the README's test command"


def test_the_test_dependencies_are_locked_too() -> None:
    test_lock = (ROOT / "requirements-test.lock").read_text()
    pins = {
        match[1].lower().replace("_", "-").replace(".", "-"): match[2]
        for match in re.finditer(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", test_lock, re.MULTILINE)
    }
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in [*project["dependencies"], *project["optional-dependencies"]["test"]]:
        name, pinned = canonical(re.sub(r"\[.*?\]", "", requirement))  # simcord[pytest]: the package's own pin
        assert pinned, f"{requirement} is not pinned exactly (==)"
        assert pins.get(name) == pinned, f"requirements-test.lock has {name} {pins.get(name)}, pyproject {pinned}"
    assert test_lock.count("--hash=sha256:") > len(pins)


def test_compose_needs_the_database_password_rotates_logs_and_builds_once() -> None:
    compose = (ROOT / "compose.yaml").read_text()
    assert ":-azul" not in compose, "no default password"
    assert compose.count("${AZUL_PG_PASSWORD:?") == 2, "the bots' URL and PostgreSQL's own both require it"
    assert re.search(r'max-size: "\d+m"', compose) and re.search(r'max-file: "\d+"', compose)
    assert compose.count("logging: *logging") == 2, "PostgreSQL's logs and every bot's rotate"
    assert compose.count("build: .") == 1 and "image: azul-bot:local" in compose


def test_the_image_ships_its_bytecode_compiled() -> None:
    """The runtime user cannot write __pycache__: the build compiles every module, valid whatever the files' times."""
    build = instructions()[: max(index for index, (word, _) in enumerate(instructions()) if word == "FROM")]
    compiles = [args for word, args in build if word == "RUN" and "compileall" in args]
    assert compiles and "--invalidation-mode unchecked-hash" in compiles[0] and "/opt/azul/lib" in compiles[0]
    # and the start-up's dataclass methods (bot/infra/dataclass_cache.py), once every module is compiled
    assert compiles[0].index("/opt/azul/bin/python -P -m bot precompile") > compiles[0].index("compileall")


def test_the_image_compiles_the_standard_library_its_base_ships_without_bytecode() -> None:
    """The official Python images delete every .pyc under /usr/local: without this, each start compiles the standard
    modules the bot imports (``python -m bench startup``'s "no .pyc" row shows what compiling costs)."""
    runs = [args for word, args in final_stage() if word == "RUN" and "compileall" in args]
    assert runs and "--invalidation-mode unchecked-hash" in runs[0] and "/usr/local/lib/python3.11" in runs[0]
    assert runs[0].index("compileall") > runs[0].index("pip uninstall")  # pip's bytecode is not made to be deleted


def test_the_image_looks_certificates_up_in_the_system_folder_as_the_start_up_benchmark_does() -> None:
    settings = " ".join(argument for word, argument in final_stage() if word == "ENV").split()
    assert all(f"{name}={value}" in settings for name, value in IMAGE_ENV.items())


# A TLS server on localhost with a certificate a test authority signed: prints "verified" or "refused", as aiohttp saw.
FETCH = """
import asyncio, ssl, sys
import aiohttp

async def main() -> None:
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(sys.argv[1], sys.argv[2])
    async def answer(_reader, writer):
        writer.write(b"HTTP/1.1 200 OK\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n")
        await writer.drain()
        writer.close()
    server = await asyncio.start_server(answer, "localhost", 0, ssl=served)
    port = server.sockets[0].getsockname()[1]
    async with aiohttp.ClientSession() as session:
        try:
            async with session.get(f"https://localhost:{port}/") as response:
                print("verified", response.status)
        except aiohttp.ClientConnectorCertificateError:
            print("refused")
    server.close()

asyncio.run(main())
"""


@pytest.mark.skipif(shutil.which("openssl") is None, reason="makes its certificates with the openssl command")
def test_with_the_images_tls_setting_a_connection_is_verified_by_the_certificate_folder(tmp_path: Path) -> None:
    """SSL_CERT_FILE=/dev/null leaves the bundle out: an authority in the SSL_CERT_DIR folder (found by its hash
    link, as in /etc/ssl/certs) still vouches for a server, and without it the server is refused."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=tmp_path, check=True, capture_output=True)

    curve = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    openssl("req", "-x509", *curve, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Test CA")
    openssl("req", *curve, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost")
    (tmp_path / "names").write_text("subjectAltName=DNS:localhost\n")
    signed = ("-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2", "-extfile", "names")
    openssl("x509", "-req", "-in", "server.csr", *signed, "-out", "server.pem")
    trusted, empty = tmp_path / "trusted", tmp_path / "empty"
    trusted.mkdir(), empty.mkdir()
    shutil.copy(tmp_path / "ca.pem", trusted)
    openssl("rehash", str(trusted))

    def fetch(folder: Path) -> str:
        env = {**os.environ, "SSL_CERT_FILE": "/dev/null", "SSL_CERT_DIR": str(folder)}
        command = [sys.executable, "-c", FETCH, str(tmp_path / "server.pem"), str(tmp_path / "server.key")]
        return subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout.strip()

    assert fetch(trusted) == "verified 200"
    assert fetch(empty) == "refused"
