"""A throwaway PostgreSQL cluster for the tests and benchmarks: initdb in a folder, a free port, started and stopped.

    python -m tests.pgcluster start DIR    # prints the cluster's URL (postgresql://…/postgres)
    python -m tests.pgcluster stop DIR

Run as root, the cluster belongs to ``nobody`` (PostgreSQL refuses to run as root). It trusts local connections,
listens on 127.0.0.1 only and does not fsync: it holds test data and nothing else.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import uuid
from pathlib import Path


def bin_dir() -> Path:
    """Where initdb and pg_ctl are: pg_config's answer, else Debian's newest /usr/lib/postgresql/N/bin."""
    found = shutil.which("pg_config")
    if found:
        answer = subprocess.run([found, "--bindir"], capture_output=True, text=True, check=False).stdout.strip()
        if answer and (Path(answer) / "initdb").exists():
            return Path(answer)
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name))
    if not candidates or not shutil.which("initdb", path=candidates[-1]):
        raise SystemExit("PostgreSQL is not installed: apt-get install -y postgresql")
    return Path(candidates[-1])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]


def start(folder: Path) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    data, log = folder / "data", folder / "postgres.log"
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        os.chown(folder, nobody.pw_uid, nobody.pw_gid)
    tools = bin_dir()
    subprocess.run(
        _as_owner([str(tools / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "--locale=C.UTF-8"]),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    port = free_port()
    settings = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300"
    subprocess.run(
        _as_owner([str(tools / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", settings, "-w", "start"]),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    (folder / "url").write_text(f"postgresql://postgres@127.0.0.1:{port}/postgres")
    return (folder / "url").read_text()


def stop(folder: Path) -> None:
    tools = bin_dir()
    subprocess.run(
        _as_owner([str(tools / "pg_ctl"), "-D", str(folder / "data"), "-m", "immediate", "-w", "stop"]),
        check=True,
        stdout=subprocess.DEVNULL,
    )


def fresh_schema(url: str) -> str:
    """A new empty schema in the cluster at ``url``, and the URL whose connections use it: one per test, far
    quicker than a database each."""
    import asyncpg

    name = f"t_{uuid.uuid4().hex}"

    async def create() -> None:
        connection = await asyncpg.connect(url)
        try:
            await connection.execute(f"CREATE SCHEMA {name}")
        finally:
            await connection.close()

    # A thread of its own: the caller may be inside a running event loop (an async fixture) or not.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, create()).result()
    return f"{url}{'&' if '?' in url else '?'}search_path={name}"


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        raise SystemExit(__doc__)
    if sys.argv[1] == "start":
        print(start(Path(sys.argv[2])))
    else:
        stop(Path(sys.argv[2]))
